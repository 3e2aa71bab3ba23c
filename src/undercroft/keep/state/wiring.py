"""Wiring: connections drawn tile by tile, hops and joins, and the circuits they make.

The keeper drags a connection over the map (K-WIRE-01); a drag is a list of waypoints
joined by straight runs along a row or a column. Where the drag meets an existing
connection on a tile, the two either *hop* (both run straight across each other, K-WIRE-04)
or *join* (K-WIRE-05, ruling R-K-WIRE-01). A drag that starts or ends on a structure's tile
attaches to that structure. Joined connections and the structures at their ends form a
*circuit*, which acts as one connection (K-WIRE-06): it may hold one trigger and one
mechanism at most (K-WIRE-02, ruling R-K-WIRE-02), any number of timers (K-WIRE-03) and
any number of doors (K-WIRE-07). A drag that would break this is refused whole.

This module knows nothing of what structures do: the world passes a lookup from a tile to
the structure on it and from a structure to its :class:`Role`.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.grid import Pos


class Role(enum.Enum):
    """What a structure is to the wiring."""

    TRIGGER = "trigger"
    """Starts the signal (K-TRAP-02)."""
    MECHANISM = "mechanism"
    """Fires when the circuit's trigger fires (K-WIRE-01)."""
    TIMER = "timer"
    """Delays the mechanism (K-WIRE-03); neither trigger nor mechanism."""
    DOOR = "door"
    """Opens or closes with the circuit's trigger (K-WIRE-07, K-DOOR-04)."""


class Shape(enum.Enum):
    """How a connection lies on one of its tiles."""

    END = "end"
    """The first or last tile of the drag."""
    ACROSS = "across"
    """Straight through along the row (west-east)."""
    DOWN = "down"
    """Straight through along the column (north-south)."""
    TURN = "turn"
    """Enters on one side and leaves on a side at right angles."""


class WiringError(ValueError):
    """A drag that cannot be drawn; ``rules`` names the rule it would break (may be empty)."""

    def __init__(self, reason: str, rules: Sequence[str] = ()) -> None:
        self.reason = reason
        self.rules = tuple(rules)
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class Wire:
    """One drawn connection: its tiles in drag order and what its two ends attach to."""

    id: str
    tiles: tuple[Pos, ...]
    start: str | None = None
    """The structure the drag started on, if any."""
    end: str | None = None
    """The structure the drag ended on, if any."""

    def shape_at(self, index: int) -> Shape:
        return shape_at(self.tiles, index)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tiles": [[p.x, p.y] for p in self.tiles],
            "start": self.start,
            "end": self.end,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Wire:
        tiles = tuple(Pos(int(x), int(y)) for x, y in data["tiles"])
        return cls(str(data["id"]), tiles, data.get("start"), data.get("end"))


@dataclass(frozen=True, slots=True)
class Circuit:
    """The structures one set of joined connections links (K-WIRE-06), each in id order."""

    triggers: tuple[str, ...] = ()
    mechanisms: tuple[str, ...] = ()
    timers: tuple[str, ...] = ()
    doors: tuple[str, ...] = ()
    wires: tuple[str, ...] = ()

    @property
    def trigger(self) -> str | None:
        return self.triggers[0] if self.triggers else None

    @property
    def mechanism(self) -> str | None:
        return self.mechanisms[0] if self.mechanisms else None

    def does_something(self) -> bool:
        """K-TRAP-05: a trigger with no mechanism and no door does nothing."""
        return bool(self.mechanisms or self.doors)


@dataclass(frozen=True, slots=True)
class Meeting:
    """Where a new drag meets an existing connection, and what happens there."""

    at: Pos
    wire: str
    joins: bool
    """True: the two join (K-WIRE-05); False: the drag hops over (K-WIRE-04)."""


@dataclass(frozen=True, slots=True)
class DragPlan:
    """A drag checked against the map and the wiring, ready to be added."""

    wire: Wire
    meetings: tuple[Meeting, ...]
    circuit: Circuit

    @property
    def joined(self) -> tuple[str, ...]:
        return tuple(sorted({m.wire for m in self.meetings if m.joins}))

    @property
    def hops(self) -> tuple[Meeting, ...]:
        return tuple(m for m in self.meetings if not m.joins)


