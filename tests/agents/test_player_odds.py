"""The players' odds (undercroft.agents.odds) are the rules' own: the same numbers as the
engine's chance nodes enumerated by ``undercroft odds fight`` (C-FIGHT-04), and the
exact counts of one d6 against one d6 for Mental Combat (C-MENT-01)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from undercroft.agents.odds import d6_at_least, fight_odds, mental_odds
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
