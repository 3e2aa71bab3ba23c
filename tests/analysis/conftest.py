"""Shared batches for the analysis tests: played once per session through the CLI."""

from __future__ import annotations

import pytest

from analysis.analysis_kit import ADVENTURE, RUNS, SEED, Played, invoke


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("batches")
    catalogue = root / "catalogue.duckdb"
    printed = ""
    for workers in ("2", "1"):
        code, stdout, stderr = invoke(
            "batch", "crawl", ADVENTURE, "--runs", str(RUNS), "--seed", str(SEED),
            "--workers", workers, "--out", str(root / f"w{workers}"),
            "--catalogue", str(catalogue),
        )  # fmt: skip
        assert code == 0, stdout + stderr
        printed = printed or stdout
    return Played(root / "w2", root / "w1", catalogue, printed)
