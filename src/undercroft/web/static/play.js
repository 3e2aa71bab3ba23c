// The game page: one seat's view of a crawl game, its legal actions as clicks.
"use strict";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const token = UC.hashParams().get("token") || "";
const myHero = new URLSearchParams(location.search).get("hero");
const state = { obs: null, selected: myHero, monster: null, busy: false, next: 0, summary: null, walking: null, players: null, choices: null };

const $ = (id) => document.getElementById(id);

function sq(p) { return `(${p[0]},${p[1]})`; }

// A sentence for a legal action (the JSON is exactly what is sent back).
function label(a) {
  const h = a.hero ? UC.name(a.hero) + ": " : "";
  const item = (uid) => {
    for (const hero of state.obs.heroes) for (const it of hero.items) if (it.uid === uid) return it.name;
    for (const c of state.obs.corpses) for (const it of c.items) if (it.uid === uid) return it.name;
    return uid;
  };
  switch (a.action) {
    case "Step": return `${h}step to ${sq(a.to)}`;
    case "SpendStamina": return `${h}spend ${a.points} Stamina for ${a.points} more square${a.points > 1 ? "s" : ""}`;
    case "OpenDoor": return `${h}force the door at ${sq(a.door)}`;
    case "Jump": return `${h}jump over ${sq(a.over)}`;
    case "Disarm": return `${h}disarm the trap at ${sq(a.trap)}`;
    case "Drag": return `${h}drag the body at ${sq(a.corpse)}`;
    case "Leave": return `${h}leave the dungeon`;
    case "Rest": return `${h}rest this turn`;
    case "EndMovement": return `${h}end movement`;
    case "UseItem": return `${h}use ${item(a.item)}` + (a.target ? ` on ${UC.name(a.target)}` : "");
    case "Cast": return `${h}cast ${a.spell ? UC.name(a.spell) : "the unread scroll"}` + (a.source ? ` from ${item(a.source)}` : "") + (a.overcast ? " (overcast)" : "") + (a.target ? ` on ${UC.name(a.target)}` : "");
    case "BeginCasting": return `${h}begin casting ${a.spell ? UC.name(a.spell) : "the unread scroll"}` + (a.overcast ? " (overcast)" : "");
    case "Evade": return `${h}evade to ${sq(a.to)} (2 Stamina)`;
    case "CastingChoice": return `${h}${a.double_ones ? "keep the spell: fight with double ones" : "let the spell fail"}`;
    case "FightStamina": return `spend ${a.points} Stamina on the fight`;
    case "ChooseTarget": return `${h}target ${a.target ? UC.name(a.target) : "nobody"}`;
    case "MonsterMove": return `${UC.name(a.monster)}: ` + (a.path.length ? `move to ${sq(a.path[a.path.length - 1])}` : "stay") + (a.stamina ? ` (${a.stamina} Stamina)` : "");
    case "MonsterAbility": return `${UC.name(a.monster)}: ${a.ability} on ${UC.name(a.target)}`;
    case "MentalSpend": return `spend ${a.points} Magic on the mental combat`;
    case "Explore": return `${h}${a.explore ? "explore the area" : "stay put"}`;
    case "ChooseOption": return optionWords(state.obs.context, a.index) || `choose option ${a.index + 1}`;
    case "TakeItem": return `${h}takes the item`;
    case "TakeTest": return `${h}takes up the text`;
    case "Memorize": return `${h}memorize the scroll ${item(a.item)}` + (a.forget.length ? `, forgetting ${a.forget.map(UC.name).join(", ")}` : "");
    case "Identify": return `${h}try to identify ${item(a.item)}`;
    case "Trade": return `${UC.name(a.giver)} gives ${item(a.item)} to ${UC.name(a.receiver)}`;
    case "Done": return state.obs.decision === "movement" ? "end the heroes' movement" : "done";
    default: return JSON.stringify(a);
  }
}

