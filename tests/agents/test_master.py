"""The ``master`` DM on small scripted boards: it picks the fight that hurts most
(C-FIGHT-02, C-FIGHT-05, C-DD-01), spends Stamina where a fight is decisive (C-FIGHT-04),
uses an ability when no hero is in reach (C-MON-01), and with every knob at its ``basic``
value plays exactly the ``basic`` DM's game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "crawl"))
from crawl_kit import board, ruleset, start

from undercroft.agents.knobs import MasterKnobs
from undercroft.agents.master import Master
from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    Action,
    Done,
    FightStamina,
    MonsterAbility,
    MonsterMove,
)
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View
from undercroft.crawl.runner import play
from undercroft.crawl.state import State

ORC = "monster:orc-1"

# An open room: two heroes on the west wall, four squares apart; the orc (Movement 4,
# Stamina 2) stands between them, 4 squares from a square next to either.
HALL = board(
    """
    #######
    #a....#
    #.....#
    #...o.#
    #.....#
    #b....#
    #######
    """
)


def to_dm(state: State, kind: str) -> None:
    """Heroes and dice do nothing of note until the DM is asked ``kind``: heroes stay
    put (Done), every roll is a 6 (no surprise)."""
    from crawl_kit import roll

    while state.pending is not None and state.pending.kind != kind:
        if state.current_player() is Seat.CHANCE:
            roll(state, 6)
        else:
            state.apply(Done())
    assert state.pending is not None and state.pending.kind == kind


STALL = MasterKnobs(stall=1)
"""The knob the stall tests are about (off by default: docs/players.md)."""


def decide(state: State, knobs: MasterKnobs | None = None) -> tuple[Action, str]:
    dm = Master(DiceSampler(1), knobs=knobs or MasterKnobs())
    action = dm.act(View(state, Seat.DM))
    return action, dm.reason


def hall(party: list[str], health: dict[str, int]) -> State:
    state, _ = start(ruleset(HALL, starts=("a", "b"), placements=[("orc", "o")]), party)
    for hero, points in health.items():
        state.heroes[hero].health = points
    to_dm(state, "monster_movement")
    return state


@pytest.mark.parametrize("hurt", ["hero:ana", "hero:cora"])
def test_a_monster_goes_for_the_hero_it_can_bring_to_deaths_door(hurt: str) -> None:
    """Both heroes are in reach; the one with 2 Health (the orc's Damage) falls to one
    lost fight, so the orc goes for it, whichever side of the room it is on."""
    state = hall(["ana", "cora"], {hurt: 2})
    action, reason = decide(state)
    assert isinstance(action, MonsterMove) and action.monster == ORC
    end = action.path[-1]
    target = state.heroes[hurt].pos
    assert target is not None and end.is_adjacent(target)
    other = next(h for h in state.heroes.values() if h.id != hurt)
    assert other.pos is not None and not end.is_adjacent(other.pos)
    assert hurt.partition(":")[2].capitalize() in reason
    state.apply(action)  # a legal move
    assert state.monsters[ORC].pos == end


def test_a_monster_goes_for_a_hero_at_deaths_door() -> None:
    """A hero at 0 Health rolls to die for every blow (C-DD-03): the orc finishes it
    rather than starting on a fresh hero."""
    state = hall(["ana", "cora"], {"hero:cora": 0})
    action, reason = decide(state)
    assert isinstance(action, MonsterMove)
    cora = state.heroes["hero:cora"].pos
    assert cora is not None and action.path[-1].is_adjacent(cora)
    assert "Death's Door" in reason


def test_focus_0_closes_in_on_the_nearest_hero_as_basic_does() -> None:
    """The knob's ``basic`` value: the nearest hero (Ana, found first), whatever its
    Health; the same scene with focus on goes for hurt Cora instead."""
    knobs = MasterKnobs(focus=0, stamina="flat", abilities=0)
    state = hall(["ana", "cora"], {"hero:cora": 2})
    action, _ = decide(state, knobs)
    assert isinstance(action, MonsterMove)
    ana = state.heroes["hero:ana"].pos
    assert ana is not None and action.path[-1].is_adjacent(ana)


def fight_with(health: int, orc_stamina: int = 2) -> State:
    """The orc next to Ana (Health ``health``), asked for its Stamina in their fight."""
    state, _ = start(ruleset(HALL, starts=("a", "b"), placements=[("orc", "o")]), ["ana", "cora"])
    state.heroes["hero:ana"].health = health
    state.monsters[ORC].stamina = orc_stamina
    to_dm(state, "monster_movement")
    state.apply(MonsterMove(ORC, (Pos(3, 3), Pos(2, 3), Pos(2, 2), Pos(2, 1)), 0))
    to_dm(state, "fight_stamina")
    return state


def test_stamina_goes_into_a_fight_that_can_put_a_hero_at_deaths_door() -> None:
    state = fight_with(health=2)
    action, reason = decide(state)
    assert isinstance(action, FightStamina) and action.points == 2
    assert reason.startswith("Stamina 2") and "Ana" in reason


def test_flat_stamina_spends_at_most_1_as_basic() -> None:
    state = fight_with(health=2)
    action, _ = decide(state, MasterKnobs(stamina="flat"))
    assert action == FightStamina(1)


def test_an_ability_is_used_when_no_hero_is_in_reach() -> None:
    """The gazer walks 2 squares; Ana is 5 away, in sight and in its Stare's range."""
    room = board(
        """
        ########
        #a....g#
        #......#
        ########
        """
    )
    state, _ = start(ruleset(room, starts=("a",), placements=[("gazer", "g")]), ["ana"])
    to_dm(state, "monster_movement")
    action, reason = decide(state)
    assert action == MonsterAbility("monster:gazer-1", "stare", "hero:ana")
    assert "stare" in reason and "Ana" in reason
    # With abilities on a coin flip (knob 0) it does not always.
    moves = set()
    for seed in range(8):
        dm = Master(DiceSampler(seed), knobs=MasterKnobs(abilities=0))
        moves.add(type(dm.act(View(state, Seat.DM))))
    assert moves == {MonsterAbility, MonsterMove}


def test_with_every_knob_at_basic_master_plays_the_basic_game() -> None:
    pack = default_pack()
    rules = pack.ruleset("bone-priest")
    party = ["brenna", "garrick", "durn", "sable"]
    plain = "master[abilities=0,focus=0,stamina=flat]"
    for seed in (3, 4):
        ours = play(rules, party, seed=seed, heroes="basic", dm=plain, log=False).state
        theirs = play(rules, party, seed=seed, heroes="basic", dm="basic", log=False).state
        assert ours.history == theirs.history


def patrol_in_hall(health: dict[str, int]) -> State:
    """The hall with the orc met as a patrol (C-MON-03), not as a guard."""
    state = hall(["ana", "cora"], health)
    state.monsters[ORC].encounter = "patrol"
    return state


@pytest.mark.rule("C-CMB-01")
def test_stall_a_patrol_with_no_fight_worth_taking_keeps_out_of_reach() -> None:
    """Both heroes are fresh, so every fight costs the orc more than it does; the
    monsters move after the heroes (C-CMB-01), so it ends where no hero can reach a
    square next to it by Evading (2 Stamina a square): no fight this turn, and while it
    lives there is no Explore. With ``stall=0`` it closes in as before."""
    state = patrol_in_hall({})
    action, reason = decide(state, STALL)
    assert action == MonsterMove(ORC, (Pos(5, 3),), 0)
    assert "keeps out of the heroes' reach" in reason
    for hero in state.heroes.values():
        assert hero.pos is not None
        assert abs(hero.pos.x - 5) + abs(hero.pos.y - 3) - 1 > hero.stamina // 2
    state.apply(action)  # a legal move
    closing, _ = decide(patrol_in_hall({}), MasterKnobs(stall=0, harry=0))
    assert isinstance(closing, MonsterMove)
    assert any(closing.path[-1].is_adjacent(p) for p in (Pos(1, 1), Pos(1, 5)))


@pytest.mark.rule("C-CMB-01")
def test_stall_a_patrol_still_takes_a_fight_worth_taking() -> None:
    """Cora at 2 Health falls to one lost fight: the patrol goes for her."""
    action, reason = decide(patrol_in_hall({"hero:cora": 2}), STALL)
    assert isinstance(action, MonsterMove) and action.path[-1].is_adjacent(Pos(1, 5))
    assert "Cora" in reason


@pytest.mark.rule("C-MON-02")
def test_stall_a_roused_guard_still_attacks() -> None:
    """A guard attacks once it has seen a hero and fights to the death (C-MON-02): it
    never keeps away, even from a fight that does not pay."""
    action, reason = decide(hall(["ana", "cora"], {}), STALL)
    assert isinstance(action, MonsterMove)
    assert any(action.path[-1].is_adjacent(p) for p in (Pos(1, 1), Pos(1, 5)))
    assert "keeps" not in reason


@pytest.mark.rule("C-CMB-01")
def test_stall_a_cornered_patrol_takes_its_best_fight() -> None:
    """A dead end: Ana (4 Stamina) can Evade 2 squares, so no square is out of her
    reach, and the orc fights rather than wait to be caught."""
    nook = board(
        """
        ######
        #a..o#
        #b####
        ######
        """
    )
    rules = ruleset(nook, starts=("a", "b"), placements=[("orc", "o")])
    state, _ = start(rules, ["ana", "cora"])
    to_dm(state, "monster_movement")
    state.monsters[ORC].encounter = "ambusher"
    action, reason = decide(state, STALL)
    assert action == MonsterMove(ORC, (Pos(3, 1), Pos(2, 1)), 0)
    assert reason.endswith("(cornered)")


@pytest.mark.rule("C-CMB-01")
def test_harry_a_patrol_keeps_out_of_reach_on_at_most_n_turns_then_closes_in() -> None:
    """``harry=2``: the patrol keeps away as with ``stall`` on two turns of the game
    (asked again in the same turn it still may), and on a third it closes in."""
    dm = Master(DiceSampler(1), knobs=MasterKnobs(harry=2))
    state = patrol_in_hall({})
    keep = MonsterMove(ORC, (Pos(5, 3),), 0)
    for turn in (3, 3, 4):
        state.turn = turn
        action = dm.act(View(state, Seat.DM))
        assert action == keep and "keeps out of the heroes' reach" in dm.reason
    assert dm.kept_away == {ORC: {3, 4}}
    state.turn = 5
    action = dm.act(View(state, Seat.DM))
    assert isinstance(action, MonsterMove) and action != keep
    assert "keeps out" not in dm.reason
    # A guard is bound to attack (C-MON-02): it never keeps away.
    guard = hall(["ana", "cora"], {})
    fresh = Master(DiceSampler(1), knobs=MasterKnobs(harry=2))
    assert "keeps out" not in (fresh.act(View(guard, Seat.DM)), fresh.reason)[1]


# A passage along the top and one along the bottom, a wall between them open only at the
# east end: Ana at the west end of the top one, the orc below her, two squares away as
# the crow flies and eleven by walking.
WALLED = board(
    """
    ########
    #a.....#
    ######.#
    #......#
    ########
    """
)


@pytest.mark.rule("C-CMB-01")
@pytest.mark.parametrize("close", [1, 0])
def test_a_monster_closes_in_by_walking_round_a_wall(close: int) -> None:
    """No fight is within the orc's reach (Movement 4 and 2 Stamina): with ``close=1``
    (the default) it walks east toward the way round, to the square from which the
    walk to Ana is shortest; with ``close=0`` (``basic``'s way, squares as the crow
    flies) it stays below her, a wall away, where it would stay for ever. With ``harry=0``:
    a patrol that does not keep away first."""
    from undercroft.crawl.reveal import spawn
    from undercroft.crawl.ruleset import Encounter

    state, _ = start(ruleset(WALLED, starts=("a",)), ["ana"])
    spawn(state, "orc", Pos(1, 3), Encounter.PATROL)
    to_dm(state, "monster_movement")
    action, reason = decide(state, MasterKnobs(close=close, harry=0))
    assert isinstance(action, MonsterMove)
    end = action.path[-1] if action.path else Pos(1, 3)
    if close:
        assert end == Pos(6, 2) and action.stamina == 2  # 6 squares: 4 + 2 Stamina
        assert "closes in" in reason
    else:
        assert end.x <= 2  # no nearer Ana as the crow flies than where it stands
    state.apply(action)  # a legal move
