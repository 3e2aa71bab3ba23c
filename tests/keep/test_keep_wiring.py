"""Wiring on small drawn maps: hops, joins, circuits, timers, doors (K-WIRE-01..07)."""

from __future__ import annotations

import pytest
from keep_kit import HALL, THREE_DOORS, creature, fired, make_world, of, put, wire

from undercroft.core.grid import Pos
from undercroft.keep.rules import traps
from undercroft.keep.state.structures import PartState, Trigger
from undercroft.keep.state.wiring import (
    Shape,
    Wire,
    Wiring,
    WiringError,
    expand,
    hops_over,
    shape_at,
)
from undercroft.keep.state.world import World


def step_on(world: World, trigger_id: str, breed: str = "wolf") -> None:
    """A wild creature walks onto the trigger's tile."""
    trigger = world.structures[trigger_id]
    wolf = creature(world, breed, trigger.pos.x, trigger.pos.y)
    traps.walker_enters(world, trigger_id, wolf)


@pytest.mark.rule("K-WIRE-01", "K-TRAP-01")
def test_a_drag_from_trigger_to_mechanism_makes_a_trap() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 3)
    blades = put(world, "spinning_blades", 5, 3)
    result = wire(world, (1, 3), (5, 3))
    assert result.accepted
    circuit = world.circuit_of(plate.id)
    assert (circuit.trigger, circuit.mechanism) == (plate.id, blades.id)
    step_on(world, plate.id)
    assert fired(log) == [blades.id]
    shot = of(log, "trap.fired")[0]
    assert shot["trigger"] == plate.id and shot["mechanism"] == "spinning_blades"
    assert shot["by"] == "creature:1" and "K-WIRE-01" in shot["rules"]


@pytest.mark.rule("K-WIRE-04")
def test_a_straight_crossing_stays_separate() -> None:
    world, log = make_world(HALL)
    t1 = put(world, "pressure_plate", 1, 3)
    m1 = put(world, "flamethrower", 8, 3)
    t2 = put(world, "tripwire", 5, 1)
    m2 = put(world, "dart_launcher", 5, 6)
    assert wire(world, (1, 3), (8, 3)).accepted
    crossing = wire(world, (5, 1), (5, 6))
    assert crossing.accepted
    assert crossing.effect["hops"] == [{"at": [5, 3], "wire": "wire:1"}]
    assert crossing.effect["joined"] == []
    assert "K-WIRE-04" in crossing.rules
    assert world.circuit_of(t1.id).mechanisms == (m1.id,)
    assert world.circuit_of(t2.id).mechanisms == (m2.id,)
    step_on(world, t1.id)
    assert fired(log) == [m1.id]  # the crossing wire's trap stays quiet
    assert isinstance(t2, Trigger) and t2.state is PartState.ARMED


@pytest.mark.rule("K-WIRE-05", "K-WIRE-06")
def test_a_crossing_where_the_other_wire_ends_joins() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 3)
    blades = put(world, "spinning_blades", 5, 1)
    assert wire(world, (1, 3), (5, 3)).accepted  # ends loose at (5, 3)
    joined = wire(world, (5, 1), (5, 6))  # straight down over that end
    assert joined.accepted and joined.effect["joined"] == ["wire:1"]
    assert joined.effect["hops"] == []
    assert world.circuit_of(plate.id).mechanism == blades.id
    step_on(world, plate.id)
    assert fired(log) == [blades.id]


@pytest.mark.rule("K-WIRE-05", "K-WIRE-04", "R-K-WIRE-01")
def test_a_crossing_where_the_other_wire_turns_joins_but_a_straight_one_hops() -> None:
    wiring = Wiring()
    turning = Wire("wire:1", expand([Pos(1, 3), Pos(5, 3), Pos(5, 7)]))
    wiring.wires[turning.id] = turning
    wiring.joins[turning.id] = set()
    wiring.__post_init__()

    def plan(points: list[Pos]) -> list[tuple[Pos, bool]]:
        drag = wiring.plan(
            "wire:2",
            points,
            structure_at=lambda p: None,
            role_of=lambda s: pytest.fail("no structures here"),
            can_carry=lambda p: True,
        )
        return [(m.at, m.joins) for m in drag.meetings]

    # Across the straight vertical arm at (5, 5): a hop.
    assert plan([Pos(8, 5), Pos(2, 5)]) == [(Pos(5, 5), False)]
    # Across the turn at (5, 3), running on along the arm it meets: joins at the turn.
    assert (Pos(5, 3), True) in plan([Pos(9, 3), Pos(4, 3)])
    assert shape_at(turning.tiles, 4) is Shape.TURN
    assert hops_over(Shape.ACROSS, Shape.DOWN) and hops_over(Shape.DOWN, Shape.ACROSS)
    for other in (Shape.TURN, Shape.END):
        assert not hops_over(Shape.ACROSS, other) and not hops_over(Shape.DOWN, other)
    assert not hops_over(Shape.TURN, Shape.DOWN) and not hops_over(Shape.END, Shape.ACROSS)
    assert not hops_over(Shape.ACROSS, Shape.ACROSS)  # running along it: joins


