"""How often a hero policy wins an adventure, over many seeds.

A game counts as *won* exactly when its summary says ``won`` (C-END-01: every surviving
hero left the dungeon and every goal of the adventure was met); ``escaped`` and
``turn_cap`` are the summary's outcomes. ``benchmarks/rates_crawl.py`` prints these rates
for every shipped adventure, and the tests hold the heuristic party to them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from undercroft.crawl.content import Pack
from undercroft.crawl.runner import play


@dataclass(frozen=True)
class Game:
    """What one seeded game came to, as its summary says."""

    won: bool
    outcome: str
    deaths: int
    turns: int


@dataclass(frozen=True)
class Rates:
    """Rates over a set of games (fractions of games, and means per game)."""

    games: int
    won: float
    escaped: float
    turn_cap: float
    deaths: float
    turns: float


def game_of(summary: dict[str, Any]) -> Game:
    return Game(
        bool(summary["won"]), str(summary["outcome"]), len(summary["dead"]), int(summary["turns"])
    )


def play_game(pack: Pack, adventure: str, heroes: str, seed: int, dm: str = "heuristic") -> Game:
    """One game of ``adventure`` by the pack's first four heroes, log off."""
    result = play(
        pack.ruleset(adventure), list(pack.heroes)[:4], seed=seed, heroes=heroes, dm=dm, log=False
    )
    return game_of(result.state.summary())


def rates_of(games: Iterable[Game]) -> Rates:
    rows = list(games)
    n = len(rows)
    if n == 0:
        raise ValueError("no games to rate")
    return Rates(
        games=n,
        won=sum(g.won for g in rows) / n,
        escaped=sum(g.outcome == "escaped" for g in rows) / n,
        turn_cap=sum(g.outcome == "turn_cap" for g in rows) / n,
        deaths=sum(g.deaths for g in rows) / n,
        turns=sum(g.turns for g in rows) / n,
    )
