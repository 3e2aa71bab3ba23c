// The replay page: a crawl log as frames, scrubbed with a timeline, in a seat's view.
"use strict";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length === 3 ? parts[2] : null;
const tokens = UC.hashParams();
const rp = { data: null, index: 0, timer: null, fileText: null };

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
    const response = await fetch(`/api/replays/crawl?seat=${seat}`, { method: "POST", headers: { "Content-Type": "application/jsonl" }, body: rp.fileText });
    r = { ok: response.ok, status: response.status, data: await response.json() };
  } else { $("status").textContent = "Choose a crawl log file (written with --log)."; return; }
  if (!r.ok) { $("status").textContent = `cannot replay (${r.status}): ${r.data.error}`; return; }
  rp.data = r.data;
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
  $("position").textContent = `line ${i + 1} of ${frames.length} · turn ${frame.entry.time.turn ?? "-"}`;
  document.body.dataset.index = i;
  const board = boardAt(i);
  if (board) UC.drawBoard($("board"), { ...frame, board });
  const list = $("narration");
  const items = [];
  for (let k = Math.max(0, i - 300); k <= i; k++) {
    if (frames[k].text) items.push(UC.narrationItem(frames[k]));
  }
  if (items.length) items[items.length - 1].classList.add("current");
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
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
    $("status").textContent = "Choose a crawl log file (written with --log).";
  } else if (!seatsOffered().length) $("status").textContent = "This link has no seat token.";
  else fetchFrames();
}

init();
