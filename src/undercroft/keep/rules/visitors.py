"""Visitors: wild creatures and merchants who walk in at a portal, go round and leave.

Until the invasions issue brings adventurers, visitors are what walks past your triggers
from outside: a wild creature sets traps off (K-OWN-03), a merchant does not (ruling
R-K-OWN-01) and may pass your locks (K-LOCK-02). A scenario scripts when each comes, by
which portal, and the places it walks to; then it walks back to its portal and leaves.
A wild creature that moves into one of your lairs joins your dungeon (K-OWN-04).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.rules import movement, stepping, work
from undercroft.keep.state.actors import Being, Creature, Merchant

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


class VisitError(ValueError):
    """A visit that cannot happen (unknown kind, no such portal)."""


def arrive(world: World, breed: str, portal: Pos, route: list[Pos]) -> Being:
    """A wild creature or a merchant of ``breed`` appears at ``portal`` and sets off."""
    rules = world.ruleset
    visitor: Creature | Merchant
    if breed in rules.creatures:
        kind = rules.creatures[breed]
        pace = kind.minutes_per_tile * world.options.minutes_per_tile
        visitor = Creature(world.new_id("creature"), breed, kind.attributes, portal, pace)
    elif breed in rules.merchants:
        kind = rules.merchants[breed]
        pace = kind.minutes_per_tile * world.options.minutes_per_tile
        visitor = Merchant(world.new_id("merchant"), breed, kind.attributes, portal, pace)
    else:
        known = ", ".join([*rules.creatures, *rules.merchants])
        raise VisitError(f"no creature or merchant kind {breed!r}; known: {known}")
    visitor.equip(kind)
    visitor.route = list(route)
    visitor.portal = portal
    if portal in world.bodies:
        # K-CROWD-01: an adventurer (or a fighter) stands on the portal: it comes in beside.
        visitor.pos = stepping.free_tile_near(world, visitor, portal)
    world.beings[visitor.id] = visitor
    world.emit(
        Event(
            "visitor.arrived",
            (),
            {
                "visitor": visitor.id,
                "kind": visitor.kind,
                "breed": breed,
                "side": visitor.side().value,
                "attributes": visitor.attributes.to_json(),
                "at": [visitor.pos.x, visitor.pos.y],
            },
        )
    )
    _next_leg(world, visitor)
    return visitor


def _next_leg(world: World, visitor: Creature | Merchant) -> None:
    while visitor.route:
        if movement.walk_to(world, visitor, visitor.route[0]):
            return
        visitor.route.pop(0)  # no way there (any more): skip it
    home = visitor.portal
    if home is None or visitor.pos == home or not movement.walk_to(world, visitor, home):
        leave(world, visitor)  # back at its portal (or no way back): it leaves the map


@movement.arrival(Being)
def on_arrival(world: World, being: Being) -> None:
    if not isinstance(being, Creature | Merchant) or being.lair is not None:
        return
    if being.route and being.pos == being.route[0]:
        being.route.pop(0)
    _next_leg(world, being)


@movement.blocked(Being)
def on_blocked(world: World, being: Being) -> None:
    if isinstance(being, Creature | Merchant) and being.lair is None:
        _next_leg(world, being)


def leave(world: World, visitor: Being) -> None:
    movement.stop(world, visitor)
    visitor.present = False
    work.being_gone(world, visitor.id)
    world.emit(Event("visitor.left", (), {"visitor": visitor.id}))


def settle(world: World, creature: Creature, lair: str) -> None:
    """K-OWN-04: the creature moves into one of your lairs and joins your dungeon."""
    if lair not in world.lairs:
        raise VisitError(f"no lair named {lair!r}; lairs: {', '.join(world.lairs) or 'none'}")
    movement.stop(world, creature)
    creature.lair = lair
    creature.home = world.lairs[lair]
    creature.route = []
    world.emit(Event("creature.settled", ("K-OWN-04",), {"creature": creature.id, "lair": lair}))
    movement.walk_to(world, creature, world.lairs[lair])
