"""Walking tile by tile (ruling R-K-MOVE-01): the movement model of an invasion.

Planned walks (:mod:`undercroft.keep.rules.movement`) stay what quiet days run on: a walk is
planned once and only its doors, trigger areas and arrival are queued. Adventurers cannot
walk like that: they must re-plan when the map changes under them, when a door closes in
front of them or their knowledge of your triggers changes (K-CAUT-01), notice who is
around them (K-ARR-03, K-PERC-01), stop at locked doors to pick or bash them (K-FORCE-01)
and keep to one body per tile (the model K-CROWD-01 needs). So while an invasion is on,
each adventurer is a queue item per tile, due at a *tick* (a 600th of a minute) so that a
pace 20% slower is exact (K-CAUT-03).

This module holds the primitives: the pace, queueing the next step, who stands where, and
waiting for a tile to free up. One body per tile: a walker whose next tile is taken waits
until it is free (it is woken when the tile empties, or looks again after a while); two
walkers who each want the other's tile pass each other, and a group's worker on its way to
a door passes its waiting groupmates (they swap tiles), so one body per tile always holds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from undercroft.core.grid import Pos
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import doors
from undercroft.keep.state.actors import Being, Condition
from undercroft.keep.state.clock import Priority
from undercroft.keep.state.invaders import Adventurer, Whereabouts

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

CAUTION_PACE = (6, 5)
"""K-CAUT-03: in Caution a member moves 20% slower: each tile takes 6/5 of the time."""
LOOK_AGAIN = 5 * TICKS_PER_MINUTE
"""A waiting walker that nobody woke looks again after 5 minutes."""


Tread = Callable[["World", str, Being], None]

_TREAD: list[Tread] = []
"""What a walker stepping into a trigger's area sets off: registered by
:mod:`undercroft.keep.rules.traps` (R-K-TRAP-01), so that walking (planned walks, fighters,
adventurers) imports none of the trap rules, whose effects make beings walk."""


def treads(fn: Tread) -> Tread:
    """Register what a walker entering a trigger's area does (the trap rules do, once)."""
    _TREAD[:] = [fn]
    return fn


def enters(world: World, trigger_id: str, being: Being) -> None:
    """A walker steps into a trigger's area (R-K-TRAP-01), by the registered trap rule."""
    if not _TREAD:
        raise RuntimeError("undercroft.keep.rules.traps is not loaded: no trigger can go off")
    _TREAD[0](world, trigger_id, being)


def _key(pos: Pos) -> str:
    return f"{pos.x},{pos.y}"


