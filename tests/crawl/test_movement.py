"""Heroes' Movement (C-TURN-03, ruling R-C-MOVE-01), counting squares (C-DIST-01), and
what blocks movement but not sight (C-LOS-01)."""

from __future__ import annotations

import pytest
from crawl_kit import board, events, ruleset, start

from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl.actions import Done, EndMovement, Move, SpendStamina, Step
from undercroft.crawl.engine import Seat
from undercroft.crawl.movement import allowance, remaining
from undercroft.crawl.observe import observe
from undercroft.crawl.reveal import spawn
from undercroft.crawl.ruleset import Options
from undercroft.crawl.state import IllegalActionError, State

ANA, BRAM = "hero:ana", "hero:bram"

FIELD = board(
    """
    ###########
    #.........#
    #.ab......#
    #.........#
    ###########
    """
)


def steps(state: State, hero: str) -> set[Pos]:
    return {a.to for a in state.legal_actions() if isinstance(a, Step) and a.hero == hero}


def stamina_offers(state: State, hero: str) -> list[int]:
    return [
        a.points for a in state.legal_actions() if isinstance(a, SpendStamina) and a.hero == hero
    ]


def east(start_x: int, squares: int, y: int = 1) -> tuple[Pos, ...]:
    return tuple(Pos(x, y) for x in range(start_x + 1, start_x + squares + 1))


@pytest.mark.rule("C-TURN-03", "C-DIST-01")
def test_a_hero_steps_orthogonally_up_to_its_movement() -> None:
    state, _ = start(ruleset(FIELD, starts=("a",)), ["ana"])
    assert steps(state, ANA) == {Pos(2, 1), Pos(3, 2), Pos(2, 3), Pos(1, 2)}  # no diagonals
    with pytest.raises(IllegalActionError):
        state.apply(Move(ANA, (Pos(2, 1), *east(2, 4))))  # 5 squares: one too many
    state.apply(Move(ANA, (Pos(2, 1), *east(2, 3))))
    ana = state.heroes[ANA]
    assert (ana.pos, ana.moved, remaining(state, ana)) == (Pos(5, 1), 4, 0)
    assert steps(state, ANA) == set()


@pytest.mark.rule("C-TURN-03", "R-C-MOVE-01")
def test_stamina_buys_one_square_a_point_one_to_three_points_a_turn() -> None:
    state, log = start(ruleset(FIELD, starts=("a",)), ["ana"])
    ana = state.heroes[ANA]
    assert stamina_offers(state, ANA) == [1, 2, 3]
    state.apply(SpendStamina(ANA, 2))
    assert (ana.stamina, allowance(state, ana)) == (2, 6)
    assert stamina_offers(state, ANA) == [1]  # 3 points a turn at most
    state.apply(SpendStamina(ANA, 1))
    assert (ana.stamina, allowance(state, ana)) == (1, 7)
    assert stamina_offers(state, ANA) == []
    state.apply(Move(ANA, (Pos(2, 1), *east(2, 6))))
    assert ana.pos == Pos(8, 1)
    assert [(e["points"], e["squares"], e["stamina"]) for e in events(log, "stamina.spent")] == [
        (2, 2, 2),
        (1, 1, 1),
    ]


@pytest.mark.rule("C-TURN-03", "R-C-MOVE-01")
def test_a_hero_cannot_spend_more_stamina_than_it_has() -> None:
    rules = ruleset(FIELD, starts=("a",))
    state, _ = start(rules, ["ana"])
    state.heroes[ANA].stamina = 2  # set before the first question is asked
    state = State.from_json(rules, state.to_json())
    assert stamina_offers(state, ANA) == [1, 2]


@pytest.mark.rule("C-TURN-03", "R-C-MOVE-01")
def test_with_the_other_reading_each_point_buys_three_squares() -> None:
    rules = ruleset(
        FIELD, starts=("a",), options=Options(move_stamina_cost="three_squares_per_point")
    )
    state, log = start(rules, ["ana"])
    ana = state.heroes[ANA]
    assert stamina_offers(state, ANA) == [1, 2, 3, 4]
    state.apply(SpendStamina(ANA, 1))
    assert (ana.stamina, allowance(state, ana)) == (3, 7)
    assert events(log, "stamina.spent")[0]["squares"] == 3


