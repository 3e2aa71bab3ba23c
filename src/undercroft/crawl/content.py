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
``crawl-options``      the options (rulings switches, engine limits) the pack plays with
=====================  ==================================================================

``load_pack(folder, settings)`` reads and cross-checks them all, after applying any
``--set`` settings (:mod:`undercroft.crawl.settings`) to the parsed files; every
mistake is reported with file, line and key (:class:`undercroft.core.content.ContentError`).
``docs/content.md`` is the designer's guide. The default pack ships in the ``content/``
folder beside this module (:data:`DEFAULT_PACK`); :func:`default_pack` loads it once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from functools import cache
from pathlib import Path
from typing import Any, Literal, cast, get_type_hints

from pydantic import BaseModel, Field, create_model

from undercroft.core.content import (
    ContentError,
    ContentProblem,
    MapSchema,
    Schema,
    format_key,
    key_lines,
    kinds,
    line_of,
    parse_toml,
    read_text,
    register_kind,
    validate,
)
from undercroft.core.grid import DoorState, Grid, Pos, Terrain
from undercroft.crawl import effects as fx
from undercroft.crawl import settings as setting
from undercroft.crawl.effects import AnyEffect
from undercroft.crawl.players import MIN_PLAYERS
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

# Bounds of the numbers a card takes (docs/content.md, "Numbers"): generous beside the
# shipped cards, small enough that no number can stall a game (the board is 24 x 28).
MAX_MOVEMENT = 24
MAX_SCORE = 20
"""Fighting, Damage and Magic."""
MAX_POOL = 99
"""Health and Stamina."""
MAX_RANGE = 50
MAX_TURNS = 100
MAX_VALUE = 10_000
MAX_BONUS = 10
MAX_USES = 99
MAX_ORDER = 999

DEFAULT_PACK = Path(__file__).resolve().parent / "content"
"""The default pack shipped with undercroft: board, heroes, monsters, spells, the five
decks, traps and the campaign's adventures (docs/content.md describes every file)."""


class HeroSchema(Schema):
    """A hero card; every number is bounded (docs/content.md, "Numbers")."""

    id: str
    name: str
    movement: int = Field(ge=1, le=MAX_MOVEMENT)
    fighting: int = Field(ge=0, le=MAX_SCORE)
    damage: int = Field(ge=1, le=MAX_SCORE)
    health: int = Field(ge=1, le=MAX_POOL)
    stamina: int = Field(ge=0, le=MAX_POOL)
    magic: int = Field(ge=0, le=MAX_SCORE)
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
    range: int = Field(ge=1, le=MAX_RANGE)
    effects: tuple[AnyEffect, ...]


class MonsterSchema(Schema):
    id: str
    name: str
    movement: int = Field(ge=0, le=MAX_MOVEMENT)
    fighting: int = Field(ge=0, le=MAX_SCORE)
    damage: int = Field(ge=1, le=MAX_SCORE)
    health: int = Field(ge=1, le=MAX_POOL)
    stamina: int = Field(default=0, ge=0, le=MAX_POOL)
    magic: int = Field(default=0, ge=0, le=MAX_SCORE)
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
    range: int = Field(default=0, ge=0, le=MAX_RANGE)
    effects: tuple[AnyEffect, ...]
    overcast: tuple[AnyEffect, ...] | None = None
    ongoing_turns: int = Field(default=0, ge=0, le=MAX_TURNS)
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
    value: int = Field(default=0, ge=0, le=MAX_VALUE)
    fighting_bonus: int = Field(default=0, ge=-MAX_BONUS, le=MAX_BONUS)
    uses: int = Field(default=1, ge=1, le=MAX_USES)
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
    order: int = Field(default=0, ge=0, le=MAX_ORDER)
    final: bool = False
    doors: tuple[XY, ...] = ()
    open_doors: tuple[XY, ...] = ()
    blockages: tuple[XY, ...] = ()
    furniture: tuple[XY, ...] = ()
    starts: tuple[XY, ...] = Field(min_length=MIN_PLAYERS)
    """At least one square for each of the 3 to 5 players' heroes (C-SETUP-03)."""
    exits: tuple[XY, ...] = ()
    """May be empty only if a room text opens a new exit (``open_exit``, C-END-01)."""
    monsters: tuple[PlacedMonster, ...] = ()
    traps: tuple[PlacedTrap, ...] = ()
    patrol: tuple[str, ...] = ()
    secret_rooms: tuple[str, ...] = ()
    text: tuple[TextSchema, ...] = ()
    goal: tuple[GoalSchema, ...] = ()
    light: int | None = Field(default=None, ge=0, le=20)


