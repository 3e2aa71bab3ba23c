"""Counting squares (C-DIST-01): "within N squares" for ranges, detection and patrols.

"Within N squares" is a walking distance through squares a figure could walk, figures
and corpses ignored, unopened doors and furniture not passable; or, with
``distance_metric`` "manhattan", the orthogonal count ignoring everything (ruling
R-CORE-DIST-01).

The rules ask for the distance to a few squares (the traps a hero might detect, the
figures a spell or an ability might reach, a corridor's squares), so the walk is
counted outwards from the origin only as far as those squares: a breadth-first count
over the state's walkable squares that stops at the range, or once every square asked
about is counted. A walk is never shorter than the Manhattan count, so a square further
than the range by that count needs no walk at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from undercroft.core.grid import Pos, square_table
from undercroft.crawl.state import State


def distances_from(state: State, origin: Pos) -> NDArray[np.int32]:
    """Squares from ``origin`` to every square, ``-1`` where unreachable (C-DIST-01,
    R-CORE-DIST-01): a whole map, for callers that want one."""
    if state.options.distance_metric == "manhattan":
        ys, xs = np.indices(state.grid.terrain.shape, dtype=np.int32)
        result: NDArray[np.int32] = np.abs(xs - origin.x) + np.abs(ys - origin.y)
        return result
    return state.paths.distances_from(origin)


def in_range(state: State, origin: Pos, targets: Sequence[Pos], squares: int) -> list[Pos]:
    """The ``targets`` no more than ``squares`` squares from ``origin`` (C-DIST-01,
    R-CORE-DIST-01), in their order."""
    near = [t for t in targets if abs(t.x - origin.x) + abs(t.y - origin.y) <= squares]
    if not near or state.options.distance_metric == "manhattan":
        return near
    reached = _walk(state, (origin,), near, squares)
    return [t for t in near if t in reached]


def nearest_distances(
    state: State, origins: Sequence[Pos], targets: Sequence[Pos]
) -> dict[Pos, int]:
    """For each of ``targets`` that an origin can reach, the distance from the nearest
    origin (C-DIST-01, R-CORE-DIST-01); the walk stops once every target is counted."""
    if state.options.distance_metric == "manhattan":
        if not origins:
            return {}
        return {t: min(abs(t.x - o.x) + abs(t.y - o.y) for o in origins) for t in targets}
    return _walk(state, origins, targets, state.grid.width * state.grid.height)


def _walk(
    state: State, origins: Iterable[Pos], targets: Sequence[Pos], limit: int
) -> dict[Pos, int]:
    """The walking distance (C-DIST-01) from the nearest of ``origins`` to each of
    ``targets`` reached within ``limit`` squares: breadth first, ring by ring outwards
    over square indices (distance 0: the origins), stopping once every target is counted,
    without hashing a position a step."""
    rows = state.walk_rows()
    grid = state.grid
    width, height = grid.width, grid.height
    table = square_table(width, height)
    squares, around = table.squares, table.around
    wanted: dict[int, Pos] = {}
    for t in targets:
        if 0 <= t.x < width and 0 <= t.y < height:
            wanted[t.y * width + t.x] = t
    found: dict[Pos, int] = {}
    left = len(wanted)
    closed = [False] * len(squares)
    ring: list[int] = []
    for o in origins:
        if 0 <= o.x < width and 0 <= o.y < height:
            i = o.y * width + o.x
            if not closed[i]:
                closed[i] = True
                ring.append(i)
    steps = 0
    while ring and left:
        for i in ring:
            target = wanted.get(i)
            if target is not None:
                found[target] = steps
                left -= 1
        if not left or steps >= limit:
            break
        steps += 1
        out: list[int] = []
        for i in ring:
            for j in around[i]:
                if not closed[j]:
                    q = squares[j]
                    if rows[q.y][q.x]:
                        closed[j] = True
                        out.append(j)
        ring = out
    return found
