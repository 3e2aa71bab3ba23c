"""Death's Door (C-DD-01 to C-DD-04): the Turn End roll, resting, extra rolls on
damage, and the Iron-Willed bonus."""

from __future__ import annotations

from typing import Any

import pytest
from combat_kit import advance, events, fight, rolls, waiting_for, with_content
from crawl_kit import board, hero, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo
from undercroft.crawl.actions import Done, Rest, UseItem

ROOM = board(
    """
    ######
    #a...#
    #...b#
    ######
    """,
    """
    ######
    #HHHH#
    #HHHH#
    ######
    """,
    {"H": AreaInfo("Hall")},
)

FLANKED = board(
    """
    #######
    #b....#
    #.pao.#
    #.....#
    #######
    """
)


def deaths_door_rolls(log: EventLog) -> list[dict[str, Any]]:
    return rolls(log, "C-DD-01")


@pytest.mark.rule("C-DD-01", "C-TURN-07")
@pytest.mark.parametrize(
    ("natural", "outcome"),
    [(1, "dies"), (2, "dies"), (3, "dies"), (4, "survives"), (5, "survives"), (6, "survives")],
)
def test_a_hero_at_deaths_door_rolls_at_turn_end(natural: int, outcome: str) -> None:
    state, log = start(ruleset(ROOM, starts=("a", "b")), ["ana", "bram"])
    state.heroes["hero:ana"].health = 0
    advance(state, "deaths_door", 3, 3)  # the two Detect Traps rolls of Explore
    assert state.step == "turn_end"
    assert state.pending is not None and state.pending.args["hero"] == "hero:ana"
    roll(state, natural)
    [event] = deaths_door_rolls(log)
    assert (event["natural"], event["modifiers"], event["total"], event["outcome"]) == (
        [natural],
        {},
        natural,
        outcome,
    )
    assert event["reason"] == "turn_end"
    ana = state.heroes["hero:ana"]
    if outcome == "dies":
        assert ana.dead and not ana.on_board
        assert [e["hero"] for e in events(log, "hero.died")] == ["hero:ana"]
        assert [c.hero for c in state.corpses.values()] == ["hero:ana"]
        assert list(state.corpses) == [ana.pos]
    else:
        assert not ana.dead and ana.health == 0 and ana.at_deaths_door
        # still at Death's Door: it rolls again at the next Turn End
        advance(state, "deaths_door", 3, 3)
        assert state.turn == 2


@pytest.mark.rule("C-DD-01")
def test_healing_above_zero_ends_deaths_door() -> None:
    rules = with_content(ruleset(ROOM, starts=("a",)), heroes={"ana": hero("ana", items=["tonic"])})
    state, log = start(rules, ["ana"])
    ana = state.heroes["hero:ana"]
    ana.health = 0
    state.apply(UseItem("hero:ana", ana.items[0]))  # the Tonic heals 2
    assert ana.health == 2 and not ana.at_deaths_door
    state.apply(Done())
    advance(state, "movement", 4)  # Explore's Detect Traps roll, then turn 2
    assert state.turn == 2
    assert deaths_door_rolls(log) == []


@pytest.mark.rule("C-DD-02", "C-REST-03")
def test_a_resting_hero_makes_no_deaths_door_roll() -> None:
    state, log = start(ruleset(ROOM, starts=("a",)), ["ana"])
    state.heroes["hero:ana"].health = 0
    state.apply(Rest("hero:ana"))
    roll(state, 3)  # the DM's Detect Traps roll, resting or not (C-TRAP-01)
    assert state.turn == 2 and waiting_for(state) == "movement"
    assert deaths_door_rolls(log) == []
    assert [e["hero"] for e in events(log, "deaths_door.skipped")] == ["hero:ana"]
    assert state.heroes["hero:ana"].at_deaths_door


@pytest.mark.rule("C-DD-02", "R-C-REST-01")
def test_a_fight_breaks_the_rest_and_the_roll_is_made() -> None:
    state, log = start(ruleset(FLANKED, placements=[("orc", "o")]), ["ana"])
    state.heroes["hero:ana"].health = 0
    state.apply(Rest("hero:ana"))
    advance(state, "fight_stamina")
    fight(state, (3, 3), (3, 3))  # a tie: no damage, so no extra roll
    assert [e["hero"] for e in events(log, "rest.broken")] == ["hero:ana"]
    assert events(log, "deaths_door.skipped") == []
    assert waiting_for(state) == "deaths_door"
    assert state.pending is not None and state.pending.args["reason"] == "turn_end"
    roll(state, 5)
    assert state.turn == 2
    assert not state.heroes["hero:ana"].rested_last_turn


@pytest.mark.rule("C-DD-03", "R-C-DD-01")
def test_one_extra_roll_for_each_creature_that_damages_a_hero_at_deaths_door() -> None:
    state, log = start(ruleset(FLANKED, placements=[("rat", "p"), ("orc", "o")]), ["ana"])
    state.heroes["hero:ana"].health = 0
    advance(state, "fight_stamina")
    fight(state, (1, 1), (6, 6))
    fight(state, (1, 1), (6, 6))
    # At once, in the Fighting step: one roll for the rat's blow, one for the orc's.
    assert waiting_for(state) == "deaths_door" and state.step == "fighting"
    roll(state, 4)
    assert waiting_for(state) == "deaths_door" and state.step == "fighting"
    roll(state, 6)
    # And the usual roll at Turn End.
    assert waiting_for(state) == "deaths_door" and state.step == "turn_end"
    roll(state, 5)
    made = deaths_door_rolls(log)
    assert [(e["reason"], e["outcome"]) for e in made] == [
        ("damage", "survives"),
        ("damage", "survives"),
        ("turn_end", "survives"),
    ]
    assert ["C-DD-03" in e["rules"] for e in made] == [True, True, False]
    assert state.heroes["hero:ana"].at_deaths_door and state.turn == 2


@pytest.mark.rule("C-DD-03", "R-C-DD-01")
def test_a_hero_that_dies_on_the_first_extra_roll_makes_no_second() -> None:
    state, log = start(
        ruleset(FLANKED, starts=("a", "b"), placements=[("rat", "p"), ("orc", "o")]),
        ["ana", "bram"],
    )
    state.heroes["hero:ana"].health = 0
    advance(state, "fight_stamina")
    fight(state, (1, 1), (6, 6))
    fight(state, (1, 1), (6, 6))
    roll(state, 2)
    assert [e["outcome"] for e in deaths_door_rolls(log)] == ["dies"]
    assert state.heroes["hero:ana"].dead
    assert waiting_for(state) == "movement" and state.turn == 2  # no second roll


@pytest.mark.rule("C-DD-04")
@pytest.mark.parametrize(("natural", "outcome"), [(2, "dies"), (3, "survives")])
def test_an_iron_willed_hero_adds_one(natural: int, outcome: str) -> None:
    state, log = start(ruleset(ROOM, starts=("a",)), ["eryn"])
    state.heroes["hero:eryn"].health = 0
    advance(state, "deaths_door", 3)
    roll(state, natural)
    [event] = deaths_door_rolls(log)
    assert event["modifiers"] == {"Iron-Willed": 1}
    assert event["total"] == natural + 1
    assert event["outcome"] == outcome
    assert "C-DD-04" in event["rules"]
    assert state.heroes["hero:eryn"].dead == (outcome == "dies")
