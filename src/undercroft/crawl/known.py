"""The squares the heroes' board shows, and the monsters on them (cached on the state).

The heroes know the squares of every revealed area (C-TURN-04: a revealed area is known
whole; a secret one with the doors in its walls, which the text revealing it showed) and
the squares any hero on the board sees now (C-LOS-01); their board shows the rest as
unknown. A monster on a square they know is on the table and seen by all; any
other is out of their sight (R-C-MON-06). Used by the observation
(:mod:`undercroft.crawl.observe`) and by the rules that must not tell the heroes where
such a monster stands (a planned walk, :func:`undercroft.crawl.movement.move_is_legal`).
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from undercroft.core.grid import Pos
from undercroft.crawl.figures import Monster
from undercroft.crawl.state import State

ViewKey: TypeAlias = tuple[int, int, tuple[Pos | None, ...]]
"""What the heroes' known squares depend on: the board's version, the number of areas
revealed, and where the heroes on the board stand."""


def monsters_in_sight(state: State, full: bool) -> list[Monster]:
    """The monsters a seat sees: every one for the DM (``full``); for the heroes, those
    on a square their board shows, a revealed area or a square a hero sees now
    (R-C-MON-06: a miniature on the table is seen by all, one on board not yet
    uncovered is not)."""
    monsters = list(state.monsters.values())
    if full or not monsters:
        return monsters
    known = known_bits(state, view_key(state))
    width = state.grid.width
    return [m for m in monsters if known >> (8 * (m.pos.y * width + m.pos.x)) & 1]


def view_key(state: State) -> ViewKey:
    # A list made into a tuple: the compiled build runs a generator as an object.
    at = [h.pos for h in state.heroes.values() if h.on_board]
    return (state.grid.version, len(state.revealed), tuple(at))


def known_squares(state: State, key: ViewKey | None = None) -> NDArray[np.bool_]:
    """Squares the heroes know: those of revealed areas, and those any hero sees now
    (``key``: the state's ``view_key``, if the caller has it)."""
    bits = known_bits(state, key if key is not None else view_key(state))
    size = state.grid.width * state.grid.height
    known = np.frombuffer(bits.to_bytes(size, "little"), np.bool_)
    return known.reshape(state.grid.height, state.grid.width)


def known_bits(state: State, key: ViewKey) -> int:
    """:func:`known_squares` as one byte a square (1 known) read as a little-endian
    integer: the union of a few fields of view is a few integer ``|``s, not numpy calls."""
    cached = state.derived.get("known")
    if cached is not None and cached[0] == key:
        known: int = cached[1]
        return known
    known = revealed_bits(state)
    for hero in state.active_heroes():
        if hero.pos is not None:
            known |= state.sight.fov_bits(hero.pos)
    state.derived["known"] = (key, known)
    return known


def revealed_squares(state: State) -> NDArray[np.bool_]:
    """The squares of every revealed area (C-TURN-04: a revealed area is known whole),
    and the doors in the walls of a revealed secret area (the text that revealed it
    showed them, C-EXPL-01: without them the heroes would know the room but not the way
    in); kept, as bits, by :func:`revealed_bits`."""
    grid = state.grid
    revealed = np.zeros(len(grid.areas) + 1, np.bool_)  # by area index + 1 (0: no area)
    for i, info in enumerate(grid.areas):
        revealed[i + 1] = info.name in state.revealed
    found: NDArray[np.bool_] = revealed[grid.area + 1]
    for name in sorted(state.ruleset.adventure.secret_areas & state.revealed):
        for door in grid.doors_around(name):
            found[door.y, door.x] = True
    return found


def revealed_bits(state: State) -> int:
    """:func:`revealed_squares` as :func:`known_bits`."""
    key = len(state.revealed)
    cached = state.derived.get("revealed_bits")
    if cached is not None and cached[0] == key:
        found: int = cached[1]
        return found
    # The same areas revealed give the same squares in every game of the adventure.
    shared = ("revealed_bits", frozenset(state.revealed))
    known: int | None = state.grid.kept_for_areas(shared)  # typed: compiled, None stays None
    if known is not None:
        found = known
    else:
        found = int.from_bytes(revealed_squares(state).tobytes(), "little")
        state.grid.keep_for_areas(shared, found)
    state.derived["revealed_bits"] = (key, found)
    return found