def expand(waypoints: Sequence[Pos]) -> tuple[Pos, ...]:
    """Every tile of a drag through ``waypoints`` (straight runs along rows or columns)."""
    if len(waypoints) < 2:
        raise WiringError("a drag needs a start and an end tile")
    tiles = [waypoints[0]]
    for a, b in itertools.pairwise(waypoints):
        if a.x != b.x and a.y != b.y:
            raise WiringError(f"a drag runs along rows and columns; {a} to {b} is diagonal")
        dx = (b.x > a.x) - (b.x < a.x)
        dy = (b.y > a.y) - (b.y < a.y)
        p = a
        while p != b:
            p = p.offset(dx, dy)
            tiles.append(p)
    if len(tiles) < 2:
        raise WiringError("a drag needs a start and an end tile")
    if len(set(tiles)) != len(tiles):
        raise WiringError("a drag may not cross or retrace itself")
    return tuple(tiles)


def shape_at(tiles: Sequence[Pos], index: int) -> Shape:
    """How a drag through ``tiles`` lies on its ``index``-th tile."""
    if index in (0, len(tiles) - 1):
        return Shape.END
    before, after = tiles[index - 1], tiles[index + 1]
    if before.y == after.y:
        return Shape.ACROSS
    if before.x == after.x:
        return Shape.DOWN
    return Shape.TURN


def hops_over(new: Shape, old: Shape) -> bool:
    """K-WIRE-04: only two straight runs at right angles hop; everything else joins.

    K-WIRE-05 joins where the other connection turns or ends, and where the drag starts or
    ends; ruling R-K-WIRE-01 also joins a drag that turns on the tile or runs along the
    other connection in the same direction.
    """
    straight = (Shape.ACROSS, Shape.DOWN)
    return new in straight and old in straight and new is not old


