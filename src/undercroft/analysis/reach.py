"""Whether a swept ``--set`` key can change anything the games play.

A sweep over ``monsters.orc.fighting`` on an adventure with no orc plays the same games
at every point; its report would show flat lines that look like a finding ("orcs'
Fighting does not matter") when nothing was measured. Before any run, the sweep asks,
for each swept key, whether the card or kind it names can come into play, from the
content itself (not from the results):

* crawl: the heroes of the party; the monsters placed, on patrol, spawned by an effect
  or named by a goal; the traps laid; the items the heroes carry, an effect gives or a
  goal names; the spells the heroes know or a scroll holds; the adventure played. The
  effects looked through are those of everything in play (room texts, traps, monster
  abilities, spells, items), so a monster a trap's effect spawns counts, until nothing
  new is found. ``options``, ``policy`` and ``dm`` keys always count as used.
* keep: a trigger, mechanism, minion, creature or merchant kind counts as used when the
  scenario file names it anywhere (its structures, minions, creatures, scripted builds
  and visits) or the rest of the keep's content does (a spider trap's ``summon``); the
  other tables (options, combat, weapons, structures, the Master, the adventurers'
  content) always count as used.

Both checks lean towards "used": a key is reported only when nothing names what it
changes. Each point's own settings are looked at, so a key that brings a card into play
at one point (``adventures.A.patrol=["orc"]``) counts for the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from undercroft.analysis.crawl_scenario import CrawlScenario
from undercroft.analysis.keep_scenario import KeepScenario
from undercroft.crawl import effects as fx
from undercroft.crawl.content import Pack
from undercroft.keep.scenario import load as load_keep_scenario

KEEP_KINDS = ("trigger", "mechanism", "minion", "creature", "merchant")
"""The keep tables whose entries come into play only where something names them."""


def effects_within(effects: Iterable[Any]) -> Iterator[Any]:
    """Every effect, with those nested in its branches and choices."""
    for e in effects:
        yield e
        if isinstance(e, BaseModel):
            for name in type(e).model_fields:
                value = getattr(e, name)
                if isinstance(value, tuple):
                    # A branch (on_pass, on_win, ...) or a choice's options.
                    yield from effects_within(v for v in value if isinstance(v, BaseModel))


def crawl_in_play(pack: Pack, adventure: str, party: Sequence[str]) -> dict[str, set[str]]:
    """Deck -> the ids of its cards that can come into play in ``adventure`` with
    ``party`` (``adventures``: the adventure itself)."""
    adv = pack.adventures[adventure]
    used: dict[str, set[str]] = {
        "heroes": set(party),
        "monsters": {p.monster for p in adv.placements} | set(adv.patrol),
        "traps": set(adv.traps.values()),
        "items": set(),
        "spells": set(),
        "adventures": {adventure},
    }
    for goal in adv.goals:
        if goal.kind == "slay":
            used["monsters"].add(goal.target)
        elif goal.kind == "carry":
            used["items"].add(goal.target)
    for hero in party:
        if hero in pack.heroes:
            used["items"] |= set(pack.heroes[hero].items)
            used["spells"] |= set(pack.heroes[hero].spells)
    size = -1
    while size != sum(len(v) for v in used.values()):
        size = sum(len(v) for v in used.values())
        effects: list[Any] = [e for t in adv.room_texts for e in t.effects]
        for m in used["monsters"] & pack.monsters.keys():
            effects += [e for a in pack.monsters[m].abilities for e in a.effects]
        for t in used["traps"] & pack.traps.keys():
            effects += pack.traps[t].effects
        for s in used["spells"] & pack.spells.keys():
            effects += [*pack.spells[s].effects, *(pack.spells[s].overcast or ())]
        for i in used["items"] & pack.items.keys():
            effects += pack.items[i].effects
            spell = pack.items[i].spell
            if spell is not None:
                used["spells"].add(spell)
        for e in effects_within(effects):
            if isinstance(e, fx.GiveItem):
                used["items"].add(e.item)
            elif isinstance(e, fx.Spawn):
                used["monsters"] |= set(e.monsters)
    return used


def crawl_idle(scenarios: Sequence[CrawlScenario], key: str) -> str | None:
    """Why the crawl ``key`` changes nothing at any point, or ``None`` if it may."""
    table, *rest = key.split(".")
    if table not in ("heroes", "monsters", "traps", "items", "spells", "adventures"):
        return None
    card = rest[0]
    for scenario in scenarios:
        used = crawl_in_play(scenario.load(), scenario.adventure, scenario.party)
        if card in used[table]:
            return None
    adventure = scenarios[0].adventure
    why = {
        "heroes": f"{card} is not in the party ({', '.join(scenarios[0].party)})",
        "monsters": f"no {card} is placed, patrols, is spawned or is a goal in {adventure}",
        "traps": f"no {card} trap is laid in {adventure}",
        "items": f"no hero carries a {card} and nothing in {adventure} gives one",
        "spells": f"no hero of the party knows {card} and no scroll in play holds it",
        "adventures": f"the sweep plays {adventure}, not {card}",
    }
    return why[table]


def strings_in(value: Any) -> Iterator[str]:
    """Every string value (not key) in nested tables and lists."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for inner in value.values():
            yield from strings_in(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from strings_in(inner)


def keep_idle(scenarios: Sequence[KeepScenario], key: str) -> str | None:
    """Why the keep ``key`` changes nothing at any point, or ``None`` if it may."""
    table, *rest = key.split(".")
    if table not in KEEP_KINDS or len(rest) < 2:
        return None
    kind = rest[0]
    scenario = scenarios[0]
    schema, _, _ = load_keep_scenario(scenario.scenario)
    if kind in set(strings_in(schema.model_dump(mode="json"))):
        return None
    for point in scenarios:
        source = point.world(0).ruleset.source
        others = {
            name: (
                {k: v for k, v in tables.items() if k != kind}
                if name == table and isinstance(tables, Mapping)
                else tables
            )
            for name, tables in source.items()
        }
        if kind in set(strings_in(others)):
            return None
    return f"the scenario {scenario.adventure} has no {kind} and nothing in it brings one"


def idle_keys(scenarios: Sequence[Any], keys: Sequence[str]) -> list[tuple[str, str]]:
    """(key, why) for each swept key that changes nothing the games play."""
    found = []
    for key in keys:
        if isinstance(scenarios[0], KeepScenario):
            why = keep_idle(scenarios, key)
        else:
            why = crawl_idle(scenarios, key)
        if why is not None:
            found.append((key, why))
    return found
