"""McNemar's exact test for paired win rates (analysis.stats.paired_exact)."""

from __future__ import annotations

from math import comb

import pytest

from undercroft.analysis.stats import paired_exact


def test_no_discordant_seed_says_nothing() -> None:
    assert paired_exact(0, 0) == 1.0


def test_it_is_the_two_sided_binomial_tail_at_one_half() -> None:
    # 9 of 10 discordant seeds for A: P(X >= 9) + P(X <= 1) with X ~ Bin(10, 1/2).
    tail = sum(comb(10, k) for k in (0, 1, 9, 10)) / 2**10
    assert paired_exact(9, 1) == pytest.approx(tail)
    assert paired_exact(1, 9) == pytest.approx(tail)
    assert paired_exact(5, 5) == pytest.approx(1.0)


def test_a_clear_difference_is_significant_and_a_small_one_is_not() -> None:
    assert paired_exact(40, 10) < 0.01
    assert paired_exact(12, 8) > 0.3
