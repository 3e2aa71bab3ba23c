"""The world as a whole: clock, queue order, quiet days, determinism, save and load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from keep_kit import HALL, keep_time, make_world, minion, put, wire

from undercroft.core.events import EventLog, KeepTime, read_log
from undercroft.core.grid import Pos
from undercroft.keep import World
from undercroft.keep.commands import execute
from undercroft.keep.content.calendar import ClockError, day_start, format_when, parse_when
from undercroft.keep.save import SaveError, load_world, save_world
from undercroft.keep.scenario import build_world
from undercroft.keep.state.clock import EventQueue, Priority
from undercroft.keep.state.orders import Build


def run_log(name: str, seed: int, days: int) -> str:
    world = build_world(name, seed=seed)
    log = world.open_log()
    assert isinstance(log, EventLog)
    world.run_days(days)
    world.close_log()
    return log.text()


@pytest.mark.rule("R-K-CLOCK-01")
def test_the_clock_counts_minutes_from_day_one() -> None:
    assert KeepTime(0).to_json() == {"minute": 0, "day": 1, "hour": 0}
    assert KeepTime(1439).to_json() == {"minute": 1439, "day": 1, "hour": 23}
    assert KeepTime(1440).to_json() == {"minute": 1440, "day": 2, "hour": 0}
    assert day_start(3) == 2880 == parse_when("day 3") == parse_when("day 3 00:00")
    assert parse_when("day 2 13:05") == 1440 + 13 * 60 + 5
    assert format_when(parse_when("day 30 23:59")) == "day 30 23:59"
    for bad in ("day 0 10:00", "day 2 24:00", "tuesday", "day 2 9:75"):
        with pytest.raises(ClockError):
            parse_when(bad)
    world, _ = make_world(HALL)
    world.run_days(2)
    assert world.now == 2 * 1440 - 1


def test_the_queue_has_a_total_order() -> None:
    queue = EventQueue()
    queue.push(10, Priority.DECAY, "a")
    queue.push(10, Priority.SCRIPT, "b")
    queue.push(5, Priority.WORK, "c")
    queue.push(10, Priority.SCRIPT, "d")
    assert [queue.pop().action for _ in range(4)] == ["c", "b", "d", "a"]
    again = EventQueue.from_json(json.loads(json.dumps(queue.to_json())))
    assert again.next_seq == 4 and len(again) == 0


def test_a_quiet_day_costs_nothing() -> None:
    world, log = make_world(HALL)
    world.run_days(1000)
    assert world.queue.next_seq == 0 and log.entries == []
    # One trap and one Traps minion: a handful of queue items a day, not 1,440 ticks.
    busy, _ = make_world(HALL)
    put(busy, "pressure_plate", 5, 3)
    put(busy, "spinning_blades", 7, 3)
    wire(busy, (5, 3), (7, 3))
    minion(busy, 1, 1)
    busy.run_days(100)
    assert busy.queue.next_seq < 100 * 10


def test_same_seed_same_log_byte_for_byte() -> None:
    first = run_log("trapworks", seed=11, days=8)
    assert first == run_log("trapworks", seed=11, days=8)
    assert first != run_log("trapworks", seed=12, days=8)


def test_the_streamed_log_is_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    world = build_world("trapworks", seed=5)
    world.open_log(path)
    world.run_days(4)
    world.close_log()
    assert path.read_text(encoding="utf-8") == run_log("trapworks", seed=5, days=4)
    assert not (tmp_path / "run.jsonl.partial").exists()
    log = read_log(path)
    assert log.header.ruleset == "keep" and log.summary is not None
    assert log.summary.results["days"] == 4
    ids = {a.id for a in log.header.actors}
    assert {"master", "minion:1", "minion:4", "trigger:1", "trap:1", "door:1", "lock:1"} <= ids


def tail(log: EventLog, after: int) -> list[str]:
    return [
        json.dumps({k: v for k, v in e.to_json().items() if k != "seq"})
        for e in log.entries
        if keep_time(e).minute > after
    ]


def test_the_world_api_spelling_is_the_rules_own() -> None:
    """ARCHITECTURE.md's Python API (``World.from_scenario``, ``world.command``) is the
    scenario builder and the command executor the rule modules register: same log."""

    def played(world: World, by_api: bool) -> tuple[str, list[bool]]:
        log = world.open_log()
        assert isinstance(log, EventLog)
        world.run_days(1)
        accepted = []
        for x in (12, 13):  # (13, 18) holds a trigger already: the rules refuse it
            cmd = Build("web", Pos(x, 18))
            accepted.append((world.command(cmd) if by_api else execute(world, cmd)).accepted)
        world.run_days(1)
        world.close_log()
        return log.text(), accepted

    options = {"invasions": False}
    by_api = played(World.from_scenario("trapworks", seed=3, options=options), True)
    by_rules = played(build_world("trapworks", seed=3, options=options), False)
    assert by_api == by_rules
    assert by_api[1] == [True, False]


def test_save_and_load_mid_run_continues_identically(tmp_path: Path) -> None:
    straight = build_world("trapworks", seed=21)
    whole = straight.open_log()
    assert isinstance(whole, EventLog)
    straight.run_days(12)
    expected_summary = straight.close_log()

    first = build_world("trapworks", seed=21)
    first.open_log()
    first.run_days(5)
    save = tmp_path / "keep.save.json"
    save_world(first, save)
    assert not list(tmp_path.glob(".*.tmp"))
    resumed = load_world(save)
    rest = resumed.open_log()
    assert isinstance(rest, EventLog)
    resumed.run_days(7)
    assert resumed.now == straight.now
    saved_at = 5 * 1440 - 1
    assert tail(rest, saved_at) == tail(whole, saved_at)
    assert len(tail(rest, saved_at)) > 100
    assert resumed.close_log() == expected_summary


def test_a_broken_save_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveError, match=r"bad\.json:1"):
        load_world(bad)
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(SaveError, match="not a keep save of format version 1"):
        load_world(bad)


def test_a_save_names_its_scenario_and_structures_of_known_kinds(tmp_path: Path) -> None:
    world, _ = make_world(HALL)  # a scenario of one's own: the save says where it came from
    put(world, "pressure_plate", 2, 2)
    save_world(world, tmp_path / "own.json")
    assert load_world(tmp_path / "own.json").scenario_file == "<scenario>"
    data = json.loads((tmp_path / "own.json").read_text(encoding="utf-8"))
    del data["scenario_file"]
    (tmp_path / "lost.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="scenario: 'test' is no shipped scenario"):
        load_world(tmp_path / "lost.json")
    save_world(build_world("tutorial"), tmp_path / "shipped.json")
    data = json.loads((tmp_path / "shipped.json").read_text(encoding="utf-8"))
    assert "scenario_file" not in data
    trigger = next(s for s in data["structures"] if s["class"] == "Trigger")
    trigger["kind"] = "spinning_blades"  # a mechanism's kind on a trigger
    (tmp_path / "odd.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"unknown trigger kind 'spinning_blades' \(known: trip"):
        load_world(tmp_path / "odd.json")


def test_the_log_is_the_same_in_other_processes(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    texts = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"run{hash_seed}.jsonl"
        code = "from undercroft.cli import main; main()"
        args = ["run", "keep", "--days", "3", "--seed", "4", "--log", str(path), "--quiet"]
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run(
            [sys.executable, "-c", code, *args], check=True, env=env, capture_output=True
        )
        texts.append(path.read_bytes())
    assert texts[0] == texts[1]
    assert texts[0].decode("utf-8") == run_log("trapworks", seed=4, days=3)
