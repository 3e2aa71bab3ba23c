"""Surprise (C-SURP-01 to C-SURP-05), rulings R-C-SURP-01 to R-C-SURP-04."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

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
from undercroft.crawl.actions import (
    Done,
    Evade,
    FightStamina,
    MonsterMove,
    Move,
    OpenDoor,
    Step,
)
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import Options, RoomText
from undercroft.crawl.state import State

# A hall, a neck of corridor, and a den that comes into view from the hall's east end,
# at (6, 1): heroes start at (2, 1) and (3, 1).
DEN = board(
    """
    ########
    #.ba...#
    ######.#
    ######1#
    #.....o#
    ########
    """,
    """
    ########
    #AAAAAA#
    ######c#
    ######c#
    #BBBBBB#
    ########
    """,
    {"A": AreaInfo("Hall"), "c": AreaInfo("Neck", "corridor"), "B": AreaInfo("Den")},
)
ANA, BRAM, CORA = "hero:ana", "hero:bram", "hero:cora"
TO_THE_DEN = (Pos(4, 1), Pos(5, 1), Pos(6, 1))


def walk_into_view(monster: str, hero: str, *, light: int = 20, **options: Any) -> State:
    """``hero`` walks to the den's mouth, revealing ``monster``; stops at its Surprise
    roll (eryn, behind, rolls next, so the game waits there after it)."""
    rules = ruleset(
        DEN,
        starts=("a", "b"),
        placements=[(monster, "o")],
        options=Options(light=light, **options),
    )
    state, _ = start(rules, [hero, "eryn"])
    state.apply(Move(f"hero:{hero}", TO_THE_DEN))
    assert state.pending is not None and state.pending.args["hero"] == f"hero:{hero}"
    return state


def surprised(state: State, log: EventLog) -> tuple[object, bool]:
    """The roll's outcome word and whether the engine left the hero surprised."""
    assert state.pending is not None and state.pending.args["hero"] == "hero:eryn"
    hero = next(iter(state.heroes.values()))
    return outcome_word(state, log), hero.surprised


@pytest.mark.parametrize(
    ("hero", "light", "modifier", "p_surprised"),
    [
        ("ana", 20, 0, Fraction(1, 3)),
        ("cora", 20, 1, Fraction(1, 6)),  # Perceptive
        ("ana", 0, -1, Fraction(1, 2)),  # Light 0
        ("cora", 0, 0, Fraction(1, 3)),
    ],
)
@pytest.mark.rule("C-SURP-01", "C-SURP-03", "C-LIGHT-02", "C-TURN-04")
def test_surprise_roll_odds(hero: str, light: int, modifier: int, p_surprised: Fraction) -> None:
    state = walk_into_view("orc", hero, light=light)
    assert state.pending is not None and state.pending.args["ambush"] is False
    odds = branches(state, surprised)
    independent = (icepool.d6 + modifier <= 2).probability(True)
    assert odds == {("surprised", True): independent, ("ready", False): 1 - independent}
    assert odds[("surprised", True)] == p_surprised


@pytest.mark.parametrize(
    ("hero", "light", "six", "p_surprised"),
    [
        ("ana", 20, "total", Fraction(5, 6)),
        ("cora", 20, "total", Fraction(2, 3)),  # Perceptive: 5 + 1 makes the 6
        ("cora", 20, "natural", Fraction(5, 6)),  # the other reading of R-C-SURP-02
        ("ana", 0, "total", Fraction(1)),  # 6 - 1 is never enough
        ("cora", 0, "total", Fraction(5, 6)),
    ],
)
@pytest.mark.rule("C-SURP-04", "C-MON-04", "C-SURP-03", "R-C-SURP-02", "R-C-SURP-04")
def test_ambusher_roll_odds(hero: str, light: int, six: str, p_surprised: Fraction) -> None:
    # The lurker is an Ambusher by profile, revealed with its room (R-C-SURP-04).
    state = walk_into_view("lurker", hero, light=light, ambusher_six=six)
    assert state.pending is not None and state.pending.args["ambush"] is True
    odds = branches(state, surprised)
    modifier = 0 if six == "natural" else (hero == "cora") - (light == 0)
    independent = (icepool.d6 + modifier < 6).probability(True)
    assert odds.get(("surprised", True), 0) == independent == p_surprised
    assert odds.get(("ready", False), 0) == 1 - p_surprised


@pytest.mark.rule("C-SURP-04", "R-C-SURP-02", "C-SURP-03")
def test_ambusher_roll_event_names_its_rules_and_modifiers() -> None:
    rules = ruleset(DEN, starts=("a",), placements=[("lurker", "o")])
    state, log = start(rules, ["cora"])
    state.apply(Move(CORA, TO_THE_DEN))
    roll(state, 5)
    (rolled,) = events(log, "roll")
    assert rolled["modifiers"] == {"Perceptive": 1}
    assert (rolled["total"], rolled["outcome"]) == (6, "ready")
    assert rolled["rules"] == ["C-SURP-01", "C-SURP-03", "C-SURP-04", "R-C-SURP-02"]


