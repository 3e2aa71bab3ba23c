"""Traps: detecting (C-TRAP-01, C-TRAP-02, C-TRAP-04), disarming (C-TRAP-03), springing
(C-TRAP-06), rulings R-C-TRAP-02 and R-C-TRAP-03."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import icepool
import pytest
from crawl_kit import (
    board,
    branches,
    events,
    next_turn,
    outcome_word,
    play_to,
    roll,
    ruleset,
    start,
)

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Disarm, Done, Explore, Move, Rest, Step
from undercroft.crawl.ruleset import Options, RoomText
from undercroft.crawl.state import State

ANA, BRAM, CORA = "hero:ana", "hero:bram", "hero:cora"

# Seven pits in a row, 1 to 7 squares from the start square.
ROW = board(
    """
    ###########
    #a1234567.#
    ###########
    """
)
ROW_TRAPS = {str(n): "pit" for n in range(1, 8)}


def detected(state: State, log: EventLog) -> tuple[object, int]:
    """The radius the engine rolled, and how many pits it marked detected."""
    return outcome_word(state, log), sum(t.detected for t in state.traps.values())


@pytest.mark.parametrize(
    ("hero", "light", "modifier"),
    [("ana", 20, 0), ("cora", 20, 1), ("ana", 0, -1), ("cora", 0, 0)],
)
@pytest.mark.rule("C-TRAP-01", "C-TRAP-04", "C-LIGHT-02", "C-DIST-01")
def test_detect_traps_radius_distribution(hero: str, light: int, modifier: int) -> None:
    state, _ = start(ruleset(ROW, traps=ROW_TRAPS, options=Options(light=light)), [hero])
    play_to(state, "detect_traps")
    assert state.step == "explore"
    odds = branches(state, detected)
    # The radius is the die plus Perceptive, minus 1 at Light 0, never below 0; the hero
    # finds exactly the pits within it.
    radius = (icepool.d6 + modifier).map(lambda r: max(0, r))
    assert odds == {(r, r): radius.probability(r) for r in radius.outcomes()}
    assert sum(odds.values()) == 1
    assert all(p == Fraction(1, 6) for p in odds.values())


@pytest.mark.rule("C-TRAP-01", "C-TRAP-04", "C-LIGHT-02")
def test_detect_traps_roll_is_hidden_from_the_players() -> None:
    state, log = start(ruleset(ROW, traps=ROW_TRAPS, options=Options(light=0)), ["cora"])
    play_to(state, "detect_traps")
    roll(state, 3)
    (rolled,) = events(log, "roll")
    assert rolled["modifiers"] == {"Perceptive": 1, "light": -1}
    assert (rolled["total"], rolled["outcome"], rolled["hidden"]) == (3, 3, True)
    assert rolled["rules"] == ["C-TRAP-01", "C-TRAP-04", "C-LIGHT-02"]
    assert events(log, "traps.detected") == [
        {
            "hero": CORA,
            "found": True,
            "squares": [[2, 1], [3, 1], [4, 1]],
            "rules": ["C-TRAP-01"],
        }
    ]


@pytest.mark.rule("C-TRAP-01", "C-REST-01")
def test_a_resting_hero_gets_the_dms_detect_traps_roll_too() -> None:
    state, log = start(ruleset(ROW, traps=ROW_TRAPS), ["ana"])
    state.apply(Rest(ANA))
    # No Explore choice for a resting hero, but the DM rolls for it at the end of Explore.
    assert state.pending is not None and state.pending.args["roll"] == "detect_traps"
    assert state.step == "explore" and state.pending.args["hero"] == ANA
    roll(state, 3)
    assert [e["hero"] for e in events(log, "explore.choice")] == []
    assert events(log, "traps.detected") == [
        {"hero": ANA, "found": True, "squares": [[2, 1], [3, 1], [4, 1]], "rules": ["C-TRAP-01"]}
    ]
    assert state.turn == 2 and state.heroes[ANA].rested_last_turn


# x: in sight but 10 squares' walk round the furniture (6 as the crow flies);
# y: in sight, 2 squares; z: 4 squares' walk but behind a wall.
GALLERY = board(
    """
    #########
    #a..T..x#
    #.#.T...#
    #y#z....#
    #########
    """
)


@pytest.mark.parametrize(
    ("metric", "found"),
    [("walking", [Pos(1, 3)]), ("manhattan", [Pos(1, 3), Pos(7, 1)])],
)
@pytest.mark.rule("C-TRAP-01", "C-LOS-01", "C-DIST-01", "R-CORE-DIST-01")
def test_detection_needs_both_the_radius_and_line_of_sight(
    metric: Literal["walking", "manhattan"], found: list[Pos]
) -> None:
    rules = ruleset(
        GALLERY,
        traps={"x": "pit", "y": "pit", "z": "pit"},
        options=Options(distance_metric=metric),
    )
    state, _ = start(rules, ["ana"])
    play_to(state, "detect_traps")
    roll(state, 6)
    assert sorted(p for p, t in state.traps.items() if t.detected) == found


@pytest.mark.parametrize(
    ("hero", "light", "modifier", "p_success"),
    [
        ("ana", 20, 0, Fraction(1, 2)),
        ("cora", 20, 1, Fraction(2, 3)),
        ("ana", 0, -1, Fraction(1, 3)),
    ],
)
@pytest.mark.rule("C-TRAP-02", "C-TRAP-04", "C-LIGHT-02")
def test_detect_traps_roll_called_by_room_text(
    hero: str, light: int, modifier: int, p_success: Fraction
) -> None:
    text = RoomText(
        "Hall",
        "The floor looks uneven here.",
        (
            fx.DetectTrapsRoll(
                on_success=(fx.GiveItem(item="gem"),), on_fail=(fx.Damage(amount=1, who="self"),)
            ),
        ),
    )
    hall = board("#####\n#a..#\n#####", "#####\n#HHH#\n#####", {"H": AreaInfo("Hall")})
    rules = ruleset(hall, room_texts=[text], options=Options(light=light))
    state, _ = start(rules, [hero])
    play_to(state, "explore_choice")
    state.apply(Explore(f"hero:{hero}", True))  # the found gem goes to an explorer
    play_to(state, "text_detect")

    def judged(copy: State, log: EventLog) -> tuple[object, int, int]:
        (me,) = copy.heroes.values()
        return outcome_word(copy, log), len(me.items), me.health

    odds = branches(state, judged)
    independent = (icepool.d6 + modifier >= 4).probability(True)
    assert odds == {("success", 1, 6): independent, ("fail", 0, 5): 1 - independent}
    assert independent == p_success


# ana starts two squares from a pit; bram behind her.
PIT = board(
    """
    #######
    #ba.t.#
    #######
    """
)
TRAP = Pos(4, 1)


def detected_pit(party: list[str], *, light: int = 20) -> tuple[State, EventLog]:
    """Turn 1: the pit is detected at the end of Explore; turn 2 begins."""
    rules = ruleset(PIT, starts=("a", "b"), traps={"t": "pit"}, options=Options(light=light))
    state, log = start(rules, party)
    next_turn(state, *([6] * len(party)))
    assert state.traps[TRAP].detected
    return state, log


@pytest.mark.parametrize("hero", ["ana", "cora"])
@pytest.mark.rule("C-TRAP-03", "C-TRAP-04", "R-C-TRAP-03")
def test_disarm_odds_and_no_perceptive_bonus(hero: str) -> None:
    state, _ = detected_pit([hero, "bram"])
    me = f"hero:{hero}"
    assert Disarm(me, TRAP) not in state.legal_actions()  # not next to it yet
    state.apply(Step(me, Pos(3, 1)))
    state.apply(Disarm(me, TRAP))

    def judged(copy: State, log: EventLog) -> tuple[object, bool, str, int]:
        (rolled,) = events(log, "roll")
        trap = copy.traps[TRAP]
        status = "disarmed" if trap.disarmed else "sprung" if trap.sprung else "armed"
        return rolled["outcome"], rolled["modifiers"] == {}, status, copy.heroes[me].health

    odds = branches(state, judged)
    words = icepool.d6.map(lambda n: "sprung" if n == 1 else "failed" if n <= 3 else "disarmed")
    assert odds == {
        ("sprung", True, "sprung", 4): words.probability("sprung"),
        ("failed", True, "armed", 6): words.probability("failed"),
        ("disarmed", True, "disarmed", 6): words.probability("disarmed"),
    }
    assert list(odds.values()) == [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]


# A pit in a room, with room for two heroes to stand next to it.
ROOM_PIT = board(
    """
    #######
    #a.t..#
    #b....#
    #######
    """
)


@pytest.mark.rule("C-TRAP-03", "R-C-TRAP-03", "C-LIGHT-02")
def test_disarm_ends_movement_and_a_failed_hero_waits_a_turn_others_need_not() -> None:
    pit = Pos(3, 1)
    rules = ruleset(ROOM_PIT, starts=("a", "b"), traps={"t": "pit"}, options=Options(light=1))
    state, log = start(rules, ["ana", "bram"])
    next_turn(state, 6, 6)  # ana detects the pit; the Light drops to 0
    assert state.traps[pit].detected and state.light == 0
    state.apply(Step(ANA, Pos(2, 1)))
    state.apply(Disarm(ANA, pit))
    roll(state, 2)
    (rolled,) = [r for r in events(log, "roll") if "C-TRAP-03" in r["rules"]]
    assert (rolled["outcome"], rolled["modifiers"]) == ("failed", {})  # no Light penalty
    assert ANA not in {getattr(a, "hero", None) for a in state.legal_actions()}
    state.apply(Move(BRAM, (Pos(2, 2), Pos(3, 2))))
    assert Disarm(BRAM, pit) in state.legal_actions()  # another hero may try now
    state.apply(Disarm(BRAM, pit))
    roll(state, 3)
    assert state.traps[pit].armed
    next_turn(state, 6, 6)
    assert {Disarm(ANA, pit), Disarm(BRAM, pit)} <= set(state.legal_actions())
    state.apply(Disarm(ANA, pit))
    roll(state, 4)
    assert state.traps[pit].disarmed and not state.traps[pit].armed
    assert not [a for a in state.legal_actions() if isinstance(a, Disarm)]


@pytest.mark.rule("C-TRAP-03")
def test_no_disarming_during_combat() -> None:
    rules = ruleset(
        board(
            """
            #########
            #ba.t..o#
            #########
            """
        ),
        starts=("a", "b"),
        traps={"t": "pit"},
        placements=[("rat", "o")],
    )
    state, _ = start(rules, ["ana", "bram"])
    state.traps[TRAP].detected = True
    assert state.in_combat()
    state.apply(Step(ANA, Pos(3, 1)))
    assert not [a for a in state.legal_actions() if isinstance(a, Disarm)]


@pytest.mark.rule("C-TRAP-06", "C-TRAP-01")
def test_an_undetected_trap_springs_on_the_hero_that_enters_it() -> None:
    rules = ruleset(PIT, starts=("a", "b"), traps={"t": "pit"})
    state, log = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, (Pos(3, 1), TRAP, Pos(5, 1))))
    ana = state.heroes[ANA]
    assert (ana.pos, ana.health) == (TRAP, 4)  # the pit does 2 and ends her move
    assert events(log, "trap.sprung") == [
        {"trap": "pit", "at": [4, 1], "victim": ANA, "detected": False, "rules": ["C-TRAP-06"]}
    ]
    assert ANA not in {getattr(a, "hero", None) for a in state.legal_actions()}
    assert not state.traps[TRAP].armed


@pytest.mark.rule("C-TRAP-06", "R-C-TRAP-02")
def test_a_trap_that_does_not_end_movement_lets_the_hero_walk_on_and_goes_off_once() -> None:
    rules = ruleset(PIT, starts=("a", "b"), traps={"t": "darts"})
    state, log = start(rules, ["ana", "bram"])
    state.apply(Step(ANA, Pos(3, 1)))
    state.apply(Step(ANA, TRAP))
    assert state.heroes[ANA].health == 5
    state.apply(Step(ANA, Pos(5, 1)))
    state.apply(Step(ANA, TRAP))  # spent: nothing happens the second time
    assert state.heroes[ANA].health == 5
    assert len(events(log, "trap.sprung")) == 1


@pytest.mark.rule("C-TRAP-06", "R-C-TRAP-02")
def test_walking_onto_a_detected_trap_springs_it_too() -> None:
    state, log = detected_pit(["ana", "bram"])
    state.apply(Move(ANA, (Pos(3, 1), TRAP)))
    assert state.heroes[ANA].health == 4
    (sprung,) = events(log, "trap.sprung")
    assert (sprung["detected"], sprung["rules"]) == (True, ["C-TRAP-06", "R-C-TRAP-02"])


@pytest.mark.rule("C-TRAP-03", "C-TRAP-06")
def test_a_disarm_roll_of_one_springs_the_trap_on_the_disarmer() -> None:
    state, log = detected_pit(["ana", "bram"])
    state.apply(Step(ANA, Pos(3, 1)))
    state.apply(Disarm(ANA, TRAP))
    roll(state, 1)
    assert state.heroes[ANA].pos == Pos(3, 1)
    assert state.heroes[ANA].health == 4
    (sprung,) = events(log, "trap.sprung")
    assert (sprung["victim"], sprung["rules"]) == (ANA, ["C-TRAP-03"])
    assert state.pending is not None and Done() in state.legal_actions()
