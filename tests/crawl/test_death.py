"""Corpses (C-DEATH-01), dragging (C-DEATH-02), bringing a corpse out (C-DEATH-03, the
part inside the adventure), ruling R-C-DEATH-01, and the end of the adventure (C-END-01)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from crawl_kit import HEROES, board, events, hero, next_turn, play_to, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl.actions import Drag, Leave, Move, Step, Trade
from undercroft.crawl.state import State

ANA, BRAM = "hero:ana", "hero:bram"

# Two rooms joined by an open doorway at (6, 1), which belongs to neither; the exit is at
# (5, 1). ana starts at (3, 1), bram at (4, 1), c marks a square in the east room.
HALLS = board(
    """
    ###########
    #..abe'.c.#
    #.....#...#
    ###########
    """,
    """
    ###########
    #AAAAA.BBB#
    #AAAAA#BBB#
    ###########
    """,
    {"A": AreaInfo("West Hall"), "B": AreaInfo("East Hall")},
)
CORPSE = Pos(3, 1)


def ana_dies(*starts: str) -> tuple[State, EventLog]:
    """ana (carrying a gem) is at Death's Door and dies at the end of turn 1."""
    rules = ruleset(HALLS, starts=starts, exits=("e",))
    rules = replace(rules, heroes={**HEROES, "ana": hero("ana", items=["gem"])})
    state, log = start(rules, ["ana", "bram"])
    state.heroes[ANA].health = 0
    play_to(state, "deaths_door", 6, 6)
    roll(state, 1)
    assert state.heroes[ANA].dead
    return state, log


@pytest.mark.rule("C-DEATH-01", "C-LOS-01", "C-DD-01")
def test_a_dead_hero_leaves_a_corpse_that_blocks_movement_but_not_sight() -> None:
    state, log = ana_dies("a", "b")
    (dd,) = [r for r in events(log, "roll") if "C-DD-01" in r["rules"]]
    assert (dd["actor"], dd["natural"], dd["outcome"]) == (ANA, [1], "dies")
    assert events(log, "hero.died") == [
        {"hero": ANA, "at": [3, 1], "rules": ["C-DD-01", "C-DEATH-01"]}
    ]
    assert list(state.corpses) == [CORPSE] and state.corpses[CORPSE].hero == ANA
    assert state.heroes[ANA].items == [] and len(state.corpses[CORPSE].items) == 1
    assert state.turn == 2  # bram, in the same hall, keeps it company
    assert Step(BRAM, CORPSE) not in state.legal_actions()


@pytest.mark.rule("C-DEATH-01", "C-LOS-01", "C-TRAP-01", "R-CORE-DIST-01")
def test_traps_are_detected_over_a_corpse() -> None:
    passage = board(
        """
        #######
        #ba1..#
        #######
        """,
        """
        #######
        #PPPPP#
        #######
        """,
        {"P": AreaInfo("Passage", "corridor")},
    )
    state, _ = start(ruleset(passage, starts=("a", "b"), traps={"1": "pit"}), ["ana", "bram"])
    state.heroes[ANA].health = 0
    play_to(state, "deaths_door", 1, 1)  # 1: neither finds the pit yet
    roll(state, 1)  # ana dies at (2, 1), between bram and the pit
    play_to(state, "detect_traps", turn=2)
    roll(state, 2)  # 2 squares, counted over the corpse, which bram sees past
    assert state.traps[Pos(3, 1)].detected


@pytest.mark.rule("C-DEATH-01", "R-C-DEATH-01")
def test_a_corpse_left_alone_even_for_a_moment_is_eaten() -> None:
    state, log = ana_dies("a", "b")
    state.apply(Step(BRAM, Pos(5, 1)))
    assert list(state.corpses) == [CORPSE]
    # The doorway belongs to no hall: the moment bram stands in it the corpse is alone,
    # and stepping straight back is too late.
    state.apply(Step(BRAM, Pos(6, 1)))
    state.apply(Step(BRAM, Pos(5, 1)))
    assert state.corpses == {}
    assert events(log, "corpse.eaten") == [{"corpse": ANA, "items": 1, "rules": ["C-DEATH-01"]}]


@pytest.mark.rule("C-DEATH-01", "R-C-DEATH-01")
def test_a_hero_dying_alone_is_eaten_at_once() -> None:
    state, log = ana_dies("a", "c")  # bram is in the east hall
    assert state.corpses == {}
    assert [e["corpse"] for e in events(log, "corpse.eaten")] == [ANA]


