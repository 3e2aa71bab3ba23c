"""Adventurers: the beings who invade, and what each of them knows (state only).

An :class:`Adventurer` is a being of the enemy side (it sets off your traps, K-OWN-02's
"like any enemy", and an armed lock stops it, K-LOCK-02). It is named ``adv:N-M``: member
M of invasion N (prisoners a scenario starts with are of invasion 0). Besides its class,
level, traits and attributes it carries its own knowledge of your triggers (K-KNOW-01) and
its learning bonuses (K-LEARN-02..04), kept until it dies or leaves the map (K-LEARN-07).
Its equipment and its state in a fight (wounds, unconscious or dead) are the being's
(:class:`~undercroft.keep.state.actors.Being`).

Adventurers walk tile by tile (ruling R-K-MOVE-01): their time is kept in ticks
(:data:`undercroft.keep.content.calendar.TICKS_PER_MINUTE`), their way ahead is a list of tiles
re-planned whenever what it was planned from changed (the map, their knowledge, their
group's decisions).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.grid import Pos
from undercroft.keep.content.attributes import Attributes
from undercroft.keep.state.actors import Being, Side

BONUS_CAP = 2
"""K-LEARN-04: neither learning bonus goes above +2."""


class Whereabouts(enum.Enum):
    """Where an adventurer is."""

    OUTSIDE = "outside"
    """Beyond the map edge, about to walk in at the group's portal (K-ARR-02)."""
    IN = "in"
    """On the map."""
    LEFT = "left"
    """Walked out at a portal, alive (it escaped: K-DOOR-02); its bonuses are gone."""
    PRISONER = "prisoner"
    """Held in your dungeon; keeps its knowledge and bonuses (K-LEARN-07)."""
    DEAD = "dead"
    """Died in your dungeon (K-KO-02); its bonuses are gone (K-LEARN-07)."""


