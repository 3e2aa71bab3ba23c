// The replay page: a crawl log as frames, scrubbed with a timeline, in a seat's view; or a
// keep log (written with `run keep --log`), drawn with the keep viewer's map (keepmap.js).
"use strict";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length === 3 ? parts[2] : null;
const tokens = UC.hashParams();
const rp = { data: null, index: 0, timer: null, fileText: null, checkpoints: null };
const CHECKPOINT = 250;  // a keep replay's picture is kept every so many frames

// A keep frame carries only what changed: the picture at frame i is the start folded with
// every change up to i (from the nearest checkpoint).
function keepPicture(i) {
  const d = rp.data;
  if (!rp.checkpoints) {
    const byId = (xs) => new Map(xs.map((x) => [x.id, x]));
    rp.checkpoints = new Map([[-1, { structures: byId(d.start.structures), beings: byId(d.start.beings), wires: byId(d.start.wires) }]]);
  }
  let k = Math.floor((i + 1) / CHECKPOINT) * CHECKPOINT - 1;
  while (!rp.checkpoints.has(k)) k -= CHECKPOINT;
  const from = rp.checkpoints.get(k);
  const pic = { structures: new Map(from.structures), beings: new Map(from.beings), wires: new Map(from.wires) };
  for (let j = k + 1; j <= i; j++) {
    const f = d.frames[j];
    for (const [table, items] of Object.entries(f.changed || {})) for (const x of items) pic[table].set(x.id, x);
    for (const id of f.removed || []) for (const table of Object.values(pic)) table.delete(id);
    if ((j + 1) % CHECKPOINT === 0 && !rp.checkpoints.has(j)) rp.checkpoints.set(j, { structures: new Map(pic.structures), beings: new Map(pic.beings), wires: new Map(pic.wires) });
  }
  return pic;
}

function showKeep(i) {
  const frame = rp.data.frames[i];
  const pic = keepPicture(i);
  const fired = new Set(frame.fired || []);
  const structures = [...pic.structures.values()].map((s) => (fired.has(s.id) ? { ...s, fired_now: true } : s));
  const beings = [...pic.beings.values()];
  if (rp.data.board_known) KM.draw($("board"), { board: rp.data.start.board, structures, wires: [...pic.wires.values()], beings });
  $("position").textContent = `line ${i + 1} of ${rp.data.frames.length} · ${KM.time(frame.entry.time)}`;
  const adventurers = beings.filter((b) => b.kind === "adventurer");
  $("dice").textContent = "";
  $("heroes").replaceChildren(UC.el("h2", { text: `adventurers (${adventurers.length})` }),
    ...adventurers.map((b) => UC.el("div", { class: "hero-card", "data-adventurer": b.id }, UC.el("h3", { text: `${b.id} ${b.breed || ""}` }), UC.el("div", { class: "stats", text: `${b.state} · wounds ${b.wound_points}/10` }))));
}

function seatsOffered() {
  if (!gameId) return ["dm", "heroes"];
  return ["heroes", "dm"].filter((s) => tokens.get(s));
}

async function fetchFrames() {
  const seat = $("seat").value;
  $("status").textContent = "loading…";
  let r;
  if (gameId) r = await UC.api("GET", `/api/crawl/games/${gameId}/replay`, tokens.get(seat));
  else if (rp.fileText !== null) {
    const response = await fetch(`/api/replays?seat=${seat}`, { method: "POST", headers: { "Content-Type": "application/jsonl" }, body: rp.fileText });
    r = { ok: response.ok, status: response.status, data: await response.json() };
  } else { $("status").textContent = "Choose a crawl or keep log file (written with --log)."; return; }
  if (!r.ok) { $("status").textContent = `cannot replay (${r.status}): ${r.data.error}`; return; }
  rp.data = r.data;
  rp.checkpoints = null;
  document.body.dataset.ruleset = r.data.ruleset || "crawl";
  $("seat-pick").hidden = r.data.ruleset === "keep";  // a keep log hides nothing: no seats
  $("status").textContent = "";
  $("title").textContent = `${r.data.scenario} · seed ${r.data.seed}`;
  $("scrubber").max = Math.max(0, r.data.frames.length - 1);
  $("no-board").hidden = r.data.board_known;
  show(r.data.frames.length ? r.data.frames.length - 1 : 0);
}

