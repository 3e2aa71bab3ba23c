"""``compare`` pairs the runs of two batches played on the same seeds (issue 31)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from undercroft.analysis.compare import compare, pairing_note
from undercroft.analysis.estimates import Metric
from undercroft.analysis.store import table_path

METRICS = [Metric("won", "rate", "won"), Metric("heroes_dead", "mean", "heroes dead")]


def write_runs(folder: Path, seeds: list[int], won: list[bool], dead: list[int]) -> Path:
    folder.mkdir()
    table = pa.table(
        {
            "run": list(range(len(seeds))),
            "seed": pa.array(seeds, pa.uint64()),
            "won": won,
            "heroes_dead": pa.array(dead, pa.int32()),
            "never": pa.array([None] * len(seeds), pa.int32()),  # a day the Master never fell
        }
    )
    pq.write_table(table, table_path(folder, "runs"))
    return folder


def shifted(tmp_path: Path, seeds_b: list[int]) -> tuple[Path, Path]:
    """A: 40 runs with a wide spread of heroes dead; B: the same runs with one more hero
    dead on 12 of the seeds and one more win on 10: a small change, the same every time."""
    rng = np.random.default_rng(5)
    dead = [int(v) for v in rng.integers(0, 5, 40)]
    won = [bool(v) for v in rng.integers(0, 2, 40)]
    losers = [i for i, w in enumerate(won) if not w][:10]
    won_b = [w or i in losers for i, w in enumerate(won)]
    dead_b = [d + 1 if i < 12 else d for i, d in enumerate(dead)]
    seeds = list(range(1000, 1040))
    return (
        write_runs(tmp_path / "a", seeds, won, dead),
        write_runs(tmp_path / "b", seeds_b, won_b, dead_b),
    )


def test_runs_on_the_same_seeds_are_compared_pair_by_pair(tmp_path: Path) -> None:
    a, b = shifted(tmp_path, list(range(1000, 1040)))
    won, dead = compare(a, b, METRICS)
    assert won.test.test == "McNemar exact (paired)"
    assert dead.test.test == "Wilcoxon signed-rank (paired)"
    # 12 seeds all one way: the signed-rank test's exact p is 2 / 2**12.
    assert dead.test.p < 0.001 and dead.verdict == "differs"
    assert won.test.p == 2 / 2**10 and won.verdict == "differs"
    assert "paired seed by seed" in pairing_note([won, dead])


def test_the_same_numbers_on_other_seeds_are_tested_unpaired(tmp_path: Path) -> None:
    a, b = shifted(tmp_path, list(range(2000, 2040)))
    won, dead = compare(a, b, METRICS)
    assert dead.test.test == "Welch t" and won.test.test in ("two-proportion z", "Fisher exact")
    assert dead.verdict == "no evidence"  # the pairing is what tells the change apart
    assert "independent" in pairing_note([won, dead])


def test_a_metric_no_seed_has_in_both_is_untested(tmp_path: Path) -> None:
    a, b = shifted(tmp_path, list(range(1000, 1040)))
    (row,) = compare(a, b, [Metric("never", "mean", "never set")])
    assert math.isnan(row.test.p) and row.verdict == "–"
