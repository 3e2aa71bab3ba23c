"""The three default scenarios (tutorial, mid, late), a late start (ruling R-K-TIME-06),
and whole runs: fights that end, saves in the middle of a fight, the account's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from keep_kit import keep_time
from typer.testing import CliRunner

from undercroft.cli import app
from undercroft.core.events import EventLog
from undercroft.keep.content.calendar import day_of, day_start
from undercroft.keep.save import clone_world, load_world, save_world
from undercroft.keep.scenario import build_world, shipped
from undercroft.keep.state.actors import Condition, Creature
from undercroft.keep.state.structures import Door, Lock, Mechanism, Timer, Trigger
from undercroft.keep.state.world import World


def test_the_three_default_scenarios_are_listed_by_their_ids() -> None:
    result = CliRunner().invoke(app, ["list", "scenarios", "--plain"])
    assert result.exit_code == 0
    assert {"tutorial", "mid", "late"} <= set(result.stdout.split()) == set(shipped())


def locked_doors(world: World) -> list[Door]:
    return [
        d
        for d in world.of_type(Door)
        if d.lock is not None and isinstance(lock := world.structures[d.lock], Lock) and lock.armed
    ]


def test_tutorial_is_a_small_dungeon_with_a_few_traps_and_one_locked_door() -> None:
    world = build_world("tutorial")
    assert 2 <= len(world.of_type(Mechanism)) <= 5
    assert len(locked_doors(world)) == 1
    assert world.grid.width * world.grid.height <= 30 * 20


def test_mid_has_traps_timers_levers_on_doors_locked_corridors_lairs_treasure_and_cells() -> None:
    world = build_world("mid")
    traps = world.of_type(Mechanism)
    assert 15 <= len(traps) <= 25
    timed = [t for t in world.of_type(Timer) if world.circuit_of(t.id).mechanism]
    assert len(timed) >= 2
    levers = [t for t in world.of_type(Trigger) if t.lever and world.circuit_of(t.id).doors]
    assert len(levers) >= 2  # levers wired to doors
    assert len(locked_doors(world)) >= 3  # the corridor's two and the sanctum's gates
    lairs = {c.lair for c in world.beings.values() if isinstance(c, Creature) and c.lair}
    assert len(lairs) >= 2
    kinds = {f.kind for f in world.invasion.features.values()}
    assert {"treasure", "cell", "altar", "pyre", "butcher"} <= kinds


@pytest.mark.rule("K-SIZE-03", "K-TIME-03")
def test_late_starts_on_day_40_against_five_member_high_level_parties() -> None:
    world = build_world("late", seed=2)
    assert world.now == world.start_minute == day_start(40)
    log = world.open_log()
    assert isinstance(log, EventLog)
    world.run_days(2)
    arrived = log.of_type("invasion.arrived")
    assert arrived and arrived[0].event.fields["number"] == 61
    assert all(day_of(keep_time(e).minute) >= 40 for e in arrived)
    sizes = [len(e.event.fields["members"]) for e in arrived]
    levels = [m["level"] for e in arrived for m in e.event.fields["members"]]
    assert max(sizes) >= 5 and sum(levels) / len(levels) >= 3


@pytest.mark.rule("R-K-TIME-06", "K-TIME-01", "K-TIME-03")
def test_a_late_start_begins_with_a_time_limit_not_a_first_invasion() -> None:
    world = build_world("late", seed=1)
    log = world.open_log()
    assert isinstance(log, EventLog)
    world.run(world.now + 60)
    assert not [e for e in log.of_type("roll") if "K-TIME-01" in e.event.rules]
    (draw,) = [e for e in log.of_type("chance") if "K-TIME-02" in e.event.rules]
    assert draw.event.fields["hour"] == 1 and draw.event.fields["limit_hours"] == 30
    assert world.summary()["days"] == 1  # days count from the start


@pytest.mark.parametrize(("name", "days"), [("tutorial", 10), ("mid", 12), ("late", 4)])
def test_every_invasion_ends_and_a_fight_never_leaves_two_bodies_on_a_tile(
    name: str, days: int
) -> None:
    for seed in (3, 4):
        world = build_world(name, seed=seed)
        world.run_days(days)
        groups = list(world.invasion.groups.values())
        assert groups and all(g.phase == "ended" for g in groups[:-1]), (name, seed)
        standing = [
            b.pos
            for b in world.beings.values()
            if b.fighting and b.condition is Condition.UP and b.kind != "minion"
        ]
        assert len(standing) == len(set(standing))


def test_a_save_in_the_middle_of_a_fight_continues_identically(tmp_path: Path) -> None:
    straight = build_world("mid", seed=2)
    whole = straight.open_log()
    assert isinstance(whole, EventLog)
    straight.run_days(3)
    fights = [e for e in whole.of_type("attack")]
    assert fights
    at = keep_time(fights[len(fights) // 2]).minute
    straight.run_days(2)
    first = build_world("mid", seed=2)
    first.open_log()
    first.run(at)
    assert any(b.fighting for b in first.beings.values())  # mid-fight
    save_world(first, tmp_path / "mid.json")
    resumed = load_world(tmp_path / "mid.json")
    rest = resumed.open_log()
    assert isinstance(rest, EventLog)
    resumed.run(straight.now)

    def after(log: EventLog) -> list[str]:
        return [
            json.dumps({k: v for k, v in e.to_json().items() if k != "seq"})
            for e in log.entries
            if keep_time(e).minute > at
        ]

    assert after(rest) == after(whole) and len(after(rest)) > 100


def test_a_clone_in_the_middle_of_a_fight_goes_on_as_the_world_does() -> None:
    """``clone_world``: a copy taken mid-fight (sight and path caches in use, compiled or
    not) goes on event for event as the world it was taken from, and apart from it."""
    world = build_world("mid", seed=2)
    world.run_days(2)
    while not any(b.fighting for b in world.beings.values()) and world.now < 5 * 24 * 60:
        world.run(world.now + 5)
    assert any(b.fighting for b in world.beings.values())  # mid-fight
    copy = clone_world(world)
    logs = []
    for w in (world, copy):
        log = w.open_log()
        assert isinstance(log, EventLog)
        w.run_days(2)
        logs.append([json.dumps({k: v for k, v in e.to_json().items() if k != "seq"})
                     for e in log.entries])  # fmt: skip
    assert logs[0] == logs[1] and len(logs[0]) > 100
    copy.run_days(1)
    assert copy.now > world.now  # apart: running the copy leaves the world where it was


@pytest.mark.rule("K-DEF-01", "K-KO-02", "K-AFTER-02")
def test_run_keep_mid_shows_fights_deaths_captures_and_escapes_and_explains_them() -> None:
    result = CliRunner().invoke(
        app,
        ["run", "keep", "--scenario", "mid", "--days", "30", "--seed", "1", "--explain"],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    for words in (" wounds ", "is knocked out", " dies at ", " captures ", " leaves", "trap:"):
        assert words in out, words
    assert "[K-KO-01" in out and "K-KO-02" in out  # the rules behind the lines
    for label in ("who died", "captures made", "who walked out alive", "the Master"):
        assert label in out
