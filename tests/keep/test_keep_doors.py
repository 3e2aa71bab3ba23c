"""Door logic: self-closing, held open, trigger-driven, locks flipping (K-DOOR-03..08)."""

from __future__ import annotations

import pytest
from keep_kit import THREE_DOORS, creature, make_world, minion, of, put, wire

from undercroft.core.events import EventLog
from undercroft.core.grid import DoorState, Pos
from undercroft.keep.commands import execute
from undercroft.keep.rules import movement, traps
from undercroft.keep.state.actors import Job
from undercroft.keep.state.orders import HoldDoorOpen, PullLever, Remove
from undercroft.keep.state.structures import Trigger
from undercroft.keep.state.world import World


def door_events(log: EventLog) -> list[tuple[int, str, str, str]]:
    return [
        (e["time"]["minute"], e["type"], e["door"], e["by"])
        for e in of(log, "door.opened", "door.closed", "lock.armed", "lock.disarmed")
    ]


def through_door_1(world: World, breed: str = "wolf") -> str:
    wolf = creature(world, breed, 4, 4)
    assert movement.walk_to(world, wolf, Pos(4, 8))
    world.run(world.now + 10)
    return wolf.id


@pytest.mark.rule("K-DOOR-03", "R-K-DOOR-01")
def test_a_door_closes_by_itself_after_someone_passes() -> None:
    world, log = make_world(THREE_DOORS)
    world.run(5)
    wolf = through_door_1(world)
    assert door_events(log) == [
        (7, "door.opened", "door:1", wolf),
        (7, "door.closed", "door:1", wolf),
    ]
    assert not world.door("door:1").open
    assert world.grid.door_at(Pos(4, 6)) is DoorState.CLOSED
    assert of(log, "door.opened")[0]["rules"] == ["K-DOOR-03"]


@pytest.mark.rule("K-DOOR-03")
def test_hold_door_open_keeps_it_open() -> None:
    world, log = make_world(THREE_DOORS)
    result = execute(world, HoldDoorOpen("door:1"))
    assert result.accepted and result.rules == ("K-DOOR-03",)
    assert door_events(log) == [(0, "door.opened", "door:1", "keeper")]
    through_door_1(world)
    assert len(door_events(log)) == 1  # no closing behind the wolf
    assert world.grid.door_at(Pos(4, 6)) is DoorState.OPEN
    execute(world, HoldDoorOpen("door:1", hold=False))
    assert door_events(log)[-1] == (10, "door.closed", "door:1", "keeper")


def wired(world: World, kind: str = "pressure_plate") -> Trigger:
    trigger = put(world, kind, 4, 2)
    assert wire(world, (4, 2), (4, 6)).accepted  # door:1
    assert wire(world, (4, 4), (6, 4), (6, 6)).accepted  # door:2, joined at (4, 4)
    assert isinstance(trigger, Trigger)
    return trigger


@pytest.mark.rule("K-DOOR-04", "K-DOOR-06", "K-DOOR-05")
def test_a_trigger_opens_a_normal_door_and_closes_a_held_one_until_rearmed() -> None:
    world, log = make_world(THREE_DOORS)
    plate = wired(world)
    execute(world, HoldDoorOpen("door:2"))
    wolf = creature(world, "wolf", 4, 2)
    world.run(10)
    traps.walker_enters(world, plate.id, wolf)
    assert door_events(log)[1:] == [
        (10, "door.opened", "door:1", plate.id),
        (10, "door.closed", "door:2", plate.id),
    ]
    assert world.door("door:1").open and not world.door("door:2").open
    assert of(log, "door.opened")[1]["rules"] == ["K-DOOR-04"]
    world.run(24 * 60)  # K-DOOR-05: the plate stays on until a Traps minion rearms it
    assert plate.on and world.door("door:1").open
    kobold = minion(world, 2, 2, job=Job.TRAPS)
    world.run(26 * 60)
    assert not plate.on
    off = [e for e in door_events(log) if e[0] > 24 * 60]
    assert [(t, d, by) for _, t, d, by in off] == [
        ("door.closed", "door:1", plate.id),
        ("door.opened", "door:2", plate.id),
    ]
    assert of(log, "door.closed")[-1]["rules"] == ["K-DOOR-06"]
    assert kobold.id in {e["minion"] for e in of(log, "part.rearmed")}


