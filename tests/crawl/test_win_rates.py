"""The heuristic party wins every shipped adventure clearly more often than random play, and
almost never runs into the turn cap (C-END-01: won = out, with every goal met).

Fixed seeds, few of them (the whole file runs in seconds): 12 games of the heuristic party
(40 on the hardest adventure) and 6 of random play per adventure, both against the heuristic
DM (``basic``, named: the default DM is ``master``). Over 300 seeds (README,
`benchmarks/rates_crawl.py`) the heuristic party wins about 75%,
60% and 23% of the three adventures and hits the turn cap in 0%, 0% and under 1% of games,
and random play wins none. Each margin is met with probability above 99% at those rates
(binomial: at least 4 wins of 12 at 60%, at least 3 of 40 at 23%), so a change of the rules
elsewhere does not trip it by chance, and it still fails if the party stops pursuing the
goals (it won 0%, 8% and 0% before it did).
"""

from __future__ import annotations

import pytest

from undercroft.crawl.app.rates import play_game, rates_of
from undercroft.crawl.content import default_pack

PACK = default_pack()
MARGIN = {"greyhollow-cellars": 0.3, "bone-priest": 0.3, "ash-king": 0.07}
GAMES = {"greyhollow-cellars": 12, "bone-priest": 12, "ash-king": 40}


def test_every_shipped_adventure_has_a_margin() -> None:
    assert sorted(MARGIN) == sorted(GAMES) == sorted(PACK.campaign_order())


@pytest.mark.rule("C-END-01")
@pytest.mark.parametrize("adventure", PACK.campaign_order())
def test_the_heuristic_party_wins_clearly_more_often_than_random_play(adventure: str) -> None:
    games = GAMES[adventure]
    # Against the basic DM (the default DM is now master, which plays to win).
    heuristic = rates_of(
        play_game(PACK, adventure, "basic", seed, dm="basic") for seed in range(games)
    )
    random = rates_of(play_game(PACK, adventure, "random", seed, dm="basic") for seed in range(6))
    assert heuristic.won - random.won >= MARGIN[adventure], (heuristic, random)
    assert heuristic.turn_cap < 0.05, heuristic  # at most one of 40 (under 1% over 300)
