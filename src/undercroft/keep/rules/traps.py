"""Traps: who sets them off, firing, levers, the 2-day decay and the rearm roll.

A trap is a trigger and a mechanism joined by wiring (K-TRAP-01, K-WIRE-01). A walker
entering a trigger's area sets it off if the trigger works, is wired to something
(K-TRAP-05), and reacts to that walker (K-OWN-01..04, K-REARM-04). The trigger turns on
and needs a rearm (K-DOOR-05, K-REARM-01); its doors react (K-DOOR-04); its mechanism
fires, after the circuit's timers if any (K-WIRE-03), and needs a rearm too. Each part
also runs out 2 days after its last rearm (K-DECAY-01/02), except levers (K-DECAY-03).
Rearming is a Traps-job minion's work with its own roll (K-REARM-02); a fumble fires the
trap or tampers its trigger (K-REARM-03..06, ruling R-K-REARM-01), and a part wired to
nothing does nothing even then (K-TRAP-05). What a firing does to those it catches is
:mod:`undercroft.keep.rules.trap_effects`.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event, chance_event
from undercroft.keep.rules import doors, learning, stepping, trap_effects, work
from undercroft.keep.state import tasks
from undercroft.keep.state.actors import Being, Minion, Side
from undercroft.keep.state.clock import Priority, handles
from undercroft.keep.state.structures import Mechanism, PartState, TrapPart, Trigger
from undercroft.keep.state.wiring import Circuit

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


class RearmOutcome(enum.Enum):
    """What became of one rearm attempt."""

    REARMED = "rearmed"
    """The part works again (K-REARM-02)."""
    TAMPERED = "tampered"
    """A fumble; the part works again but the trap's trigger is tampered (K-REARM-03b)."""
    FIRES = "fires"
    """A fumble; the trap went off and the part still needs its rearm (K-REARM-03a)."""
    FAILED = "failed"
    """Below ``keep.options.rearm_target`` without a fumble: try again (R-K-REARM-01)."""


# -- who sets a trigger off ----------------------------------------------------------------


def reacts_to(world: World, trigger: Trigger, being: Being, circuit: Circuit) -> bool:
    """Whether this trigger reacts to this walker (K-OWN-01..04, K-REARM-04)."""
    if trigger.tampered_by is not None:
        # K-REARM-04: a tampered trigger reacts to anyone except the minion who fumbled.
        return being.id != trigger.tampered_by
    side = being.side()
    if side is Side.ENEMY:
        # Adventurers, and K-OWN-02: a minion in Blind Rage sets traps off like any enemy.
        return True
    if side is Side.WILD:
        # K-OWN-03: wild creatures set traps off, but a trigger wired to an alarm ignores them.
        mech = circuit.mechanism
        return not (mech is not None and world.ruleset.mechanisms[_kind(world, mech)].alarm)
    # K-OWN-01: your minions (and Master); K-OWN-04: lair creatures; R-K-OWN-01: merchants.
    return False


@stepping.treads
def walker_enters(world: World, trigger_id: str, being: Being) -> None:
    """A walker steps into a trigger's area (R-K-TRAP-01)."""
    trigger = world.structures.get(trigger_id)
    if not isinstance(trigger, Trigger) or trigger.lever or not trigger.working:
        return
    circuit = world.circuit_of(trigger.id)
    if not circuit.does_something():
        return  # K-TRAP-05: a trigger with nothing connected does nothing
    if not reacts_to(world, trigger, being, circuit):
        return
    rules = ("K-REARM-04",) if trigger.tampered_by is not None else _own_rule(being)
    set_off(world, trigger, circuit, being.id, rules)


def _own_rule(being: Being) -> tuple[str, ...]:
    if isinstance(being, Minion):
        return ("K-OWN-02",)
    if being.side() is Side.WILD:
        return ("K-OWN-03",)
    return ()


def set_off(
    world: World, trigger: Trigger, circuit: Circuit, by: str, rules: tuple[str, ...]
) -> None:
    """The trigger turns on: its doors react, its mechanism fires (after any timers)."""
    tampered = trigger.tampered_by is not None
    trigger.on = True
    if circuit.mechanism is not None:
        fire_after_delay(world, circuit, trigger.id, by, "set_off", rules)
    use(world, trigger, PartState.USED, ("K-REARM-01", "K-DOOR-05"))
    for door_id in circuit.doors:
        doors.trigger_turned(world, world.door(door_id), True, trigger.id)
    if tampered:
        trigger.tampered_by = None  # K-REARM-05: normal again once it has fired the trap


