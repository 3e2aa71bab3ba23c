"""Many seeded worlds of every default keep scenario run 60 days without an exception, no
attack is made at distance 0, and one body per tile holds in every fight (issue 31:
K-CROWD-01, K-RNG-02, and work that outlived its being).

One body per tile is checked after every event: no adventurer on the map and up, and no
being of your side in a fight, shares a tile with a being standing there out of a fight
(still or working), except two kobolds (K-CROWD-02). Who legitimately shares a tile: the
fallen and the carried (they are not up), a prisoner in its cell with whoever carried it
there, your own beings out of a fight with each other, and a walker of your side passing
an adventurer or a fighter for the moment of the pass (ruling R-K-MOVE-01), so walkers
are left out.

The issue asks for 200 seeded worlds of each default scenario. A 60-day world takes about
0.3 s (tutorial), 2 s (mid) and 0.5 s (late) in pure Python on one core, so 600 of them are
too slow for the suite (which runs twice, compiled and pure). By default the suite runs
:data:`SEEDS` seeds of each scenario (about 25 s a pass in pure Python on an idle core),
split into chunks that run in parallel; ``UNDERCROFT_LONG=1`` runs all :data:`LONG_SEEDS`
(2026-12-06, compiled build, 2 workers on the 2-core machine: all 600 worlds passed in
299 s; the 200 ``late`` worlds again after ``late`` got its sixteen guards and three trolls
a day: passed in 272 s).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pytest

from undercroft.core.events import Event, Time
from undercroft.keep.scenario import build_world
from undercroft.keep.state.actors import Being
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.world import World

SCENARIOS = ("tutorial", "mid", "late")
DAYS = 60
LONG_SEEDS = 200
"""What the issue asks for, run with ``UNDERCROFT_LONG=1``."""
SEEDS = LONG_SEEDS if os.environ.get("UNDERCROFT_LONG") == "1" else 8
"""Seeds of each scenario the default suite runs."""
CHUNKS = 4
"""Each scenario's seeds in this many tests (so pytest-xdist spreads them)."""


class Watch:
    """A log sink that checks every attack as it is made (never at distance 0) and, after
    every event, that no two bodies share a tile in a fight."""

    enabled: bool = True

    def __init__(self, world: World) -> None:
        self.world = world
        self.problems: list[str] = []
        self._others: tuple[tuple[int, ...], list[Being]] = ((), [])

    def emit(self, time: Time, event: Event) -> None:
        if event.type == "attack":
            f: Mapping[str, Any] = event.fields
            if f["from"] == f["at"]:
                self.problems.append(f"minute {self.world.now}: attack at distance 0: {dict(f)}")
        if self.world.bodies and len(self.problems) < 20:
            self._one_body_per_tile(event)

    def _standing(self) -> list[Being]:
        """Everyone but adventurers (listed again only when one of them is new)."""
        world = self.world
        key = tuple(world.counters.get(k, 0) for k in ("minion", "creature", "merchant"))
        if self._others[0] != key:
            others = [b for b in world.beings.values() if not isinstance(b, Adventurer)]
            self._others = (key, others)
        return self._others[1]

    def _one_body_per_tile(self, event: Event) -> None:
        world = self.world
        for b in self._standing():
            if b.fighting or b.walk is not None or not b.present or not b.up:
                continue
            if b.carried_by is not None:
                continue
            held = world.bodies.get(b.pos)
            if held is None:
                continue
            other = world.beings[held]
            if isinstance(other, Adventurer) and other.where is not Whereabouts.IN:
                continue  # a prisoner in its cell
            if _sharer(world, b) and _sharer(world, other):
                continue  # K-CROWD-02
            self.problems.append(
                f"minute {world.now} ({event.type}): {held} and {b.id} share {b.pos}"
            )


def _sharer(world: World, being: Being) -> bool:
    kind = world.ruleset.minions.get(being.breed) if being.kind == "minion" else None
    return kind is not None and kind.per_tile >= 2


def _chunk(chunk: int) -> list[int]:
    return [s for s in range(SEEDS) if s % CHUNKS == chunk]


@pytest.mark.rule("K-CROWD-01", "K-RNG-02", "R-K-JOB-01")
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_seeded_worlds_run_60_days_one_body_a_tile_and_no_attack_at_distance_0(
    scenario: str, chunk: int
) -> None:
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