@pytest.mark.rule("K-WIRE-05", "K-WIRE-07", "K-DOOR-04")
def test_starting_or_ending_a_drag_on_a_wire_joins_it() -> None:
    world, log = make_world(THREE_DOORS)
    plate = put(world, "pressure_plate", 1, 3)
    blades = put(world, "spinning_blades", 8, 3)
    assert wire(world, (1, 3), (8, 3)).accepted
    starts = wire(world, (4, 3), (4, 6))  # starts on the wire, ends on the door (4, 6)
    assert starts.accepted and starts.effect["joined"] == ["wire:1"]
    ends = wire(world, (6, 6), (6, 3))  # starts on the door (6, 6), ends on the wire
    assert ends.accepted and ends.effect["joined"] == ["wire:1"]
    circuit = world.circuit_of(plate.id)
    assert circuit.mechanisms == (blades.id,)
    assert circuit.doors == ("door:1", "door:2")
    step_on(world, plate.id)
    assert [e["door"] for e in of(log, "door.opened")] == ["door:1", "door:2"]
    assert fired(log) == [blades.id]


@pytest.mark.rule("K-WIRE-06", "K-WIRE-02")
def test_a_join_that_would_give_a_mechanism_two_triggers_is_refused() -> None:
    world, log = make_world(HALL)
    t1 = put(world, "pressure_plate", 1, 3)
    blades = put(world, "spinning_blades", 8, 3)
    t2 = put(world, "sensor", 5, 7)
    assert wire(world, (1, 3), (8, 3)).accepted
    refused = wire(world, (5, 7), (5, 3))  # would end on the first trap's wire
    assert not refused.accepted
    assert refused.rules == ("K-WIRE-02", "K-WIRE-06")
    assert "more than one trigger" in refused.reason
    assert list(world.wiring.wires) == ["wire:1"]  # nothing drawn
    assert world.circuit_of(t2.id).wires == ()
    assert world.circuit_of(blades.id).triggers == (t1.id,)
    command = of(log, "command")[-1]
    assert command["accepted"] is False and command["rules"] == ["K-WIRE-02", "K-WIRE-06"]
    assert command["reason"].startswith("K-WIRE-02")


@pytest.mark.rule("K-WIRE-02")
def test_one_trigger_one_mechanism_directly() -> None:
    world, _ = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 3)
    put(world, "spinning_blades", 3, 3)
    put(world, "web", 1, 5)
    other = put(world, "tripwire", 6, 3)
    assert wire(world, (1, 3), (3, 3)).accepted
    second_mechanism = wire(world, (1, 3), (1, 5))  # starts where wire:1 ends: joins it
    assert not second_mechanism.accepted
    assert second_mechanism.rules == ("K-WIRE-02", "K-WIRE-06")
    assert "more than one mechanism" in second_mechanism.reason
    second_trigger = wire(world, (6, 3), (3, 3))
    assert not second_trigger.accepted and second_trigger.rules[0] == "K-WIRE-02"
    assert world.circuit_of(plate.id).mechanisms == ("trap:1",)
    assert world.circuit_of(other.id).mechanisms == ()


@pytest.mark.rule("R-K-WIRE-02", "K-WIRE-06")
def test_two_triggers_on_one_door_circuit_are_refused() -> None:
    world, _ = make_world(THREE_DOORS)
    put(world, "pressure_plate", 1, 3)
    put(world, "pressure_plate", 8, 3)
    assert wire(world, (1, 3), (4, 3), (4, 6)).accepted
    refused = wire(world, (8, 3), (4, 3))
    assert not refused.accepted and refused.rules == ("R-K-WIRE-02", "K-WIRE-06")


