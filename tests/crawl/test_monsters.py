"""Monsters: encounter kinds (C-MON-01), guards (C-MON-02), patrols (C-MON-03,
R-C-PATROL-01, R-C-PATROL-02), ambushers (C-MON-04), monsters and traps (C-MON-05,
C-TRAP-05, R-C-TRAP-01), and distance for monster abilities (C-DIST-01)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import icepool
import pytest
from crawl_kit import (
    board,
    branches,
    crawl_time,
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
from undercroft.crawl.actions import Done, MonsterAbility, MonsterMove, Move, OpenDoor, Step
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import Options, RoomText
from undercroft.crawl.state import IllegalActionError, State

ANA, BRAM = "hero:ana", "hero:bram"

# A corridor bending round to a dead end at (7, 3), beside a closed room.
BEND = board(
    """
    #########
    #ab.....#
    #######.#
    #.....+.#
    #########
    """,
    """
    #########
    #ccccccc#
    #######c#
    #RRRRR.c#
    #########
    """,
    {"c": AreaInfo("Bend", "corridor"), "R": AreaInfo("Store")},
)


def patrol_rolls(log: EventLog) -> list[tuple[int, str, object]]:
    """(turn, corridor, outcome) of every Patrol roll, in order."""
    return [
        (crawl_time(e).turn, e.event.fields["corridor"], e.event.fields["outcome"])
        for e in log.entries
        if e.event.type == "roll" and "C-MON-03" in e.event.rules
    ]


def positions(state: State) -> dict[str, Pos]:
    return {m.id: m.pos for m in state.monsters.values()}


@pytest.mark.rule("C-MON-03", "R-C-PATROL-01", "R-C-PATROL-02", "C-MON-01", "C-DIST-01")
def test_a_patrol_appears_on_a_one_at_the_corner_furthest_from_the_heroes() -> None:
    state, log = start(ruleset(BEND, starts=("a", "b"), patrol=("rat", "orc")), ["ana", "bram"])
    # Turn 1 has no turn before it: no Patrol roll before the first Movement step.
    assert state.turn == 1 and state.current_player() is Seat.HEROES
    play_to(state, "patrol", 6, 6)
    assert state.turn == 2 and state.step == "turn_start"
    roll(state, 1)
    # Corners: the end at (1, 1) (ana stands on it), the bend at (7, 1), 6 squares
    # from bram, and the dead end at (7, 3), 8 squares from him: the furthest.
    assert positions(state) == {"monster:rat-1": Pos(7, 3), "monster:orc-1": Pos(7, 2)}
    assert patrol_rolls(log) == [(2, "Bend", "patrol")]
    assert events(log, "patrol.appeared") == [
        {"corridor": "Bend", "monsters": ["monster:rat-1", "monster:orc-1"], "rules": ["C-MON-03"]}
    ]
    assert [e["encounter"] for e in events(log, "monster.appeared")] == ["patrol", "patrol"]
    # Not yet in combat, so surprise is rolled as usual.
    assert state.pending is not None and state.pending.args["roll"] == "surprise"


@pytest.mark.rule("C-MON-03")
def test_the_patrol_roll_brings_a_patrol_one_time_in_six() -> None:
    state, _ = start(ruleset(BEND, starts=("a",), patrol=("rat",)), ["ana"])
    play_to(state, "patrol", 6)

    def judged(copy: State, log: EventLog) -> tuple[object, int]:
        return outcome_word(copy, log), len(copy.monsters)

    independent = (icepool.d6 == 1).probability(True)
    assert branches(state, judged) == {("patrol", 1): independent, ("none", 0): 1 - independent}
    assert independent == Fraction(1, 6)


@pytest.mark.rule("C-MON-03", "R-C-PATROL-02", "C-TRAP-05", "R-C-TRAP-01")
def test_a_patrol_is_never_set_on_an_armed_trap() -> None:
    trapped = board(
        """
        #########
        #ab.....#
        #######.#
        #.....+e#
        #########
        """,
        """
        #########
        #ccccccc#
        #######c#
        #RRRRR.c#
        #########
        """,
        {"c": AreaInfo("Bend", "corridor"), "R": AreaInfo("Store")},
    )
    rules = ruleset(trapped, starts=("a", "b"), patrol=("rat", "rat"), traps={"e": "pit"})
    state, _ = start(rules, ["ana", "bram"])
    play_to(state, "patrol", 6, 6)
    roll(state, 1)
    # The dead end holds a pit: the bend is the furthest free corner; the second rat
    # takes the nearest free square to it (down comes before left).
    assert positions(state) == {"monster:rat-1": Pos(7, 1), "monster:rat-2": Pos(7, 2)}


@pytest.mark.rule("C-MON-03", "R-C-PATROL-02")
def test_a_patrol_is_never_set_where_no_hero_can_walk() -> None:
    # Rubble at (7, 2) cuts the far end of the corridor (row 3) off from the heroes: a
    # patrol set there could never be reached nor reach them, and the fight would never
    # end. The Store, behind a door at (1, 2), keeps the patrol rolls coming.
    cut_off = board(
        """
        #########
        #ab.....#
        #+#####X#
        #.#.....#
        #########
        """,
        """
        #########
        #ccccccc#
        #c#####c#
        #R#ccccc#
        #########
        """,
        {"c": AreaInfo("Bend", "corridor"), "R": AreaInfo("Store")},
    )
    state, _ = start(ruleset(cut_off, starts=("a", "b"), patrol=("rat",)), ["ana", "bram"])
    play_to(state, "patrol", 6, 6)
    roll(state, 1)
    # Reachable corners: the end at (1, 1) under ana, and (7, 1), now an end: the rat
    # goes there, not to the furthest corners (3, 3) and (7, 3) behind the rubble.
    assert positions(state) == {"monster:rat-1": Pos(7, 1)}


# Two corridors, each ending at a closed room.
TWO_CORRIDORS = board(
    """
    #########
    #ab...+.#
    #########
    #c....+.#
    #########
    """,
    """
    #########
    #ccccc.R#
    #########
    #ddddd.S#
    #########
    """,
    {
        "c": AreaInfo("North", "corridor"),
        "d": AreaInfo("South", "corridor"),
        "R": AreaInfo("Cell"),
        "S": AreaInfo("Cistern"),
    },
)


@pytest.mark.parametrize("step", ["turn_start", "turn_end"])
@pytest.mark.rule("C-MON-03", "R-C-PATROL-01")
def test_one_patrol_roll_per_corridor_holding_heroes_each_turn(
    step: Literal["turn_start", "turn_end"],
) -> None:
    rules = ruleset(
        TWO_CORRIDORS,
        starts=("a", "b", "c"),
        patrol=("rat",),
        options=Options(patrol_roll_step=step),
    )
    state, log = start(rules, ["ana", "bram", "eryn"])
    for _ in range(3):
        next_turn(state, 6, 6, 6, 6, 6)  # three Detect Traps rolls, two Patrol rolls
    # Three heroes, two corridors: two rolls a turn, North (ana and bram) once.
    first = 2 if step == "turn_start" else 1
    assert patrol_rolls(log) == [
        (turn, corridor, "none")
        for turn in range(first, first + 3)
        for corridor in ("North", "South")
    ]
    if step == "turn_end":
        rolled = [e for e in log.entries if e.event.type == "roll" and "C-MON-03" in e.event.rules]
        assert {crawl_time(e).step for e in rolled} == {"turn_end"}


@pytest.mark.rule("C-MON-03", "R-C-SURP-03")
def test_a_patrol_in_a_combat_already_going_on_brings_no_surprise_roll() -> None:
    state, log = start(ruleset(BEND, starts=("a", "b"), patrol=("rat",)), ["ana", "bram"])
    play_to(state, "patrol", 6, 6)
    roll(state, 1)  # the first patrol: surprise is rolled
    roll(state, 1)  # ana surprised
    roll(state, 6)
    play_to(state, "patrol", turn=3)
    roll(state, 1)  # a second patrol, in the same corridor, a turn later
    assert sorted(positions(state)) == ["monster:rat-1", "monster:rat-2"]
    assert state.current_player() is not Seat.CHANCE  # no Surprise roll this time
    surprise = [e for e in log.entries if e.event.type == "roll" and "C-SURP-01" in e.event.rules]
    assert len(surprise) == 2
    assert patrol_rolls(log) == [(2, "Bend", "patrol"), (3, "Bend", "patrol")]


@pytest.mark.rule("C-MON-03")
def test_patrol_rolls_stop_once_every_room_but_secret_ones_is_revealed() -> None:
    rooms = board(
        """
        ##########
        #ab...+..#
        ##########
        """,
        """
        ##########
        #ccccc.RR#
        ##########
        """,
        {"c": AreaInfo("Hall", "corridor"), "R": AreaInfo("Cell")},
    )
    rules = ruleset(rooms, starts=("b", "a"), patrol=("rat",))
    state, log = start(rules, ["bram", "ana"])
    state.apply(Move("hero:bram", (Pos(3, 1), Pos(4, 1), Pos(5, 1))))
    state.apply(OpenDoor("hero:bram", Pos(6, 1)))
    roll(state, 6)
    assert state.revealed == {"Hall", "Cell"}
    next_turn(state, 6, 6)
    assert patrol_rolls(log) == []
    assert [e["rules"] for e in events(log, "patrols.stopped")] == [["C-MON-03"]]


@pytest.mark.rule("C-MON-03")
def test_a_secret_room_does_not_keep_the_patrols_coming() -> None:
    vault = board(
        """
        #########
        #ab...#.#
        #########
        """,
        """
        #########
        #ccccc#V#
        #########
        """,
        {"c": AreaInfo("Hall", "corridor"), "V": AreaInfo("Vault")},
    )
    with_door = board(
        """
        #########
        #ab...+.#
        #########
        """,
        """
        #########
        #ccccc#V#
        #########
        """,
        {"c": AreaInfo("Hall", "corridor"), "V": AreaInfo("Vault")},
    )
    open_rules = ruleset(with_door, starts=("a", "b"), patrol=("rat",))
    state, log = start(open_rules, ["ana", "bram"])
    next_turn(state, 6, 6, 6)  # the Vault is an ordinary unrevealed room: rolls go on
    assert patrol_rolls(log) == [(2, "Hall", "none")]
    secret_rules = ruleset(vault, starts=("a", "b"), patrol=("rat",), secret=["Vault"])
    state, log = start(secret_rules, ["ana", "bram"])
    next_turn(state, 6, 6)
    assert patrol_rolls(log) == []
    assert len(events(log, "patrols.stopped")) == 1


@pytest.mark.rule("C-MON-03", "R-C-PATROL-03")
def test_a_room_sealed_off_by_the_adventure_does_not_keep_the_patrols_coming() -> None:
    sealed = board(
        """
        #########
        #ab...#.#
        #########
        """,
        """
        #########
        #ccccc#V#
        #########
        """,
        {"c": AreaInfo("Hall", "corridor"), "V": AreaInfo("Vault")},
    )
    state, log = start(ruleset(sealed, starts=("a", "b"), patrol=("rat",)), ["ana", "bram"])
    next_turn(state, 6, 6)
    assert patrol_rolls(log) == []
    assert len(events(log, "patrols.stopped")) == 1


# A room whose guard stands in an alcove: out of sight until a hero reaches row 4.
ALCOVE = board(
    """
    #######
    #a....#
    #.###.#
    #.#o#.#
    #.....#
    #######
    """,
    """
    #######
    #CCCCC#
    #C###C#
    #C#C#C#
    #CCCCC#
    #######
    """,
    {"C": AreaInfo("Crypt")},
)


@pytest.mark.rule("C-MON-02", "C-MON-01", "C-LOS-01", "R-C-MON-01")
def test_a_guard_is_met_and_roused_only_when_a_hero_comes_into_sight() -> None:
    state, log = start(ruleset(ALCOVE, starts=("a",), placements=[("orc", "o")]), ["ana"])
    assert state.revealed == {"Crypt"}
    assert state.monsters == {}  # the room is seen, the guard in its alcove is not
    state.apply(Move(ANA, (Pos(1, 2), Pos(1, 3))))
    assert state.monsters == {}
    state.apply(Step(ANA, Pos(1, 4)))  # in the alcove's line of sight
    orc = state.monsters["monster:orc-1"]
    assert (orc.encounter, orc.active) == ("guard", True)
    assert events(log, "guard.roused") == [
        {"monster": "monster:orc-1", "by": ANA, "rules": ["C-MON-02"]}
    ]
    roll(state, 1)  # Ana is surprised, so the guard is not, and moves in
    while state.pending is not None and state.pending.kind != "monster_movement":
        state.apply(Done())
    state.apply(MonsterMove("monster:orc-1", (Pos(3, 4), Pos(2, 4))))
    assert orc.pos == Pos(2, 4)


@pytest.mark.rule("C-MON-02")
def test_an_unroused_guard_holds_its_square() -> None:
    """A secret room's guards appear when the room is opened, whether or not they see a
    hero; until one does, they hold (the rules refuse every move)."""
    from undercroft.crawl.effects import RevealSecret
    from undercroft.crawl.resolve import reveal_secret

    state, _ = start(ruleset(ALCOVE, starts=("a",), placements=[("orc", "o")]), ["ana"])
    state.revealed.discard("Crypt")
    reveal_secret(state, RevealSecret(area="Crypt"))
    orc = state.monsters["monster:orc-1"]
    assert not orc.active
    from undercroft.crawl.monsters import can_move, legal_monster_movement

    assert not can_move(orc)
    assert state.pending is not None
    assert [
        a for a in legal_monster_movement(state, state.pending) if isinstance(a, MonsterMove)
    ] == []


@pytest.mark.rule("C-MON-01", "R-C-MON-05")
def test_a_monster_whose_square_is_taken_goes_to_the_nearest_free_square() -> None:
    """Two monsters placed on one square (as when a monster walked unseen onto a guard's
    square): the second is put on the nearest free square, here the one below the alcove
    (up and right are walls)."""
    from undercroft.crawl.effects import RevealSecret
    from undercroft.crawl.resolve import reveal_secret

    rules = ruleset(ALCOVE, starts=("a",), placements=[("orc", "o"), ("rat", "o")])
    state, log = start(rules, ["ana"])
    state.revealed.discard("Crypt")
    reveal_secret(state, RevealSecret(area="Crypt"))
    assert {m.id: m.pos for m in state.monsters.values()} == {
        "monster:orc-1": Pos(3, 3),
        "monster:rat-1": Pos(3, 4),
    }
    assert [e["at"] for e in events(log, "monster.appeared")] == [[3, 3], [3, 4]]


@pytest.mark.rule("C-MON-01", "C-MON-04", "C-SURP-04")
def test_monsters_placed_by_room_text_are_ambushers() -> None:
    text = RoomText(
        "Bend",
        "A shape unfolds from the ceiling.",
        (fx.Spawn(monsters=("rat",), at=((5, 1),)),),
        explorers_only=False,
    )
    state, log = start(ruleset(BEND, starts=("a", "b"), room_texts=[text]), ["ana", "bram"])
    play_to(state, "surprise")
    assert state.step == "explore"
    assert state.pending is not None and state.pending.args["ambush"] is True
    (appeared,) = events(log, "monster.appeared")
    assert (appeared["monster"], appeared["encounter"], appeared["at"]) == (
        "monster:rat-1",
        "ambusher",
        [5, 1],
    )
    assert state.monsters["monster:rat-1"].active  # an Ambusher does not wait to be seen


# Monsters and traps: an orc at one end of a corridor, a pit between it and ana.
PIT_CORRIDOR = board(
    """
    #########
    #a..t..o#
    #########
    """
)


def orc_reach(state: State) -> set[Pos]:
    return {
        a.path[-1]
        for a in state.legal_actions()
        if isinstance(a, MonsterMove) and a.path and a.monster == "monster:orc-1"
    }


@pytest.mark.rule("C-MON-05", "C-TRAP-05", "R-C-TRAP-01")
def test_monsters_never_step_on_an_armed_trap() -> None:
    rules = ruleset(PIT_CORRIDOR, placements=[("orc", "o")], traps={"t": "pit"})
    state, _ = start(rules, ["ana"])
    state.apply(Done())
    assert state.current_player() is Seat.DM
    assert orc_reach(state) == {Pos(6, 1), Pos(5, 1)}  # the pit at (4, 1) stops it
    with pytest.raises(IllegalActionError):
        state.apply(MonsterMove("monster:orc-1", (Pos(6, 1), Pos(5, 1), Pos(4, 1), Pos(3, 1)), 0))


@pytest.mark.parametrize(
    ("trap", "stop", "health"), [("pit", Pos(4, 1), 1), ("darts", Pos(2, 1), 2)]
)
@pytest.mark.rule("C-TRAP-05", "C-MON-05", "R-C-TRAP-01", "R-C-TRAP-02")
def test_with_the_other_reading_monsters_spring_traps_too(
    trap: str, stop: Pos, health: int
) -> None:
    rules = ruleset(
        PIT_CORRIDOR,
        placements=[("orc", "o")],
        traps={"t": trap},
        options=Options(monsters_enter_traps=True),
    )
    state, log = start(rules, ["ana"])
    state.apply(Done())
    assert Pos(3, 1) in orc_reach(state)
    path = (Pos(6, 1), Pos(5, 1), Pos(4, 1), Pos(3, 1), Pos(2, 1))
    state.apply(MonsterMove("monster:orc-1", path, 1))
    orc = state.monsters["monster:orc-1"]
    # A pit ends the orc's move on it; darts let it walk on.
    assert (orc.pos, orc.health, orc.stamina) == (stop, health, 1)
    (sprung,) = events(log, "trap.sprung")
    assert (sprung["victim"], sprung["at"]) == ("monster:orc-1", [4, 1])
    assert not state.traps[Pos(4, 1)].armed


# A gazer and ana in one room, a row of furniture between them: in sight, 4 squares
# apart as the crow flies but 6 walking round the furniture.
GALLERY = board(
    """
    #######
    #.....#
    #gTTTa#
    #.....#
    #######
    """
)


@pytest.mark.parametrize(("metric", "in_range"), [("walking", False), ("manhattan", True)])
@pytest.mark.rule("C-DIST-01", "R-CORE-DIST-01", "C-LOS-01")
def test_monster_ability_range_is_counted_in_squares_walked(
    metric: Literal["walking", "manhattan"], in_range: bool
) -> None:
    rules = ruleset(
        GALLERY,
        placements=[("gazer", "g")],
        options=Options(distance_metric=metric),
    )
    state, _ = start(rules, ["ana"])
    state.apply(Done())
    assert state.current_player() is Seat.DM
    stare = MonsterAbility("monster:gazer-1", "stare", ANA)
    assert (stare in state.legal_actions()) is in_range
    # One step closer, ana is 5 squares away walking: within the stare's range of 5.
    state, _ = start(rules, ["ana"])
    state.apply(Step(ANA, Pos(5, 1)))
    state.apply(Done())
    assert stare in state.legal_actions()


@pytest.mark.rule("C-MON-03", "R-C-PATROL-02")
def test_between_equally_far_corners_the_patrol_takes_the_first_in_board_order() -> None:
    tee = board(
        """
        #######
        #..a..#
        ###+###
        #.....#
        #######
        """,
        """
        #######
        #ccccc#
        #######
        #RRRRR#
        #######
        """,
        {"c": AreaInfo("Landing", "corridor"), "R": AreaInfo("Cellar")},
    )
    state, _ = start(ruleset(tee, patrol=("rat",)), ["ana"])
    play_to(state, "patrol", 6)
    roll(state, 1)
    assert positions(state) == {"monster:rat-1": Pos(1, 1)}  # (5, 1) is as far


@pytest.mark.rule("C-MON-04", "R-C-SURP-04", "C-SURP-04", "C-MON-03")
def test_an_ambusher_by_profile_ambushes_even_as_part_of_a_patrol() -> None:
    state, log = start(ruleset(BEND, starts=("a", "b"), patrol=("rat", "lurker")), ["ana", "bram"])
    play_to(state, "patrol", 6, 6)
    roll(state, 1)
    assert [e["encounter"] for e in events(log, "monster.appeared")] == ["patrol", "patrol"]
    assert state.pending is not None and state.pending.args == {
        "roll": "surprise",
        "dice": 1,
        "hero": ANA,
        "ambush": True,
    }
    roll(state, 5)
    assert events(log, "roll")[-1]["outcome"] == "surprised"  # only a 6 would do
