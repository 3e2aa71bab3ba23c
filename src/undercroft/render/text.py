"""Plain-text pictures of a grid: pure functions, no game state is changed or read
beyond what is passed in (the rules never import this module)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from undercroft.core.grid import BoolArray, Grid, Pos

UNSEEN = " "


def draw(
    grid: Grid,
    *,
    marks: Mapping[Pos, str] | None = None,
    visible: BoolArray | None = None,
    path: Iterable[Pos] = (),
    path_char: str = "*",
) -> str:
    """The map in map notation with overlays.

    ``visible`` blanks every square not in view; ``path`` squares are drawn with
    ``path_char``; ``marks`` (figures, markers) are drawn last, one character each.
    """
    rows = [[grid.char_at(Pos(x, y)) for x in range(grid.width)] for y in range(grid.height)]
    if visible is not None:
        for y in range(grid.height):
            for x in range(grid.width):
                if not visible[y, x]:
                    rows[y][x] = UNSEEN
    for p in path:
        rows[p.y][p.x] = path_char
    for p, ch in (marks or {}).items():
        rows[p.y][p.x] = ch[:1]
    return "\n".join("".join(row) for row in rows)


def legend() -> str:
    """What each character of the map notation means, one per line."""
    return "\n".join(
        [
            "#  wall            .  floor          T  furniture (blocks moving, not sight)",
            "+  closed door     '  open door      &  locked door",
            "X  blockage        ~  water          :  dark floor",
        ]
    )