@pytest.mark.rule("K-DOOR-05", "K-DOOR-06")
def test_a_lever_stays_on_until_pulled_off() -> None:
    world, log = make_world(THREE_DOORS)
    lever = wired(world, "lever")
    execute(world, PullLever(lever.id))
    world.run(5 * 24 * 60)
    assert lever.on and world.door("door:1").open
    pulled = execute(world, PullLever(lever.id))
    assert pulled.effect == {"on": False}
    assert not world.door("door:1").open and world.door("door:2").open is False
    assert [e[1] for e in door_events(log)] == [
        "door.opened",
        "door.opened",
        "door.closed",
        "door.closed",
    ]


@pytest.mark.rule("K-DOOR-07", "K-LOCK-01")
def test_a_lock_flips_each_time_the_trigger_turns_on() -> None:
    world, log = make_world(THREE_DOORS.replace("####+#", "####&#"))
    lever = wired(world, "lever")
    lock = world.lock_of(world.door("door:1"))
    assert lock is not None and lock.armed
    assert world.grid.door_at(Pos(4, 6)) is DoorState.LOCKED
    execute(world, PullLever(lever.id))  # on: opens, lock flips to disarmed
    assert not lock.armed and world.grid.door_at(Pos(4, 6)) is DoorState.OPEN
    execute(world, PullLever(lever.id))  # off: closes, the lock stays disarmed
    assert not lock.armed and world.grid.door_at(Pos(4, 6)) is DoorState.CLOSED
    execute(world, PullLever(lever.id))  # on again: armed
    assert lock.armed
    execute(world, PullLever(lever.id))
    assert world.grid.door_at(Pos(4, 6)) is DoorState.LOCKED
    flips = [
        (t, e["rules"]) for t, e in ((e["type"], e) for e in of(log, "lock.armed", "lock.disarmed"))
    ]
    assert flips == [("lock.disarmed", ["K-DOOR-07"]), ("lock.armed", ["K-DOOR-07"])]


@pytest.mark.rule("K-DOOR-08", "K-LOCK-02")
def test_a_closed_door_is_not_a_locked_door() -> None:
    world, log = make_world(THREE_DOORS)
    plate = wired(world)
    execute(world, HoldDoorOpen("door:1"))
    traps.walker_enters(world, plate.id, creature(world, "wolf", 4, 2))
    assert not world.door("door:1").open  # closed by its trigger
    wolf = through_door_1(world, "boar")
    passing = of(log, "door.opened")[-1]
    assert passing["by"] == wolf and passing["rules"] == ["K-DOOR-03", "K-DOOR-08"]
    assert of(log, "door.closed")[-1]["by"] == wolf and not world.door("door:1").open
    # Only an armed lock stops a wild creature: lock all three doors. door:2 stands open
    # (its trigger is on), so that is the way through now; the closed door:1 is not.
    for x in (4, 6, 8):
        put(world, "lock", x, 6)
    boar = creature(world, "boar", 4, 4)
    way = movement.path_for(world, boar, Pos(4, 8))
    assert way is not None and Pos(6, 6) in way and Pos(4, 6) not in way


@pytest.mark.rule("K-DOOR-06")
def test_unwiring_a_trigger_that_is_on_lets_its_doors_go_back() -> None:
    world, log = make_world(THREE_DOORS)
    lever = wired(world, "lever")
    execute(world, PullLever(lever.id))
    assert world.door("door:1").open and world.door("door:2").open
    assert execute(world, Remove("wire:2")).accepted  # door:2's branch
    assert not world.door("door:2").open and world.door("door:1").open
    assert execute(world, Remove(lever.id)).accepted
    assert not world.door("door:1").open
    closed = [(e["door"], e["by"], e["rules"]) for e in of(log, "door.closed")]
    assert closed == [("door:2", "wire:2", ["K-DOOR-06"]), ("door:1", lever.id, ["K-DOOR-06"])]
