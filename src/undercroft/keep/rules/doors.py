"""Doors: closing by themselves, held open, driven by triggers, breached (K-DOOR-03..08).

A door has a resting position it returns to once nobody is passing: closed, unless it is
held open or its trigger is on, but not both (K-DOOR-04: a trigger opens a normal door and
closes a held-open one; K-DOOR-06: turning it off undoes that); a breached door rests open
until a Chores-job minion restores it (K-FORCE-05). Someone passing a closed door opens it
and it closes again behind them (K-DOOR-03, K-DOOR-08) unless an armed lock stops them
(K-LOCK-02). The grid's door state follows: open, closed, or locked (closed with an armed
lock), which is what sight and paths read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event
from undercroft.core.grid import DoorState
from undercroft.keep.rules import locks
from undercroft.keep.rules.work import add_task
from undercroft.keep.state.actors import Being
from undercroft.keep.state.structures import Door, Trigger
from undercroft.keep.state.tasks import TaskKind

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def rests_open(door: Door) -> bool:
    """Where the door settles when nobody is passing (K-DOOR-03/04/06, K-FORCE-05)."""
    return door.breached or (door.held_open != door.trigger_on)


def grid_state(world: World, door: Door) -> DoorState:
    if door.open:
        return DoorState.OPEN
    lock = world.lock_of(door)
    return DoorState.LOCKED if lock is not None and lock.armed else DoorState.CLOSED


def sync(world: World, door: Door) -> None:
    """Make the grid show the door as it is (sight and paths read the grid)."""
    state = grid_state(world, door)
    if world.grid.door_at(door.pos) is not state:
        world.grid.set_door(door.pos, state)


def settle(world: World, door: Door, by: str, rules: tuple[str, ...]) -> None:
    """Move the door to its resting position, logging the change if there is one. A door
    cannot close on someone standing in the doorway (ruling R-K-DOOR-01)."""
    target = rests_open(door) or door.pos in world.bodies
    if door.open != target:
        door.open = target
        if target:
            world.emit(Event("door.opened", rules, {"door": door.id, "by": by}))
        else:
            world.emit(Event("door.closed", rules, {"door": door.id, "by": by}))
    sync(world, door)


def trigger_turned(world: World, door: Door, on: bool, trigger_id: str) -> None:
    """A trigger wired to this door turned on or off (K-DOOR-04, K-DOOR-06, K-DOOR-07)."""
    if door.trigger_on == on:
        return
    door.trigger_on = on
    # K-DOOR-04 (on) / K-DOOR-06 (off): normal doors open and close, held-open ones the reverse.
    settle(world, door, trigger_id, ("K-DOOR-04",) if on else ("K-DOOR-06",))
    lock = world.lock_of(door)
    if on and lock is not None:
        # K-DOOR-07: the lock flips each time the trigger turns on; turning off leaves it.
        locks.set_armed(world, lock, not lock.armed, trigger_id, ("K-DOOR-07",))
        sync(world, door)


def release_disconnected(world: World, by: str) -> None:
    """A door whose trigger was unwired or removed while on turns as if it went off.

    (K-DOOR-06: with no trigger on any more, a normal door closes and a held one opens.)
    """
    for door in world.of_type(Door):
        if not door.trigger_on:
            continue
        circuit = world.circuit_of(door.id)
        still_on = False
        for trigger_id in circuit.triggers:
            trigger = world.structures[trigger_id]
            still_on = still_on or (isinstance(trigger, Trigger) and trigger.on)
        if not still_on:
            trigger_turned(world, door, False, by)


def hold_open(world: World, door: Door, hold: bool, by: str) -> None:
    """K-DOOR-03: "Hold door open" keeps the door open (and K-DOOR-04 reverses its trigger)."""
    door.held_open = hold
    settle(world, door, by, ("K-DOOR-03",))


def _opening(world: World, door: Door, being: Being) -> tuple[str, ...] | None:
    """The rules by which ``being`` opens the closed ``door``, or None if an armed lock
    stops it (K-LOCK-02). K-DOOR-08: anyone may open a closed (unlocked) door, even one a
    trigger closed; those who may pass a lock open it too (K-LOCK-02)."""
    lock = world.lock_of(door)
    if lock is not None and lock.armed and not locks.may_pass_locks(being):
        return None
    closed_by_trigger = door.trigger_on and door.held_open
    rules = ("K-DOOR-03", "K-DOOR-08") if closed_by_trigger else ("K-DOOR-03",)
    if lock is not None and lock.armed:
        rules = (*rules, "K-LOCK-02")
    return rules


def pass_through(world: World, door: Door, being: Being) -> bool:
    """Someone walks through; False if an armed lock stops them (K-LOCK-02)."""
    if door.open:
        return True
    rules = _opening(world, door, being)
    if rules is None:
        return False
    # K-DOOR-03: it closes behind them.
    world.emit(Event("door.opened", rules, {"door": door.id, "by": being.id}))
    world.emit(Event("door.closed", ("K-DOOR-03",), {"door": door.id, "by": being.id}))
    return True


def step_in(world: World, door: Door, being: Being) -> bool:
    """A tile stepper (an adventurer, a being in a fight) steps into the doorway: it opens
    the door if it may (K-DOOR-08; an armed lock stops those K-LOCK-02 stops), and the door
    stays open while it stands there (ruling R-K-DOOR-01); False if a lock stopped it."""
    if door.open:
        return True
    rules = _opening(world, door, being)
    if rules is None:
        return False
    door.open = True
    world.emit(Event("door.opened", rules, {"door": door.id, "by": being.id}))
    sync(world, door)
    return True


def step_out(world: World, door: Door, by: str) -> None:
    """Nobody stands in the doorway any more: it closes behind them if it rests closed
    (K-DOOR-03)."""
    if door.open and not rests_open(door) and door.pos not in world.bodies:
        settle(world, door, by, ("K-DOOR-03",))


def breach(world: World, door: Door, by: str) -> None:
    """K-FORCE-05: a breach leaves the door open and its lock disarmed; Chores restores it."""
    door.breached = True
    settle(world, door, by, ("K-FORCE-05",))
    lock = world.lock_of(door)
    if lock is not None and lock.armed:
        locks.set_armed(world, lock, False, by, ("K-FORCE-05",))
    sync(world, door)
    add_task(world, TaskKind.RESTORE_DOOR, door.id)


def restore(world: World, door: Door, minion_id: str) -> None:
    """K-FORCE-05: a Chores-job minion closes the breached door and re-arms its lock."""
    door.breached = False
    settle(world, door, minion_id, ("K-FORCE-05",))
    lock = world.lock_of(door)
    if lock is not None and not lock.armed:
        locks.set_armed(world, lock, True, minion_id, ("K-FORCE-05",))
    sync(world, door)
