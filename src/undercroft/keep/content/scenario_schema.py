"""The ``kind = "keep-scenario"`` file format: its schema (validated with pydantic).

Every key is described in docs/keep.md; :mod:`undercroft.keep.scenario` builds the world a
validated file describes. Mistakes are reported with file, line and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from undercroft.core.content import MapDrawing, Schema, register_kind
from undercroft.keep.content.calendar import MAX_DAYS, ClockError, parse_when
from undercroft.keep.content.rules_schema import Metal, Minutes

Ref = str | list[int]
"""A place or a thing: a map marker (one character), a label, an id, or ``[x, y]``."""

VERBS = (
    "build",
    "move",
    "remove",
    "wire",
    "set_timer",
    "arm_lock",
    "disarm_lock",
    "hold_door_open",
    "pull_lever",
    "set_job",
    "set_stance",
    "order_attack",
    "visit",
    "rage",
    "settle",
    "breach",
    "walk",
    "rite_of_storms",
    "answer_fugitive",
    "divine",
    "watchful_eye",
    "invade",
    "host",
    "warriors",
    "camp",
    "fugitive",
    "cut_off",
)
NEEDS: Mapping[str, tuple[str, ...]] = {
    "build": ("kind", "at"),
    "move": ("structure", "to"),
    "remove": ("target",),
    "wire": ("path",),
    "set_timer": ("timer", "minutes"),
    "arm_lock": ("door",),
    "disarm_lock": ("door",),
    "hold_door_open": ("door",),
    "pull_lever": ("lever",),
    "set_job": ("minion", "job"),
    "set_stance": ("minion", "stance"),
    "order_attack": ("minion", "target"),
    "visit": ("breed", "portal"),
    "rage": ("minion",),
    "settle": ("creature", "lair"),
    "breach": ("door",),
    "walk": ("who", "to"),
    "rite_of_storms": (),
    "answer_fugitive": ("fugitive",),
    "divine": (),
    "watchful_eye": (),
    "invade": ("members",),
    "host": ("settlement",),
    "warriors": ("camp",),
    "camp": ("camp", "relation"),
    "fugitive": ("fugitive",),
    "cut_off": (),
}
"""The keys each scripted verb needs (the rest of :class:`ScriptSchema` is optional)."""


# -- the schema ----------------------------------------------------------------------------


class AttributeOverrides(Schema):
    battle: Annotated[int, Field(ge=0, le=10)] | None = None
    block: Annotated[int, Field(ge=0, le=10)] | None = None
    craft: Annotated[int, Field(ge=0, le=10)] | None = None
    stalk: Annotated[int, Field(ge=0, le=10)] | None = None


class StockpileSchema(Schema):
    at: Ref
    metal: Metal


class MasterSchema(Schema):
    at: Ref | None = None


class MinionSchema(Schema):
    breed: str
    job: Literal["traps", "chores", "fighting", "none"] = "none"
    stance: Literal["flee", "avoid", "defensive", "normal", "aggressive"] = "normal"
    at: Ref
    name: str | None = None
    count: Annotated[int, Field(ge=1, le=100)] = 1
    attributes: AttributeOverrides = AttributeOverrides()
    bed: Ref | None = None
    """K-WAKE-02: its own bed (default: where it starts)."""


class CreatureSchema(Schema):
    breed: str
    at: Ref
    lair: str | None = None
    name: str | None = None


class LairSchema(Schema):
    name: str
    at: Ref


class DoorSchema(Schema):
    at: Ref
    name: str | None = None
    hold_open: bool | None = None


class StructureSchema(Schema):
    kind: str
    at: Ref
    name: str | None = None
    quality: Literal["mediocre", "normal", "good", "excellent", "masterwork"] = "normal"
    delay: Minutes | None = None
    armed: bool = True


class WireSchema(Schema):
    path: list[Ref]


class MemberSchema(Schema):
    """An adventurer of a scripted invasion or a prisoner: class, level, traits."""

    klass: str = Field(alias="class")
    level: Annotated[int, Field(ge=0, le=10)] = 1
    traits: list[str] = Field(default_factory=list)


class CommandSchema(Schema):
    """One keeper command or happening, as a script item has it without its time (the
    keeper commands the web viewer sends are checked with it too)."""

    do: Literal[VERBS]  # type: ignore[valid-type]
    kind: str | None = None
    at: Ref | None = None
    name: str | None = None
    delay: Minutes | None = None
    structure: str | None = None
    to: Ref | None = None
    target: str | None = None
    path: list[Ref] | None = None
    timer: str | None = None
    minutes: Minutes | None = None
    door: str | None = None
    hold: bool = True
    lever: str | None = None
    minion: str | None = None
    job: Literal["traps", "chores", "fighting", "none"] | None = None
    stance: Literal["flee", "avoid", "defensive", "normal", "aggressive"] | None = None
    breed: str | None = None
    portal: Ref | None = None
    route: list[Ref] = Field(default_factory=list)
    on: bool = True
    creature: str | None = None
    lair: str | None = None
    by: str = "scenario"
    who: str | None = None
    hours: Annotated[int, Field(ge=1, le=240)] | None = None
    fugitive: str | None = None
    accept: bool = True
    members: list[MemberSchema] | None = None
    goal: Literal["kill_master", "steal_treasure", "rescue_prisoners", "wreck_altar"] | None = None
    faction: str | None = None
    settlement: str | None = None
    camp: str | None = None
    relation: Literal["hostile", "neutral", "allied"] | None = None

    @model_validator(mode="after")
    def _complete(self) -> CommandSchema:
        missing = [key for key in NEEDS[self.do] if getattr(self, key) is None]
        if missing:
            raise ValueError(f"'{self.do}' needs {', '.join(repr(k) for k in missing)}")
        return self


class ScriptSchema(CommandSchema):
    """One scripted command (the keeper's) or happening, at a time of day."""

    when: str
    every_days: Annotated[int, Field(ge=1, le=MAX_DAYS)] | None = None
    """Done again every this many days from ``when`` (until ``until``, if given)."""
    until: str | None = None
    """The last time a repeated item may be done."""

    @field_validator("when", "until")
    @classmethod
    def _time(cls, when: str | None) -> str | None:
        if when is None:
            return None
        try:
            parse_when(when)
        except ClockError as exc:
            raise ValueError(str(exc)) from None
        return when


class PlaceSchema(Schema):
    """A prisoners' cell, a pyre or a butcher table (K-AFTER-02)."""

    at: Ref
    name: str | None = None


class TreasureSchema(Schema):
    """A pile of treasure (K-INV-01, K-AFTER-01): ``amount`` units to carry off."""

    at: Ref
    amount: Annotated[int, Field(ge=1)]
    name: str | None = None


class AltarSchema(Schema):
    """One of your altars (K-INV-01: some groups come to wreck it)."""

    at: Ref
    name: str | None = None


class GuardPostSchema(Schema):
    """A guard post: its lit torch shows a group within 8 tiles (K-ARR-04)."""

    at: Ref
    torch: bool = True
    name: str | None = None


class PrisonerSchema(MemberSchema):
    """An adventurer held in your dungeon (K-AFTER-02; a rescue group comes for it)."""

    at: Ref
    faction: str | None = None
    name: str | None = None


class SettlementSchema(Schema):
    """A settlement on the Surface that may send a host (K-TIME-07)."""

    name: str
    faction: str | None = None


class CampSchema(Schema):
    """An evil camp on the Surface; a Hostile one may send its warriors (K-TIME-07)."""

    name: str
    relation: Literal["hostile", "neutral", "allied"] = "neutral"


class KeeperSchema(Schema):
    """What the keeper has to hand: divination charges (K-ARR-01), Watchful Eye (K-ARR-06)."""

    divination: Annotated[int, Field(ge=0, le=1000)] = 0
    watchful_eye: Annotated[int, Field(ge=0, le=1000)] = 0


class ScenarioSchema(Schema):
    """A ``kind = "keep-scenario"`` file (see docs/keep.md)."""

    kind: Literal["keep-scenario"]
    name: str
    description: str = ""
    rules: str | None = None
    days: Annotated[int, Field(ge=1, le=MAX_DAYS)] = 30
    start_day: Annotated[int, Field(ge=1, le=MAX_DAYS)] = 1
    """Ruling R-K-TIME-06: the game day the scenario starts on (its clock starts there)."""
    past_invasions: Annotated[int, Field(ge=0, le=100_000)] = 0
    """Ruling R-K-TIME-06: invasions that came before the start (K-SIZE-01/05/06 count
    them)."""
    tiles: MapDrawing
    portals: list[Ref]
    sanctum: Ref
    options: dict[str, Any] = Field(default_factory=dict)
    stockpile: StockpileSchema | None = None
    master: MasterSchema = MasterSchema()
    minion: list[MinionSchema] = Field(default_factory=list)
    creature: list[CreatureSchema] = Field(default_factory=list)
    lair: list[LairSchema] = Field(default_factory=list)
    door: list[DoorSchema] = Field(default_factory=list)
    structure: list[StructureSchema] = Field(default_factory=list)
    wire: list[WireSchema] = Field(default_factory=list)
    script: list[ScriptSchema] = Field(default_factory=list)
    treasure: list[TreasureSchema] = Field(default_factory=list)
    altar: list[AltarSchema] = Field(default_factory=list)
    guard_post: list[GuardPostSchema] = Field(default_factory=list)
    prisoner: list[PrisonerSchema] = Field(default_factory=list)
    cell: list[PlaceSchema] = Field(default_factory=list)
    pyre: list[PlaceSchema] = Field(default_factory=list)
    butcher_table: list[PlaceSchema] = Field(default_factory=list)
    settlement: list[SettlementSchema] = Field(default_factory=list)
    camp: list[CampSchema] = Field(default_factory=list)
    keeper: KeeperSchema = KeeperSchema()


register_kind("keep-scenario", ScenarioSchema, "a keep dungeon: map, minions, structures, script")
