"""`compare` refuses damaged batch folders and a folder compared with itself, naming the
file and what is wrong (exit 2, no traceback); `--backend dask` refuses an address that
is not one before it tries to connect."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from analysis.analysis_kit import Played, invoke


def truncate(folder: Path) -> None:
    runs = folder / "runs.parquet"
    runs.write_bytes(runs.read_bytes()[:100])


def many_runs(folder: Path) -> None:
    meta = json.loads((folder / "batch.json").read_text())
    (folder / "batch.json").write_text(json.dumps({**meta, "runs": "many"}))


def negative_seed(folder: Path) -> None:
    meta = json.loads((folder / "batch.json").read_text())
    (folder / "batch.json").write_text(json.dumps({**meta, "seed": -1}))


def fewer_runs(folder: Path) -> None:
    meta = json.loads((folder / "batch.json").read_text())
    (folder / "batch.json").write_text(json.dumps({**meta, "runs": meta["runs"] + 1}))


def no_deaths(folder: Path) -> None:
    (folder / "deaths.parquet").unlink()


def not_parquet(folder: Path) -> None:
    (folder / "fights.parquet").write_text("run,fights\n1,2\n")


@pytest.mark.parametrize(
    ("damage", "expect"),
    [
        (truncate, "runs.parquet: not a Parquet file"),
        (many_runs, "field 'runs' is 'many'"),
        (negative_seed, "field 'seed' is -1"),
        (fewer_runs, "rows where batch.json says"),
        (no_deaths, "deaths.parquet: missing"),
        (not_parquet, "fights.parquet: not a Parquet file"),
    ],
)
def test_a_damaged_batch_folder_is_refused_naming_the_file(
    played: Played, tmp_path: Path, damage: Callable[[Path], None], expect: str
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(played.two, broken)
    damage(broken)
    cat = str(tmp_path / "c.duckdb")
    code, stdout, stderr = invoke("compare", str(played.two), str(broken), "--catalogue", cat)
    assert code == 2, stdout
    assert expect in " ".join(stderr.split()) and "Traceback" not in stderr
    assert not (tmp_path / "c.duckdb").exists()


def test_a_folder_compared_with_itself_is_refused(played: Played, tmp_path: Path) -> None:
    cat = str(tmp_path / "c.duckdb")
    for other in (played.two, played.two / ".." / played.two.name):
        code, _, stderr = invoke("compare", str(played.two), str(other), "--catalogue", cat)
        assert code == 2 and "are one folder" in stderr


@pytest.mark.parametrize("address", ["notaurl", "localhost:87x", "tcp://host", "http://:80"])
def test_a_dask_address_that_is_not_one_is_refused(tmp_path: Path, address: str) -> None:
    code, _, stderr = invoke(
        "batch", "crawl", "greyhollow-cellars", "--runs", "2", "--backend", "dask",
        "--address", address, "--out", str(tmp_path / "b"), "--catalogue",
        str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 2 and "not a scheduler address" in stderr and "Traceback" not in stderr
    assert sorted(tmp_path.iterdir()) == []


RAISER = """
class Raiser:
    def act(self, observation):
        raise ValueError("my policy has a bug")


def raiser(seat, rng):
    return Raiser()
"""


def test_a_policy_that_fails_in_a_sweep_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's policy raising in a worker: exit 2 naming the policy, the run, its seed
    and the decision; the sweep's folder, points already played included, is removed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_policies.py").write_text(RAISER)
    code, _, stderr = invoke(
        "sweep", "crawl", "greyhollow-cellars", "--runs", "2", "--workers", "2",
        "--set", "options.surprise_turns=1,2", "--policy", "my_policies:raiser",
        "--out", "s1", "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    flat = " ".join(stderr.split())
    assert code == 2 and "Traceback" not in stderr
    assert "run 0 (seed" in flat and "'my_policies:raiser' failed in act() at the" in flat
    assert "decision of turn 1: ValueError: my policy has a bug" in flat
    assert not (tmp_path / "s1").exists()
