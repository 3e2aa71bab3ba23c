"""How batch numbers are written: shares, means, intervals (no heavy imports here, so
commands can print them without loading the plotting and statistics libraries)."""

from __future__ import annotations

import math

from undercroft.analysis.estimates import Estimate, Metric

REPORT = "report.html"
"""The report's file name in a batch, sweep or comparison folder."""


FEW_RUNS = 30
"""Under this many runs an interval is flagged: the approximations behind it are rough,
and a rare event may simply not have come up yet."""


def pct(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{100 * value:.1f}%"


def num(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{value:,.2f}"


def caution(metric: Metric, e: Estimate) -> str:
    """Why an interval deserves doubt: fewer runs than :data:`FEW_RUNS`, or every run
    giving the same value (a share of 0% or 100%, a mean with no spread); '' if neither."""
    notes = []
    if 0 < e.n < FEW_RUNS:
        notes.append(f"only {e.n} runs")
    same = e.value in (0.0, 1.0) if metric.kind == "rate" else e.sd == 0
    if e.n > 1 and same:
        notes.append(f"all {e.n} runs the same")
    return "; ".join(notes)


def shown(metric: Metric, e: Estimate) -> tuple[str, str]:
    """The value and its interval as the summary prints them."""
    fmt = pct if metric.kind == "rate" else num
    interval = "–" if not math.isfinite(e.low) else f"{fmt(e.low)} – {fmt(e.high)}"
    return fmt(e.value), interval
