"""The cross-file checks of a pack's cards and boards: unique ids, cards that name
existing cards, effects that name existing things, boards drawn right; every problem is
collected with file, line and key (:class:`Problems`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from undercroft.core.content import (
    ContentProblem,
    MapSchema,
    format_key,
    key_lines,
    line_of,
)
from undercroft.core.grid import Grid, Terrain
from undercroft.crawl import effects as fx
from undercroft.crawl.content.pack import Pack
from undercroft.crawl.effects import AnyEffect


class Problems:
    def __init__(self) -> None:
        self.items: list[ContentProblem] = []

    def add(
        self,
        file: str,
        text: str,
        path: tuple[str | int, ...],
        message: str,
        allowed: tuple[str, ...] = (),
        *,
        line: int | None = None,
    ) -> None:
        where = line if line is not None else line_of(key_lines(text), path)
        self.items.append(ContentProblem(file, where, format_key(path), message, allowed))


@dataclass(frozen=True)
class EffectSite:
    """Effects written somewhere in a card file, for the cross-file checks."""

    file: str
    text: str
    path: tuple[str | int, ...]
    effects: tuple[AnyEffect, ...]


# -- cards ----------------------------------------------------------------------------------

CARD_KINDS = {
    "crawl-heroes": "hero",
    "crawl-monsters": "monster",
    "crawl-spells": "spell",
    "crawl-items": "item",
    "crawl-traps": "trap",
}


def check_cards(
    pack: Pack, parsed: list[tuple[Path, str, dict[str, Any]]], problems: Problems
) -> None:
    """Ids are unique; cards that name other cards name existing ones; a hero's starting
    spells fit its Magic (C-SPELL-02, R-C-SPELL-01)."""
    first_seen: dict[tuple[str, str], str] = {}
    for path, text, data in parsed:
        table = CARD_KINDS.get(str(data.get("kind")))
        if table is None:
            continue
        for i, card in enumerate(data.get(table, [])):
            key = (table, str(card.get("id")))
            if key in first_seen:
                problems.add(
                    str(path), text, (table, i, "id"),
                    f"{table} id {key[1]!r} is already used in {first_seen[key]}",
                )  # fmt: skip
            else:
                first_seen[key] = f"{path.name}:{line_of(key_lines(text), (table, i, 'id'))}"
        if table == "hero":
            for i, h in enumerate(data.get("hero", [])):
                check_hero(pack, str(path), text, i, h, problems)
        elif table == "item":
            for i, it in enumerate(data.get("item", [])):
                spell = it.get("spell")
                if spell is not None and spell not in pack.spells:
                    problems.add(
                        str(path),
                        text,
                        ("item", i, "spell"),
                        f"unknown spell {spell!r}",
                        tuple(sorted(pack.spells)),
                    )
                if it.get("deck") == "scroll" and spell is None:
                    problems.add(str(path), text, ("item", i), "a scroll must name its spell")
                elif it.get("deck") != "scroll" and spell is not None:
                    problems.add(
                        str(path), text, ("item", i, "spell"), "only a scroll names a spell"
                    )


def check_hero(
    pack: Pack, file: str, text: str, i: int, h: dict[str, Any], problems: Problems
) -> None:
    levels = 0
    for j, s in enumerate(h.get("spells", [])):
        if s not in pack.spells:
            problems.add(
                file, text, ("hero", i, "spells", j), f"unknown spell {s!r}",
                tuple(sorted(pack.spells)),
            )  # fmt: skip
        else:
            levels += pack.spells[s].level
    if levels > h.get("magic", 0):
        problems.add(
            file, text, ("hero", i, "spells"),
            f"the starting spells' levels add up to {levels}, more than the hero's Magic "
            f"{h.get('magic', 0)} (C-SPELL-02: memorized levels may not pass base Magic)",
        )  # fmt: skip
    for j, it in enumerate(h.get("items", [])):
        if it not in pack.items:
            problems.add(
                file, text, ("hero", i, "items", j), f"unknown item {it!r}",
                tuple(sorted(pack.items)),
            )  # fmt: skip


def walk_effects(
    effects: tuple[AnyEffect, ...], path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], AnyEffect]]:
    """Every effect with its key path, nested branches and choice options included."""
    for j, e in enumerate(effects):
        here = (*path, j)
        yield here, e
        for name in ("on_pass", "on_fail", "on_success", "on_win", "on_lose", "on_tie"):
            branch = getattr(e, name, None)
            if branch:
                yield from walk_effects(branch, (*here, name))
        if isinstance(e, fx.Choice):
            for k, option in enumerate(e.options):
                yield from walk_effects(option.effects, (*here, "options", k, "effects"))


def check_refs(
    pack: Pack,
    file: str,
    text: str,
    path: tuple[str | int, ...],
    effects: tuple[AnyEffect, ...],
    problems: Problems,
) -> None:
    """Effects may only give existing items and spawn existing monsters; only an item
    gives back Magic (C-SPELL-05: Magic is regained by resting, apart from certain
    items), so a room text, spell, trap or monster ability that does is refused."""
    for here, e in walk_effects(effects, path):
        if isinstance(e, fx.RestoreMagic) and path[0] != "item":
            problems.add(
                file, text, here,
                "only resting and certain items give back Magic (C-SPELL-05): give an item "
                "that restores it instead (a give_item effect)",
            )  # fmt: skip
        if isinstance(e, fx.GiveItem) and e.item not in pack.items:
            problems.add(
                file, text, (*here, "item"), f"unknown item {e.item!r}", tuple(sorted(pack.items))
            )
        elif isinstance(e, fx.Spawn):
            for m in e.monsters:
                if m not in pack.monsters:
                    problems.add(
                        file, text, (*here, "monsters"), f"unknown monster {m!r}",
                        tuple(sorted(pack.monsters)),
                    )  # fmt: skip
            if len(e.at) != len(e.monsters):
                problems.add(
                    file, text, (*here, "at"),
                    f"{len(e.monsters)} monster(s) but {len(e.at)} square(s): give one square "
                    "for each monster",
                )  # fmt: skip


# -- boards -----------------------------------------------------------------------------------


def drawing_line(text: str, key: str, rows: list[str], row: int) -> int:
    """The line of ``text`` on which row ``row`` of the drawing under ``key`` is written."""
    lines = text.splitlines()
    start = line_of(key_lines(text), (key,)) - 1
    for i in range(start, len(lines)):
        window = lines[i : i + len(rows)]
        if len(window) == len(rows) and window[0].endswith(rows[0]) and window[1:] == rows[1:]:
            return i + 1 + row
    return start + 1


def check_board(grid: Grid, board: MapSchema, file: str, text: str, problems: Problems) -> None:
    """A crawl board (C-SETUP-01): every room and corridor is named in the legend; every
    room is a filled rectangle of floor; a room meets another room or a corridor only
    across a wall (where an adventure may put a door), so rooms never overlap or run
    into one another; every floor square lies in a room or a corridor."""
    if board.areas is None:
        problems.add(
            file, text, ("tiles",),
            "a crawl board needs an 'areas' drawing naming its rooms and corridors",
        )  # fmt: skip
        return
    rows = [r for r in board.areas.split("\n")]
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    rows = [r.rstrip("\r") for r in rows]

    def at(y: int, x: int, message: str) -> None:
        problems.add(
            file, text, ("areas",), f"row {y}, column {x}: {message}",
            line=drawing_line(text, "areas", rows, y),
        )  # fmt: skip

    drawn: dict[str, tuple[int, int]] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in ".# " and ch not in drawn:
                drawn[ch] = (y, x)
    for key, (y, x) in drawn.items():
        if key not in board.legend:
            at(y, x, f"area key {key!r} has no entry in [legend] naming its room or corridor")
    for key in board.legend:
        if key not in drawn:
            problems.add(file, text, ("legend", key), f"legend key {key!r} is not drawn in areas")
    for index, info in enumerate(grid.areas):
        ys, xs = (grid.area == index).nonzero()
        on_walls = [(int(y), int(x)) for y, x in zip(ys, xs, strict=True)
                    if grid.terrain[y, x] != Terrain.FLOOR]  # fmt: skip
        if on_walls:
            y, x = on_walls[0]
            at(y, x, f"{info.kind} {info.name!r} is drawn over a square that is not floor")
        if info.kind != "room":
            continue
        top, bottom, left, right = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
        box = grid.area[top : bottom + 1, left : right + 1]
        if (box != index).any():
            gy, gx = (int(v) for v in next(zip(*(box != index).nonzero(), strict=True)))
            other = grid.area[top + gy, left + gx]
            what = "no area" if other < 0 else f"{grid.areas[other].name!r}"
            at(
                top + gy, left + gx,
                f"room {info.name!r} is not a filled rectangle: it spans columns {left}-{right} "
                f"and rows {top}-{bottom}, but this square is {what} (overlapping rooms?)",
            )  # fmt: skip
    reported: set[tuple[int, int]] = set()
    for y in range(grid.height):
        for x in range(grid.width):
            a = int(grid.area[y, x])
            if a < 0:
                if grid.terrain[y, x] == Terrain.FLOOR:
                    at(y, x, "a floor square that is in no room or corridor")
                continue
            for nx, ny in ((x + 1, y), (x, y + 1)):
                if nx >= grid.width or ny >= grid.height:
                    continue
                b = int(grid.area[ny, nx])
                if b < 0 or b == a or (min(a, b), max(a, b)) in reported:
                    continue
                if "room" in (grid.areas[a].kind, grid.areas[b].kind):
                    reported.add((min(a, b), max(a, b)))
                    at(
                        y, x,
                        f"{grid.areas[a].name!r} touches {grid.areas[b].name!r} without a wall "
                        "between them (rooms must not overlap: a room meets other areas only "
                        "across a wall, where adventures place doors)",
                    )  # fmt: skip
