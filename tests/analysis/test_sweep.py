"""Sweeps: a batch per point of the grid, from one seed, and one report; compare two."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import ADVENTURE, invoke
from undercroft.analysis.sweep import grid
from undercroft.crawl.settings import SettingError


def test_the_grid_is_every_combination_of_the_values() -> None:
    fixed, keys, points = grid(["monsters.orc.fighting=2,3", "options.ambusher_six=total,natural",
                                "options.max_turns=60"])  # fmt: skip
    assert fixed == ["options.max_turns=60"]
    assert keys == ["monsters.orc.fighting", "options.ambusher_six"]
    assert [p.sets for p in points] == [
        ["monsters.orc.fighting=2", "options.ambusher_six=total"],
        ["monsters.orc.fighting=2", "options.ambusher_six=natural"],
        ["monsters.orc.fighting=3", "options.ambusher_six=total"],
        ["monsters.orc.fighting=3", "options.ambusher_six=natural"],
    ]
    with pytest.raises(SettingError, match="several values"):
        grid(["monsters.orc.fighting=2"])


def test_a_sweep_plays_every_point_and_registers_it(tmp_path: Path) -> None:
    out, cat = tmp_path / "sweep", tmp_path / "c.duckdb"
    code, stdout, stderr = invoke(
        "sweep", "crawl", ADVENTURE, "--runs", "3", "--workers", "2",
        "--set", "monsters.goblin.fighting=1,4", "--out", str(out), "--catalogue", str(cat),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    seeds = []
    for point, value in (("point-01", 1), ("point-02", 4)):
        runs = pq.read_table(out / point / "runs.parquet").to_pylist()
        assert [r["monsters.goblin.fighting"] for r in runs] == [value] * 3
        seeds.append([r["seed"] for r in runs])
        assert (out / point / "report.html").exists()
    assert seeds[0] == seeds[1]  # common random numbers: the same seeds at every point
    page = (out / "report.html").read_text()
    assert page.count("<svg") >= 10 and "monsters.goblin.fighting" in page
    code, stdout, _ = invoke("results", "sql", "SELECT kind, parent FROM batches ORDER BY id",
                             "--csv", "--catalogue", str(cat))  # fmt: skip
    assert stdout.split() == ["kind,parent", "sweep,", "batch,1", "batch,1"]
    code, stdout, stderr = invoke("compare", str(out / "point-01"), str(out / "point-02"),
                                  "--catalogue", str(cat))  # fmt: skip
    assert code == 0, stderr
    assert "monsters.goblin.fighting=1" in stdout and "monsters.goblin.fighting=4" in stdout
    meta = json.loads((out / "point-02" / "batch.json").read_text())
    assert meta["scenario"]["settings"] == ["monsters.goblin.fighting=4"]


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        (["monsters.goblin.fighting=1,99"], "less than or equal to 20"),
        (["monsters.goblin.fighting=3"], "several values"),
        (["monsters.goblin.fighting=1,,2"], "empty value"),
    ],
)
def test_every_point_is_checked_before_any_run(
    tmp_path: Path, sets: list[str], message: str
) -> None:
    args = [a for s in sets for a in ("--set", s)]
    out = ["--out", str(tmp_path / "s"), "--catalogue", str(tmp_path / "c")]
    code, _, stderr = invoke("sweep", "crawl", ADVENTURE, "--runs", "2", *args, *out)
    assert code == 2 and message in stderr
    assert not (tmp_path / "s").exists()


def test_compare_refuses_a_folder_that_is_not_a_batch(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    code, _, stderr = invoke("compare", str(tmp_path / "a"), str(tmp_path / "b"))
    assert code == 2 and "not a batch folder" in stderr
