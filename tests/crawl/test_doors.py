"""Doors: forcing an unopened door (C-DOOR-01), Strong heroes (C-DOOR-02), R-C-DOOR-01."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from crawl_kit import board, branches, events, next_turn, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, DoorState, Pos, Terrain
from undercroft.crawl import new_game
from undercroft.crawl.actions import OpenDoor, Step
from undercroft.crawl.content import default_pack
from undercroft.crawl.movement import remaining
from undercroft.crawl.state import State

# Two rooms with one door between them; ana stands at the door, bram beside her.
ROOMS = board(
    """
    #########
    #.a+....#
    #.b#....#
    #########
    """,
    """
    #########
    #AA.BBBB#
    #AA#BBBB#
    #########
    """,
    {"A": AreaInfo("West"), "B": AreaInfo("East")},
)
DOOR = Pos(3, 1)
ANA, BRAM = "hero:ana", "hero:bram"


def door_result(state: State, log: EventLog) -> tuple[str, bool, bool, bool]:
    """What the engine made of one door roll: the outcome word, and the door's state."""
    (rolled,) = events(log, "roll")
    door = state.doors[DOOR]
    failed = DOOR in state.heroes[str(rolled["actor"])].failed_doors
    return str(rolled["outcome"]), door.opened, door.jammed, failed


def expected_words(modifier: int) -> dict[tuple[str, bool, bool, bool], Fraction]:
    """C-DOOR-01 by icepool: 1-2 jammed, 3-4 stuck, 5-6 opened, after ``modifier``."""
    die = (icepool.d6 + modifier).map(
        lambda t: "jammed" if t <= 2 else "stuck" if t <= 4 else "opened"
    )
    consequence = {
        "jammed": ("jammed", False, True, True),
        "stuck": ("stuck", False, False, True),
        "opened": ("opened", True, False, False),
    }
    return {consequence[word]: die.probability(word) for word in die.outcomes()}


@pytest.mark.rule("C-DOOR-01")
def test_open_doors_roll_is_a_third_each_jammed_stuck_opened() -> None:
    state, _ = start(ruleset(ROOMS, starts=("a", "b")), ["ana", "eryn"])
    state.apply(OpenDoor(ANA, DOOR))
    result = branches(state, door_result)
    assert result == expected_words(0)
    assert result == {
        ("jammed", False, True, True): Fraction(1, 3),
        ("stuck", False, False, True): Fraction(1, 3),
        ("opened", True, False, False): Fraction(1, 3),
    }


@pytest.mark.rule("C-DOOR-01", "C-DOOR-02", "C-SETUP-05")
def test_a_strong_hero_adds_one_to_open_doors() -> None:
    # bram is Strong; he takes ana's place at the door.
    state, log = start(ruleset(ROOMS, starts=("b", "a")), ["ana", "bram"])
    state.apply(OpenDoor(BRAM, DOOR))
    result = branches(state, door_result)
    assert result == expected_words(1)
    assert result == {
        ("jammed", False, True, True): Fraction(1, 6),
        ("stuck", False, False, True): Fraction(1, 3),
        ("opened", True, False, False): Fraction(1, 2),
    }
    roll(state, 4)  # 4 + 1 = 5: opened
    (rolled,) = events(log, "roll")
    assert rolled["modifiers"] == {"Strong": 1}
    assert (rolled["total"], rolled["outcome"]) == (5, "opened")
    assert rolled["rules"] == ["C-DOOR-01", "C-DOOR-02"]


@pytest.mark.rule("C-DOOR-01", "C-LOS-01")
def test_an_unopened_door_blocks_passage_and_sight_until_forced() -> None:
    state, log = start(ruleset(ROOMS, starts=("a",)), ["ana"])
    assert state.revealed == {"West"}
    assert Step(ANA, DOOR) not in state.legal_actions()
    state.apply(OpenDoor(ANA, DOOR))
    roll(state, 5)
    assert state.doors[DOOR].opened
    assert state.revealed == {"West", "East"}
    assert events(log, "door.opened") == [{"door": [3, 1], "by": ANA, "rules": ["C-DOOR-01"]}]
    state.apply(Step(ANA, DOOR))
    state.apply(Step(ANA, Pos(4, 1)))
    assert state.heroes[ANA].pos == Pos(4, 1)