# The options (rulings switches and engine limits) take their names, types and defaults
# from :class:`Options` itself, so the schema cannot drift from the engine; only the
# bounds of the numbers are written here.
OPTION_BOUNDS: dict[str, dict[str, int]] = {
    "light": {"ge": 0, "le": MAX_POOL},
    "max_light": {"ge": 1, "le": MAX_POOL},
    "max_turns": {"ge": 1, "le": 1000},
    "surprise_turns": {"ge": 1, "le": 10},
}


def _bounds(name: str) -> dict[str, Any]:
    return dict(OPTION_BOUNDS.get(name, {}))


def _option_fields() -> dict[str, Any]:
    hints = get_type_hints(Options)
    return {
        f.name: (hints[f.name], Field(default=cast(Any, f.default), **_bounds(f.name)))
        for f in dataclass_fields(Options)
    }


OptionsSchema: type[Schema] = create_model(
    "OptionsSchema", __base__=Schema, __doc__="The crawl options.", **_option_fields()
)
"""The options, every one optional (its default is the engine's)."""
OptionsFile: type[Schema] = create_model(
    "OptionsFile",
    __base__=Schema,
    __doc__="A pack's options file: ``kind = \"crawl-options\"`` and any of the options.",
    kind=(cast(Any, Literal["crawl-options"]), ...),
    **_option_fields(),
)


def options_of(model: BaseModel) -> Options:
    """The :class:`Options` a validated options schema (or file) holds."""
    return Options(**{f.name: getattr(model, f.name) for f in dataclass_fields(Options)})


