"""What the keeper builds: trap parts, timers, doors, locks, barricades, and building sites.

Structures are mutable world state; what each kind does is content (the Ruleset) and the
rules live in the system modules (traps, doors, locks, building). Ids are ``kind:N``:
mechanisms are traps (``trap:N``, K-TRAP-03: every "Trap ..." object is a mechanism),
triggers ``trigger:N``, timers ``timer:N``, doors ``door:N``, locks ``lock:N``,
barricades ``barricade:N``, building sites ``site:N``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from undercroft.core.checks import Grade
from undercroft.core.grid import Pos
from undercroft.keep.state.wiring import Role


class PartState(enum.Enum):
    """Whether a trap part works (K-REARM-01, K-DECAY-02)."""

    ARMED = "armed"
    """Working."""
    USED = "used"
    """Went off; needs a rearm before it works again (K-REARM-01)."""
    EXPIRED = "expired"
    """Its 2 days ran out; needs a rearm (K-DECAY-02, the crossed-out dart)."""


class Part(enum.Enum):
    """Which part of a trap (the log's ``part`` field)."""

    TRIGGER = "trigger"
    """The part that senses (K-TRAP-01)."""
    MECHANISM = "mechanism"
    """The part that acts (K-TRAP-01)."""


@dataclass(eq=False)
class Structure:
    """Anything built: where it stands, its kind and its quality grade (R-K-DICE-01)."""

    id: str
    kind: str
    pos: Pos
    quality: Grade = Grade.NORMAL
    name: str | None = None
    """The scenario's label for it, if any."""

    role: ClassVar[Role | None] = None

    def to_json(self) -> dict[str, Any]:
        return {
            "class": type(self).__name__,
            "id": self.id,
            "kind": self.kind,
            "pos": [self.pos.x, self.pos.y],
            "quality": self.quality.value,
            "name": self.name,
        }

    def profile(self) -> dict[str, Any]:
        return {
            "structure": self.kind,
            "at": [self.pos.x, self.pos.y],
            "quality": self.quality.value,
            **({"name": self.name} if self.name else {}),
        }


@dataclass(eq=False)
class TrapPart(Structure):
    """A trigger or a mechanism: it works, or waits for a Traps-job minion's rearm."""

    state: PartState = PartState.ARMED
    armed_at: int = 0
    """The minute of the last rearm (or of building): K-DECAY-02 counts from here."""
    decay_token: int = 0
    """Bumped at every rearm so an outdated expiry is ignored."""
    down_since: int | None = None
    """The minute it stopped working (used or expired), while it waits for a rearm."""
    rearms: int = 0
    max_gap: int = 0
    """The longest time between two rearms (or building and the first), in minutes."""

    part = Part.MECHANISM

    @property
    def working(self) -> bool:
        return self.state is PartState.ARMED

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "state": self.state.value,
            "armed_at": self.armed_at,
            "decay_token": self.decay_token,
            "down_since": self.down_since,
            "rearms": self.rearms,
            "max_gap": self.max_gap,
        }


@dataclass(eq=False)
class Trigger(TrapPart):
    """A trigger (K-TRAP-02): ``on`` while set off (K-DOOR-05); maybe tampered."""

    lever: bool = False
    on: bool = False
    tampered_by: str | None = None
    """K-REARM-04: the minion whose fumbled rearm tampered it (None: not tampered)."""

    part = Part.TRIGGER
    role = Role.TRIGGER

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "lever": self.lever,
            "on": self.on,
            "tampered_by": self.tampered_by,
        }


@dataclass(eq=False)
class Mechanism(TrapPart):
    """A mechanism (K-TRAP-03): a trap, named ``trap:N``."""

    fired: int = 0

    part = Part.MECHANISM
    role = Role.MECHANISM

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "fired": self.fired}


@dataclass(eq=False)
class Timer(Structure):
    """A timer with its delay in minutes (K-WIRE-03)."""

    delay: int = 0

    role = Role.TIMER

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "delay": self.delay}


@dataclass(eq=False)
class Lock(Structure):
    """A lock on a door (K-LOCK-01): armed locks stop adventurers."""

    door: str = ""
    armed: bool = True

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "door": self.door, "armed": self.armed}


@dataclass(eq=False)
class Door(Structure):
    """A door (K-DOOR-03..08): where it rests, and what holds it open or shut.

    Its resting position is open when held open or when its trigger is on, but not both
    (K-DOOR-04, K-DOOR-06), and open while breached (K-FORCE-05); see
    :func:`undercroft.keep.rules.doors.rests_open`.
    """

    held_open: bool = False
    trigger_on: bool = False
    breached: bool = False
    open: bool = False
    lock: str | None = None

    role = Role.DOOR

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "held_open": self.held_open,
            "trigger_on": self.trigger_on,
            "breached": self.breached,
            "open": self.open,
            "lock": self.lock,
        }


@dataclass(eq=False)
class Barricade(Structure):
    """A solid barricade: blocks walking, so K-PATH-01 checks it."""


@dataclass(eq=False)
class Site(Structure):
    """A building site (K-BUILD-01): metal carried here, then a Traps-job minion builds."""

    metal_needed: int = 0
    metal_delivered: int = 0
    metal_on_the_way: int = 0
    door: str | None = None
    """For a lock: the door it goes on."""
    delay: int = 0
    """For a timer: the delay it will be set to."""

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "metal_needed": self.metal_needed,
            "metal_delivered": self.metal_delivered,
            "metal_on_the_way": self.metal_on_the_way,
            "door": self.door,
            "delay": self.delay,
        }


_CLASSES: dict[str, type[Structure]] = {
    cls.__name__: cls for cls in (Trigger, Mechanism, Timer, Lock, Door, Barricade, Site)
}


def structure_from_json(data: Mapping[str, Any]) -> Structure:
    """Rebuild a structure from :meth:`Structure.to_json`."""
    cls = _CLASSES.get(str(data["class"]))
    if cls is None:
        raise ValueError(f"unknown structure class {data['class']!r} in a saved world")
    fields: dict[str, Any] = {
        "id": str(data["id"]),
        "kind": str(data["kind"]),
        "pos": Pos(int(data["pos"][0]), int(data["pos"][1])),
        "quality": Grade(data["quality"]),
        "name": data.get("name"),
    }
    for key, value in data.items():
        if key in ("class", "id", "kind", "pos", "quality", "name"):
            continue
        fields[key] = PartState(value) if key == "state" else value
    return cls(**fields)
