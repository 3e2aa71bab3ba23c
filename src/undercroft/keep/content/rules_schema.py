"""The ``keep-rules`` file's schema: what a keep rules file may say, and its bounds.

Validated by :func:`undercroft.keep.content.ruleset.load_ruleset`, which turns it into the
:class:`~undercroft.keep.content.ruleset.Ruleset` the engine reads (docs/keep.md,
"Numbers", gives the bounds).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from undercroft.core.checks import DiceModel, DiceModelError
from undercroft.core.content import Schema, register_kind
from undercroft.keep.content.equipment import Armour, Helmet, WeaponSchema

DistanceMetric = Literal["chebyshev", "manhattan", "euclidean"]
StanceName = Literal["flee", "avoid", "defensive", "normal", "aggressive"]
WoundLevel = Literal["light", "serious", "critical"]


# -- schemas -------------------------------------------------------------------------------

# Bounds of the numbers keep content takes (docs/keep.md, "Numbers"): generous, but no
# number can make a run stall or a figure absurd.
MAX_MINUTES = 525_600
"""A year of game minutes: the longest build, rearm, decay, delay or duration."""
MAX_METAL = 1_000_000
MAX_AREA = 10
"""Tiles a trigger watches or a mechanism reaches beyond its own."""
MAX_DIE = 100

Minutes = Annotated[int, Field(ge=0, le=MAX_MINUTES)]
Metal = Annotated[int, Field(ge=0, le=MAX_METAL)]
Area = Annotated[int, Field(ge=0, le=MAX_AREA)]
DieFace = Annotated[int, Field(ge=0, le=MAX_DIE)]


class DiceModelSchema(Schema):
    die: Annotated[int, Field(ge=2, le=MAX_DIE)] = 20
    attribute_weight: Annotated[int, Field(ge=0, le=10)] = 2
    fumble_max: DieFace = 1
    critical_min: DieFace = 20
    ties: Literal["attacker", "defender"] = "defender"
    attribute_min: DieFace = 0
    attribute_max: DieFace = 10
    grade_floors: dict[Literal["normal", "good", "excellent", "masterwork"], DieFace] | None = None
    grade_values: (
        dict[
            Literal["mediocre", "normal", "good", "excellent", "masterwork"],
            Annotated[int, Field(ge=-MAX_DIE, le=MAX_DIE)],
        ]
        | None
    ) = None

    @model_validator(mode="after")
    def _sound(self) -> DiceModelSchema:
        try:
            DiceModel.from_json(self.model_dump(exclude_none=True))
        except DiceModelError as exc:
            raise ValueError(str(exc)) from None
        return self


class RampSchema(Schema):
    """``invasion_ramp`` (ruling R-K-TIME-01): the hourly chance from ``start`` to 100%."""

    start: Annotated[float, Field(ge=0.0, le=1.0)] = 0.02
    k: Annotated[float, Field(gt=0.0, le=10.0)] = 1.0


class OptionsSchema(Schema):
    """``[options]``: the ruling switches and pacing numbers (all optional)."""

    distance_metric: DistanceMetric = "chebyshev"
    trigger_spacing: Annotated[int, Field(ge=0, le=50)] = 4
    decay_minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES)] = 2880
    minutes_per_tile: Annotated[int, Field(ge=1, le=1440)] = 1
    rearm_target: Annotated[int, Field(ge=0, le=MAX_DIE)] = 0
    """R-K-REARM-01: the total a rearm roll must reach; a total is never below 0, so a
    negative target is no setting at all (0: only a fumble spoils a rearm)."""
    restore_door_minutes: Minutes = 5
    pickup_minutes: Minutes = 2
    invasions: bool = True
    dice_model: DiceModelSchema = DiceModelSchema()
    invasion_ramp: RampSchema = RampSchema()
    invasion_limit_hours: dict[str, Annotated[float, Field(ge=1.0, le=240.0)]] = Field(
        default_factory=dict
    )
    known_tripwires: Literal["step_over", "walk_around"] = "step_over"
    fugitive_pursuers: Literal["at_once", "next_invasion"] = "at_once"
    darkness_hides: bool = False
    rite_of_storms_hours: Annotated[int, Field(ge=1, le=240)] = 24
    trap_friendly_fire: bool = True
    fallen_adventurers: Literal["capture", "kill", "leave"] = "capture"

    @model_validator(mode="after")
    def _limit_days(self) -> OptionsSchema:
        if not all(k.isdigit() and int(k) >= 1 for k in self.invasion_limit_hours):
            raise ValueError(
                "invasion_limit_hours is a table from a day (1, 2, ...) to hours, "
                'for example { "2" = 48, "7" = 30 }'
            )
        return self


class AttributesSchema(Schema):
    battle: Annotated[int, Field(ge=0, le=10)] = 0
    block: Annotated[int, Field(ge=0, le=10)] = 0
    craft: Annotated[int, Field(ge=0, le=10)] = 0
    stalk: Annotated[int, Field(ge=0, le=10)] = 0


class TriggerKindSchema(Schema):
    name: str
    area: Area = 0
    lever: bool = False
    learn_type: str
    metal: Metal
    build_minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES)]
    rearm_minutes: Minutes


class MechanismKindSchema(Schema):
    name: str
    effect: Literal["wound", "gas", "hold", "flee", "alarm", "summon"]
    wound: Literal["none", "light", "serious", "critical"] = "none"
    area: Area = 0
    duration: Minutes = 0
    alarm: bool = False
    solid: bool = False
    power: Annotated[int, Field(ge=0, le=10)] = 5
    blunt: bool = False
    summon: str | None = None
    count: Annotated[int, Field(ge=0, le=10)] = 0
    metal: Metal
    build_minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES)]
    rearm_minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES)]


class StructureKindSchema(Schema):
    name: str
    metal: Metal
    build_minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES)]
    delay: Minutes = 0
    solid: bool = False


class BeingKindSchema(Schema):
    name: str
    attributes: AttributesSchema = AttributesSchema()
    minutes_per_tile: Annotated[int, Field(ge=1, le=1440)] = 1
    carry: Annotated[int, Field(ge=0, le=MAX_METAL)] = 0
    weapon: str = "fists"
    armour: Armour = "none"
    helmet: Helmet = 0
    per_tile: Annotated[int, Field(ge=1, le=2)] = 1
    """K-CROWD-02: 2 for kobolds, two of whom can fight from one tile."""
    abilities: list[Literal["heal"]] = Field(default_factory=list)
    stance: StanceName = "normal"
    """How a creature fights (minions have their own stance, the Master the combat's)."""
    always_unconscious: bool = False
    """K-KO-04: the troll, the one creature that goes unconscious instead of dying."""


class CombatSchema(Schema):
    """``[combat]``: the numbers the combat rules leave to content."""

    serious_margin: Annotated[int, Field(ge=1, le=40)] = 5
    """An attack won by this much or more is a serious wound (less: light)."""
    critical_margin: Annotated[int, Field(ge=1, le=40)] = 10
    """An attack won by this much or more is a critical wound."""
    locations: dict[str, Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=lambda: {"head": 1, "torso": 3, "arms": 2, "legs": 2}
    )
    """Where a wound lands: weights of a die of their sum (``head`` for K-HEAD-01)."""
    cover: Annotated[float, Field(ge=0.0, le=1.0)] = 0.25
    """K-RNG-03: the chance a body between shooter and target takes the shot."""
    bleeds: list[WoundLevel] = Field(default_factory=lambda: ["serious", "critical"])  # type: ignore[arg-type]
    """Wounds after which someone taken out by an edged weapon bleeds (K-WAKE-02)."""
    bleed_minutes: Annotated[int, Field(ge=1, le=MAX_MINUTES)] = 120
    """A bleeding, unconscious being dies after this long unless healed."""
    heal_seconds: Annotated[int, Field(ge=1, le=3600)] = 60
    mend_minutes: Annotated[int, Field(ge=0, le=MAX_MINUTES)] = 120
    """Ruling R-K-WAKE-01: one wound point mends every this many minutes up (0: never)."""
    flee_tiles: Annotated[int, Field(ge=0, le=50)] = 8
    avoid_tiles: Annotated[int, Field(ge=0, le=50)] = 4
    defend_tiles: Annotated[int, Field(ge=0, le=50)] = 1
    engage_tiles: Annotated[int, Field(ge=0, le=200)] = 12
    master_stance: StanceName = "defensive"
    wait_seconds: Annotated[int, Field(ge=1, le=600)] = 10

    @model_validator(mode="after")
    def _sound(self) -> CombatSchema:
        if self.critical_margin < self.serious_margin:
            raise ValueError("critical_margin must be at least serious_margin")
        if self.locations.get("head", 0) < 0 or sum(self.locations.values()) == 0:
            raise ValueError("locations need a weight above 0 somewhere")
        if "head" not in self.locations:
            raise ValueError("locations must include head (K-HEAD-01)")
        return self


class RulesSchema(Schema):
    """A ``kind = "keep-rules"`` file."""

    kind: Literal["keep-rules"]
    name: str
    options: OptionsSchema = OptionsSchema()
    trigger: dict[str, TriggerKindSchema]
    mechanism: dict[str, MechanismKindSchema]
    structure: dict[Literal["timer", "lock", "door", "barricade"], StructureKindSchema]
    minion: dict[str, BeingKindSchema]
    master: BeingKindSchema
    creature: dict[str, BeingKindSchema] = Field(default_factory=dict)
    merchant: dict[str, BeingKindSchema] = Field(default_factory=dict)
    weapon: dict[str, WeaponSchema] = Field(default_factory=dict)
    combat: CombatSchema = CombatSchema()
    adventurers: str = "adventurers.toml"
    """The ``keep-adventurers`` file (beside this one, or shipped) for who invades."""
    adventurer_content: dict[str, Any] | None = None
    """That file's content, embedded (a saved world's ruleset carries it)."""

    @model_validator(mode="after")
    def _complete(self) -> RulesSchema:
        missing = {"timer", "lock", "door", "barricade"} - set(self.structure)
        if missing:
            raise ValueError(f"[structure] needs entries for: {', '.join(sorted(missing))}")
        clash = set(self.trigger) & set(self.mechanism)
        if clash:
            raise ValueError(f"names used for both a trigger and a mechanism: {sorted(clash)}")
        kinds = {
            **{f"minion.{k}": v for k, v in self.minion.items()},
            **{f"creature.{k}": v for k, v in self.creature.items()},
            **{f"merchant.{k}": v for k, v in self.merchant.items()},
            "master": self.master,
        }
        for key, kind in kinds.items():
            if kind.weapon not in self.weapon:
                raise ValueError(f"{key}: no weapon {kind.weapon!r} (weapons: {list(self.weapon)})")
        for key, mech in self.mechanism.items():
            if mech.summon is not None and mech.summon not in self.creature:
                raise ValueError(
                    f"mechanism.{key}: summon {mech.summon!r} is not a creature kind "
                    f"({list(self.creature)})"
                )
        return self


register_kind("keep-rules", RulesSchema, "keep ruleset content: structures, minions, options")