for _name, _model, _what in (
    ("crawl-options", OptionsFile, "crawl options: rulings switches and engine limits"),
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
    options: Options = field(default_factory=Options)
    """The options of the pack's ``crawl-options`` file (the defaults if it has none)."""
    settings: tuple[setting.Setting, ...] = ()
    """The ``--set`` settings applied when it was loaded."""

    def ruleset(self, adventure: str, options: Options | None = None) -> Ruleset:
        """The ruleset for one adventure of the pack."""
        if adventure not in self.adventures:
            known = ", ".join(sorted(self.adventures)) or "none"
            raise KeyError(f"no adventure {adventure!r} in {self.folder}; known: {known}")
        chosen = self.adventures[adventure]
        return Ruleset(
            self.heroes, self.monsters, self.spells, self.items, self.traps, chosen,
            options or self.options,
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
        *,
        line: int | None = None,
    ) -> None:
        where = line if line is not None else line_of(key_lines(text), path)
        self.items.append(ContentProblem(file, where, format_key(path), message, allowed))


@dataclass(frozen=True)
class _EffectSite:
    """Effects written somewhere in a card file, for the cross-file checks."""

    file: str
    text: str
    path: tuple[str | int, ...]
    effects: tuple[AnyEffect, ...]


def load_pack(folder: str | Path, settings: Sequence[setting.Setting] = ()) -> Pack:
    """Read every TOML file of a pack folder, apply ``settings`` to them, validate each,
    then cross-check them. Check the settings first with :func:`check_settings` so that
    a mistake in one names the ``--set``."""
    root = Path(folder)
    if not root.is_dir():
        raise ContentError([ContentProblem(str(root), 0, "", "no such content folder")])
    pack = Pack(root, settings=tuple(settings))
    parsed: list[tuple[Path, str, dict[str, Any]]] = []
    options_file: str | None = None
    problems = _Problems()
    adventures: list[tuple[Path, str, AdventureFile]] = []
    sites: list[_EffectSite] = []
    errors: list[ContentProblem] = []
    for path in sorted(root.rglob("*.toml")):
        text = read_text(path)
        file = str(path)
        try:
            data = parse_toml(text, file)
            setting.apply(data, settings)
            parsed.append((path, text, data))
            kind = data.get("kind")
            if kind == "crawl-options":
                if options_file is not None:
                    errors.append(
                        ContentProblem(
                            file, 1, "kind", f"a second options file (the first is {options_file})"
                        )
                    )
                options_file = file
                pack.options = options_of(validate(data, OptionsFile, text, file))
            elif kind == "crawl-heroes":
                for h in validate(data, HeroesFile, text, file).hero:
                    pack.heroes[h.id] = HeroProfile(
                        h.id, h.name, h.movement, h.fighting, h.damage, h.health, h.stamina,
                        h.magic, frozenset(Trait(t) for t in h.traits), h.spells, h.items,
                        h.abilities,
                    )  # fmt: skip
            elif kind == "crawl-monsters":
                for i, m in enumerate(validate(data, MonstersFile, text, file).monster):
                    abilities = tuple(
                        MonsterAbility(a.name, a.range, _effects(a.effects)) for a in m.ability
                    )
                    for k, a in enumerate(m.ability):
                        sites.append(
                            _EffectSite(
                                file, text, ("monster", i, "ability", k, "effects"), a.effects
                            )
                        )
                    pack.monsters[m.id] = MonsterProfile(
                        m.id, m.name, m.movement, m.fighting, m.damage, m.health, m.stamina,
                        m.magic, Encounter(m.encounter), abilities,
                    )  # fmt: skip
            elif kind == "crawl-spells":
                for i, s in enumerate(validate(data, SpellsFile, text, file).spell):
                    sites.append(_EffectSite(file, text, ("spell", i, "effects"), s.effects))
                    if s.overcast is not None:
                        sites.append(_EffectSite(file, text, ("spell", i, "overcast"), s.overcast))
                    pack.spells[s.id] = SpellCard(
                        s.id, s.name, s.level, CastingTime(s.casting), Targeting(s.target), s.range,
                        _effects(s.effects), None if s.overcast is None else _effects(s.overcast),
                        s.ongoing_turns, s.description,
                    )  # fmt: skip
            elif kind == "crawl-items":
                for i, it in enumerate(validate(data, ItemsFile, text, file).item):
                    sites.append(_EffectSite(file, text, ("item", i, "effects"), it.effects))
                    pack.items[it.id] = ItemCard(
                        it.id, it.name, ItemKind(it.deck), _effects(it.effects), it.spell,
                        it.value, it.fighting_bonus, it.uses, it.revives,
                    )  # fmt: skip
            elif kind == "crawl-traps":
                for i, t in enumerate(validate(data, TrapsFile, text, file).trap):
                    sites.append(_EffectSite(file, text, ("trap", i, "effects"), t.effects))
                    pack.traps[t.id] = TrapKind(t.id, t.name, _effects(t.effects), t.ends_movement)
            elif kind == "map":
                board = validate(data, MapSchema, text, file)
                grid = board.grid()
                _check_board(grid, board, file, text, problems)
                pack.boards[board.name] = grid
                pack.boards[path.stem] = grid
            elif kind == "crawl-adventure":
                adventures.append((path, text, validate(data, AdventureFile, text, file)))
            elif kind not in kinds():
                # Known kinds of other rulesets are checked on their own; anything else is
                # a mistake, not a file to skip in silence.
                message = "missing the top-level key 'kind'" if kind is None else (
                    f"unknown kind {kind!r}"
                )  # fmt: skip
                line = line_of(key_lines(text), ("kind",))
                errors.append(ContentProblem(file, line, "kind", message, tuple(sorted(kinds()))))
        except ContentError as exc:
            errors.extend(exc.problems)
    if options_file is None and any(s.table == "options" for s in settings):
        data = {"kind": "crawl-options"}
        setting.apply(data, settings)
        pack.options = options_of(validate(data, OptionsFile, "", "--set options"))
    if errors:
        raise ContentError(errors)
    _check_cards(pack, parsed, problems)
    for site in sites:
        _check_refs(pack, site.file, site.text, site.path, site.effects, problems)
    seen_adventures: dict[str, str] = {}
    for path, text, adv in adventures:
        if adv.id in seen_adventures:
            problems.add(
                str(path), text, ("id",), f"adventure id {adv.id!r} is already used by "
                f"{seen_adventures[adv.id]}"
            )  # fmt: skip
        seen_adventures[adv.id] = str(path)
        built = _build_adventure(pack, path, text, adv, problems)
        if built is not None:
            pack.adventures[adv.id] = built
            pack.order[adv.id] = adv.order
    if adventures and len(pack.heroes) < MIN_PLAYERS:
        problems.items.append(
            ContentProblem(
                str(root), 0, "hero", f"the pack has {len(pack.heroes)} hero(es): its "
                f"adventures need at least {MIN_PLAYERS} (C-SETUP-03: 3 to 5 players, a "
                "different hero each); add [[hero]] cards in a kind = \"crawl-heroes\" file",
            )
        )  # fmt: skip
    if problems.items:
        raise ContentError(problems.items)
    return pack


@cache
def default_pack() -> Pack:
    """The default pack (:data:`DEFAULT_PACK`), loaded and cross-checked once."""
    return load_pack(DEFAULT_PACK)


@cache
def pack_with(folder: Path | None, settings: tuple[setting.Setting, ...] = ()) -> Pack:
    """The pack in ``folder`` (``None``: the default pack) with ``settings`` applied,
    loaded once per process (batch workers play many games of one pack)."""
    if folder is None and not settings:
        return default_pack()
    return load_pack(folder or DEFAULT_PACK, settings)


_SCHEMAS: dict[str, type[BaseModel]] = {
    "heroes": HeroSchema,
    "monsters": MonsterSchema,
    "spells": SpellSchema,
    "items": ItemSchema,
    "traps": TrapSchema,
    "adventures": AdventureFile,
    "options": OptionsSchema,
}


def check_settings(pack: Pack, settings: Sequence[setting.Setting]) -> None:
    """Each setting names a card, adventure or option of ``pack`` and a value its schema
    accepts (:class:`undercroft.crawl.settings.SettingError` otherwise)."""
    ids = {
        "heroes": list(pack.heroes),
        "monsters": list(pack.monsters),
        "spells": list(pack.spells),
        "items": list(pack.items),
        "traps": list(pack.traps),
        "adventures": pack.campaign_order(),
    }
    setting.check(settings, ids, _SCHEMAS)


# -- cards ----------------------------------------------------------------------------------

_CARD_KINDS = {
    "crawl-heroes": "hero",
    "crawl-monsters": "monster",
    "crawl-spells": "spell",
    "crawl-items": "item",
    "crawl-traps": "trap",
}


def _check_cards(
    pack: Pack, parsed: list[tuple[Path, str, dict[str, Any]]], problems: _Problems
) -> None:
    """Ids are unique; cards that name other cards name existing ones; a hero's starting
    spells fit its Magic (C-SPELL-02, R-C-SPELL-01)."""
    first_seen: dict[tuple[str, str], str] = {}
    for path, text, data in parsed:
        table = _CARD_KINDS.get(str(data.get("kind")))
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
                _check_hero(pack, str(path), text, i, h, problems)
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


def _check_hero(
    pack: Pack, file: str, text: str, i: int, h: dict[str, Any], problems: _Problems
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


def _walk(
    effects: tuple[AnyEffect, ...], path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], AnyEffect]]:
    """Every effect with its key path, nested branches and choice options included."""
    for j, e in enumerate(effects):
        here = (*path, j)
        yield here, e
        for name in ("on_pass", "on_fail", "on_success", "on_win", "on_lose", "on_tie"):
            branch = getattr(e, name, None)
            if branch:
                yield from _walk(branch, (*here, name))
        if isinstance(e, fx.Choice):
            for k, option in enumerate(e.options):
                yield from _walk(option.effects, (*here, "options", k, "effects"))


