"""Fighting (C-FIGHT-01 to C-FIGHT-06): who fights whom, modifiers, board order,
resolving a fight, simultaneous damage, slain monsters and Death's Door."""

from __future__ import annotations

from typing import Literal

import pytest
from combat_kit import advance, events, fight, waiting_for
from crawl_kit import board, roll, ruleset, start

from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl.actions import Done, FightStamina, MonsterMove, OpenDoor
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import Options

FIGHT_FIELDS = {
    "hero",
    "monster",
    "hero_score",
    "monster_score",
    "hero_modifiers",
    "monster_modifiers",
    "hero_dice",
    "monster_dice",
    "hero_stamina",
    "monster_stamina",
    "winner",
    "rules",
}

# A hero with a monster on each side: the rat (p) fights first (same row, lower column).
FLANKED = board(
    """
    #######
    #.....#
    #.pao.#
    #.....#
    #######
    """
)

# Up to four monsters round one hero.
RING = board(
    """
    #######
    #..o..#
    #.pas.#
    #..q..#
    #######
    """
)


@pytest.mark.rule("C-FIGHT-01", "C-FIGHT-04")
def test_one_fight_is_one_event_with_exactly_the_contract_fields() -> None:
    state, log = start(ruleset(FLANKED, placements=[("orc", "o")]), ["ana"])
    advance(state, "fight_stamina")
    fight(state, (5, 4), (2, 3))
    [event] = events(log, "fight")
    assert set(event) == FIGHT_FIELDS
    assert event == {
        "hero": "hero:ana",
        "monster": "monster:orc-1",
        "hero_score": 3,
        "monster_score": 3,
        "hero_modifiers": {},
        "monster_modifiers": {},
        "hero_dice": [5, 4],
        "monster_dice": [2, 3],
        "hero_stamina": 0,
        "monster_stamina": 0,
        "winner": "hero",
        "rules": ["C-FIGHT-04"],
    }
    assert state.monsters["monster:orc-1"].health == 1


@pytest.mark.rule("C-FIGHT-01")
def test_a_monster_on_a_diagonal_square_is_not_in_a_fight() -> None:
    grid = board(
        """
        #####
        #a..#
        #.o.#
        #####
        """
    )
    state, log = start(ruleset(grid, placements=[("orc", "o")]), ["ana"])
    state.apply(Done())  # turn 1: nobody moves
    advance(state, "movement")  # the whole combat turn passes without a fight
    assert state.turn == 2
    assert events(log, "fight") == []
    assert [e["monsters"] for e in events(log, "combat.turn")] == [["monster:orc-1"]]


@pytest.mark.rule("C-FIGHT-02")
@pytest.mark.parametrize(("count", "modifier"), [(1, None), (2, -1), (3, -2), (4, -3)])
def test_a_hero_in_several_fights_takes_the_enemies_modifier(
    count: int, modifier: int | None
) -> None:
    squares = ["o", "p", "s", "q"][:count]
    state, log = start(ruleset(RING, placements=[("rat", s) for s in squares]), ["ana"])
    advance(state, "fight_stamina")
    for _ in range(count):
        fight(state, (3, 3), (3, 3))
    fights = events(log, "fight")
    assert len(fights) == count
    expected = {} if modifier is None else {"enemies": modifier}
    for event in fights:
        assert event["hero_modifiers"] == expected
        assert event["hero_score"] == 3 + (modifier or 0)
        assert event["monster_modifiers"] == {}  # each rat has one fight
        assert ("C-FIGHT-02" in event["rules"]) == (modifier is not None)


@pytest.mark.rule("C-FIGHT-02")
def test_a_monster_between_two_heroes_fights_both_at_minus_one() -> None:
    grid = board(
        """
        #######
        #.aob.#
        #######
        """
    )
    state, log = start(ruleset(grid, starts=("a", "b"), placements=[("orc", "o")]), ["ana", "cora"])
    advance(state, "fight_stamina")
    fight(state, (1, 1), (6, 6))
    fight(state, (1, 1), (6, 6))
    fights = events(log, "fight")
    assert [f["hero"] for f in fights] == ["hero:ana", "hero:cora"]
    for event in fights:
        assert event["monster_modifiers"] == {"enemies": -1}
        assert event["monster_score"] == 2
        assert event["hero_modifiers"] == {}
        assert event["winner"] == "monster"


@pytest.mark.rule("C-FIGHT-03", "R-C-FIGHT-01")
def test_fights_resolve_by_the_monster_square_row_by_row_then_column() -> None:
    # Placed in a scrambled order: rat-1 at q (row 3), rat-2 at s (row 2, column 4),
    # rat-3 at o (row 1), rat-4 at p (row 2, column 2).
    placements = [("rat", "q"), ("rat", "s"), ("rat", "o"), ("rat", "p")]
    state, log = start(ruleset(RING, placements=placements), ["ana"])
    advance(state, "fight_stamina")
    for _ in range(4):
        fight(state, (3, 3), (3, 3))
    order = [e["monster"] for e in events(log, "fight")]
    assert order == ["monster:rat-3", "monster:rat-4", "monster:rat-2", "monster:rat-1"]