@pytest.mark.rule("C-TURN-03")
def test_heroes_move_in_any_order_and_interleave() -> None:
    state, _ = start(ruleset(FIELD, starts=("a", "b")), ["ana", "bram"])
    state.apply(Step(ANA, Pos(2, 1)))
    state.apply(Step(BRAM, Pos(3, 1)))
    state.apply(Step(ANA, Pos(1, 1)))
    state.apply(Move(BRAM, east(3, 3)))
    state.apply(Step(ANA, Pos(1, 2)))
    assert (state.heroes[ANA].pos, state.heroes[BRAM].pos) == (Pos(1, 2), Pos(6, 1))
    assert (state.heroes[ANA].moved, state.heroes[BRAM].moved) == (3, 4)
    state.apply(EndMovement(BRAM))
    assert steps(state, BRAM) == set() and steps(state, ANA)
    state.apply(Done())
    assert state.step == "explore"


@pytest.mark.rule("C-TURN-03", "C-LOS-01")
def test_no_hero_moves_through_an_occupied_square() -> None:
    corridor = board(
        """
        #########
        #ab.o...#
        #########
        """
    )
    state, _ = start(
        ruleset(corridor, starts=("a", "b"), placements=[("rat", "o")]), ["ana", "bram"]
    )
    assert Pos(2, 1) not in steps(state, ANA)  # bram is in the way
    with pytest.raises(IllegalActionError):
        state.apply(Move(ANA, (Pos(2, 1), Pos(3, 1))))
    state.apply(Step(BRAM, Pos(3, 1)))
    assert steps(state, BRAM) == {Pos(2, 1)}  # the rat blocks the way on


# A gallery split by a line of furniture: the far side is in sight but must be walked round.
GALLERY = board(
    """
    ########
    #a.T...#
    #..T.o.#
    #......#
    ########
    """,
    """
    ########
    #WWTEEE#
    #WWTEEE#
    #WWWEEE#
    ########
    """.replace("T", "."),
    {"W": AreaInfo("West Wing"), "E": AreaInfo("East Wing")},
)


@pytest.mark.rule("C-LOS-01", "C-TURN-04", "C-MON-02")
def test_furniture_blocks_movement_but_not_sight() -> None:
    state, log = start(ruleset(GALLERY, starts=("a",), placements=[("orc", "o")]), ["ana"])
    assert state.revealed == {"West Wing", "East Wing"}  # seen over the furniture
    assert events(log, "guard.roused") == [
        {"monster": "monster:orc-1", "by": ANA, "rules": ["C-MON-02"]}
    ]
    state.apply(Step(ANA, Pos(2, 1)))
    assert Pos(3, 1) not in steps(state, ANA)
    with pytest.raises(IllegalActionError):
        state.apply(Move(ANA, (Pos(3, 1), Pos(4, 1))))


# A hall that turns down into a bend no hero at a sees, then a low passage.
BEND = board(
    """
    #######
    #a...##
    ####.##
    #....##
    #######
    """,
    """
    #######
    #HHHH##
    ####C##
    #LLLL##
    #######
    """,
    {
        "H": AreaInfo("Hall"),
        "C": AreaInfo("Bend", kind="corridor"),
        "L": AreaInfo("Low", kind="corridor"),
    },
)


@pytest.mark.rule("C-TURN-03", "C-LOS-01", "R-C-MON-06")
def test_a_walk_planned_through_an_unseen_monster_stops_before_it() -> None:
    state, _ = start(ruleset(BEND, starts=("a",)), ["ana"])
    orc = spawn(state, "orc", Pos(4, 2), None)  # in the Bend, out of Ana's sight
    assert observe(state, Seat.HEROES).monsters == ()
    state.apply(SpendStamina("hero:ana", 1))  # five squares this turn
    # The heroes cannot know the orc is there, so their plan is not refused (a refusal
    # would tell them); the walk stops before the orc, which Ana then sees.
    state.apply(Move("hero:ana", (Pos(2, 1), Pos(3, 1), Pos(4, 1), Pos(4, 2), Pos(4, 3))))
    assert state.heroes["hero:ana"].pos == Pos(4, 1)
    assert [m["id"] for m in observe(state, Seat.HEROES).monsters] == [orc.id]
    # Once seen, the orc blocks a plan through it as any figure does.
    with pytest.raises(IllegalActionError):
        state.apply(Move("hero:ana", (Pos(4, 2), Pos(4, 3))))
