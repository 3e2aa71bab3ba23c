"""How often a hero policy wins an adventure, over many seeds.

A game counts as *won* exactly when its summary says ``won`` (C-END-01: every surviving
hero left the dungeon and every goal of the adventure was met); ``escaped`` and
``turn_cap`` are the summary's outcomes. A game *reaches Light 0* when an event changes
the Light to 0 (``light.dropped`` at Turn End, C-LIGHT-01, or ``light.changed`` by an
effect; ``docs/events.md``), which only a game played with a sink can tell
(:func:`play_watched`). ``benchmarks/rates_crawl.py`` prints these rates for every
shipped adventure, party, hero policy and DM; the tests hold the heuristic (basic) party
to them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from undercroft.agents.registry import DEFAULT_DM
from undercroft.core.events import Event, EventSink, Time
from undercroft.crawl.content import Pack
from undercroft.crawl.runner import play

LIGHT_CHANGES = frozenset({"light.dropped", "light.changed"})
"""The events that change the Light and carry its new value (``light``)."""


@dataclass(frozen=True)
class Game:
    """What one seeded game came to, as its summary says."""

    won: bool
    outcome: str
    deaths: int
    turns: int
    light0: bool | None = None
    """Whether the Light reached 0 (C-LIGHT-02 then applies); ``None``: not watched."""


@dataclass(frozen=True)
class Rates:
    """Rates over a set of games (fractions of games, and means per game)."""

    games: int
    won: float
    escaped: float
    turn_cap: float
    deaths: float
    turns: float
    light0: float = math.nan
    """The share of games that reached Light 0 (``nan`` unless every game was watched)."""


class Watch:
    """An event sink that notes whether the Light reached 0 and hands every event on to
    ``inner`` (a metrics collector, say), so no log is kept."""

    enabled = True

    def __init__(self, inner: EventSink | None = None) -> None:
        self.inner = inner
        self.light0 = False

    def emit(self, time: Time, event: Event) -> None:
        if event.type in LIGHT_CHANGES and int(event.fields["light"]) <= 0:
            self.light0 = True
        if self.inner is not None:
            self.inner.emit(time, event)


def game_of(summary: dict[str, Any], light0: bool | None = None) -> Game:
    return Game(
        bool(summary["won"]),
        str(summary["outcome"]),
        len(summary["dead"]),
        int(summary["turns"]),
        light0,
    )


def play_game(pack: Pack, adventure: str, heroes: str, seed: int, dm: str = DEFAULT_DM) -> Game:
    """One game of ``adventure`` by the pack's first four heroes, log off (the fastest
    game: no event is built, so Light 0 is not watched)."""
    result = play(
        pack.ruleset(adventure), list(pack.heroes)[:4], seed=seed, heroes=heroes, dm=dm, log=False
    )
    return game_of(result.state.summary())


def play_watched(
    pack: Pack,
    adventure: str,
    party: Sequence[str],
    seed: int,
    *,
    heroes: str,
    dm: str,
    sink: EventSink | None = None,
) -> Game:
    """One game of ``adventure`` by ``party``, its events watched for Light 0 and handed
    on to ``sink`` (no log is kept)."""
    watch = Watch(sink)
    result = play(pack.ruleset(adventure), list(party), seed=seed, heroes=heroes, dm=dm, sink=watch)
    return game_of(result.state.summary(), watch.light0)


def rates_of(games: Iterable[Game]) -> Rates:
    rows = list(games)
    n = len(rows)
    if n == 0:
        raise ValueError("no games to rate")
    watched = [g.light0 for g in rows if g.light0 is not None]
    return Rates(
        games=n,
        won=sum(g.won for g in rows) / n,
        escaped=sum(g.outcome == "escaped" for g in rows) / n,
        turn_cap=sum(g.outcome == "turn_cap" for g in rows) / n,
        deaths=sum(g.deaths for g in rows) / n,
        turns=sum(g.turns for g in rows) / n,
        light0=sum(watched) / n if len(watched) == n else math.nan,
    )
