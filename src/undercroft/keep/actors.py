"""Who is in the dungeon: the Master, minions, creatures and visiting merchants.

Beings are mutable world state; their kinds (attributes, pace, carrying) come from the
:class:`~undercroft.keep.ruleset.Ruleset`. Whose side a being is on decides who sets off
traps (K-OWN-01..04) and who may pass a lock (K-LOCK-02); see :func:`side_of`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.grid import Pos
from undercroft.keep.ruleset import Attributes


class Job(enum.Enum):
    """A minion's job: which work it takes on."""

    TRAPS = "traps"
    """Builds trap parts and locks, rearms trap parts (K-BUILD-01, K-REARM-02)."""
    CHORES = "chores"
    """Carries materials, closes breached doors and re-arms their locks (K-FORCE-05)."""
    FIGHTING = "fighting"
    """Guards and fights (the combat issue); takes no work."""
    NONE = "none"
    """Idle: takes no work."""


class Stance(enum.Enum):
    """A minion's combat stance (the five of ruling R-K-STANCE-01), most cautious first."""

    FLEE = "flee"
    """Flees from the enemies it knows of."""
    AVOID = "avoid"
    """Keeps its distance from known enemies."""
    DEFENSIVE = "defensive"
    """Regroups with its allies and fights the enemies that come to it."""
    NORMAL = "normal"
    """Fights the enemies it knows of."""
    AGGRESSIVE = "aggressive"
    """Fights the enemies it knows of and pursues them."""


class Side(enum.Enum):
    """Whose side a being is on, for traps and locks."""

    KEEP = "keep"
    """The Master, loyal minions, creatures living in your lairs (K-OWN-01, K-OWN-04)."""
    VISITOR = "visitor"
    """Visiting merchants: pass locks, never set off traps (K-LOCK-02, ruling R-K-OWN-01)."""
    WILD = "wild"
    """Wild creatures: set off traps except alarm-wired triggers (K-OWN-03)."""
    ENEMY = "enemy"
    """Adventurers, and minions that turned against you (K-OWN-02)."""