@pytest.mark.rule("C-DEATH-02", "R-C-DEATH-01")
def test_a_dragged_corpse_follows_its_dragger_and_is_never_alone() -> None:
    state, log = ana_dies("a", "b")
    bram = state.heroes[BRAM]
    state.apply(Drag(BRAM, CORPSE))
    assert events(log, "corpse.dragged") == [{"hero": BRAM, "corpse": ANA, "rules": ["C-DEATH-02"]}]
    # Dragging takes 1 square of bram's 4.
    state.apply(Move(BRAM, (Pos(5, 1), Pos(6, 1), Pos(7, 1))))
    assert bram.pos == Pos(7, 1) and list(state.corpses) == [Pos(6, 1)]
    assert bram.moved == 3
    assert [a for a in state.legal_actions() if isinstance(a, Step) and a.hero == BRAM] == []
    assert events(log, "corpse.eaten") == []
    next_turn(state, 6)
    # A new turn: bram starts next to the corpse and may drag it on.
    assert Drag(BRAM, Pos(6, 1)) in state.legal_actions()
    state.apply(Step(BRAM, Pos(8, 1)))
    assert Drag(BRAM, Pos(6, 1)) not in state.legal_actions()  # only at the start of a move
    assert state.corpses == {}  # left behind in the doorway, alone
    assert [e["corpse"] for e in events(log, "corpse.eaten")] == [ANA]


@pytest.mark.rule("C-DEATH-03", "C-DEATH-02", "C-END-01")
def test_a_corpse_dragged_out_of_the_dungeon_is_rescued_with_its_gear() -> None:
    state, log = ana_dies("a", "b")
    state.apply(Drag(BRAM, CORPSE))
    state.apply(Step(BRAM, Pos(5, 1)))  # onto the exit; the corpse follows to (4, 1)
    assert list(state.corpses) == [Pos(4, 1)]
    state.apply(Leave(BRAM))
    assert events(log, "corpse.rescued") == [{"hero": BRAM, "corpse": ANA, "rules": ["C-DEATH-03"]}]
    assert [state.items[i].card for i in state.heroes[BRAM].items] == ["gem"]
    assert state.is_terminal() and state.outcome == "escaped"
    summary = state.summary()
    assert (summary["escaped"], summary["dead"], summary["corpses_out"]) == ([BRAM], [ANA], [ANA])


@pytest.mark.rule("C-DEATH-01", "C-TURN-06")
def test_a_corpses_items_can_be_taken_in_trade() -> None:
    state, _ = ana_dies("a", "b")
    play_to(state, "trade", 6)
    (gem,) = state.corpses[CORPSE].items
    assert Trade(ANA, BRAM, gem) in state.legal_actions()
    state.apply(Trade(ANA, BRAM, gem))
    assert state.corpses[CORPSE].items == [] and state.heroes[BRAM].items == [gem]


@pytest.mark.rule("C-END-01")
def test_the_adventure_ends_when_every_surviving_hero_has_left() -> None:
    rules = ruleset(HALLS, starts=("e", "b"), exits=("e",))
    state, log = start(rules, ["ana", "bram"])
    state.apply(Leave(ANA))
    assert not state.is_terminal() and Leave(BRAM) not in state.legal_actions()
    state.apply(Step(BRAM, Pos(4, 2)))
    state.apply(Step(BRAM, Pos(5, 2)))
    state.apply(Step(BRAM, Pos(5, 1)))
    state.apply(Leave(BRAM))
    assert state.is_terminal() and state.legal_actions() == []
    (ended,) = events(log, "adventure.ended")
    assert (ended["outcome"], ended["escaped"], ended["dead"]) == ("escaped", [ANA, BRAM], [])


@pytest.mark.rule("C-END-01", "C-DD-01")
def test_the_adventure_ends_when_no_hero_is_left_alive() -> None:
    state, log = start(ruleset(HALLS, starts=("a",)), ["ana"])
    state.heroes[ANA].health = 0
    play_to(state, "deaths_door", 6)
    roll(state, 3)
    assert state.is_terminal() and state.outcome == "perished"
    assert [e["outcome"] for e in events(log, "adventure.ended")] == ["perished"]
