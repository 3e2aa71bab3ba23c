// The keep viewer: a keep world run by the server, drawn after every advance.
"use strict";

const $ = (id) => document.getElementById(id);
const kv = { id: null, token: null, view: null, timer: null, selected: null, seen: 0 };
const C = UC.CELL;

async function start() {
  const r = await UC.api("POST", "/api/keep/worlds", null, { scenario: $("scenario").value, seed: Number($("seed").value) });
  if (r.status !== 201) { $("status").textContent = r.data.error; return; }
  kv.id = r.data.id; kv.token = r.data.token; kv.seen = 0;
  $("log").replaceChildren();
  $("playpause").disabled = $("next").disabled = false;
  const v = await UC.api("GET", `/api/keep/worlds/${kv.id}/view`, kv.token);
  draw(v.data);
}

async function advance(body) {
  const r = await UC.api("POST", `/api/keep/worlds/${kv.id}/advance`, kv.token, body);
  if (!r.ok) { $("status").textContent = r.data.error; return; }
  draw(r.data);
}

function mark(g, s, x, y) {
  const cx = x * C + C / 2, cy = y * C + C / 2;
  const cls = s.class.toLowerCase();
  let shape;
  if (cls === "mechanism") shape = UC.svg("polygon", { points: `${cx},${y * C + 3} ${x * C + C - 3},${y * C + C - 3} ${x * C + 3},${y * C + C - 3}` });
  else if (cls === "trigger") shape = UC.svg("circle", { cx, cy, r: 6 });
  else if (cls === "timer") shape = UC.svg("rect", { x: x * C + 6, y: y * C + 6, width: C - 12, height: C - 12 });
  else if (cls === "door") shape = UC.svg("rect", { x: x * C + 3, y: y * C + 8, width: C - 6, height: C - 16 });
  else shape = UC.svg("rect", { x: x * C + 9, y: y * C + 9, width: C - 18, height: C - 18 });
  const node = UC.svg("g", { class: `ks ${cls} ${s.state || ""} ${s.open ? "open" : ""}`, "data-structure": s.id });
  node.append(shape);
  const tip = UC.svg("title"); tip.textContent = `${s.id} ${s.kind}${s.state ? " (" + s.state + ")" : ""}`; node.append(tip);
  node.addEventListener("click", () => { kv.selected = s.id; detail(); });
  g.append(node);
}

function draw(view) {
  kv.view = view;
  $("clock").textContent = `day ${view.clock.day}, ${String(view.clock.hour).padStart(2, "0")}:${String(view.clock.minute % 60).padStart(2, "0")}`;
  document.body.dataset.minute = view.clock.minute;
  const svg = $("board");
  UC.drawBoard(svg, { board: view.board });
  const wires = UC.svg("g", { class: "wires" });
  for (const w of view.wires) {
    wires.append(UC.svg("polyline", { points: w.tiles.map(([x, y]) => `${x * C + C / 2},${y * C + C / 2}`).join(" "), class: "wire" }));
  }
  svg.append(wires);
  const g = UC.svg("g", { class: "structures" });
  for (const s of view.structures) if (s.class !== "Lock") mark(g, s, s.pos[0], s.pos[1]);
  svg.append(g);
  const fired = new Set();
  const fresh = view.log.filter((l) => l.entry.seq >= kv.seen);
  for (const l of fresh) if (l.entry.type === "trap.fired") fired.add(l.entry.trap);
  for (const id of fired) {
    const node = svg.querySelector(`[data-structure="${id}"]`);
    if (node) node.classList.add("fired");
  }
  const beings = UC.svg("g", { class: "beings" });
  for (const b of view.beings) {
    const [x, y] = b.pos;
    const node = UC.svg("g", { class: `being ${b.kind}`, "data-being": b.id });
    node.append(UC.svg("circle", { cx: x * C + C / 2, cy: y * C + C / 2, r: C / 2 - 4 }));
    const tip = UC.svg("title"); tip.textContent = `${b.id} (${b.breed})`; node.append(tip);
    beings.append(node);
  }
  svg.append(beings);
  const list = $("log");
  for (const l of fresh) {
    const li = UC.el("li", { "data-type": l.entry.type, "data-seq": l.entry.seq, title: (l.entry.rules || []).join(", ") || null, class: l.entry.type === "trap.fired" ? "fired" : null });
    li.append(UC.el("span", { class: "line", text: `day ${l.entry.time.day} ${String(l.entry.time.hour).padStart(2, "0")}h  ${l.text}` }));
    list.append(li);
  }
  while (list.children.length > 300) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
  kv.seen = view.lines;
  detail();
}

function detail() {
  const box = $("detail");
  if (!kv.view || !kv.selected) return;
  const s = kv.view.structures.find((x) => x.id === kv.selected);
  if (!s) return;
  const trap = kv.view.traps[s.id] || kv.view.traps[kv.selected];
  box.replaceChildren(UC.el("h3", { text: `${s.id}: ${s.kind}` }), UC.el("p", { text: s.state ? `state ${s.state}; rearmed ${s.rearms ?? 0} times; longest gap ${s.max_gap ?? 0} minutes` : "" }));
  if (trap) {
    box.append(UC.el("p", { text: `fired ${trap.fired} times, rearmed ${trap.rearmed}, expired ${trap.expired}` }));
    box.append(UC.el("ol", {}, ...trap.history.map((l) => UC.el("li", { text: `day ${l.entry.time.day} ${l.entry.time.hour}h ${l.text}` }))));
  }
}

async function init() {
  const { data } = await UC.api("GET", "/api/keep/options");
  for (const s of data.scenarios) $("scenario").append(UC.el("option", { value: s }, s));
  $("start").addEventListener("click", start);
  $("next").addEventListener("click", () => advance({ next: true }));
  $("playpause").addEventListener("click", () => {
    if (kv.timer) { clearInterval(kv.timer); kv.timer = null; $("playpause").textContent = "▶ play"; return; }
    $("playpause").textContent = "❚❚ pause";
    kv.timer = setInterval(() => advance({ minutes: Number($("speed").value) }), 400);
  });
}

init();