@pytest.mark.rule("C-DOOR-01", "R-C-DOOR-01")
def test_trying_a_door_costs_no_movement() -> None:
    state, _ = start(ruleset(ROOMS, starts=("a",)), ["ana"])
    state.apply(OpenDoor(ANA, DOOR))
    roll(state, 3)
    ana = state.heroes[ANA]
    assert (ana.moved, remaining(state, ana)) == (0, 4)
    state.apply(Step(ANA, Pos(1, 1)))
    assert remaining(state, ana) == 3


@pytest.mark.parametrize(("natural", "word"), [(1, "jammed"), (3, "stuck")])
@pytest.mark.rule("C-DOOR-01", "R-C-DOOR-01")
def test_a_hero_that_failed_tries_again_only_next_turn_but_others_may_now(
    natural: int, word: str
) -> None:
    state, log = start(ruleset(ROOMS, starts=("a", "b")), ["ana", "eryn"])
    state.apply(OpenDoor(ANA, DOOR))
    roll(state, natural)
    assert events(log, "roll")[0]["outcome"] == word
    assert OpenDoor(ANA, DOOR) not in state.legal_actions()
    # ana steps aside; eryn takes her place and may try the same door this turn.
    state.apply(Step(ANA, Pos(1, 1)))
    state.apply(Step("hero:eryn", Pos(2, 1)))
    assert OpenDoor("hero:eryn", DOOR) in state.legal_actions()
    state.apply(OpenDoor("hero:eryn", DOOR))
    roll(state, 4)
    assert not state.doors[DOOR].opened
    assert state.doors[DOOR].jammed is (word == "jammed")
    # Next turn ana, back at the door, may try again (eryn steps away first).
    next_turn(state, 6, 6)
    state.apply(Step("hero:eryn", Pos(2, 2)))
    state.apply(Step(ANA, Pos(2, 1)))
    assert OpenDoor(ANA, DOOR) in state.legal_actions()
    state.apply(OpenDoor(ANA, DOOR))
    roll(state, 6)
    assert state.doors[DOOR].opened
    # The jam is remembered on the door after it opens (C-SURP-05 needs it).
    assert state.doors[DOOR].jammed is (word == "jammed")


@pytest.mark.rule("C-DOOR-01")
def test_walkable_rows_after_a_door_opens_are_the_rows_drawn_afresh() -> None:
    """A door forced open (or the board changed otherwise) redraws one square of the
    state's walkable rows; they must equal the rows worked out from the grid anew (floor
    without furniture, or an open door), and rows handed out before stay as they were."""
    pack = default_pack()
    state = new_game(pack.ruleset("greyhollow-cellars"), list(pack.heroes)[:4])
    grid = state.grid

    def afresh() -> list[list[bool]]:
        floor = (grid.terrain == Terrain.FLOOR) & ~grid.furniture
        opened = (grid.terrain == Terrain.DOOR) & (grid.door == DoorState.OPEN)
        rows: list[list[bool]] = (floor | opened).tolist()
        return rows

    before = [list(row) for row in state.walk_rows()]
    handed_out = state.walk_rows()
    doors = [p for p in grid.positions() if grid.is_door(p)]
    assert doors
    for door in doors[:3]:
        state.walk_rows()  # up to date: the next change patches one square
        grid.set_door(door, DoorState.OPEN)
        assert state.walk_rows() == afresh()
        assert state.walkable(door)
    grid.set_furniture(doors[3], False)
    grid.set_door(doors[3], DoorState.OPEN)  # two changes at once: drawn afresh
    assert state.walk_rows() == afresh()
    assert handed_out == before