def _check_refs(
    pack: Pack,
    file: str,
    text: str,
    path: tuple[str | int, ...],
    effects: tuple[AnyEffect, ...],
    problems: _Problems,
) -> None:
    """Effects may only give existing items and spawn existing monsters; only an item
    gives back Magic (C-SPELL-05: Magic is regained by resting, apart from certain
    items), so a room text, spell, trap or monster ability that does is refused."""
    for here, e in _walk(effects, path):
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


def _drawing_line(text: str, key: str, rows: list[str], row: int) -> int:
    """The line of ``text`` on which row ``row`` of the drawing under ``key`` is written."""
    lines = text.splitlines()
    start = line_of(key_lines(text), (key,)) - 1
    for i in range(start, len(lines)):
        window = lines[i : i + len(rows)]
        if len(window) == len(rows) and window[0].endswith(rows[0]) and window[1:] == rows[1:]:
            return i + 1 + row
    return start + 1


def _check_board(grid: Grid, board: MapSchema, file: str, text: str, problems: _Problems) -> None:
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
            line=_drawing_line(text, "areas", rows, y),
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


# -- adventures -------------------------------------------------------------------------------


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
                room_text.area, room_text.text, _effects(room_text.effects),
                room_text.explorers_only, room_text.once,
            )
        )  # fmt: skip
    _check_goals(pack, file, text, adv, areas, problems)
    _check_effect_refs(pack, file, text, adv, grid, problems)
    _check_way_out(file, text, adv, grid, squares["starts"], problems)
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


