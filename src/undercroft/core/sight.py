"""Line of sight, field of view and the stricter line of fire.

Sight (C-LOS-01, ruling R-CORE-LOS-01) uses python-tcod's *symmetric shadowcasting*: a
square is seen when its centre is visible from the viewer's centre, walls and doors are
lit when any part is visible, and the relation is symmetric (A sees B exactly when B
sees A). Symmetry matters because the rules ask "can these two see each other" (guards
noticing heroes, keep perception); tcod's default and older
algorithms are not symmetric. Opaque squares are walls, blockages and closed or locked
doors; furniture and bodies never block sight.

Line of fire (K-RNG-02, ruling R-CORE-LOF-01) is stricter: the straight segment between
the two square centres must not touch any opaque square, counting both squares beside a
corner the segment passes exactly through (a *supercover* line). So a wall corner stops
a shot even where shadowcasting lets one see past it. A line of fire also needs sight,
so it is never more permissive than sight. Bodies never block a shot (K-RNG-03).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

import numpy as np
import tcod.constants
import tcod.map
from tcod.cffi import ffi, lib

from undercroft.core.grid import BoolArray, Grid, Pos

FOV_ALGORITHM: Final = tcod.constants.FOV_SYMMETRIC_SHADOWCAST


def field_of_view(grid: Grid, origin: Pos, radius: int = 0) -> BoolArray:
    """The squares visible from ``origin`` as a ``[y, x]`` bool array (C-LOS-01).

    ``radius`` 0 means unlimited. The origin always sees itself.
    """
    return _fov(grid.transparency(), origin, radius)


def _fov(transparency: BoolArray, origin: Pos, radius: int) -> BoolArray:
    result: BoolArray = tcod.map.compute_fov(
        transparency, origin.index, radius=radius, light_walls=True, algorithm=FOV_ALGORITHM
    )
    return result


class _Board:
    """One board's transparency laid out as libtcod's map, filled once: each field of
    view is then one call into libtcod (what ``tcod.map.compute_fov`` does, without
    building the map again each time), copied out as a compact array (the one
    ``compute_fov`` returns is a strided view, several times slower to combine)."""

    def __init__(self, transparency: BoolArray) -> None:
        height, width = transparency.shape
        self._cells = np.zeros(
            (height, width), dtype=[("transparent", bool), ("walkable", bool), ("fov", bool)]
        )
        self._cells["transparent"] = transparency
        self._map: Any = ffi.new(
            "struct TCOD_Map*",
            (width, height, width * height, ffi.from_buffer("struct TCOD_MapCell*", self._cells)),
        )
        self._seen: BoolArray = self._cells["fov"]

    def set_transparent(self, pos: Pos, transparent: bool) -> None:
        self._cells["transparent"][pos.y, pos.x] = transparent

    def fov(self, origin: Pos) -> BoolArray:
        """The unlimited field of view from ``origin`` (libtcod clears the last one)."""
        lib.TCOD_map_compute_fov(self._map, origin.x, origin.y, 0, True, FOV_ALGORITHM)
        seen: BoolArray = self._seen.copy()
        return seen

    def fov_bytes(self, origin: Pos) -> bytes:
        """:meth:`fov` as one byte a square (1 seen), row by row: read straight from
        libtcod's map, with no array made in between."""
        lib.TCOD_map_compute_fov(self._map, origin.x, origin.y, 0, True, FOV_ALGORITHM)
        seen: bytes = self._seen.tobytes()
        return seen


def visible_squares(grid: Grid, origin: Pos, radius: int = 0) -> frozenset[Pos]:
    """The set of squares visible from ``origin`` (C-LOS-01)."""
    ys, xs = np.nonzero(field_of_view(grid, origin, radius))
    return frozenset(Pos(int(x), int(y)) for y, x in zip(ys, xs, strict=True))


def can_see(grid: Grid, a: Pos, b: Pos) -> bool:
    """Whether ``a`` and ``b`` see each other (C-LOS-01; symmetric by R-CORE-LOS-01)."""
    return bool(field_of_view(grid, a)[b.y, b.x])


def supercover(a: Pos, b: Pos) -> list[Pos]:
    """Every square the segment between the centres of ``a`` and ``b`` enters or touches.

    Where the segment passes exactly through a corner shared by four squares, both side
    squares are included (R-CORE-LOF-01). Exact integer arithmetic, no floating point.

    >>> supercover(Pos(0, 0), Pos(2, 2))
    [Pos(x=0, y=0), Pos(x=1, y=0), Pos(x=0, y=1), Pos(x=1, y=1), Pos(x=2, y=1), Pos(x=1, y=2), Pos(x=2, y=2)]
    """  # noqa: E501
    nx, ny = abs(b.x - a.x), abs(b.y - a.y)
    sx = 1 if b.x > a.x else -1
    sy = 1 if b.y > a.y else -1
    x, y = a.x, a.y
    ix = iy = 0
    cells = [a]
    while ix < nx or iy < ny:
        # Compare where the segment next crosses a vertical edge, (0.5 + ix) / nx, with
        # where it next crosses a horizontal edge, (0.5 + iy) / ny, cross-multiplied.
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            cells.append(Pos(x + sx, y))
            cells.append(Pos(x, y + sy))
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif decision < 0:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        cells.append(Pos(x, y))
    return cells


