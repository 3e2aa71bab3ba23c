"""The pieces of a crawl game as data: heroes, monsters, items, doors, traps and corpses
(their rules are functions in the rule-area modules; :class:`~undercroft.crawl.state.State`
holds them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from undercroft.core.grid import Pos


@dataclass
class Hero:
    """A hero on (or off) the board."""

    id: str
    profile: str
    pos: Pos | None
    health: int
    stamina: int
    magic: int
    exhausted: bool = False
    dead: bool = False
    left: bool = False
    items: list[str] = field(default_factory=list)
    spells: list[str] = field(default_factory=list)
    # per Movement step
    moved: int = 0
    bought: int = 0
    jumped: bool = False
    done: bool = False
    acted: bool = False
    dragging: Pos | None = None
    # per turn
    surprised: bool = False
    surprise_ends: int = 0
    """The turn at whose Turn End this hero's surprise ends (R-C-SURP-01)."""
    resting: bool = False
    rested_last_turn: bool = False
    failed_doors: list[Pos] = field(default_factory=list)
    failed_disarms: list[Pos] = field(default_factory=list)
    casting: dict[str, Any] | None = None
    exploring: bool | None = None
    identified: bool = False
    memorized: bool = False
    gave: bool = False
    received: bool = False
    ongoing: dict[str, int] = field(default_factory=dict)
    """Spells this hero cast whose ongoing effect lasts, with the turns left (C-SPELL-03)."""

    @property
    def on_board(self) -> bool:
        return self.pos is not None and not self.dead and not self.left

    @property
    def at_deaths_door(self) -> bool:
        """At 0 Health and alive (C-FIGHT-06)."""
        return self.on_board and self.health == 0


@dataclass
class Monster:
    """A monster on the board."""

    id: str
    kind: str
    pos: Pos
    health: int
    stamina: int
    magic: int
    encounter: str
    exhausted: bool = False
    surprised: bool = False
    surprise_ends: int = 0
    """The turn at whose Turn End this monster's surprise ends (R-C-SURP-01)."""
    active: bool = False
    moved: bool = False
    unsurprisable: bool = False


@dataclass
class Item:
    """An item card in play. ``identified`` False means face down (C-IDENT-01)."""

    uid: str
    card: str
    identified: bool
    never: bool = False
    uses: int = 1


@dataclass
class Door:
    """A door of the adventure (C-DOOR-01)."""

    opened: bool = False
    jammed: bool = False


@dataclass
class Trap:
    """A trapped square (C-TRAP-*)."""

    kind: str
    detected: bool = False
    disarmed: bool = False
    sprung: bool = False

    @property
    def armed(self) -> bool:
        return not (self.disarmed or self.sprung)


@dataclass
class Corpse:
    """A dead hero's body and what it carried (C-DEATH-01)."""

    hero: str
    items: list[str] = field(default_factory=list)
