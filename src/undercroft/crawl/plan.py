"""Planning over what the heroes see: the observed board, the revealed areas, the goals.

Pure functions of an :class:`~undercroft.crawl.observe.Observation`'s fields (never the
state, ARCHITECTURE.md "Hidden information"); the costly ones are cached on the board and
area-map texts, which stay the same object while nothing new is seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np
import tcod.path
from numpy.typing import NDArray

from undercroft.core.grid import Pos
from undercroft.crawl.observe import AREA_KEY, UNKNOWN

WALKABLE = np.zeros(256, np.bool_)
WALKABLE[list(b".'~:abcdefghijklmnopqrstuvwxyz0123456789@")] = True
FAR = np.iinfo(np.int32).max
"""The distance of a square a distance map cannot reach."""


@lru_cache(maxsize=64)
def board_arrays(board: str) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[Any]]:
    """(walkable, unknown, chars) arrays of an observed board text."""
    rows = board.split("\n")
    codes = np.frombuffer("".join(rows).encode(), dtype=np.uint8).reshape(len(rows), -1)
    chars = codes.view("S1")
    walkable = WALKABLE[codes]
    unknown = chars == UNKNOWN.encode()
    return walkable, unknown, chars


@lru_cache(maxsize=64)
def planning_costs(board: str) -> NDArray[np.int32]:
    """Step costs for planning on an observed board: known floor 1, a shut door 4 (it
    must be forced), an unknown square 3 (it may well be floor), walls never."""
    walkable, unknown, chars = board_arrays(board)
    cost = walkable.astype(np.int32)
    cost[unknown] = 3
    cost[chars == b"+"] = 4
    cost.flags.writeable = False
    return cost


def distance_map(
    costs: NDArray[np.int32], origin: Pos | Iterable[Pos], blocked: set[Pos]
) -> NDArray[np.int32]:
    """Step-cost distances from ``origin`` (a square, or several: the nearest counts)
    with ``blocked`` squares impassable."""
    origins = [origin] if isinstance(origin, Pos) else list(origin)
    cost = costs.copy()
    for p in blocked:
        cost[p.y, p.x] = 0
    dist = tcod.path.maxarray(cost.shape, np.int32)
    for p in origins:
        cost[p.y, p.x] = 1
        dist[p.y, p.x] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
    return dist


def path_from(dist: NDArray[np.int32], goal: Pos) -> list[Pos]:
    """Walk back down a distance map from ``goal`` to its origin (origin excluded)."""
    steps = tcod.path.hillclimb2d(dist, (goal.y, goal.x), True, False).tolist()
    # hillclimb2d walks from the goal down to the origin: reverse it, drop the origin.
    return [Pos(x, y) for y, x in reversed(steps)][1:]


@lru_cache(maxsize=32)
def exit_distances(board: str, exits: tuple[tuple[int, int], ...]) -> NDArray[np.int32]:
    """Walking distance from every square to the nearest exit (-1: none), one Dijkstra."""
    walkable, _, _ = board_arrays(board)
    cost = walkable.astype(np.int32)
    dist = tcod.path.maxarray(cost.shape, np.int32)
    for x, y in exits:
        dist[y, x] = 0
        cost[y, x] = max(int(cost[y, x]), 1)
    tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
    dist[dist == np.iinfo(np.int32).max] = -1
    return dist


def pos(value: Any) -> Pos | None:
    return None if value is None else Pos(int(value[0]), int(value[1]))


def near(mask: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The squares orthogonally next to a square of ``mask``."""
    out = np.zeros_like(mask)
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


@lru_cache(maxsize=64)
def frontier(board: str) -> NDArray[np.bool_]:
    """Known squares a figure may stand on that lead somewhere new: next to an unknown
    square or a shut door."""
    walkable, unknown, chars = board_arrays(board)
    out = walkable & (near(unknown) | near(chars == b"+"))
    out.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def area_codes(area_map: str) -> NDArray[np.int32]:
    """For every square the index into ``Observation.revealed`` of its area, or -1."""
    rows = area_map.split("\n")
    codes = np.frombuffer("".join(rows).encode("utf-32-le"), dtype=np.uint32)
    index = codes.astype(np.int32).reshape(len(rows), -1) - AREA_KEY
    index[index < 0] = -1
    index.flags.writeable = False
    return index


def area_at(area_map: str, revealed: tuple[str, ...], at: Pos) -> str | None:
    """The name of the revealed area a square belongs to, if any."""
    if not area_map:
        return None
    index = int(area_codes(area_map)[at.y, at.x])
    return None if index < 0 else revealed[index]


@lru_cache(maxsize=64)
def areas_mask(
    area_map: str, revealed: tuple[str, ...], names: frozenset[str]
) -> NDArray[np.bool_]:
    """The squares of the named revealed areas."""
    codes = area_codes(area_map)
    wanted = [i for i, name in enumerate(revealed) if name in names]
    out = np.isin(codes, wanted)
    out.flags.writeable = False
    return out


def nearest(dist: NDArray[np.int32], mask: NDArray[np.bool_]) -> Pos | None:
    """The reachable square of ``mask`` nearest by ``dist`` (row, then column, on a tie)."""
    masked = np.where(mask & (dist < FAR), dist, FAR)
    flat = int(np.argmin(masked))
    y, x = np.unravel_index(flat, masked.shape)
    return None if masked[y, x] == FAR else Pos(int(x), int(y))


def reachable(dist: NDArray[np.int32], at: Pos) -> bool:
    """Whether ``at`` is on the board and ``dist`` reaches it."""
    return bool(0 <= at.y < dist.shape[0] and 0 <= at.x < dist.shape[1] and dist[at.y, at.x] < FAR)


def squares(points: Iterable[Any]) -> set[Pos]:
    """Positions of ``[x, y]`` values (``None`` skipped)."""
    return {p for p in (pos(v) for v in points) if p is not None}
