"""Two batches side by side: is the change real or noise, and how many runs would tell?

For every metric the two batches share, a test of the difference (:mod:`.stats`), its p-value,
the p-value after Holm's adjustment for testing every metric at once, and the runs per
batch that would detect the observed difference at the 95% level with 80% power. The
verdict ``differs`` needs the adjusted p-value under 0.05. What differs between the two
batches (their settings, party, policies) is listed first.

Which test: when the two batches played the same seeds (every seed of one is a seed of
the other, as the points of a sweep or two batches with the same ``--seed`` and
``--runs``), run ``i`` of A and the run of B on the same seed are a pair: they share
their luck up to the first roll the change touches. The tests then use the pairs
(McNemar's exact test for a rate, the Wilcoxon signed-rank test of the per-seed
differences for a mean), which see differences the unpaired tests drown in that shared
luck. Otherwise the runs are independent and the tests unpaired (Fisher's exact or the
two-proportion z test for a rate, Welch's t test for a mean). The ``test`` column names
the test each metric had.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from undercroft.analysis import plots
from undercroft.analysis.estimates import Metric
from undercroft.analysis.formats import pct
from undercroft.analysis.report import esc, figure, page, table
from undercroft.analysis.stats import (
    Test,
    compare_means,
    compare_paired_means,
    compare_paired_rates,
    compare_rates,
    holm,
)
from undercroft.analysis.summary import moments, quoted, runs_query
from undercroft.core.files import write_text_atomic


@dataclass(frozen=True)
class Row:
    metric: Metric
    test: Test
    adjusted: float

    @property
    def verdict(self) -> str:
        if not math.isfinite(self.adjusted):
            return "–"
        return "differs" if self.adjusted < 0.05 else "no evidence"


def same_seeds(a: Path, b: Path) -> bool:
    """Whether the batches in ``a`` and ``b`` played the same seeds, each once."""
    with duckdb.connect() as conn:
        row = conn.execute(
            f"SELECT (SELECT count(*) FROM {runs_query(a)}), "
            f"(SELECT count(DISTINCT seed) FROM {runs_query(a)}), "
            f"(SELECT count(*) FROM {runs_query(b)}), "
            f"(SELECT count(*) FROM {runs_query(a)} x JOIN {runs_query(b)} y USING (seed))"
        ).fetchone()
    assert row is not None
    runs_a, seeds_a, runs_b, matched = (int(v) for v in row)
    return runs_a > 0 and runs_a == seeds_a == runs_b == matched


def pairs(a: Path, b: Path, metric: Metric) -> tuple[list[float], list[float]]:
    """The metric's values in A and B, seed by seed (the seeds where both have one)."""
    col = f"CAST({{}}.{quoted(metric.column)} AS DOUBLE)"
    x, y = col.format("x"), col.format("y")
    with duckdb.connect() as conn:
        rows = conn.execute(
            f"SELECT {x}, {y} FROM {runs_query(a)} x JOIN {runs_query(b)} y USING (seed) "
            f"WHERE {x} IS NOT NULL AND {y} IS NOT NULL ORDER BY seed"
        ).fetchall()
    return [float(r[0]) for r in rows], [float(r[1]) for r in rows]


def compare(a: Path, b: Path, metrics: Sequence[Metric]) -> list[Row]:
    """The tests of every metric between the batches in folders ``a`` and ``b``: paired
    when they played the same seeds, else unpaired."""
    tests = []
    if same_seeds(a, b):
        for metric in metrics:
            va, vb = pairs(a, b, metric)
            if metric.kind == "rate":
                tests.append(compare_paired_rates([v == 1 for v in va], [v == 1 for v in vb]))
            else:
                tests.append(compare_paired_means(va, vb))
    else:
        in_a, in_b = moments(a, metrics), moments(b, metrics)
        for metric, (n1, m1, s1), (n2, m2, s2) in zip(metrics, in_a, in_b, strict=True):
            if metric.kind == "rate":
                tests.append(compare_rates(round(m1 * n1), n1, round(m2 * n2), n2))
            else:
                tests.append(compare_means(m1, s1, n1, m2, s2, n2))
    adjusted = holm([t.p for t in tests])
    return [Row(m, t, q) for m, t, q in zip(metrics, tests, adjusted, strict=True)]


def paired(rows: Sequence[Row]) -> bool:
    return any("paired" in r.test.test for r in rows)


def pairing_note(rows: Sequence[Row]) -> str:
    """Which tests ran, in a sentence (the command and the report print it)."""
    if paired(rows):
        return (
            "Both batches played the same seeds, so their runs are paired seed by seed: "
            "McNemar's exact test for rates, the Wilcoxon signed-rank test of the per-seed "
            "differences for means; runs needed counts seeds played by both."
        )
    return (
        "The batches played different seeds, so their runs are independent: Fisher's exact "
        "or the two-proportion z test for rates, Welch's t test for means."
    )


