"""Attributes: the numbers every keep check adds to its die (ruling R-K-DICE-01).

A small module of its own so that both the structure and minion content (``ruleset``) and
the adventurer content (``invader_content``) can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ATTRIBUTES = ("battle", "block", "craft", "stalk")
"""The attribute list (content; R-K-DICE-01 scale 0..10)."""


@dataclass(frozen=True, slots=True)
class Attributes:
    """A being's attributes on the R-K-DICE-01 scale."""

    battle: int = 0
    block: int = 0
    craft: int = 0
    stalk: int = 0

    def to_json(self) -> dict[str, int]:
        return {
            "battle": self.battle,
            "block": self.block,
            "craft": self.craft,
            "stalk": self.stalk,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Attributes:
        return cls(**{name: int(data.get(name, 0)) for name in ATTRIBUTES})
