"""The heuristic party wins every shipped adventure clearly more often than random play, and
almost never runs into the turn cap (C-END-01: won = out, with every goal met).

Fixed seeds, few of them (the whole file runs in a few seconds): 12 games of the heuristic
party and 6 of random play per adventure, both against the heuristic DM. Over 300 seeds
(README, `benchmarks/rates_crawl.py`) the heuristic party wins 70%, 58% and 25% of the three
adventures and hits the turn cap in 0%, 0% and 0.7% of games, and random play wins none;
the margins below leave room for the spread of 12 games and still fail if the party stops
pursuing the goals (it won 0%, 8% and 0% before it did).
"""

from __future__ import annotations

import pytest

from undercroft.crawl.content import default_pack
from undercroft.crawl.rates import play_game, rates_of

PACK = default_pack()
MARGIN = {"greyhollow-cellars": 0.3, "bone-priest": 0.3, "ash-king": 0.1}


def test_every_shipped_adventure_has_a_margin() -> None:
    assert sorted(MARGIN) == sorted(PACK.campaign_order())


@pytest.mark.rule("C-END-01")
@pytest.mark.parametrize("adventure", PACK.campaign_order())
def test_the_heuristic_party_wins_clearly_more_often_than_random_play(adventure: str) -> None:
    heuristic = rates_of(play_game(PACK, adventure, "heuristic", seed) for seed in range(12))
    random = rates_of(play_game(PACK, adventure, "random", seed) for seed in range(6))
    assert heuristic.won - random.won >= MARGIN[adventure], (heuristic, random)
    assert heuristic.turn_cap < 0.02, heuristic  # none of the 12
