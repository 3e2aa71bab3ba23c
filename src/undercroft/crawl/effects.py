"""The effects vocabulary: what room texts, spells, items, traps and monster abilities do.

Content composes these; no room, spell or item has code of its own. Each effect is a
frozen pydantic model with a ``type`` tag, so a content file writes, for example::

    effects = [
      { type = "damage", amount = 2, who = "explorers" },
      { type = "trait_test", trait = "Agile", target = 4,
        on_pass = [{ type = "give_item", item = "silver-ring" }],
        on_fail = [{ type = "damage", amount = 1 }] },
    ]

``who`` picks the heroes (or monster) an effect lands on:

``target``     the spell's or item's chosen target, or the hero a trap or test is about
``self``       the caster, user or hero concerned
``explorers``  the heroes who chose to explore the area (C-EXPL-01)
``here``       every hero in the area, explorers or not
``party``      every hero on the board

The engine that applies them is :mod:`undercroft.crawl.resolve`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Who = Literal["target", "self", "explorers", "here", "party"]

# Bounds of the numbers effects take (docs/content.md, "Numbers").
MAX_AMOUNT = 99
MAX_LIGHT = 20
"""C-LIGHT-01: the Light never exceeds 20, so no effect moves it by more."""
MAX_POWER = 10
MAX_RADIUS = 50


class _Effect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Damage(_Effect):
    """Take ``amount`` Health (a hero at Death's Door also rolls, C-DD-03)."""

    type: Literal["damage"] = "damage"
    amount: int = Field(ge=1, le=MAX_AMOUNT)
    who: Who = "target"


class Heal(_Effect):
    """Regain up to ``amount`` Health, never above the profile's Health."""

    type: Literal["heal"] = "heal"
    amount: int = Field(ge=1, le=MAX_AMOUNT)
    who: Who = "target"


class RestoreStamina(_Effect):
    type: Literal["stamina"] = "stamina"
    amount: int = Field(ge=1, le=MAX_AMOUNT)
    who: Who = "target"


class RestoreMagic(_Effect):
    type: Literal["magic"] = "magic"
    amount: int = Field(ge=1, le=MAX_AMOUNT)
    who: Who = "target"


class ChangeLight(_Effect):
    """Add (or take) turns of Light; never above the maximum (C-LIGHT-01) or below 0."""

    type: Literal["light"] = "light"
    amount: int = Field(ge=-MAX_LIGHT, le=MAX_LIGHT)


class GiveItem(_Effect):
    """An item is found; an exploring hero of the party's choosing takes it (C-EXPL-01)."""

    type: Literal["give_item"] = "give_item"
    item: str


class Spawn(_Effect):
    """Monsters appear at the given squares as Ambushers (C-MON-04)."""

    type: Literal["spawn"] = "spawn"
    monsters: tuple[str, ...]
    at: tuple[tuple[int, int], ...]


class DetectTrapsRoll(_Effect):
    """A Detect Traps roll called for by text: 1-3 fails, 4-6 succeeds (C-TRAP-02)."""

    type: Literal["detect_traps_roll"] = "detect_traps_roll"
    on_success: tuple[AnyEffect, ...] = ()
    on_fail: tuple[AnyEffect, ...] = ()


class TraitTest(_Effect):
    """A trait test: roll a d6, +1 with ``trait``, pass on ``target`` or more.

    ``target`` 0 means no roll: a hero with the trait passes, others fail. ``who`` picks
    the heroes tested, each on its own roll (C-EXPL-01: a room text may test every
    explorer); the branch that follows is about the hero tested (its ``self``).
    """

    type: Literal["trait_test"] = "trait_test"
    trait: Literal["Strong", "Agile", "Perceptive", "Learned", "Iron-Willed"]
    target: int = Field(default=4, ge=0, le=7)
    who: Who = "self"
    on_pass: tuple[AnyEffect, ...] = ()
    on_fail: tuple[AnyEffect, ...] = ()


class MentalCombat(_Effect):
    """A Mental Combat (C-MENT-01) between a hero and the effect's source, which adds
    ``power`` to its roll: a monster's ability or a room's text against the hero, or a
    hero's own spell against its target (the caster then adds the power).

    ``on_win`` / ``on_lose`` / ``on_tie`` are from the hero's side.
    """

    type: Literal["mental_combat"] = "mental_combat"
    power: int = Field(default=0, ge=-MAX_POWER, le=MAX_POWER)
    on_win: tuple[AnyEffect, ...] = ()
    on_lose: tuple[AnyEffect, ...] = ()
    on_tie: tuple[AnyEffect, ...] = ()


class RevealSecret(_Effect):
    """A secret room is revealed; the listed squares become open doors."""

    type: Literal["reveal_secret"] = "reveal_secret"
    area: str
    doors: tuple[tuple[int, int], ...] = ()


class OpenExit(_Effect):
    """A new exit opens at the listed squares (C-END-01)."""

    type: Literal["open_exit"] = "open_exit"
    at: tuple[tuple[int, int], ...]


class DetectTraps(_Effect):
    """Every trap within ``radius`` squares in line of sight is detected (no roll)."""

    type: Literal["detect_traps"] = "detect_traps"
    radius: int = Field(ge=0, le=MAX_RADIUS)


class SlayMonster(_Effect):
    """The targeted monster takes ``amount`` damage (spells, items)."""

    type: Literal["hurt_monster"] = "hurt_monster"
    amount: int = Field(ge=1, le=MAX_AMOUNT)


class Goal(_Effect):
    """A scenario goal is met."""

    type: Literal["goal"] = "goal"
    goal: str


class Option(_Effect):
    label: str
    effects: tuple[AnyEffect, ...]


class Choice(_Effect):
    """The explorers choose one option (C-EXPL-01)."""

    type: Literal["choice"] = "choice"
    options: tuple[Option, ...] = Field(min_length=1)


AnyEffect = Annotated[
    Damage
    | Heal
    | RestoreStamina
    | RestoreMagic
    | ChangeLight
    | GiveItem
    | Spawn
    | DetectTrapsRoll
    | TraitTest
    | MentalCombat
    | RevealSecret
    | OpenExit
    | DetectTraps
    | SlayMonster
    | Goal
    | Choice,
    Field(discriminator="type"),
]
Effect = (
    Damage
    | Heal
    | RestoreStamina
    | RestoreMagic
    | ChangeLight
    | GiveItem
    | Spawn
    | DetectTrapsRoll
    | TraitTest
    | MentalCombat
    | RevealSecret
    | OpenExit
    | DetectTraps
    | SlayMonster
    | Goal
    | Choice
)

for _model in (DetectTrapsRoll, TraitTest, MentalCombat, Option, Choice):
    _model.model_rebuild()


class EffectList(BaseModel):
    """A list of effects, for validating effects outside a larger schema."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    effects: tuple[AnyEffect, ...] = ()
