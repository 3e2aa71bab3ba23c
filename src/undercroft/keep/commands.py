"""Keeper commands: a typed API for scripts, tests and (later) the web viewer.

Each command is a frozen dataclass (:mod:`undercroft.keep.state.orders`). :func:`execute`
carries it out at once and logs a ``command`` event (its name, its arguments,
``accepted``; when refused the ``reason`` and the rule IDs that refuse it in ``rules``),
followed by the events of its effects. A refused command changes nothing.

Commands are rules over the world: this module imports the rule modules it orders about
and the world, and nothing the world or those rules import brings it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from undercroft.core.grid import Pos
from undercroft.keep.rules import building, doors, fighters, invasions, jobs, locks, traps
from undercroft.keep.rules.building import PlacementError
from undercroft.keep.state.actors import Side
from undercroft.keep.state.orders import (
    AnswerFugitive,
    ArmLock,
    Build,
    Command,
    CommandError,
    CommandResult,
    Connect,
    DisarmLock,
    Divine,
    HoldDoorOpen,
    Move,
    OrderAttack,
    PullLever,
    Remove,
    RiteOfStorms,
    SetJob,
    SetStance,
    SetTimer,
    WatchfulEye,
)
from undercroft.keep.state.structures import Lock, Site, Timer, Trigger
from undercroft.keep.state.wiring import WiringError
from undercroft.keep.state.world import World, WorldError, provides_commands


def _xy(pos: Pos) -> list[int]:
    return [pos.x, pos.y]


# -- carrying them out ---------------------------------------------------------------------


@provides_commands
def execute(world: World, cmd: Command) -> CommandResult:
    """Carry out a keeper command now; the log gets the command, then its effects."""
    with world.held_events() as effects:
        result = _carry_out(world, cmd)
    world.emit(result.event(cmd))
    for event in effects:
        world.emit(event)
    world.request_dispatch()
    world.dispatch()
    return result


def _carry_out(world: World, cmd: Command) -> CommandResult:
    """Carry out a command, or refuse it (changing nothing) with the reason and rules."""
    handler = _HANDLERS[type(cmd)]
    try:
        return handler(world, cmd)
    except CommandError as exc:
        return CommandResult(False, exc.reason, exc.rules)
    except PlacementError as exc:
        return CommandResult(False, exc.reason, exc.rules)
    except WiringError as exc:
        return CommandResult(False, exc.reason, exc.rules)
    except WorldError as exc:
        return CommandResult(False, str(exc))


def _build(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, Build)
    delay = cmd.delay if cmd.delay is not None else world.ruleset.structures["timer"].delay
    if delay < 0:
        raise CommandError("a timer's delay is 0 minutes or more")
    site = building.order(world, cmd.kind, cmd.at, name=cmd.name, delay=delay)
    return CommandResult(True, rules=("K-BUILD-01",), effect={"site": site.id})


def _move(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, Move)
    structure = world.structure(cmd.structure)
    old = building.move(world, structure, cmd.to)
    return CommandResult(True, rules=("K-REARM-07",), effect={"from": _xy(old)})


def _remove(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, Remove)
    if cmd.target in world.wiring.wires:
        world.wiring.remove(cmd.target)
        world.wiring_changed()
        doors.release_disconnected(world, cmd.target)
        return CommandResult(True, effect={"wires_removed": [cmd.target]})
    wires = building.remove(world, world.structure(cmd.target))
    return CommandResult(True, effect={"wires_removed": wires})


def _connect(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, Connect)
    plan = world.draw_wire(list(cmd.path))
    wire_id = plan.wire.id
    circuit = plan.circuit
    rules = ["K-WIRE-01"]
    if plan.joined:
        rules.append("K-WIRE-05")
    if plan.hops:
        rules.append("K-WIRE-04")
    if circuit.timers:
        rules.append("K-WIRE-03")
    if circuit.doors:
        rules.append("K-WIRE-07")
    effect = {
        "wire": wire_id,
        "joined": list(plan.joined),
        "hops": [{"at": _xy(m.at), "wire": m.wire} for m in plan.hops],
        "circuit": {
            "trigger": circuit.trigger,
            "mechanism": circuit.mechanism,
            "timers": list(circuit.timers),
            "doors": list(circuit.doors),
            "wires": list(circuit.wires),
        },
    }
    return CommandResult(True, rules=tuple(rules), effect=effect)


def _set_timer(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, SetTimer)
    timer = world.structure(cmd.timer)
    if cmd.minutes < 0:
        raise CommandError("a timer's delay is 0 minutes or more")
    if isinstance(timer, Timer) or (isinstance(timer, Site) and timer.kind == "timer"):
        timer.delay = cmd.minutes
        return CommandResult(True, rules=("K-WIRE-03",))
    raise CommandError(f"{cmd.timer} is not a timer")


def _lock(world: World, door_id: str) -> tuple[Any, Any]:
    door = world.door(door_id) if door_id.startswith("door:") else None
    if door is None:
        named = world.structure(door_id)
        if not isinstance(named, Lock):
            raise CommandError(f"{door_id} is neither a door nor a lock")
        door = world.door(named.door)
    lock = world.lock_of(door)
    if lock is None:
        raise CommandError(f"{door.id} has no lock; build one first (K-LOCK-01)", ("K-LOCK-01",))
    return door, lock


def _arm_lock(world: World, cmd: Any) -> CommandResult:
    door, lock = _lock(world, cmd.door)
    if lock.armed == isinstance(cmd, ArmLock):
        state = "armed" if lock.armed else "disarmed"
        raise CommandError(f"the lock on {door.id} is already {state}", ("K-LOCK-01",))
    locks.set_armed(world, lock, isinstance(cmd, ArmLock), "keeper", ("K-LOCK-01",))
    doors.sync(world, door)
    return CommandResult(True, rules=("K-LOCK-01",))


def _hold(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, HoldDoorOpen)
    door = world.door(cmd.door)
    if door.held_open == cmd.hold:
        state = "held open" if cmd.hold else "not held open"
        raise CommandError(f"{door.id} is already {state}")
    doors.hold_open(world, door, cmd.hold, "keeper")
    return CommandResult(True, rules=("K-DOOR-03",))


def _pull(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, PullLever)
    lever = world.structure(cmd.lever)
    if not (isinstance(lever, Trigger) and lever.lever):
        raise CommandError(f"{cmd.lever} is not a lever")
    # Log the command before its effects: decide the new state, then act (buffered).
    on = traps.pull_lever(world, lever, "keeper")
    return CommandResult(True, rules=("K-DOOR-05",), effect={"on": on})


def _set_job(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, SetJob)
    minion = world.minion(cmd.minion)
    jobs.set_job(world, minion, cmd.job)
    return CommandResult(True)


def _set_stance(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, SetStance)
    world.minion(cmd.minion).stance = cmd.stance
    return CommandResult(True, rules=("R-K-STANCE-01",))


def _order_attack(world: World, cmd: Any) -> CommandResult:
    """K-LOCK-03: the keeper points the minion at an enemy: it knows where it is, goes for
    it whatever its stance, and may open doors to reach it (``fighters``)."""
    assert isinstance(cmd, OrderAttack)
    minion = world.minion(cmd.minion)
    target = world.being(cmd.target)
    if target is minion or target.side() not in (Side.ENEMY, Side.WILD):
        raise CommandError(f"{cmd.target} is not an enemy of {cmd.minion}")
    if not target.present or not target.up:
        raise CommandError(f"{cmd.target} is not up and about to be attacked")
    if target.id not in minion.attack_orders:
        minion.attack_orders.append(target.id)
    at = target.pos_at(world.now)
    minion.foes[target.id] = [at.x, at.y]
    fighters.consider(world, minion)
    return CommandResult(True, rules=("K-LOCK-03",))


def _rite(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, RiteOfStorms)
    hours = cmd.hours if cmd.hours is not None else world.options.rite_of_storms_hours
    if hours < 1:
        raise CommandError("a Rite of Storms lasts an hour or more")
    if world.invasion.director.rite_until > world.now:
        raise CommandError("a Rite of Storms is already under way", ("K-TIME-05",))
    until = invasions.rite_of_storms(world, hours)
    return CommandResult(True, rules=("K-TIME-05", "R-K-TIME-05"), effect={"until": until})


def _answer(world: World, cmd: Any) -> CommandResult:
    assert isinstance(cmd, AnswerFugitive)
    asked = world.invasion.fugitives.get(cmd.fugitive)
    if asked is None:
        raise CommandError(f"no fugitive {cmd.fugitive!r} has asked to hide here", ("K-SIZE-02",))
    if asked.get("answer") is not None:
        raise CommandError(f"{cmd.fugitive} has had its answer", ("K-SIZE-02",))
    pursuers = invasions.answer_fugitive(world, cmd.fugitive, cmd.accept)
    return CommandResult(True, rules=("K-SIZE-02", "R-K-SIZE-02"), effect={"pursuers": pursuers})


def _divine(world: World, cmd: Any) -> CommandResult:
    if not world.options.invasions:
        raise CommandError("invasions are off: no group is on its way", ("K-ARR-01",))
    if world.invasion.charges.get("divination", 0) < 1:
        raise CommandError("no divination charge left (the scrying pool earns them)", ("K-ARR-01",))
    world.invasion.charges["divination"] -= 1
    card = invasions.divine(world)
    return CommandResult(True, rules=("K-ARR-01", "R-K-ARR-02"), effect={"card": card})


def _eye(world: World, cmd: Any) -> CommandResult:
    if world.invasion.charges.get("watchful_eye", 0) < 1:
        raise CommandError("no Watchful Eye blessing to call on (the Mindflayer's)", ("K-ARR-06",))
    if not any(f.kind == "post" for f in world.invasion.features.values()):
        raise CommandError("the ghost eye patrols guard posts, and there are none", ("K-ARR-06",))
    world.invasion.charges["watchful_eye"] -= 1
    until = invasions.watchful_eye(world)
    return CommandResult(True, rules=("K-ARR-06", "R-K-ARR-01"), effect={"until": until})


_HANDLERS: dict[type[Any], Callable[[World, Any], CommandResult]] = {
    Build: _build,
    Move: _move,
    Remove: _remove,
    Connect: _connect,
    SetTimer: _set_timer,
    ArmLock: _arm_lock,
    DisarmLock: _arm_lock,
    HoldDoorOpen: _hold,
    PullLever: _pull,
    SetJob: _set_job,
    SetStance: _set_stance,
    OrderAttack: _order_attack,
    RiteOfStorms: _rite,
    AnswerFugitive: _answer,
    Divine: _divine,
    WatchfulEye: _eye,
}
