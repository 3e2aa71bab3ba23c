// The keep viewer: a keep world run by the server, drawn after every advance or command.
"use strict";

const $ = (id) => document.getElementById(id);
const kv = { id: null, token: null, view: null, timer: null, selected: null, seen: 0, deaths: [], pick: null };

// The keeper commands the page offers, each with the keys it sends (docs/web.md). A key's
// kind says how it is filled: a tile (click the map), an id of a structure or being (a
// list from the view), a word from a list, a number.
const VERBS = {
  build: [["kind", "kinds"], ["at", "tile"]],
  move: [["structure", "movables"], ["to", "tile"]],
  remove: [["target", "structures"]],
  wire: [["path", "tiles"]],
  set_timer: [["timer", "timers"], ["minutes", "number"]],
  arm_lock: [["door", "doors"]],
  disarm_lock: [["door", "doors"]],
  hold_door_open: [["door", "doors"], ["hold", "bool"]],
  pull_lever: [["lever", "levers"]],
  set_job: [["minion", "minions"], ["job", "jobs"]],
  set_stance: [["minion", "minions"], ["stance", "stances"]],
  order_attack: [["minion", "minions"], ["target", "enemies"]],
  rite_of_storms: [["hours", "number"]],
  answer_fugitive: [["fugitive", "fugitives"], ["accept", "bool"]],
  divine: [],
  watchful_eye: [],
};
const WORDS = {
  kinds: ["pressure_plate", "tripwire", "wide_tripwire", "sensor", "lever", "spinning_blades", "flamethrower", "gas_sprayer", "electric_coil", "dart_launcher", "explosive", "spider", "web", "terror", "alarm", "timer", "door", "lock", "barricade"],
  stances: ["flee", "avoid", "defensive", "normal", "aggressive"],
  jobs: ["traps", "chores", "fighting", "none"],
  bool: ["true", "false"],
};

function choices(kind) {
  const v = kv.view;
  if (WORDS[kind]) return WORDS[kind];
  if (!v) return [];
  const of = (cls) => v.structures.filter((s) => s.class === cls).map((s) => s.id);
  if (kind === "doors") return of("Door");
  if (kind === "timers") return v.structures.filter((s) => s.class === "Timer" || (s.class === "Site" && s.kind === "timer")).map((s) => s.id);
  if (kind === "movables") return v.structures.map((s) => s.id);
  if (kind === "fugitives") return v.invasions ? v.invasions.fugitives.filter((f) => f.answer === null).map((f) => f.name) : [];
  if (kind === "levers") return v.structures.filter((s) => s.class === "Trigger" && s.lever).map((s) => s.id);
  if (kind === "structures") return v.structures.map((s) => s.id).concat(v.wires.map((w) => w.id));
  if (kind === "minions") return v.beings.filter((b) => b.kind === "minion" && b.state !== "dead").map((b) => b.id);
  if (kind === "enemies") return v.beings.filter((b) => (b.side === "enemy" || b.side === "wild") && b.state !== "dead").map((b) => b.id);
  return [];
}

function commandForm() {
  const verb = $("verb").value;
  const box = $("fields");
  box.replaceChildren();
  for (const [key, kind] of VERBS[verb]) {
    let input;
    if (kind === "number") {
      input = UC.el("input", { id: `f-${key}`, "data-key": key, "data-kind": kind, type: "number", min: 0, step: 1, placeholder: key === "hours" ? "the rules' default" : "" });
    } else if (kind === "tile" || kind === "tiles") {
      input = UC.el("input", { id: `f-${key}`, "data-key": key, "data-kind": kind, placeholder: kind === "tile" ? "click the map" : "click the map, tile by tile", readonly: true });
      input.addEventListener("focus", () => { kv.pick = input; });
    } else {
      input = UC.el("select", { id: `f-${key}`, "data-key": key, "data-kind": kind }, ...choices(kind).map((c) => UC.el("option", { value: c }, c)));
    }
    box.append(UC.el("label", {}, `${key} `, input));
  }
}

function pickSquare(xy) {
  const input = kv.pick;
  if (!input) return;
  if (input.dataset.kind === "tile") input.value = JSON.stringify(xy);
  else input.value = JSON.stringify([...(input.value ? JSON.parse(input.value) : []), xy]);
}

