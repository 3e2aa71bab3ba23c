"""The square grid both rulesets play on, held in numpy arrays.

Arrays are indexed ``[y, x]`` (row, column): row 0 is the top row of a drawn map, which is
the Dungeon Master's edge in crawl (its board order counts rows from there). Positions are the
small value type :class:`Pos` with ``x`` (column) and ``y`` (row).

Map notation
------------
A map is drawn one character per tile, one text line per row; every row has the same
width. ``docs/core.md`` ("Map notation") is the reference; in short:

====  ==========================================================================
char  tile
====  ==========================================================================
``#``  wall
``.``  floor
``+``  closed door (not yet opened in crawl; closed in keep)
``'``  open door
``&``  locked door (closed, lock armed, keep)
``X``  blockage (rubble: blocks movement and sight, C-LOS-01)
``T``  furniture (blocks movement, not sight, C-LOS-01)
``~``  water (floor that can be waded)
``:``  dark floor
``a``-``z``, ``0``-``9``, ``@``  floor carrying a named marker (start squares, test points)
====  ==========================================================================

Named areas (rooms and corridors) come from a second drawing of the same size in which
each character is an area key (``.``, ``#`` and space mean "no area").

>>> g = Grid.from_text('''
... #####
... #a.+#
... #####
... ''')
>>> g.width, g.height, g.markers["a"]
(5, 3, Pos(x=1, y=1))
>>> g.door_at(Pos(3, 1))
<DoorState.CLOSED: 1>
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

BoolArray = NDArray[np.bool_]


class MapError(ValueError):
    """A map drawing or area drawing that cannot be read; names the row and column."""

    def __init__(self, message: str, *, row: int | None = None, column: int | None = None):
        self.row = row
        self.column = column
        where = ""
        if row is not None:
            where = f"map row {row + 1}" + (f", column {column + 1}" if column is not None else "")
            where += ": "
        super().__init__(where + message)


class Pos(NamedTuple):
    """A square on the grid: ``x`` counts columns from the left, ``y`` rows from the top.

    A named tuple: hashing, equality and ordering (by ``x``, then ``y``) run in C, which
    matters since squares are the keys of the hottest sets and dicts of both engines.
    """

    x: int
    y: int

    def __str__(self) -> str:
        return f"({self.x},{self.y})"

    def offset(self, dx: int, dy: int) -> Pos:
        return Pos(self.x + dx, self.y + dy)

    def orthogonal(self) -> tuple[Pos, Pos, Pos, Pos]:
        """The four squares sharing an edge with this one (C-DIST-01: no diagonal steps)."""
        x, y = self.x, self.y
        return (Pos(x, y - 1), Pos(x + 1, y), Pos(x, y + 1), Pos(x - 1, y))

    def beyond(self, over: Pos) -> Pos:
        """The square past ``over`` in line from this one: where a jump from here over
        ``over`` lands (C-JUMP-01)."""
        return Pos(2 * over.x - self.x, 2 * over.y - self.y)

    def manhattan(self, other: Pos) -> int:
        """Squares counted orthogonally on an empty board (C-DIST-01 with nothing in the way)."""
        return abs(self.x - other.x) + abs(self.y - other.y)

    def chebyshev(self, other: Pos) -> int:
        """King-move distance, used for keep radii (R-K-DIST-01)."""
        return max(abs(self.x - other.x), abs(self.y - other.y))

    def is_adjacent(self, other: Pos) -> bool:
        """Orthogonally adjacent (who fights whom, who can disarm)."""
        return abs(self.x - other.x) + abs(self.y - other.y) == 1

    # A square has no use for tuple.index (finding a coordinate by value); the name keeps
    # the numpy index it always meant.
    @property
    def index(self) -> tuple[int, int]:  # type: ignore[override]
        """The numpy index ``(row, column)`` of this square."""
        return (self.y, self.x)


S = TypeVar("S")

SIZES_KEPT: Final = 16
"""How many map sizes :func:`by_size` keeps a table for (maps of many sizes: the memory
stays flat)."""


def by_size(
    kept: dict[tuple[int, int], S], width: int, height: int, make: Callable[[int, int], S]
) -> S:
    """``make(width, height)``, made once a map size and kept in ``kept``. The size caches
    of the engines are dicts read through this rather than ``functools.lru_cache``:
    compiled, a call through ``lru_cache`` costs about ten dict reads, and a crawl game
    asks hundreds of times."""
    found = kept.get((width, height))
    if found is None:
        if len(kept) >= SIZES_KEPT:
            kept.clear()
        found = kept[width, height] = make(width, height)
    return found


_NEIGHBOUR_TABLES: Final[dict[tuple[int, int], dict[Pos, tuple[Pos, ...]]]] = {}
"""Each map size's :func:`neighbour_table`."""


