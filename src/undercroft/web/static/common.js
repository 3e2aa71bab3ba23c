// undercroft pages: what the lobby, the game and the replay pages share.
// Everything drawn here comes from what the server sent this seat (an observation, the
// seat's log lines, replay frames); the page never holds more than that.
"use strict";

const UC = {};
UC.CELL = 24;
UC.SVGNS = "http://www.w3.org/2000/svg";

UC.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) node.append(c);
  return node;
};

UC.svg = function (tag, attrs) {
  const node = document.createElementNS(UC.SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  return node;
};

// The secret token travels in the URL fragment (never sent to the server with the page).
UC.hashParams = function () {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
};

UC.api = async function (method, path, token, body) {
  const headers = {};
  if (token) headers["Authorization"] = "Bearer " + token;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") && !type.includes("jsonl") ? await response.json() : await response.text();
  return { status: response.status, ok: response.ok, data };
};

// "hero:brenna" -> "Brenna", "monster:orc-2" -> "Orc 2"
UC.name = function (id) {
  let text = String(id);
  if (text.includes(":")) text = text.split(":").slice(1).join(":");
  const m = text.match(/^(.*)-(\d+)$/);
  const title = (s) => s.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  return m ? `${title(m[1])} ${m[2]}` : title(text);
};

// A figure's label on the board: a monster's kind by its initials (or first two letters)
// and its number, so two of a kind are told apart ("monster:giant-rat-2" -> "GR2",
// "monster:goblin-12" -> "Go12"); a hero's first two letters.
UC.short = function (id) {
  const full = UC.name(id);
  const m = full.match(/^(.*) (\d+)$/);
  if (!m) return full.slice(0, 2);
  const words = m[1].split(" ");
  const head = words.length > 1 ? words.map((w) => w[0]).join("").slice(0, 2) : words[0].slice(0, 2);
  return head + m[2];
};

// The room or corridor a square belongs to, as this seat knows it (the observation's
// area_map marks the squares of each revealed area; nothing for a square of none).
UC.AREA_KEY = 0x41;
UC.areaAt = function (view, x, y) {
  const row = (view.area_map || "").split("\n")[y];
  const ch = row ? row[x] : undefined;
  if (!ch || ch === " ") return null;
  return (view.revealed || [])[ch.codePointAt(0) - UC.AREA_KEY] || null;
};

UC.where = function (view, x, y) {
  const area = UC.areaAt(view, x, y);
  return `(${x},${y})` + (area ? ` ${area}` : "");
};

UC.ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3];

// Zoom buttons (and Ctrl + wheel) and a line saying which square the pointer is over,
// set up once per board; drawBoard keeps the zoom across redraws.
UC.boardTools = function (svg) {
  if (svg.dataset.tools) return;
  svg.dataset.tools = "1";
  svg.dataset.zoom = svg.dataset.zoom || "2";
  const where = UC.el("span", { class: "where", "aria-live": "off" }, "");
  const zoomBy = (step) => {
    const i = Math.max(0, Math.min(UC.ZOOMS.length - 1, Number(svg.dataset.zoom) + step));
    svg.dataset.zoom = String(i);
    UC.sizeBoard(svg);
  };
  const bar = UC.el("div", { class: "board-tools" },
    UC.el("button", { class: "zoom-out", title: "zoom out (Ctrl + wheel)", "aria-label": "zoom out", onclick: () => zoomBy(-1) }, "−"),
    UC.el("button", { class: "zoom-in", title: "zoom in (Ctrl + wheel)", "aria-label": "zoom in", onclick: () => zoomBy(1) }, "+"),
    where);
  svg.before(bar);
  svg.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    zoomBy(e.deltaY < 0 ? 1 : -1);
  }, { passive: false });
  svg.addEventListener("mousemove", (e) => {
    const v = svg.ucView;
    if (!v) return;
    const r = svg.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) / (r.width / v.width));
    const y = Math.floor((e.clientY - r.top) / (r.height / v.height));
    where.textContent = x >= 0 && y >= 0 && x < v.width && y < v.height ? UC.where(v.view, x, y) : "";
  });
  svg.addEventListener("mouseleave", () => { where.textContent = ""; });
};

UC.sizeBoard = function (svg) {
  const v = svg.ucView;
  if (!v) return;
  const zoom = UC.ZOOMS[Number(svg.dataset.zoom || 2)];
  svg.setAttribute("width", v.width * UC.CELL * zoom);
  svg.setAttribute("height", v.height * UC.CELL * zoom);
  svg.dataset.scale = String(zoom);
};

UC.TERRAIN = {
  "#": "wall", ".": "floor", "+": "door", "'": "door-open", "&": "door-locked",
  "T": "furniture", "X": "blockage", "~": "water", ":": "dark", "?": "unknown",
};

