"""The board as a seat knows it, in the byte and integer forms the players read: the
map-notation codes of every square (``?`` for one the heroes do not know), the same read
as one integer with the mask of the squares shown, the revealed area of each square, and
the traps in board order. Each is cached on the state (``state.derived``) until what it
depends on changes (:func:`~undercroft.crawl.known.view_key`, the board's version, the
areas revealed).

Which squares the heroes know is :mod:`undercroft.crawl.known`'s; the views of
:mod:`undercroft.crawl.observe` answer from here.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from undercroft.core.grid import Pos
from undercroft.crawl.known import ViewKey, known_bits, view_key
from undercroft.crawl.state import State

UNKNOWN: Final = "?"
UNKNOWN_BYTE: Final = UNKNOWN.encode()
"""``UNKNOWN`` as the byte of the map-notation arrays."""
SHOWN: Final = bytes(0 if c == ord(UNKNOWN) else 255 for c in range(256))
"""``SHOWN[code]``: 0xFF for a square a board shows, 0 for one it shows as unknown."""
AREA_KEY: Final = 0x41
"""The code point that marks the first revealed area in ``Observation.area_map``."""


def trap_order(state: State) -> list[Pos]:
    """The squares of the traps in board order (kept while the traps' squares are the
    same: they are set out with the adventure)."""
    key = tuple(state.traps)
    cached = state.derived.get("trap_order")
    if cached is not None and cached[0] == key:
        order: list[Pos] = cached[1]
        return order
    order = sorted(key)
    state.derived["trap_order"] = (key, order)
    return order


def board_codes(state: State, full: bool) -> bytes:
    """The board as ``full`` (DM) or hero eyes see it, row by row without line breaks
    (made from :func:`board_bits` when asked: the built-in party reads only those)."""
    key = view_key(state)
    slot = "codes:full" if full else "codes"  # the DM's and the heroes' apart
    cached = state.derived.get(slot)
    if cached is not None and cached[0] == key:
        kept: bytes = cached[1]
        return kept
    if full:
        codes = state.grid.char_array().tobytes()
    else:
        bits, _, size = _board(state, full, key)
        codes = bits.to_bytes(size, "little")
    state.derived[slot] = (key, codes)
    return codes


def board_bits(state: State, full: bool) -> tuple[int, int]:
    """:func:`board_codes` read as one little-endian integer, and the mask of the squares
    it shows (0xFF bytes), as the heroes' board is made: no conversion to read them."""
    found = _board(state, full, view_key(state))
    return found[0], found[1]


def _board(state: State, full: bool, key: ViewKey) -> tuple[int, int, int]:
    """The board's codes read as an integer, the mask of the squares shown and the number
    of squares, cached on the state until the squares known or the board change
    (``key``: the state's ``view_key``)."""
    slot = "board:full" if full else "board"  # the DM's and the heroes' apart
    cached = state.derived.get(slot)
    if cached is not None and cached[0] == key:
        kept: tuple[int, int, int] = cached[1]
        return kept
    if full:
        codes = state.grid.char_array().tobytes()
        size = len(codes)
        bits = int.from_bytes(codes, "little")
        shown = int.from_bytes(b"\xff" * size, "little")
    else:
        # Each byte of ``shown`` is 0xFF where the square is known (1 * 255 carries into
        # no other byte), so the board is its characters there and ``?`` elsewhere.
        unknown, differ, size = _char_bits(state)
        known = known_bits(state, key)
        shown = (known << 8) - known  # * 255: a shift and a subtraction, not a product
        # (chars & shown) | (unknown & ~shown), in two operations and with no negative
        # number (``~``), which costs Python's integers a conversion each time.
        bits = unknown ^ (differ & shown)
    found = (bits, shown, size)
    state.derived[slot] = (key, found)
    return found


def _char_bits(state: State) -> tuple[int, int, int]:
    """A board of ``?`` read as one little-endian integer, the bits where the board's
    characters differ from it (the characters are ``unknown ^ differ``), and the number
    of squares (kept per board version)."""
    version = state.grid.version
    cached = state.derived.get("char_bits")
    if cached is not None and cached[0] == version:
        found: tuple[int, int, int] = cached[1]
        return found
    chars = state.grid.char_array().tobytes()
    size = len(chars)
    unknown = int.from_bytes(UNKNOWN_BYTE * size, "little")
    found = (unknown, int.from_bytes(chars, "little") ^ unknown, size)
    state.derived["char_bits"] = (version, found)
    return found


def area_codes(state: State) -> bytes:
    """For each square, the rank in ``sorted(state.revealed)`` of its revealed area, or
    255; cached until an area is revealed."""
    key = len(state.revealed)
    cached = state.derived.get("area_codes")
    if cached is not None and cached[0] == key:
        codes: bytes = cached[1]
        return codes
    grid = state.grid
    index = {info.name: i for i, info in enumerate(grid.areas)}
    ranks = np.full(grid.area.shape, 255, np.uint8)
    for rank, name in enumerate(sorted(state.revealed)):
        ranks[grid.area == index[name]] = rank
    codes = ranks.tobytes()
    state.derived["area_codes"] = (key, codes)
    return codes


def area_map(state: State) -> str:
    """The squares of every revealed area (C-TURN-04), keyed by its rank in
    ``sorted(state.revealed)`` (``Observation.area_map``)."""
    width = state.grid.width
    chars = [" " if c == 255 else chr(AREA_KEY + c) for c in area_codes(state)]
    return "\n".join("".join(chars[i : i + width]) for i in range(0, len(chars), width))
