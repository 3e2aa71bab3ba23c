"""Counting squares (C-DIST-01, R-CORE-DIST-01): the walks that stop early give what a
whole map of walking distances gives (``distances_from``, tcod's Dijkstra map)."""

from __future__ import annotations

import numpy as np
import pytest

from undercroft.core.grid import DoorState, Pos
from undercroft.crawl.content import default_pack
from undercroft.crawl.distance import distances_from, in_range, nearest_distances
from undercroft.crawl.state import State

PACK = default_pack()


def shipped_state(adventure: str, rng: np.random.Generator) -> State:
    """An adventure's board with some of its doors opened at random (the board changes
    during a game, and the walks must follow it)."""
    state = State(PACK.ruleset(adventure), list(PACK.heroes)[:4])
    grid = state.grid
    for p in grid.positions():
        if grid.is_door(p) and rng.random() < 0.5:
            grid.set_door(p, DoorState.OPEN)
    return state


@pytest.mark.rule("C-DIST-01", "R-CORE-DIST-01")
@pytest.mark.parametrize("adventure", PACK.campaign_order())
def test_nearest_distances_and_ranges_match_a_whole_map_of_walking_distances(
    adventure: str,
) -> None:
    rng = np.random.default_rng(sum(map(ord, adventure)))
    for _ in range(4):
        state = shipped_state(adventure, rng)
        squares = list(state.grid.positions())
        floor = [p for p in squares if state.walkable(p)]
        maps: dict[Pos, np.ndarray] = {}
        for _ in range(8):
            origins = [
                floor[int(i)] for i in rng.integers(len(floor), size=int(rng.integers(1, 4)))
            ]
            targets = [squares[int(i)] for i in rng.integers(len(squares), size=12)]
            for o in origins:
                maps.setdefault(o, distances_from(state, o))
            expected = {}
            for t in targets:
                reached = [int(maps[o][t.y, t.x]) for o in origins if maps[o][t.y, t.x] >= 0]
                if reached:
                    expected[t] = min(reached)
            assert nearest_distances(state, origins, targets) == expected
            origin, reach = origins[0], int(rng.integers(1, 9))
            within = [t for t in targets if 0 <= maps[origin][t.y, t.x] <= reach]
            assert in_range(state, origin, targets, reach) == within


@pytest.mark.rule("C-DIST-01")
def test_a_door_opening_opens_the_walk_through_it() -> None:
    """The count follows the board: the square past a shut door is reached only the long
    way round (or not at all); once it is open, two squares away, through the door."""
    state = State(PACK.ruleset("greyhollow-cellars"), list(PACK.heroes)[:4])
    grid = state.grid
    checked = 0
    for door in [p for p in grid.positions() if grid.is_door(p)]:
        for dx, dy in ((0, 1), (1, 0)):
            a, b = Pos(door.x - dx, door.y - dy), Pos(door.x + dx, door.y + dy)
            if not (grid.in_bounds(a) and grid.in_bounds(b)):
                continue
            if not (state.walkable(a) and state.walkable(b)):
                continue
            grid.set_door(door, DoorState.CLOSED)
            shut = nearest_distances(state, [a], [b])
            assert shut.get(b, 99) > 2, door
            grid.set_door(door, DoorState.OPEN)
            assert nearest_distances(state, [a], [b]) == {b: 2}, door
            checked += 1
    assert checked >= 3