// What a text asks, as the table says it ("Strong, 3+"; "a Mental Combat, the text +1").
function asks(tests, contests) {
  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
  return [
    ...(tests || []).map((t) => t.trait + (t.target ? `, ${t.target}+` : "") + (t.who && t.who !== "self" ? ` (${t.who})` : "")),
    ...(contests || []).map((c) => "a Mental Combat" + (c.power ? `, the text ${signed(c.power)}` : "")),
  ].join("; ");
}

function optionWords(context, index) {
  if (!context || context.kind !== "choice") return null;
  const option = (context.options || []).find((o) => o.index === index);
  if (!option) return null;
  const asked = asks(option.tests, option.contests);
  return option.label + (asked ? ` (${asked})` : "");
}

// What the pending decision is about, from the seat's view (docs/crawl.md, the decision
// contexts; render/decision.py says the same at the terminal).
function about(context) {
  if (!context) return null;
  const mods = (m) => {
    const shown = Object.entries(m || {}).filter(([, v]) => v).map(([k, v]) => `${k} ${v > 0 ? "+" : ""}${v}`);
    return shown.length ? ` (${shown.join(", ")})` : "";
  };
  switch (context.kind) {
    case "fight": {
      let line = `Fight: ${UC.name(context.hero)}, score ${context.hero_score}${mods(context.hero_modifiers)}, Health ${context.hero_health}, against ${UC.name(context.monster)}, score ${context.monster_score}${mods(context.monster_modifiers)}, Health ${context.monster_health}`;
      if ("declared" in context) line += `; ${context.declares_first === "dm" ? "the DM" : "the heroes"} spent ${context.declared} Stamina`;
      return line + ".";
    }
    case "mental": {
      let line = `Mental Combat: ${UC.name(context.hero)} (Magic ${context.hero_magic}) against ${UC.name(context.opponent)}` + (context.power ? `, which adds ${context.power > 0 ? "+" : ""}${context.power}` : "");
      if ("declared" in context) line += `; the aggressor spent ${context.declared} Magic`;
      return line + ".";
    }
    case "casting": {
      const fights = (context.fights || []).map((f) => `${UC.name(f.monster)} (${f.hero_score} against ${f.monster_score})`).join(", ");
      return `${UC.name(context.hero)} is casting ${context.spell ? UC.name(context.spell) : "an unread scroll"} and fights ${fights || "nobody"}.`;
    }
    case "take_item": return `Found: ${context.card ? UC.name(context.card) : "a " + context.deck}; which explorer takes it?`;
    case "choice": return `The text offers ${UC.name(context.hero)} a choice (${context.area}).`;
    case "text_test": {
      const asked = asks(context.tests, context.contests);
      return "Who takes up the text" + (asked ? `? It asks: ${asked}.` : "?");
    }
    default: return null;
  }
}

function mine(a) {
  const who = a.hero || a.giver;
  return !myHero || !who || who === myHero;
}

async function send(action) {
  if (state.busy) return null;
  state.busy = true;
  document.body.dataset.busy = "1";
  $("status").textContent = "…";
  try {
    const r = await UC.api("POST", `/api/crawl/games/${gameId}/actions`, token, action);
    if (!r.ok) { $("status").textContent = `refused (${r.status}): ${r.data.error}`; return null; }
    $("status").textContent = "";
    return r.data;
  } finally { state.busy = false; if (!state.walking) document.body.dataset.busy = "0"; }
}

// Click-to-move: a path over the squares this seat knows to be open, walked one legal
// Step at a time; it stops as soon as a step is not legal any more (something happened).
function pathTo(obs, hero, goal) {
  const rows = obs.board.split("\n");
  const open = (x, y) => rows[y] && ".:'~".includes(rows[y][x]);
  const blocked = new Set();
  for (const f of [...obs.heroes, ...obs.monsters]) if (f.pos && f.id !== hero.id) blocked.add(f.pos.join(","));
  for (const c of obs.corpses) blocked.add(c.at.join(","));
  const start = hero.pos.join(","), end = goal.join(",");
  const prev = new Map([[start, null]]);
  const queue = [hero.pos];
  while (queue.length) {
    const [x, y] = queue.shift();
    if (`${x},${y}` === end) break;
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy, key = `${nx},${ny}`;
      if (prev.has(key) || !open(nx, ny) || blocked.has(key)) continue;
      prev.set(key, `${x},${y}`);
      queue.push([nx, ny]);
    }
  }
  if (!prev.has(end)) return null;
  const path = [];
  for (let k = end; k !== start; k = prev.get(k)) path.unshift(k.split(",").map(Number));
  return path;
}

