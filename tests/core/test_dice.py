"""Exact dice distributions, chance nodes and the seeded sampler."""

from __future__ import annotations

import copy
import itertools
import pickle
from fractions import Fraction

import icepool
import numpy as np
import pytest

from undercroft.core.dice import (
    Band,
    D6Table,
    DiceSampler,
    derive_seed,
    nds,
    opposed,
    outcomes,
    probability,
    roll_event,
)


def brute_force_beats(mod_a: int, mod_b: int) -> Fraction:
    """P(2d6 + mod_a > 2d6 + mod_b) by listing all 1296 rolls: an independent count."""
    wins = sum(
        1
        for a1, a2, b1, b2 in itertools.product(range(1, 7), repeat=4)
        if a1 + a2 + mod_a > b1 + b2 + mod_b
    )
    return Fraction(wins, 6**4)


def test_two_d6_plus_3_beats_two_d6_plus_1_exactly() -> None:
    result = opposed(nds(2, 6, modifier=3), nds(2, 6, modifier=1))
    assert result.first == Fraction(287, 432)
    assert result.first == brute_force_beats(3, 1)
    oracle = ((2 @ icepool.d6 + 3) > (2 @ icepool.d6 + 1)).probability(True)
    assert result.first == oracle
    assert result.first + result.tie + result.second == 1


@pytest.mark.parametrize(("a", "b"), [(0, 0), (1, 0), (4, 2), (0, 5)])
def test_opposed_rolls_against_icepool(a: int, b: int) -> None:
    result = opposed(nds(2, 6, modifier=a), nds(2, 6, modifier=b))
    assert result.first == ((2 @ icepool.d6 + a) > (2 @ icepool.d6 + b)).probability(True)
    assert result.tie == ((2 @ icepool.d6 + a) == (2 @ icepool.d6 + b)).probability(True)


def test_nds_distribution() -> None:
    two = nds(2)
    assert two[7] == Fraction(1, 6) and two[2] == Fraction(1, 36) and sum(two.values()) == 1
    assert nds(3, 6)[10] == Fraction(27, 216)
    assert nds(0, 6, modifier=4) == {4: Fraction(1)}
    assert probability(nds(1, 20), lambda t: t >= 15) == Fraction(6, 20)
    with pytest.raises(ValueError):
        nds(-1)


def test_chance_node_lists_every_ordered_roll() -> None:
    node = outcomes(2, 6)
    assert len(node) == 36
    assert {o.probability for o in node} == {Fraction(1, 36)}
    assert sum(o.probability for o in node) == 1
    assert (1, 2) in {o.natural for o in node} and (2, 1) in {o.natural for o in node}


DOOR = D6Table("C-DOOR-01", (Band(1, 2, "jammed"), Band(3, 4, "stuck"), Band(5, 6, "opened")))


def test_table_distribution_clamps_modified_totals() -> None:
    assert DOOR.distribution(0) == {w: Fraction(1, 3) for w in ("jammed", "stuck", "opened")}
    plus = DOOR.distribution(1)
    assert plus == {"jammed": Fraction(1, 6), "stuck": Fraction(1, 3), "opened": Fraction(1, 2)}
    assert plus["opened"] == (icepool.d6 + 1 >= 5).probability(True)
    assert DOOR.outcome(0) == "jammed" and DOOR.outcome(9) == "opened"
    with pytest.raises(ValueError, match="consecutive"):
        D6Table("X", (Band(1, 2, "a"), Band(4, 6, "b")))


def test_sampler_is_reproducible_and_seed_dependent() -> None:
    a, b = DiceSampler(42), DiceSampler(42)
    first = [a.die() for _ in range(2000)]
    assert first == [b.die() for _ in range(2000)]
    assert first != [DiceSampler(43).die() for _ in range(2000)]


def test_sampler_faces_are_uniform() -> None:
    sampler = DiceSampler(2026)
    n = 60_000
    counts = np.bincount([sampler.die(6) for _ in range(n)], minlength=7)[1:]
    expected = n / 6
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001
    hits = sum(sampler.chance(0.3) for _ in range(n))
    assert abs(hits / n - 0.3) < 0.01  # about 5.3 standard deviations


def test_sampling_a_chance_node_follows_its_probabilities() -> None:
    sampler = DiceSampler(5)
    node = outcomes(1, 6)
    draws = [sampler.sample(node).total for _ in range(30_000)]
    share = draws.count(6) / len(draws)
    assert abs(share - 1 / 6) < 0.012


def test_sampler_state_round_trips_mid_stream() -> None:
    sampler = DiceSampler(9)
    for _ in range(777):
        sampler.die()
    saved = sampler.state()
    restored = DiceSampler.from_state(9, saved)
    assert [sampler.die(20) for _ in range(3000)] == [restored.die(20) for _ in range(3000)]


def test_derived_seeds_match_numpy_spawn_and_differ() -> None:
    children = np.random.SeedSequence(100).spawn(5)
    for i, child in enumerate(children):
        assert derive_seed(100, i) == int(child.generate_state(2, np.uint64)[0])
    assert len({derive_seed(100, i) for i in range(1000)}) == 1000


def test_roll_event_has_the_contract_fields() -> None:
    event = roll_event(
        ["C-DOOR-01", "C-DOOR-02"], "hero:brenna", [4], "opened", modifiers={"Strong": 1}
    )
    assert event.type == "roll"
    assert dict(event.fields) == {
        "actor": "hero:brenna",
        "dice": "1d6",
        "natural": [4],
        "modifiers": {"Strong": 1},
        "total": 5,
        "outcome": "opened",
    }


def test_a_pickled_or_copied_sampler_goes_on_with_the_same_stream() -> None:
    # Compiled, the stream's fields live outside the instance's __dict__: the sampler
    # pickles its state instead, so a copy for search or another process draws the same.
    sampler = DiceSampler(7)
    sampler.roll(3)
    sampler.note = "kept"  # type: ignore[attr-defined]
    copies = [pickle.loads(pickle.dumps(sampler)), copy.deepcopy(sampler)]
    expected = [sampler.die() for _ in range(300)]
    for other in copies:
        assert type(other) is DiceSampler
        assert other.note == "kept"  # type: ignore[attr-defined]
        assert [other.die() for _ in range(300)] == expected


def test_a_sampler_can_be_subclassed_and_patched() -> None:
    # Tests and runners script dice: an override of ``die`` is what ``roll`` uses, and
    # one sampler's method can be replaced, compiled or not.
    class Sixes(DiceSampler):
        def die(self, sides: int = 6) -> int:
            return sides

    assert Sixes(1).roll(3) == (6, 6, 6)
    sampler = DiceSampler(3)
    sampler.chance = lambda p: True  # type: ignore[method-assign]
    assert sampler.chance(0.0)
    assert DiceSampler(3).chance(0.0) is False