@dataclass(slots=True)
class Walk:
    """A walk under way: the squares stepped into, from which minute, at what pace."""

    path: list[Pos]
    start: int
    pace: int
    """Minutes per tile."""
    origin: Pos

    def arrival(self) -> int:
        return self.start + len(self.path) * self.pace

    def pos_at(self, minute: int) -> Pos:
        steps = (minute - self.start) // self.pace
        if steps <= 0:
            return self.origin
        return self.path[min(steps, len(self.path)) - 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": [[p.x, p.y] for p in self.path],
            "start": self.start,
            "pace": self.pace,
            "origin": [self.origin.x, self.origin.y],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Walk:
        return cls(
            [Pos(int(x), int(y)) for x, y in data["path"]],
            int(data["start"]),
            int(data["pace"]),
            _pos(data["origin"]),
        )


@dataclass(eq=False)
class Being:
    """Anyone who walks the dungeon."""

    id: str
    breed: str
    """The content kind (``kobold``, ``troll``, ``pedlar``, ``master``)."""
    attributes: Attributes
    pos: Pos
    pace: int
    walk: Walk | None = None
    walk_gen: int = 0
    """Bumped whenever a walk starts or stops, so stale walk events are ignored."""
    present: bool = True

    kind = "being"

    def side(self) -> Side:
        return Side.KEEP

    def pos_at(self, minute: int) -> Pos:
        return self.walk.pos_at(minute) if self.walk is not None else self.pos

    def profile(self) -> dict[str, Any]:
        """The log header's description of this actor."""
        return {
            "breed": self.breed,
            "attributes": self.attributes.to_json(),
            "at": [self.pos.x, self.pos.y],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "breed": self.breed,
            "attributes": self.attributes.to_json(),
            "pos": [self.pos.x, self.pos.y],
            "pace": self.pace,
            "walk": self.walk.to_json() if self.walk else None,
            "walk_gen": self.walk_gen,
            "present": self.present,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        self.walk = Walk.from_json(data["walk"]) if data.get("walk") else None
        self.walk_gen = int(data["walk_gen"])
        self.present = bool(data["present"])


@dataclass(eq=False)
class Master(Being):
    """The Master: always on your side (K-LOCK-02, K-LOCK-03)."""

    kind = "master"


@dataclass(eq=False)
class Minion(Being):
    """A minion with a job and a stance."""

    job: Job = Job.NONE
    stance: Stance = Stance.NORMAL
    carry: int = 0
    blind_rage: bool = False
    """K-OWN-02: a minion in Blind Rage has turned against you."""
    attack_orders: list[str] = field(default_factory=list)
    """Enemies the keeper ordered this minion to attack (K-LOCK-03)."""
    task: str | None = None
    busy_since: int | None = None
    carrying: int = 0

    kind = "minion"

    def side(self) -> Side:
        return Side.ENEMY if self.blind_rage else Side.KEEP

    def profile(self) -> dict[str, Any]:
        return {**super().profile(), "job": self.job.value, "stance": self.stance.value}

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "job": self.job.value,
            "stance": self.stance.value,
            "carry": self.carry,
            "blind_rage": self.blind_rage,
            "attack_orders": list(self.attack_orders),
            "task": self.task,
            "busy_since": self.busy_since,
            "carrying": self.carrying,
        }


@dataclass(eq=False)
class Creature(Being):
    """A creature: wild, or living in one of your lairs (K-OWN-03, K-OWN-04)."""

    lair: str | None = None
    route: list[Pos] = field(default_factory=list)
    """Where a visiting wild creature still means to go, then back to its portal."""
    portal: Pos | None = None

    kind = "creature"

    def side(self) -> Side:
        return Side.KEEP if self.lair is not None else Side.WILD

    def profile(self) -> dict[str, Any]:
        return {**super().profile(), "lair": self.lair}

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "lair": self.lair,
            "route": [[p.x, p.y] for p in self.route],
            "portal": [self.portal.x, self.portal.y] if self.portal else None,
        }


@dataclass(eq=False)
class Merchant(Being):
    """A visiting merchant (K-LOCK-02)."""

    route: list[Pos] = field(default_factory=list)
    portal: Pos | None = None
    lair: None = None

    kind = "merchant"

    def side(self) -> Side:
        return Side.VISITOR

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "route": [[p.x, p.y] for p in self.route],
            "portal": [self.portal.x, self.portal.y] if self.portal else None,
        }


Visitor = Creature | Merchant


def side_of(being: Being) -> Side:
    return being.side()


def being_from_json(data: Mapping[str, Any]) -> Being:
    """Rebuild any being from :meth:`Being.to_json`."""
    common: dict[str, Any] = {
        "id": str(data["id"]),
        "breed": str(data["breed"]),
        "attributes": Attributes.from_json(data["attributes"]),
        "pos": _pos(data["pos"]),
        "pace": int(data["pace"]),
    }
    kind = data["kind"]
    being: Being
    if kind == "master":
        being = Master(**common)
    elif kind == "minion":
        being = Minion(
            **common,
            job=Job(data["job"]),
            stance=Stance(data["stance"]),
            carry=int(data["carry"]),
            blind_rage=bool(data["blind_rage"]),
            attack_orders=[str(a) for a in data["attack_orders"]],
            task=data["task"],
            busy_since=data["busy_since"],
            carrying=int(data["carrying"]),
        )
    elif kind == "creature":
        being = Creature(
            **common,
            lair=data["lair"],
            route=[_pos(p) for p in data["route"]],
            portal=_pos(data["portal"]) if data["portal"] else None,
        )
    elif kind == "merchant":
        being = Merchant(
            **common,
            route=[_pos(p) for p in data["route"]],
            portal=_pos(data["portal"]) if data["portal"] else None,
        )
    else:
        raise ValueError(f"unknown being kind {kind!r} in a saved world")
    being._load(data)
    return being


def _pos(data: Any) -> Pos:
    return Pos(int(data[0]), int(data[1]))