@dataclass(eq=False)
class Adventurer(Being):
    """An invading adventurer (K-INV-*): class, level, traits, knowledge and bonuses."""

    invasion: int = 0
    member: int = 0
    level: int = 0
    traits: tuple[str, ...] = ()
    faction: str = ""
    abilities: tuple[str, ...] = ()
    where: Whereabouts = Whereabouts.OUTSIDE
    ticks_per_tile: int = 600
    """Walking pace in ticks (R-K-MOVE-01); Caution makes it 6/5 of this (K-CAUT-03)."""
    carry: int = 1
    """Treasure it can carry (K-AFTER-01)."""
    treasure: int = 0
    knows: dict[str, str] = field(default_factory=dict)
    """K-KNOW-01: the triggers it knows, each with how it learned of it."""
    detect: dict[str, int] = field(default_factory=dict)
    """K-LEARN-02: +1/+2 to discover each trigger type (``learn_type``)."""
    block: dict[str, int] = field(default_factory=dict)
    """K-LEARN-03: +1/+2 Block against each mechanism kind."""
    knowledge_version: int = 0
    """Bumped whenever ``knows`` grows: its way is re-planned (K-CAUT-01)."""
    path: list[Pos] = field(default_factory=list)
    """The tiles still to step into, next first."""
    path_stamp: tuple[int, ...] = ()
    """What the path was planned from (ints); a different stamp means plan again."""
    step_gen: int = 0
    """Bumped when its queued step is superseded (a new plan, a wait, work)."""
    busy: str | None = None
    """Work in hand (``force``, ``disarm``, ``goal``), or None."""
    aim: Pos | None = None
    """Where it goes on its own (a treasure pile after the goal), if anywhere."""
    noticed: list[str] = field(default_factory=list)
    """K-PERC-01: enemies (your beings) it has seen, first sighting first."""
    captured_at: int | None = None
    """K-AFTER-02: the minute it was captured (a prisoner of this dungeon from then)."""
    left_at: int | None = None
    stuck_since: int | None = None
    """The minute it found no way anywhere (cleared when it walks again)."""
    waiting_on: Pos | None = None
    """The tile it waits to be free (one body per tile), if it waits."""
    next_at: int = 0
    """The tick of its next queued step."""
    doors_ahead: list[Pos] | None = field(default=None, compare=False, repr=False)
    """The door tiles on its way, in order (worked out from ``path`` when needed; not
    saved: a loaded adventurer works it out again)."""

    def set_path(self, path: list[Pos]) -> None:
        self.path = path
        self.doors_ahead = None

    def step_on(self) -> Pos:
        """Its next tile is now behind it: drop it from the way (and from the doors)."""
        tile = self.path.pop(0)
        if self.doors_ahead and self.doors_ahead[0] == tile:
            self.doors_ahead.pop(0)
        return tile

    kind = "adventurer"

    def side(self) -> Side:
        return Side.ENEMY

    @property
    def on_map(self) -> bool:
        return self.where is Whereabouts.IN

    def learn(self, trigger_id: str, how: str) -> bool:
        """K-KNOW-01: it now knows this trigger; True if that is news to it."""
        if trigger_id in self.knows:
            return False
        self.knows[trigger_id] = how
        self.knowledge_version += 1
        return True

    def gain(self, table: dict[str, int], key: str) -> int:
        """K-LEARN-04: one more point of a bonus, never above +2; returns the new value."""
        table[key] = min(BONUS_CAP, table.get(key, 0) + 1)
        return table[key]

    def card(self) -> dict[str, Any]:
        """What the sighting card shows of it (K-ARR-05): class, level, abilities."""
        return {
            "id": self.id,
            "class": self.breed,
            "level": self.level,
            "abilities": [*self.abilities, *self.traits],
        }

    def profile(self) -> dict[str, Any]:
        return {
            **super().profile(),
            "class": self.breed,
            "level": self.level,
            "traits": list(self.traits),
            "faction": self.faction,
            "where": self.where.value,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "invasion": self.invasion,
            "member": self.member,
            "level": self.level,
            "traits": list(self.traits),
            "faction": self.faction,
            "abilities": list(self.abilities),
            "where": self.where.value,
            "ticks_per_tile": self.ticks_per_tile,
            "carry": self.carry,
            "treasure": self.treasure,
            "knows": dict(self.knows),
            "detect": dict(self.detect),
            "block": dict(self.block),
            "knowledge_version": self.knowledge_version,
            "path": [[p.x, p.y] for p in self.path],
            "path_stamp": list(self.path_stamp),
            "step_gen": self.step_gen,
            "busy": self.busy,
            "aim": [self.aim.x, self.aim.y] if self.aim else None,
            "noticed": list(self.noticed),
            "captured_at": self.captured_at,
            "left_at": self.left_at,
            "stuck_since": self.stuck_since,
            "waiting_on": [self.waiting_on.x, self.waiting_on.y] if self.waiting_on else None,
            "next_at": self.next_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Adventurer:
        adv = cls(
            id=str(data["id"]),
            breed=str(data["breed"]),
            attributes=Attributes.from_json(data["attributes"]),
            pos=Pos(int(data["pos"][0]), int(data["pos"][1])),
            pace=int(data["pace"]),
            invasion=int(data["invasion"]),
            member=int(data["member"]),
            level=int(data["level"]),
            traits=tuple(str(t) for t in data["traits"]),
            faction=str(data["faction"]),
            abilities=tuple(str(a) for a in data["abilities"]),
            where=Whereabouts(data["where"]),
            ticks_per_tile=int(data["ticks_per_tile"]),
            carry=int(data["carry"]),
            treasure=int(data["treasure"]),
            knows={str(k): str(v) for k, v in data["knows"].items()},
            detect={str(k): int(v) for k, v in data["detect"].items()},
            block={str(k): int(v) for k, v in data["block"].items()},
            knowledge_version=int(data["knowledge_version"]),
            path=[Pos(int(x), int(y)) for x, y in data["path"]],
            path_stamp=tuple(int(v) for v in data["path_stamp"]),
            step_gen=int(data["step_gen"]),
            busy=data["busy"],
            aim=Pos(int(data["aim"][0]), int(data["aim"][1])) if data["aim"] else None,
            noticed=[str(n) for n in data["noticed"]],
            captured_at=data.get("captured_at"),
            left_at=data["left_at"],
            stuck_since=data["stuck_since"],
            waiting_on=Pos(*data["waiting_on"]) if data["waiting_on"] else None,
            next_at=int(data["next_at"]),
        )
        adv._load(data)
        return adv
