"""keep batches: identical rows whatever the workers, a run replayed alone by
``undercroft run keep``, metrics that agree with the world's own summary, ``--set`` checked
like content, bad input refused before any run, and a sweep and a comparison."""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import KEEP_DAYS, KEEP_RUNS, KEEP_SCENARIO, SEED, Played, invoke
from undercroft.core.dice import derive_seed
from undercroft.keep.content.settings import parse
from undercroft.keep.scenario import build_world

TABLES = ("runs", "invasions", "traps", "doors", "squares")


def rows(folder: Path, table: str) -> list[dict[str, Any]]:
    """A table's rows; each column has its own type (int, str, bool, float or None)."""
    found: list[dict[str, Any]] = pq.read_table(folder / f"{table}.parquet").to_pylist()
    return found


def test_the_rows_do_not_depend_on_the_number_of_workers(keep_played: Played) -> None:
    for table in TABLES:
        two = pq.read_table(keep_played.two / f"{table}.parquet")
        one = pq.read_table(keep_played.one / f"{table}.parquet")
        assert two.equals(one), table
    runs = rows(keep_played.two, "runs")
    assert [r["run"] for r in runs] == list(range(KEEP_RUNS))
    assert [r["seed"] for r in runs] == [derive_seed(SEED, i) for i in range(KEEP_RUNS)]
    assert {(r["scenario"], r["days"]) for r in runs} == {(KEEP_SCENARIO, KEEP_DAYS)}


def test_the_printed_replay_command_plays_run_zero_alone(
    keep_played: Played, tmp_path: Path
) -> None:
    found = re.search(r"Replay run 0 alone: undercroft (run keep .*)", keep_played.printed)
    assert found, keep_played.printed
    log = tmp_path / "run0.jsonl"
    code, _, stderr = invoke(*shlex.split(found.group(1)), "--quiet", "--log", str(log))
    assert code == 0, stderr
    summary = json.loads(log.read_text().splitlines()[-1])
    assert summary["type"] == "summary"
    row = rows(keep_played.two, "runs")[0]
    assert row["seed"] == derive_seed(SEED, 0)
    assert (row["invasions"], row["adventurers"], row["adventurers_escaped"]) == (
        summary["invasions"], summary["adventurers"], summary["escaped"]
    )  # fmt: skip
    # the world counts events (deaths, captures made); the row each adventurer's fate
    assert row["adventurers_captured"] == summary["prisoners"]
    assert row["adventurers_dead"] <= summary["dead"]
    assert (row["traps_fired"], row["rearms"], row["fumbles"], row["wounds"]) == (
        summary["traps_fired"], summary["rearms"], summary["fumbles"], summary["wounds"]
    )  # fmt: skip
    assert row["master_survived"] == (summary["master"] == "alive")


def test_the_tables_agree_with_the_runs_summary(keep_played: Played) -> None:
    runs = {r["run"]: r for r in rows(keep_played.two, "runs")}
    invasions = rows(keep_played.two, "invasions")
    traps = rows(keep_played.two, "traps")
    squares = rows(keep_played.two, "squares")
    doors = rows(keep_played.two, "doors")
    assert sum(r["invasions"] for r in runs.values()) > 0  # the batch saw invasions
    per_run = Counter(i["run"] for i in invasions)
    for run, row in runs.items():
        mine = [i for i in invasions if i["run"] == run]
        # every invasion the world counted has its row, and its outcome in the counts
        assert per_run[run] == row["invasions"]
        outcomes = Counter(i["outcome"] for i in mine)
        assert (outcomes["repelled"], outcomes["goal met"], outcomes["escaped"]) == (
            row["repelled"], row["goal_met"], row["escaped"]
        )  # fmt: skip
        assert outcomes["under way"] == row["under_way"]
        # every member under one fate, under way or not (tests/analysis/test_keep_fates.py)
        for fate in ("dead", "captured", "escaped", "inside"):
            assert sum(i[fate] for i in mine) == row[f"adventurers_{fate}"]
        assert sum(i["size"] for i in mine) == row["adventurers"]
        assert sum(s["deaths"] for s in squares if s["run"] == run) == row["adventurers_dead"]
        assert sum(t["fired"] for t in traps if t["run"] == run) == row["traps_fired"]
        assert sum(t["rearms"] for t in traps if t["run"] == run) <= row["rearms"]
        assert sum(d["minutes"] for d in doors if d["run"] == run) == row["door_minutes"]
        assert row["no_goal_met"] == (row["goal_met"] == 0)
        assert row["master_survived"] == (row["master_died_day"] is None)


