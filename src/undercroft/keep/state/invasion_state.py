"""The state the invasion systems keep in the world (data only; the rules are elsewhere).

* :class:`DirectorState`: when the next invasion may come (K-TIME-01..07).
* :class:`Group`: one invasion's group of adventurers, from setting out to the end, with
  the group's decisions (K-DOOR-01/02, K-FORCE-02..04), its discovery rolls (K-DISC-03),
  its Caution (K-CAUT-*) and its work in hand (:class:`GroupJob`).
* Map features the invasions care about: treasure, altars, guard posts, old remains, gas.
* :class:`InvasionState`: all of it, with the random streams' owner left to the world.

Everything round-trips through JSON (``to_json`` / ``from_json``) for saves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.grid import Pos


def _xy(p: Pos | None) -> list[int] | None:
    return None if p is None else [p.x, p.y]


def _pos(d: Any) -> Pos | None:
    return None if d is None else Pos(int(d[0]), int(d[1]))


@dataclass
class DirectorState:
    """K-TIME-*: where the invasion clock stands."""

    phase: str = "first"
    """``first`` (day 1 and day 2 before the first), ``waiting`` (a limit runs),
    ``under_way`` (an invasion set out and has not ended)."""
    first_minute: int | None = None
    """K-TIME-01: the minute the first invasion comes (its hour rolled at the start)."""
    limit_start: int = 0
    """K-TIME-03: the minute the running limit started."""
    limit_minutes: int = 0
    hour: int = 0
    """R-K-TIME-01: the hourly draws counted since the limit started (h)."""
    token: int = 0
    """Bumped to void the director's queued items (a stop, a host that cannot wait)."""
    next_number: int = 1
    rite_until: int = -1
    """K-TIME-05: the minute a Rite of Storms ends (-1: none)."""
    cut_off: bool = False
    """K-TIME-05: the Surface way to the dungeon is cut (a scenario happening)."""
    pending: list[dict[str, Any]] = field(default_factory=list)
    """K-TIME-07, K-SIZE-02: hosts, warriors and pursuers waiting to set out."""
    stopped: str | None = None
    """K-TIME-05: why invasions are stopped right now (``rite``, ``cut_off``,
    ``unreachable``), as last seen by the director; None while they can come."""
    last_p: float = 0.0
    """The chance of the draw that brought the invasion under way (the indicator's word
    until it is sighted, ruling R-K-TIME-04)."""
    divined: dict[str, Any] | None = None
    """K-ARR-01: the next regular group, drawn when a divination revealed it."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DirectorState:
        return cls(**{k: data[k] for k in cls().__dict__})


@dataclass
class GroupJob:
    """Work the group stops for: forcing a locked door (K-FORCE-*) or disarming a known
    plate or sensor in the way (K-CAUT-01)."""

    kind: str
    """``force`` or ``disarm``."""
    target: str
    """The door or the trigger."""
    approach: Pos
    """The tile the worker stands on."""
    method: str
    """``pick``, ``bash`` or ``disarm``."""
    tile: Pos | None = None
    """The tile the work frees: the door, or the watched tile in the way."""
    worker: str | None = None
    fails: dict[str, int] = field(default_factory=dict)
    attempts: int = 0
    started: int = 0
    """The minute the work began (the account reports the time it cost)."""
    token: int = 0

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "approach": _xy(self.approach), "tile": _xy(self.tile)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GroupJob:
        fields = dict(data)
        fields["approach"] = _pos(data["approach"])
        fields["tile"] = _pos(data["tile"])
        return cls(**fields)


@dataclass
class Group:
    """One invasion's group (K-INV-*), its decisions, knowledge of rolls and Caution."""

    number: int
    kind: str
    """K-SIZE-*: normal, mob, weaker, stronger, host, warriors or pursuers."""
    strength: str
    """What the draws made it: normal, mob, weaker or stronger (a host is drawn as any)."""
    faction: str
    home: str | None
    goal: str
    goal_drawn: str
    members: list[str]
    arrived: int
    phase: str = "in"
    """``in`` (going for its goal), ``after`` (treasure, K-AFTER-01), ``leaving``,
    ``ended``."""
    portal: Pos | None = None
    water: bool = False
    sighted: int | None = None
    divined: bool = False
    caution: int = 0
    """K-CAUT-03: 0 (none), 1 (+1) or 2 (+2)."""
    corridors_calm: bool = False
    """K-CAUT-04: corridors no longer put it in Caution."""
    remains_areas: list[str] = field(default_factory=list)
    rolled: list[str] = field(default_factory=list)
    """K-DISC-03: the triggers the group has rolled to discover."""
    doors: dict[str, str] = field(default_factory=dict)
    """K-DOOR-01: door -> ``door`` or ``alternate``."""
    given_up: list[str] = field(default_factory=list)
    """K-FORCE-04: doors the group gave up on."""
    disarmed: list[str] = field(default_factory=list)
    """Known triggers the group disarmed, or gave up disarming and walks over."""
    job: GroupJob | None = None
    plan_version: int = 0
    """Bumped whenever a group decision changes the ways its members may take."""
    shown_posts: list[str] = field(default_factory=list)
    never_alternate: bool = False
    """K-DOOR-02: a Cartographer of its faction escaped: never the way round."""
    takes_treasure: bool | None = None
    goal_met: str | None = None
    """``reached`` (the Master, with no combat yet: ruling R-K-AFTER-01) or ``met``."""
    ended: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["portal"] = _xy(self.portal)
        out["job"] = self.job.to_json() if self.job else None
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Group:
        fields = dict(data)
        fields["portal"] = _pos(data["portal"])
        fields["job"] = GroupJob.from_json(data["job"]) if data["job"] else None
        return cls(**fields)