TWO_PAIRS = board(
    """
    ######
    #..p.#
    #.ab.#
    #.o..#
    ######
    """
)


@pytest.mark.rule("C-FIGHT-03", "R-C-FIGHT-01")
@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("monster_square", ["hero:bram", "hero:ana"]),  # p (row 1) before o (row 3)
        ("hero_square", ["hero:ana", "hero:bram"]),  # a (column 2) before b (column 3)
    ],
)
def test_the_fight_order_switch_places_fights_at_the_monster_or_the_hero(
    order: Literal["monster_square", "hero_square"], expected: list[str]
) -> None:
    rules = ruleset(
        TWO_PAIRS,
        starts=("a", "b"),
        placements=[("rat", "o"), ("rat", "p")],
        options=Options(fight_order=order),
    )
    state, log = start(rules, ["ana", "bram"])
    advance(state, "fight_stamina")
    fight(state, (3, 3), (3, 3))
    fight(state, (3, 3), (3, 3))
    assert [e["hero"] for e in events(log, "fight")] == expected


@pytest.mark.rule("C-FIGHT-04")
def test_a_tie_is_won_by_nobody() -> None:
    state, log = start(ruleset(FLANKED, placements=[("orc", "o")]), ["ana"])
    advance(state, "fight_stamina")
    fight(state, (3, 3), (4, 2))
    [event] = events(log, "fight")
    assert event["winner"] is None
    assert events(log, "damage") == []
    assert state.heroes["hero:ana"].health == 6
    assert state.monsters["monster:orc-1"].health == 3


@pytest.mark.rule("C-FIGHT-04", "C-SETUP-05")
def test_a_strong_hero_wins_a_tie() -> None:
    state, log = start(ruleset(FLANKED, placements=[("orc", "o")]), ["bram"])
    advance(state, "fight_stamina")
    fight(state, (3, 3), (4, 2))
    [event] = events(log, "fight")
    assert event["hero_score"] == event["monster_score"] == 3
    assert event["hero_modifiers"] == {}  # Strong is no modifier: it decides the tie
    assert event["winner"] == "hero"
    assert "C-SETUP-05" in event["rules"]
    assert state.monsters["monster:orc-1"].health == 1


@pytest.mark.rule("C-FIGHT-04")
def test_stamina_adds_one_a_point_to_that_fight_only() -> None:
    state, log = start(ruleset(FLANKED, placements=[("rat", "p"), ("orc", "o")]), ["ana"])
    advance(state, "fight_stamina")
    # First fight, the rat: without its 2 Stamina the hero's 2 + 9 would lose to 1 + 11.
    fight(state, (5, 4), (6, 5), hero_stamina=2, monster_stamina=0)
    # Second fight, the orc: the hero's 2 points do not carry over.
    fight(state, (5, 4), (5, 4), hero_stamina=0, monster_stamina=1)
    first, second = events(log, "fight")
    assert first["hero_score"] == 2 and first["monster_score"] == 1
    assert first["hero_stamina"] == 2 and first["monster_stamina"] == 0
    assert first["winner"] == "hero"  # 2 + 9 + 2 = 13 against 1 + 11 = 12
    assert second["hero_stamina"] == 0 and second["monster_stamina"] == 1
    assert second["hero_score"] == 2 and second["monster_score"] == 3
    assert second["winner"] == "monster"  # 2 + 9 = 11 against 3 + 9 + 1 = 13
    assert state.turn == 2  # the game ran on to turn 2's Movement: 4 - 2, +1 at Turn Start
    assert state.heroes["hero:ana"].stamina == 3
    assert "monster:rat-1" not in state.monsters  # slain by the 2 damage
    assert state.monsters["monster:orc-1"].stamina == 1
    assert state.heroes["hero:ana"].health == 4


@pytest.mark.rule("C-FIGHT-04", "R-C-FIGHT-02")
@pytest.mark.parametrize(
    ("first", "seats"), [("dm", [Seat.DM, Seat.HEROES]), ("heroes", [Seat.HEROES, Seat.DM])]
)
def test_stamina_for_a_fight_is_declared_dm_first_by_default(
    first: Literal["dm", "heroes"], seats: list[Seat]
) -> None:
    rules = ruleset(
        FLANKED,
        placements=[("orc", "o")],
        options=Options(stamina_declared_first=first),
    )
    state, _ = start(rules, ["ana"])
    advance(state, "fight_stamina")
    asked = []
    while waiting_for(state) == "fight_stamina":
        asked.append(state.current_player())
        assert [a for a in state.legal_actions()] == [
            FightStamina(p) for p in range(3 if asked[-1] is Seat.DM else 4)
        ]
        state.apply(FightStamina(0))
    assert asked == seats


