// Drawing a keep world (the live viewer's view, or a keep replay's frame) into an <svg>:
// the map, wiring, structures (traps armed, spent or just fired; doors open, held,
// locked, breached) and beings drawn by side (your side, adventurers, wild, visitors)
// with their state (up, unconscious, fallen, captured, dead).
"use strict";

const KM = {};

KM.mark = function (s, onclick) {
  const C = UC.CELL;
  const [x, y] = s.pos;
  const cx = x * C + C / 2, cy = y * C + C / 2;
  const cls = s.class.toLowerCase();
  let shape;
  if (cls === "mechanism") shape = UC.svg("polygon", { points: `${cx},${y * C + 3} ${x * C + C - 3},${y * C + C - 3} ${x * C + 3},${y * C + C - 3}` });
  else if (cls === "trigger") shape = UC.svg("circle", { cx, cy, r: 6 });
  else if (cls === "timer") shape = UC.svg("rect", { x: x * C + 6, y: y * C + 6, width: C - 12, height: C - 12 });
  else if (cls === "door") shape = UC.svg("rect", { x: x * C + 3, y: y * C + 8, width: C - 6, height: C - 16 });
  else shape = UC.svg("rect", { x: x * C + 9, y: y * C + 9, width: C - 18, height: C - 18 });
  const flags = [s.state || "", s.open ? "open" : "", s.held_open ? "held" : "", s.locked ? "locked" : "", s.breached ? "breached" : "", s.fired_now ? "fired" : ""];
  const node = UC.svg("g", { class: `ks ${cls} ${flags.join(" ")}`.trim(), "data-structure": s.id });
  node.append(shape);
  if (cls === "door" && s.locked) node.append(UC.svg("circle", { cx, cy, r: 3, class: "lock-mark" }));
  const tip = UC.svg("title");
  tip.textContent = `${s.id} ${s.kind}${s.state ? " (" + s.state + ")" : ""}${s.locked ? " locked" : ""}${s.held_open ? " held open" : ""}`;
  node.append(tip);
  if (onclick) node.addEventListener("click", (e) => { e.stopPropagation(); onclick(s); });
  return node;
};

KM.being = function (b, onclick) {
  const C = UC.CELL;
  const [x, y] = b.pos;
  const cx = x * C + C / 2, cy = y * C + C / 2, r = C / 2 - 4;
  const node = UC.svg("g", { class: `being ${b.kind} side-${b.side} state-${b.state || "up"}`, "data-being": b.id, "data-state": b.state || "up" });
  if (b.kind === "adventurer") node.append(UC.svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy} ${cx},${cy + r + 1} ${cx - r - 1},${cy}` }));
  else node.append(UC.svg("circle", { cx, cy, r }));
  if (b.state === "dead") node.append(UC.svg("path", { class: "dead-mark", d: `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}` }));
  if (b.wound_points) {
    const w = Math.min(10, b.wound_points) / 10 * (C - 4);
    node.append(UC.svg("rect", { class: "wound-bar", x: x * C + 2, y: y * C + C - 3, width: w, height: 2 }));
  }
  const tip = UC.svg("title");
  tip.textContent = `${b.id} (${b.breed || b.kind}) ${b.state || "up"}` + (b.wound_points !== undefined ? `, wounds ${b.wound_points}/10` : "");
  node.append(tip);
  if (onclick) node.addEventListener("click", (e) => { e.stopPropagation(); onclick(b); });
  return node;
};

// view: {board, wires, structures, beings}; opts: {onStructure, onBeing, onSquare}
KM.draw = function (svg, view, opts) {
  opts = opts || {};
  const C = UC.CELL;
  UC.drawBoard(svg, { board: view.board });
  if (opts.onSquare) {
    for (const sq of svg.querySelectorAll("rect.sq")) sq.addEventListener("click", () => opts.onSquare(sq.dataset.sq.split(",").map(Number)));
  }
  const wires = UC.svg("g", { class: "wires" });
  for (const w of view.wires || []) {
    wires.append(UC.svg("polyline", { points: w.tiles.map(([x, y]) => `${x * C + C / 2},${y * C + C / 2}`).join(" "), class: "wire", "data-wire": w.id }));
  }
  svg.append(wires);
  const locks = new Set((view.structures || []).filter((s) => s.class === "Lock" && s.armed).map((s) => s.door));
  const g = UC.svg("g", { class: "structures" });
  for (const s of view.structures || []) {
    if (s.class === "Lock" || !s.pos) continue;
    g.append(KM.mark({ ...s, locked: locks.has(s.id) }, opts.onStructure));
  }
  svg.append(g);
  const beings = UC.svg("g", { class: "beings" });
  const order = (b) => (b.state === "dead" ? 0 : 1);
  for (const b of [...(view.beings || [])].sort((a, c) => order(a) - order(c))) if (b.pos) beings.append(KM.being(b, opts.onBeing));
  svg.append(beings);
};

KM.time = function (t) {
  return `day ${t.day} ${String(t.hour).padStart(2, "0")}:${String(t.minute % 60).padStart(2, "0")}`;
};
