"""The schemas of the crawl's content files (one pydantic model a ``kind``, bounds of
the numbers a card takes, the options file built from :class:`Options` itself) and the
kinds they register with :mod:`undercroft.core.content`."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any, Literal, cast, get_type_hints

from pydantic import BaseModel, Field, create_model

from undercroft.core.content import (
    Schema,
    register_kind,
)
from undercroft.crawl.effects import AnyEffect
from undercroft.crawl.players import MIN_PLAYERS
from undercroft.crawl.ruleset import (
    Options,
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
    __doc__='A pack\'s options file: ``kind = "crawl-options"`` and any of the options.',
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


def effects_of(items: tuple[AnyEffect, ...]) -> tuple[AnyEffect, ...]:
    return tuple(items)


SETTING_SCHEMAS: dict[str, type[BaseModel]] = {
    "heroes": HeroSchema,
    "monsters": MonsterSchema,
    "spells": SpellSchema,
    "items": ItemSchema,
    "traps": TrapSchema,
    "adventures": AdventureFile,
    "options": OptionsSchema,
}
