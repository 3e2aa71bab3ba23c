"""Shortest walking paths and walking distances, with dynamic blockers.

Movement and distance go square by square through orthogonally adjacent squares, never
diagonally (C-DIST-01). Walls, blockages and furniture are never walkable; doors are
walkable according to a :class:`DoorPassage` policy; bodies (figures, corpses) block the
squares they stand on (C-LOS-01: they block movement, not sight); squares to avoid (known
traps) can be forbidden or made expensive.

The heavy lifting is python-tcod's A* and Dijkstra (C code over numpy arrays). A
:class:`Pathfinder` keeps one cost array, one ``tcod.path.AStar`` and one Dijkstra
``tcod.path.Pathfinder`` per grid version and door policy, writing blockers in and out
around each query, which measured several times cheaper than building a new graph per
query (see ``benchmarks/bench_core.py``). Distance maps do not use
``tcod.path.dijkstra2d``: in tcod 21.2.2 every call of it leaks about 4 KiB of C memory,
which a batch of games turns into gigabytes; the graph pathfinder does not leak.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import numpy as np
import tcod.path
from numpy.typing import NDArray

from undercroft.core.grid import DoorState, Grid, Pos, Terrain

CostArray = NDArray[np.int32]
UNREACHABLE = -1


class DoorPassage(enum.Enum):
    """Which doors a walker may pass through."""

    OPEN_ONLY = "open"
    """Only open doors (crawl: an unopened door must be forced first)."""
    UNLOCKED = "unlocked"
    """Open or closed doors, not locked ones (keep: anyone may open a closed door)."""
    ALL = "all"
    """Every door, locked ones too (keep's always-a-path check counts locked doors as open)."""


def base_costs(grid: Grid, doors: DoorPassage, *, water_cost: int = 1) -> CostArray:
    """The cost of entering each square: 0 for never, else the step cost.

    ``water_cost`` 0 makes water impassable.
    """
    costs: CostArray = np.ones(grid.terrain.shape, np.int32)
    costs[grid.solid()] = 0
    door = grid.terrain == Terrain.DOOR
    if doors is DoorPassage.OPEN_ONLY:
        costs[door & (grid.door != DoorState.OPEN)] = 0
    elif doors is DoorPassage.UNLOCKED:
        costs[door & (grid.door == DoorState.LOCKED)] = 0
    costs[grid.water & (costs > 0)] = water_cost
    return costs


class Pathfinder:
    """Shortest orthogonal paths on one grid, reusing tcod state between queries.

    ``path`` returns the squares stepped into, start excluded and goal included, so its
    length is the walking distance; ``None`` means no path. Start and goal squares are
    always allowed to be entered even if a body stands there, so "walk up to that monster"
    is ``path(start, monster_square)[:-1]``.
    """

    def __init__(
        self, grid: Grid, doors: DoorPassage = DoorPassage.OPEN_ONLY, *, water_cost: int = 1
    ) -> None:
        self.grid = grid
        self.doors = doors
        self.water_cost = water_cost
        self._version = -1
        self._base: CostArray = np.zeros((0, 0), np.int32)
        self._work: CostArray = np.zeros((0, 0), np.int32)
        self._astar: tcod.path.AStar | None = None
        self._flood_costs: CostArray = np.zeros((0, 0), np.int32)
        self._flood: tcod.path.Pathfinder | None = None

    def _fresh(self) -> tcod.path.AStar:
        if self._astar is None or self._version != self.grid.version:
            self._version = self.grid.version
            base = base_costs(self.grid, self.doors, water_cost=self.water_cost)
            if self._astar is not None and base.shape == self._base.shape:
                # tcod reads the cost arrays in place: a changed board (a door opened)
                # is written into them rather than building new pathfinders.
                self._base[...] = base
                self._work[...] = base
            else:
                self._base = base
                self._work = base.copy()
                self._astar = tcod.path.AStar(self._work, diagonal=0)
                self._flood = None
        assert self._astar is not None
        return self._astar

    def _flooder(self) -> tcod.path.Pathfinder:
        """The Dijkstra pathfinder of distance maps, over its own cost array (the graph
        reads that array in place, so a query writes its blockers into it)."""
        self._fresh()
        if self._flood is None:
            self._flood_costs = self._base.copy()
            graph = tcod.path.SimpleGraph(cost=self._flood_costs, cardinal=1, diagonal=0)
            self._flood = tcod.path.Pathfinder(graph)
        return self._flood

    def costs(self, bodies: Iterable[Pos] = (), avoid: Iterable[Pos] = ()) -> CostArray:
        """A fresh cost array with ``bodies`` and ``avoid`` squares made impassable."""
        self._fresh()
        costs = self._base.copy()
        for p in (*bodies, *avoid):
            costs[p.y, p.x] = 0
        return costs

    def path(
        self,
        start: Pos,
        goal: Pos,
        *,
        bodies: Iterable[Pos] = (),
        avoid: Iterable[Pos] = (),
        avoid_cost: int | None = None,
    ) -> list[Pos] | None:
        """The shortest path from ``start`` to ``goal`` (C-DIST-01).

        ``bodies`` block; ``avoid`` squares block too, or cost ``avoid_cost`` per entry if
        given (so a walker crosses a known trap only when there is no other way).
        """
        if start == goal:
            return []
        if not (self.grid.in_bounds(start) and self.grid.in_bounds(goal)):
            return None
        astar = self._fresh()
        work = self._work
        changed: list[tuple[int, int]] = []
        try:
            for p in bodies:
                changed.append(p.index)
                work[p.y, p.x] = 0
            for p in avoid:
                changed.append(p.index)
                if work[p.y, p.x]:
                    work[p.y, p.x] = 0 if avoid_cost is None else avoid_cost
            # A body standing on the start or the goal (the walker itself, the monster it
            # walks up to) does not stop the search; walls there still do.
            work[start.y, start.x] = self._base[start.y, start.x]
            work[goal.y, goal.x] = self._base[goal.y, goal.x]
            steps = astar.get_path(start.y, start.x, goal.y, goal.x)
        finally:
            for index in changed:
                work[index] = self._base[index]
        if not steps:
            return None
        return [Pos(int(x), int(y)) for y, x in steps]

    def distance(
        self, start: Pos, goal: Pos, *, bodies: Iterable[Pos] = (), avoid: Iterable[Pos] = ()
    ) -> int | None:
        """The walking distance from ``start`` to ``goal``, or ``None`` (C-DIST-01)."""
        steps = self.path(start, goal, bodies=bodies, avoid=avoid)
        return None if steps is None else len(steps)

    def distances_from(
        self, origin: Pos, *, bodies: Iterable[Pos] = (), avoid: Iterable[Pos] = ()
    ) -> NDArray[np.int32]:
        """Walking distance from ``origin`` to every square, ``-1`` where unreachable."""
        flood = self._flooder()
        costs = self._flood_costs
        costs[...] = self._base
        for p in (*bodies, *avoid):
            costs[p.y, p.x] = 0
        flood.clear()
        flood.add_root((origin.y, origin.x))
        flood.resolve()
        dist: NDArray[np.int32] = flood.distance.astype(np.int32)
        dist[dist == np.iinfo(np.int32).max] = UNREACHABLE
        return dist

    def within(self, origin: Pos, squares: int) -> frozenset[Pos]:
        """Squares within ``squares`` steps of walking from ``origin``, figures ignored.

        This is crawl's "within N squares" (C-DIST-01, ruling R-CORE-DIST-01).
        """
        dist = self.distances_from(origin)
        ys, xs = np.nonzero((dist >= 0) & (dist <= squares))
        return frozenset(Pos(int(x), int(y)) for y, x in zip(ys, xs, strict=True))


def walking_distance(
    grid: Grid, a: Pos, b: Pos, doors: DoorPassage = DoorPassage.OPEN_ONLY
) -> int | None:
    """Squares counted one by one, orthogonally, from ``a`` to ``b`` (C-DIST-01)."""
    return Pathfinder(grid, doors).distance(a, b)


def shortest_path(
    grid: Grid,
    start: Pos,
    goal: Pos,
    doors: DoorPassage = DoorPassage.OPEN_ONLY,
    *,
    bodies: Iterable[Pos] = (),
    avoid: Iterable[Pos] = (),
) -> list[Pos] | None:
    """A one-off shortest path; use a :class:`Pathfinder` for many queries on one grid."""
    return Pathfinder(grid, doors).path(start, goal, bodies=bodies, avoid=avoid)