@dataclass
class Wiring:
    """Every connection on the map and which of them joined which."""

    wires: dict[str, Wire] = field(default_factory=dict)
    joins: dict[str, set[str]] = field(default_factory=dict)
    _at: dict[Pos, list[tuple[str, int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._reindex()

    def _reindex(self) -> None:
        self._at = {}
        for wire in self.wires.values():
            for i, p in enumerate(wire.tiles):
                self._at.setdefault(p, []).append((wire.id, i))

    def wires_at(self, pos: Pos) -> list[tuple[str, int]]:
        """The connections on a tile, with each one's index of that tile."""
        return list(self._at.get(pos, ()))

    # -- drawing --------------------------------------------------------------------

    def plan(
        self,
        wire_id: str,
        waypoints: Sequence[Pos],
        *,
        structure_at: Callable[[Pos], str | None],
        role_of: Callable[[str], Role],
        can_carry: Callable[[Pos], bool],
    ) -> DragPlan:
        """Check a drag; raise :class:`WiringError` naming the rule it would break."""
        tiles = expand(waypoints)
        for p in tiles:
            if not can_carry(p):
                raise WiringError(f"a connection cannot run over {p} (wall or off the map)")
        start, end = structure_at(tiles[0]), structure_at(tiles[-1])
        if start is not None and start == end:
            raise WiringError(f"a drag from {start} back to itself connects nothing")
        wire = Wire(wire_id, tiles, start, end)
        meetings = []
        for i, p in enumerate(tiles):
            for other_id, j in self._at.get(p, ()):
                other = self.wires[other_id]
                joins = not hops_over(shape_at(tiles, i), other.shape_at(j))
                meetings.append(Meeting(p, other_id, joins))
        joined = sorted({m.wire for m in meetings if m.joins})
        circuit = self._component(
            [f"w:{wire_id}", *(f"w:{w}" for w in joined), *(s for s in (start, end) if s)],
            role_of,
            extra=wire,
            extra_joins=joined,
        )
        self._check(circuit, role_of, through_joins=bool(joined))
        return DragPlan(wire, tuple(meetings), circuit)

    def add(self, plan: DragPlan) -> None:
        wire = plan.wire
        self.wires[wire.id] = wire
        self.joins.setdefault(wire.id, set())
        for other in plan.joined:
            self.joins[wire.id].add(other)
            self.joins.setdefault(other, set()).add(wire.id)
        for i, p in enumerate(wire.tiles):
            self._at.setdefault(p, []).append((wire.id, i))

    def remove(self, wire_id: str) -> None:
        self.wires.pop(wire_id)
        for other in self.joins.pop(wire_id, set()):
            self.joins[other].discard(wire_id)
        self._reindex()

    def detach(self, structure_id: str) -> list[str]:
        """Remove every connection attached to a structure that is being removed."""
        gone = [w.id for w in self.wires.values() if structure_id in (w.start, w.end)]
        for wire_id in gone:
            self.remove(wire_id)
        return gone

    def attached(self, structure_id: str) -> list[str]:
        return [w.id for w in self.wires.values() if structure_id in (w.start, w.end)]

    # -- circuits -------------------------------------------------------------------

    def circuit_of(self, structure_id: str, role_of: Callable[[str], Role]) -> Circuit:
        """The circuit a structure belongs to (just itself if nothing is attached)."""
        return self._component([structure_id], role_of)

    def _component(
        self,
        seeds: Iterable[str],
        role_of: Callable[[str], Role],
        *,
        extra: Wire | None = None,
        extra_joins: Sequence[str] = (),
    ) -> Circuit:
        # Nodes are "w:<wire id>" and structure ids; edges are joins and wire ends.
        def neighbours(node: str) -> list[str]:
            if node.startswith("w:"):
                wid = node[2:]
                wire = extra if extra is not None and wid == extra.id else self.wires[wid]
                linked = [f"w:{o}" for o in self.joins.get(wid, ())]
                if extra is not None and wid == extra.id:
                    linked = [f"w:{o}" for o in extra_joins]
                elif extra is not None and wid in extra_joins:
                    linked.append(f"w:{extra.id}")
                return linked + [s for s in (wire.start, wire.end) if s]
            out = [f"w:{w.id}" for w in self.wires.values() if node in (w.start, w.end)]
            if extra is not None and node in (extra.start, extra.end):
                out.append(f"w:{extra.id}")
            return out

        seen: set[str] = set()
        stack = list(seeds)
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(n for n in neighbours(node) if n not in seen)
        groups: dict[Role, list[str]] = {role: [] for role in Role}
        wires = []
        for node in seen:
            if node.startswith("w:"):
                wires.append(node[2:])
            else:
                groups[role_of(node)].append(node)

        def ordered(ids: Iterable[str]) -> tuple[str, ...]:
            return tuple(sorted(ids, key=_id_key))

        return Circuit(
            ordered(groups[Role.TRIGGER]),
            ordered(groups[Role.MECHANISM]),
            ordered(groups[Role.TIMER]),
            ordered(groups[Role.DOOR]),
            ordered(wires),
        )

    @staticmethod
    def _check(circuit: Circuit, role_of: Callable[[str], Role], *, through_joins: bool) -> None:
        """K-WIRE-02 over the whole circuit (K-WIRE-06); ruling R-K-WIRE-02."""
        joined = ("K-WIRE-06",) if through_joins else ()
        triggers, mechanisms = circuit.triggers, circuit.mechanisms
        if triggers and len(mechanisms) > 1:
            raise WiringError(
                f"K-WIRE-02: {triggers[0]} would be connected to more than one mechanism "
                f"({', '.join(mechanisms)}); each trigger connects to one mechanism at most",
                ("K-WIRE-02", *joined),
            )
        if mechanisms and len(triggers) > 1:
            raise WiringError(
                f"K-WIRE-02: {mechanisms[0]} would have more than one trigger "
                f"({', '.join(triggers)}); each mechanism has one trigger at most",
                ("K-WIRE-02", *joined),
            )
        if len(triggers) > 1 or len(mechanisms) > 1:
            both = ", ".join((*triggers, *mechanisms))
            raise WiringError(
                f"R-K-WIRE-02: one circuit holds one trigger and one mechanism at most ({both})",
                ("R-K-WIRE-02", *joined),
            )

    # -- saving ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "wires": [w.to_json() for w in self.wires.values()],
            "joins": sorted([a, b] for a, linked in self.joins.items() for b in linked if a < b),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Wiring:
        wires = {w.id: w for w in (Wire.from_json(d) for d in data["wires"])}
        joins: dict[str, set[str]] = {wid: set() for wid in wires}
        for a, b in data["joins"]:
            joins[a].add(b)
            joins[b].add(a)
        return cls(wires, joins)


def _id_key(structure_id: str) -> tuple[str, int]:
    """Sort ``kind:N`` ids by kind then number (so ``trap:10`` follows ``trap:9``)."""
    kind, _, number = structure_id.partition(":")
    return (kind, int(number) if number.isdigit() else -1)
