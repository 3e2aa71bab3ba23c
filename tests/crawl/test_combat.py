"""The combat sequence (C-CMB-01, C-CMB-02) and the steps it skips (C-TURN-05,
C-TURN-06)."""

from __future__ import annotations

import pytest
from combat_kit import advance, events, fight, waiting_for
from crawl_kit import board, ruleset, start

from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl.actions import (
    FIGHT_STAMINA,
    BeginCasting,
    CastingChoice,
    ChooseTarget,
    Done,
    Evade,
    FightStamina,
    MonsterMove,
    Rest,
)
from undercroft.crawl.combat import MAX_FIGHT_STAMINA
from undercroft.crawl.state import IllegalActionError

HALL = board(
    """
    ########
    #a...o.#
    #......#
    ########
    """,
    """
    ########
    #HHHHHH#
    #HHHHHH#
    ########
    """,
    {"H": AreaInfo("Hall")},
)


@pytest.mark.rule("C-CMB-01")
def test_the_five_combat_sub_steps_come_in_order() -> None:
    state, log = start(ruleset(HALL, placements=[("orc", "o")]), ["dell"])
    state.apply(Done())  # Heroes' Movement: Dell stays
    assert waiting_for(state) == "spell_selection"
    state.apply(BeginCasting("hero:dell", "bolt"))
    assert waiting_for(state) == "monster_movement"
    state.apply(MonsterMove("monster:orc-1", (Pos(4, 1), Pos(3, 1), Pos(2, 1))))
    assert waiting_for(state) == "evasion"
    state.apply(Done())
    assert waiting_for(state) == "casting_choice"
    state.apply(CastingChoice("hero:dell", True))
    fight(state, None, (1, 2))  # 3 + 2 against 3 + 3: the orc wins
    assert waiting_for(state) == "cast_target"
    state.apply(ChooseTarget("hero:dell", "monster:orc-1"))
    steps = {
        e.event.type: e.time.to_json()["step"]
        for e in log.entries
        if e.event.type in ("casting.begun", "monster.moved", "fight", "spell.cast")
    }
    assert steps == {
        "casting.begun": "spell_selection",
        "monster.moved": "monster_movement",
        "fight": "fighting",
        "spell.cast": "casting",
    }
    order = [e.event.type for e in log.entries if e.event.type in steps]
    assert order == ["casting.begun", "monster.moved", "fight", "spell.cast"]
    # Damage from the fight (step 4) came before the spell (step 5).
    assert state.heroes["hero:dell"].health == 4
    assert state.monsters["monster:orc-1"].health == 1


@pytest.mark.rule("C-CMB-01")
def test_evading_costs_two_stamina_a_square_as_often_as_stamina_allows() -> None:
    state, log = start(ruleset(HALL, placements=[("orc", "o")]), ["ana"])
    advance(state, "evasion")
    assert Evade("hero:ana", Pos(2, 1)) in state.legal_actions()
    state.apply(Evade("hero:ana", Pos(2, 1)))
    assert state.heroes["hero:ana"].stamina == 2
    state.apply(Evade("hero:ana", Pos(3, 1)))
    ana = state.heroes["hero:ana"]
    # No Stamina left: the Evasion step ended without asking again, and so did the turn
    # (Exhausted at 0; Turn Start's +1 does not end it, C-EXH-01).
    assert ana.pos == Pos(3, 1) and ana.exhausted
    assert state.turn == 2 and ana.stamina == 1
    assert [e["reason"] for e in events(log, "exhausted")] == ["evasion"]
    assert [e["to"] for e in events(log, "moved")] == [[2, 1], [3, 1]]


@pytest.mark.rule("C-CMB-01")
def test_only_a_listed_evasion_is_accepted_and_done_always_is() -> None:
    # The evasion step checks an action against its hero's evasions only: the same
    # answers as the full list of legal actions, for every square around the hero.
    state, _ = start(ruleset(HALL, placements=[("orc", "o")]), ["ana"])
    advance(state, "evasion")
    legal = state.legal_actions()
    assert Done() in legal
    for hero in ("hero:ana", "hero:dell", "hero:nobody"):
        assert state.legal_actions_of(Evade, hero) == [
            a for a in legal if isinstance(a, Evade) and a.hero == hero
        ]
        for to in (Pos(x, y) for x in range(8) for y in range(4)):
            action = Evade(hero, to)
            twin = state.clone()
            try:
                twin.apply(action)
                accepted = True
            except IllegalActionError:
                accepted = False
            assert accepted == (action in legal), action
    state.apply(Done())
    assert waiting_for(state) != "evasion"


@pytest.mark.rule("C-CMB-02", "C-TURN-05", "C-TURN-06")
def test_monsters_left_means_turn_end_and_no_explore() -> None:
    state, log = start(ruleset(HALL, placements=[("orc", "o")]), ["ana"])
    state.apply(Done())
    seen = advance(state, "movement")
    assert state.turn == 2
    assert "explore_choice" not in seen and "detect_traps" not in seen and "trade" not in seen
    assert [e["monsters_left"] for e in events(log, "combat.step_over")] == [1]


@pytest.mark.rule("C-CMB-02", "C-TURN-05")
def test_no_monsters_left_means_explore_follows_in_the_same_turn() -> None:
    grid = board(
        """
        ######
        #ar..#
        ######
        """,
        """
        ######
        #HHHH#
        ######
        """,
        {"H": AreaInfo("Hall")},
    )
    state, log = start(ruleset(grid, placements=[("rat", "r")]), ["ana"])
    advance(state, "fight_stamina")
    fight(state, (6, 6), (1, 1))
    assert state.monsters == {}
    assert [e["monsters_left"] for e in events(log, "combat.step_over")] == [0]
    assert waiting_for(state) == "explore_choice" and state.turn == 1
    assert state.step == "explore"


@pytest.mark.rule("C-CMB-01", "C-REST-01")
def test_a_resting_hero_does_not_evade() -> None:
    state, log = start(ruleset(HALL, placements=[("orc", "o")]), ["ana"])
    state.apply(Rest("hero:ana"))
    seen = advance(state, "movement")
    assert "evasion" not in seen and state.turn == 2
    assert events(log, "moved") == []


@pytest.mark.rule("C-FIGHT-04")
def test_the_stamina_options_made_once_reach_the_most_a_fight_takes() -> None:
    # legal fight_stamina lists are slices of FIGHT_STAMINA, made once
    assert tuple(FightStamina(p) for p in range(MAX_FIGHT_STAMINA + 1)) == FIGHT_STAMINA
