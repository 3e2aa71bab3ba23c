"""The static keep ruleset: options and the kinds of structures, minions and creatures.

A :class:`Ruleset` is read from a ``kind = "keep-rules"`` TOML file (the default is
``keep/content/rules.toml``) and never changes during a run; the mutable state lives in
:class:`undercroft.keep.state.world.World`. Rules are code; this holds the numbers the seed
leaves to content (K-TRAP-03 effects, build and rearm times, attributes) and the
ruling switches under ``[options]`` (``keep.options.*`` in docs/rulings.md).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from undercroft.core.checks import DiceModel
from undercroft.core.content import load, parse_toml, validate
from undercroft.core.grid import Pos
from undercroft.keep.content.attributes import ATTRIBUTES, Attributes
from undercroft.keep.content.equipment import Weapon
from undercroft.keep.content.invader_content import (
    AdventurerContent,
    adventurers_from_data,
    load_adventurers,
)
from undercroft.keep.content.rules_schema import (
    BeingKindSchema,
    CombatSchema,
    DistanceMetric,
    OptionsSchema,
    RulesSchema,
)


class Effect(enum.Enum):
    """What a mechanism does when it fires (K-TRAP-03 content)."""

    WOUND = "wound"
    """Wounds everyone caught who fails to resist (blades, flames, coil, darts, explosive)."""
    GAS = "gas"
    """Leaves a gas cloud for its duration (no Caution bonus inside, K-LEARN-06) and wounds
    whoever it catches who fails to resist."""
    HOLD = "hold"
    """Holds everyone caught who fails to resist in a web for its duration."""
    FLEE = "flee"
    """Makes everyone caught who fails to resist flee for its duration (terror)."""
    ALARM = "alarm"
    """Raises the alarm: sights the group of whoever set it off (K-ARR-03)."""
    SUMMON = "summon"
    """Releases spiders (the content's ``summon`` creatures) that fight for you."""


# -- the ruleset as the engine uses it -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class TriggerKind:
    """A kind of trigger (K-TRAP-02)."""

    key: str
    name: str
    area: int
    lever: bool
    learn_type: str
    metal: int
    build_minutes: int
    rearm_minutes: int


@dataclass(frozen=True, slots=True)
class MechanismKind:
    """A kind of mechanism and its effect (K-TRAP-03)."""

    key: str
    name: str
    effect: Effect
    wound: str
    area: int
    duration: int
    alarm: bool
    solid: bool
    power: int
    blunt: bool
    summon: str | None
    count: int
    metal: int
    build_minutes: int
    rearm_minutes: int


@dataclass(frozen=True, slots=True)
class StructureKind:
    """A timer, lock, door or barricade."""

    key: str
    name: str
    metal: int
    build_minutes: int
    delay: int
    solid: bool


@dataclass(frozen=True, slots=True)
class BeingKind:
    """A kind of minion, creature, merchant, or the Master."""

    key: str
    name: str
    attributes: Attributes
    minutes_per_tile: int
    carry: int
    weapon: str = "fists"
    armour: str = "none"
    helmet: int = 0
    per_tile: int = 1
    abilities: tuple[str, ...] = ()
    stance: str = "normal"
    always_unconscious: bool = False


@dataclass(frozen=True, slots=True)
class CombatRules:
    """``[combat]`` as the rules read it (see :class:`CombatSchema`)."""

    serious_margin: int = 5
    critical_margin: int = 10
    locations: tuple[tuple[str, int], ...] = (("head", 1), ("torso", 3), ("arms", 2), ("legs", 2))
    cover: float = 0.25
    bleeds: tuple[str, ...] = ("serious", "critical")
    bleed_minutes: int = 120
    heal_seconds: int = 60
    mend_minutes: int = 120
    flee_tiles: int = 8
    avoid_tiles: int = 4
    defend_tiles: int = 1
    engage_tiles: int = 12
    master_stance: str = "defensive"
    wait_seconds: int = 10

    @classmethod
    def from_schema(cls, s: CombatSchema) -> CombatRules:
        return cls(
            serious_margin=s.serious_margin,
            critical_margin=s.critical_margin,
            locations=tuple((k, v) for k, v in s.locations.items() if v > 0),
            cover=s.cover,
            bleeds=tuple(s.bleeds),
            bleed_minutes=s.bleed_minutes,
            heal_seconds=s.heal_seconds,
            mend_minutes=s.mend_minutes,
            flee_tiles=s.flee_tiles,
            avoid_tiles=s.avoid_tiles,
            defend_tiles=s.defend_tiles,
            engage_tiles=s.engage_tiles,
            master_stance=s.master_stance,
            wait_seconds=s.wait_seconds,
        )


@dataclass(frozen=True)
class KeepOptions:
    """``keep.options``: the ruling switches in force (recorded in the log header)."""

    distance_metric: DistanceMetric = "chebyshev"
    trigger_spacing: int = 4
    decay_minutes: int = 2880
    minutes_per_tile: int = 1
    rearm_target: int = 0
    restore_door_minutes: int = 5
    pickup_minutes: int = 2
    invasions: bool = True
    dice_model: DiceModel = field(default_factory=DiceModel)
    invasion_ramp: tuple[float, float] = (0.02, 1.0)
    """R-K-TIME-01: (start, k) of the hourly chance's curve."""
    invasion_limit_hours: tuple[tuple[int, float], ...] = ()
    """R-K-TIME-02: (day, hours) steps; empty means the linear 48 - 3.6 x (day - 2)."""
    known_tripwires: Literal["step_over", "walk_around"] = "step_over"
    """R-K-CAUT-01: a known tripwire is stepped over, or walked round when possible."""
    fugitive_pursuers: Literal["at_once", "next_invasion"] = "at_once"
    """R-K-SIZE-02: a fugitive's pursuers set out at once, or come as the next invasion."""
    darkness_hides: bool = False
    """R-K-ARR-01: whether adventurers on dark tiles are hidden from all but a ghost eye."""
    rite_of_storms_hours: int = 24
    """R-K-TIME-05: how long a Rite of Storms stops invasions."""
    trap_friendly_fire: bool = True
    """R-K-TRAP-02: a trap's area harms your own side too (false: only the fumbler)."""
    fallen_adventurers: Literal["capture", "kill", "leave"] = "capture"
    """R-K-WAKE-02: what your minions do with an unconscious adventurer."""

    def distance(self, a: Pos, b: Pos) -> float:
        """A keep distance in tiles (R-K-DIST-01: Chebyshev unless switched)."""
        if self.distance_metric == "chebyshev":
            return a.chebyshev(b)
        if self.distance_metric == "manhattan":
            return a.manhattan(b)
        return float(((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5)

    def within(self, a: Pos, b: Pos, tiles: int) -> bool:
        """ "Within N tiles" (R-K-DIST-01)."""
        return self.distance(a, b) <= tiles

    def to_json(self) -> dict[str, Any]:
        return {
            "distance_metric": self.distance_metric,
            "trigger_spacing": self.trigger_spacing,
            "decay_minutes": self.decay_minutes,
            "minutes_per_tile": self.minutes_per_tile,
            "rearm_target": self.rearm_target,
            "restore_door_minutes": self.restore_door_minutes,
            "pickup_minutes": self.pickup_minutes,
            "invasions": self.invasions,
            "dice_model": self.dice_model.to_json(),
            "trap_friendly_fire": self.trap_friendly_fire,
            **(self.invasion_json() if self.invasions else {}),
        }

    def invasion_json(self) -> dict[str, Any]:
        """The invasion switches (in the log header only when invasions are on, since they
        decide nothing otherwise: an invasions-off log stays as it was before them)."""
        return {
            "invasion_ramp": {"start": self.invasion_ramp[0], "k": self.invasion_ramp[1]},
            "invasion_limit_hours": {str(d): h for d, h in self.invasion_limit_hours},
            "known_tripwires": self.known_tripwires,
            "fugitive_pursuers": self.fugitive_pursuers,
            "darkness_hides": self.darkness_hides,
            "rite_of_storms_hours": self.rite_of_storms_hours,
            "fallen_adventurers": self.fallen_adventurers,
        }

    @classmethod
    def from_schema(cls, schema: OptionsSchema) -> KeepOptions:
        return cls(
            distance_metric=schema.distance_metric,
            trigger_spacing=schema.trigger_spacing,
            decay_minutes=schema.decay_minutes,
            minutes_per_tile=schema.minutes_per_tile,
            rearm_target=schema.rearm_target,
            restore_door_minutes=schema.restore_door_minutes,
            pickup_minutes=schema.pickup_minutes,
            invasions=schema.invasions,
            dice_model=DiceModel.from_json(schema.dice_model.model_dump(exclude_none=True)),
            invasion_ramp=(schema.invasion_ramp.start, schema.invasion_ramp.k),
            invasion_limit_hours=tuple(
                sorted((int(d), float(h)) for d, h in schema.invasion_limit_hours.items())
            ),
            known_tripwires=schema.known_tripwires,
            fugitive_pursuers=schema.fugitive_pursuers,
            darkness_hides=schema.darkness_hides,
            rite_of_storms_hours=schema.rite_of_storms_hours,
            trap_friendly_fire=schema.trap_friendly_fire,
            fallen_adventurers=schema.fallen_adventurers,
        )


def merge_options(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base`` (tables merged key by key)."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge_options(merged[key], value)
        else:
            merged[key] = value
    return merged


@dataclass(frozen=True)
class Ruleset:
    """Everything static about a keep game (STYLE: static content apart from the World)."""

    name: str
    options: KeepOptions
    triggers: Mapping[str, TriggerKind]
    mechanisms: Mapping[str, MechanismKind]
    structures: Mapping[str, StructureKind]
    minions: Mapping[str, BeingKind]
    master: BeingKind
    creatures: Mapping[str, BeingKind]
    merchants: Mapping[str, BeingKind]
    adventurers: AdventurerContent
    weapons: Mapping[str, Weapon] = field(default_factory=dict)
    """The keep side's weapons (the adventurers' are in ``adventurers.weapons``)."""
    combat: CombatRules = field(default_factory=CombatRules)
    source: Mapping[str, Any] = field(default_factory=dict)
    """The validated content as data (saved with a world so a save is self-contained)."""

    @classmethod
    def from_schema(cls, schema: RulesSchema, folder: Path | None = None) -> Ruleset:
        """The ruleset; its adventurer content comes embedded or from its file (looked for
        in ``folder``, the rules file's, then among the shipped files)."""

        def being(key: str, s: BeingKindSchema) -> BeingKind:
            attrs = Attributes.from_json(s.attributes.model_dump())
            return BeingKind(
                key,
                s.name,
                attrs,
                s.minutes_per_tile,
                s.carry,
                s.weapon,
                s.armour,
                s.helmet,
                s.per_tile,
                tuple(s.abilities),
                s.stance,
                s.always_unconscious,
            )

        source = schema.model_dump(mode="json")
        if schema.adventurer_content is not None:
            adventurers = adventurers_from_data(schema.adventurer_content, "<saved adventurers>")
        else:
            adventurers, source["adventurer_content"] = _adventurer_file(schema.adventurers, folder)
        return cls(
            name=schema.name,
            options=KeepOptions.from_schema(schema.options),
            triggers={k: TriggerKind(k, **v.model_dump()) for k, v in schema.trigger.items()},
            mechanisms={
                k: MechanismKind(k, **{**v.model_dump(), "effect": Effect(v.effect)})
                for k, v in schema.mechanism.items()
            },
            structures={k: StructureKind(k, **v.model_dump()) for k, v in schema.structure.items()},
            minions={k: being(k, v) for k, v in schema.minion.items()},
            master=being("master", schema.master),
            creatures={k: being(k, v) for k, v in schema.creature.items()},
            merchants={k: being(k, v) for k, v in schema.merchant.items()},
            adventurers=adventurers,
            weapons={k: Weapon.from_schema(k, w) for k, w in schema.weapon.items()},
            combat=CombatRules.from_schema(schema.combat),
            source=source,
        )

    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, file: str = "<rules>") -> Ruleset:
        """A ruleset from already-parsed data (a saved world's copy, or a test's)."""
        return cls.from_schema(validate(data, RulesSchema, "", file))

    def with_options(self, overrides: Mapping[str, Any], *, file: str = "<options>") -> Ruleset:
        """The same ruleset with some ``[options]`` replaced (scenario overrides)."""
        return self.with_content({"options": dict(overrides)} if overrides else {}, file=file)

    def with_content(self, overrides: Mapping[str, Any], *, file: str = "<content>") -> Ruleset:
        """The same ruleset with some content values replaced (``--set``: tables merged
        key by key), validated as a content file is."""
        if not overrides:
            return self
        return Ruleset.from_data(merge_options(self.source, overrides), file=file)

    def build_kinds(self) -> list[str]:
        """Every kind the keeper can order built (K-BUILD-01)."""
        return [*self.triggers, *self.mechanisms, *self.structures]

    def metal_for(self, kind: str) -> int:
        if kind in self.triggers:
            return self.triggers[kind].metal
        if kind in self.mechanisms:
            return self.mechanisms[kind].metal
        return self.structures[kind].metal

    def build_minutes_for(self, kind: str) -> int:
        if kind in self.triggers:
            return self.triggers[kind].build_minutes
        if kind in self.mechanisms:
            return self.mechanisms[kind].build_minutes
        return self.structures[kind].build_minutes

    def is_solid(self, kind: str) -> bool:
        """Whether a structure of this kind blocks walking (K-PATH-01 must check it)."""
        if kind in self.mechanisms:
            return self.mechanisms[kind].solid
        if kind in self.structures:
            return self.structures[kind].solid
        return False


DEFAULT_RULES = "rules.toml"


def content_path(name: str) -> Path:
    """A file shipped in ``undercroft/keep/content``."""
    return Path(str(resources.files("undercroft.keep") / "content" / name))


_SHIPPED_ADVENTURERS: dict[str, tuple[AdventurerContent, dict[str, Any]]] = {}


def _adventurer_file(name: str, folder: Path | None) -> tuple[AdventurerContent, dict[str, Any]]:
    """A ``keep-adventurers`` file beside the rules file, or a shipped one (read once)."""
    if folder is not None and (folder / name).is_file():
        return load_adventurers(folder / name)
    if name not in _SHIPPED_ADVENTURERS:
        _SHIPPED_ADVENTURERS[name] = load_adventurers(content_path(name))
    content, data = _SHIPPED_ADVENTURERS[name]
    return content, dict(data)


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load a ``keep-rules`` file (default: the shipped ``rules.toml``)."""
    file = Path(path) if path is not None else content_path(DEFAULT_RULES)
    return Ruleset.from_schema(load(file, RulesSchema), file.parent)


_DEFAULT: Ruleset | None = None


def default_ruleset() -> Ruleset:
    """The shipped ruleset, read once per process (it is immutable)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_ruleset()
    return _DEFAULT


def parse_rules_text(text: str, file: str = "<rules>") -> Ruleset:
    """A ruleset from TOML text (tests and tools)."""
    return Ruleset.from_schema(validate(parse_toml(text, file), RulesSchema, text, file))


__all__ = ["ATTRIBUTES", "Attributes", "KeepOptions", "Ruleset", "load_ruleset"]