async function walk(heroId, path) {
  state.walking = true;
  document.body.dataset.busy = "1";
  try { await walkSteps(heroId, path); } finally { state.walking = null; document.body.dataset.busy = "0"; }
}

async function walkSteps(heroId, path) {
  for (const to of path) {
    const step = state.obs.legal.find((a) => a.action === "Step" && a.hero === heroId && a.to[0] === to[0] && a.to[1] === to[1]);
    if (!step) return;
    const obs = await send(step);
    if (!obs) return;
    state.obs = obs;
    if (obs.decision !== "movement") return;
  }
}

function targets(obs) {
  const out = {};
  const legal = obs.legal.filter(mine);
  const add = (p, cls, title, fn) => { out[p.join(",")] = { cls, title, onclick: fn }; };
  const heroId = state.selected;
  if (obs.decision === "movement" && heroId) {
    const hero = obs.heroes.find((h) => h.id === heroId);
    const rows = obs.board.split("\n");
    if (hero && hero.pos && hero.moves_left > 0) {
      // Every known open square this hero could head for; near ones are single steps.
      rows.forEach((row, y) => [...row].forEach((ch, x) => {
        if (!".:'".includes(ch)) return;
        if (Math.abs(x - hero.pos[0]) + Math.abs(y - hero.pos[1]) > hero.moves_left) return;
        const path = pathTo(obs, hero, [x, y]);
        if (path && path.length && path.length <= hero.moves_left) {
          add([x, y], "move", `${UC.name(heroId)}: move to (${x},${y})`, () => walk(heroId, path).then(refreshIfIdle));
        }
      }));
    }
  }
  for (const a of legal) {
    if (a.action === "Step" && a.hero === heroId && !out[a.to.join(",")]) add(a.to, "move", label(a), () => send(a));
    if (a.action === "Evade" && (!heroId || a.hero === heroId)) add(a.to, "move", label(a), () => send(a));
    if (a.action === "OpenDoor" && (!heroId || a.hero === heroId)) add(a.door, "door", label(a), () => send(a));
    if (a.action === "Disarm" && (!heroId || a.hero === heroId)) add(a.trap, "disarm", label(a), () => send(a));
    if (a.action === "MonsterMove" && a.monster === state.monster && a.path.length) {
      const end = a.path[a.path.length - 1];
      const key = end.join(",");
      const best = out[key] && out[key].action;
      if (!best || a.stamina < best.stamina || (a.stamina === best.stamina && a.path.length < best.path.length)) {
        out[key] = { cls: "move", title: label(a), onclick: () => send(a), action: a };
      }
    }
  }
  return out;
}

function refreshIfIdle() { if (state.obs) render(); }

function renderHeroes(obs) {
  const box = $("heroes");
  box.replaceChildren();
  for (const h of obs.heroes) {
    const status = h.dead ? "dead" : h.left ? "left the dungeon" : [h.exhausted && "Exhausted", h.surprised && "surprised", h.resting && "resting"].filter(Boolean).join(", ");
    const card = UC.el("div", { class: "hero-card" + (state.selected === h.id ? " selected" : ""), "data-hero": h.id });
    card.append(UC.el("h3", { text: UC.name(h.id) + (myHero === h.id ? " (you)" : "") }));
    card.append(UC.el("div", { class: "stats", text: `Health ${h.health} · Stamina ${h.stamina} · Magic ${h.magic}` + (obs.decision === "movement" && h.moves_left ? ` · ${h.moves_left} squares left` : "") }));
    if (status) card.append(UC.el("div", { class: "status", text: status }));
    if (h.spells.length) card.append(UC.el("div", { class: "spells", text: "Spells: " + h.spells.map(UC.name).join(", ") }));
    const items = UC.el("ul", { class: "items" });
    for (const it of h.items) items.append(UC.el("li", { "data-item": it.uid, class: it.identified ? "" : "face-down", text: it.name }));
    card.append(items);
    if (!myHero) card.addEventListener("click", () => { state.selected = h.id; render(); });
    box.append(card);
  }
}

