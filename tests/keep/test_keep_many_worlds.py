"""Many seeded worlds of every default keep scenario run 60 days without an exception and
no attack is made at distance 0 (issue 31: K-CROWD-01, K-RNG-02, and work that outlived
its being). (Whether two bodies share a tile is not checked here yet: beings of your side
that stand still or work out of a fight are not yet bodies that adventurers and fighters
keep off.)

The issue asks for 200 seeded worlds of each default scenario. A 60-day world takes about
0.3 s (tutorial), 2 s (mid) and 0.5 s (late) in pure Python on one core, so 600 of them are
too slow for the suite (which runs twice, compiled and pure). By default the suite runs
:data:`SEEDS` seeds of each scenario (about 25 s a pass in pure Python on an idle core),
split into chunks that run in parallel; ``UNDERCROFT_LONG=1`` runs all :data:`LONG_SEEDS`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pytest

from undercroft.core.events import Event, Time
from undercroft.keep.scenario import build_world
from undercroft.keep.world import World

SCENARIOS = ("tutorial", "mid", "late")
DAYS = 60
LONG_SEEDS = 200
"""What the issue asks for, run with ``UNDERCROFT_LONG=1``."""
SEEDS = LONG_SEEDS if os.environ.get("UNDERCROFT_LONG") == "1" else 8
"""Seeds of each scenario the default suite runs."""
CHUNKS = 4
"""Each scenario's seeds in this many tests (so pytest-xdist spreads them)."""


class Watch:
    """A log sink that checks every attack as it is made: never at distance 0."""

    enabled: bool = True

    def __init__(self, world: World) -> None:
        self.world = world
        self.problems: list[str] = []

    def emit(self, time: Time, event: Event) -> None:
        if event.type != "attack":
            return
        f: Mapping[str, Any] = event.fields
        if f["from"] == f["at"]:
            self.problems.append(f"minute {self.world.now}: attack at distance 0: {dict(f)}")


def _chunk(chunk: int) -> list[int]:
    return [s for s in range(SEEDS) if s % CHUNKS == chunk]


@pytest.mark.rule("K-CROWD-01", "K-RNG-02", "R-K-JOB-01")
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_seeded_worlds_run_60_days_with_no_attack_at_distance_0(scenario: str, chunk: int) -> None:
    problems: list[str] = []
    for seed in _chunk(chunk):
        world = build_world(scenario, seed=seed)
        watch = Watch(world)
        world.log = watch
        try:
            world.run_days(DAYS)
        except Exception as exc:
            raise AssertionError(f"{scenario} seed {seed}: raised at minute {world.now}") from exc
        problems += [f"{scenario} seed {seed}: {p}" for p in watch.problems]
    assert not problems, "\n".join(problems[:20])
