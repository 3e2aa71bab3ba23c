"""Exact odds for the players' gambles, from the rules' own dice: a fight (C-FIGHT-04),
a Mental Combat (C-MENT-01..03), a d6 test, an overcast (C-SPELL-04).

The same numbers ``undercroft odds fight`` prints; the players weigh their Stamina and
Magic with them. Floats, since a player only compares them; the sums are exact counts
over the 1,296 (or 36) equally likely rolls.
"""

from __future__ import annotations

from functools import cache
from math import comb
from typing import Final

TWO_D6: Final = tuple(6 - abs(total - 7) for total in range(2, 13))
"""How many of the 36 rolls of 2d6 give 2, 3, ..., 12."""


@cache
def _difference() -> dict[int, int]:
    """How many of the 1,296 pairs of 2d6 rolls differ by each amount (hero - monster)."""
    found: dict[int, int] = {}
    for a, ways_a in enumerate(TWO_D6, start=2):
        for b, ways_b in enumerate(TWO_D6, start=2):
            found[a - b] = found.get(a - b, 0) + ways_a * ways_b
    return found


@cache
def fight_odds(margin: int, strong: bool, double_ones: bool = False) -> tuple[float, float]:
    """(the hero wins, the monster wins) a fight whose totals before the dice differ by
    ``margin`` (hero's score and Stamina minus the monster's; C-FIGHT-04). A tie is won
    by nobody, or by a Strong hero. ``double_ones``: the hero counts as rolling a
    natural 2 (C-SPELL-06)."""
    if double_ones:
        hero_wins = monster_wins = 0
        for b, ways in enumerate(TWO_D6, start=2):
            total = 2 + margin - b
            if total > 0 or (total == 0 and strong):
                hero_wins += ways
            elif total < 0:
                monster_wins += ways
        return hero_wins / 36, monster_wins / 36
    hero_wins = monster_wins = 0
    for diff, ways in _difference().items():
        total = diff + margin
        if total > 0 or (total == 0 and strong):
            hero_wins += ways
        elif total < 0:
            monster_wins += ways
    return hero_wins / 1296, monster_wins / 1296


@cache
def mental_odds(margin: int) -> tuple[float, float, float]:
    """(the hero wins, a tie, the hero loses) a Mental Combat whose modifiers differ by
    ``margin`` (the hero's Magic spent and Iron-Willed +1, minus the other side's;
    C-MENT-01..03): each side rolls one d6."""
    win = tie = lose = 0
    for a in range(1, 7):
        for b in range(1, 7):
            total = a + margin - b
            if total > 0:
                win += 1
            elif total == 0:
                tie += 1
            else:
                lose += 1
    return win / 36, tie / 36, lose / 36


@cache
def duel_odds(margin: int, strong: bool, hero_hits: int, monster_hits: int) -> float:
    """The chance a hero fighting one monster alone, step after step (C-FIGHT-04, no
    Stamina), wins ``hero_hits`` fights before the monster wins ``monster_hits``: how
    often it would bring the monster's Health to 0 before its own (ties change nothing)."""
    hero, monster = fight_odds(margin, strong)
    if hero == 0:
        return 0.0
    a = hero / (hero + monster)
    return sum(
        comb(hero_hits - 1 + k, k) * a**hero_hits * (1 - a) ** k for k in range(monster_hits)
    )


def d6_at_least(target: int, bonus: int = 0) -> float:
    """The chance that one d6 plus ``bonus`` reaches ``target``."""
    return sum(1 for n in range(1, 7) if n + bonus >= target) / 6


def damage_totals(blows: list[tuple[float, int]]) -> dict[int, float]:
    """The chances of each total of damage from independent blows (chance, damage): the
    damage of a Fighting step lands all at once (C-FIGHT-05)."""
    totals = {0: 1.0}
    for p, damage in blows:
        if p <= 0.0:
            continue
        step: dict[int, float] = {}
        for total, q in totals.items():
            step[total] = step.get(total, 0.0) + q * (1.0 - p)
            step[total + damage] = step.get(total + damage, 0.0) + q * p
        totals = step
    return totals
