// The lobby: choose an adventure, a party, a seed and who plays each seat; get the links.
"use strict";

const $ = (id) => document.getElementById(id);

async function load() {
  const { data } = await UC.api("GET", "/api/crawl/options");
  for (const a of data.adventures) $("adventure").append(UC.el("option", { value: a.id }, a.name));
  data.heroes.forEach((h, i) => {
    const box = UC.el("input", { type: "checkbox", name: "party", value: h.id, checked: i < 4 });
    $("party").append(UC.el("label", { class: "hero-pick", title: h.traits.join(", ") }, box, " " + h.name));
  });
  for (const who of data.players) {
    const text = who === "human" ? "people (links below)" : `the built-in ${who} policy`;
    $("heroes-player").append(UC.el("option", { value: who, selected: who === "human" }, text));
    $("dm-player").append(UC.el("option", { value: who, selected: who === "master" }, text));
  }
  $("seed").value = Math.floor(Math.random() * 1e9);
}

function link(text, href, id) {
  return UC.el("li", {}, UC.el("a", { href, id, target: "_blank", rel: "noopener" }, text));
}

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("error").textContent = "";
  const party = [...document.querySelectorAll("input[name=party]:checked")].map((b) => b.value);
  const body = { adventure: $("adventure").value, party, seed: Number($("seed").value), heroes: $("heroes-player").value, dm: $("dm-player").value };
  const r = await UC.api("POST", "/api/crawl/games", null, body);
  if (r.status !== 201) { $("error").textContent = r.data.error || `refused (${r.status})`; return; }
  const list = $("link-list");
  list.replaceChildren();
  const seats = r.data.seats;
  const tokens = [];
  if (seats.heroes.url) {
    list.append(link("The heroes (all of them, one browser)", seats.heroes.url, "heroes-link"));
    for (const [hero, p] of Object.entries(seats.heroes.players || {})) list.append(link(`The player of ${UC.name(hero)}`, p.url, `link-${hero.replace(":", "-")}`));
    tokens.push(`heroes=${encodeURIComponent(seats.heroes.token)}`);
  }
  if (seats.dm.url) { list.append(link("The Dungeon Master", seats.dm.url, "dm-link")); tokens.push(`dm=${encodeURIComponent(seats.dm.token)}`); }
  if (tokens.length) list.append(link("Replay (the seats above)", `/replay/crawl/${r.data.id}#${tokens.join("&")}`, "replay-link"));
  else list.append(UC.el("li", { text: "Both seats are played by the server: nothing to join." }));
  $("links").hidden = false;
  $("links").dataset.game = r.data.id;
});

load();