// Draw a board (an observation or a replay frame) into an <svg>. `opts.targets` maps
// "x,y" -> {cls, title, onclick} for squares the seat may click.
UC.drawBoard = function (svg, view, opts) {
  opts = opts || {};
  const C = UC.CELL;
  const rows = (view.board || "").split("\n");
  const height = rows.length, width = Math.max(...rows.map((r) => r.length), 1);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width * C} ${height * C}`);
  svg.ucView = { view, width, height };
  UC.boardTools(svg);
  UC.sizeBoard(svg);
  const layer = (name) => { const g = UC.svg("g", { class: name }); svg.append(g); return g; };
  const cells = layer("cells");
  rows.forEach((row, y) => {
    [...row].forEach((ch, x) => {
      const cls = UC.TERRAIN[ch] || "floor";
      const cell = UC.svg("rect", { x: x * C, y: y * C, width: C, height: C, class: "sq " + cls, "data-sq": `${x},${y}` });
      const tip = UC.svg("title"); tip.textContent = UC.where(view, x, y); cell.append(tip);
      cells.append(cell);
      if (cls === "furniture") cells.append(UC.svg("rect", { x: x * C + 5, y: y * C + 5, width: C - 10, height: C - 10, class: "table" }));
    });
  });
  const marks = layer("marks");
  for (const [x, y] of view.exits || []) {
    marks.append(UC.svg("rect", { x: x * C + 2, y: y * C + 2, width: C - 4, height: C - 4, class: "exit", "data-exit": `${x},${y}` }));
  }
  for (const t of view.traps || []) {
    const [x, y] = t.at;
    const g = UC.svg("g", { class: "trap" + (t.armed === false ? " spent" : ""), "data-trap": `${x},${y}` });
    g.append(UC.svg("polygon", { points: `${x * C + C / 2},${y * C + 4} ${x * C + C - 4},${y * C + C - 4} ${x * C + 4},${y * C + C - 4}` }));
    const tip = UC.svg("title"); tip.textContent = `trap${t.kind ? ": " + t.kind : ""}${t.armed === false ? " (spent)" : ""}`;
    g.append(tip); marks.append(g);
  }
  for (const c of view.corpses || []) {
    const [x, y] = c.at;
    const g = UC.svg("g", { class: "corpse", "data-corpse": `${x},${y}` });
    g.append(UC.svg("path", { d: `M${x * C + 5},${y * C + 5}L${x * C + C - 5},${y * C + C - 5}M${x * C + C - 5},${y * C + 5}L${x * C + 5},${y * C + C - 5}` }));
    const tip = UC.svg("title"); tip.textContent = `the body of ${UC.name(c.hero)}`; g.append(tip);
    marks.append(g);
  }
  const figures = layer("figures");
  const figure = (f, cls, label) => {
    if (!f.pos) return;
    const [x, y] = f.pos;
    const g = UC.svg("g", { class: "figure " + cls + (opts.selected === f.id ? " selected" : ""), "data-id": f.id });
    g.append(UC.svg("circle", { cx: x * C + C / 2, cy: y * C + C / 2, r: C / 2 - 2 }));
    const t = UC.svg("text", { x: x * C + C / 2, y: y * C + C / 2 + 4, "text-anchor": "middle", class: label.length > 3 ? "long" : null });
    t.textContent = label; g.append(t);
    const tip = UC.svg("title");
    tip.textContent = `${UC.name(f.id)} at ${UC.where(view, x, y)}  Health ${f.health ?? "?"}  Stamina ${f.stamina ?? "?"}` + (f.magic !== undefined ? `  Magic ${f.magic}` : "");
    g.append(tip);
    if (opts.onFigure) g.addEventListener("click", () => opts.onFigure(f));
    figures.append(g);
  };
  for (const h of view.heroes || []) figure(h, "hero", UC.short(h.id));
  for (const m of view.monsters || []) figure(m, "monster", UC.short(m.id));
  const targets = layer("targets");
  for (const [key, t] of Object.entries(opts.targets || {})) {
    const [x, y] = key.split(",").map(Number);
    const r = UC.svg("rect", { x: x * C + 1, y: y * C + 1, width: C - 2, height: C - 2, class: "target " + (t.cls || ""), "data-target": key });
    const tip = UC.svg("title"); tip.textContent = t.title || ""; r.append(tip);
    r.addEventListener("click", t.onclick);
    targets.append(r);
  }
};

UC.DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];

// The dice of a roll or fight line, as faces, or null for other lines.
UC.dice = function (entry) {
  const faces = (list) => (list || []).map((n) => UC.DIE[n] || String(n)).join("");
  if (entry.type === "roll") return { who: entry.actor === "dm" ? "DM" : UC.name(entry.actor), faces: faces(entry.natural), outcome: entry.outcome };
  if (entry.type === "fight") {
    return { who: `${UC.name(entry.hero)} ${faces(entry.hero_dice)} vs ${UC.name(entry.monster)}`, faces: faces(entry.monster_dice), outcome: entry.winner ? UC.name(entry[entry.winner]) + " wins" : "tie" };
  }
  return null;
};

// A narration line: the sentence, with the rule IDs on hover (title) and in a tag.
UC.narrationItem = function (view) {
  const entry = view.entry;
  const rules = (entry.rules || []).join(", ");
  const li = UC.el("li", { "data-seq": entry.seq, "data-type": entry.type, title: rules || null });
  li.append(UC.el("span", { class: "line", text: view.text }));
  if (rules) li.append(UC.el("span", { class: "rules", text: rules }));
  return li;
};

UC.summaryLines = function (s) {
  const list = (xs) => (xs && xs.length ? xs.map(UC.name).join(", ") : "nobody");
  const goals = (xs) => (xs && xs.length ? xs.join(", ") : "none");
  return [
    `Outcome: ${s.outcome} after ${s.turns} turns (Light left ${s.light})`,
    s.reason || "",
    `Adventure ${s.won ? "won" : "not won"}`,
    `Goals met: ${goals(s.goals_met)}; goals failed: ${goals(s.goals_failed)}`,
    `Escaped: ${list(s.escaped)}`,
    `Dead: ${list(s.dead)}`,
    `Treasure carried out: ${s.treasure}`,
  ].filter(Boolean);
};
