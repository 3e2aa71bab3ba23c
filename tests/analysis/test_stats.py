"""The statistics of batch summaries and comparisons, against scipy and textbook numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sp

from undercroft.analysis.stats import (
    compare_means,
    compare_rates,
    holm,
    needed_means,
    needed_rates,
    t_interval,
    wilson,
)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (50, 100), (697, 1000), (10, 10)])
def test_wilson_is_scipys_wilson_interval(k: int, n: int) -> None:
    ours = wilson(k, n)
    theirs = sp.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert ours.value == k / n
    assert ours.low == pytest.approx(theirs.low, abs=1e-12)
    assert ours.high == pytest.approx(theirs.high, abs=1e-12)


def test_t_interval_is_scipys() -> None:
    data = np.array([3.0, 5.0, 4.0, 9.0, 2.0, 6.0])
    ours = t_interval(float(data.mean()), float(data.std(ddof=1)), len(data))
    low, high = sp.t.interval(0.95, len(data) - 1, loc=data.mean(), scale=sp.sem(data))
    assert (ours.low, ours.high) == pytest.approx((low, high))
    assert math.isnan(t_interval(4.0, math.nan, 1).low)


def test_two_rates_by_the_z_test_and_small_counts_by_fisher() -> None:
    test = compare_rates(520, 1000, 580, 1000)
    pooled = 1100 / 2000
    z = 0.06 / math.sqrt(pooled * (1 - pooled) * 2 / 1000)
    assert test.test == "two-proportion z"
    assert test.p == pytest.approx(math.erfc(z / math.sqrt(2)))
    small = compare_rates(1, 10, 6, 10)
    assert small.test == "Fisher exact"
    assert small.p == pytest.approx(sp.fisher_exact([[1, 9], [6, 4]]).pvalue)


def test_two_means_by_welch() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.normal(10, 2, 80), rng.normal(11, 3, 60)
    test = compare_means(a.mean(), a.std(ddof=1), 80, b.mean(), b.std(ddof=1), 60)
    assert test.p == pytest.approx(sp.ttest_ind(a, b, equal_var=False).pvalue)
    assert test.difference == pytest.approx(b.mean() - a.mean())


def test_runs_needed_at_80_percent_power() -> None:
    # Fleiss' normal approximation without continuity correction: 387.3 -> 388 a group.
    assert needed_rates(0.5, 0.6) == 388
    assert needed_means(1.0, 2.0, 2.0) == 63  # (1.96 + 0.84)^2 * 8
    assert needed_rates(0.4, 0.4) == math.inf


def test_holm() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert math.isnan(holm([math.nan, 0.2])[0])


def test_a_wilson_interval_covers_the_truth_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(11)
    hits = sum(
        wilson(int(k), 200).low <= 0.3 <= wilson(int(k), 200).high
        for k in rng.binomial(200, 0.3, size=2000)
    )
    assert 0.93 <= hits / 2000 <= 0.97
