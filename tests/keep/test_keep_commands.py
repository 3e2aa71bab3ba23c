"""The keeper's typed commands: every one logged, refused ones change nothing."""

from __future__ import annotations

import pytest
from keep_kit import HALL, make_world, minion, of, put, wire

from undercroft.core.grid import Pos
from undercroft.keep.commands import execute
from undercroft.keep.state.actors import Job, Stance
from undercroft.keep.state.orders import COMMANDS, Build, Move, Remove, SetJob, SetStance, SetTimer
from undercroft.keep.state.structures import PartState, Timer, TrapPart


@pytest.mark.rule("R-K-STANCE-01")
def test_jobs_and_the_five_stances() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 1, 1, job=Job.NONE)
    assert [s.value for s in Stance] == ["flee", "avoid", "defensive", "normal", "aggressive"]
    assert execute(world, SetStance(kobold.id, Stance.AGGRESSIVE)).accepted
    assert kobold.stance is Stance.AGGRESSIVE
    assert execute(world, SetJob(kobold.id, Job.TRAPS)).accepted and kobold.job is Job.TRAPS
    refused = execute(world, SetJob("minion:99", Job.CHORES))
    assert not refused.accepted and "minion:99" in refused.reason
    logged = of(log, "command")
    assert [(e["command"], e["accepted"]) for e in logged] == [
        ("set_stance", True),
        ("set_job", True),
        ("set_job", False),
    ]
    assert logged[0]["stance"] == "aggressive" and logged[0]["rules"] == ["R-K-STANCE-01"]


def test_a_minion_taken_off_the_traps_job_drops_its_rearm() -> None:
    world, _ = make_world(HALL)
    put(world, "pressure_plate", 5, 3)
    blades = put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    kobold = minion(world, 1, 1)
    world.run(2 * 1440 + 1)
    assert kobold.task is not None
    execute(world, SetJob(kobold.id, Job.FIGHTING))
    assert kobold.task is None and all(t.minion is None for t in world.tasks.values())
    world.run(3 * 1440)
    assert isinstance(blades, TrapPart)
    assert blades.state is PartState.EXPIRED  # nobody else to rearm it


@pytest.mark.rule("K-WIRE-03")
def test_timers_are_set_on_the_timer_itself() -> None:
    world, _ = make_world(HALL)
    timer = put(world, "timer", 3, 3, delay=5)
    assert execute(world, SetTimer(timer.id, 40)).accepted
    assert isinstance(timer, Timer) and timer.delay == 40
    assert not execute(world, SetTimer(timer.id, -1)).accepted
    assert not execute(world, SetTimer("door:1", 5)).accepted


def test_remove_takes_the_connections_with_it() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 3)
    put(world, "spinning_blades", 4, 3)
    wire(world, (1, 3), (4, 3))
    removed = execute(world, Remove("trap:1"))
    assert removed.accepted and removed.effect["wires_removed"] == ["wire:1"]
    assert world.circuit_of(plate.id).wires == ()
    assert world.structure_at(Pos(4, 3)) is None
    assert not execute(world, Remove("trap:1")).accepted
    assert not execute(world, Move(plate.id, Pos(0, 0))).accepted  # a wall
    assert not execute(world, Build("catapult", Pos(5, 5))).accepted
    assert of(log, "command")[-1]["reason"].startswith("unknown structure kind 'catapult'")


def test_every_command_has_a_distinct_logged_name() -> None:
    assert sorted(COMMANDS) == sorted(
        [
            "build",
            "move",
            "remove",
            "wire",
            "set_timer",
            "arm_lock",
            "disarm_lock",
            "hold_door_open",
            "pull_lever",
            "set_job",
            "set_stance",
            "order_attack",
            "rite_of_storms",
            "answer_fugitive",
            "divine",
            "watchful_eye",
        ]
    )
