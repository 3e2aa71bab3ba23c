"""A secret area is revealed once (C-EXPL-01): when a text lets every explorer search for
it, a second hero who finds it finds nothing new."""

from __future__ import annotations

import pytest
from combat_kit import advance, events, waiting_for
from crawl_kit import board, roll, ruleset, start

from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Explore
from undercroft.crawl.known import revealed_squares
from undercroft.crawl.ruleset import RoomText

HALL = board(
    """
    #########
    #ab..#..#
    #....#..#
    #########
    """,
    """
    #########
    #HHHH#CC#
    #HHHH#CC#
    #########
    """,
    {"H": AreaInfo("Hall"), "C": AreaInfo("Crypt")},
)
SEARCH = RoomText(
    "Hall",
    "A draught from the east wall.",
    (
        fx.TraitTest(
            trait="Perceptive",
            target=4,
            who="explorers",
            on_pass=(fx.RevealSecret(area="Crypt", doors=((5, 1),)),),
        ),
    ),
)


@pytest.mark.rule("C-EXPL-01")
def test_every_explorer_searches_and_the_secret_is_revealed_once() -> None:
    rules = ruleset(HALL, starts=("a", "b"), room_texts=[SEARCH], secret=["Crypt"])
    state, log = start(rules, ["ana", "bram"])
    advance(state, "explore_choice")
    while waiting_for(state) == "explore_choice":
        first = state.legal_actions()[0]
        assert isinstance(first, Explore)
        state.apply(Explore(first.hero, True))
    roll(state, 5)  # ana finds the door
    roll(state, 6)  # so does bram
    tests = [e for e in events(log, "roll") if e.get("trait") == "Perceptive"]
    assert [(e["actor"], e["outcome"]) for e in tests] == [
        ("hero:ana", "pass"),
        ("hero:bram", "pass"),
    ]
    assert events(log, "secret.revealed") == [
        {"area": "Crypt", "doors": [[5, 1]], "rules": ["C-EXPL-01"]}
    ]
    assert state.opened_squares == [Pos(5, 1)] and "Crypt" in state.revealed


@pytest.mark.rule("C-EXPL-01")
def test_the_heroes_know_a_revealed_secret_areas_door_without_seeing_it() -> None:
    rules = ruleset(HALL, starts=("a", "b"), room_texts=[SEARCH], secret=["Crypt"])
    state, _ = start(rules, ["ana", "bram"])
    advance(state, "explore_choice")
    door = Pos(5, 1)
    assert not revealed_squares(state)[door.y, door.x]
    while waiting_for(state) == "explore_choice":
        first = state.legal_actions()[0]
        assert isinstance(first, Explore)
        state.apply(Explore(first.hero, True))
    roll(state, 5)
    roll(state, 6)
    # The text showed the way in: the door is known with the room, wherever the heroes
    # stand (C-TURN-04: a revealed area is known whole), not only while one sees it.
    known = revealed_squares(state)
    assert known[door.y, door.x] and known[1, 6] and known[1, 7]
    assert not known[2, 5]  # the rest of the wall is not a door: nothing to show