def neighbour_table(width: int, height: int) -> dict[Pos, tuple[Pos, ...]]:
    """Every square of a ``width`` x ``height`` map with its orthogonal neighbours on the
    map: built once per map size, since movement, monster reach and patrols ask for
    neighbours tens of thousands of times a game. Read-only by convention."""
    return by_size(_NEIGHBOUR_TABLES, width, height, _neighbours_on_map)


def _neighbours_on_map(width: int, height: int) -> dict[Pos, tuple[Pos, ...]]:
    table: dict[Pos, tuple[Pos, ...]] = {}
    for y in range(height):
        for x in range(width):
            table[Pos(x, y)] = tuple(
                p for p in Pos(x, y).orthogonal() if 0 <= p.x < width and 0 <= p.y < height
            )
    return table


class SquareTable:
    """The squares of a ``width`` x ``height`` map by index (``y * width + x``) and the
    indices of each one's orthogonal neighbours on the map, in :func:`neighbour_table`'s
    order: for searches that step over integers rather than hashing positions.
    Read-only by convention (:func:`square_table` shares one a size)."""

    def __init__(self, width: int, height: int) -> None:
        self.squares: tuple[Pos, ...] = tuple(
            Pos(x, y) for y in range(height) for x in range(width)
        )
        table = neighbour_table(width, height)
        self.around: tuple[tuple[int, ...], ...] = tuple(
            tuple(q.y * width + q.x for q in table[p]) for p in self.squares
        )


_SQUARE_TABLES: Final[dict[tuple[int, int], SquareTable]] = {}
"""Each map size's :class:`SquareTable`."""


def square_table(width: int, height: int) -> SquareTable:
    """The :class:`SquareTable` of a map size, made once."""
    return by_size(_SQUARE_TABLES, width, height, SquareTable)


AREA_KEPT_MOST: Final = 4096
"""The most answers :meth:`Grid.keep_for_areas` keeps for a grid and its copies."""


class Terrain(enum.IntEnum):
    """What a tile is made of. Doors carry a separate :class:`DoorState`."""

    FLOOR = 0
    """Open ground: walkable, transparent."""
    WALL = 1
    """Solid rock: blocks movement and sight."""
    DOOR = 2
    """A doorway holding a door; whether it blocks depends on its :class:`DoorState`."""
    BLOCKAGE = 3
    """Rubble or a sealed passage: blocks movement and sight (C-LOS-01)."""


class DoorState(enum.IntEnum):
    """The state of the door on a :attr:`Terrain.DOOR` tile."""

    NONE = 0
    """Not a door tile."""
    CLOSED = 1
    """Closed (in crawl: not yet opened). Blocks sight (C-LOS-01)."""
    OPEN = 2
    """Open: walkable and transparent."""
    LOCKED = 3
    """Closed with an armed lock (keep). Blocks sight."""


TERRAINS: Final = tuple(Terrain)
"""Each :class:`Terrain` at the index of its code (the codes are 0, 1, 2, 3)."""
DOOR_STATES: Final = tuple(DoorState)
"""Each :class:`DoorState` at the index of its code."""
FLOOR_CODE: Final = 0
WALL_CODE: Final = 1
BLOCKAGE_CODE: Final = 3
DOOR_CODE: Final = 2
OPEN_CODE: Final = 2
"""The codes of :class:`Terrain` FLOOR, WALL, BLOCKAGE, DOOR and :class:`DoorState` OPEN
as plain ints, for square-by-square questions and for numpy comparisons (an array
compared with an enum member takes a slow path); the enums are checked against them
below."""
assert [int(t) for t in (Terrain.FLOOR, Terrain.WALL, Terrain.BLOCKAGE, Terrain.DOOR)] == [
    FLOOR_CODE,
    WALL_CODE,
    BLOCKAGE_CODE,
    DOOR_CODE,
]
assert int(DoorState.OPEN) == OPEN_CODE