@pytest.mark.rule("C-SURP-01", "C-TURN-04", "C-TURN-03")
def test_a_surprised_hero_loses_the_rest_of_its_move() -> None:
    rules = ruleset(DEN, starts=("a", "b"), placements=[("orc", "o")])
    state, log = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, (*TO_THE_DEN, Pos(6, 2))))  # the den appears at (6, 1)
    roll(state, 2)  # ana: surprised
    roll(state, 3)  # bram: ready
    assert [r["outcome"] for r in events(log, "roll")] == ["surprised", "ready"]
    assert state.heroes[ANA].pos == Pos(6, 1)
    assert state.heroes[ANA].surprised and not state.heroes[BRAM].surprised
    movers = {getattr(a, "hero", None) for a in state.legal_actions()}
    assert ANA not in movers and BRAM in movers
    state.apply(Step(BRAM, Pos(3, 1)))
    assert state.heroes[BRAM].pos == Pos(3, 1)


@pytest.mark.rule("C-SURP-01", "C-SURP-02", "C-FIGHT-02")
def test_a_surprised_hero_cannot_evade_and_fights_at_minus_one() -> None:
    rules = ruleset(DEN, starts=("a", "b"), placements=[("orc", "o")])
    state, log = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, TO_THE_DEN))
    roll(state, 1)  # ana surprised
    roll(state, 4)  # bram ready
    assert not state.monsters["monster:orc-1"].surprised  # a hero was surprised
    state.apply(Done())
    assert state.current_player() is Seat.DM
    state.apply(MonsterMove("monster:orc-1", (Pos(6, 3), Pos(6, 2))))
    assert state.pending is not None and state.pending.kind == "evasion"
    evaders = {a.hero for a in state.legal_actions() if isinstance(a, Evade)}
    assert evaders == {BRAM}
    state.apply(Done())
    state.apply(FightStamina(0))  # the orc
    state.apply(FightStamina(0))  # ana
    roll(state, 3, 3)
    roll(state, 2, 2)
    (fight,) = events(log, "fight")
    assert fight["hero_modifiers"] == {"surprised": -1}
    assert (fight["hero_score"], fight["monster_score"]) == (2, 3)
    assert fight["winner"] == "hero"  # 2 + 6 beats 3 + 4


def kinds_asked_this_turn(state: State, dice: int = 6) -> list[str]:
    """Finish the turn answering Done (or the first legal action), every die showing
    ``dice``, and list the decisions the players and the DM were asked to make."""
    asked: list[str] = []
    turn = state.turn
    while state.pending is not None and state.turn == turn:
        if state.current_player() is Seat.CHANCE:
            roll(state, *([dice] * state.pending.args["dice"]))
            continue
        asked.append(state.pending.kind)
        legal = state.legal_actions()
        state.apply(Done() if Done() in legal else legal[0])
    return asked


@pytest.mark.rule("C-SURP-02", "R-C-SURP-01")
def test_when_no_hero_is_surprised_the_monsters_skip_their_first_move() -> None:
    rules = ruleset(DEN, starts=("a", "b"), placements=[("orc", "o")])
    state, log = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, TO_THE_DEN))
    roll(state, 3)
    roll(state, 6)
    orc = state.monsters["monster:orc-1"]
    assert orc.surprised
    assert events(log, "monsters.surprised") == [
        {"monsters": ["monster:orc-1"], "rules": ["C-SURP-02"]}
    ]
    assert "monster_movement" not in kinds_asked_this_turn(state)
    # Surprise covers the first combat turn only: next turn the orc moves.
    assert not orc.surprised
    assert "monster_movement" in kinds_asked_this_turn(state)


@pytest.mark.rule("C-SURP-02", "C-SURP-01", "R-C-SURP-01")
def test_one_surprised_hero_spares_the_monsters_and_is_free_next_turn() -> None:
    rules = ruleset(DEN, starts=("a", "b"), placements=[("orc", "o")])
    state, _ = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, TO_THE_DEN))
    roll(state, 6)
    roll(state, 2)  # bram surprised
    assert not state.monsters["monster:orc-1"].surprised
    assert "monster_movement" in kinds_asked_this_turn(state)
    assert not state.heroes[BRAM].surprised
    assert state.pending is not None and state.pending.kind == "movement"
    assert Step(BRAM, Pos(1, 1)) in state.legal_actions()


