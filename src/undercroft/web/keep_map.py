"""What the keep viewer draws of a world now: map, structures, wiring, beings, invasions.

A pure reading of :class:`undercroft.keep.state.world.World` (nothing here changes it). Beings
are given with their side (K-OWN-01..04), their state in a fight (up, unconscious or
dead; wound points, K-KO-01; bleeding, K-WAKE-02; held or terrified, K-TRAP-03; carried,
K-WAKE-01) and, for an adventurer, its group and whereabouts (in, a prisoner, left,
dead). The bodies of the dead lie where they fell until butchered or burned (K-AFTER-02).
What one adventurer knows is :func:`undercroft.keep.rules.learning.view` (K-LEARN-07), the same
reading ``run keep --inspect`` prints.
"""

from __future__ import annotations

from typing import Any

from undercroft.keep.rules import director
from undercroft.keep.state.actors import Being, Condition, Minion
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.world import World


def clock(minute: int) -> dict[str, int]:
    return {"minute": minute, "day": minute // 1440 + 1, "hour": minute % 1440 // 60}


def being_view(world: World, being: Being) -> dict[str, Any]:
    """One being as the page draws it and lists it."""
    pos = being.pos_at(world.now)
    out: dict[str, Any] = {
        "id": being.id,
        "kind": being.kind,
        "breed": being.breed,
        "side": being.side().value,
        "pos": [int(pos.x), int(pos.y)],
        "condition": being.condition.value,
        "wound_points": being.wound_points,
        "wounds": len(being.wounds),
        "last_wound": being.wounds[-1] if being.wounds else None,
        "bleeding": being.bleeding_until is not None,
        "held": being.held_until > world.now,
        "terrified": being.terror_until > world.now,
        "carried_by": being.carried_by,
        "body": being.body,
        "fighting": being.fighting,
    }
    if isinstance(being, Minion):
        out["job"] = being.job.value
        out["stance"] = being.stance.value
        out["blind_rage"] = being.blind_rage
    if isinstance(being, Adventurer):
        out["group"] = being.invasion
        out["level"] = being.level
        out["where"] = being.where.value
        out["treasure"] = being.treasure
        out["knows"] = len(being.knows)
    out["state"] = state_word(being)
    return out


def state_word(being: Being) -> str:
    """One word for the page: ``dead``, ``captured``, ``unconscious``, ``fallen`` (carried
    off while out), ``held``, ``terrified`` or ``up``."""
    if being.condition is Condition.DEAD:
        return "dead"
    if isinstance(being, Adventurer) and being.where is Whereabouts.PRISONER:
        return "captured"
    if being.condition is Condition.UNCONSCIOUS:
        return "fallen" if being.carried_by else "unconscious"
    return "up"


def shown_beings(world: World) -> list[Being]:
    """Those on the map: everyone present, and the dead whose bodies still lie there."""
    return [
        b
        for b in world.beings.values()
        if b.present or (b.condition is Condition.DEAD and b.body in ("lying", "carried"))
    ]


def invasions_view(world: World) -> dict[str, Any]:
    """The invasions under way (and the last few over), and the indicator (K-TIME-04)."""
    groups = list(world.invasion.groups.values())
    shown = [g for g in groups if g.ended is None] + [g for g in groups if g.ended][-5:]
    said = director.indicator(world)
    return {
        "indicator": {"word": said.word, "percent": said.percent},
        "groups": [
            {
                "number": g.number,
                "kind": g.kind,
                "goal": g.goal,
                "home": g.home,
                "members": list(g.members),
                "arrived": g.arrived,
                "sighted": g.sighted,
                "caution": g.caution,
                "phase": g.phase,
                "ended": g.ended,
            }
            for g in sorted(shown, key=lambda g: g.number)
        ],
        # K-SIZE-02: fugitives who asked to hide, and the answer (None: not answered).
        "fugitives": [
            {"name": name, "asked": asked["asked"], "answer": asked["answer"]}
            for name, asked in sorted(world.invasion.fugitives.items())
        ],
        # K-ARR-01 divination charges, K-ARR-06 Watchful Eye blessings.
        "charges": dict(sorted(world.invasion.charges.items())),
    }


def world_view(world: World) -> dict[str, Any]:
    """The world as the page draws it (the log lines and trap records are the watcher's)."""
    chars = world.grid.char_array()
    return {
        "seed": world.seed,
        "clock": clock(world.now),
        "board": "\n".join(row.tobytes().decode() for row in chars),
        "structures": [s.to_json() for s in world.structures.values()],
        "wires": [w.to_json() for w in world.wiring.wires.values()],
        "beings": [being_view(world, b) for b in shown_beings(world)],
        "portals": [[p.x, p.y] for p in world.portals],
        "invasions": invasions_view(world) if world.options.invasions else None,
        "metal": None if world.stockpile is None else world.stockpile.free,
    }
