"""The crawl summary says whether the adventure was won (C-END-01, ruling R-C-END-01).

Scripted games on one small hall: its text meets the visit goal ``shrine`` for a hero who
explores it, and the carry goal ``gem`` needs a hero to leave holding the gem. Each test
asserts the whole summary, and that the ``adventure.ended`` event and the log's summary
line say the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from crawl_kit import HEROES, board, events, hero, play, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Done, Explore, Leave, Step
from undercroft.crawl.ruleset import Goal, Options, RoomText, Ruleset
from undercroft.crawl.state import State
from undercroft.render.narrate import name, summary_lines

ANA = "hero:ana"
HALL = board(
    """
    #####
    #ae.#
    #...#
    #####
    """,
    """
    #####
    #HHH#
    #HHH#
    #####
    """,
    {"H": AreaInfo("Hall")},
)
SHRINE = Goal("shrine", "Pray at the altar of the Hall.", "visit", "Hall")
GEM = Goal("gem", "Carry the gem out.", "carry", "gem")
ALTAR = RoomText("Hall", "An altar. You pray.", (fx.Goal(goal="shrine"),))


def game(
    *, gem: bool = False, goals: tuple[Goal, ...] = (SHRINE, GEM), options: Options | None = None
) -> tuple[State, EventLog]:
    rules: Ruleset = ruleset(
        HALL, exits=("e",), room_texts=[ALTAR], goals=goals, options=options or Options()
    )
    if gem:
        rules = replace(rules, heroes={**HEROES, "ana": hero("ana", items=["gem"])})
    return start(rules, ["ana"])


def explore_the_hall(state: State) -> None:
    """Turn 1: ana stays put, explores the hall (the altar: shrine met), finds no trap."""
    play(state, Done(), Explore(ANA, True))
    roll(state, 4)  # Detect Traps


def leave(state: State) -> None:
    """ana steps onto the exit and leaves: the adventure is over."""
    play(state, Step(ANA, Pos(2, 1)), Leave(ANA))
    assert state.is_terminal()


def summary(state: State, log: EventLog) -> dict[str, Any]:
    """The state's summary, checked to be the one the log ends with and announces."""
    (ended,) = events(log, "adventure.ended")
    said = state.summary()
    assert {k: v for k, v in ended.items() if k != "rules"} == said
    return said


def expected(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "outcome": "escaped",
        "won": True,
        "goals_met": ["shrine", "gem"],
        "goals_failed": [],
        "reason": "every surviving hero left the dungeon (C-END-01)",
        "turns": 2,
        "light": 19,
        "escaped": [ANA],
        "dead": [],
        "corpses_out": [],
        "goals": ["gem", "shrine"],
        "treasure": 50,
    }
    return {**base, **changes}


@pytest.mark.rule("C-END-01", "C-EXPL-01")
def test_out_with_every_goal_met_is_won() -> None:
    state, log = game(gem=True)
    explore_the_hall(state)
    leave(state)
    assert summary(state, log) == expected()
    assert summary_lines(state.summary())[-1] == (
        "Adventure won   goals met: shrine, gem   goals failed: none"
    )


@pytest.mark.rule("C-END-01")
def test_out_with_a_goal_failed_is_not_won() -> None:
    state, log = game()  # no gem to carry out
    explore_the_hall(state)
    leave(state)
    assert summary(state, log) == expected(
        won=False, goals_met=["shrine"], goals_failed=["gem"], goals=["shrine"], treasure=0
    )
    assert summary_lines(state.summary())[-1] == (
        "Adventure not won   goals met: shrine   goals failed: gem"
    )


@pytest.mark.rule("C-END-01")
def test_out_having_met_nothing_fails_every_goal() -> None:
    state, log = game()
    play(state, Done(), Explore(ANA, False))  # ana never explores the hall
    roll(state, 4)
    leave(state)
    assert summary(state, log) == expected(
        won=False, goals_met=[], goals_failed=["shrine", "gem"], goals=[], treasure=0
    )


@pytest.mark.rule("C-END-01")
def test_an_adventure_without_goals_is_won_by_getting_out() -> None:
    state, log = game(goals=())
    leave(state)
    assert summary(state, log) == expected(
        goals_met=[], goals_failed=[], goals=[], turns=1, light=20, treasure=0
    )


@pytest.mark.rule("C-END-01")
def test_the_turn_cap_is_not_won_even_with_every_goal_in_hand() -> None:
    state, log = game(gem=True, options=Options(max_turns=2))
    explore_the_hall(state)
    play(state, Done(), Explore(ANA, False))
    roll(state, 4)
    assert state.is_terminal()
    assert summary(state, log) == expected(
        outcome="turn_cap",
        won=False,
        goals_met=["shrine"],
        goals_failed=["gem"],  # the gem never left the dungeon
        reason="the safety cap of 2 turns was reached (Options.max_turns)",
        light=18,
        escaped=[],
        goals=["shrine"],
        treasure=0,
    )


def perish_after_the_altar(options: Options | None = None) -> tuple[State, EventLog]:
    """ana, at Death's Door, explores the hall (shrine met) and dies at Turn End."""
    state, log = game(goals=(SHRINE,), options=options)
    state.heroes[ANA].health = 0
    explore_the_hall(state)
    roll(state, 1)  # C-DD-01: dies
    assert state.is_terminal()
    return state, log


@pytest.mark.rule("C-END-01", "R-C-END-01", "C-DD-01")
def test_a_party_that_perished_has_not_won_though_every_goal_was_met() -> None:
    state, log = perish_after_the_altar()
    assert summary(state, log) == expected(
        outcome="perished",
        won=False,
        goals_met=["shrine"],
        reason="no hero is left alive in the dungeon",
        turns=1,
        light=20,  # ana died before the Light dropped at Turn End
        escaped=[],
        dead=[ANA],
        goals=["shrine"],
        treasure=0,
    )
    assert summary_lines(state.summary())[-1] == (
        "Adventure not won   goals met: shrine   goals failed: none"
    )


@pytest.mark.rule("C-END-01", "R-C-END-01")
def test_the_other_reading_a_party_that_perished_having_met_every_goal_has_won() -> None:
    state, log = perish_after_the_altar(Options(won_if_perished=True))
    assert summary(state, log)["won"] is True
    assert summary(state, log)["outcome"] == "perished"


@pytest.mark.rule("R-C-END-01")
def test_the_other_reading_still_needs_every_goal() -> None:
    state, log = game(options=Options(won_if_perished=True))  # the gem cannot leave
    state.heroes[ANA].health = 0
    explore_the_hall(state)
    roll(state, 1)
    said = summary(state, log)
    assert (said["outcome"], said["won"], said["goals_failed"]) == ("perished", False, ["gem"])


def test_an_old_log_summary_without_won_still_reads() -> None:
    lines = summary_lines({"outcome": "escaped", "turns": 3, "goals": ["shrine"]})
    assert lines[-1] == "Treasure carried out: 0   goals: shrine"


def test_a_trap_in_mental_combat_is_named_as_a_trap_not_by_its_square() -> None:
    """A rune trap's mental combat rolls carry the actor ``trap:X,Y``: the narration says
    "the trap at (X,Y)", not the bare coordinates."""
    assert name("trap:16,2") == "the trap at (16,2)"
    assert name("monster:ash-cultist-3") == "Ash Cultist 3"
    assert name("hero:brenna") == "Brenna"
