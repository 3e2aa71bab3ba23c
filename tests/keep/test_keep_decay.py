"""Rearming every 2 days and the workload it makes (K-DECAY-01..04, R-K-CLOCK-01)."""

from __future__ import annotations

import pytest
from keep_kit import HALL, creature, fired, make_world, minion, of, put, wire

from undercroft.core.events import EventLog
from undercroft.keep.commands import execute
from undercroft.keep.rules import traps
from undercroft.keep.scenario import build_world
from undercroft.keep.state.actors import Job
from undercroft.keep.state.orders import PullLever
from undercroft.keep.state.structures import PartState, TrapPart, Trigger

TWO_DAYS = 2 * 24 * 60


@pytest.mark.rule("K-DECAY-01", "R-K-CLOCK-01")
def test_both_parts_run_out_two_days_after_building_even_unused() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 5, 3)
    blades = put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    world.run(TWO_DAYS - 1)
    assert of(log, "part.expired") == []
    world.run(TWO_DAYS)
    expired = of(log, "part.expired")
    assert [(e["time"]["minute"], e["structure"], e["reason"]) for e in expired] == [
        (TWO_DAYS, plate.id, "decay"),
        (TWO_DAYS, blades.id, "decay"),
    ]
    assert expired[0]["time"] == {"minute": 2880, "day": 3, "hour": 0}


@pytest.mark.rule("K-DECAY-02")
def test_an_expired_part_stops_working_until_rearmed_and_the_count_restarts() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 5, 3)
    blades = put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    world.run(TWO_DAYS)
    assert isinstance(plate, TrapPart) and plate.state is PartState.EXPIRED
    assert isinstance(blades, TrapPart)
    wolf = creature(world, "wolf", 5, 3)
    traps.walker_enters(world, plate.id, wolf)
    assert fired(log) == []  # the crossed-out dart: it does nothing
    kobold = minion(world, 6, 4, job=Job.NONE)
    world.run(TWO_DAYS + 100)
    traps.complete(world, plate, kobold, fumble=False)
    traps.complete(world, blades, kobold, fumble=False)
    plate = plate  # the rearm changed its state: mypy forgets the narrowing (mypy#17537)
    rearmed = of(log, "part.rearmed")
    assert [(e["reason"], e["waited"]) for e in rearmed] == [("decay", 100), ("decay", 100)]
    assert plate.state is PartState.ARMED and blades.state is PartState.ARMED
    # The 2 days restart at the rearm: both next run out exactly 2880 minutes later.
    world.run(TWO_DAYS + 100 + TWO_DAYS - 1)
    assert len(of(log, "part.expired")) == 2
    world.run(TWO_DAYS + 100 + TWO_DAYS)
    later = of(log, "part.expired")[2:]
    assert [(e["time"]["minute"], e["structure"]) for e in later] == [
        (TWO_DAYS + 100 + TWO_DAYS, plate.id),
        (TWO_DAYS + 100 + TWO_DAYS, blades.id),
    ]


@pytest.mark.rule("K-DECAY-02", "R-K-JOB-01")
def test_a_traps_minion_comes_to_rearm_an_expired_part() -> None:
    world, log = make_world(HALL)
    put(world, "pressure_plate", 5, 3)
    put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    kobold = minion(world, 5, 8)
    world.run(TWO_DAYS + 120)
    rearmed = of(log, "part.rearmed")
    assert {e["minion"] for e in rearmed} == {kobold.id}
    assert all(e["reason"] == "decay" for e in rearmed) and len(rearmed) == 2
    # Nobody rearms early: nothing happened before the parts ran out.
    assert all(e["time"]["minute"] >= TWO_DAYS for e in of(log, "roll"))


@pytest.mark.rule("K-DECAY-03")
def test_levers_never_run_out_but_their_mechanism_does() -> None:
    world, log = make_world(HALL)
    lever = put(world, "lever", 5, 3)
    blades = put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    world.run(10 * 24 * 60)
    assert [e["structure"] for e in of(log, "part.expired")] == [blades.id]
    assert isinstance(lever, Trigger) and lever.state is PartState.ARMED
    execute(world, PullLever(lever.id))
    assert fired(log) == []  # the mechanism ran out


def run_summary(name: str, seed: int) -> dict[str, float]:
    # The dungeon alone, its traps sparing the minions (R-K-TRAP-02): the same minions
    # all month, so the hours compare the two dungeons' work only.
    options = {"invasions": False, "trap_friendly_fire": False}
    world = build_world(name, seed=seed, options=options)
    world.open_log()
    world.run_days(30)
    return world.close_log()


@pytest.mark.rule("K-DECAY-04", "K-DECAY-01", "K-DECAY-02")
def test_the_workload_emerges_and_doubles_with_the_traps() -> None:
    twenty = run_summary("trapworks", seed=7)
    forty = run_summary("trapworks-40", seed=7)
    assert (twenty["traps"], forty["traps"]) == (20, 40)
    # Every part is rearmed, about every 2 days: 39 decaying parts -> about 19.5 a day.
    assert twenty["parts_rearmed"] == twenty["parts_that_decay"] == 39
    assert 48 <= twenty["max_rearm_gap_hours"] < 60
    assert 18 < twenty["rearms_per_day"] < 26
    assert twenty["rearms_decay"] > 450
    ratio_rearms = forty["rearms_per_day"] / twenty["rearms_per_day"]
    ratio_hours = forty["traps_job_minion_hours"] / twenty["traps_job_minion_hours"]
    assert 1.8 < ratio_rearms < 2.2
    assert 1.7 < ratio_hours < 2.5
    assert twenty["traps_job_minion_hours_per_day"] > 5


def test_the_summary_counts_what_the_log_shows() -> None:
    world = build_world("trapworks", seed=3)
    log = world.open_log()
    assert isinstance(log, EventLog)
    world.run_days(6)
    summary = world.close_log()
    rearmed = [e for e in log.entries if e.event.type == "part.rearmed"]
    assert summary["rearms"] == len(rearmed)
    assert summary["rearms_decay"] == sum(e.event.fields["reason"] == "decay" for e in rearmed)
    assert summary["traps_fired"] == len([e for e in log.entries if e.event.type == "trap.fired"])
    assert summary["events"] == len(log.entries)
    assert summary["days"] == 6 and summary["rearms_per_day"] == round(len(rearmed) / 6, 2)
    minutes = sum(d.traps_job_minutes for d in world.workload.days.values())
    assert summary["traps_job_minion_hours"] >= round(minutes / 60, 1)