@pytest.mark.rule("C-FIGHT-05", "C-FIGHT-06", "C-DD-03", "R-C-DD-01")
def test_hero_to_deaths_door_and_monster_slain_in_the_same_step() -> None:
    state, log = start(ruleset(FLANKED, placements=[("rat", "p"), ("orc", "o")]), ["ana"])
    state.heroes["hero:ana"].health = 2
    advance(state, "fight_stamina")
    fight(state, (6, 6), (1, 1))  # beats the rat
    fight(state, (1, 1), (6, 6))  # loses to the orc
    kinds = [e.event.type for e in log.entries if e.event.type in ("fight", "damage")]
    assert kinds == ["fight", "fight", "damage", "damage"]  # damage only after all fights
    rat, ana = events(log, "damage")
    assert (rat["target"], rat["amount"], rat["by"], rat["health"]) == (
        "monster:rat-1",
        2,
        ["hero:ana"],
        0,
    )
    assert (ana["target"], ana["amount"], ana["by"], ana["health"]) == (
        "hero:ana",
        2,
        ["monster:orc-1"],
        0,
    )
    assert [e["monster"] for e in events(log, "monster.slain")] == ["monster:rat-1"]
    assert [e["hero"] for e in events(log, "deaths_door")] == ["hero:ana"]
    assert list(state.monsters) == ["monster:orc-1"]
    assert state.heroes["hero:ana"].at_deaths_door
    # Brought to 0 by this step's damage: no roll until Turn End (R-C-DD-01).
    assert waiting_for(state) == "deaths_door"
    assert state.pending is not None and state.pending.args["reason"] == "turn_end"
    assert state.step == "turn_end"


@pytest.mark.rule("C-FIGHT-05")
def test_two_monsters_damage_one_hero_at_once() -> None:
    state, log = start(ruleset(FLANKED, placements=[("rat", "p"), ("orc", "o")]), ["ana"])
    advance(state, "fight_stamina")
    fight(state, (1, 2), (6, 6))
    fight(state, (1, 2), (6, 6))
    [damage] = events(log, "damage")
    assert damage["target"] == "hero:ana"
    assert damage["amount"] == 3  # rat 1 + orc 2, in one blow of simultaneous damage
    assert damage["by"] == ["monster:rat-1", "monster:orc-1"]
    assert state.heroes["hero:ana"].health == 3


@pytest.mark.rule("C-FIGHT-05", "C-FIGHT-06")
def test_a_monster_beaten_by_two_heroes_is_killed_by_both() -> None:
    grid = board(
        """
        #######
        #.aob.#
        #######
        """
    )
    state, log = start(ruleset(grid, starts=("a", "b"), placements=[("orc", "o")]), ["ana", "cora"])
    advance(state, "fight_stamina")
    fight(state, (6, 6), (1, 1))
    fight(state, (6, 6), (1, 1))
    [damage] = events(log, "damage")
    assert (damage["amount"], damage["by"], damage["health"]) == (4, ["hero:ana", "hero:cora"], 0)
    [slain] = events(log, "monster.slain")
    assert slain["by"] == ["hero:ana", "hero:cora"]
    assert state.monsters == {}


@pytest.mark.rule("C-FIGHT-06")
def test_a_hero_never_goes_below_zero_health() -> None:
    state, log = start(ruleset(FLANKED, placements=[("ogre", "o")]), ["ana"])
    state.heroes["hero:ana"].health = 1
    advance(state, "fight_stamina")
    fight(state, (1, 1), (6, 6))
    [damage] = events(log, "damage")
    assert (damage["amount"], damage["health"]) == (3, 0)
    assert state.heroes["hero:ana"].health == 0
    assert state.heroes["hero:ana"].at_deaths_door
    assert not state.heroes["hero:ana"].dead


DOORWAY = board(
    """
    #########
    #.a+o...#
    #########
    """,
    """
    #########
    #AA.BBBB#
    #########
    """,
    {"A": AreaInfo("West"), "B": AreaInfo("East")},
)


@pytest.mark.rule("C-FIGHT-02", "C-SURP-01", "C-LIGHT-02")
def test_surprise_and_light_zero_are_named_modifiers_of_the_fight() -> None:
    state, log = start(
        ruleset(DOORWAY, placements=[("orc", "o")], options=Options(light=0)), ["ana"]
    )
    state.apply(OpenDoor("hero:ana", Pos(3, 1)))
    roll(state, 5)  # the door opens on the orc
    roll(state, 1)  # Ana is surprised
    advance(state, "monster_movement")
    state.apply(MonsterMove("monster:orc-1", (Pos(3, 1),)))
    advance(state, "fight_stamina")
    fight(state, (4, 4), (2, 2))
    [event] = events(log, "fight")
    assert event["hero_modifiers"] == {"surprised": -1, "light": -1}
    assert event["hero_score"] == 1 and event["monster_score"] == 3
    assert event["winner"] == "hero"  # 1 + 8 against 3 + 4
