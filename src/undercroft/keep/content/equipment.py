"""Weapons, body armour and helmets: the combat content both kinds of keep file share.

The catalogue leaves weapons ("blunt or not"), body armour and helmets to content
(K-KO-02, K-KO-03, K-HEAD-01): a weapon is a ``[weapon.KEY]`` table in a ``keep-rules``
file (what your minions, creatures and the Master fight with) or a ``keep-adventurers``
file (what the classes carry); body armour is one of the five words K-KO-03 names (or
``none``); a helmet is its number, the percentage points it takes off K-HEAD-01's chance.
The numbers the rules attach to them (the +10% of leather, the 25% of a head wound) are
rules, in :mod:`undercroft.keep.rules.wounds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from undercroft.core.content import Schema

ARMOURS = ("none", "cloth", "leather", "chain", "plate")
"""K-KO-03's body armour (``none``: no armour)."""
Armour = Literal["none", "cloth", "leather", "chain", "plate"]
Helmet = Annotated[int, Field(ge=0, le=100)]
"""K-HEAD-01: a helmet's number, in percentage points (0: no helmet)."""


class WeaponSchema(Schema):
    """A ``[weapon.KEY]`` table."""

    name: str
    blunt: bool = False
    """K-KO-02, K-HEAD-01: a blunt weapon (a hammer) or fists."""
    ranged: bool = False
    """K-RNG-02: shoots along a line of fire instead of striking a tile next to it."""
    range: Annotated[int, Field(ge=1, le=30)] = 1
    """The farthest a ranged weapon reaches, in tiles (melee weapons: 1)."""
    bonus: Annotated[int, Field(ge=-10, le=10)] = 0
    """Added to the wielder's attack roll (K-CMB-01)."""
    seconds: Annotated[int, Field(ge=1, le=600)] = 50
    """How long one attack takes."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as the combat rules read it."""

    key: str
    name: str
    blunt: bool
    ranged: bool
    range: int
    bonus: int
    seconds: int

    @classmethod
    def from_schema(cls, key: str, s: WeaponSchema) -> Weapon:
        return cls(key, s.name, s.blunt, s.ranged, s.range if s.ranged else 1, s.bonus, s.seconds)
