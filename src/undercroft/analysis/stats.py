"""Confidence intervals, tests and sample sizes for batch metrics (scipy underneath).

* A rate (the share of runs where something holds) gets a Wilson score interval, good
  at 0% and 100% and for small batches.
* A mean gets a Student t interval (mean +- t * s / sqrt(n)); a batch's mean metrics are
  counts, days, minutes or hours, never below 0, so :func:`mean_interval` cuts that
  interval at 0 (the true mean cannot lie below, so the coverage is unchanged) and, when
  every run gave the same whole number, gives the exact Poisson interval of the total
  instead of the certain-looking ``c - c`` of a sample with no spread.
* :func:`.formats.caution` flags an interval that rests on few runs or on runs that all
  gave the same value.
* Comparing two batches: a rate by the two-proportion z test, or Fisher's exact test
  when a cell of the 2x2 table expects fewer than 5 runs; a mean by Welch's t test
  (no equal variances assumed). Two-sided, 95% level.
* Comparing two batches played on the same seeds (run for run, as the points of a sweep
  are): the runs are paired, and the tests use the pairs: McNemar's exact test for a
  rate (:func:`paired_exact`), the Wilcoxon signed-rank test of the per-seed differences
  for a mean (:func:`compare_paired_means`). Pairing removes the luck the two runs of a
  seed share, so it tells smaller differences from noise.
* The runs per batch needed to tell the observed difference from noise at that level
  with 80% power (normal approximation; infinite when the batches do not differ; for
  paired runs, from the spread of the differences).
* Holm's step-down adjustment of a family of p-values, for a table that tests many
  metrics at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from undercroft.analysis.estimates import Estimate as Estimate

LEVEL = 0.95
ALPHA = 1 - LEVEL
POWER = 0.80


@dataclass(frozen=True)
class Test:
    """Two batches compared on one metric."""

    a: Estimate
    b: Estimate
    difference: float
    """b - a."""
    p: float
    test: str
    needed: float
    """Runs per batch to detect ``difference`` at 95% with 80% power (``inf``: no difference)."""


def wilson(successes: int, n: int, level: float = LEVEL) -> Estimate:
    """The share ``successes / n`` with its Wilson score interval."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = float(stats.norm.ppf(1 - (1 - level) / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # No success (or no failure) puts the bound exactly at 0 (or 1), not a rounding away.
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == n else min(1.0, max(p, centre + half))
    return Estimate(p, low, high, n)


def t_interval(mean: float, sd: float, n: int, level: float = LEVEL) -> Estimate:
    """A mean with its Student t interval (``sd`` the sample standard deviation)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    if n == 1 or not math.isfinite(sd):
        return Estimate(mean, math.nan, math.nan, n)
    half = float(stats.t.ppf(1 - (1 - level) / 2, n - 1)) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def mean_interval(mean: float, sd: float, n: int, level: float = LEVEL) -> Estimate:
    """The mean of values never below 0 (counts, days, minutes) with a 95% interval that
    stays in range: the Student t interval cut at 0; when every run gave the same whole
    number ``c`` (``sd`` 0), the exact (Garwood) Poisson interval of the total ``n * c``
    over ``n`` runs, so 0 events in 20 runs reads 0 to 0.18, not a certain 0 to 0."""
    if n == 0 or not math.isfinite(mean):
        return Estimate(math.nan, math.nan, math.nan, n)
    total = mean * n
    if (n == 1 or sd == 0) and abs(total - round(total)) < 1e-9:
        k = round(total)
        low = float(stats.chi2.ppf((1 - level) / 2, 2 * k)) / (2 * n) if k else 0.0
        high = float(stats.chi2.ppf(1 - (1 - level) / 2, 2 * k + 2)) / (2 * n)
        return Estimate(mean, low, high, n, sd)
    t = t_interval(mean, sd, n, level)
    if not math.isfinite(t.low):
        return Estimate(mean, t.low, t.high, n, sd)
    return Estimate(mean, max(0.0, t.low), t.high, n, sd)


def compare_rates(k1: int, n1: int, k2: int, n2: int) -> Test:
    """Two rates: the z test of two proportions, Fisher's exact test for small counts."""
    a, b = wilson(k1, n1), wilson(k2, n2)
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    pooled = (k1 + k2) / (n1 + n2) if n1 + n2 else math.nan
    expected = [n * q for n in (n1, n2) for q in (pooled, 1 - pooled)]
    if min(expected, default=0) < 5:
        p = float(stats.fisher_exact(table).pvalue)
        name = "Fisher exact"
    else:
        se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        z = (k2 / n2 - k1 / n1) / se if se > 0 else 0.0
        p = float(2 * stats.norm.sf(abs(z)))
        name = "two-proportion z"
    return Test(a, b, b.value - a.value, p, name, needed_rates(a.value, b.value))


