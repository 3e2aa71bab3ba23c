"""The players' odds (undercroft.agents.odds) are the rules' own: the same numbers as the
engine's chance nodes enumerated by ``undercroft odds fight`` (C-FIGHT-04), and the
exact counts of one d6 against one d6 for Mental Combat (C-MENT-01)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from undercroft.agents.odds import d6_at_least, duel_odds, fight_odds, mental_odds
from undercroft.analysis import odds as exact
from undercroft.crawl.content import default_pack
from undercroft.crawl.ruleset import Trait

PACK = default_pack()


@pytest.mark.rule("C-FIGHT-04", "C-SETUP-05")
@pytest.mark.parametrize("hero", ["garrick", "sable", "corvin"])
@pytest.mark.parametrize("monster", ["giant-rat", "orc", "ash-king"])
@pytest.mark.parametrize("stamina", [0, 2])
def test_fight_odds_equal_the_engines_chance_nodes(hero: str, monster: str, stamina: int) -> None:
    card, foe = PACK.heroes[hero], PACK.monsters[monster]
    engine = exact.fight_odds(PACK, hero, monster, stamina=stamina).outcomes
    margin = card.fighting + stamina - foe.fighting
    win, lose = fight_odds(margin, Trait.STRONG in card.traits)
    assert Fraction(win).limit_denominator(1296) == engine["win"]
    assert Fraction(lose).limit_denominator(1296) == engine["lose"]


@pytest.mark.rule("C-SPELL-06")
def test_double_ones_count_as_a_natural_two() -> None:
    # A natural 2 against 2d6 at margin 0: the hero wins only if the other side rolls
    # less than 2 (never), ties on 2 (1 in 36).
    assert fight_odds(0, False, double_ones=True) == (0.0, 35 / 36)
    assert fight_odds(0, True, double_ones=True) == (1 / 36, 35 / 36)


@pytest.mark.rule("C-MENT-01", "C-MENT-02", "C-MENT-03")
def test_mental_odds_count_one_die_against_one() -> None:
    assert mental_odds(0) == (15 / 36, 6 / 36, 15 / 36)
    win, tie, lose = mental_odds(2)  # two Magic more (or Iron-Willed and one Magic)
    assert (win, tie, lose) == (26 / 36, 4 / 36, 6 / 36)
    assert d6_at_least(3, 1) == 5 / 6 and d6_at_least(4) == 0.5


@pytest.mark.rule("C-FIGHT-04", "C-FIGHT-05", "C-FIGHT-06")
def test_a_duel_is_a_race_of_fights_won() -> None:
    """A hero alone against a monster: the chance it wins ``hero_hits`` fights before the
    monster wins ``monster_hits`` (ties change nothing), against a walk over every
    sequence of fights."""
    win, lose = fight_odds(0, False)
    assert win == lose
    assert duel_odds(0, False, 1, 1) == pytest.approx(0.5)
    assert duel_odds(0, False, 2, 2) == pytest.approx(0.5)
    share = win / (win + lose)

    def walk(need: int, left: int) -> float:  # the hero needs `need` more, the monster `left`
        if need == 0:
            return 1.0
        if left == 0:
            return 0.0
        return share * walk(need - 1, left) + (1 - share) * walk(need, left - 1)

    win, lose = fight_odds(-2, True)
    share = win / (win + lose)
    assert duel_odds(-2, True, 4, 3) == pytest.approx(walk(4, 3))
    assert duel_odds(-2, True, 4, 3) < 0.2
    # The Ash King (Fighting 5, Damage 3, Health 10) against Durn (4, 2, 9) alone.
    assert duel_odds(-1, False, 5, 3) < 0.5