async function sendCommand() {
  const body = { do: $("verb").value };
  for (const input of $("fields").querySelectorAll("[data-key]")) {
    const kind = input.dataset.kind;
    if (!input.value) continue;
    body[input.dataset.key] = kind === "tile" || kind === "tiles" ? JSON.parse(input.value) : kind === "bool" ? input.value === "true" : kind === "number" ? Number(input.value) : input.value;
  }
  const r = await UC.api("POST", `/api/keep/worlds/${kv.id}/commands`, kv.token, body);
  $("command-result").textContent = r.ok ? r.data.command.text : r.data.error;
  $("command-result").className = r.ok ? "ok" : "error";
  if (r.ok) draw(r.data);
}

async function start() {
  const r = await UC.api("POST", "/api/keep/worlds", null, { scenario: $("scenario").value, seed: Number($("seed").value) });
  if (r.status !== 201) { $("status").textContent = r.data.error; return; }
  kv.id = r.data.id; kv.token = r.data.token; kv.seen = 0; kv.deaths = []; kv.selected = null;
  $("log").replaceChildren();
  for (const id of ["playpause", "next", "send"]) $(id).disabled = false;
  const v = await UC.api("GET", `/api/keep/worlds/${kv.id}/view`, kv.token);
  draw(v.data);
  commandForm();
}

async function advance(body) {
  if (kv.busy) return;  // a slow day must not pile requests up behind it
  kv.busy = true;
  document.body.dataset.busy = "1";
  let r;
  try { r = await UC.api("POST", `/api/keep/worlds/${kv.id}/advance`, kv.token, body); } finally { kv.busy = false; document.body.dataset.busy = "0"; }
  if (!r.ok) { $("status").textContent = r.data.error; return; }
  $("status").textContent = r.data.found === false ? "nothing of that kind within a week" : "";
  draw(r.data);
}

function draw(view) {
  kv.view = view;
  $("clock").textContent = KM.time(view.clock);
  document.body.dataset.minute = view.clock.minute;
  const fresh = view.log.filter((l) => l.entry.seq >= kv.seen);
  const fired = new Set(fresh.filter((l) => l.entry.type === "trap.fired").map((l) => l.entry.trap));
  const structures = view.structures.map((s) => (fired.has(s.id) ? { ...s, fired_now: true } : s));
  KM.draw($("board"), { ...view, structures }, {
    onStructure: (s) => { kv.selected = { structure: s.id }; detail(); },
    onBeing: (b) => { kv.selected = { being: b.id }; detail(); },
    onSquare: pickSquare,
  });
  const list = $("log");
  for (const l of fresh) {
    const li = UC.el("li", { "data-type": l.entry.type, "data-seq": l.entry.seq, "data-trap": l.entry.trap || null, title: (l.entry.rules || []).join(", ") || null, class: l.entry.type === "trap.fired" ? "fired" : l.entry.type === "being.died" ? "death" : null });
    li.append(UC.el("span", { class: "line", text: `${KM.time(l.entry.time)}  ${l.text}` }));
    list.append(li);
    if (l.entry.type === "being.died") kv.deaths.push(l);
  }
  while (list.children.length > 300) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  kv.seen = view.lines;
  invasions(view);
  for (const select of $("fields").querySelectorAll("select[data-kind]")) {
    const keep = select.value;
    select.replaceChildren(...choices(select.dataset.kind).map((c) => UC.el("option", { value: c }, c)));
    if (keep) select.value = keep;
  }
  detail();
}

function invasions(view) {
  const box = $("invasions");
  if (!view.invasions) { box.replaceChildren(UC.el("p", { text: "invasions are off in this world" })); return; }
  const ind = view.invasions.indicator;
  const rows = [UC.el("p", { class: "indicator", text: `indicator: ${ind.word} (${ind.percent.toFixed(1)}% this hour)` })];
  const charges = Object.entries(view.invasions.charges || {}).map(([k, n]) => `${k.replace("_", " ")} ${n}`);
  if (charges.length) rows.push(UC.el("p", { class: "charges", text: `charges: ${charges.join(" · ")}` }));
  for (const f of view.invasions.fugitives || []) {
    rows.push(UC.el("p", { class: "fugitive", "data-fugitive": f.name, text: `fugitive ${f.name} asks to hide (K-SIZE-02): ${f.answer ?? "not answered yet (answer_fugitive)"}` }));
  }
  const byId = new Map(view.beings.map((b) => [b.id, b]));
  for (const g of view.invasions.groups) {
    const members = g.members.map((id) => {
      const b = byId.get(id);
      const li = UC.el("li", { class: "member", "data-adventurer": id, text: `${id} ${b ? `${b.breed} L${b.level}: ${b.state}, wounds ${b.wound_points}/10${b.where !== "in" ? ", " + b.where : ""}` : "not on the map"}` });
      li.addEventListener("click", () => { kv.selected = { being: id }; detail(); });
      return li;
    });
    rows.push(UC.el("div", { class: "group", "data-group": g.number },
      UC.el("h3", { text: `invasion ${g.number} (${g.kind}) from ${g.home}: ${g.goal}${g.ended !== null ? " · over" : ""}${g.sighted !== null ? " · sighted" : ""}${g.caution ? ` · Caution +${g.caution}` : ""}` }),
      UC.el("ul", {}, ...members)));
  }
  rows.push(UC.el("h3", { text: `deaths (${kv.deaths.length})` }));
  rows.push(UC.el("ol", { id: "deaths" }, ...kv.deaths.slice(-12).map((l) => UC.el("li", { text: `${KM.time(l.entry.time)} ${l.text}` }))));
  box.replaceChildren(...rows);
}