def compare_means(m1: float, s1: float, n1: int, m2: float, s2: float, n2: int) -> Test:
    """Two means by Welch's t test (from each batch's mean, sample sd and size)."""
    a, b = mean_interval(m1, s1, n1), mean_interval(m2, s2, n2)
    if n1 < 2 or n2 < 2:
        return Test(a, b, m2 - m1, math.nan, "Welch t", math.nan)
    if s1 == 0 and s2 == 0:
        p = 1.0 if m1 == m2 else 0.0
    else:
        result = stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, equal_var=False)
        p = float(result.pvalue)
    return Test(a, b, m2 - m1, p, "Welch t", needed_means(m2 - m1, s1, s2))


def _z(alpha: float = ALPHA, power: float = POWER) -> tuple[float, float]:
    return float(stats.norm.ppf(1 - alpha / 2)), float(stats.norm.ppf(power))


def needed_rates(p1: float, p2: float) -> float:
    """Runs per batch to detect rates ``p1`` vs ``p2`` (two-sided 95%, power 80%)."""
    if not (math.isfinite(p1) and math.isfinite(p2)) or p1 == p2:
        return math.inf
    za, zb = _z()
    bar = (p1 + p2) / 2
    top = za * math.sqrt(2 * bar * (1 - bar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(top * top / (p1 - p2) ** 2)


def needed_means(difference: float, s1: float, s2: float) -> float:
    """Runs per batch to detect a difference of means (two-sided 95%, power 80%)."""
    if difference == 0 or not math.isfinite(difference):
        return math.inf
    za, zb = _z()
    return math.ceil((za + zb) ** 2 * (s1 * s1 + s2 * s2) / difference**2)


def paired_exact(only_a: int, only_b: int) -> float:
    """McNemar's exact test for paired wins: two runs on the same seeds, ``only_a`` seeds
    won by A alone and ``only_b`` by B alone (the seeds both or neither won say nothing
    of the difference). Two-sided binomial test of ``only_a`` in ``only_a + only_b`` at
    1/2; 1.0 when no seed differs."""
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    return float(stats.binomtest(only_a, discordant, 0.5).pvalue)


def compare_paired_rates(a: Sequence[bool], b: Sequence[bool]) -> Test:
    """Two rates over the same seeds (``a[i]`` and ``b[i]`` the runs of one seed): McNemar's
    exact test on the seeds where they differ."""
    n = len(a)
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    ea, eb = wilson(sum(map(bool, a)), n), wilson(sum(map(bool, b)), n)
    return Test(
        ea, eb, eb.value - ea.value, paired_exact(only_a, only_b), "McNemar exact (paired)",
        needed_paired_rates(only_a / n if n else math.nan, only_b / n if n else math.nan),
    )  # fmt: skip


def compare_paired_means(a: Sequence[float], b: Sequence[float]) -> Test:
    """Two means over the same seeds: the Wilcoxon signed-rank test of the differences
    ``b[i] - a[i]`` (the seeds with no difference left out, Wilcoxon's own rule; p 1 when
    no seed differs)."""
    n = len(a)
    name = "Wilcoxon signed-rank (paired)"
    if n == 0:  # no seed where both batches have a value (a day the Master never fell)
        empty = Estimate(math.nan, math.nan, math.nan, 0)
        return Test(empty, empty, math.nan, math.nan, name, math.nan)
    xa, xb = np.array(a, dtype=float), np.array(b, dtype=float)
    diff = xb - xa
    sa, sb = _sd(xa), _sd(xb)
    ea, eb = mean_interval(float(xa.mean()), sa, n), mean_interval(float(xb.mean()), sb, n)
    differs = bool(np.any(diff))
    p = float(stats.wilcoxon(diff, zero_method="wilcox").pvalue) if differs else 1.0
    mean_diff = float(diff.mean())
    return Test(ea, eb, mean_diff, p, name, needed_paired_means(mean_diff, _sd(diff)))


def _sd(values: np.ndarray[Any, np.dtype[np.float64]]) -> float:
    return float(values.std(ddof=1)) if len(values) > 1 else math.nan


def needed_paired_rates(only_a: float, only_b: float) -> float:
    """Seeds needed to detect a paired difference of rates, from the shares of seeds won
    by A alone and B alone (Connor's normal approximation to McNemar's test)."""
    if not (math.isfinite(only_a) and math.isfinite(only_b)) or only_a == only_b:
        return math.inf
    za, zb = _z()
    discordant, difference = only_a + only_b, only_b - only_a
    top = za * math.sqrt(discordant) + zb * math.sqrt(discordant - difference**2)
    return math.ceil(top * top / difference**2)


def needed_paired_means(difference: float, sd: float) -> float:
    """Seeds needed to detect a mean per-seed difference (its sd ``sd``)."""
    if difference == 0 or not math.isfinite(difference) or not math.isfinite(sd):
        return math.inf
    za, zb = _z()
    return math.ceil((za + zb) ** 2 * sd * sd / difference**2)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given (``nan`` stays ``nan``)."""
    indexed = sorted((p, i) for i, p in enumerate(p_values) if math.isfinite(p))
    m = len(indexed)
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(indexed):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted
