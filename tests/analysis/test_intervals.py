"""The 95% intervals of a batch stay in their metric's range, and say when they rest on
too little (issue 31)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.formats import FEW_RUNS, caution
from undercroft.analysis.summary import estimate

RATE = Metric("won", "rate", "won")
COUNT = Metric("heroes_dead", "mean", "heroes dead")


def sample_estimate(metric: Metric, values: np.ndarray) -> Estimate:
    """The estimate the summary gives from the runs' moments (as DuckDB computes them)."""
    n = len(values)
    sd = float(values.std(ddof=1)) if n > 1 else math.nan
    return estimate(metric, n, float(values.mean()), sd)


def test_no_interval_leaves_its_metrics_range_over_many_batches() -> None:
    rng = np.random.default_rng(31)
    for _ in range(2000):
        n = int(rng.integers(2, 60))
        rate = rng.random() ** 3  # many rare events, as deaths and traps are
        wins = rng.random(n) < rate
        e = sample_estimate(RATE, wins.astype(float))
        assert 0.0 <= e.low <= e.value <= e.high <= 1.0
        counts = rng.poisson(rng.random() * 2, n).astype(float)
        c = sample_estimate(COUNT, counts)
        assert 0.0 <= c.low <= c.value <= c.high, (counts, c)
        assert c.high > c.low, counts  # never a certain-looking 0.00 - 0.00


def test_none_in_twenty_runs_is_not_certain() -> None:
    rate = sample_estimate(RATE, np.zeros(20))
    assert rate.low == 0.0 and rate.high > 0.1  # Wilson: 0 to 16.1%
    count = sample_estimate(COUNT, np.zeros(20))
    # The exact Poisson interval of 0 events in 20 runs: 0 to -ln(0.025) / 20.
    assert (count.low, count.high) == pytest.approx((0.0, -math.log(0.025) / 20))
    assert caution(RATE, rate) == "only 20 runs; all 20 runs the same"
    assert caution(COUNT, count) == "only 20 runs; all 20 runs the same"


def test_enough_varied_runs_carry_no_caution() -> None:
    varied = np.arange(FEW_RUNS, dtype=float) % 3
    assert caution(COUNT, sample_estimate(COUNT, varied)) == ""
    assert caution(RATE, sample_estimate(RATE, varied == 1)) == ""
    assert caution(COUNT, sample_estimate(COUNT, varied[:-1])) == f"only {FEW_RUNS - 1} runs"
