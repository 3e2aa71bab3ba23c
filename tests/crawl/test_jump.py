"""Jumping (C-JUMP-01), Agile heroes (C-JUMP-02), ruling R-C-JUMP-01."""

from __future__ import annotations

from fractions import Fraction

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
from undercroft.core.grid import Pos
from undercroft.crawl.actions import Drag, Jump, Move, SpendStamina, Step
from undercroft.crawl.movement import remaining
from undercroft.crawl.state import State

ANA, BRAM = "hero:ana", "hero:bram"

# Furniture at (3, 1) and (5, 1); a trap at (3, 2). ana stands at (2, 1).
HALL = board(
    """
    #########
    #.aT.T..#
    #b.t....#
    #.......#
    #########
    """
)
TABLE, TRAP = Pos(3, 1), Pos(3, 2)


def p_success(modifier: int) -> Fraction:
    result: Fraction = (icepool.d6 + modifier >= 4).probability(True)
    return result


def after_jump(state: State, log: EventLog) -> tuple[object, Pos | None, str, int]:
    """The roll's word, where the jumper is, which step the game is in, its Health."""
    hero = state.heroes[str(events(log, "roll")[0]["actor"])]
    return outcome_word(state, log), hero.pos, state.step, hero.health


@pytest.mark.parametrize(("hero", "modifier"), [("ana", 0), ("cora", 1)])
@pytest.mark.rule("C-JUMP-01", "C-JUMP-02", "C-SETUP-05")
def test_jumping_furniture_odds_and_where_the_hero_ends(hero: str, modifier: int) -> None:
    state, _ = start(ruleset(HALL, starts=("a",)), [hero])
    state.apply(Jump(f"hero:{hero}", TABLE))
    odds = branches(state, after_jump)
    # Success: over the table, still moving; failure: movement over on the take-off
    # square (the game moves on to Explore).
    assert odds == {
        ("success", Pos(4, 1), "movement", 6): p_success(modifier),
        ("fail", Pos(2, 1), "explore", 6): 1 - p_success(modifier),
    }
    assert p_success(modifier) == (Fraction(1, 2) if modifier == 0 else Fraction(2, 3))


@pytest.mark.parametrize(("hero", "modifier"), [("ana", 0), ("cora", 1)])
@pytest.mark.rule("C-JUMP-01", "C-JUMP-02", "R-C-JUMP-01", "R-C-TRAP-02")
def test_jumping_a_detected_trap_odds_and_the_failure_lands_on_it(hero: str, modifier: int) -> None:
    state, _ = start(ruleset(HALL, starts=("b", "a"), traps={"t": "pit"}), [hero, "bram"])
    me = f"hero:{hero}"
    assert Jump(me, TRAP) not in state.legal_actions()  # not detected yet
    next_turn(state, 6, 6)
    assert state.traps[TRAP].detected
    state.apply(Step(me, Pos(2, 2)))
    state.apply(Jump(me, TRAP))

    def judged(copy: State, log: EventLog) -> tuple[object, Pos | None, bool, int, bool]:
        me_now = copy.heroes[me]
        can_move = me in {getattr(a, "hero", None) for a in copy.legal_actions()}
        return outcome_word(copy, log), me_now.pos, can_move, me_now.health, copy.traps[TRAP].armed

    odds = branches(state, judged)
    assert odds == {
        ("success", Pos(4, 2), True, 6, True): p_success(modifier),
        ("fail", TRAP, False, 4, False): 1 - p_success(modifier),  # the pit does 2
    }


@pytest.mark.rule("C-JUMP-01", "C-JUMP-02", "R-C-JUMP-01")
def test_a_jump_takes_two_squares_and_comes_once_a_movement_step() -> None:
    state, log = start(ruleset(HALL, starts=("a",)), ["cora"])
    cora = state.heroes["hero:cora"]
    state.apply(Jump("hero:cora", TABLE))
    roll(state, 3)  # 3 + 1 (Agile) = 4: success
    (rolled,) = events(log, "roll")
    assert (rolled["modifiers"], rolled["total"], rolled["outcome"]) == ({"Agile": 1}, 4, "success")
    assert rolled["rules"] == ["C-JUMP-01", "C-JUMP-02"]
    assert (cora.pos, remaining(state, cora)) == (Pos(4, 1), 2)
    # Another table at (5, 1), 2 squares left: but one jump a Movement step.
    assert not [a for a in state.legal_actions() if isinstance(a, Jump)]
    state.apply(Step("hero:cora", Pos(4, 2)))
    state.apply(Step("hero:cora", Pos(4, 1)))
    next_turn(state, 6)
    assert Jump("hero:cora", Pos(5, 1)) in state.legal_actions()


@pytest.mark.rule("C-JUMP-01", "R-C-JUMP-01")
def test_a_jump_needs_two_squares_of_movement_left() -> None:
    state, _ = start(ruleset(HALL, starts=("a",)), ["ana"])
    state.apply(SpendStamina(ANA, 1))  # 5 squares this turn
    state.apply(Move(ANA, (Pos(1, 1), Pos(1, 2), Pos(2, 2), Pos(2, 1))))
    assert remaining(state, state.heroes[ANA]) == 1
    assert Jump(ANA, TABLE) not in state.legal_actions()


def jumps(state: State, hero: str) -> list[Jump]:
    return [a for a in state.legal_actions() if isinstance(a, Jump) and a.hero == hero]


@pytest.mark.rule("C-JUMP-01", "C-LOS-01")
def test_figures_cannot_be_jumped_and_the_landing_must_be_free() -> None:
    corridor = board(
        """
        #######
        #ab.T.#
        #######
        """
    )
    state, _ = start(ruleset(corridor, starts=("a", "b")), ["ana", "bram"])
    assert jumps(state, ANA) == []  # bram is no hurdle to jump
    state.apply(Step(BRAM, Pos(3, 1)))
    state.apply(Step(ANA, Pos(2, 1)))
    assert jumps(state, ANA) == []
    assert jumps(state, BRAM) == [Jump(BRAM, Pos(4, 1))]  # the table, landing on (5, 1)
    # With a hero on the landing square there is no jump.
    blocked = board(
        """
        #######
        #.a.Tb#
        #######
        """
    )
    state, _ = start(ruleset(blocked, starts=("a", "b")), ["ana", "bram"])
    state.apply(Step(ANA, Pos(3, 1)))
    assert jumps(state, ANA) == [] and jumps(state, BRAM) == []


@pytest.mark.rule("C-JUMP-01", "R-C-JUMP-01", "C-DEATH-02")
def test_a_hero_dragging_a_corpse_cannot_jump() -> None:
    state, _ = start(
        ruleset(board("########\n#.abT..#\n########"), starts=("a", "b")), ["ana", "bram"]
    )
    state.heroes[ANA].health = 0
    play_to(state, "deaths_door", 6, 6)
    roll(state, 1)  # ana dies at (2, 1), next to bram
    assert Jump(BRAM, Pos(4, 1)) in state.legal_actions()
    state.apply(Drag(BRAM, Pos(2, 1)))
    assert Jump(BRAM, Pos(4, 1)) not in state.legal_actions()
