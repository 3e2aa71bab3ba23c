"""crawl content files: heroes, monsters, spells, items, traps, boards and adventures.

A *pack* is a folder of TOML files, each naming its ``kind``:

=====================  ==================================================================
kind                   holds
=====================  ==================================================================
``crawl-heroes``       ``[[hero]]`` profiles (C-SETUP-05)
``crawl-monsters``     ``[[monster]]`` profiles with encounter type and abilities
``crawl-spells``       ``[[spell]]`` cards (C-SPELL-03)
``crawl-items``        ``[[item]]`` cards of the five decks (C-SETUP-02)
``crawl-traps``        ``[[trap]]`` kinds (C-TRAP-06)
``map``                a board (core map notation with named rooms and corridors)
``crawl-adventure``    an adventure: doors and blockages on a board, start squares, exits,
                       monsters, traps, room texts, patrol, goals
=====================  ==================================================================

``load_pack(folder)`` reads and cross-checks them all; every mistake is reported with
file, line and key (:class:`undercroft.core.content.ContentError`). ``docs/content.md``
is the designer's guide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field

from undercroft.core.content import (
    ContentError,
    ContentProblem,
    MapSchema,
    Schema,
    key_lines,
    line_of,
    parse_toml,
    read_text,
    register_kind,
    validate,
)
from undercroft.core.grid import DoorState, Grid, Pos, Terrain
from undercroft.crawl.effects import AnyEffect
from undercroft.crawl.ruleset import (
    Adventure,
    CastingTime,
    Encounter,
    Goal,
    HeroProfile,
    ItemCard,
    ItemKind,
    MonsterAbility,
    MonsterProfile,
    Options,
    Placement,
    RoomText,
    Ruleset,
    SpellCard,
    Targeting,
    Trait,
    TrapKind,
)

TraitName = Literal["Strong", "Agile", "Perceptive", "Learned", "Iron-Willed"]
XY = tuple[int, int]


class HeroSchema(Schema):
    id: str
    name: str
    movement: int = Field(ge=1)
    fighting: int = Field(ge=0)
    damage: int = Field(ge=1)
    health: int = Field(ge=1)
    stamina: int = Field(ge=0)
    magic: int = Field(ge=0)
    traits: tuple[TraitName, ...] = ()
    spells: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    description: str = ""


class HeroesFile(Schema):
    kind: Literal["crawl-heroes"]
    hero: tuple[HeroSchema, ...]


class AbilitySchema(Schema):
    name: str
    range: int = Field(ge=1)
    effects: tuple[AnyEffect, ...]


class MonsterSchema(Schema):
    id: str
    name: str
    movement: int = Field(ge=0)
    fighting: int = Field(ge=0)
    damage: int = Field(ge=1)
    health: int = Field(ge=1)
    stamina: int = Field(default=0, ge=0)
    magic: int = Field(default=0, ge=0)
    encounter: Literal["guard", "patrol", "ambusher"] = "guard"
    ability: tuple[AbilitySchema, ...] = ()
    description: str = ""


class MonstersFile(Schema):
    kind: Literal["crawl-monsters"]
    monster: tuple[MonsterSchema, ...]


class SpellSchema(Schema):
    id: str
    name: str
    level: int = Field(ge=1, le=3)
    casting: Literal["combat", "explore", "movement"]
    target: Literal["self", "hero", "monster", "all_monsters", "party"]
    range: int = Field(default=0, ge=0)
    effects: tuple[AnyEffect, ...]
    overcast: tuple[AnyEffect, ...] | None = None
    ongoing_turns: int = Field(default=0, ge=0)
    description: str = ""


class SpellsFile(Schema):
    kind: Literal["crawl-spells"]
    spell: tuple[SpellSchema, ...]


class ItemSchema(Schema):
    id: str
    name: str
    deck: Literal["treasure", "gear", "potion", "scroll", "magic"]
    effects: tuple[AnyEffect, ...] = ()
    spell: str | None = None
    value: int = Field(default=0, ge=0)
    fighting_bonus: int = 0
    uses: int = Field(default=1, ge=1)
    revives: bool = False
    description: str = ""


class ItemsFile(Schema):
    kind: Literal["crawl-items"]
    item: tuple[ItemSchema, ...]


class TrapSchema(Schema):
    id: str
    name: str
    effects: tuple[AnyEffect, ...]
    ends_movement: bool = True
    description: str = ""


class TrapsFile(Schema):
    kind: Literal["crawl-traps"]
    trap: tuple[TrapSchema, ...]


class PlacedMonster(Schema):
    monster: str
    at: XY


class PlacedTrap(Schema):
    trap: str
    at: XY


class TextSchema(Schema):
    area: str
    text: str
    effects: tuple[AnyEffect, ...] = ()
    explorers_only: bool = True
    once: bool = True


class GoalSchema(Schema):
    id: str
    text: str
    kind: Literal["slay", "carry", "visit"]
    target: str


class AdventureFile(Schema):
    """An adventure laid out on a board (C-SETUP-01: doors and blockages place the rooms)."""

    kind: Literal["crawl-adventure"]
    id: str
    name: str
    board: str
    intro: str = ""
    order: int = 0
    final: bool = False
    doors: tuple[XY, ...] = ()
    open_doors: tuple[XY, ...] = ()
    blockages: tuple[XY, ...] = ()
    furniture: tuple[XY, ...] = ()
    starts: tuple[XY, ...] = Field(min_length=1)
    exits: tuple[XY, ...] = Field(min_length=1)
    monsters: tuple[PlacedMonster, ...] = ()
    traps: tuple[PlacedTrap, ...] = ()
    patrol: tuple[str, ...] = ()
    secret_rooms: tuple[str, ...] = ()
    text: tuple[TextSchema, ...] = ()
    goal: tuple[GoalSchema, ...] = ()
    light: int | None = Field(default=None, ge=0, le=20)


for _name, _model, _what in (
    ("crawl-heroes", HeroesFile, "crawl hero profiles"),
    ("crawl-monsters", MonstersFile, "crawl monster profiles"),
    ("crawl-spells", SpellsFile, "crawl spell cards"),
    ("crawl-items", ItemsFile, "crawl item cards (the five decks)"),
    ("crawl-traps", TrapsFile, "crawl trap kinds"),
    ("crawl-adventure", AdventureFile, "a crawl adventure"),
):
    register_kind(_name, _model, _what)


def _effects(items: tuple[AnyEffect, ...]) -> tuple[AnyEffect, ...]:
    return tuple(items)


@dataclass
class Pack:
    """Everything a content folder holds, cross-checked."""

    folder: Path
    heroes: dict[str, HeroProfile] = field(default_factory=dict)
    monsters: dict[str, MonsterProfile] = field(default_factory=dict)
    spells: dict[str, SpellCard] = field(default_factory=dict)
    items: dict[str, ItemCard] = field(default_factory=dict)
    traps: dict[str, TrapKind] = field(default_factory=dict)
    boards: dict[str, Grid] = field(default_factory=dict)
    adventures: dict[str, Adventure] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)

    def ruleset(self, adventure: str, options: Options | None = None) -> Ruleset:
        """The ruleset for one adventure of the pack."""
        if adventure not in self.adventures:
            known = ", ".join(sorted(self.adventures)) or "none"
            raise KeyError(f"no adventure {adventure!r} in {self.folder}; known: {known}")
        chosen = self.adventures[adventure]
        return Ruleset(
            self.heroes, self.monsters, self.spells, self.items, self.traps, chosen,
            options or Options(),
        )  # fmt: skip

    def campaign_order(self) -> list[str]:
        """Adventure ids in campaign order (their ``order`` key, then id)."""
        return sorted(self.adventures, key=lambda a: (self.order.get(a, 0), a))


class _Problems:
    def __init__(self) -> None:
        self.items: list[ContentProblem] = []

    def add(
        self,
        file: str,
        text: str,
        path: tuple[str | int, ...],
        message: str,
        allowed: tuple[str, ...] = (),
    ) -> None:
        from undercroft.core.content import format_key

        self.items.append(
            ContentProblem(file, line_of(key_lines(text), path), format_key(path), message, allowed)
        )


def load_pack(folder: str | Path) -> Pack:
    """Read every TOML file of a pack folder, validate each, then cross-check them."""
    root = Path(folder)
    if not root.is_dir():
        raise ContentError([ContentProblem(str(root), 0, "", "no such content folder")])
    pack = Pack(root)
    problems = _Problems()
    adventures: list[tuple[Path, str, AdventureFile]] = []
    errors: list[ContentProblem] = []
    for path in sorted(root.rglob("*.toml")):
        text = read_text(path)
        try:
            data = parse_toml(text, str(path))
            kind = data.get("kind")
            if kind == "crawl-heroes":
                for h in validate(data, HeroesFile, text, str(path)).hero:
                    pack.heroes[h.id] = HeroProfile(
                        h.id, h.name, h.movement, h.fighting, h.damage, h.health, h.stamina,
                        h.magic, frozenset(Trait(t) for t in h.traits), h.spells, h.items,
                        h.abilities,
                    )  # fmt: skip
            elif kind == "crawl-monsters":
                for m in validate(data, MonstersFile, text, str(path)).monster:
                    abilities = tuple(
                        MonsterAbility(a.name, a.range, _effects(a.effects)) for a in m.ability
                    )
                    pack.monsters[m.id] = MonsterProfile(
                        m.id, m.name, m.movement, m.fighting, m.damage, m.health, m.stamina,
                        m.magic, Encounter(m.encounter), abilities,
                    )  # fmt: skip
            elif kind == "crawl-spells":
                for s in validate(data, SpellsFile, text, str(path)).spell:
                    pack.spells[s.id] = SpellCard(
                        s.id, s.name, s.level, CastingTime(s.casting), Targeting(s.target), s.range,
                        _effects(s.effects), None if s.overcast is None else _effects(s.overcast),
                        s.ongoing_turns, s.description,
                    )  # fmt: skip
            elif kind == "crawl-items":
                for i in validate(data, ItemsFile, text, str(path)).item:
                    pack.items[i.id] = ItemCard(
                        i.id, i.name, ItemKind(i.deck), _effects(i.effects), i.spell, i.value,
                        i.fighting_bonus, i.uses, i.revives,
                    )  # fmt: skip
            elif kind == "crawl-traps":
                for t in validate(data, TrapsFile, text, str(path)).trap:
                    pack.traps[t.id] = TrapKind(t.id, t.name, _effects(t.effects), t.ends_movement)
            elif kind == "map":
                board = validate(data, MapSchema, text, str(path))
                pack.boards[board.name] = board.grid()
                pack.boards[path.stem] = pack.boards[board.name]
            elif kind == "crawl-adventure":
                adventures.append((path, text, validate(data, AdventureFile, text, str(path))))
        except ContentError as exc:
            errors.extend(exc.problems)
    if errors:
        raise ContentError(errors)
    _check_cards(pack, root, problems)
    for path, text, adv in adventures:
        built = _build_adventure(pack, path, text, adv, problems)
        if built is not None:
            pack.adventures[adv.id] = built
            pack.order[adv.id] = adv.order
    if problems.items:
        raise ContentError(problems.items)
    return pack


def _check_cards(pack: Pack, root: Path, problems: _Problems) -> None:
    """Cards that name other cards must name existing ones."""
    for path in sorted(root.rglob("*.toml")):
        text = path.read_text(encoding="utf-8")
        data = parse_toml(text, str(path))
        if data.get("kind") == "crawl-heroes":
            for i, h in enumerate(data.get("hero", [])):
                for j, s in enumerate(h.get("spells", [])):
                    if s not in pack.spells:
                        problems.add(
                            str(path),
                            text,
                            ("hero", i, "spells", j),
                            f"unknown spell {s!r}",
                            tuple(sorted(pack.spells)),
                        )
                for j, it in enumerate(h.get("items", [])):
                    if it not in pack.items:
                        problems.add(
                            str(path),
                            text,
                            ("hero", i, "items", j),
                            f"unknown item {it!r}",
                            tuple(sorted(pack.items)),
                        )
        elif data.get("kind") == "crawl-items":
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


def _build_adventure(
    pack: Pack, path: Path, text: str, adv: AdventureFile, problems: _Problems
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

    for name, state in (("doors", DoorState.CLOSED), ("open_doors", DoorState.OPEN)):
        for i, xy in enumerate(getattr(adv, name)):
            p = inside((name, i), xy)
            if p is None:
                continue
            if not _door_fits(grid, p):
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
        if p is not None:
            grid.set_terrain(p, Terrain.BLOCKAGE)
    for i, xy in enumerate(adv.furniture):
        p = inside(("furniture", i), xy)
        if p is not None:
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
                room_text.area, room_text.text, _effects(room_text.effects),
                room_text.explorers_only, room_text.once,
            )
        )  # fmt: skip
    _check_effect_refs(pack, file, text, adv, problems)
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


def _door_fits(grid: Grid, p: Pos) -> bool:
    """A door replaces a wall square with open squares on two opposite sides."""
    if grid.terrain_at(p) is not Terrain.WALL:
        return False

    def open_(q: Pos) -> bool:
        return grid.in_bounds(q) and grid.terrain_at(q) is not Terrain.WALL

    return (open_(p.offset(-1, 0)) and open_(p.offset(1, 0))) or (
        open_(p.offset(0, -1)) and open_(p.offset(0, 1))
    )


def _check_effect_refs(
    pack: Pack, file: str, text: str, adv: AdventureFile, problems: _Problems
) -> None:
    """Room texts may only give existing items and spawn existing monsters."""
    from undercroft.crawl import effects as fx

    def walk(effects: tuple[AnyEffect, ...], path: tuple[str | int, ...]) -> None:
        for j, e in enumerate(effects):
            here = (*path, j)
            if isinstance(e, fx.GiveItem) and e.item not in pack.items:
                problems.add(
                    file,
                    text,
                    (*here, "item"),
                    f"unknown item {e.item!r}",
                    tuple(sorted(pack.items)),
                )
            elif isinstance(e, fx.Spawn):
                for m in e.monsters:
                    if m not in pack.monsters:
                        problems.add(
                            file,
                            text,
                            (*here, "monsters"),
                            f"unknown monster {m!r}",
                            tuple(sorted(pack.monsters)),
                        )
            for name in ("on_pass", "on_fail", "on_success", "on_win", "on_lose", "on_tie"):
                if hasattr(e, name):
                    walk(getattr(e, name), (*here, name))
            if isinstance(e, fx.Choice):
                for k, option in enumerate(e.options):
                    walk(option.effects, (*here, "options", k, "effects"))

    for i, t in enumerate(adv.text):
        walk(t.effects, ("text", i, "effects"))
