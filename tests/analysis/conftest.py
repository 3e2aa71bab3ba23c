"""Shared batches for the analysis tests: played once per session through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.analysis_kit import (
    ADVENTURE,
    KEEP_DAYS,
    KEEP_RUNS,
    KEEP_SCENARIO,
    RUNS,
    SEED,
    Played,
    invoke,
)


def play_twice(root: Path, *args: str) -> Played:
    """``undercroft batch ARGS`` with 2 workers and with 1, registered in one catalogue."""
    catalogue = root / "catalogue.duckdb"
    printed = ""
    for workers in ("2", "1"):
        code, stdout, stderr = invoke(
            "batch", *args, "--seed", str(SEED), "--workers", workers,
            "--out", str(root / f"w{workers}"), "--catalogue", str(catalogue),
        )  # fmt: skip
        assert code == 0, stdout + stderr
        printed = printed or stdout
    return Played(root / "w2", root / "w1", catalogue, printed)


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play_twice(tmp_path_factory.mktemp("batches"), "crawl", ADVENTURE, "--runs", str(RUNS))


@pytest.fixture(scope="session")
def keep_played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A small keep batch, with 2 workers and with 1."""
    root = tmp_path_factory.mktemp("keep-batches")
    return play_twice(root, "keep", KEEP_SCENARIO, "--runs", str(KEEP_RUNS),
                      "--days", str(KEEP_DAYS))  # fmt: skip