@dataclass(frozen=True, slots=True)
class AreaInfo:
    """A named room or corridor."""

    name: str
    kind: str = "room"
    """``room`` or ``corridor`` (crawl patrols appear in corridors)."""


_TERRAIN_CHARS: Final[Mapping[str, tuple[Terrain, DoorState]]] = {
    "#": (Terrain.WALL, DoorState.NONE),
    ".": (Terrain.FLOOR, DoorState.NONE),
    "+": (Terrain.DOOR, DoorState.CLOSED),
    "'": (Terrain.DOOR, DoorState.OPEN),
    "&": (Terrain.DOOR, DoorState.LOCKED),
    "X": (Terrain.BLOCKAGE, DoorState.NONE),
    "T": (Terrain.FLOOR, DoorState.NONE),
    "~": (Terrain.FLOOR, DoorState.NONE),
    ":": (Terrain.FLOOR, DoorState.NONE),
}
_MARKER_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789@")
MAP_CHARS: Final = "".join(_TERRAIN_CHARS) + "a-z 0-9 @"
_NO_AREA: Final = frozenset(".# ")


def _rows(text: str) -> list[str]:
    """Split a drawing into rows, dropping the blank lines a TOML triple-quote leaves."""
    rows = text.split("\n")
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return [row.rstrip("\r") for row in rows]


