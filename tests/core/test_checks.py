"""The keep dice model (R-K-DICE-01): exact probabilities and the sampled rolls agree."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from undercroft.core.checks import DiceModel, DiceModelError, Grade
from undercroft.core.dice import DiceSampler

MODEL = DiceModel()


def count_success(attribute: int, target: int, bonus: int = 0) -> Fraction:
    """An independent count over the twenty faces: 1 fails, 20 succeeds, else the total."""
    hits = 0
    for natural in range(1, 21):
        if natural == 20 or (natural != 1 and natural + 2 * attribute + bonus >= target):
            hits += 1
    return Fraction(hits, 20)


@pytest.mark.rule("R-K-DICE-01")
@pytest.mark.parametrize(
    ("attribute", "target", "bonus"),
    [(0, 10, 0), (3, 15, 0), (5, 30, 0), (10, 2, 0), (4, 21, -2), (0, 40, 0), (10, -5, 0)],
)
def test_check_probability_matches_an_independent_count(
    attribute: int, target: int, bonus: int
) -> None:
    expected = count_success(attribute, target, bonus)
    assert MODEL.p_success(attribute, target, {"quality": bonus}) == expected


@pytest.mark.rule("R-K-DICE-01")
def test_check_probability_against_icepool() -> None:
    # Without the bands, d20 + 6 >= 15 is 12/20; the bands change nothing at this target.
    assert (icepool.d20 + 6 >= 15).probability(True) == Fraction(12, 20)
    assert MODEL.p_success(3, 15) == Fraction(3, 5)
    # A target out of reach still succeeds on the critical, a trivial one fails on the fumble.
    assert MODEL.p_success(0, 99) == Fraction(1, 20)
    assert MODEL.p_success(10, -99) == Fraction(19, 20)
    assert MODEL.p_fumble() == Fraction(1, 20)


def count_opposed(a_attr: int, d_attr: int) -> Fraction:
    wins = 0
    for an in range(1, 21):
        for dn in range(1, 21):
            at, dt = an + 2 * a_attr, dn + 2 * d_attr
            if (an == 20) != (dn == 20):
                wins += an == 20
            elif (an == 1) != (dn == 1):
                wins += dn == 1
            else:
                wins += at > dt
    return Fraction(wins, 400)


@pytest.mark.rule("R-K-DICE-01")
@pytest.mark.parametrize(("a", "d"), [(0, 0), (3, 3), (5, 2), (0, 10), (10, 0)])
def test_opposed_check_ties_go_to_the_defender(a: int, d: int) -> None:
    assert MODEL.p_opposed(a, d) == count_opposed(a, d)
    # Equal sides: the defender's ties make the attacker's chance below one half.
    if a == d:
        assert MODEL.p_opposed(a, d) < Fraction(1, 2)
        attacker_ties = DiceModel(ties="attacker")
        assert MODEL.p_opposed(a, d) + attacker_ties.p_opposed(d, a) == 1


@pytest.mark.rule("R-K-DICE-01", "K-BUILD-01")
def test_grade_bands_from_the_builders_roll() -> None:
    assert MODEL.grade_of(1, 40) is Grade.MEDIOCRE  # a fumble whatever the total
    assert MODEL.grade_of(2, 14) is Grade.MEDIOCRE
    assert MODEL.grade_of(5, 15) is Grade.NORMAL
    assert MODEL.grade_of(5, 24) is Grade.GOOD
    assert MODEL.grade_of(5, 25) is Grade.EXCELLENT
    assert MODEL.grade_of(18, 30) is Grade.MASTERWORK
    # Craft 4 adds 8: naturals 2-6 Mediocre, 7-11 Normal, 12-16 Good, 17-20 Excellent.
    dist = MODEL.grade_distribution(4)
    assert dist == {
        Grade.MEDIOCRE: Fraction(6, 20),
        Grade.NORMAL: Fraction(5, 20),
        Grade.GOOD: Fraction(5, 20),
        Grade.EXCELLENT: Fraction(4, 20),
        Grade.MASTERWORK: Fraction(0),
    }
    assert [MODEL.grade_value(g) for g in Grade] == [-2, 0, 2, 4, 6]


@pytest.mark.rule("R-K-DICE-01")
def test_sampled_checks_follow_the_exact_chance() -> None:
    exact = float(MODEL.p_success(2, 16))  # naturals 12..20 succeed: 9/20
    hits = 0
    trials = 0
    for seed in range(40):
        sampler = DiceSampler(seed)
        for _ in range(250):
            hits += MODEL.check(sampler, "craft", 2, 16).success
            trials += 1
    assert abs(hits / trials - exact) < 0.02


@pytest.mark.rule("R-K-DICE-01")
def test_roll_event_names_the_attribute_term_and_keeps_the_total() -> None:
    roll = MODEL.make_roll(7, "craft", 3, {"quality": 2})
    event = MODEL.roll_event(("K-REARM-02",), "minion:1", roll, "rearmed")
    assert event.type == "roll"
    assert event.fields["dice"] == "1d20"
    assert event.fields["modifiers"] == {"craft": 6, "quality": 2}
    assert event.fields["total"] == 15 == roll.total


def test_model_round_trips_and_refuses_nonsense() -> None:
    custom = DiceModel(die=12, fumble_max=2, critical_min=12, ties="attacker")
    assert DiceModel.from_json(custom.to_json()) == custom
    assert DiceModel.from_json({}) == MODEL
    with pytest.raises(DiceModelError):
        DiceModel(die=1)
    with pytest.raises(DiceModelError):
        DiceModel(fumble_max=20, critical_min=20)
    with pytest.raises(DiceModelError):
        MODEL.attribute_term(11)
    with pytest.raises(DiceModelError):
        DiceModel.from_json({"ties": "nobody"})
