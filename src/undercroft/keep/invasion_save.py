"""The invasion part of a saved world (kept apart from :mod:`undercroft.keep.save`).

A save holds, under ``"invasions"``: the invasion systems' state
(:class:`~undercroft.keep.state.invasion_state.InvasionState`), the positions of their random
streams, and the tick clock. Adventurers are saved with the other beings, in the world's
order (which decides the order of a trap's ``caught`` list), as ``kind = "adventurer"``.
A save written before invasions existed has no ``"invasions"``: it loads with a fresh
invasion state (and, if its options turn invasions on, the director starts as for a new
world would not: it keeps what the save says).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from undercroft.core.dice import DiceSampler
from undercroft.keep.rules import stepping
from undercroft.keep.state.actors import Being, being_from_json
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import InvasionState

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def being(data: Mapping[str, Any]) -> Being:
    """Any saved being, adventurers included."""
    if data.get("kind") == "adventurer":
        return Adventurer.from_json(data)
    return being_from_json(data)


def to_json(world: World) -> dict[str, Any]:
    return {
        "state": world.invasion.to_json(),
        "departed": [a.to_json() for a in world.departed.values()],
        "streams": {name: s.state() for name, s in world.streams.items()},
        "tick": world.tick,
    }


def restore(world: World, data: Mapping[str, Any] | None) -> None:
    """Put the saved invasion state back (after beings, structures and wiring)."""
    if data is None:
        return
    world.invasion = InvasionState.from_json(data["state"])
    departed = (Adventurer.from_json(a) for a in data["departed"])
    world.departed = {a.id: a for a in departed}
    for name, state in data["streams"].items():
        world.streams[str(name)] = DiceSampler.from_state(world.streams[str(name)].seed, state)
    world.tick = int(data["tick"])
    world.keep_epoch()  # the loaded grid is the saved epoch (its version restarted)
    stepping.rebuild_bodies(world)
