"""Exact odds from the rules' own chance nodes (``undercroft odds``).

Nothing here samples, and nothing restates a rule. A rule's odds come from a small
*bench*: a real :class:`undercroft.crawl.state.State` of the pack's content on a tiny
board (the hero, a door, a trap, a corridor), stopped at the chance node the rule calls
for with the arguments the engine gives it; every outcome of the node
(``State.chance_outcomes()``, exact ``Fraction``\\ s) is applied to its own copy through
``State.apply``, and the outcome word is read from the ``roll`` event the rule's own
handler logs. A fight is the engine's fighting step run on the bench with the monsters
next to the hero, every decision answered as asked (the Stamina each side spends) and
both 2d6 enumerated, until the hero's first ``fight`` event names its winner (C-FIGHT-04,
with Strong's tie rule, the enemies, Light and surprise penalties, item bonuses).

Dice expressions (``2d6+3 vs 2d6+1``, ``3d6-2``) are :mod:`undercroft.analysis.dice_odds`
(re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from undercroft.analysis.dice_odds import Odds, OddsError, dice_odds, expression
from undercroft.core.events import Event, Time
from undercroft.core.grid import AreaInfo, Grid, Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Action, FightStamina, MentalSpend, Roll
from undercroft.crawl.content import Pack
from undercroft.crawl.doors import OPEN_DOORS
from undercroft.crawl.engine import Seat, Task
from undercroft.crawl.explore import IDENTIFY
from undercroft.crawl.monsters import PATROL
from undercroft.crawl.movement import JUMP
from undercroft.crawl.reveal import AMBUSH, SURPRISE, spawn
from undercroft.crawl.ruleset import Adventure, Encounter, ItemKind, Ruleset, Trait
from undercroft.crawl.spells import OVERCAST
from undercroft.crawl.state import State
from undercroft.crawl.traps import DETECT_BY_TEXT, DISARM
from undercroft.crawl.turn import DEATHS_DOOR

__all__ = ["Odds", "OddsError", "dice_odds", "expression", "fight_odds", "rule_odds"]


# -- the bench: a tiny board with the pack's cards --------------------------------------------

BENCH_TILES = """
#########
#.a+....#
#..T....#
#.......#
####.####
#.......#
#########
"""
BENCH_AREAS = """
#########
#rrr.rrr#
#rrrrrrr#
#rrrrrrr#
####c####
#ccccccc#
#########
"""
HERO = Pos(2, 1)
DOOR = Pos(3, 1)
TRAP = Pos(2, 2)
ARENA = """
#######
#.....#
#..a..#
#.....#
#######
"""


def _clean(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines())


def bench_ruleset(pack: Pack, tiles: str, areas: str | None = None) -> Ruleset:
    """The pack's cards on a bench board (marker ``a``: the hero's start square)."""
    legend = {"r": AreaInfo("Bench Room", "room"), "c": AreaInfo("Bench Corridor", "corridor")}
    grid = Grid.from_text(
        _clean(tiles), areas=None if areas is None else _clean(areas), area_info=legend
    )
    trap_kind = next(iter(pack.traps), None)
    adventure = Adventure(
        id="odds-bench",
        name="Odds bench",
        board=grid,
        starts=(grid.markers["a"],),
        exits=frozenset(),
        traps={TRAP: trap_kind} if trap_kind is not None and areas is not None else {},
        patrol=(next(iter(pack.monsters)),) if pack.monsters else (),
    )
    return Ruleset(
        pack.heroes, pack.monsters, pack.spells, pack.items, pack.traps, adventure, pack.options
    )


class Capture:
    """A sink keeping the events of one branch."""

    enabled = True

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, time: Time, event: Event) -> None:
        self.events.append(event)


Judge = Callable[[list[Event]], str | None]
Policy = Callable[[State], Action]


def enumerate_node(state: State, judge: Judge, policy: Policy) -> dict[str, Fraction]:
    """The exact distribution of ``judge`` through the real game from ``state``: every
    chance outcome applied to a copy, every decision answered by ``policy``, until
    ``judge`` names a result from the events of the branch."""
    found: dict[str, Fraction] = {}

    def walk(node: State, p: Fraction, seen: list[Event]) -> None:
        if node.pending is None:
            raise OddsError("the rule came to no result on the bench")
        if node.current_player() is Seat.CHANCE:
            branches: list[tuple[Action, Fraction]] = list(node.chance_outcomes())
        else:
            branches = [(policy(node), Fraction(1))]
        for action, q in branches:
            child = node.clone()
            sink = Capture()
            child.sink = sink
            child.apply(action)
            events = seen + sink.events
            result = judge(events)
            if result is None:
                walk(child, p * q, events)
            else:
                found[result] = found.get(result, Fraction(0)) + p * q

    walk(state, Fraction(1), [])
    return found


def _roll_word(rule: str) -> Judge:
    def judge(events: list[Event]) -> str | None:
        for e in events:
            if e.type == "roll" and rule in e.rules:
                return str(e.fields["outcome"])
        return None

    return judge


def _no_decision(state: State) -> Action:
    raise OddsError(f"the rule asked for a decision on the bench ({state.pending})")


def bench_state(pack: Pack, hero: str, *, light0: bool, tiles: str, areas: str | None) -> State:
    """The bench with ``hero`` on its start square, between steps (nothing pending)."""
    if hero not in pack.heroes:
        raise OddsError(f"--hero {hero!r}: no such hero (allowed: {', '.join(pack.heroes)})")
    state = State(bench_ruleset(pack, tiles, areas), [hero])
    if light0:
        state.light = 0
    state.stack.clear()
    state.pending = None
    return state


# -- rules: the chance node each d6 table of the crawl is rolled at --------------------------


@dataclass(frozen=True)
class Probe:
    """Where a rule's roll happens: the roll kind, its dice, and its arguments."""

    rule: str
    kind: str
    words: tuple[str, ...]
    args: Callable[[State, str], dict[str, Any]]
    dice: int = 1
    note: Callable[[State, str], str | None] = lambda state, hero: None


