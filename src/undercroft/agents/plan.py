"""Planning over what the heroes see: the board they remember, and searches on it.

Pure functions and small objects over what a seat sees (:mod:`undercroft.crawl.observe`),
never the state (ARCHITECTURE.md "Hidden information").

:class:`Memory`  the board as the party remembers it: what it sees now, and elsewhere what
                 it last saw there, one byte a square (map notation, ``?`` unknown)
:class:`Search`  the step-cost distances from one or more squares over a remembered board,
                 worked out outwards only as far as the questions asked of it need
                 (Dial's algorithm: the costs are small integers): "the nearest square
                 of these", "the way there"

A question is answered exactly as a whole-board distance map would answer it (the nearest
square, ties by row then column; the way back down the map as ``tcod.path.hillclimb2d``
walks it), but a search that finds its answer a few squares away stops there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

import numpy as np
from mypy_extensions import i64

from undercroft.agents.vecs import append, vec
from undercroft.core.grid import Pos, by_size
from undercroft.crawl.observe import SHOWN, UNKNOWN

FAR: Final = np.iinfo(np.int32).max
"""The distance of a square a search cannot reach."""
WALKABLE_CHARS: Final = b".'~:abcdefghijklmnopqrstuvwxyz0123456789@"
WALKABLE: Final = bytes(1 if c in WALKABLE_CHARS else 0 for c in range(256))
"""``WALKABLE[code]``: whether a known square of that map character can be walked."""
UNKNOWN_CODE: Final = ord(UNKNOWN)
SHUT_CODE: Final = ord("+")
FURNITURE_CODE: Final = ord("T")
"""Furniture on the remembered board (blocks movement, may be jumped, C-JUMP-01)."""
PLANNING_COST: Final = bytes(
    1 if WALKABLE[c] else 3 if c == UNKNOWN_CODE else 4 if c == SHUT_CODE else 0 for c in range(256)
)
"""Step costs for planning: known floor 1, a shut door 4 (it must be forced), an unknown
square 3 (it may well be floor), walls never (0)."""
PLANNING_MOST: Final = max(PLANNING_COST)
"""The largest planning step cost (``Search``'s ``most``)."""
WALK_COST: Final = WALKABLE
"""Step costs over known floor only (unknown squares and shut doors never)."""
UP_TO_4: Final = bytes(range(5))
"""The step costs planning uses (0 to 4): a board of only these needs no ``max``."""
NEW_SQUARE: Final = bytes(1 if c in (UNKNOWN_CODE, SHUT_CODE) else 0 for c in range(256))
"""``NEW_SQUARE[code]``: an unknown square or a shut door (somewhere new beyond)."""


def neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each square (``y * width + x``) its orthogonal neighbours, in the order
    ``tcod.path.hillclimb2d`` looks at them: up, down, left, right (made once per board
    shape, by :func:`shape_of`)."""
    table = []
    for y in range(height):
        for x in range(width):
            around = []
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                if 0 <= x + dx < width and 0 <= y + dy < height:
                    around.append((y + dy) * width + x + dx)
            table.append(tuple(around))
    return tuple(table)


class Shape:
    """What searches and memories of one board shape read, made once per shape
    (:func:`shape_of`): the neighbour tables, a row of ``FAR`` to copy, the squares."""

    def __init__(self, width: int, height: int) -> None:
        self.around = neighbours(width, height)
        table: list[int] = []
        for around in self.around:
            table.extend(around)
            table.extend([-1] * (4 - len(around)))
        self.table: vec[i64] = vec[i64](table)
        """:func:`neighbours` packed: four entries a square, ``-1`` after the last
        neighbour of a square on the board's edge."""
        self.far: vec[i64] = vec[i64]([FAR] * (width * height))
        """A distance of ``FAR`` for every square (a copy is one ``memcpy``)."""
        self.squares = tuple(Pos(x, y) for y in range(height) for x in range(width))
        """The position of each square (``y * width + x``)."""


_SHAPES: Final[dict[tuple[int, int], Shape]] = {}
"""Each board size's :class:`Shape`."""


def shape_of(width: int, height: int) -> Shape:
    """The :class:`Shape` of a ``width`` x ``height`` board, made once."""
    return by_size(_SHAPES, width, height, Shape)


class Memory:
    """The board as the party remembers it (one byte a square, row by row)."""

    def __init__(self, codes: bytes, width: int) -> None:
        self.width = width
        self.height = len(codes) // width
        self.shape = shape_of(width, self.height)
        self.codes = codes
        """The remembered board; a new object whenever it changes."""
        self._bits = int.from_bytes(codes, "little")
        self._frontier: tuple[bytes | None, bytes] = (None, b"")
        self._costs: tuple[bytes | None, dict[bytes, bytes]] = (None, {})

    def see(self, codes: bytes, read: tuple[int, int] | None = None) -> None:
        """Remember what the board ``codes`` shows (squares it shows as ``?`` keep what
        was last seen there); ``read``: ``codes`` read as an integer and the mask of the
        squares it shows (``Seen.board_bits``), if the caller has them."""
        if codes == self.codes:
            return
        # One byte a square read as one integer: 0xFF where ``codes`` shows the square.
        if read is None:
            read = int.from_bytes(codes, "little"), int.from_bytes(codes.translate(SHOWN), "little")
        self.see_bits(read[0], read[1])

    def see_bits(self, board: int, shown: int) -> None:
        """:meth:`see` of a board of the memory's size given only as ``Seen.board_bits``
        (the board read as an integer, and the mask of the squares it shows)."""
        # (old & ~shown) | (new & shown), with no negative number (see board_view._board).
        bits = self._bits ^ ((self._bits ^ board) & shown)
        if bits != self._bits:
            self._bits = bits
            self.codes = bits.to_bytes(len(self.codes), "little")

    def index(self, p: Pos) -> int:
        return p.y * self.width + p.x

    def costs(self, table: bytes) -> bytes:
        """The step cost of each square by ``table`` (``PLANNING_COST``, ``WALK_COST``),
        kept until the memory changes (a hero's decisions ask it again and again)."""
        kept = self._costs
        if kept[0] is not self.codes:
            kept = self._costs = (self.codes, {})
        found = kept[1].get(table)
        if found is None:
            found = kept[1][table] = self.codes.translate(table)
        return found

    def pos(self, i: int) -> Pos:
        return self.shape.squares[i]

    def walkable(self, i: int) -> bool:
        return bool(WALKABLE[self.codes[i]])

    def frontier(self) -> bytes:
        """For each square, 1 if it is known, a figure may stand on it, and it leads
        somewhere new (next to an unknown square or a shut door); cached until the
        memory changes."""
        if self._frontier[0] is not self.codes:
            # The board's bytes read as one integer (one byte a square, 0 or 1): a shift
            # of 8 bits is a step sideways, of 8 * width a step up or down; the masks keep
            # a sideways step from wrapping onto the next row.
            width, size = self.width, len(self.codes)
            new = int.from_bytes(self.codes.translate(NEW_SQUARE), "little")
            left, right = _row_masks(width, self.height)
            near = (new << 8 * width) | (new >> 8 * width)
            near |= ((new << 8) & left) | ((new >> 8) & right)
            walkable = int.from_bytes(self.codes.translate(WALKABLE), "little")
            self._frontier = (self.codes, (walkable & near).to_bytes(size, "little"))
        return self._frontier[1]


_ROW_MASKS: Final[dict[tuple[int, int], tuple[int, int]]] = {}
"""Each board size's :func:`_row_masks`."""


def _row_masks(width: int, height: int) -> tuple[int, int]:
    """One byte a square, 1 except in the first column (``left``: squares with a
    neighbour to their left) and except in the last (``right``), as integers."""
    return by_size(_ROW_MASKS, width, height, _masks_of_rows)


def _masks_of_rows(width: int, height: int) -> tuple[int, int]:
    row = bytes([0] + [1] * (width - 1))
    left = int.from_bytes(row * height, "little")
    right = int.from_bytes(row[::-1] * height, "little")
    return left, right


def mask_of(size: int, squares: Iterable[int]) -> bytes:
    """A mask (one byte a square, 1 marked) of the ``squares``."""
    out = bytearray(size)
    for i in squares:
        out[i] = 1
    return bytes(out)


def either(a: bytes, b: bytes) -> bytes:
    """The squares marked in ``a`` or ``b`` (masks of 0 and 1 bytes)."""
    joined = int.from_bytes(a, "little") | int.from_bytes(b, "little")
    return joined.to_bytes(max(len(a), len(b)), "little")


def ranks_mask(area_codes: bytes, ranks: Iterable[int]) -> bytes:
    """The squares whose area rank (``Seen.area_codes``) is one of ``ranks``."""
    table = bytearray(256)
    for r in ranks:
        table[r] = 1
    return area_codes.translate(table)


class Search:
    """Distances by step cost (``costs``, one byte a square, 0 never) from the
    ``origins`` over a ``width``-wide board, with ``blocked`` squares impassable (an
    origin never is), worked out level by level only as far as asked.

    The distances, the neighbour table and the queues are ``librt.vecs.vec[i64]``: packed
    machine integers, which the compiled build reads and writes as C arrays (lists of
    Python ints box every number they hold). Compiled, that made a Greyhollow game about
    11% fewer instructions; as plain Python a vec is slower than a list (a pure game
    took 43% more, callgrind, 2026-12-01), so run as Python the same names stand for
    lists (:mod:`undercroft.agents.vecs`: about 12% more pure games a second)."""

    def __init__(
        self,
        costs: bytes,
        width: int,
        origins: Iterable[int],
        blocked: Iterable[int] = (),
        *,
        most: int | None = None,
    ) -> None:
        """``most``: the largest step cost in ``costs``, if the caller knows it (a board
        translated by ``PLANNING_COST``: ``max(PLANNING_COST)``); it spares a pass over
        the board, and must not be less than the largest cost."""
        self.costs = costs
        self.width = width
        shape = shape_of(width, len(costs) // width)
        self.around = shape.around
        self._next = shape.table
        starts = list(origins)
        if len(starts) > 1:
            starts = list(dict.fromkeys(starts))
        self._starts = starts
        held = set(blocked)
        if held:
            held.difference_update(starts)
        self.blocked = held
        # The cost of stepping into each square, 0 for the blocked too: one byte to read
        # a step rather than a set to look in.
        if held:
            steps = bytearray(costs)
            for i in held:
                steps[i] = 0
            self._steps = bytes(steps)
        else:
            self._steps = costs
        self.dist: vec[i64] = shape.far[:]
        """The distance of each square found so far (``FAR`` if none yet)."""
        first: vec[i64] = vec[i64]()
        for i in starts:
            self.dist[i] = 0
            first = append(first, i)
        # Dial's queues as a ring: a square is queued at most ``span - 1`` levels ahead
        # (the costs planning uses are at most 4: ``max`` of a board costs a whole loop).
        # A vec of vecs, not a list: a list boxes the vec it is handed at every append.
        if most is not None:
            span: i64 = max(most, 1) + 1
        else:
            span = 5 if not costs.translate(None, UP_TO_4) else max(costs) + 1
        ring: vec[vec[i64]] = vec[vec[i64]]()
        ring = append(ring, first)
        for _ in range(span - 1):
            ring = append(ring, vec[i64]())
        self._ring = ring
        self._queued: i64 = len(starts)
        self._order: vec[i64] = vec[i64]()
        """The squares settled, level after level."""
        self._marks: vec[i64] = append(vec[i64](), 0)
        """Where each level settled starts in ``_order`` (and, last, where the next will)."""
        self.asked: tuple[object, int | None] | None = None
        """A question's object and the answer found for it (callers that ask the same
        question twice of one search keep it here)."""

    def finds_the_same(self, costs: bytes, origins: Iterable[int], blocked: Iterable[int]) -> bool:
        """Whether a new search over ``costs`` from ``origins`` with ``blocked`` would find
        exactly what this one found, because this one has settled every square it can
        reach and the new one differs from it only in squares it never looked at: the
        same costs and origins, and every square blocked in one and not in the other is
        neither reached nor next to a square reached (a search only ever reads the squares
        next to those it settles, so the new one would settle the same squares at the same
        distances in the same order). If so, this search takes the new blocked squares
        (for :meth:`enterable`) and forgets :attr:`asked`."""
        if self._queued != 0 or costs != self.costs:
            return False
        starts = list(dict.fromkeys(origins))
        if starts != self._starts:
            return False
        now = set(blocked)
        now.difference_update(starts)
        dist, table = self.dist, self._next
        for i in now.symmetric_difference(self.blocked):
            if dist[i] != FAR:
                return False
            base: i64 = 4 * i
            for k in range(4):
                j = table[base + k]
                if j < 0:
                    break
                if dist[j] != FAR:
                    return False
        self.blocked = now
        self.asked = None
        return True

    def enterable(self, i: int) -> bool:
        """Whether the search could ever reach square ``i`` (an origin, or a square that
        is neither a wall nor blocked): a quick no before a search of the whole board."""
        return self.dist[i] == 0 or (self.costs[i] != 0 and i not in self.blocked)

    def _settle_next(self) -> bool:
        """Settle every square of the next distance; ``False`` when none is left."""
        if self._queued == 0:
            return False
        marks = self._marks
        d: i64 = len(marks) - 1
        ring = self._ring
        span: i64 = len(ring)
        slot: i64 = d % span
        bucket = ring[slot]
        # Steps cost 1 to span - 1, so nothing is queued into this slot while it is read.
        ring[slot] = vec[i64]()
        self._queued -= len(bucket)
        dist, steps, table, order = self.dist, self._steps, self._next, self._order
        queued: i64 = 0
        for i in bucket:
            if dist[i] != d:
                continue  # reached more cheaply since it was queued
            order = append(order, i)
            base: i64 = 4 * i
            for k in range(4):
                j = table[base + k]
                if j < 0:
                    break
                c: i64 = steps[j]
                if c:
                    reached = d + c
                    if reached < dist[j]:
                        dist[j] = reached
                        to = reached % span
                        ring[to] = append(ring[to], j)
                        queued += 1
        self._queued += queued
        self._order = order
        self._marks = append(marks, len(order))
        return True

    def nearest(self, wanted: bytes, key: Callable[[int], int] | None = None) -> int | None:
        """The nearest reachable square marked in ``wanted`` (one byte a square); among
        the nearest, the lowest by ``key`` (default: row, then column). ``None`` if none
        is reachable."""
        d: i64 = 0
        while True:
            while d >= len(self._marks) - 1:
                if not self._settle_next():
                    return None
            order = self._order
            start, end = self._marks[d], self._marks[d + 1]
            if key is None:
                best: i64 = -1
                for n in range(start, end):
                    i = order[n]
                    if wanted[i] and (best < 0 or i < best):
                        best = i
                if best >= 0:
                    return best
            else:
                found: list[int] = [order[n] for n in range(start, end) if wanted[order[n]]]
                if found:
                    return min(found, key=key)
            d += 1

    def distance(self, i: int) -> int:
        """The distance to square ``i`` (``FAR`` if it cannot be reached)."""
        # Settled squares are those nearer than the levels settled so far; a square only
        # queued holds a distance no shorter than that.
        while self.dist[i] >= len(self._marks) - 1:
            if not self._settle_next():
                return FAR
        return self.dist[i]

    def path_to(self, goal: int) -> list[int]:
        """The way from the origin to a square already found (origin excluded): back down
        the distances from ``goal``, each step to the first strictly nearer neighbour in
        the order up, down, left, right (as ``tcod.path.hillclimb2d`` walks a map)."""
        dist, table = self.dist, self._next
        steps = [goal]
        here: i64 = goal
        while True:
            best, step = dist[here], here
            base: i64 = 4 * here
            for k in range(4):
                j = table[base + k]
                if j < 0:
                    break
                if dist[j] < best:
                    best, step = dist[j], j
            if step == here:
                break
            steps.append(step)
            here = step
        steps.reverse()
        return steps[1:]


def squares(points: Iterable[Sequence[int] | None]) -> set[Pos]:
    """Positions of ``[x, y]`` values (``None`` skipped)."""
    return {Pos(int(p[0]), int(p[1])) for p in points if p is not None}