def fmt(metric: Metric, value: float, signed: bool = False) -> str:
    if not math.isfinite(value):
        return "–"
    if metric.kind == "rate":
        return f"{100 * value:+.1f} pts" if signed else pct(value)
    return f"{value:+,.2f}" if signed else f"{value:,.2f}"


def p_text(p: float) -> str:
    if not math.isfinite(p):
        return "–"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def needed_text(n: float) -> str:
    if math.isinf(n):
        return "no difference"
    return "–" if not math.isfinite(n) else f"{int(n):,}"


def cells(row: Row) -> list[str]:
    t, m = row.test, row.metric
    return [
        m.column,
        fmt(m, t.a.value),
        fmt(m, t.b.value),
        fmt(m, t.difference, signed=True),
        t.test,
        p_text(t.p),
        p_text(row.adjusted),
        row.verdict,
        needed_text(t.needed),
    ]


HEADERS = ("metric", "A", "B", "B - A", "test", "p", "p (Holm)", "verdict", "runs needed")


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """What the two batches' descriptions disagree on: (field, A, B)."""

    def text(value: Any) -> str:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value) or "none"
        return "–" if value is None else str(value)

    keys = list(dict.fromkeys([*a, *b]))
    return [(k, text(a.get(k)), text(b.get(k))) for k in keys if a.get(k) != b.get(k)]


def summary_json(rows: Sequence[Row]) -> dict[str, Any]:
    return {
        r.metric.column: {
            "a": r.test.a.value,
            "b": r.test.b.value,
            "difference": r.test.difference,
            "test": r.test.test,
            "paired": "paired" in r.test.test,
            "p": r.test.p,
            "p_holm": r.adjusted,
            "needed": None if not math.isfinite(r.test.needed) else r.test.needed,
        }
        for r in rows
    }


def headline(rows: Sequence[Row], runs: tuple[int, int]) -> str:
    """The comparison in a sentence: which metrics differ, by how much, or that none does."""
    kind = "paired" if paired(rows) else "unpaired"
    tested = [r for r in rows if math.isfinite(r.adjusted)]
    differ = sorted((r for r in tested if r.verdict == "differs"), key=lambda r: r.adjusted)
    where = f"{runs[0]:,} runs of A against {runs[1]:,} of B, {kind} tests"
    if not differ:
        return (
            f"No metric differs between A and B at 95% after Holm's adjustment "
            f"({len(tested)} metrics, {where})."
        )
    shown = ", ".join(
        f"{r.metric.column} {fmt(r.metric, r.test.difference, signed=True)} "
        f"(p {p_text(r.adjusted)})"
        for r in differ[:3]
    )
    more = f" and {len(differ) - 3} more" if len(differ) > 3 else ""
    return f"B differs from A on {len(differ)} of {len(tested)} metrics ({where}): {shown}{more}."


def write_report(
    folder: Path,
    a: Path,
    b: Path,
    rows: Sequence[Row],
    diff: Sequence[tuple[str, str, str]],
    runs: tuple[int, int],
) -> Path:
    rates = [r for r in rows if r.metric.kind == "rate"]
    chart = plots.paired_bars(
        [r.metric.column for r in rates],
        [(r.test.a.value, r.test.a.low, r.test.a.high) for r in rates],
        [(r.test.b.value, r.test.b.low, r.test.b.high) for r in rates],
        title="Rates of A and B with their 95% intervals",
    )
    parts = [
        "<h1>Comparison</h1>",
        f'<p class="lead">{esc(headline(rows, runs))}</p>',
        table(("", "folder", "runs"), [("A", a, runs[0]), ("B", b, runs[1])]),
        "<h2>What differs</h2>",
        table(("", "A", "B"), diff) if diff else "<p>Nothing in their descriptions.</p>",
        "<h2>Tests</h2>",
        table(HEADERS, [cells(r) for r in rows]),
        f'<p class="note">Two-sided tests at 95%. {esc(pairing_note(rows))} The '
        "<i>test</i> column names each metric's. <i>p (Holm)</i> is adjusted for testing every "
        "metric at once; <i>differs</i> needs it under 0.05. <i>Runs needed</i>: runs per "
        "batch to detect the observed difference with 80% power.</p>",
        figure(chart) if rates else "",
    ]
    path = folder / "report.html"
    write_text_atomic(path, page("comparison", parts))
    return path


__all__ = [
    "HEADERS", "Row", "cells", "compare", "differences", "esc", "pairing_note", "write_report",
]  # fmt: skip