@dataclass
class Feature:
    """Treasure, an altar or a guard post on the map (not an actor; not in the header)."""

    id: str
    kind: str
    """``treasure``, ``altar`` or ``post``."""
    pos: Pos
    amount: int = 0
    """Treasure left (a pile), or 1 while an altar stands."""
    torch: bool = False
    """A guard post's torch is lit (K-ARR-04)."""
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "pos": _xy(self.pos)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Feature:
        fields = dict(data)
        fields["pos"] = _pos(data["pos"])
        return cls(**fields)


@dataclass
class InvasionState:
    """Everything the invasion systems keep (saved with the world)."""

    director: DirectorState = field(default_factory=DirectorState)
    groups: dict[int, Group] = field(default_factory=dict)
    features: dict[str, Feature] = field(default_factory=dict)
    remains: list[dict[str, Any]] = field(default_factory=list)
    """K-CAUT-02: old blood or burn remains: ``at``, ``kind``, ``minute``, ``invasion``."""
    gas: list[dict[str, Any]] = field(default_factory=list)
    """K-LEARN-06: gas clouds: ``at``, ``area``, ``until`` (minute)."""
    cartographers: list[str] = field(default_factory=list)
    """K-DOOR-02: factions whose next group never takes the way round."""
    settlements: dict[str, dict[str, Any]] = field(default_factory=dict)
    camps: dict[str, dict[str, Any]] = field(default_factory=dict)
    """K-TIME-07: evil camps and their relation (``hostile`` sends warriors)."""
    fugitives: dict[str, dict[str, Any]] = field(default_factory=dict)
    """K-SIZE-02: fugitives who asked to hide, and the answer."""
    charges: dict[str, int] = field(default_factory=dict)
    """The keeper's divination charges (K-ARR-01) and Watchful Eye blessings (K-ARR-06)."""
    eye_until: int = -1
    """K-ARR-06: the minute the ghost eye's 24 hours end (-1: none)."""
    waiting: dict[str, list[str]] = field(default_factory=dict)
    """"x,y" -> adventurers waiting for that tile to free up (one body per tile)."""
    totals: dict[str, Any] = field(default_factory=dict)
    """Running counts for the summary (invasions, by kind, adventurers, escaped, treasure,
    goals reached and met): groups and departed adventurers are not all kept."""
    map_epoch: int = 0
    """Counts map changes (survives a save)."""
    route_version: int = 0
    """Counts changes of the adventurers' cost map; their plans are stamped with it."""
    route_digest: str = ""
    """A digest of that cost map (to tell a change from a door merely opening)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "director": self.director.to_json(),
            "groups": [g.to_json() for g in self.groups.values()],
            "features": [f.to_json() for f in self.features.values()],
            "remains": list(self.remains),
            "gas": list(self.gas),
            "cartographers": list(self.cartographers),
            "settlements": dict(self.settlements),
            "camps": dict(self.camps),
            "fugitives": dict(self.fugitives),
            "charges": dict(self.charges),
            "eye_until": self.eye_until,
            "waiting": {k: list(v) for k, v in self.waiting.items()},
            "totals": dict(self.totals),
            "map_epoch": self.map_epoch,
            "route_version": self.route_version,
            "route_digest": self.route_digest,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> InvasionState:
        return cls(
            director=DirectorState.from_json(data["director"]),
            groups={int(g["number"]): Group.from_json(g) for g in data["groups"]},
            features={f["id"]: Feature.from_json(f) for f in data["features"]},
            remains=list(data["remains"]),
            gas=list(data["gas"]),
            cartographers=list(data["cartographers"]),
            settlements=dict(data["settlements"]),
            camps=dict(data["camps"]),
            fugitives=dict(data["fugitives"]),
            charges={k: int(v) for k, v in data["charges"].items()},
            eye_until=int(data["eye_until"]),
            waiting={k: list(v) for k, v in data["waiting"].items()},
            totals=dict(data["totals"]),
            map_epoch=int(data["map_epoch"]),
            route_version=int(data["route_version"]),
            route_digest=str(data["route_digest"]),
        )

    def count(self, key: str, by: int = 1) -> None:
        self.totals[key] = int(self.totals.get(key, 0)) + by
