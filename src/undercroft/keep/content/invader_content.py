"""Who invades: the static adventurer content (a ``kind = "keep-adventurers"`` TOML file).

The catalogue leaves the classes, traits, level progression, the growth curve between the
anchors of K-SIZE-03, the factions and many numbers to content; this module validates that
content (pydantic, errors naming file, line and key) and holds it as frozen values the
rules read (:class:`AdventurerContent`). The rules themselves are code in the invasion
modules; the default file is ``keep/content/adventurers.toml``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from undercroft.core.content import Schema, load, register_kind, validate
from undercroft.keep.content.attributes import Attributes
from undercroft.keep.content.equipment import Armour, Helmet, Weapon, WeaponSchema

GOALS = ("kill_master", "steal_treasure", "rescue_prisoners", "wreck_altar")
"""K-INV-01: what a group comes for (the arrival card shows it, K-INV-02)."""
Goal = Literal["kill_master", "steal_treasure", "rescue_prisoners", "wreck_altar"]
Probability = Annotated[float, Field(ge=0.0, le=1.0)]
Level = Annotated[int, Field(ge=0, le=10)]


# -- schemas -------------------------------------------------------------------------------


class AttributeSchema(Schema):
    battle: Level = 0
    block: Level = 0
    craft: Level = 0
    stalk: Level = 0


class ClassSchema(Schema):
    name: str
    peasant: bool = False
    weight: Annotated[int, Field(ge=0)] = 0
    attributes: AttributeSchema = AttributeSchema()
    per_level: AttributeSchema = AttributeSchema()
    seconds_per_tile: Annotated[int, Field(ge=1, le=3600)] = 60
    carry: Annotated[int, Field(ge=0)] = 1
    abilities: list[Literal["detect_traps", "heal"]] = Field(default_factory=list)
    weapon: str
    armour: Armour = "none"
    helmet: Helmet = 0


class TraitSchema(Schema):
    name: str
    chance: Probability = 0.0
    classes: list[str] = Field(default_factory=list)
    attributes: AttributeSchema = AttributeSchema()


class AnchorSchema(Schema):
    day: Annotated[int, Field(ge=1)]
    members: Annotated[float, Field(ge=1.0, le=20.0)]
    levels: Annotated[float, Field(ge=0.0)]


class CapSchema(Schema):
    day: Annotated[int, Field(ge=1)]
    level: Annotated[int, Field(ge=1, le=10)]


class GrowthSchema(Schema):
    anchors: list[AnchorSchema]
    level_caps: list[CapSchema]
    weaker_levels: Probability = 0.7
    stronger_levels: Annotated[float, Field(ge=1.0, le=3.0)] = 1.3
    stronger_max_members: Annotated[int, Field(ge=2, le=20)] = 6

    @model_validator(mode="after")
    def _ordered(self) -> GrowthSchema:
        for name, days in (
            ("anchors", [a.day for a in self.anchors]),
            ("level_caps", [c.day for c in self.level_caps]),
        ):
            if not days or days != sorted(set(days)) or days[0] != 1:
                raise ValueError(f"{name} must start on day 1 and go up day by day, got {days}")
        return self


class MobSizesSchema(Schema):
    day: Annotated[int, Field(ge=1)]
    weights: dict[str, Annotated[int, Field(ge=0)]]

    @model_validator(mode="after")
    def _sizes(self) -> MobSizesSchema:
        if not self.weights or not all(k.isdigit() and int(k) >= 1 for k in self.weights):
            raise ValueError("weights are written size = weight, sizes 1 or more")
        if sum(self.weights.values()) == 0:
            raise ValueError("at least one size needs a weight above 0")
        return self


class MobSchema(Schema):
    chance: Probability = 0.125
    from_invasion: Annotated[int, Field(ge=1)] = 3
    sizes: list[MobSizesSchema]

    @model_validator(mode="after")
    def _ordered(self) -> MobSchema:
        days = [s.day for s in self.sizes]
        if not days or days != sorted(set(days)) or days[0] != 1:
            raise ValueError(f"sizes must start on day 1 and go up day by day, got {days}")
        return self


class StrengthSchema(Schema):
    weaker: Probability = 0.2
    stronger: Probability = 0.2
    from_invasion: Annotated[int, Field(ge=1)] = 4

    @model_validator(mode="after")
    def _sum(self) -> StrengthSchema:
        if self.weaker + self.stronger > 1.0:
            raise ValueError("weaker and stronger together cannot be more than 1")
        return self


class FactionSchema(Schema):
    name: str
    weight: Annotated[int, Field(ge=0)] = 1
    home: str | None = None
    goals: dict[Goal, Annotated[int, Field(ge=0)]]


class GoalsSchema(Schema):
    work_minutes: dict[Goal, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    take_treasure: Probability = 0.8


class ArrivalSchema(Schema):
    water_portal: Probability = 0.2
    water_seconds: Annotated[int, Field(ge=1, le=3600)] = 180


class ForcingSchema(Schema):
    pick_target: int = 18
    bash_target: int = 18
    pick_minutes: Annotated[int, Field(ge=1, le=1440)] = 12
    locked_door_cost: Annotated[int, Field(ge=1, le=1000)] = 12


class DiscoverySchema(Schema):
    target: int = 20
    dark: int = -4


class DisarmingSchema(Schema):
    target: int = 18
    minutes: Annotated[int, Field(ge=1, le=1440)] = 10
    attempts: Annotated[int, Field(ge=1, le=100)] = 5


class CautionSchema(Schema):
    remains_from: list[Literal["wound", "gas", "hold", "flee", "alarm", "summon"]] = Field(
        default_factory=lambda: ["wound", "summon"]  # type: ignore[arg-type]
    )


class AdventurersSchema(Schema):
    """A ``kind = "keep-adventurers"`` file (see docs/keep.md, "Who invades")."""

    kind: Literal["keep-adventurers"]
    name: str
    warriors_class: str = "warrior"
    """K-SIZE-07: the class of a Hostile evil camp's warriors."""
    weapon: dict[str, WeaponSchema]
    trait: dict[str, TraitSchema] = Field(default_factory=dict)
    growth: GrowthSchema
    mob: MobSchema
    strength: StrengthSchema = StrengthSchema()
    faction: dict[str, FactionSchema]
    goals: GoalsSchema = GoalsSchema()
    arrival: ArrivalSchema = ArrivalSchema()
    forcing: ForcingSchema = ForcingSchema()
    discovery: DiscoverySchema = DiscoverySchema()
    disarming: DisarmingSchema = DisarmingSchema()
    caution: CautionSchema = CautionSchema()
    # ``class`` is a Python keyword: the table is [class.KEY] in the file.
    classes: dict[str, ClassSchema] = Field(alias="class")

    @model_validator(mode="after")
    def _cross(self) -> AdventurersSchema:
        peasants = [k for k, c in self.classes.items() if c.peasant]
        if len(peasants) != 1:
            raise ValueError(f"exactly one class needs peasant = true, got {peasants}")
        if self.warriors_class not in self.classes or self.classes[self.warriors_class].peasant:
            raise ValueError(f"warriors_class {self.warriors_class!r} is not a class with levels")
        if not any(c.weight > 0 for c in self.classes.values() if not c.peasant):
            raise ValueError("at least one class other than the peasant needs a weight")
        for key, c in self.classes.items():
            if c.weapon not in self.weapon:
                raise ValueError(
                    f"class.{key}: no weapon {c.weapon!r} (weapons: {list(self.weapon)})"
                )
        for key, t in self.trait.items():
            unknown = [c for c in t.classes if c not in self.classes]
            if unknown:
                raise ValueError(f"trait.{key}: unknown classes {unknown}")
        if not any(f.weight > 0 for f in self.faction.values()):
            raise ValueError("at least one faction needs a weight above 0")
        for key, f in self.faction.items():
            if sum(f.goals.values()) == 0:
                raise ValueError(f"faction.{key}: at least one goal needs a weight above 0")
        return self