def line_of_fire(grid: Grid, a: Pos, b: Pos) -> bool:
    """Whether a shot from ``a`` reaches ``b`` (K-RNG-02, R-CORE-LOF-01).

    Needs sight, and no opaque square on or touching the segment between the centres.
    Bodies do not block (K-RNG-03).
    """
    if a == b:
        return True
    if any(grid.is_opaque(p) for p in supercover(a, b)[1:-1]):
        return False
    return can_see(grid, a, b)


class Sight:
    """Cached sight queries on one grid, kept in step with the grid's changes.

    Field-of-view arrays are kept per origin (least recently used first out), so many
    questions from the same viewer cost one shadowcast. A change of the board empties the
    cache, except that a square turning clear (a door opened) drops only the fields of
    view that reached it (:meth:`_keep_unreached`).
    """

    def __init__(self, grid: Grid, *, cache_size: int = 256) -> None:
        self.grid = grid
        self.cache_size = cache_size
        self._version = -1
        self._transparency: BoolArray = grid.transparency()
        self._board: _Board | None = None
        self._cache: OrderedDict[Pos, BoolArray] = OrderedDict()
        self._bits: dict[Pos, tuple[int, bytes]] = {}
        """``fov_bits`` of each origin, with the bytes they were read from."""

    def _fresh(self) -> None:
        grid = self.grid
        if self._version != grid.version:
            changed = grid.last_change
            one = self._version + 1 == grid.version
            self._version = grid.version
            before = self._transparency
            self._transparency = grid.transparency()
            board = self._board
            if one and board is not None and changed is not None and changed[0] == grid.version:
                # One square changed (a door opened): libtcod's map takes that square's
                # transparency, not a new board.
                pos = changed[1]
                clear = bool(self._transparency[pos.y, pos.x])
                board.set_transparent(pos, clear)
                if clear == bool(before[pos.y, pos.x]):
                    return  # furniture, a trap: sight is as it was
                if clear:
                    self._keep_unreached(pos)
                    return
            else:
                self._board = None
            self._cache.clear()
            self._bits = {}

    def _keep_unreached(self, pos: Pos) -> None:
        """An opaque square at ``pos`` became clear: the fields of view that did not reach
        it stand. Shadowcasting lights every opaque square within a scan's reach (walls
        are lit, ``light_walls``), so one it left unlit lies wholly in the shadow of
        others, and no scan looked at it: clearing it changes no scan. Closing a door
        (clear to opaque) can cast a new shadow, so that empties the caches."""
        index = pos.y * self.grid.width + pos.x
        cache = self._cache
        kept: dict[Pos, tuple[int, bytes]] = {}
        for origin, bits in self._bits.items():  # a byte read is cheaper than numpy's
            if bits[1][index]:
                cache.pop(origin, None)
            else:
                kept[origin] = bits
        self._bits = kept
        for origin in [o for o in cache if o not in kept and cache[o][pos.y, pos.x]]:
            del cache[origin]

    def fov(self, origin: Pos) -> BoolArray:
        """The unlimited field of view from ``origin`` (C-LOS-01)."""
        self._fresh()
        seen = self._cache.get(origin)
        if seen is None:
            bits = self._bits.get(origin)
            if bits is not None:  # worked out by fov_bits: its bytes are the array's
                shape = self._transparency.shape
                seen = np.frombuffer(bits[1], np.bool_).reshape(shape).copy()
            else:
                seen = self._board_now().fov(origin)
            self._cache[origin] = seen
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(origin)
        return seen

    def fov_bits(self, origin: Pos) -> int:
        """:meth:`fov` as one byte a square (1 seen), row by row, read as a little-endian
        integer: fields of view are then joined and compared with a few integer
        operations instead of numpy calls (each costs more than the work on a small
        board). Kept as :meth:`fov` keeps its arrays."""
        self._fresh()
        found = self._bits.get(origin)
        if found is None:
            array = self._cache.get(origin)
            seen = array.tobytes() if array is not None else self._board_now().fov_bytes(origin)
            found = self._bits[origin] = (int.from_bytes(seen, "little"), seen)
        return found[0]

    def _board_now(self) -> _Board:
        """libtcod's map of the board as it is (:meth:`_fresh` first)."""
        if self._board is None:
            self._board = _Board(self._transparency)
        return self._board

    def can_see(self, a: Pos, b: Pos) -> bool:
        """Whether ``a`` and ``b`` see each other (C-LOS-01)."""
        return bool(self.fov(a)[b.y, b.x])

    def line_of_fire(self, a: Pos, b: Pos) -> bool:
        """Whether a shot from ``a`` reaches ``b`` (K-RNG-02)."""
        if a == b:
            return True
        self._fresh()
        opaque = ~self._transparency
        if any(opaque[p.y, p.x] for p in supercover(a, b)[1:-1]):
            return False
        return self.can_see(a, b)
