"""An adventure file built into an :class:`Adventure` on its board, with its own checks:
squares on the board, a way out (C-END-01), goals that can be met, effects that name
squares and areas of the board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from undercroft.core.grid import DoorState, Grid, Pos, Terrain
from undercroft.crawl import effects as fx
from undercroft.crawl.content.checks import Problems, check_refs, walk_effects
from undercroft.crawl.content.pack import Pack
from undercroft.crawl.content.schemas import XY, AdventureFile, effects_of
from undercroft.crawl.effects import AnyEffect
from undercroft.crawl.ruleset import (
    Adventure,
    Goal,
    Placement,
    RoomText,
)


def build_adventure(
    pack: Pack, path: Path, text: str, adv: AdventureFile, problems: Problems
) -> Adventure | None:
    file = str(path)
    if adv.board not in pack.boards:
        problems.add(
            file, text, ("board",), f"unknown board {adv.board!r}", tuple(sorted(pack.boards))
        )
        return None
    grid = pack.boards[adv.board].copy()

    def inside(key: tuple[str | int, ...], xy: XY) -> Pos | None:
        p = Pos(*xy)
        if not grid.in_bounds(p):
            problems.add(
                file, text, key, f"square {list(xy)} is off the {grid.width}x{grid.height} board"
            )
            return None
        return p

    pieces: dict[Pos, str] = {}

    def once(key: tuple[str | int, ...], p: Pos, what: str) -> bool:
        if p in pieces:
            problems.add(file, text, key, f"square {[p.x, p.y]} already holds {pieces[p]}")
            return False
        pieces[p] = what
        return True

    for name, state in (("doors", DoorState.CLOSED), ("open_doors", DoorState.OPEN)):
        for i, xy in enumerate(getattr(adv, name)):
            p = inside((name, i), xy)
            if p is None or not once((name, i), p, "a door"):
                continue
            if not door_fits(grid, p):
                problems.add(
                    file,
                    text,
                    (name, i),
                    f"a door at {list(xy)} must stand in a wall with open squares on two "
                    "opposite sides",
                )
                continue
            grid.set_terrain(p, Terrain.DOOR, state)
    for i, xy in enumerate(adv.blockages):
        p = inside(("blockages", i), xy)
        if p is None or not once(("blockages", i), p, "a blockage"):
            continue
        area = grid.area_at(p)
        if grid.terrain_at(p) is not Terrain.FLOOR or area is None or area.kind != "corridor":
            problems.add(
                file, text, ("blockages", i),
                f"a blockage at {list(xy)} must stand on a corridor's floor (C-SETUP-01)",
            )  # fmt: skip
            continue
        grid.set_terrain(p, Terrain.BLOCKAGE)
    for i, xy in enumerate(adv.furniture):
        p = inside(("furniture", i), xy)
        if p is None or not once(("furniture", i), p, "furniture"):
            continue
        if grid.terrain_at(p) is not Terrain.FLOOR:
            problems.add(
                file,
                text,
                ("furniture", i),
                f"furniture at {list(xy)} must stand on a floor square",
            )
            continue
        grid.set_furniture(p)
    floor = {
        p
        for p in grid.positions()
        if grid.terrain_at(p) is Terrain.FLOOR and not grid.furniture[p.y, p.x]
    }
    squares: dict[str, list[Pos]] = {}
    for name in ("starts", "exits"):
        squares[name] = []
        for i, xy in enumerate(getattr(adv, name)):
            p = inside((name, i), xy)
            if p is not None and p not in floor:
                problems.add(file, text, (name, i), f"{list(xy)} is not an open floor square")
            elif p is not None:
                squares[name].append(p)
    placements = []
    taken: set[Pos] = set(squares["starts"])
    for i, m in enumerate(adv.monsters):
        if m.monster not in pack.monsters:
            problems.add(
                file,
                text,
                ("monsters", i, "monster"),
                f"unknown monster {m.monster!r}",
                tuple(sorted(pack.monsters)),
            )
        p = inside(("monsters", i, "at"), m.at)
        if p is not None and (p not in floor or p in taken):
            problems.add(
                file, text, ("monsters", i, "at"), f"{list(m.at)} is not a free floor square"
            )
        elif p is not None:
            taken.add(p)
            placements.append(Placement(m.monster, p))
    traps: dict[Pos, str] = {}
    for i, t in enumerate(adv.traps):
        if t.trap not in pack.traps:
            problems.add(
                file,
                text,
                ("traps", i, "trap"),
                f"unknown trap {t.trap!r}",
                tuple(sorted(pack.traps)),
            )
        p = inside(("traps", i, "at"), t.at)
        if p is not None and p not in floor:
            problems.add(file, text, ("traps", i, "at"), f"{list(t.at)} is not a floor square")
        elif p is not None:
            traps[p] = t.trap
    for i, kind in enumerate(adv.patrol):
        if kind not in pack.monsters:
            problems.add(
                file, text, ("patrol", i), f"unknown monster {kind!r}", tuple(sorted(pack.monsters))
            )
    areas = {a.name for a in grid.areas}
    for i, room in enumerate(adv.secret_rooms):
        if room not in areas:
            problems.add(
                file, text, ("secret_rooms", i), f"unknown room {room!r}", tuple(sorted(areas))
            )
    texts = []
    for i, room_text in enumerate(adv.text):
        if room_text.area not in areas:
            problems.add(
                file,
                text,
                ("text", i, "area"),
                f"unknown area {room_text.area!r}",
                tuple(sorted(areas)),
            )
        texts.append(
            RoomText(
                room_text.area, room_text.text, effects_of(room_text.effects),
                room_text.explorers_only, room_text.once,
            )
        )  # fmt: skip
    check_goals(pack, file, text, adv, areas, problems)
    check_effect_refs(pack, file, text, adv, grid, problems)
    check_way_out(file, text, adv, grid, squares["starts"], problems)
    return Adventure(
        id=adv.id,
        name=adv.name,
        board=grid,
        starts=tuple(squares["starts"]),
        exits=frozenset(squares["exits"]),
        intro=adv.intro,
        placements=tuple(placements),
        traps=traps,
        room_texts=tuple(texts),
        patrol=adv.patrol,
        secret_areas=frozenset(adv.secret_rooms),
        goals=tuple(Goal(g.id, g.text, g.kind, g.target) for g in adv.goal),
        final=adv.final,
        light=adv.light,
    )


def check_way_out(
    file: str, text: str, adv: AdventureFile, grid: Grid, starts: list[Pos], problems: Problems
) -> None:
    """C-END-01: the heroes can walk from a start square to an exit (one listed, or one a
    room text opens), through doors (closed ones open, secret ones are revealed) and over
    furniture (C-JUMP-01), but not through walls or blockages."""
    exits = {Pos(*xy) for xy in adv.exits}
    openable: set[Pos] = set()
    for _, e in text_effects(adv):
        if isinstance(e, fx.OpenExit):
            exits.update(Pos(*xy) for xy in e.at)
        elif isinstance(e, fx.RevealSecret):
            openable.update(Pos(*xy) for xy in e.doors)
    if not starts or not exits:
        return  # no start squares or no exits at all: reported on their own

    def walkable(p: Pos) -> bool:
        if not grid.in_bounds(p):
            return False
        return p in openable or grid.terrain_at(p) in (Terrain.FLOOR, Terrain.DOOR)

    seen = set(starts)
    frontier = list(starts)
    while frontier:
        here = frontier.pop()
        if here in exits:
            return
        for step in (here.offset(1, 0), here.offset(-1, 0), here.offset(0, 1), here.offset(0, -1)):
            if step not in seen and walkable(step):
                seen.add(step)
                frontier.append(step)
    problems.add(
        file, text, ("exits",),
        "no exit can be reached from the start squares: walls and blockages cut every exit "
        "off (C-END-01); move a blockage, add a door, or put an exit where the heroes can walk",
    )  # fmt: skip


def door_fits(grid: Grid, p: Pos) -> bool:
    """A door replaces a wall square with open squares on two opposite sides."""
    if grid.terrain_at(p) is not Terrain.WALL:
        return False

    def open_(q: Pos) -> bool:
        return grid.in_bounds(q) and grid.terrain_at(q) is not Terrain.WALL

    return (open_(p.offset(-1, 0)) and open_(p.offset(1, 0))) or (
        open_(p.offset(0, -1)) and open_(p.offset(0, 1))
    )


def text_effects(adv: AdventureFile) -> Iterator[tuple[tuple[str | int, ...], AnyEffect]]:
    for i, t in enumerate(adv.text):
        yield from walk_effects(t.effects, ("text", i, "effects"))


def check_goals(
    pack: Pack, file: str, text: str, adv: AdventureFile, areas: set[str], problems: Problems
) -> None:
    """A goal's target names a monster (slay), an item (carry) or an area (visit); a visit
    goal is met only by a ``goal`` effect in a room text, so one must name it."""
    ids = [g.id for g in adv.goal]
    met_by_text = {e.goal for _, e in text_effects(adv) if isinstance(e, fx.Goal)}
    for i, g in enumerate(adv.goal):
        if ids.index(g.id) != i:
            problems.add(file, text, ("goal", i, "id"), f"goal id {g.id!r} is used twice")
        known = {
            "slay": set(pack.monsters),
            "carry": set(pack.items),
            "visit": areas,
        }[g.kind]
        if g.target not in known:
            what = {"slay": "monster", "carry": "item", "visit": "area"}[g.kind]
            problems.add(
                file, text, ("goal", i, "target"), f"unknown {what} {g.target!r}",
                tuple(sorted(known)),
            )  # fmt: skip
        if g.kind == "visit" and g.id not in met_by_text:
            problems.add(
                file, text, ("goal", i),
                f"visit goal {g.id!r} is met only by a room text's goal effect, and no text "
                f"has {{ type = \"goal\", goal = \"{g.id}\" }}",
            )  # fmt: skip


def check_effect_refs(
    pack: Pack, file: str, text: str, adv: AdventureFile, grid: Grid, problems: Problems
) -> None:
    """Room texts give existing items and spawn existing monsters on floor squares; a
    revealed secret room is one of ``secret_rooms`` and its doors stand in walls next to
    it; a new exit is on floor; a goal effect names one of the adventure's goals; and the
    heroes have some way out (C-END-01)."""
    for i, t in enumerate(adv.text):
        check_refs(pack, file, text, ("text", i, "effects"), t.effects, problems)
    goals = tuple(g.id for g in adv.goal)

    def floor_squares(key: tuple[str | int, ...], squares: tuple[XY, ...], what: str) -> None:
        for k, xy in enumerate(squares):
            p = Pos(*xy)
            if not grid.in_bounds(p) or grid.terrain_at(p) is not Terrain.FLOOR:
                problems.add(file, text, (*key, k), f"{what} {list(xy)} is not a floor square")

    opens_exit = False
    for here, e in text_effects(adv):
        if isinstance(e, fx.Spawn):
            floor_squares((*here, "at"), e.at, "spawn square")
        elif isinstance(e, fx.OpenExit):
            opens_exit = True
            floor_squares((*here, "at"), e.at, "exit square")
        elif isinstance(e, fx.Goal) and e.goal not in goals:
            problems.add(file, text, (*here, "goal"), f"unknown goal {e.goal!r}", goals)
        elif isinstance(e, fx.RevealSecret):
            if e.area not in adv.secret_rooms:
                problems.add(
                    file, text, (*here, "area"),
                    f"{e.area!r} is not one of this adventure's secret_rooms",
                    tuple(adv.secret_rooms),
                )  # fmt: skip
            for k, xy in enumerate(e.doors):
                p = Pos(*xy)
                beside = (
                    {grid.area_at(q) for q in grid.neighbours(p)} if grid.in_bounds(p) else set()
                )
                if not grid.in_bounds(p) or not door_fits(grid, p):
                    problems.add(
                        file, text, (*here, "doors", k),
                        f"a secret door at {list(xy)} must stand in a wall with open squares "
                        "on two opposite sides",
                    )  # fmt: skip
                elif e.area not in {a.name for a in beside if a is not None}:
                    problems.add(
                        file, text, (*here, "doors", k),
                        f"the secret door at {list(xy)} does not lead into {e.area!r}",
                    )  # fmt: skip
    if not adv.exits and not opens_exit:
        problems.add(
            file, text, ("exits",),
            "the heroes have no way out: list exit squares, or open one with an open_exit "
            "effect in a room text (C-END-01)",
        )  # fmt: skip