def _check_way_out(
    file: str, text: str, adv: AdventureFile, grid: Grid, starts: list[Pos], problems: _Problems
) -> None:
    """C-END-01: the heroes can walk from a start square to an exit (one listed, or one a
    room text opens), through doors (closed ones open, secret ones are revealed) and over
    furniture (C-JUMP-01), but not through walls or blockages."""
    exits = {Pos(*xy) for xy in adv.exits}
    openable: set[Pos] = set()
    for _, e in _text_effects(adv):
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


def _door_fits(grid: Grid, p: Pos) -> bool:
    """A door replaces a wall square with open squares on two opposite sides."""
    if grid.terrain_at(p) is not Terrain.WALL:
        return False

    def open_(q: Pos) -> bool:
        return grid.in_bounds(q) and grid.terrain_at(q) is not Terrain.WALL

    return (open_(p.offset(-1, 0)) and open_(p.offset(1, 0))) or (
        open_(p.offset(0, -1)) and open_(p.offset(0, 1))
    )


def _text_effects(adv: AdventureFile) -> Iterator[tuple[tuple[str | int, ...], AnyEffect]]:
    for i, t in enumerate(adv.text):
        yield from _walk(t.effects, ("text", i, "effects"))


def _check_goals(
    pack: Pack, file: str, text: str, adv: AdventureFile, areas: set[str], problems: _Problems
) -> None:
    """A goal's target names a monster (slay), an item (carry) or an area (visit); a visit
    goal is met only by a ``goal`` effect in a room text, so one must name it."""
    ids = [g.id for g in adv.goal]
    met_by_text = {e.goal for _, e in _text_effects(adv) if isinstance(e, fx.Goal)}
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


def _check_effect_refs(
    pack: Pack, file: str, text: str, adv: AdventureFile, grid: Grid, problems: _Problems
) -> None:
    """Room texts give existing items and spawn existing monsters on floor squares; a
    revealed secret room is one of ``secret_rooms`` and its doors stand in walls next to
    it; a new exit is on floor; a goal effect names one of the adventure's goals; and the
    heroes have some way out (C-END-01)."""
    for i, t in enumerate(adv.text):
        _check_refs(pack, file, text, ("text", i, "effects"), t.effects, problems)
    goals = tuple(g.id for g in adv.goal)

    def floor_squares(key: tuple[str | int, ...], squares: tuple[XY, ...], what: str) -> None:
        for k, xy in enumerate(squares):
            p = Pos(*xy)
            if not grid.in_bounds(p) or grid.terrain_at(p) is not Terrain.FLOOR:
                problems.add(file, text, (*key, k), f"{what} {list(xy)} is not a floor square")

    opens_exit = False
    for here, e in _text_effects(adv):
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
                if not grid.in_bounds(p) or not _door_fits(grid, p):
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
