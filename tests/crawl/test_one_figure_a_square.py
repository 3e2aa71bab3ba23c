"""No two figures ever share a square (C-TURN-03, C-CMB-01): a property of whole games.

A hero "may not move through occupied squares" (C-TURN-03) and monsters move to free
squares (C-CMB-01); a multi-square ``Move`` stops where something on its path changes
(a monster appears in the way). The check runs after every event of games played by every
built-in party against every built-in DM on every shipped adventure, with the caster party
too. The games named below put two figures on one square before the fixes (basic
players; the review's own seeds no longer meet the same positions).
"""

from __future__ import annotations

from typing import Any

import pytest

from undercroft.core.dice import DiceSampler
from undercroft.core.events import Event, Time
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play_until, seat_policies
from undercroft.crawl.state import State

CASTERS = ("brenna", "corvin", "ysolde", "mirela")


class SquareWatch:
    """An event sink that checks the board after every event: each living figure on its
    own square, and none on a corpse but the hero who drags it along."""

    enabled = True

    def __init__(self) -> None:
        self.state: State | None = None
        self.events = 0
        self.trouble: list[str] = []

    def emit(self, time: Time, event: Event) -> None:
        state = self.state
        assert state is not None
        self.events += 1
        seen: dict[Any, str] = {}
        figures = [
            (h.id, h.pos) for h in state.roster if h.pos is not None and not h.dead and not h.left
        ]
        figures += [(m.id, m.pos) for m in state.monsters.values()]
        for who, pos in figures:
            if pos in seen and len(self.trouble) < 5:
                self.trouble.append(
                    f"turn {state.turn} after {event.type}: {who} and {seen[pos]} on {pos}"
                )
            seen[pos] = who


def watched_game(
    adventure: str, party: tuple[str, ...], seed: int, heroes: str, dm: str
) -> SquareWatch:
    pack = default_pack()
    state = State(pack.ruleset(adventure), list(party))
    watch = SquareWatch()
    watch.state = state
    state.sink = watch
    state.start()
    play_until(state, DiceSampler(seed), seat_policies(seed, heroes=heroes, dm=dm))
    assert state.is_terminal()
    return watch


DEFAULT = ("brenna", "garrick", "durn", "sable")


@pytest.mark.rule("C-TURN-03")
@pytest.mark.rule("C-MON-01")
@pytest.mark.rule("R-C-MON-05")
@pytest.mark.parametrize(
    ("adventure", "party", "seed"),
    [
        # A hero's planned path went on onto a guard that appeared on it mid-fight.
        ("greyhollow-cellars", DEFAULT, 1256),
        ("ash-king", DEFAULT, 1008),
        ("ash-king", CASTERS, 1019),
        # A guard appeared on the square a skeleton had walked to unseen (R-C-MON-05).
        ("bone-priest", DEFAULT, 1110),
        ("bone-priest", CASTERS, 1028),
    ],
)
def test_games_that_put_two_figures_on_a_square(
    adventure: str, party: tuple[str, ...], seed: int
) -> None:
    watch = watched_game(adventure, party, seed, "basic", "basic")
    assert watch.events > 0
    assert watch.trouble == []


@pytest.mark.rule("C-TURN-03")
@pytest.mark.rule("C-CMB-01")
@pytest.mark.parametrize("adventure", default_pack().campaign_order())
def test_no_two_figures_share_a_square(adventure: str) -> None:
    pack = default_pack()
    default_party = tuple(pack.heroes)[:4]
    problems = []
    for seed in range(12):
        party = CASTERS if seed % 2 else default_party
        heroes, dm = [("basic", "basic"), ("careful", "master"), ("random", "random")][seed % 3]
        watch = watched_game(adventure, party, 1000 + seed, heroes, dm)
        problems += watch.trouble
    assert problems == []
