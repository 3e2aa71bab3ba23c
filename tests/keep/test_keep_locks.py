"""Locks: arming, who passes, opening doors to reach enemies, breaches (K-LOCK, K-FORCE-05)."""

from __future__ import annotations

import pytest
from keep_kit import THREE_DOORS, ScriptedDice, creature, make_world, merchant, minion, of

from undercroft.core.grid import DoorState, Pos
from undercroft.keep.commands import execute
from undercroft.keep.rules import doors, jobs, locks, movement
from undercroft.keep.state.actors import Job
from undercroft.keep.state.orders import ArmLock, Build, DisarmLock, OrderAttack
from undercroft.keep.state.world import World

ALL_LOCKED = THREE_DOORS.replace("+", "&")
STOCK = "stockpile = { at = [1, 1], metal = 20 }\n"


@pytest.mark.rule("K-LOCK-01", "K-BUILD-01", "R-K-BUILD-01")
def test_building_a_lock_locks_the_door_and_it_starts_armed() -> None:
    world, log = make_world(THREE_DOORS, STOCK)
    minion(world, 2, 2, job=Job.TRAPS)
    world.rng = ScriptedDice(dice=[12])  # craft 4: 12 + 8 = 20, Good
    assert execute(world, Build("lock", Pos(4, 6))).accepted
    world.run(6 * 60)
    built = of(log, "structure.built")
    assert [(e["kind"], e["quality"]) for e in built] == [("lock", "good")]
    armed = of(log, "lock.armed")
    assert [(e["door"], e["rules"]) for e in armed] == [("door:1", ["K-LOCK-01"])]
    assert world.grid.door_at(Pos(4, 6)) is DoorState.LOCKED
    # "Disarm lock" makes it a normal door; "Arm lock" locks it again.
    assert execute(world, DisarmLock("door:1")).accepted
    assert world.grid.door_at(Pos(4, 6)) is DoorState.CLOSED
    again = execute(world, DisarmLock("door:1"))
    assert not again.accepted and "already disarmed" in again.reason
    assert execute(world, ArmLock("lock:1")).accepted  # by the lock's id too
    assert world.grid.door_at(Pos(4, 6)) is DoorState.LOCKED
    no_lock = execute(world, ArmLock("door:2"))
    assert not no_lock.accepted and no_lock.rules == ("K-LOCK-01",)
    assert not execute(world, Build("lock", Pos(4, 6))).accepted  # one lock a door


def reaches(world: World, being_id: str) -> bool:
    being = world.being(being_id)
    return movement.walk_to(world, being, Pos(4, 8))


@pytest.mark.rule("K-LOCK-02", "R-K-OWN-01")
def test_your_side_and_merchants_pass_locked_doors_others_cannot() -> None:
    world, log = make_world(ALL_LOCKED, '[[lair]]\nname = "den"\nat = [1, 8]\n')
    kobold = minion(world, 4, 3, job=Job.NONE)
    passers = [kobold.id, "master", creature(world, "troll", 4, 4, lair="den").id]
    passers.append(merchant(world, 4, 2).id)
    world.being("master").pos = Pos(5, 1)
    for being_id in passers:
        assert reaches(world, being_id), being_id
    world.run(60)
    opened = of(log, "door.opened")
    assert {e["by"] for e in opened} == set(passers)
    assert all("K-LOCK-02" in e["rules"] for e in opened)
    assert all(world.grid.door_at(Pos(x, 6)) is DoorState.LOCKED for x in (4, 6, 8))
    wolf = creature(world, "wolf", 4, 3)
    assert not reaches(world, wolf.id)
    raging = minion(world, 4, 3, job=Job.NONE)
    jobs.set_blind_rage(world, raging, True)
    assert not reaches(world, raging.id) and not locks.may_pass_locks(raging)


@pytest.mark.rule("K-LOCK-02", "K-DOOR-08")
def test_an_armed_lock_stops_a_walker_already_on_its_way() -> None:
    world, log = make_world(THREE_DOORS)
    wolf = creature(world, "wolf", 4, 1)
    assert movement.walk_to(world, wolf, Pos(4, 8))  # through door:1, closed not locked
    world.run(2)
    from undercroft.keep.rules import building

    building.place(world, "lock", Pos(4, 6))
    building.place(world, "lock", Pos(6, 6))
    building.place(world, "lock", Pos(8, 6))
    world.run(60)
    assert wolf.pos.y < 6 and of(log, "door.opened") == []


@pytest.mark.rule("K-LOCK-03")
def test_who_opens_a_door_to_reach_an_enemy() -> None:
    world, _ = make_world(THREE_DOORS, '[[lair]]\nname = "den"\nat = [1, 8]\n')
    enemy = minion(world, 4, 8, job=Job.NONE)
    jobs.set_blind_rage(world, enemy, True)  # an enemy beyond the doors
    kobold = minion(world, 4, 3, job=Job.NONE)
    troll = creature(world, "troll", 5, 3, lair="den")
    master = world.being("master")
    master.pos = Pos(6, 3)
    goal = enemy.pos
    assert movement.path_to_reach(world, kobold, enemy.id, goal) is None
    assert movement.path_to_reach(world, troll, enemy.id, goal) is None  # never
    assert movement.path_to_reach(world, master, enemy.id, goal) is not None  # always
    order = execute(world, OrderAttack(kobold.id, enemy.id))
    assert order.accepted and order.rules == ("K-LOCK-03",)
    assert movement.path_to_reach(world, kobold, enemy.id, goal) is not None
    assert not locks.may_open_to_reach(troll, enemy.id)
    refused = execute(world, OrderAttack(kobold.id, "master"))
    assert not refused.accepted and "not an enemy" in refused.reason
    # An open door is no obstacle to anyone.
    doors.hold_open(world, world.door("door:1"), True, "keeper")
    assert movement.path_to_reach(world, troll, enemy.id, goal) is not None


@pytest.mark.rule("K-FORCE-05", "R-K-DOOR-01")
def test_a_chores_minion_closes_a_breached_door_and_rearms_its_lock() -> None:
    world, log = make_world(ALL_LOCKED)
    goblin = minion(world, 1, 1, job=Job.CHORES, breed="goblin")
    world.run(100)
    doors.breach(world, world.door("door:1"), "adv:1-1")
    door = world.door("door:1")
    lock = world.lock_of(door)
    assert lock is not None
    assert door.open and door.breached and not lock.armed
    assert world.grid.door_at(Pos(4, 6)) is DoorState.OPEN
    world.run(200)
    events = [
        (e["type"], e["by"], e["rules"])
        for e in of(log, "door.opened", "door.closed", "lock.armed", "lock.disarmed")
    ]
    assert events == [
        ("door.opened", "adv:1-1", ["K-FORCE-05"]),
        ("lock.disarmed", "adv:1-1", ["K-FORCE-05"]),
        ("door.closed", goblin.id, ["K-FORCE-05"]),
        ("lock.armed", goblin.id, ["K-FORCE-05"]),
    ]
    assert not door.open and not door.breached and lock.armed
    assert world.grid.door_at(Pos(4, 6)) is DoorState.LOCKED


@pytest.mark.rule("K-FORCE-05")
def test_a_traps_minion_does_not_restore_a_breached_door() -> None:
    world, _ = make_world(ALL_LOCKED)
    minion(world, 1, 1, job=Job.TRAPS)
    doors.breach(world, world.door("door:2"), "adv:1-1")
    world.run(24 * 60)
    assert world.door("door:2").breached and world.door("door:2").open
