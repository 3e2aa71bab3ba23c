"""What a batch measures: a metric (an outcome column of the ``runs`` table) and its
estimate over the runs, the value types the batch interface, the formats and the reports
share (the lowest of the analysis modules: it imports nothing of undercroft)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Metric:
    """One outcome column of the ``runs`` table, summarised with a confidence interval.

    A ``rate`` is a bool column (the share of runs where it holds, Wilson interval); a
    ``mean`` a number (t interval).
    """

    column: str
    kind: Literal["rate", "mean"]
    label: str
    """What it means, in the game's own words (the summary and report print it)."""


@dataclass(frozen=True)
class Estimate:
    """A metric over a batch: its value and 95% interval (``nan`` where undefined)."""

    value: float
    low: float
    high: float
    n: int
    sd: float = math.nan
    """A mean's sample standard deviation over the runs (``nan`` for a rate)."""