@dataclass(eq=False)
class Grid:
    """A square-grid map: terrain, doors, furniture, water, darkness and named areas.

    Every mutation goes through a method that bumps :attr:`version`, so sight and path
    caches know when to recompute. The areas (:attr:`area`, :attr:`areas`) are drawn when
    the map is made and never change after: what is read of them is kept, and shared
    with the grid's copies.
    """

    terrain: NDArray[np.uint8]
    door: NDArray[np.uint8]
    furniture: BoolArray
    water: BoolArray
    dark: BoolArray
    area: NDArray[np.int16]
    areas: list[AreaInfo] = field(default_factory=list)
    markers: dict[str, Pos] = field(default_factory=dict)
    version: int = 0
    terrain_version: int = 0
    """Bumped only when terrain or furniture change (not doors opening and closing), for
    caches of what only the ground decides (solid squares, rooms)."""
    width: int = field(init=False)
    height: int = field(init=False)
    last_change: tuple[int, Pos] | None = field(init=False, repr=False)
    """The version a single-square change made, and the square (for caches to patch)."""
    _neighbours: dict[Pos, tuple[Pos, ...]] = field(init=False, repr=False)
    _area_rows: list[list[int]] | None = field(init=False, repr=False)
    """:attr:`area` as plain lists, made when first read (no method changes areas)."""
    _area_kept: dict[Hashable, Any] = field(init=False, repr=False)
    """What :meth:`keep_for_areas` keeps (:meth:`squares_of` too), shared with this
    grid's copies: a game's board, a copy of its adventure's, finds what earlier games
    found."""

    def __post_init__(self) -> None:
        # Plain attributes: bounds checks sit on the hottest paths of the engines.
        self.height, self.width = (int(n) for n in self.terrain.shape)
        self.last_change = None
        self._area_rows = None
        self._area_kept = {}
        self._neighbours = neighbour_table(self.width, self.height)  # the shared table

    # -- construction ---------------------------------------------------------------

    @classmethod
    def empty(cls, width: int, height: int) -> Grid:
        """An all-floor grid of the given size."""
        if width <= 0 or height <= 0:
            raise MapError(f"a map needs a positive size, got {width}x{height}")
        shape = (height, width)
        return cls(
            terrain=np.zeros(shape, np.uint8),
            door=np.zeros(shape, np.uint8),
            furniture=np.zeros(shape, np.bool_),
            water=np.zeros(shape, np.bool_),
            dark=np.zeros(shape, np.bool_),
            area=np.full(shape, -1, np.int16),
        )

    @classmethod
    def from_text(
        cls,
        text: str,
        *,
        areas: str | None = None,
        area_info: Mapping[str, AreaInfo] | None = None,
    ) -> Grid:
        """Read a map drawn in the map notation (see the module docstring)."""
        rows = _rows(text)
        if not rows:
            raise MapError("the map drawing is empty")
        width = len(rows[0])
        for r, row in enumerate(rows):
            if len(row) != width:
                raise MapError(
                    f"every row must be {width} characters wide like the first, "
                    f"this one is {len(row)}",
                    row=r,
                )
        grid = cls.empty(width, len(rows))
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                grid._set_from_char(ch, r, c)
        if areas is not None:
            grid._read_areas(areas, area_info or {})
        return grid

    def _set_from_char(self, ch: str, r: int, c: int) -> None:
        if ch in _MARKER_CHARS:
            if ch in self.markers:
                raise MapError(f"marker {ch!r} is used twice", row=r, column=c)
            self.markers[ch] = Pos(c, r)
            return
        if ch not in _TERRAIN_CHARS:
            raise MapError(f"unknown map character {ch!r}; allowed: {MAP_CHARS}", row=r, column=c)
        terrain, door = _TERRAIN_CHARS[ch]
        self.terrain[r, c] = terrain
        self.door[r, c] = door
        self.furniture[r, c] = ch == "T"
        self.water[r, c] = ch == "~"
        self.dark[r, c] = ch == ":"

    def _read_areas(self, text: str, info: Mapping[str, AreaInfo]) -> None:
        rows = _rows(text)
        if len(rows) != self.height:
            raise MapError(f"the area drawing has {len(rows)} rows, the map has {self.height}")
        keys: dict[str, int] = {}
        for r, row in enumerate(rows):
            if len(row) != self.width:
                raise MapError(
                    f"area rows must be {self.width} characters wide, this one is {len(row)}",
                    row=r,
                )
            for c, ch in enumerate(row):
                if ch in _NO_AREA:
                    continue
                if ch not in keys:
                    keys[ch] = len(self.areas)
                    self.areas.append(info.get(ch, AreaInfo(name=ch)))
                self.area[r, c] = keys[ch]

    # -- reading --------------------------------------------------------------------

    def in_bounds(self, pos: Pos) -> bool:
        return 0 <= pos.x < self.width and 0 <= pos.y < self.height

    def positions(self) -> Iterator[Pos]:
        """Every square, row by row from the top (crawl's board order)."""
        for y in range(self.height):
            for x in range(self.width):
                yield Pos(x, y)

    def neighbours(self, pos: Pos) -> tuple[Pos, ...]:
        """The orthogonal neighbours inside the map (C-DIST-01), in the order of
        :meth:`Pos.orthogonal` (from a table shared by every map of this size)."""
        found = self._neighbours.get(pos)
        if found is None:  # a square off the map still has neighbours on it
            w, h = self.width, self.height
            return tuple(p for p in pos.orthogonal() if 0 <= p.x < w and 0 <= p.y < h)
        return found

    def terrain_at(self, pos: Pos) -> Terrain:
        # By index: calling an Enum class (``Terrain(code)``) runs Python code each time.
        return TERRAINS[self.terrain.item(pos.y, pos.x)]

    def door_at(self, pos: Pos) -> DoorState:
        return DOOR_STATES[self.door.item(pos.y, pos.x)]

    def is_door(self, pos: Pos) -> bool:
        # ``item`` gives a Python int: a numpy scalar compared with an IntEnum member
        # costs microseconds, and sight asks this square by square.
        return bool(self.terrain.item(pos.y, pos.x) == DOOR_CODE)

    def area_at(self, pos: Pos) -> AreaInfo | None:
        rows = self._area_rows
        if rows is None:  # read from plain lists: a numpy ``item`` costs a method call
            rows = self._area_rows = self.area.tolist()
        index = rows[pos.y][pos.x]
        return self.areas[index] if index >= 0 else None

    def area_named(self, name: str) -> int:
        """The index of the area with this name; ``KeyError`` names the known ones."""
        for i, info in enumerate(self.areas):
            if info.name == name:
                return i
        known = ", ".join(a.name for a in self.areas) or "none"
        raise KeyError(f"no area named {name!r}; known areas: {known}")

    def kept_for_areas(self, key: Hashable) -> Any:
        """What :meth:`keep_for_areas` kept under ``key`` on this grid or on the grid it
        is a copy of (or a copy of that), else ``None``."""
        return self._area_kept.get(key)

    def keep_for_areas(self, key: Hashable, value: Any) -> None:
        """Keep an answer worked out from the areas alone and what ``key`` holds (never
        from what changes on the board: doors, terrain) for this grid and its copies; a
        batch of games of one adventure then works it out once. At most
        :data:`AREA_KEPT_MOST` answers: then it starts again."""
        kept = self._area_kept
        if len(kept) >= AREA_KEPT_MOST:
            kept.clear()
        kept[key] = value

    def doors_around(self, name: str) -> list[Pos]:
        """The door squares in the walls of a named area (orthogonally next to one of its
        squares), in board order."""
        found = {
            door
            for square in self.squares_of(name)
            for door in square.orthogonal()
            if self.in_bounds(door) and self.is_door(door)
        }
        return sorted(found, key=lambda p: (p.y, p.x))

    def squares_of(self, name: str) -> list[Pos]:
        """The squares of a named area, in board order."""
        key = ("squares_of", name)
        found: list[Pos] | None = self.kept_for_areas(key)
        if found is None:
            ys, xs = np.nonzero(self.area == self.area_named(name))
            found = [Pos(int(x), int(y)) for y, x in zip(ys, xs, strict=True)]
            self.keep_for_areas(key, found)
        return list(found)

    def opaque(self) -> BoolArray:
        """Squares that block sight (C-LOS-01): walls, blockages, closed or locked doors.

        Furniture, water, darkness and bodies never block sight.
        """
        t = self.terrain
        closed_door = (t == Terrain.DOOR) & (self.door != DoorState.OPEN)
        result: BoolArray = (t == Terrain.WALL) | (t == Terrain.BLOCKAGE) | closed_door
        return result

    def transparency(self) -> BoolArray:
        """The complement of :meth:`opaque`, in the form python-tcod's FOV takes (cached
        until the grid changes; do not modify)."""
        cached = getattr(self, "_transparent", None)
        if cached is not None and cached[0] == self.version:
            found: BoolArray = cached[1]
            return found
        result: BoolArray = ~self.opaque()
        self._transparent = (self.version, result)
        return result

    def is_opaque(self, pos: Pos) -> bool:
        t = self.terrain.item(pos.y, pos.x)  # a Python int (see is_door)
        if t in (WALL_CODE, BLOCKAGE_CODE):
            return True
        return bool(t == DOOR_CODE and self.door.item(pos.y, pos.x) != OPEN_CODE)

    def solid(self) -> BoolArray:
        """Squares no figure may ever stand on: walls, blockages and furniture (C-LOS-01)."""
        t = self.terrain
        result: BoolArray = (t == Terrain.WALL) | (t == Terrain.BLOCKAGE) | self.furniture
        return result

    # -- changing -------------------------------------------------------------------

    def set_door(self, pos: Pos, state: DoorState) -> None:
        """Change a door's state (opened, closed, locked)."""
        if not self.is_door(pos):
            raise MapError(f"there is no door at {pos}")
        if state is DoorState.NONE:
            raise MapError("a door tile needs a door state other than NONE")
        self.door[pos.y, pos.x] = state
        self.version += 1
        self._changed(pos)

    def set_terrain(self, pos: Pos, terrain: Terrain, door: DoorState = DoorState.NONE) -> None:
        """Dig, wall up, block or place a door on a square."""
        if (terrain is Terrain.DOOR) != (door is not DoorState.NONE):
            raise MapError("a door tile needs a door state, and only a door tile has one")
        self.terrain[pos.y, pos.x] = terrain
        self.door[pos.y, pos.x] = door
        self.version += 1
        self.terrain_version += 1
        self._changed(pos)

    def set_furniture(self, pos: Pos, present: bool = True) -> None:
        self.furniture[pos.y, pos.x] = present
        self.version += 1
        self.terrain_version += 1
        self._changed(pos)

    def _changed(self, pos: Pos) -> None:
        """One square changed (this version is the last one's but for ``pos``): the cached
        :meth:`char_array` and :meth:`transparency` of the version before become this
        one's by a copy with that square redrawn (a door opening redraws one square, not
        the board); arrays handed out before are left as they were. :attr:`last_change`
        tells other caches (sight) which square it was."""
        self.last_change = (self.version, pos)
        cached = getattr(self, "_chars", None)
        if cached is not None and cached[0] == self.version - 1:
            out = cached[1].copy()
            out[pos.y, pos.x] = self.char_at(pos).encode()
            self._chars = (self.version, out)
        clear = getattr(self, "_transparent", None)
        if clear is not None and clear[0] == self.version - 1:
            seen = clear[1].copy()
            seen[pos.y, pos.x] = not self.is_opaque(pos)
            self._transparent = (self.version, seen)

    def copy(self) -> Grid:
        copy = Grid(
            terrain=self.terrain.copy(),
            door=self.door.copy(),
            furniture=self.furniture.copy(),
            water=self.water.copy(),
            dark=self.dark.copy(),
            area=self.area.copy(),
            areas=list(self.areas),
            markers=dict(self.markers),
            version=self.version,
            terrain_version=self.terrain_version,
        )
        # The areas are the same and never change once read: what is read of them stands
        # for every copy (a game's board is a copy of its adventure's).
        if self._area_rows is None:
            self._area_rows = self.area.tolist()
        copy._area_rows = self._area_rows
        copy._area_kept = self._area_kept
        return copy

    # -- writing --------------------------------------------------------------------

    def char_at(self, pos: Pos) -> str:
        """The map-notation character of a square (markers not included)."""
        terrain = self.terrain_at(pos)
        if terrain is Terrain.WALL:
            return "#"
        if terrain is Terrain.BLOCKAGE:
            return "X"
        if terrain is Terrain.DOOR:
            return {DoorState.CLOSED: "+", DoorState.OPEN: "'", DoorState.LOCKED: "&"}[
                self.door_at(pos)
            ]
        if self.furniture[pos.y, pos.x]:
            return "T"
        if self.water[pos.y, pos.x]:
            return "~"
        if self.dark[pos.y, pos.x]:
            return ":"
        return "."

    def char_array(self) -> NDArray[np.bytes_]:
        """The map-notation character of every square as a ``[y, x]`` array of bytes
        (markers not included); cached until the grid changes."""
        cached = getattr(self, "_chars", None)
        if cached is not None and cached[0] == self.version:
            result: NDArray[np.bytes_] = cached[1]
            return result
        t = self.terrain
        out = np.full(t.shape, b".", dtype="S1")
        out[self.dark] = b":"
        out[self.water] = b"~"
        out[self.furniture] = b"T"
        out[t == Terrain.WALL] = b"#"
        out[t == Terrain.BLOCKAGE] = b"X"
        door = t == Terrain.DOOR
        out[door & (self.door == DoorState.CLOSED)] = b"+"
        out[door & (self.door == DoorState.OPEN)] = b"'"
        out[door & (self.door == DoorState.LOCKED)] = b"&"
        self._chars = (self.version, out)
        return out

    def to_text(self, *, markers: bool = True) -> str:
        """The map in map notation; :meth:`from_text` reads it back to an equal grid."""
        rows = [[self.char_at(Pos(x, y)) for x in range(self.width)] for y in range(self.height)]
        if markers:
            for name, pos in self.markers.items():
                rows[pos.y][pos.x] = name
        return "\n".join("".join(row) for row in rows) + "\n"

    def same_layout(self, other: Grid) -> bool:
        """True if both grids hold the same tiles, areas and markers (version ignored)."""
        return (
            all(
                np.array_equal(a, b)
                for a, b in (
                    (self.terrain, other.terrain),
                    (self.door, other.door),
                    (self.furniture, other.furniture),
                    (self.water, other.water),
                    (self.dark, other.dark),
                    (self.area, other.area),
                )
            )
            and self.areas == other.areas
            and self.markers == other.markers
        )
