"""Helpers for the combat, spell, explore and odds tests: driving a turn to a given
decision, resolving scripted fights, and enumerating chance nodes exactly."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from crawl_kit import HEROES, ITEMS, SPELLS, roll

from undercroft.core.events import EventLog, Header
from undercroft.crawl import State
from undercroft.crawl.actions import Action, Done, Explore, FightStamina
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import HeroProfile, ItemCard, Options, Ruleset, SpellCard


def with_content(
    rules: Ruleset,
    *,
    heroes: Mapping[str, HeroProfile] | None = None,
    spells: Mapping[str, SpellCard] | None = None,
    items: Mapping[str, ItemCard] | None = None,
    options: Options | None = None,
) -> Ruleset:
    """The same ruleset with extra or replaced heroes, spells, items or options."""
    return dataclasses.replace(
        rules,
        heroes={**HEROES, **(heroes or {})},
        spells={**SPELLS, **(spells or {})},
        items={**ITEMS, **(items or {})},
        options=options or rules.options,
    )


def waiting_for(state: State) -> str | None:
    """The decision kind the game waits for, or the kind of roll at a chance node."""
    if state.pending is None:
        return None
    return str(state.pending.args.get("roll", state.pending.kind))


def advance(state: State, kind: str, *dice: int) -> list[str]:
    """Answer every decision with Done (heroes stay put in Explore) until the game waits
    for ``kind``; single-die rolls on the way take the next of ``dice``, all of which
    must be used. Returns the kinds of the decisions and rolls passed on the way."""
    left = list(dice)
    seen: list[str] = []
    while state.pending is not None and waiting_for(state) != kind:
        seen.append(str(waiting_for(state)))
        if state.current_player() is Seat.CHANCE:
            assert left, f"no die scripted for {state.pending}"
            roll(state, left.pop(0))
        elif state.pending.kind == "explore_choice":
            stay = [a for a in state.legal_actions() if isinstance(a, Explore) and not a.explore]
            state.apply(stay[0])
        else:
            state.apply(Done())
    assert waiting_for(state) == kind, f"game over before {kind}"
    assert not left, f"dice left over: {left}"
    return seen


def fight(
    state: State,
    hero_dice: tuple[int, int] | None,
    monster_dice: tuple[int, int],
    *,
    hero_stamina: int = 0,
    monster_stamina: int = 0,
) -> None:
    """Resolve the next fight: declare Stamina (where a side may spend), then roll the
    hero's 2d6 (``None`` when it counts as double ones, C-SPELL-06) and the monster's."""
    while state.pending is not None and state.pending.kind == "fight_stamina":
        side = state.pending.args["side"]
        state.apply(FightStamina(hero_stamina if side == "heroes" else monster_stamina))
    if hero_dice is not None:
        assert state.pending is not None and state.pending.args.get("side") == "hero"
        roll(state, *hero_dice)
    assert state.pending is not None and state.pending.args.get("side") == "monster"
    roll(state, *monster_dice)


def events(log: EventLog, kind: str) -> list[dict[str, Any]]:
    """The fields of every ``kind`` event in ``log``, with its ``rules`` as a list."""
    return [
        dict(e.event.fields) | {"rules": list(e.event.rules)}
        for e in log.entries
        if e.event.type == kind
    ]


def rolls(log: EventLog, rule: str) -> list[dict[str, Any]]:
    """The ``roll`` events that cite ``rule``."""
    return [e for e in events(log, "roll") if rule in e["rules"]]


def logged(state: State) -> EventLog:
    """Give ``state`` (a clone, whose log is off) a fresh log and return it."""
    log = EventLog(Header("crawl", "test", 0, "test"))
    state.sink = log
    return log


Outcome = Callable[[State, EventLog], str | None]
Policy = Callable[[State], Action]


def enumerate_outcomes(state: State, outcome: Outcome, policy: Policy) -> dict[str, Fraction]:
    """The exact distribution of ``outcome`` through the real game.

    From ``state``, every chance node's outcomes are applied to clones and followed,
    every decision is answered by ``policy``; a branch ends as soon as ``outcome`` names
    a result from the clone's state and log.
    """
    found: dict[str, Fraction] = {}

    def walk(node: State, p: Fraction) -> None:
        branches: list[tuple[Action, Fraction]]
        if node.current_player() is Seat.CHANCE:
            branches = [(a, q) for a, q in node.chance_outcomes()]
        else:
            branches = [(policy(node), Fraction(1))]
        for action, q in branches:
            child = node.clone()
            log = logged(child)
            child.apply(action)
            result = outcome(child, log)
            if result is None:
                walk(child, p * q)
            else:
                found[result] = found.get(result, Fraction(0)) + p * q

    walk(state, Fraction(1))
    return found
