"""Time the core's line of sight and pathfinding: 10,000 queries on two maps.

Maps: a 24 x 28 board (crawl's size, C-SETUP-01) with rooms and doors, and a 200 x 200
cave (a large keep map). Queries go between random floor squares, with a fixed seed.
Prints microseconds per query for each kind of query and map, and the ratio of the
large map to the small one.

    .venv/bin/python benchmarks/bench_core.py [--queries N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from undercroft.core.grid import Grid, Pos, Terrain
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.core.sight import Sight, field_of_view


def board(width: int, height: int, wall_share: float, seed: int) -> Grid:
    """Rooms of 5-8 squares separated by walls with a doorway each side, plus rubble."""
    rng = np.random.default_rng(seed)
    g = Grid.empty(width, height)
    for x in range(0, width, 7):
        for y in range(height):
            g.set_terrain(Pos(x, y), Terrain.WALL)
    for y in range(0, height, 6):
        for x in range(width):
            g.set_terrain(Pos(x, y), Terrain.WALL)
    for x in range(0, width, 7):
        for y in range(3, height, 6):
            g.set_terrain(Pos(x, y), Terrain.FLOOR)
    for y in range(0, height, 6):
        for x in range(3, width, 7):
            g.set_terrain(Pos(x, y), Terrain.FLOOR)
    rubble = rng.random((height, width)) < wall_share
    for y, x in zip(*np.nonzero(rubble), strict=True):
        g.set_terrain(Pos(int(x), int(y)), Terrain.WALL)
    return g


def floor_pairs(grid: Grid, n: int, seed: int) -> list[tuple[Pos, Pos]]:
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero(~(grid.opaque() | grid.solid()))
    picks = rng.integers(0, len(xs), size=(n, 2))
    return [(Pos(int(xs[i]), int(ys[i])), Pos(int(xs[j]), int(ys[j]))) for i, j in picks.tolist()]


def per_query_us(fn: Callable[[Pos, Pos], object], pairs: list[tuple[Pos, Pos]]) -> float:
    start = time.perf_counter()
    for a, b in pairs:
        fn(a, b)
    return (time.perf_counter() - start) / len(pairs) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=10_000)
    args = parser.parse_args()
    maps = {"24x28 board": board(24, 28, 0.05, 1), "200x200 map": board(200, 200, 0.08, 2)}
    results: dict[str, dict[str, float]] = {}
    for name, grid in maps.items():
        pairs = floor_pairs(grid, args.queries, 3)
        sight = Sight(grid, cache_size=0)
        finder = Pathfinder(grid, DoorPassage.ALL)

        def view_from_a(a: Pos, _b: Pos, g: Grid = grid) -> object:
            return field_of_view(g, a)

        def distances_from_a(a: Pos, _b: Pos, f: Pathfinder = finder) -> object:
            return f.distances_from(a)

        rows = {
            "field of view (new each query)": per_query_us(view_from_a, pairs),
            "can A see B (shadowcast from A)": per_query_us(sight.can_see, pairs),
            "line of fire A->B": per_query_us(sight.line_of_fire, pairs),
            "shortest path A->B (A*)": per_query_us(finder.path, pairs),
            "distance map from A (Dijkstra)": per_query_us(
                distances_from_a, pairs[: max(1, len(pairs) // 10)]
            ),
        }
        results[name] = rows
    names = list(maps)
    print(f"{args.queries} queries per line (distance maps: a tenth of them), microseconds each")
    print(f"{'query':34} {names[0]:>14} {names[1]:>14} {'ratio':>7}")
    for row in results[names[0]]:
        small, large = results[names[0]][row], results[names[1]][row]
        print(f"{row:34} {small:14.1f} {large:14.1f} {large / small:7.1f}x")


if __name__ == "__main__":
    main()
