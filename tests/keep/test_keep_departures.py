"""Work about a being ends with it: a minion on its way to carry or heal someone who woke,
died, was carried away or left the map stops (ruling R-K-JOB-01, R-K-WAKE-02; issue 31:
a minion came for a task aimed at an adventurer who had walked out)."""

from __future__ import annotations

import pytest
from keep_kit import CALM, HALL, adv, calm, invade, invaded, member, minion, stand
from test_keep_fallen import knock_out

from undercroft.keep.rules import fallen, goals, invasions
from undercroft.keep.scenario import build_world
from undercroft.keep.state.actors import Condition, Job, Minion
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import Group
from undercroft.keep.state.tasks import TaskKind
from undercroft.keep.state.world import World

CELL = '[[cell]]\nat = [9, 8]\nname = "cell"\n'


def _rogue_knocked_out() -> tuple[World, Group, Adventurer]:
    """A calm hall with a cell: a rogue of an invasion knocked out at (2, 7)."""
    world, _ = invaded(calm(HALL), CELL + CALM)
    group = invade(world, member("rogue", 2))
    rogue = adv(world, group)
    stand(world, rogue, 2, 7)
    knock_out(world, rogue)
    return world, group, rogue


def _carrier_on_its_way(world: World) -> tuple[Minion, str]:
    """A Chores-job goblin far off, sent for a fallen rogue (its carry task taken)."""
    carrier = minion(world, 9, 1, job=Job.CHORES, breed="goblin")
    world.run(world.now)  # dispatch: it takes the carry
    (task,) = [t for t in world.tasks.values() if t.kind is TaskKind.CARRY]
    assert task.minion == carrier.id and carrier.walk is not None
    return carrier, task.target


@pytest.mark.rule("R-K-JOB-01", "R-K-WAKE-02")
def test_a_carry_ends_when_the_adventurer_wakes_and_walks_out() -> None:
    world, group, rogue = _rogue_knocked_out()
    carrier, target = _carrier_on_its_way(world)
    assert target == rogue.id
    fallen.wake(world, rogue, "by_itself")
    assert not world.tasks and carrier.task is None and carrier.walk is None
    goals.leave(world, rogue, group)
    invasions.end(world, group)
    assert rogue.id not in world.beings
    world.run(world.now + 60)  # nobody comes for it (this raised KeyError before)
    assert carrier.task is None


@pytest.mark.rule("R-K-JOB-01", "R-K-WAKE-02")
def test_a_task_about_an_adventurer_who_left_ends_when_it_leaves() -> None:
    world, group, rogue = _rogue_knocked_out()
    carrier, _ = _carrier_on_its_way(world)
    goals.leave(world, rogue, group)  # (a rescue: gone from under the carrier's nose)
    assert not world.tasks and carrier.task is None


@pytest.mark.rule("R-K-JOB-01", "R-K-WAKE-02", "K-AFTER-02")
def test_a_carry_ends_when_the_body_dies_and_a_new_one_takes_it_to_the_table() -> None:
    extra = CELL + '[[butcher_table]]\nat = [1, 8]\nname = "table"\n' + CALM
    world, _ = invaded(calm(HALL), extra)
    group = invade(world, member("rogue", 2))
    rogue = adv(world, group)
    stand(world, rogue, 2, 7)
    rogue.wounds.append({"source": "test"})
    knock_out(world, rogue, bleeding=True)
    _carrier_on_its_way(world)
    (old,) = world.tasks.values()
    fallen.die(world, rogue, by="test", cause="bleeding")
    assert old.id not in world.tasks
    (new,) = world.tasks.values()
    assert new.kind is TaskKind.CARRY and rogue.condition is Condition.DEAD
    world.run(world.now + 120)
    assert rogue.body == "butchered"


@pytest.mark.rule("R-K-JOB-01", "R-K-WAKE-02")
def test_a_heal_ends_when_the_body_is_carried_away() -> None:
    world, _ = invaded(HALL)
    hurt = minion(world, 8, 7, job=Job.NONE)
    hurt.pos = world.sanctum  # it fell away from its bed
    healer = minion(world, 1, 1, job=Job.NONE, breed="shaman")
    knock_out(world, hurt)
    world.run(world.now)
    (heal,) = [t for t in world.tasks.values() if t.kind is TaskKind.HEAL]
    assert heal.minion == healer.id
    porter = minion(world, 1, 1, job=Job.NONE)
    fallen.lift(world, porter, hurt)
    assert heal.id not in world.tasks and healer.task is None


@pytest.mark.rule("R-K-JOB-01", "R-K-WAKE-02")
def test_tutorial_seed_6_runs_30_days() -> None:
    """Issue 31: at minute 2,817 a minion came for a carry aimed at an adventurer that
    had woken and walked out three minutes before (KeyError 'adv:1-1')."""
    world = build_world("tutorial", seed=6)
    world.open_log()
    world.run_days(30)
    assert world.now >= 30 * 1440 - 1
