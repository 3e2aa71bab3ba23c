"""Who is in the dungeon: the Master, minions, creatures and visiting merchants.

Beings are mutable world state; their kinds (attributes, pace, carrying, equipment) come
from the :class:`~undercroft.keep.content.ruleset.Ruleset`. Whose side a being is on decides who
sets off traps (K-OWN-01..04), who may pass a lock (K-LOCK-02) and who fights whom; see
:func:`side_of`. Every being also carries its state in a fight: its wounds and their
points (K-KO-01), whether it is up, unconscious or dead (K-KO-02), bleeding and waking
(K-WAKE-02), held by a web or fleeing in terror (K-TRAP-03), which way it faces
(K-RNG-01), the enemies it knows of and where (K-PERC-01..03), and whether it is fighting
tile by tile (the rules are in ``wounds``, ``fallen``, ``fighters``, ``combat``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.grid import Pos
from undercroft.keep.content.ruleset import Attributes, BeingKind


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


class Condition(enum.Enum):
    """Whether a being is in the fight (K-KO-01, K-KO-02)."""

    UP = "up"
    """Conscious: it walks, works and fights."""
    UNCONSCIOUS = "unconscious"
    """Taken out and alive: it can be carried, healed, captured or killed (K-WAKE-01)."""
    DEAD = "dead"
    """Taken out and dead: a body, butchered or left (K-AFTER-02)."""


FACINGS = ("n", "e", "s", "w")
"""Which way a being faces (K-RNG-01: a melee attacker turns to face its target)."""


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
    weapon: str = "fists"
    """What it fights with (a weapon key of its content, K-KO-02)."""
    armour: str = "none"
    """Body armour (K-KO-03)."""
    helmet: int = 0
    """Its helmet's number, in percentage points (K-HEAD-01)."""
    condition: Condition = Condition.UP
    wound_points: int = 0
    """K-KO-01: light 1, serious 2, critical 4; out at 10 (as of ``mended_at``)."""
    mended_at: int = 0
    """Ruling R-K-WAKE-01: wounds mend while up, a point per content period from here."""
    wounds: list[dict[str, Any]] = field(default_factory=list)
    """Every wound taken: ``level``, ``location``, ``points``, ``source``, ``weapon``,
    ``minute``."""
    bleeding_until: int | None = None
    """K-WAKE-02: bleeding, unconscious: it dies at this minute unless healed first."""
    wake_at: int | None = None
    """K-WAKE-02: the minute it wakes by itself (unconscious and not bleeding)."""
    held_until: int = -1
    """K-TRAP-03: a web holds it (it cannot step) until this minute."""
    terror_until: int = -1
    """K-TRAP-03: it flees in terror until this minute..."""
    terror_from: Pos | None = None
    """... away from here (the terror trap)."""
    facing: str = "s"
    """K-RNG-01: the way it faces (n, e, s, w)."""
    foes: dict[str, list[int]] = field(default_factory=dict)
    """K-PERC-01..03: the enemies it knows of, and where it last knew them to be."""
    struck_by: dict[str, int] = field(default_factory=dict)
    """K-PERC-02: who attacked it, and the minute they last did."""
    fighting: bool = False
    """Stepping tile by tile in a fight (in :attr:`World.bodies`), deciding each turn."""
    fight_gen: int = 0
    """Bumped when its queued fight turn is superseded."""
    decision: str = ""
    """Its last fight decision (the stance's choice, R-K-STANCE-02)."""
    carried_by: str | None = None
    """K-WAKE-01: the minion carrying it, if it is being carried."""
    home: Pos | None = None
    """Where it goes back to after a fight: a minion's bed (K-WAKE-02), a creature's lair,
    the Master's place."""
    body: str | None = None
    """Dead: ``lying``, ``carried``, ``butchered`` or ``burned`` (K-AFTER-02)."""
    resume_to: Pos | None = None
    """Where a planned walk was going when a web or terror stopped it (K-TRAP-03)."""

    kind = "being"

    def side(self) -> Side:
        return Side.KEEP

    @property
    def up(self) -> bool:
        """Conscious (not taken out, K-KO-01)."""
        return self.condition is Condition.UP

    @property
    def conscious(self) -> bool:
        """K-KNOW-02, K-LEARN-01 count only the conscious."""
        return self.condition is Condition.UP

    def pos_at(self, minute: int) -> Pos:
        return self.walk.pos_at(minute) if self.walk is not None else self.pos

    def equipment(self) -> dict[str, Any]:
        return {"weapon": self.weapon, "armour": self.armour, "helmet": self.helmet}

    def equip(self, kind: BeingKind) -> None:
        """Take the weapon, armour and helmet its kind has (content)."""
        self.weapon, self.armour, self.helmet = kind.weapon, kind.armour, kind.helmet

    def profile(self) -> dict[str, Any]:
        """The log header's description of this actor."""
        return {
            "breed": self.breed,
            "attributes": self.attributes.to_json(),
            "at": [self.pos.x, self.pos.y],
            "equipment": self.equipment(),
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
            **self.equipment(),
            "condition": self.condition.value,
            "wound_points": self.wound_points,
            "mended_at": self.mended_at,
            "wounds": list(self.wounds),
            "bleeding_until": self.bleeding_until,
            "wake_at": self.wake_at,
            "held_until": self.held_until,
            "terror_until": self.terror_until,
            "terror_from": _xy(self.terror_from),
            "facing": self.facing,
            "foes": {k: list(v) for k, v in self.foes.items()},
            "struck_by": dict(self.struck_by),
            "fighting": self.fighting,
            "fight_gen": self.fight_gen,
            "decision": self.decision,
            "carried_by": self.carried_by,
            "home": _xy(self.home),
            "body": self.body,
            "resume_to": _xy(self.resume_to),
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        self.walk = Walk.from_json(data["walk"]) if data.get("walk") else None
        self.walk_gen = int(data["walk_gen"])
        self.present = bool(data["present"])
        # The fight state (absent from saves written before combat: everyone up).
        self.weapon = str(data.get("weapon", self.weapon))
        self.armour = str(data.get("armour", self.armour))
        self.helmet = int(data.get("helmet", self.helmet))
        self.condition = Condition(data.get("condition", "up"))
        self.wound_points = int(data.get("wound_points", 0))
        self.mended_at = int(data.get("mended_at", 0))
        self.wounds = [dict(w) for w in data.get("wounds", [])]
        self.bleeding_until = data.get("bleeding_until")
        self.wake_at = data.get("wake_at")
        self.held_until = int(data.get("held_until", -1))
        self.terror_until = int(data.get("terror_until", -1))
        self.terror_from = _maybe_pos(data.get("terror_from"))
        self.facing = str(data.get("facing", "s"))
        self.foes = {str(k): [int(v[0]), int(v[1])] for k, v in data.get("foes", {}).items()}
        self.struck_by = {str(k): int(v) for k, v in data.get("struck_by", {}).items()}
        self.fighting = bool(data.get("fighting", False))
        self.fight_gen = int(data.get("fight_gen", 0))
        self.decision = str(data.get("decision", ""))
        self.carried_by = data.get("carried_by")
        self.home = _maybe_pos(data.get("home"))
        self.body = data.get("body")
        self.resume_to = _maybe_pos(data.get("resume_to"))


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
    """A creature: wild, living in one of your lairs (K-OWN-03, K-OWN-04), or released by
    one of your spider traps for a while (K-TRAP-03)."""

    lair: str | None = None
    route: list[Pos] = field(default_factory=list)
    """Where a visiting wild creature still means to go, then back to its portal."""
    portal: Pos | None = None
    summoned_until: int | None = None
    """A spider trap's spider: on your side until this minute, then gone."""

    kind = "creature"

    def side(self) -> Side:
        if self.lair is not None or self.summoned_until is not None:
            return Side.KEEP
        return Side.WILD

    def profile(self) -> dict[str, Any]:
        return {**super().profile(), "lair": self.lair}

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "lair": self.lair,
            "route": [[p.x, p.y] for p in self.route],
            "portal": [self.portal.x, self.portal.y] if self.portal else None,
            "summoned_until": self.summoned_until,
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
            summoned_until=data.get("summoned_until"),
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


def _maybe_pos(data: Any) -> Pos | None:
    return None if data is None else _pos(data)


def _xy(pos: Pos | None) -> list[int] | None:
    return None if pos is None else [pos.x, pos.y]