// Who plays this seat: a person (this page) or a built-in policy it was handed to. A hero
// player's link plays one hero, so only the seat's own link hands the seat over.
async function renderHandover(obs) {
  const box = $("handover");
  if (myHero || !state.players || obs.outcome) { box.hidden = true; return; }
  if (!state.choices) {
    state.choices = [];
    const r = await UC.api("GET", "/api/crawl/options");
    if (r.ok) state.choices = r.data.players;
    const select = $("player");
    select.replaceChildren(...state.choices.map((p) => UC.el("option", { value: p }, p === "human" ? "me" : `the ${p} policy`)));
    select.addEventListener("change", () => handOver(select.value));
  }
  box.hidden = false;
  $("player").value = state.players[obs.seat];
}

async function handOver(player) {
  const r = await UC.api("POST", `/api/crawl/games/${gameId}/player`, token, { player });
  if (!r.ok) { $("status").textContent = `refused (${r.status}): ${r.data.error}`; return; }
  state.players = r.data.players;
  render();
}

function played(obs) {
  const who = state.players && state.players[obs.seat];
  return who && who !== "human" ? who : null;
}

function renderActions(obs) {
  const box = $("actions");
  box.replaceChildren();
  if (played(obs) && !obs.outcome) {
    box.append(UC.el("p", { class: "waiting", "data-played-by": played(obs), text: `The ${played(obs)} policy plays this seat; choose "me" under "Played by" to take it back.` }));
    return;
  }
  const mineLegal = obs.legal.filter(mine);
  if (!obs.legal.length) {
    box.append(UC.el("p", { class: "waiting", text: obs.outcome ? "The adventure is over." : `Waiting for ${obs.to_act === "chance" ? "the dice" : "the " + (obs.to_act === "dm" ? "Dungeon Master" : "heroes")}…` }));
    return;
  }
  box.append(UC.el("p", { class: "decision", text: `Your decision: ${obs.decision.replace(/_/g, " ")}` }));
  const context = about(obs.context);
  if (context) box.append(UC.el("p", { class: "context", text: context }));
  const boardOnly = new Set(["Step", "MonsterMove", "Evade"]);
  let shown = 0;
  for (const a of mineLegal) {
    if (boardOnly.has(a.action)) continue;
    if (obs.decision === "movement" && a.hero && state.selected && a.hero !== state.selected) continue;
    box.append(UC.el("button", { class: "action", "data-action": a.action, onclick: () => send(a) }, label(a)));
    shown++;
  }
  if (obs.decision === "monster_movement") {
    const monsters = [...new Set(mineLegal.filter((a) => a.monster).map((a) => a.monster))];
    if (!state.monster || !monsters.includes(state.monster)) state.monster = monsters[0] || null;
    for (const a of mineLegal.filter((x) => x.action === "MonsterMove" && !x.path.length)) {
      box.append(UC.el("button", { class: "action", "data-action": a.action, onclick: () => send(a) }, label(a)));
    }
    if (state.monster) box.prepend(UC.el("p", { class: "hint", text: `Click a square to move ${UC.name(state.monster)}.` }));
  }
  if (obs.decision === "movement") box.prepend(UC.el("p", { class: "hint", text: state.selected ? `Click a square to move ${UC.name(state.selected)}; click a door to force it.` : "Choose a hero (click its card or figure)." }));
  if (!shown && obs.decision !== "monster_movement" && obs.decision !== "movement" && obs.decision !== "evasion") box.append(UC.el("p", { text: "Nothing for you to do: the other heroes decide." }));
}

