"""Keep replays: a keep log (``run keep --log FILE``) turned into frames a page can scrub.

The log holds what happened, not the world, so each frame's picture is rebuilt from the
events: the map, structures and wiring of the shipped scenario the header names (the
server reads no file a request names), then what the events change: parts going off,
expiring and being rearmed, doors opening, closing and breached, locks armed and
disarmed, structures built, moved and removed, wires drawn; beings where an event last
placed them (a fight decision, an attack, a wound, a sighting, a fall, a capture: the log
records no footsteps, so a minion at work is drawn where it was last logged), adventurers
from their arrival to their departure or death, the fallen, the captured and the dead.

A keep log has no hidden information (it is the keeper's whole account), so there is no
seat to choose. To stay small, frames carry only what changed (``changed``: the
structures, beings and wires that did, by id; ``removed``: ids gone); ``start`` is the
picture before the first line.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from undercroft.core.events import EventLog, LogEntry
from undercroft.keep.content.ruleset import Ruleset
from undercroft.keep.scenario import build_world, shipped
from undercroft.keep.state.world import World
from undercroft.render.keep_lines import Names
from undercroft.web.keep_map import clock
from undercroft.web.keep_view import QUIET, line
from undercroft.web.replay import apply_line, check_log

KINDS = {"master": "keep", "minion": "keep", "creature": "keep", "adventurer": "enemy"}
"""The side a header actor is drawn on (a creature with no lair is wild, a merchant a
visitor: see :func:`side_of_actor`)."""
BEING_AT = {
    "fighter.decision": ("being", "at", None),
    "attack": ("attacker", "from", None),
    "wound": ("target", "at", None),
    "being.unconscious": ("being", "at", "unconscious"),
    "being.died": ("being", "at", "dead"),
    "being.killed": ("being", "at", None),
    "being.woke": ("being", "at", "up"),
    "being.healed": ("being", "at", "up"),
    "being.carried": ("being", "from", "fallen"),
    "being.laid": ("being", "at", None),
    "adventurer.captured": ("adventurer", "at", "captured"),
    "trigger.stepped_over": ("adventurer", "at", None),
    "foe.known": ("foe", "at", None),
    "being.held": ("being", "at", None),
    "being.terrified": ("being", "at", None),
}
"""Events that say where a being is (its id key, its place key, its state after)."""
GONE = {"adventurer.left": "adventurer", "body.butchered": "body", "body.burned": "body"}
GONE |= {"creature.gone": "creature", "visitor.left": "visitor"}
PART_STATE = {"part.expired": "expired", "part.rearmed": "armed"}


def side_of_actor(actor: dict[str, Any]) -> str:
    kind = str(actor.get("kind"))
    if kind == "creature" and not actor.get("lair"):
        return "wild"
    return KINDS.get(kind, "visitor")


def structure_class(ruleset: Ruleset, kind: str) -> str:
    if kind in ruleset.triggers:
        return "Trigger"
    if kind in ruleset.mechanisms:
        return "Mechanism"
    return kind.capitalize()


def straight_runs(points: list[list[int]]) -> list[list[int]]:
    """The tiles of a drag through waypoints joined by straight runs (K-WIRE-01)."""
    tiles: list[list[int]] = [list(points[0])] if points else []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
        x, y = x0, y0
        while (x, y) != (x1, y1):
            x, y = x + dx, y + dy
            tiles.append([x, y])
    return tiles


class Picture:
    """The keep as far as the log has told it."""

    def __init__(self, log: EventLog) -> None:
        header = log.header
        self.world: World | None = None
        if header.scenario in shipped():
            self.world = build_world(header.scenario, seed=header.seed)
        self.structures: dict[str, dict[str, Any]] = {}
        self.wires: dict[str, dict[str, Any]] = {}
        self.beings: dict[str, dict[str, Any]] = {}
        fresh = self.world.structures if self.world else {}
        for actor in header.actors:
            a = {"id": actor.id, "kind": actor.kind, **actor.profile}
            if "structure" in a:
                known = fresh.get(actor.id)
                if known is not None and known.kind == a["structure"]:
                    self.structures[actor.id] = known.to_json()
                else:  # not the scenario's (a resumed world's header): what the header says
                    self.structures[actor.id] = {
                        "id": actor.id,
                        "class": str(a["kind"]).capitalize(),
                        "kind": a["structure"],
                        "pos": a["at"],
                    }
            else:
                self.beings[actor.id] = self._being(a, a.get("at"), side_of_actor(a))
                if a.get("where") == "prisoner":
                    self.beings[actor.id]["state"] = "captured"
        if self.world is not None and set(self.structures) == set(self.world.structures):
            self.wires = {w.id: w.to_json() for w in self.world.wiring.wires.values()}
        self.changed: set[str] = set()
        self.removed: set[str] = set()

    @staticmethod
    def _being(a: dict[str, Any], at: Any, side: str) -> dict[str, Any]:
        return {
            "id": a["id"],
            "kind": a["kind"],
            "breed": a.get("breed") or a.get("class"),
            "side": side,
            "pos": list(at) if at else None,
            "state": "up",
            "wound_points": 0,
        }

    def board(self) -> str | None:
        if self.world is None:
            return None
        return "\n".join(row.tobytes().decode() for row in self.world.grid.char_array())

    def start(self) -> dict[str, Any]:
        # Copies: the picture goes on changing after this is taken.
        return {
            "board": self.board(),
            "structures": [dict(s) for s in self.structures.values()],
            "wires": [dict(w) for w in self.wires.values()],
            "beings": [dict(b) for b in self.beings.values()],
        }

    def _structure(self, sid: Any, **change: Any) -> None:
        s = self.structures.get(str(sid))
        if s is not None:
            s.update(change)
            self.changed.add(s["id"])

    def _place(self, bid: Any, at: Any, state: str | None) -> None:
        b = self.beings.get(str(bid))
        if b is None:
            return
        if isinstance(at, list) and len(at) == 2:
            b["pos"] = [int(at[0]), int(at[1])]
        if state is not None and not (
            (state == "fallen" and b["state"] == "dead")  # a body carried off
            or (state == "up" and b["state"] == "captured")  # a prisoner wakes in its cell
        ):
            b["state"] = state
        self.changed.add(b["id"])

    def apply(self, entry: LogEntry) -> list[str]:
        """Change the picture as the event says; the traps that fired on this line."""
        f = entry.event.fields
        kind = entry.event.type
        if kind in BEING_AT:
            who, where, state = BEING_AT[kind]
            self._place(f.get(who), f.get(where), state)
            if kind == "attack":
                self._place(f.get("target"), f.get("at"), None)
            if kind == "wound" and str(f.get("target")) in self.beings:
                self.beings[str(f["target"])]["wound_points"] = int(f["total"])
        elif kind in GONE:
            gone = str(f.get(GONE[kind]))
            if self.beings.pop(gone, None) is not None:
                self.removed.add(gone)
        elif kind == "prisoner.freed" and str(f.get("prisoner")) in self.beings:
            self.beings[str(f["prisoner"])]["state"] = "up"
            self.changed.add(str(f["prisoner"]))
        elif kind == "invasion.arrived":
            for m in f.get("members", []):
                a = {"id": m["id"], "kind": "adventurer", "class": m.get("class")}
                self.beings[str(m["id"])] = self._being(a, f.get("portal"), "enemy")
                self.beings[str(m["id"])]["group"] = f.get("number")
                self.changed.add(str(m["id"]))
        elif kind == "visitor.arrived":
            # A merchant or a wild creature coming by (K-OWN-04: one may settle in a lair).
            a = {"id": f["visitor"], "kind": f.get("kind"), "breed": f.get("breed")}
            side = "wild" if f.get("side") == "wild" else KINDS.get(str(f.get("kind")), "visitor")
            self.beings[str(f["visitor"])] = self._being(a, f.get("at"), side)
            self.changed.add(str(f["visitor"]))
        elif kind == "creature.settled" and str(f.get("creature")) in self.beings:
            self.beings[str(f["creature"])]["side"] = "keep"  # K-OWN-04: it joins you
            self.changed.add(str(f["creature"]))
        elif kind == "creatures.summoned":
            for cid in f.get("creatures", []):
                a = {"id": cid, "kind": "creature", "breed": f.get("breed")}
                self.beings[str(cid)] = self._being(a, f.get("at"), "keep")
                self.changed.add(str(cid))
        elif kind == "trap.fired":
            self._structure(f.get("trap"), state="used")
            trigger = self.structures.get(str(f.get("trigger")))
            if trigger is not None and not trigger.get("lever"):
                self._structure(f.get("trigger"), state="used")
            return [str(f.get("trap"))]
        elif kind in PART_STATE:
            self._structure(f.get("structure"), state=PART_STATE[kind])
        elif kind in ("door.opened", "door.closed"):
            self._structure(f.get("door"), open=kind == "door.opened")
        elif kind in ("lock.armed", "lock.disarmed"):
            self._structure(f.get("lock"), armed=kind == "lock.armed")
            if kind == "lock.armed":  # K-FORCE-05: a breached door restored
                self._structure(f.get("door"), breached=False)
        elif kind == "door.forced":
            self._structure(f.get("door"), breached=True, open=True)
        elif kind == "structure.built":
            self._built(f)
        elif kind == "command" and f.get("accepted"):
            self._command(f)
        return []

    def _built(self, f: Mapping[str, Any]) -> None:
        sid = str(f["structure"])
        ruleset = self.world.ruleset if self.world else None
        cls = structure_class(ruleset, str(f["kind"])) if ruleset else str(f["kind"])
        self.structures[sid] = {"id": sid, "class": cls, "kind": f["kind"], "pos": f["at"]}
        if cls in ("Trigger", "Mechanism"):
            self.structures[sid]["state"] = "armed"
        self.changed.add(sid)

    def _command(self, f: Mapping[str, Any]) -> None:
        verb = f["command"]
        if verb == "wire" and f.get("wire"):
            wire = {"id": f["wire"], "tiles": straight_runs(f["path"])}
            self.wires[str(f["wire"])] = wire
            self.changed.add(str(f["wire"]))
        elif verb == "remove":
            target = str(f["target"])
            for table in (self.structures, self.wires):
                if table.pop(target, None) is not None:
                    self.removed.add(target)
        elif verb == "move":
            self._structure(f.get("structure"), pos=f.get("to"))
        elif verb == "hold_door_open":
            self._structure(f.get("door"), held_open=bool(f.get("hold")))

    def delta(self) -> dict[str, Any]:
        """What changed since the last call (and forget it)."""
        out: dict[str, Any] = {}
        if self.changed:
            changed = sorted(self.changed)
            out["changed"] = {  # copies, as in :meth:`start`
                "structures": [dict(self.structures[i]) for i in changed if i in self.structures],
                "beings": [dict(self.beings[i]) for i in changed if i in self.beings],
                "wires": [dict(self.wires[i]) for i in changed if i in self.wires],
            }
        if self.removed:
            out["removed"] = sorted(self.removed)
        self.changed, self.removed = set(), set()
        return out


def keep_frames(log: EventLog) -> dict[str, Any]:
    """The replay of a keep log: its header, the picture before the first line, and a
    frame per line that is not a die roll (the line, its sentence, what it changed)."""
    check_log(log, "keep")
    picture = Picture(log)
    start = picture.start()
    names = Names().actors({"id": a.id, "kind": a.kind, **a.profile} for a in log.header.actors)
    frames: list[dict[str, Any]] = []
    for entry in log.entries:
        names.learn(entry.event)
        if entry.event.type in QUIET:
            continue
        fired = apply_line(picture.apply, entry)
        frame = {**line(entry, names), **picture.delta()}
        if fired:
            frame["fired"] = fired
        frames.append(frame)
    last = log.entries[-1].to_json()["time"] if log.entries else None
    return {
        "ruleset": "keep",
        "scenario": log.header.scenario,
        "seed": log.header.seed,
        "version": log.header.version,
        "board_known": start["board"] is not None,
        "start": start,
        "frames": frames,
        "end": clock(int(last["minute"])) if last is not None else None,
        "summary": None if log.summary is None else dict(log.summary.results),
    }