def _item_for(state: State, hero: str) -> dict[str, Any]:
    card = next(c.id for c in state.ruleset.items.values() if c.kind is ItemKind.POTION)
    uid = state.new_item(card, identified=False)
    state.heroes[hero].items.append(uid)
    return {"hero": hero, "item": uid}


def _overcast_for(state: State, hero: str) -> dict[str, Any]:
    spell = next(s.id for s in state.ruleset.spells.values() if s.overcast is not None)
    return {"hero": hero, "spell": spell, "memorized": True}


def _text_roll(effect: fx.Effect) -> Callable[[State, str], dict[str, Any]]:
    def args(state: State, hero: str) -> dict[str, Any]:
        return {
            "context": {
                "effect": effect.model_dump(),
                "hero": hero,
                "source": "area:Bench Room",
                "area": "Bench Room",
            }
        }

    return args


def _not_learned(state: State, hero: str) -> str | None:
    if not state.has_trait(state.heroes[hero], Trait.LEARNED):
        return "only a Learned hero may try to identify an item (C-IDENT-01)"
    return None


def probes(power: int = 0) -> dict[str, Probe]:
    """Every d6 table the crawl rolls, by rule ID (``power``: the other side's power in
    Mental Combat, C-MENT-01)."""
    h = "hero"
    listed = [
        Probe(
            "C-DOOR-01",
            "open_door",
            tuple(OPEN_DOORS.words()),
            lambda s, hero: {h: hero, "door": [DOOR.x, DOOR.y]},
        ),
        Probe(
            "C-SURP-01",
            "surprise",
            tuple(SURPRISE.words()),
            lambda s, hero: {h: hero, "ambush": False},
        ),
        Probe(
            "C-SURP-04",
            "surprise",
            tuple(AMBUSH.words()),
            lambda s, hero: {h: hero, "ambush": True},
        ),
        Probe(
            "C-DD-01",
            "deaths_door",
            tuple(DEATHS_DOOR.words()),
            lambda s, hero: {h: hero, "reason": "turn_end"},
        ),
        Probe("C-IDENT-01", "identify", tuple(IDENTIFY.words()), _item_for, note=_not_learned),
        Probe(
            "C-TRAP-01",
            "detect_traps",
            tuple(str(r) for r in range(0, 8)),
            lambda s, hero: {h: hero},
        ),
        Probe(
            "C-TRAP-02",
            "text_detect",
            tuple(DETECT_BY_TEXT.words()),
            _text_roll(fx.DetectTrapsRoll()),
        ),
        Probe(
            "C-TRAP-03",
            "disarm",
            tuple(DISARM.words()),
            lambda s, hero: {h: hero, "trap": [TRAP.x, TRAP.y]},
        ),
        Probe(
            "C-JUMP-01",
            "jump",
            tuple(JUMP.words()),
            lambda s, hero: {h: hero, "over": [TRAP.x, TRAP.y]},
        ),
        Probe("C-SPELL-04", "overcast", tuple(OVERCAST.words()), _overcast_for),
        Probe(
            "C-MENT-01",
            "mental",
            ("win", "lose", "tie"),
            _text_roll(fx.MentalCombat(power=power)),
            dice=2,
        ),
        Probe(
            "C-MON-03",
            "patrol",
            tuple(PATROL.words()),
            lambda s, hero: {"corridor": "Bench Corridor"},
        ),
    ]
    return {p.rule: p for p in listed}


