"""The keep dice model (ruling R-K-DICE-01), written once for every keep check.

A check rolls one die (1d20 by default) and adds the attribute times a weight (2) and any
modifiers: ``total = natural + attribute * 2 + modifiers``. A natural at or below the
fumble band (1) is a *fumble* and always fails; a natural at or above the critical band
(20) is a *critical* and always succeeds. Against a fixed target, a total equal to or
above the target succeeds. In an opposed check the higher total wins, ties go to the
defender; a critical beats a non-critical and a fumble loses to a non-fumble, and when
both sides roll a critical (or both fumble) the totals decide as usual.

Built structures get a quality :class:`Grade` from their builder's roll: a fumble is
Mediocre whatever the total, otherwise the total falls into a band (below 15 Mediocre,
15 Normal, 20 Good, 25 Excellent, 30 Masterwork). A grade's value (-2 .. +6) is added to
the structure's side of every check that opposes it.

The model is a frozen value (:class:`DiceModel`) so a ruleset can swap any number in it
(the switch ``keep.options.dice_model``); everything that rolls goes through it, and the
exact probabilities (:meth:`DiceModel.p_success`, :meth:`DiceModel.p_opposed`,
:meth:`DiceModel.grade_distribution`) come from enumerating the same code paths.

>>> model = DiceModel()
>>> model.p_success(attribute=3, target=15)
Fraction(3, 5)
>>> model.grade_of(natural=12, total=12 + 8)
<Grade.GOOD: 'good'>
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from undercroft.core.dice import DiceSampler
from undercroft.core.events import Event, roll_event


class Grade(enum.Enum):
    """The quality grade of a built structure (R-K-DICE-01), worst to best."""

    MEDIOCRE = "mediocre"
    """A poor job: easier to discover, disarm, pick or bash (value -2 by default)."""
    NORMAL = "normal"
    """An ordinary job (value 0)."""
    GOOD = "good"
    """A good job (value +2)."""
    EXCELLENT = "excellent"
    """An excellent job (value +4)."""
    MASTERWORK = "masterwork"
    """The best a builder can do (value +6)."""


Side = Literal["attacker", "defender"]

DEFAULT_GRADE_FLOORS: tuple[tuple[Grade, int], ...] = (
    (Grade.NORMAL, 15),
    (Grade.GOOD, 20),
    (Grade.EXCELLENT, 25),
    (Grade.MASTERWORK, 30),
)
DEFAULT_GRADE_VALUES: Mapping[Grade, int] = {
    Grade.MEDIOCRE: -2,
    Grade.NORMAL: 0,
    Grade.GOOD: 2,
    Grade.EXCELLENT: 4,
    Grade.MASTERWORK: 6,
}


class DiceModelError(ValueError):
    """A dice model whose numbers do not make sense (for example an empty die)."""


@dataclass(frozen=True, slots=True)
class CheckRoll:
    """One side's roll: the natural, the named modifiers and the total."""

    natural: int
    modifiers: Mapping[str, int]
    total: int
    fumble: bool
    critical: bool


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A check against a fixed target."""

    roll: CheckRoll
    target: int
    success: bool


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """An opposed check: both rolls and the side that won."""

    attacker: CheckRoll
    defender: CheckRoll
    winner: Side


@dataclass(frozen=True)
class DiceModel:
    """Ruling R-K-DICE-01: the die, attribute weight, fumble/critical bands, ties, grades."""

    die: int = 20
    attribute_weight: int = 2
    fumble_max: int = 1
    """Naturals at or below this are fumbles."""
    critical_min: int = 20
    """Naturals at or above this are criticals."""
    ties: Side = "defender"
    attribute_min: int = 0
    attribute_max: int = 10
    grade_floors: tuple[tuple[Grade, int], ...] = DEFAULT_GRADE_FLOORS
    """The lowest total of each grade above Mediocre, ascending."""
    grade_values: Mapping[Grade, int] = field(default_factory=lambda: dict(DEFAULT_GRADE_VALUES))

    def __post_init__(self) -> None:
        if self.die < 2:
            raise DiceModelError(f"the check die needs at least 2 sides, got {self.die}")
        if not 0 <= self.fumble_max < self.critical_min <= self.die + 1:
            raise DiceModelError(
                "fumble and critical bands must satisfy 0 <= fumble_max < critical_min "
                f"<= die + 1, got {self.fumble_max} and {self.critical_min} on a d{self.die}"
            )
        floors = [floor for _, floor in self.grade_floors]
        if floors != sorted(floors):
            raise DiceModelError("grade floors must be given in ascending order")
        missing = set(Grade) - set(self.grade_values)
        if missing:
            names = ", ".join(sorted(g.value for g in missing))
            raise DiceModelError(f"grade values missing for: {names}")

    # -- building blocks ------------------------------------------------------------

    def attribute_term(self, attribute: int) -> int:
        """What an attribute adds to a roll (attribute x weight)."""
        if not self.attribute_min <= attribute <= self.attribute_max:
            raise DiceModelError(
                f"attribute {attribute} is outside the scale "
                f"{self.attribute_min}..{self.attribute_max}"
            )
        return attribute * self.attribute_weight

    def make_roll(
        self, natural: int, attribute_name: str, attribute: int, modifiers: Mapping[str, int]
    ) -> CheckRoll:
        """The roll a natural gives: modifiers named, total summed, bands applied."""
        mods = {attribute_name: self.attribute_term(attribute), **modifiers}
        total = natural + sum(mods.values())
        return CheckRoll(
            natural=natural,
            modifiers=mods,
            total=total,
            fumble=natural <= self.fumble_max,
            critical=natural >= self.critical_min,
        )

    def roll(
        self,
        sampler: DiceSampler,
        attribute_name: str,
        attribute: int,
        modifiers: Mapping[str, int] | None = None,
    ) -> CheckRoll:
        """Roll the die once for one side (R-K-DICE-01)."""
        return self.make_roll(sampler.die(self.die), attribute_name, attribute, modifiers or {})

    def succeeds(self, roll: CheckRoll, target: int) -> bool:
        """A fumble always fails, a critical always succeeds, else total >= target."""
        if roll.fumble:
            return False
        if roll.critical:
            return True
        return roll.total >= target

    def attacker_wins(self, attacker: CheckRoll, defender: CheckRoll) -> bool:
        """Opposed check: criticals and fumbles first, then totals, ties per the model."""
        if attacker.critical != defender.critical:
            return attacker.critical
        if attacker.fumble != defender.fumble:
            return defender.fumble
        if attacker.total != defender.total:
            return attacker.total > defender.total
        return self.ties == "attacker"

    def grade_of(self, natural: int, total: int) -> Grade:
        """The quality a builder's roll gives (a fumble is always Mediocre)."""
        if natural <= self.fumble_max:
            return Grade.MEDIOCRE
        grade = Grade.MEDIOCRE
        for candidate, floor in self.grade_floors:
            if total >= floor:
                grade = candidate
        return grade

    def grade_value(self, grade: Grade) -> int:
        """What a grade adds to the structure's side of an opposing check."""
        return self.grade_values[grade]

    # -- sampled checks -------------------------------------------------------------

    def check(
        self,
        sampler: DiceSampler,
        attribute_name: str,
        attribute: int,
        target: int,
        modifiers: Mapping[str, int] | None = None,
    ) -> CheckResult:
        """A check against a fixed target."""
        roll = self.roll(sampler, attribute_name, attribute, modifiers)
        return CheckResult(roll, target, self.succeeds(roll, target))

    def opposed(
        self,
        sampler: DiceSampler,
        attacker: tuple[str, int, Mapping[str, int]],
        defender: tuple[str, int, Mapping[str, int]],
    ) -> OpposedResult:
        """Both sides roll (attacker first); the higher total wins, ties to the model's side."""
        a = self.roll(sampler, *attacker)
        d = self.roll(sampler, *defender)
        return OpposedResult(a, d, "attacker" if self.attacker_wins(a, d) else "defender")

    # -- exact probabilities (enumerating the same code) ----------------------------

    def _rolls(self, attribute: int, modifiers: Mapping[str, int]) -> list[CheckRoll]:
        return [
            self.make_roll(n, "attribute", attribute, modifiers) for n in range(1, self.die + 1)
        ]

    def p_fumble(self) -> Fraction:
        return Fraction(min(self.fumble_max, self.die), self.die)

    def p_success(
        self, attribute: int, target: int, modifiers: Mapping[str, int] | None = None
    ) -> Fraction:
        """P(a check of ``attribute`` + ``modifiers`` reaches ``target``), exactly."""
        rolls = self._rolls(attribute, modifiers or {})
        return Fraction(sum(self.succeeds(r, target) for r in rolls), self.die)

    def p_opposed(
        self,
        attacker: int,
        defender: int,
        attacker_modifiers: Mapping[str, int] | None = None,
        defender_modifiers: Mapping[str, int] | None = None,
    ) -> Fraction:
        """P(the attacker wins an opposed check), exactly."""
        a_rolls = self._rolls(attacker, attacker_modifiers or {})
        d_rolls = self._rolls(defender, defender_modifiers or {})
        wins = sum(self.attacker_wins(a, d) for a, d in itertools.product(a_rolls, d_rolls))
        return Fraction(wins, self.die * self.die)

    def grade_distribution(
        self, attribute: int, modifiers: Mapping[str, int] | None = None
    ) -> dict[Grade, Fraction]:
        """The exact chance of each grade from a builder's roll."""
        result = {grade: Fraction(0) for grade in Grade}
        for r in self._rolls(attribute, modifiers or {}):
            result[self.grade_of(r.natural, r.total)] += Fraction(1, self.die)
        return result

    # -- options and the log --------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "attribute_weight": self.attribute_weight,
            "fumble_max": self.fumble_max,
            "critical_min": self.critical_min,
            "ties": self.ties,
            "attribute_min": self.attribute_min,
            "attribute_max": self.attribute_max,
            "grade_floors": {grade.value: floor for grade, floor in self.grade_floors},
            "grade_values": {grade.value: self.grade_values[grade] for grade in Grade},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DiceModel:
        """The model from a table such as ``keep.options.dice_model`` (missing keys default)."""
        base = cls()
        floors = data.get("grade_floors")
        values = data.get("grade_values")
        ties = str(data.get("ties", base.ties))
        if ties not in ("attacker", "defender"):
            raise DiceModelError(f"ties must be 'attacker' or 'defender', got {ties!r}")
        return cls(
            die=int(data.get("die", base.die)),
            attribute_weight=int(data.get("attribute_weight", base.attribute_weight)),
            fumble_max=int(data.get("fumble_max", base.fumble_max)),
            critical_min=int(data.get("critical_min", base.critical_min)),
            ties="attacker" if ties == "attacker" else "defender",
            attribute_min=int(data.get("attribute_min", base.attribute_min)),
            attribute_max=int(data.get("attribute_max", base.attribute_max)),
            grade_floors=(
                tuple((Grade(k), int(v)) for k, v in floors.items())
                if isinstance(floors, Mapping)
                else base.grade_floors
            ),
            grade_values=(
                {**base.grade_values, **{Grade(k): int(v) for k, v in values.items()}}
                if isinstance(values, Mapping)
                else base.grade_values
            ),
        )

    def roll_event(
        self, rules: tuple[str, ...], actor: str, roll: CheckRoll, outcome: str, **inputs: Any
    ) -> Event:
        """The ``roll`` event for one side's check (R-K-DICE-01)."""
        return roll_event(
            rules,
            actor,
            [roll.natural],
            outcome,
            sides=self.die,
            modifiers=roll.modifiers,
            **inputs,
        )