function render() {
  const obs = state.obs;
  $("turn").textContent = `Turn ${obs.turn} · ${obs.step.replace(/_/g, " ")}`;
  $("light").textContent = `Light ${obs.light}`;
  $("seat").textContent = obs.seat === "dm" ? "Dungeon Master" : myHero ? `Heroes: ${UC.name(myHero)}` : "Heroes";
  const hasActions = (id) => obs.legal.some((a) => a.hero === id);
  if (!myHero && state.selected && obs.decision === "movement" && !hasActions(state.selected)) state.selected = null;
  if (!state.selected && obs.decision === "movement") {
    const first = obs.legal.find((a) => a.action === "Step" && mine(a)) || obs.legal.find((a) => a.hero && mine(a));
    if (first) state.selected = first.hero;
  }
  UC.drawBoard($("board"), obs, {
    targets: obs.legal.length && !played(obs) ? targets(obs) : {},
    selected: state.selected || state.monster,
    onFigure: (f) => {
      if (f.id.startsWith("hero:") && !myHero) { state.selected = f.id; render(); }
      if (f.id.startsWith("monster:") && obs.seat === "dm") { state.monster = f.id; render(); }
    },
  });
  renderHeroes(obs);
  renderActions(obs);
  renderHandover(obs);
  const goals = $("goals");
  goals.replaceChildren(...obs.goals.map((g) => UC.el("li", { class: g.met ? "met" : g.in_hand ? "in-hand" : "", text: `${g.text}${g.met ? " ✓" : g.in_hand ? " (in hand)" : ""}` })));
  if (state.summary) showEnd(state.summary);
}

function addEvents(events) {
  const list = $("narration");
  for (const v of events) {
    const dice = UC.dice(v.entry);
    if (dice) {
      $("dice").replaceChildren(
        UC.el("span", { class: "who", text: dice.who }),
        UC.el("span", { class: "faces", text: dice.faces }),
        UC.el("span", { class: "outcome", text: "→ " + dice.outcome }),
      );
      $("dice").title = (v.entry.rules || []).join(", ");
    }
    if (v.text) list.append(UC.narrationItem(v));
  }
  list.scrollTop = list.scrollHeight;
}

function showEnd(summary) {
  const box = $("end");
  if (box.dataset.shown) return;
  box.dataset.shown = "1";
  box.hidden = false;
  const replay = `/replay/crawl/${gameId}#${state.obs.seat}=${encodeURIComponent(token)}`;
  box.replaceChildren(
    UC.el("h2", { text: summary.won ? "Adventure won" : "The adventure is over" }),
    UC.el("ul", {}, ...UC.summaryLines(summary).map((t) => UC.el("li", { text: t }))),
    UC.el("a", { href: replay, id: "replay-link" }, "Watch the replay"),
    UC.el("button", { onclick: () => { box.hidden = true; } }, "Close"),
  );
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/crawl/games/${gameId}/ws?token=${encodeURIComponent(token)}&since=${state.next}`);
  ws.onmessage = (msg) => {
    const frame = JSON.parse(msg.data);
    state.obs = frame.observation;
    state.next = frame.next;
    state.summary = frame.summary;
    state.players = frame.players;
    addEvents(frame.events);
    render();
    document.body.dataset.version = frame.version;
  };
  ws.onopen = () => { retries = 0; };
  ws.onclose = async (e) => {
    if (e.code === 1008) { $("status").textContent = INVALID; return; }
    // Not a refusal: ask once over HTTP whether the game is still there before retrying,
    // and back off, so a dead link is told as such instead of retried forever.
    try {
      const r = await fetch(`/api/crawl/games/${gameId}/observation`, { headers: { Authorization: "Bearer " + token } });
      if (r.status === 401 || r.status === 403 || r.status === 404) { $("status").textContent = INVALID; return; }
    } catch (err) { /* the server is unreachable: retry below */ }
    retries += 1;
    const wait = Math.min(30, 2 ** Math.min(retries, 5));
    $("status").textContent = `Connection lost; trying again in ${wait} s.`;
    setTimeout(connect, wait * 1000);
  };
}

const INVALID = "This link is not valid (the game may have ended or the server restarted). Start a new game from the lobby.";
let retries = 0;

if (!token) $("status").textContent = "This link has no token: open the link the lobby gave you.";
else connect();