def test_batch_json_the_report_and_the_catalogue(keep_played: Played) -> None:
    meta = json.loads((keep_played.two / "batch.json").read_text())
    assert meta["ruleset"] == "keep"
    assert meta["scenario"] == {"scenario": KEEP_SCENARIO, "days": KEEP_DAYS, "settings": []}
    page = (keep_played.two / "report.html").read_text()
    headings = (
        "Invasions: how they ended",
        "survival by day",
        "Traps: fired",
        "Time spent at each locked door",
        "Where adventurers die",
        "Where adventurers are slowed",
        "undercroft run keep --scenario mid",
    )
    for heading in headings:
        assert heading in page, heading
    code, stdout, stderr = invoke(
        "results", "sql", "SELECT count(*) AS n FROM keep_invasions WHERE batch = 1", "--csv",
        "--catalogue", str(keep_played.catalogue),
    )  # fmt: skip
    assert code == 0, stderr
    assert int(stdout.splitlines()[1]) == len(rows(keep_played.two, "invasions"))


def test_set_changes_the_run_and_is_in_the_replay(tmp_path: Path) -> None:
    out = tmp_path / "b"
    code, stdout, stderr = invoke(
        "batch", "keep", KEEP_SCENARIO, "--runs", "1", "--days", "1", "--workers", "1",
        "--set", "options.invasions=false", "--out", str(out),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    (row,) = rows(out, "runs")
    assert row["options.invasions"] is False and row["invasions"] == 0
    assert "--set options.invasions=false" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", "--runs", "2"], "no such scenario file"),
        (["mid", "--runs", "2", "--days", "0"], "--days 0"),
        (["mid", "--runs", "2", "--party", "brenna,garrick,durn"], "--party belong to crawl"),
        (["mid", "--runs", "2", "--policy", "random"], "--policy belong to crawl"),
        (["mid", "--runs", "2", "--set", "options.nope=1"], "allowed: distance_metric"),
        (
            ["mid", "--runs", "2", "--set", "options.fallen_adventurers=maybe"],
            "allowed: capture, kill, leave",
        ),
        (
            ["mid", "--runs", "2", "--set", "mechanism.spinning_blades.power=70"],
            "less than or equal to 10",
        ),
        (["mid", "--runs", "2", "--set", "monsters.orc.fighting=3"], "allowed: options, trigger"),
    ],
)
def test_bad_input_exits_2_before_any_run(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = invoke(
        "batch", "keep", *args, "--out", str(out), "--catalogue", str(tmp_path / "c.duckdb")
    )
    assert code == 2, stdout + stderr
    assert message in stderr and "Traceback" not in stderr + stdout
    assert not out.exists()


def test_a_keep_sweep_and_a_comparison(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    catalogue = str(tmp_path / "c.duckdb")
    code, stdout, stderr = invoke(
        "sweep", "keep", KEEP_SCENARIO, "--runs", "2", "--days", "2", "--workers", "1",
        "--set", "options.fallen_adventurers=capture,kill", "--out", str(out),
        "--catalogue", catalogue,
    )  # fmt: skip
    assert code == 0, stdout + stderr
    assert (out / "report.html").exists()
    for name, value in (("point-01", "capture"), ("point-02", "kill")):
        (first, _) = rows(out / name, "runs")
        assert first["options.fallen_adventurers"] == value
    code, stdout, stderr = invoke(
        "compare", str(out / "point-01"), str(out / "point-02"), "--catalogue", catalogue
    )
    assert code == 0, stdout + stderr
    assert "invasions" in stdout and "fallen_adventurers" in stdout


def test_run_keep_takes_the_same_set_and_checks_it(tmp_path: Path) -> None:
    chosen = [parse("mechanism.spinning_blades.power=7"), parse("combat.mend_minutes=60")]
    world = build_world(KEEP_SCENARIO, settings=chosen)
    assert world.ruleset.mechanisms["spinning_blades"].power == 7
    assert world.ruleset.combat.mend_minutes == 60
    code, _, stderr = invoke("run", "keep", "--scenario", KEEP_SCENARIO, "--days", "1",
                                  "--set", "creature.troll.weapn=club")  # fmt: skip
    assert code == 2 and "no 'weapn' in creature.troll (allowed: name, attributes" in stderr
    code, _, stderr = invoke("run", "keep", "--scenario", KEEP_SCENARIO, "--days", "1",
                                  "--set", "combat", "--quiet")  # fmt: skip
    assert code == 2 and "write KEY=VALUE" in stderr
    save = tmp_path / "w.json"
    code, _, stderr = invoke("run", "keep", "--scenario", KEEP_SCENARIO, "--days", "1",
                             "--quiet", "--save", str(save))  # fmt: skip
    assert code == 0, stderr
    code, _, stderr = invoke("run", "keep", "--resume", str(save), "--days", "1",
                             "--set", "options.invasions=false")  # fmt: skip
    assert code == 2 and "--set" in stderr


def test_the_days_table_is_the_worlds_day_counts(keep_played: Played) -> None:
    runs = {r["run"]: r for r in rows(keep_played.two, "runs")}
    days = rows(keep_played.two, "days")
    assert sorted({(d["run"], d["day"]) for d in days}) == [
        (run, day) for run in range(KEEP_RUNS) for day in range(1, KEEP_DAYS + 1)
    ]
    for run, row in runs.items():
        mine = [d for d in days if d["run"] == run]
        for column in ("rearms", "fumbles", "traps_fired", "invasions"):
            assert sum(int(d[column]) for d in mine) == row[column], column