TABLES = frozenset(probes())
"""The rules whose d6 table decides a roll's outcome (each answers ``odds rule``)."""


def deciding_rule(rules: Sequence[str]) -> str:
    """The rule whose table decided a roll that cites ``rules``: the last of them that is
    one of :data:`TABLES` (the most specific: a roll against an Ambusher cites C-SURP-01
    and then C-SURP-04, whose table decides it), else the first rule it cites."""
    tables = [r for r in rules if r in TABLES]
    if tables:
        return tables[-1]
    return rules[0] if rules else ""


ALIASES = {
    "C-DOOR-02": "C-DOOR-01",
    "C-SURP-03": "C-SURP-01",
    "C-DD-03": "C-DD-01",
    "C-DD-04": "C-DD-01",
    "C-TRAP-04": "C-TRAP-01",
    "C-JUMP-02": "C-JUMP-01",
    "C-MENT-03": "C-MENT-01",
}
"""Rules that modify another rule's roll: asking for them gives that roll's odds."""


def rule_odds(pack: Pack, rule: str, hero: str, *, light0: bool = False, power: int = 0) -> Odds:
    """The exact odds of the outcome words of ``rule``'s roll for ``hero``."""
    rule = rule.upper()
    known = probes(power)
    chosen = known.get(ALIASES.get(rule, rule))
    if chosen is None:
        raise OddsError(
            f"{rule} is not a d6 roll of the crawl; allowed: {', '.join(known)} (and "
            f"{', '.join(ALIASES)}, which modify one of them)"
        )
    state = bench_state(pack, hero, light0=light0, tiles=BENCH_TILES, areas=BENCH_AREAS)
    hero_id = f"hero:{hero}"
    args = chosen.args(state, hero_id)
    state.ask_roll(chosen.kind, chosen.dice, **args)
    found = enumerate_node(state, _roll_word(chosen.rule), _no_decision)
    outcomes = {w: found.get(w, Fraction(0)) for w in chosen.words}
    outcomes.update({w: p for w, p in found.items() if w not in outcomes})
    if chosen.rule == "C-TRAP-01":  # only the radii that can come up
        outcomes = {w: p for w, p in outcomes.items() if p}
    profile = pack.heroes[hero]
    traits = ", ".join(sorted(t.value for t in profile.traits)) or "no trait"
    notes = [f"{profile.name} ({traits}){', Light 0' if light0 else ''}"]
    note = chosen.note(state, hero_id)
    if note:
        notes.append(note)
    if chosen.rule == "C-SURP-04":
        notes.append(f"options.ambusher_six = {pack.options.ambusher_six} (R-C-SURP-02)")
    if chosen.rule == "C-MENT-01":
        notes.append(f"the other side's power: {power}")
    return Odds(f"{chosen.rule} for {hero}", outcomes, notes)