@pytest.mark.rule("C-SURP-05", "C-DOOR-01", "R-C-DOOR-01")
@pytest.mark.parametrize(("first_try", "orc_surprised"), [(2, False), (4, True)])
def test_monsters_behind_a_door_once_jammed_cannot_be_surprised(
    first_try: int, orc_surprised: bool
) -> None:
    rooms = board(
        """
        #########
        #.a+..o.#
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
    state, log = start(
        ruleset(rooms, starts=("a", "b"), placements=[("orc", "o")]), ["ana", "bram"]
    )
    door = Pos(3, 1)
    state.apply(OpenDoor(ANA, door))
    roll(state, first_try)  # 2: jammed; 4: stuck
    next_turn(state, 6, 6)
    state.apply(OpenDoor(ANA, door))
    roll(state, 5)  # opened: the orc comes into view
    roll(state, 6)
    roll(state, 6)  # nobody surprised
    orc = state.monsters["monster:orc-1"]
    assert orc.surprised is orc_surprised
    assert orc.unsurprisable is not orc_surprised
    denied = [{"monster": "monster:orc-1", "rules": ["C-SURP-05"]}]
    assert events(log, "surprise.denied") == ([] if orc_surprised else denied)
    assert bool(events(log, "monsters.surprised")) is orc_surprised


@pytest.mark.rule("R-C-SURP-03", "C-TURN-04", "C-SURP-02", "R-C-MON-01")
def test_monsters_that_join_a_combat_bring_no_surprise_roll() -> None:
    rules = ruleset(DEN, starts=("a", "b"), placements=[("rat", "1"), ("orc", "o")])
    state, log = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, (Pos(4, 1), Pos(5, 1))))  # the rat comes into sight, not the orc
    assert state.pending is not None and state.pending.args["roll"] == "surprise"
    assert "monster:orc-1" not in state.monsters  # monsters appear when seen (R-C-MON-01)
    roll(state, 5)
    roll(state, 5)
    assert state.monsters["monster:rat-1"].surprised
    state.apply(Step(ANA, Pos(6, 1)))  # the orc comes into sight: it joins, no roll
    assert "monster:orc-1" in state.monsters
    assert state.current_player() is Seat.HEROES
    assert len(events(log, "roll")) == 2
    assert not state.monsters["monster:orc-1"].surprised
    assert state.monsters["monster:rat-1"].surprised


def ambush_in_the_hall() -> tuple[State, EventLog]:
    """A room text sets a lurker in the hall during Explore: after the turn's combat
    steps, so its first combat turn is the next one (R-C-SURP-01)."""
    text = RoomText(
        "Hall",
        "Something drops from the ceiling.",
        (fx.Spawn(monsters=("lurker",), at=((5, 1),)),),
        explorers_only=False,
    )
    state, log = start(ruleset(DEN, starts=("a",), room_texts=[text]), ["ana"])
    play_to(state, "surprise")
    assert state.step == "explore" and state.pending is not None
    assert state.pending.args["ambush"] is True
    return state, log


@pytest.mark.rule("R-C-SURP-01", "C-SURP-01", "C-MON-04", "C-SURP-04")
def test_heroes_ambushed_in_explore_are_surprised_through_the_next_turn() -> None:
    state, log = ambush_in_the_hall()
    roll(state, 5)  # surprised
    assert events(log, "roll")[-1]["outcome"] == "surprised"
    # Explore's trap rolls and Trade are skipped (combat), and the turn ends.
    assert state.turn == 2 and state.heroes[ANA].surprised
    # Turn 2: ana skips her movement; the lurker comes at her and she fights at -1.
    assert state.pending is not None and state.pending.kind == "monster_movement"
    state.apply(MonsterMove("monster:lurker-1", (Pos(4, 1),)))
    play_to(state, "fight", turn=2)
    roll(state, 4, 4)
    roll(state, 4, 4)
    (fight,) = events(log, "fight")
    assert fight["hero_modifiers"] == {"surprised": -1}
    assert fight["winner"] == "monster"
    next_turn(state, (1, 1), (1, 1))
    assert not state.heroes[ANA].surprised
    assert Step(ANA, Pos(2, 1)) in state.legal_actions()


@pytest.mark.rule("R-C-SURP-01", "C-SURP-02", "C-MON-04")
def test_ambushers_that_surprise_nobody_skip_their_first_move_next_turn() -> None:
    state, _ = ambush_in_the_hall()
    roll(state, 6)  # ready: the lurker is surprised
    lurker = state.monsters["monster:lurker-1"]
    assert lurker.surprised
    assert state.turn == 2  # still surprised: its first combat turn is turn 2
    assert kinds_asked_this_turn(state) == ["movement", "evasion"]
    assert not lurker.surprised
    assert "monster_movement" in kinds_asked_this_turn(state)


@pytest.mark.rule("R-C-SURP-01", "C-SURP-01", "C-SURP-02")
def test_with_the_other_reading_surprise_lasts_more_combat_turns() -> None:
    rules = ruleset(
        DEN, starts=("a", "b"), placements=[("orc", "o")], options=Options(surprise_turns=2)
    )
    state, _ = start(rules, ["ana", "bram"])
    state.apply(Move(ANA, TO_THE_DEN))
    roll(state, 1)  # ana surprised
    roll(state, 6)
    assert "movement" in kinds_asked_this_turn(state)  # bram could still move
    assert state.turn == 2 and state.heroes[ANA].surprised  # still, in turn 2
    assert ANA not in {getattr(a, "hero", None) for a in state.legal_actions()}
    kinds_asked_this_turn(state)
    assert state.turn == 3 and not state.heroes[ANA].surprised
    assert Step(ANA, Pos(5, 1)) in state.legal_actions()
