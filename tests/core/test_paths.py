"""Walking distance and shortest paths (C-DIST-01)."""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

from undercroft.core.grid import DoorState, Grid, Pos, Terrain
from undercroft.core.paths import DoorPassage, Pathfinder, shortest_path, walking_distance


@pytest.mark.rule("C-DIST-01")
def test_no_diagonal_steps() -> None:
    g = Grid.empty(5, 5)
    assert walking_distance(g, Pos(0, 0), Pos(1, 1)) == 2
    assert walking_distance(g, Pos(0, 0), Pos(4, 4)) == 8
    path = shortest_path(g, Pos(0, 0), Pos(2, 1))
    assert path is not None and len(path) == 3
    steps = [Pos(0, 0), *path]
    assert all(a.is_adjacent(b) for a, b in itertools.pairwise(steps))


WALLED = """
#########
#a..#...#
#...#.b.#
#.......#
#########
"""


@pytest.mark.rule("C-DIST-01")
def test_walls_force_a_detour() -> None:
    g = Grid.from_text(WALLED)
    # Straight-line squares would be 6; around the wall's foot it is 8.
    assert g.markers["a"].manhattan(g.markers["b"]) == 6
    assert walking_distance(g, g.markers["a"], g.markers["b"]) == 8


@pytest.mark.rule("C-DIST-01", "C-LOS-01")
def test_furniture_and_bodies_block_movement() -> None:
    g = Grid.from_text("a.T.b")
    assert walking_distance(g, g.markers["a"], g.markers["b"]) is None
    corridor = Grid.from_text("a...b")
    finder = Pathfinder(corridor)
    assert finder.distance(Pos(0, 0), Pos(4, 0)) == 4
    assert finder.distance(Pos(0, 0), Pos(4, 0), bodies=[Pos(2, 0)]) is None
    # A body on the goal square does not stop a walk up to it.
    assert finder.distance(Pos(0, 0), Pos(4, 0), bodies=[Pos(4, 0)]) == 4


def test_bodies_in_a_room_cost_a_detour() -> None:
    g = Grid.empty(5, 3)
    finder = Pathfinder(g)
    assert finder.distance(Pos(0, 1), Pos(4, 1), bodies=[Pos(2, 1)]) == 6


@pytest.mark.parametrize(
    ("door", "passage", "expected"),
    [
        ("+", DoorPassage.OPEN_ONLY, None),
        ("+", DoorPassage.UNLOCKED, 4),
        ("&", DoorPassage.UNLOCKED, None),
        ("&", DoorPassage.ALL, 4),
        ("'", DoorPassage.OPEN_ONLY, 4),
    ],
)
def test_door_passage_policies(door: str, passage: DoorPassage, expected: int | None) -> None:
    g = Grid.from_text(f"a.{door}.b")
    assert walking_distance(g, g.markers["a"], g.markers["b"], passage) == expected


def test_known_traps_are_avoided_or_crossed_only_when_needed() -> None:
    room = Grid.empty(5, 3)
    finder = Pathfinder(room)
    trap = Pos(2, 1)
    path = finder.path(Pos(0, 1), Pos(4, 1), avoid=[trap])
    assert path is not None and trap not in path and len(path) == 6
    corridor = Pathfinder(Grid.from_text("....."))
    assert corridor.path(Pos(0, 0), Pos(4, 0), avoid=[Pos(2, 0)]) is None
    crossing = corridor.path(Pos(0, 0), Pos(4, 0), avoid=[Pos(2, 0)], avoid_cost=20)
    assert crossing is not None and Pos(2, 0) in crossing


@pytest.mark.rule("C-DIST-01")
def test_pathfinder_follows_grid_changes() -> None:
    g = Grid.from_text("a.+.b")
    finder = Pathfinder(g)
    assert finder.distance(g.markers["a"], g.markers["b"]) is None
    g.set_door(Pos(2, 0), DoorState.OPEN)
    assert finder.distance(g.markers["a"], g.markers["b"]) == 4


def bfs(grid: Grid, origin: Pos) -> dict[Pos, int]:
    """An independent breadth-first count of squares, for checking the tcod results."""
    solid = grid.solid() | grid.opaque()
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for step in grid.neighbours(here):
            if step not in dist and not solid[step.y, step.x]:
                dist[step] = dist[here] + 1
                queue.append(step)
    return dist


@pytest.mark.rule("C-DIST-01", "R-CORE-DIST-01")
def test_distances_match_an_independent_breadth_first_search() -> None:
    rng = np.random.default_rng(3)
    for _ in range(10):
        g = Grid.empty(15, 12)
        for y, x in zip(*np.nonzero(rng.random((12, 15)) < 0.3), strict=True):
            g.set_terrain(Pos(int(x), int(y)), Terrain.WALL)
        origin = Pos(0, 0)
        g.set_terrain(origin, Terrain.FLOOR)
        expected = bfs(g, origin)
        finder = Pathfinder(g)
        got = finder.distances_from(origin)
        for p in g.positions():
            assert int(got[p.y, p.x]) == expected.get(p, -1), p
            if p in expected:
                assert finder.distance(origin, p) == expected[p]
        within = finder.within(origin, 5)
        assert within == {p for p, d in expected.items() if d <= 5}
