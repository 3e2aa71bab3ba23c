"""The turn sequence (C-TURN-01, C-TURN-02, C-TURN-04, C-TURN-07) and the start of an
adventure (C-SETUP-03)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from crawl_kit import (
    HEROES,
    board,
    crawl_time,
    events,
    hero,
    next_turn,
    play_to,
    roll,
    ruleset,
    start,
)

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import new_game
from undercroft.crawl.actions import Done, Move, Step
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import HeroProfile, Ruleset
from undercroft.crawl.state import State

ANA, BRAM = "hero:ana", "hero:bram"

HALL = board(
    """
    ########
    #abc...#
    #.....r#
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


def with_heroes(rules: Ruleset, *profiles: HeroProfile) -> Ruleset:
    """The ruleset with some hero cards replaced."""
    cards = dict(HEROES)
    cards.update({p.id: p for p in profiles})
    return replace(rules, heroes=cards)


def decisions_of_one_turn(state: State) -> list[tuple[str, str]]:
    """(step, what is waited for) at each decision until the next turn's first one."""
    seen: list[tuple[str, str]] = []
    turn = state.turn
    while state.pending is not None and state.turn == turn:
        waiting = state.pending.args.get("roll", state.pending.kind)
        seen.append((state.step, waiting))
        if state.current_player() is Seat.CHANCE:
            roll(state, *([6] * state.pending.args["dice"]))
        elif state.pending.kind == "explore_choice":
            state.apply(state.legal_actions()[1])  # stay put
        else:
            legal = state.legal_actions()
            state.apply(Done() if Done() in legal else legal[0])
    return seen


@pytest.mark.rule("C-TURN-01", "C-TURN-05", "C-TURN-06", "C-TURN-07")
def test_the_five_steps_come_in_order() -> None:
    rules = with_heroes(
        ruleset(HALL, starts=("a", "b")), hero("ana", items=["gem"]), hero("bram", items=["gem"])
    )
    state, log = start(rules, ["ana", "bram"])
    assert decisions_of_one_turn(state) == [
        ("movement", "movement"),
        ("explore", "explore_choice"),
        ("explore", "explore_choice"),
        ("explore", "detect_traps"),
        ("explore", "detect_traps"),
        ("trade", "trade"),
    ]
    steps = [(e.event.type, crawl_time(e).step) for e in log.entries if crawl_time(e).turn == 1]
    assert ("turn.started", "turn_start") in steps
    assert steps[-1] == ("light.dropped", "turn_end")
    assert state.turn == 2 and state.step == "movement"


@pytest.mark.rule("C-TURN-01", "C-CMB-01", "C-TURN-07")
def test_with_monsters_on_the_board_explore_and_trade_are_skipped_but_turn_end_is_not() -> None:
    rules = with_heroes(
        ruleset(HALL, starts=("a", "b"), placements=[("rat", "r")]),
        hero("ana", items=["gem"]),
        hero("bram", items=["gem"]),
    )
    state, log = start(rules, ["ana", "bram"])
    seen = decisions_of_one_turn(state)
    assert [s for s, _ in seen if s in ("explore", "trade")] == []
    assert ("monster_movement", "monster_movement") in seen
    assert [e["light"] for e in events(log, "light.dropped")] == [19]


@pytest.mark.rule("C-TURN-02", "R-C-PATROL-01", "C-MON-03")
def test_turn_start_rolls_for_patrols_then_each_hero_recovers_one_stamina() -> None:
    corridor = board(
        """
        ########
        #ab..+.#
        ########
        """,
        """
        ########
        #cccc.R#
        ########
        """,
        {"c": AreaInfo("Passage", "corridor"), "R": AreaInfo("Cell")},
    )
    state, log = start(ruleset(corridor, starts=("a", "b"), patrol=("rat",)), ["ana", "bram"])
    state.heroes[ANA].stamina = 1
    state.heroes[BRAM].stamina = 4  # full: nothing to recover
    next_turn(state, 6, 6, 4)
    assert (state.heroes[ANA].stamina, state.heroes[BRAM].stamina) == (2, 4)
    turn_two = [e for e in log.entries if crawl_time(e).turn == 2]
    order = [e.event.type for e in turn_two]
    assert order == ["turn.started", "roll", "recovered"]
    recovered = dict(turn_two[2].event.fields)
    assert recovered == {
        "hero": ANA,
        "stamina": 2,
        "magic": 0,
        "rested": False,
        "exhausted": False,
    }
    assert list(turn_two[2].event.rules) == ["C-TURN-02"]


# A hall looking into a den through an opening at (6, 1).
DEN = board(
    """
    ########
    #.ba...#
    ######.#
    #.....o#
    ########
    """,
    """
    ########
    #AAAAAA#
    ######.#
    #BBBBBB#
    ########
    """,
    {"A": AreaInfo("Hall"), "B": AreaInfo("Den")},
)


@pytest.mark.rule("C-TURN-04", "C-SURP-01", "C-CMB-01")
def test_revealing_monsters_brings_surprise_rolls_then_the_combat_sequence() -> None:
    state, log = start(ruleset(DEN, starts=("a", "b"), placements=[("orc", "o")]), ["ana", "bram"])
    state.apply(Move(ANA, (Pos(4, 1), Pos(5, 1), Pos(6, 1))))
    assert [e["area"] for e in events(log, "area.revealed")] == ["Hall", "Den"]
    assert state.pending is not None and state.pending.args == {
        "roll": "surprise",
        "dice": 1,
        "hero": ANA,
        "ambush": False,
    }
    roll(state, 4)
    roll(state, 4)
    state.apply(Done())
    types = [e.event.type for e in log.entries]
    assert types.index("monster.appeared") < types.index("roll") < types.index("combat.turn")
    # Nobody was surprised, so the orc skips Monsters' Movement: on to Evasion.
    assert state.monsters["monster:orc-1"].surprised
    assert state.pending is not None and state.pending.kind == "evasion"


@pytest.mark.rule("C-TURN-07", "C-DD-01", "C-LIGHT-01")
def test_turn_end_rolls_deaths_door_before_the_light_drops() -> None:
    state, log = start(ruleset(HALL, starts=("a",)), ["ana"])
    state.heroes[ANA].health = 0
    play_to(state, "deaths_door", 6)
    assert state.step == "turn_end" and state.light == 20
    roll(state, 5)
    types = [e.event.type for e in log.entries if crawl_time(e).step == "turn_end"]
    assert types == ["roll", "light.dropped"]
    assert (events(log, "roll")[-1]["outcome"], state.light) == ("survives", 19)


@pytest.mark.rule("C-SETUP-03")
def test_heroes_start_on_the_adventures_start_squares_in_party_order() -> None:
    rules = ruleset(HALL, starts=("c", "a", "b"))
    state, log = start(rules, ["bram", "ana"])
    assert {h.id: h.pos for h in state.heroes.values()} == {BRAM: Pos(3, 1), ANA: Pos(1, 1)}
    (started,) = events(log, "adventure.started")
    assert started == {
        "adventure": "test",
        "light": 20,
        "heroes": [BRAM, ANA],
        "rules": ["C-SETUP-03"],
    }
    with pytest.raises(ValueError, match="3 start squares, the party has 4 heroes"):
        new_game(rules, ["ana", "bram", "cora", "dell"], sink=EventLog(log.header))
    assert state.current_player() is Seat.HEROES
    assert Step(BRAM, Pos(4, 1)) in state.legal_actions()