def fire_after_delay(
    world: World, circuit: Circuit, trigger_id: str, by: str, cause: str, rules: tuple[str, ...]
) -> None:
    """K-WIRE-03: the mechanism fires after the circuit's timers (at once without one)."""
    mech = circuit.mechanism
    assert mech is not None
    delay = world.circuit_delay(circuit)
    if delay == 0:
        fire(world, mech, trigger_id, by, cause, ("K-WIRE-01", *rules))
    else:
        world.schedule(
            world.now + delay, Priority.SIGNAL, "signal", mech, trigger_id, by, cause, list(rules)
        )


@handles("signal")
def on_signal(world: World, args: tuple[Any, ...]) -> None:
    """A timer's delay is over: the mechanism fires now (K-WIRE-03)."""
    mech, trigger_id, by, cause, rules = args
    if mech in world.structures:
        fire(world, str(mech), str(trigger_id), str(by), str(cause), ("K-WIRE-03", *rules))


def fire(
    world: World,
    mech_id: str,
    trigger_id: str | None,
    by: str,
    cause: str,
    rules: tuple[str, ...],
    *,
    force: bool = False,
) -> bool:
    """The mechanism fires if it works (or ``force``: a fumbled rearm, K-REARM-03)."""
    mech = world.structures[mech_id]
    assert isinstance(mech, Mechanism)
    if not (mech.working or force):
        return False
    kind = world.ruleset.mechanisms[mech.kind]
    fumbler = by if cause == "fumble" else None
    victims = trap_effects.caught(world, mech, kind, fumbler)  # R-K-TRAP-02: not through walls
    caught = [b.id for b in victims]
    world.emit(
        Event(
            "trap.fired",
            rules,
            {
                "trap": mech.id,
                "trigger": trigger_id,
                "mechanism": mech.kind,
                "by": by,
                "cause": cause,
                "at": [mech.pos.x, mech.pos.y],
                "effect": kind.effect.value,
                "wound": kind.wound,
                "area": kind.area,
                "duration": kind.duration,
                "caught": caught,
            },
        )
    )
    mech.fired += 1
    if mech.working:
        use(world, mech, PartState.USED, ("K-REARM-01",))
    trap_effects.act(world, mech, kind, victims, by)  # K-TRAP-03
    learning.trap_went_off(world, mech, trigger_id, by, caught)  # K-KNOW-02, K-LEARN-01
    return True


def pull_lever(world: World, lever: Trigger, by: str) -> bool:
    """K-DOOR-05: a lever turns on when pulled and stays on until pulled off. Returns on."""
    lever.on = not lever.on
    circuit = world.circuit_of(lever.id)
    for door_id in circuit.doors:
        doors.trigger_turned(world, world.door(door_id), lever.on, lever.id)
    if lever.on and circuit.mechanism is not None:
        fire_after_delay(world, circuit, lever.id, by, "lever", ("K-DOOR-05",))
    return lever.on


# -- parts going out of action, decay ------------------------------------------------------


def use(world: World, part: TrapPart, state: PartState, rules: tuple[str, ...]) -> None:
    """A part stops working: it went off (used) or its 2 days ran out (expired)."""
    if isinstance(part, Trigger) and part.lever:
        return  # K-REARM-01, K-DECAY-03: levers never need a rearm
    if not part.working:
        return
    part.state = state
    part.down_since = world.now
    world.emit(
        Event(
            "part.expired",
            rules,
            {
                "trap": world.trap_of(part),
                "part": part.part.value,
                "structure": part.id,
                "reason": "used" if state is PartState.USED else "decay",
            },
        )
    )
    work.add_task(world, tasks.TaskKind.REARM, part.id)


def start_clock(world: World, part: TrapPart) -> None:
    """K-DECAY-01/02: the part needs a rearm 2 days after this one (levers never)."""
    part.decay_token += 1
    if isinstance(part, Trigger) and part.lever:
        return  # K-DECAY-03
    due = part.armed_at + world.options.decay_minutes
    world.schedule(due, Priority.DECAY, "decay", part.id, part.decay_token)


@handles("decay")
def on_decay(world: World, args: tuple[Any, ...]) -> None:
    """K-DECAY-02: the part's 2 days are up; it stops working until rearmed."""
    part = world.structures.get(str(args[0]))
    if not isinstance(part, TrapPart) or part.decay_token != int(args[1]):
        return
    use(world, part, PartState.EXPIRED, ("K-DECAY-01", "K-DECAY-02", "R-K-CLOCK-01"))


# -- rearming ------------------------------------------------------------------------------


def rearm(world: World, minion: Minion, part: TrapPart) -> RearmOutcome:
    """One rearm attempt with its own roll (K-REARM-02), and a fumble's outcome."""
    model = world.options.dice_model
    roll = model.roll(world.rng, "craft", minion.attributes.craft)
    target = world.options.rearm_target
    trap = world.trap_of(part)
    word = "rearmed" if model.succeeds(roll, target) else "failed"
    if roll.fumble:
        word = "fumble"
    world.emit(
        model.roll_event(
            ("K-REARM-02", "R-K-DICE-01", "R-K-REARM-01"),
            minion.id,
            roll,
            word,
            trap=trap,
            part=part.part.value,
            structure=part.id,
            target=target,
        )
    )
    if word == "failed":
        return RearmOutcome.FAILED
    if word == "rearmed":
        complete(world, part, minion, fumble=False)
        return RearmOutcome.REARMED
    return _fumble(world, minion, part, trap)


