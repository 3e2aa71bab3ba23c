"""How batch numbers are written: shares, means, intervals (no heavy imports here, so
commands can print them without loading the plotting and statistics libraries)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from undercroft.analysis.plugin import Metric

REPORT = "report.html"
"""The report's file name in a batch, sweep or comparison folder."""


@dataclass(frozen=True)
class Estimate:
    """A metric over a batch: its value and 95% interval (``nan`` where undefined)."""

    value: float
    low: float
    high: float
    n: int



def pct(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{100 * value:.1f}%"


def num(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{value:,.2f}"


def shown(metric: Metric, e: Estimate) -> tuple[str, str]:
    """The value and its interval as the summary prints them."""
    fmt = pct if metric.kind == "rate" else num
    interval = "–" if not math.isfinite(e.low) else f"{fmt(e.low)} – {fmt(e.high)}"
    return fmt(e.value), interval