register_kind("keep-adventurers", AdventurersSchema, "keep invaders: classes, traits, growth")


# -- the content as the rules read it ------------------------------------------------------


def _attrs(s: AttributeSchema) -> Attributes:
    return Attributes.from_json(s.model_dump())


@dataclass(frozen=True, slots=True)
class AdventurerClass:
    """A class (Peasant, Warrior, Rogue, ...): attributes by level, pace, equipment."""

    key: str
    name: str
    peasant: bool
    weight: int
    attributes: Attributes
    per_level: Attributes
    seconds_per_tile: int
    carry: int
    abilities: tuple[str, ...]
    weapon: str
    armour: str
    helmet: int


@dataclass(frozen=True, slots=True)
class Trait:
    """A trait (Guide, Cartographer, Locksmith, Doorbreaker, ...)."""

    key: str
    name: str
    chance: float
    classes: tuple[str, ...]
    attributes: Attributes


@dataclass(frozen=True, slots=True)
class Faction:
    """Where groups come from (K-DOOR-02, K-ARR-01) and what they come for (K-INV-01)."""

    key: str
    name: str
    weight: int
    home: str | None
    goals: Mapping[str, int]


def _line(points: list[tuple[int, float]], day: int) -> float:
    """Straight between anchors, flat after the last (K-SIZE-03 growth curve)."""
    if day <= points[0][0]:
        return points[0][1]
    for (d0, v0), (d1, v1) in itertools.pairwise(points):
        if d0 <= day <= d1:
            return v0 + (v1 - v0) * (day - d0) / (d1 - d0)
    return points[-1][1]


