"""A played batch summarised: every metric of its ``runs`` table with a 95% interval.

DuckDB reads the Parquet file (aggregates only, so memory stays flat), :mod:`.stats`
gives the intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.stats import mean_interval, wilson
from undercroft.analysis.store import table_path


def quoted(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def runs_query(folder: Path) -> str:
    return f"read_parquet('{str(table_path(folder, 'runs')).replace(chr(39), chr(39) * 2)}')"


def moments(folder: Path, metrics: Sequence[Metric]) -> list[tuple[int, float, float]]:
    """Per metric: n, mean and sample standard deviation over the batch's runs."""
    if not metrics:
        return []
    parts = []
    for m in metrics:
        col = f"CAST({quoted(m.column)} AS DOUBLE)"
        parts.append(f"count({col}), avg({col}), stddev_samp({col})")
    with duckdb.connect() as conn:
        row = conn.execute(f"SELECT {', '.join(parts)} FROM {runs_query(folder)}").fetchone()
    assert row is not None
    out = []
    for i in range(len(metrics)):
        n, mean, sd = row[3 * i : 3 * i + 3]
        out.append(
            (
                int(n),
                math.nan if mean is None else float(mean),
                math.nan if sd is None else float(sd),
            )
        )
    return out


def estimate(metric: Metric, n: int, mean: float, sd: float) -> Estimate:
    if metric.kind == "rate":
        return wilson(round(mean * n) if n else 0, n)
    return mean_interval(mean, sd, n)


def summarise(folder: Path, metrics: Sequence[Metric]) -> list[tuple[Metric, Estimate]]:
    """Every metric with its 95% interval, from the folder's ``runs.parquet``."""
    return [
        (m, estimate(m, *stats)) for m, stats in zip(metrics, moments(folder, metrics), strict=True)
    ]


def summary_json(estimates: Sequence[tuple[Metric, Estimate]]) -> dict[str, Any]:
    """The summary as the catalogue keeps it."""

    def number(x: float) -> float | None:
        return x if math.isfinite(x) else None

    return {
        m.column: {
            "kind": m.kind, "label": m.label, "value": number(e.value), "low": number(e.low),
            "high": number(e.high), "n": e.n,
        }
        for m, e in estimates
    }  # fmt: skip