async function detail() {
  const box = $("detail");
  if (!kv.view || !kv.selected) return;
  if (kv.selected.being) {
    const b = kv.view.beings.find((x) => x.id === kv.selected.being);
    const head = UC.el("h3", { text: `${kv.selected.being}${b ? ` (${b.breed}): ${b.state}` : ""}` });
    const facts = b ? UC.el("p", { text: `side ${b.side} · wounds ${b.wound_points}/10 (${b.wounds} taken)${b.bleeding ? " · bleeding" : ""}${b.held ? " · held by a web" : ""}${b.terrified ? " · terrified" : ""}${b.carried_by ? " · carried by " + b.carried_by : ""}${b.stance ? " · stance " + b.stance : ""}${b.job ? " · job " + b.job : ""}` }) : UC.el("p", { text: "not on the map" });
    box.replaceChildren(head, facts);
    if (kv.selected.being.startsWith("adv:")) {
      const r = await UC.api("GET", `/api/keep/worlds/${kv.id}/adventurers/${encodeURIComponent(kv.selected.being)}`, kv.token);
      if (!r.ok) return;
      const k = r.data;
      const bonus = (o) => Object.entries(o).map(([t, n]) => `${t} +${n}`).join(", ") || "none";
      box.append(UC.el("div", { class: "knowledge", "data-knows": k.knows.length },
        UC.el("p", { text: `${k.class} level ${k.level}${k.traits.length ? " · " + k.traits.join(", ") : ""} · ${k.where} · Caution +${k.caution}` }),
        UC.el("p", { text: `knows ${k.knows.length} trigger(s) (K-LEARN-07):` }),
        UC.el("ul", {}, ...k.knows.map((t) => UC.el("li", { text: `${t.trigger} ${t.kind} at [${t.at}] (${t.how})` }))),
        UC.el("p", { text: `discover bonuses: ${bonus(k.detect)} · Block bonuses: ${bonus(k.block)}` }),
        k.note ? UC.el("p", { class: "note", text: k.note }) : ""));
    }
    return;
  }
  const s = kv.view.structures.find((x) => x.id === kv.selected.structure);
  if (!s) return;
  const trap = kv.view.traps[s.id];
  box.replaceChildren(UC.el("h3", { text: `${s.id}: ${s.kind}` }), UC.el("p", { text: s.state ? `state ${s.state}; rearmed ${s.rearms ?? 0} times; longest gap ${s.max_gap ?? 0} minutes` : s.class === "Door" ? `${s.open ? "open" : "closed"}${s.held_open ? ", held open" : ""}${s.lock ? ", lock " + s.lock : ""}${s.breached ? ", breached" : ""}` : "" }));
  if (trap) {
    box.append(UC.el("p", { text: `fired ${trap.fired} times, rearmed ${trap.rearmed}, expired ${trap.expired}` }));
    box.append(UC.el("ol", {}, ...trap.history.map((l) => UC.el("li", { text: `${KM.time(l.entry.time)} ${l.text}` }))));
  }
}

async function init() {
  const { data } = await UC.api("GET", "/api/keep/options");
  for (const s of data.scenarios) $("scenario").append(UC.el("option", { value: s }, s));
  for (const v of Object.keys(VERBS)) $("verb").append(UC.el("option", { value: v }, v));
  $("verb").addEventListener("change", commandForm);
  $("send").addEventListener("click", sendCommand);
  $("start").addEventListener("click", start);
  $("next").addEventListener("click", () => advance({ next: $("next-kind").value === "any" ? true : $("next-kind").value }));
  $("playpause").addEventListener("click", () => {
    if (kv.timer) { clearInterval(kv.timer); kv.timer = null; $("playpause").textContent = "▶ play"; return; }
    $("playpause").textContent = "❚❚ pause";
    kv.timer = setInterval(() => advance({ minutes: Number($("speed").value) }), 400);
  });
}

init();