@dataclass(frozen=True)
class AdventurerContent:
    """Everything static about invaders (STYLE: static content apart from the World)."""

    name: str
    warriors_class: str
    classes: Mapping[str, AdventurerClass]
    weapons: Mapping[str, Weapon]
    traits: Mapping[str, Trait]
    factions: Mapping[str, Faction]
    members_curve: tuple[tuple[int, float], ...]
    levels_curve: tuple[tuple[int, float], ...]
    level_caps: tuple[tuple[int, int], ...]
    weaker_levels: float
    stronger_levels: float
    stronger_max_members: int
    mob_chance: float
    mob_from: int
    mob_sizes: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    weaker: float
    stronger: float
    strength_from: int
    goal_minutes: Mapping[str, int]
    take_treasure: float
    water_portal: float
    water_seconds: int
    pick_target: int
    bash_target: int
    pick_minutes: int
    locked_door_cost: int
    discovery_target: int
    dark: int
    disarm_target: int
    disarm_minutes: int
    disarm_attempts: int
    remains_from: tuple[str, ...]

    @property
    def peasant(self) -> AdventurerClass:
        return next(c for c in self.classes.values() if c.peasant)

    def members_at(self, day: int) -> float:
        """K-SIZE-03: the expected number of members on ``day``."""
        return _line(list(self.members_curve), day)

    def levels_at(self, day: int) -> float:
        """K-SIZE-03: the expected sum of members' levels on ``day``."""
        return _line(list(self.levels_curve), day)

    def level_cap(self, day: int) -> int:
        """K-SIZE-03: the highest level a member can have on ``day``."""
        cap = self.level_caps[0][1]
        for first, level in self.level_caps:
            if day >= first:
                cap = level
        return cap

    def mob_weights(self, day: int) -> tuple[tuple[int, int], ...]:
        """K-SIZE-05: (size, weight) of a peasant mob on ``day``."""
        found = self.mob_sizes[0][1]
        for first, weights in self.mob_sizes:
            if day >= first:
                found = weights
        return found

    def attributes_of(self, klass: str, level: int, traits: tuple[str, ...]) -> Attributes:
        """A member's attributes: its class at its level, plus its traits (0..10)."""
        c = self.classes[klass]
        steps = max(0, level - (0 if c.peasant else 1))
        values = {}
        for name, base in c.attributes.to_json().items():
            value = base + steps * c.per_level.to_json()[name]
            value += sum(self.traits[t].attributes.to_json()[name] for t in traits)
            values[name] = min(10, value)
        return Attributes.from_json(values)

    @classmethod
    def from_schema(cls, s: AdventurersSchema) -> AdventurerContent:
        return cls(
            name=s.name,
            warriors_class=s.warriors_class,
            classes={
                k: AdventurerClass(
                    k,
                    c.name,
                    c.peasant,
                    c.weight,
                    _attrs(c.attributes),
                    _attrs(c.per_level),
                    c.seconds_per_tile,
                    c.carry,
                    tuple(c.abilities),
                    c.weapon,
                    c.armour,
                    c.helmet,
                )
                for k, c in s.classes.items()
            },
            weapons={k: Weapon.from_schema(k, w) for k, w in s.weapon.items()},
            traits={
                k: Trait(k, t.name, t.chance, tuple(t.classes), _attrs(t.attributes))
                for k, t in s.trait.items()
            },
            factions={
                k: Faction(k, f.name, f.weight, f.home, {str(g): w for g, w in f.goals.items()})
                for k, f in s.faction.items()
            },
            members_curve=tuple((a.day, a.members) for a in s.growth.anchors),
            levels_curve=tuple((a.day, a.levels) for a in s.growth.anchors),
            level_caps=tuple((c.day, c.level) for c in s.growth.level_caps),
            weaker_levels=s.growth.weaker_levels,
            stronger_levels=s.growth.stronger_levels,
            stronger_max_members=s.growth.stronger_max_members,
            mob_chance=s.mob.chance,
            mob_from=s.mob.from_invasion,
            mob_sizes=tuple(
                (m.day, tuple(sorted((int(k), v) for k, v in m.weights.items())))
                for m in s.mob.sizes
            ),
            weaker=s.strength.weaker,
            stronger=s.strength.stronger,
            strength_from=s.strength.from_invasion,
            goal_minutes={str(k): v for k, v in s.goals.work_minutes.items()},
            take_treasure=s.goals.take_treasure,
            water_portal=s.arrival.water_portal,
            water_seconds=s.arrival.water_seconds,
            pick_target=s.forcing.pick_target,
            bash_target=s.forcing.bash_target,
            pick_minutes=s.forcing.pick_minutes,
            locked_door_cost=s.forcing.locked_door_cost,
            discovery_target=s.discovery.target,
            dark=s.discovery.dark,
            disarm_target=s.disarming.target,
            disarm_minutes=s.disarming.minutes,
            disarm_attempts=s.disarming.attempts,
            remains_from=tuple(s.caution.remains_from),
        )


def load_adventurers(path: Path) -> tuple[AdventurerContent, dict[str, Any]]:
    """Read and validate a ``keep-adventurers`` file: the content and its data (for saves)."""
    schema = load(path, AdventurersSchema)
    return AdventurerContent.from_schema(schema), schema.model_dump(mode="json", by_alias=True)


def adventurers_from_data(data: Mapping[str, Any], file: str) -> AdventurerContent:
    """The content from already-parsed data (a saved world's copy)."""
    return AdventurerContent.from_schema(validate(dict(data), AdventurersSchema, "", file))