def _fumble(world: World, minion: Minion, part: TrapPart, trap: str | None) -> RearmOutcome:
    circuit = world.circuit_of(part.id)
    trigger = _trigger(world, circuit)
    if trigger is None or not circuit.does_something():
        # K-TRAP-05: a part wired to nothing (a mechanism with no trigger, a trigger with
        # no mechanism and no door) does nothing, not even on a fumble: no draw, no firing;
        # the rearm is spoilt and started again (R-K-REARM-01).
        world.emit(
            Event(
                "part.fumbled",
                ("K-TRAP-05", "K-REARM-03", "R-K-REARM-01"),
                {"trap": trap, "part": part.part.value, "structure": part.id, "minion": minion.id},
            )
        )
        return RearmOutcome.FAILED
    if trigger.lever:
        # K-REARM-06: a lever cannot be tampered, so the fumble fires the trap.
        fires = True
        rules: tuple[str, ...] = ("K-REARM-03", "K-REARM-06")
    else:
        fires = world.rng.chance(0.5)
        rules = ("K-REARM-03",)
        outcome = "fires" if fires else "tampered"
        world.emit(
            _chance(minion.id, fires, outcome, trap=trap, part=part.part.value, structure=part.id)
        )
    if fires:
        fumble_fire(world, circuit, part, minion, rules)
        return RearmOutcome.FIRES
    complete(world, part, minion, fumble=True)
    trigger.tampered_by = minion.id  # K-REARM-03 (b), K-REARM-04
    return RearmOutcome.TAMPERED


def _chance(actor: str, hit: bool, outcome: str, **inputs: Any) -> Event:
    return chance_event(("K-REARM-03",), actor, 0.5, hit, outcome, **inputs)


def _trigger(world: World, circuit: Circuit) -> Trigger | None:
    if circuit.trigger is None:
        return None
    found = world.structures[circuit.trigger]
    assert isinstance(found, Trigger)
    return found


def fumble_fire(
    world: World, circuit: Circuit, part: TrapPart, minion: Minion, rules: tuple[str, ...]
) -> None:
    """K-REARM-03 (a): the trap goes off at once (no timer), the fumbled part unrearmed.

    Ruling R-K-REARM-01: the mechanism fires whatever the state of the parts (a working
    one then needs its rearm too) and may hurt the minion (it is caught if it stands in
    the mechanism's area, K-TRAP-03); a working trigger turns on and is used, and its
    doors react, as if the fumbling minion had set it off. The timer is skipped.
    """
    trigger = _trigger(world, circuit)
    mech = circuit.mechanism
    if mech is not None:
        trigger_id = trigger.id if trigger is not None else None
        fire(world, mech, trigger_id, minion.id, "fumble", rules, force=True)
    if trigger is not None and not trigger.lever and trigger.working:
        trigger.on = True
        use(world, trigger, PartState.USED, rules)
        for door_id in circuit.doors:
            doors.trigger_turned(world, world.door(door_id), True, trigger.id)


def complete(world: World, part: TrapPart, minion: Minion, *, fumble: bool) -> None:
    """The part works again; its 2 days start from zero (K-DECAY-02)."""
    reason = "used" if part.state is PartState.USED else "decay"
    waited = world.now - part.down_since if part.down_since is not None else 0
    gap = world.now - part.armed_at
    part.max_gap = max(part.max_gap, gap)
    part.state = PartState.ARMED
    part.armed_at = world.now
    part.down_since = None
    part.rearms += 1
    start_clock(world, part)
    rules: tuple[str, ...] = ("K-REARM-02", "K-DECAY-02")
    was_on = False
    if isinstance(part, Trigger):
        if part.tampered_by is not None and not fumble:
            part.tampered_by = None  # K-REARM-05: a minion's rearm makes it normal again
            rules = (*rules, "K-REARM-05")
        was_on, part.on = part.on, False  # K-DOOR-05: on until a Traps-job minion rearms it
    world.emit(
        Event(
            "part.rearmed",
            rules,
            {
                "trap": world.trap_of(part),
                "part": part.part.value,
                "structure": part.id,
                "minion": minion.id,
                "reason": reason,
                "fumble": fumble,
                "waited": waited,
            },
        )
    )
    if was_on:
        for door_id in world.circuit_of(part.id).doors:
            doors.trigger_turned(world, world.door(door_id), False, part.id)


def _kind(world: World, structure_id: str) -> str:
    return world.structures[structure_id].kind