def step_ticks(world: World, adv: Adventurer, into: Pos, caution: bool) -> int:
    """The time to step into ``into``: the pace (wading water is slower), 6/5 in Caution."""
    ticks = adv.ticks_per_tile
    if world.grid.water[into.y, into.x]:
        ticks = max(ticks, world.ruleset.adventurers.water_seconds * TICKS_PER_MINUTE // 60)
    if caution:
        num, den = CAUTION_PACE
        ticks = ticks * num // den + (1 if ticks * num % den else 0)
    return ticks


def queue_step(world: World, adv: Adventurer, after: int = 0) -> None:
    """Queue the walker's next step ``after`` ticks from now (any older one goes stale)."""
    adv.step_gen += 1
    adv.next_at = world.tick + after
    world.schedule_tick(adv.next_at, Priority.ADVENTURER, "adventurer", adv.id, adv.step_gen)


def queue_work(world: World, adv: Adventurer, after: int, token: int) -> None:
    """Queue the end of a piece of work ``after`` ticks from now."""
    adv.step_gen += 1
    world.schedule_tick(
        world.tick + after, Priority.ADVENTURER, "adventurer_work", adv.id, adv.step_gen, token
    )


def occupant(world: World, pos: Pos) -> str | None:
    """Who holds ``pos`` for an adventurer: a body stepping tile by tile, or one of your
    beings standing there out of a fight (K-CROWD-01)."""
    return world.bodies.get(pos) or standing(world, pos)


_KEEP_IDS = ("minion", "creature", "merchant")
"""The id prefixes of everyone who is not an adventurer (besides ``master``)."""


def _others(world: World) -> list[Being]:
    """Everyone who is not an adventurer (your Master, minions and creatures, visitors):
    few, listed again only when one comes (their ids are never reused, and adventurers,
    the many, are left out)."""
    key = (*(world.counters.get(k, 0) for k in _KEEP_IDS), "master" in world.beings)
    cache = world.cached("others", key)
    found: list[Being] | None = cache.get("list")
    if found is None:
        found = [b for b in world.beings.values() if not isinstance(b, Adventurer)]
        cache["list"] = found
    return found


def _stands(being: Being) -> bool:
    return (
        being.present
        and not being.fighting
        and being.condition is Condition.UP
        and being.carried_by is None
    )


def standing(world: World, pos: Pos, but: str | None = None) -> str | None:
    """K-CROWD-01 (ruling R-K-MOVE-01): one of your beings (or a visitor) up on ``pos`` out
    of a fight: standing still, working, or walking through it this minute (the least id if
    several: your own beings may share a tile out of a fight); never ``but``."""
    here = standing_on(world, pos, but)
    return here[0] if here else None


def standing_on(world: World, pos: Pos, but: str | None = None) -> list[str]:
    """All of those (see :func:`standing`) on ``pos``, by id."""
    return sorted(
        b.id for b in _others(world) if b.id != but and _stands(b) and b.pos_at(world.now) == pos
    )


def standing_still(world: World) -> list[Pos]:
    """The tiles of your beings (and visitors) up out of a fight and not walking: those
    one goes round rather than waits for (K-CROWD-01), in a fixed order."""
    return sorted({b.pos for b in _others(world) if _stands(b) and b.walk is None})


def tile_by_tile(being: Being) -> bool:
    """An adventurer or a fighter: it keeps one body per tile against everyone (K-CROWD-01);
    your beings out of a fight keep off only those (and may pass each other)."""
    return isinstance(being, Adventurer) or being.fighting


def place(world: World, adv: Adventurer, pos: Pos) -> None:
    """The walker is on the map at ``pos`` (walking in, or a prisoner in its cell)."""
    adv.pos = pos
    adv.waiting_on = None
    world.bodies[pos] = adv.id


def move(world: World, adv: Adventurer, to: Pos) -> None:
    """One step: leave the tile (waking whoever waits for it), take the next."""
    old = adv.pos
    if world.bodies.get(old) == adv.id:
        del world.bodies[old]
    adv.pos = to
    adv.waiting_on = None
    world.bodies[to] = adv.id
    wake(world, old)
    left_doorway(world, old, adv.id)


def left_doorway(world: World, pos: Pos, by: str) -> None:
    """A doorway someone stood in is empty: its door closes if it rests closed."""
    door = world.door_at(pos)
    if door is not None and door.open and pos not in world.bodies:
        doors.step_out(world, door, by)


def swap(world: World, a: Adventurer, b: Adventurer) -> None:
    """Two walkers pass each other: each takes the other's tile."""
    a.pos, b.pos = b.pos, a.pos
    a.waiting_on = b.waiting_on = None
    world.bodies[a.pos] = a.id
    world.bodies[b.pos] = b.id


def lift(world: World, adv: Adventurer) -> None:
    """The walker leaves the map (out at a portal) or falls: its tile is free."""
    if world.bodies.get(adv.pos) == adv.id:
        del world.bodies[adv.pos]
    wake(world, adv.pos)
    left_doorway(world, adv.pos, adv.id)


def follow(world: World, adv: Adventurer, ahead: Adventurer) -> bool:
    """Behind a walker that is on its way: step again just after its next step (instead
    of waiting to be woken); False if it is not on its way."""
    walking = ahead.busy is None and ahead.waiting_on is None and bool(ahead.path)
    if not walking or ahead.where is not Whereabouts.IN or ahead.next_at <= world.tick:
        return False
    queue_step(world, adv, ahead.next_at - world.tick + 1)
    return True


def wait_for(world: World, adv: Adventurer, pos: Pos, look_again: int = LOOK_AGAIN) -> None:
    """Wait until ``pos`` is free (woken then), looking again after a while anyway."""
    waiting = world.invasion.waiting.setdefault(_key(pos), [])
    if adv.id not in waiting:
        waiting.append(adv.id)
    adv.waiting_on = pos
    queue_step(world, adv, look_again)


def wake(world: World, pos: Pos) -> None:
    """``pos`` is free (or its door open): whoever waits for it steps again, in order."""
    waiting = world.invasion.waiting.pop(_key(pos), None)
    for i, adv_id in enumerate(waiting or ()):
        adv = world.beings.get(adv_id)
        walking = (Whereabouts.IN, Whereabouts.OUTSIDE)
        if not isinstance(adv, Adventurer) or adv.where not in walking or adv.busy is not None:
            continue
        if adv.waiting_on == pos:  # still waiting for this tile (not moved on meanwhile)
            adv.waiting_on = None
            queue_step(world, adv, 1 + i)


def occupants(world: World, pos: Pos) -> list[str]:
    """Who stands on ``pos`` in the fight's sense (one body, or two kobolds), by id."""
    first = world.bodies.get(pos)
    if first is None:
        return []
    second = world.shared.get(pos)
    return sorted((first, second)) if second is not None else [first]


def _sharer(world: World, being_id: str) -> bool:
    """K-CROWD-02: kobolds (the content's ``per_tile = 2``) can fight two to a tile."""
    being = world.beings.get(being_id)
    if being is None or being.kind != "minion":
        return False
    kind = world.ruleset.minions.get(being.breed)
    return kind is not None and kind.per_tile >= 2


def room_for(world: World, being: Being, pos: Pos) -> bool:
    """K-CROWD-01/02: one body per tile in a fight, except two kobolds; for an adventurer
    or a fighter, one of your beings standing there out of a fight is a body too."""
    held = occupants(world, pos)
    if being.id in held:
        return True
    if tile_by_tile(being):
        held += standing_on(world, pos, being.id)
    if not held:
        return True
    return len(held) == 1 and _sharer(world, held[0]) and _sharer(world, being.id)


def occupy(world: World, being: Being, pos: Pos) -> None:
    """``being`` takes its body's place on ``pos`` (a fighter stepping in)."""
    being.pos = pos
    if world.bodies.get(pos) in (None, being.id):
        world.bodies[pos] = being.id
    else:
        world.shared[pos] = being.id


def vacate(world: World, being: Being) -> None:
    """``being`` leaves its tile (waking whoever waits for it)."""
    pos = being.pos
    if world.shared.get(pos) == being.id:
        del world.shared[pos]
    elif world.bodies.get(pos) == being.id:
        second = world.shared.pop(pos, None)
        if second is None:
            del world.bodies[pos]
        else:
            world.bodies[pos] = second
    wake(world, pos)
    left_doorway(world, pos, being.id)


def move_body(world: World, being: Being, to: Pos) -> None:
    """One step of a being in a fight."""
    vacate(world, being)
    occupy(world, being, to)


def free_tile_near(world: World, being: Being, pos: Pos) -> Pos:
    """The nearest walkable tile from ``pos`` with room for ``being`` (``pos`` itself if
    it has room): one body per tile holds when someone joins a fight or wakes."""
    solid = world.solid()
    seen = {pos}
    todo = deque([pos])
    while todo:
        p = todo.popleft()
        if not solid[p.y, p.x] and room_for(world, being, p):
            return p
        for q in world.grid.neighbours(p):
            if q not in seen and not solid[q.y, q.x]:
                seen.add(q)
                todo.append(q)
    return pos


def rebuild_bodies(world: World) -> None:
    """Who stands where (after loading a save): adventurers on the map and up, prisoners
    in their cells, and your beings in a fight (two kobolds may share a tile)."""
    world.bodies = {}
    world.shared = {}
    for b in world.beings.values():
        if isinstance(b, Adventurer):
            standing = (b.where is Whereabouts.IN and b.condition is Condition.UP) or (
                b.where is Whereabouts.PRISONER
            )
        else:
            standing = b.fighting and b.present and b.condition is Condition.UP
        if standing:
            if b.pos in world.bodies:
                world.shared[b.pos] = b.id
            else:
                world.bodies[b.pos] = b.id
