"""The Dask backend: a local scheduler and two workers on 127.0.0.1 give the same rows as
local processes, for crawl and for keep batches."""

from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import (
    ADVENTURE,
    KEEP_DAYS,
    KEEP_RUNS,
    KEEP_SCENARIO,
    SEED,
    Played,
    invoke,
)

distributed = pytest.importorskip("distributed", reason="needs undercroft[cluster] (Dask)")

TABLES = ("runs", "deaths", "fights", "rolls", "squares")
RUNS = 6


def on_dask(tmp_path: Path, *batch: str) -> Path:
    """Play ``undercroft batch ...`` on a local scheduler with two worker processes; the
    batch folder (checked to say it ran on Dask)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=40,
    ) as cluster:  # fmt: skip
        out = tmp_path / "dask"
        code, stdout, stderr = invoke(
            "batch", *batch, "--seed", str(SEED),
            "--backend", "dask", "--address", cluster.scheduler_address,
            "--out", str(out), "--catalogue", str(tmp_path / "c.duckdb"),
        )  # fmt: skip
    assert code == 0, stdout + stderr
    assert "Dask at tcp://127.0.0.1" in (out / "batch.json").read_text()
    return out


def test_a_dask_cluster_plays_the_same_rows_as_local_processes(
    played: Played, tmp_path: Path
) -> None:
    out = on_dask(tmp_path, "crawl", ADVENTURE, "--runs", str(RUNS))
    for table in TABLES:
        local = pq.read_table(played.two / f"{table}.parquet")
        # Run i's seed does not depend on the batch size: the first runs are the same games.
        local = local.filter(pc.less(local["run"], RUNS))
        assert pq.read_table(out / f"{table}.parquet").equals(local), table


KEEP_TABLES = ("runs", "invasions", "traps", "doors", "squares")


def test_a_dask_cluster_plays_the_same_keep_rows_as_local_processes(
    keep_played: Played, tmp_path: Path
) -> None:
    out = on_dask(
        tmp_path, "keep", KEEP_SCENARIO, "--runs", str(KEEP_RUNS), "--days", str(KEEP_DAYS)
    )
    for table in KEEP_TABLES:
        local = pq.read_table(keep_played.two / f"{table}.parquet")
        assert pq.read_table(out / f"{table}.parquet").equals(local), table
        assert local.num_rows > 0, table


def test_no_scheduler_at_the_address_is_a_clear_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from undercroft.analysis import backends

    monkeypatch.setattr(backends, "CONNECT_SECONDS", 1.0)
    code, _, stderr = invoke(
        "batch", "crawl", ADVENTURE, "--runs", "2", "--backend", "dask",
        "--address", "tcp://127.0.0.1:9", "--out", str(tmp_path / "o"),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 2 and "no Dask scheduler answered" in stderr
    assert not (tmp_path / "o").exists()