@pytest.mark.rule("K-WIRE-03", "R-K-WIRE-02")
def test_trigger_timer_mechanism_fires_after_the_delay() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 3)
    timer = put(world, "timer", 3, 3, delay=15)
    blades = put(world, "spinning_blades", 6, 3)
    assert wire(world, (1, 3), (3, 3)).accepted
    joined = wire(world, (3, 3), (6, 3))
    assert joined.accepted and "K-WIRE-03" in joined.rules
    circuit = world.circuit_of(plate.id)
    assert circuit.timers == (timer.id,) and circuit.mechanism == blades.id
    world.run(100)
    step_on(world, plate.id)
    assert fired(log) == []  # not yet
    world.run(114)
    assert fired(log) == []
    world.run(115)
    shot = of(log, "trap.fired")
    assert [(e["time"]["minute"], e["trap"]) for e in shot] == [(115, blades.id)]
    assert shot[0]["rules"][0] == "K-WIRE-03"


@pytest.mark.rule("K-WIRE-03", "R-K-WIRE-02")
def test_two_timers_add_up_and_doors_do_not_wait() -> None:
    world, log = make_world(THREE_DOORS)
    plate = put(world, "pressure_plate", 1, 3)
    put(world, "timer", 2, 3, delay=5)
    put(world, "timer", 3, 3, delay=7)
    put(world, "spinning_blades", 6, 3)
    assert wire(world, (1, 3), (2, 3)).accepted
    assert wire(world, (2, 3), (3, 3)).accepted
    assert wire(world, (3, 3), (6, 3)).accepted
    assert wire(world, (6, 3), (6, 6)).accepted
    world.run(10)
    step_on(world, plate.id)
    world.run(30)
    assert [e["time"]["minute"] for e in of(log, "door.opened")] == [10]
    assert [e["time"]["minute"] for e in of(log, "trap.fired")] == [22]


@pytest.mark.rule("K-WIRE-07", "K-DOOR-04")
def test_one_trigger_opens_three_doors_and_fires_one_trap() -> None:
    world, log = make_world(THREE_DOORS)
    plate = put(world, "pressure_plate", 1, 3)
    blades = put(world, "spinning_blades", 8, 3)
    assert wire(world, (1, 3), (8, 3)).accepted
    for x in (4, 6, 8):
        assert wire(world, (x, 3) if x != 8 else (8, 3), (x, 6)).accepted
    circuit = world.circuit_of(plate.id)
    assert circuit.doors == ("door:1", "door:2", "door:3")
    assert circuit.mechanisms == (blades.id,)
    step_on(world, plate.id)
    assert sorted(e["door"] for e in of(log, "door.opened")) == ["door:1", "door:2", "door:3"]
    assert fired(log) == [blades.id]
    assert all(world.door(d).open for d in circuit.doors)


@pytest.mark.rule("K-TRAP-05")
def test_a_part_with_nothing_connected_does_nothing() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 3)
    put(world, "spinning_blades", 5, 3)
    step_on(world, plate.id)
    assert isinstance(plate, Trigger)
    assert plate.state is PartState.ARMED and not plate.on
    assert of(log, "trap.fired", "part.expired", "door.opened") == []
    # A trigger wired only to a timer still does nothing.
    put(world, "timer", 2, 3)
    assert wire(world, (1, 3), (2, 3)).accepted
    step_on(world, plate.id)
    assert plate.state is PartState.ARMED and of(log, "trap.fired", "part.expired") == []


def test_bad_drags_are_refused_with_a_reason() -> None:
    world, _ = make_world(HALL)
    diagonal = wire(world, (1, 1), (3, 3))
    assert not diagonal.accepted and "diagonal" in diagonal.reason
    through_wall = wire(world, (1, 1), (1, 9))
    assert not through_wall.accepted and "cannot run over" in through_wall.reason
    single = wire(world, (2, 2), (2, 2))
    assert not single.accepted
    with pytest.raises(WiringError):
        expand([Pos(1, 1), Pos(3, 1), Pos(2, 1)])  # retraces itself