# -- fights ---------------------------------------------------------------------------------

NEIGHBOURS = (Pos(3, 1), Pos(2, 2), Pos(4, 2), Pos(3, 3))
"""The squares next to the hero on the arena, in board order (C-FIGHT-03)."""


def fight_odds(
    pack: Pack,
    hero: str,
    monster: str,
    *,
    stamina: int = 0,
    monster_stamina: int = 0,
    enemies: int = 1,
    light0: bool = False,
    surprised: bool = False,
) -> Odds:
    """The hero's first fight against ``monster`` (one of ``enemies`` alike around it):
    ``win``, ``lose`` or ``tie`` (C-FIGHT-04; a Strong hero wins ties, C-SETUP-05)."""
    if monster not in pack.monsters:
        raise OddsError(
            f"--monster {monster!r}: no such monster (allowed: {', '.join(pack.monsters)})"
        )
    if not 1 <= enemies <= len(NEIGHBOURS):
        raise OddsError(f"--enemies {enemies}: 1 to {len(NEIGHBOURS)} (the squares beside a hero)")
    state = bench_state(pack, hero, light0=light0, tiles=ARENA, areas=None)
    hero_id = f"hero:{hero}"
    figure = state.heroes[hero_id]
    figure.pos = Pos(3, 2)
    figure.surprised = surprised
    for at in NEIGHBOURS[:enemies]:
        spawn(state, monster, at, Encounter.GUARD).active = True
    _check_spend("--stamina", stamina, figure.stamina, figure.exhausted)
    kind = pack.monsters[monster]
    _check_spend("--monster-stamina", monster_stamina, kind.stamina, False)
    state.push(Task("fighting"))
    state.run()
    seen: dict[str, Any] = {}

    def spend(node: State) -> Action:
        assert node.pending is not None
        if node.pending.kind == "fight_stamina":
            return FightStamina(
                stamina if node.pending.args["side"] == "heroes" else monster_stamina
            )
        if node.pending.kind == "mental_spend":
            return MentalSpend(0)
        raise OddsError(f"the fight asked for an unexpected decision ({node.pending.kind})")

    def judge(events: list[Event]) -> str | None:
        for e in events:
            if e.type == "fight" and e.fields["hero"] == hero_id:
                seen.setdefault("event", e)
                winner = e.fields["winner"]
                return {"hero": "win", "monster": "lose"}.get(str(winner), "tie")
        return None

    found = enumerate_node(state, judge, spend)
    outcomes = {w: found.get(w, Fraction(0)) for w in ("win", "lose", "tie")}
    first: Event = seen["event"]
    f = first.fields
    notes = [
        f"{pack.heroes[hero].name}: Fighting Score {f['hero_score']} "
        f"({_mods(f['hero_modifiers'])}) + 2d6 + {stamina} Stamina",
        f"{kind.name}: Fighting Score {f['monster_score']} "
        f"({_mods(f['monster_modifiers'])}) + 2d6 + {monster_stamina} Stamina",
    ]
    if state.has_trait(figure, Trait.STRONG):
        notes.append("Strong: the hero wins ties (C-SETUP-05), so tie is 0")
    if enemies > 1:
        notes.append(f"the first of the hero's {enemies} fights this step (C-FIGHT-02)")
    return Odds(f"{hero} against {monster}", outcomes, notes)


def _mods(modifiers: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v:+d}" for k, v in modifiers.items()) or "no modifier"


def _check_spend(option: str, points: int, pool: int, exhausted: bool) -> None:
    most = 0 if exhausted else min(3, pool)
    if not 0 <= points <= most:
        raise OddsError(
            f"{option} {points}: 0 to {most} (C-FIGHT-04: up to 3 Stamina a fight, no more "
            f"than the {pool} there is)"
        )


__all__ = [
    "TABLES",
    "Odds",
    "OddsError",
    "Roll",
    "deciding_rule",
    "dice_odds",
    "expression",
    "fight_odds",
    "rule_odds",
]