function boardAt(i) {
  for (let k = i; k >= 0; k--) if (rp.data.frames[k].board !== undefined) return rp.data.frames[k].board;
  return null;
}

function show(i) {
  const frames = rp.data.frames;
  if (!frames.length) return;
  i = Math.max(0, Math.min(frames.length - 1, i));
  rp.index = i;
  $("scrubber").value = i;
  const frame = frames[i];
  document.body.dataset.index = i;
  const keep = rp.data.ruleset === "keep";
  if (keep) showKeep(i);
  else {
    $("position").textContent = `line ${i + 1} of ${frames.length} · turn ${frame.entry.time.turn ?? "-"}`;
    const board = boardAt(i);
    if (board) UC.drawBoard($("board"), { ...frame, board });
  }
  const list = $("narration");
  const items = [];
  for (let k = Math.max(0, i - 300); k <= i; k++) {
    if (frames[k].text) items.push(UC.narrationItem(frames[k]));
  }
  if (items.length) items[items.length - 1].classList.add("current");
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
  if (keep) {
    const s = rp.data.summary;
    $("summary").replaceChildren(...(s && i === frames.length - 1 ? Object.entries(s).filter(([, v]) => typeof v !== "object").map(([k, v]) => UC.el("p", { text: `${k}: ${v}` })) : []));
    return;
  }
  for (let k = i; k >= 0; k--) {
    const dice = UC.dice(frames[k].entry);
    if (dice) { $("dice").textContent = `${dice.who} ${dice.faces} → ${dice.outcome}`; break; }
  }
  $("heroes").replaceChildren(...frame.heroes.map((h) => UC.el("div", { class: "hero-card" }, UC.el("h3", { text: UC.name(h.id) }), UC.el("div", { class: "stats", text: `Health ${h.health} · Stamina ${h.stamina} · Magic ${h.magic}${h.dead ? " · dead" : h.left ? " · left" : ""}` }))));
  const s = rp.data.summary;
  $("summary").replaceChildren(...(s && i === frames.length - 1 ? UC.summaryLines(s).map((t) => UC.el("p", { text: t })) : []));
}

function init() {
  for (const seat of seatsOffered()) $("seat").append(UC.el("option", { value: seat }, seat === "dm" ? "the Dungeon Master" : "the heroes"));
  $("seat").addEventListener("change", fetchFrames);
  $("scrubber").addEventListener("input", () => show(Number($("scrubber").value)));
  $("prev").addEventListener("click", () => show(rp.index - 1));
  $("next").addEventListener("click", () => show(rp.index + 1));
  $("playpause").addEventListener("click", () => {
    if (rp.timer) { clearInterval(rp.timer); rp.timer = null; $("playpause").textContent = "▶"; return; }
    if (rp.index >= rp.data.frames.length - 1) show(0);
    $("playpause").textContent = "❚❚";
    rp.timer = setInterval(() => { if (rp.index >= rp.data.frames.length - 1) $("playpause").click(); else show(rp.index + 1); }, 150);
  });
  if (!gameId) {
    $("file-pick").hidden = false;
    $("file").addEventListener("change", async () => {
      const file = $("file").files[0];
      if (file) { rp.fileText = await file.text(); fetchFrames(); }
    });
    $("status").textContent = "Choose a crawl or keep log file (written with --log).";
  } else if (!seatsOffered().length) $("status").textContent = "This link has no seat token.";
  else fetchFrames();
}

init();
