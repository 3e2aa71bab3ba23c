"""The ways adventurers choose (K-CAUT-01, K-DOOR-01, K-FORCE-04, K-PATH-01; R-K-MOVE-01).

An adventurer's way to where it is going is the cheapest walk, in orthogonal steps, over a
cost map: a floor tile costs 1, wading water more; every door is passable, a locked one at
a cost (it must be picked or bashed, K-PATH-01 promises it can be); a door its group chose
to go round (K-DOOR-01) costs :data:`DETOUR`, one it gave up on (K-FORCE-04) cannot be
passed; the tiles a trigger it knows watches cost :data:`AVOID` (K-CAUT-01: it walks round
a known trigger when it can, which any way short of a thousand tiles is), except a known
tripwire it steps over (ruling R-K-CAUT-01) and triggers its group has dealt with.

The search is python-tcod's Dijkstra (its ``Pathfinder``) from the goal tiles (several
goal tiles: the tiles by the Master, every treasure pile) and a hill-climb from the
walker; the distance map is
cached per (map epoch, group decisions, goals, avoided triggers), so a group whose members
know the same serves them all from one search.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import tcod.path
from numpy.typing import NDArray

from undercroft.core.grid import DoorState, Pos, Terrain
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import Group
from undercroft.keep.state.structures import Trigger

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

AVOID = 1000
"""K-CAUT-01: the cost of a tile a known trigger watches (walk round it when one can)."""
DETOUR = 500
"""K-DOOR-01: the cost of a door the group chose to go round (taken if it is the only way)."""
_CACHE_SIZE = 64
_UNREACHED = np.iinfo(np.int32).max


def route_version(world: World) -> int:
    """Changes when the cost map does (a door opening or closing does not change it: every
    door is passable; a lock armed or disarmed, a barricade built, does)."""
    base_costs(world)
    return world.invasion.route_version


def base_costs(world: World) -> NDArray[np.int32]:
    """Floor 1, water its wading time in tiles, doors passable, locked ones at a cost."""
    cache = world.cached("route-base")
    found: NDArray[np.int32] | None = cache.get("costs")
    if found is not None:
        return found
    found = _base_costs(world)
    digest = hashlib.blake2b(found.tobytes(), digest_size=8).hexdigest()
    if digest != world.invasion.route_digest:  # (saved: a loaded world plans as before)
        world.invasion.route_version += 1
        world.invasion.route_digest = digest
    cache["costs"] = found
    return found


def _base_costs(world: World) -> NDArray[np.int32]:
    grid = world.grid
    content = world.ruleset.adventurers
    costs: NDArray[np.int32] = np.ones(grid.terrain.shape, np.int32)
    costs[world.solid()] = 0
    wade = max(1, -(-content.water_seconds // 60))
    costs[grid.water & (costs > 0)] = wade
    locked = (grid.terrain == Terrain.DOOR) & (grid.door == DoorState.LOCKED)
    costs[locked] = 1 + content.locked_door_cost
    return costs


def steps_over(world: World, trigger: Trigger) -> bool:
    """Ruling R-K-CAUT-01: a known tripwire (either kind, K-LEARN-02) is stepped over."""
    return world.ruleset.triggers[trigger.kind].learn_type == "tripwire"


def avoided_triggers(world: World, adv: Adventurer, group: Group) -> tuple[str, ...]:
    """The known triggers whose tiles this adventurer walks round when it can."""
    out = []
    walk_round_tripwires = world.options.known_tripwires == "walk_around"
    for trigger_id in adv.knows:
        trigger = world.structures.get(trigger_id)
        if not isinstance(trigger, Trigger) or trigger.lever or trigger_id in group.disarmed:
            continue
        if steps_over(world, trigger) and not walk_round_tripwires:
            continue
        out.append(trigger_id)
    return tuple(sorted(out))


def watched_tiles(world: World, trigger: Trigger) -> list[Pos]:
    """The tiles a trigger watches (R-K-TRAP-01)."""
    area = world.ruleset.triggers[trigger.kind].area
    tiles = []
    for dy in range(-area, area + 1):
        for dx in range(-area, area + 1):
            p = trigger.pos.offset(dx, dy)
            if world.grid.in_bounds(p) and world.options.within(p, trigger.pos, area):
                tiles.append(p)
    return tiles


def _costs(
    world: World, group: Group, avoid: tuple[str, ...], blocked_door: str | None
) -> NDArray[np.int32]:
    costs = base_costs(world).copy()
    for trigger_id in avoid:
        trigger = world.structures[trigger_id]
        assert isinstance(trigger, Trigger)
        for p in watched_tiles(world, trigger):
            if costs[p.y, p.x]:
                costs[p.y, p.x] += AVOID
    for door_id, choice in group.doors.items():
        door = world.structures.get(door_id)
        if choice == "alternate" and door is not None:
            costs[door.pos.y, door.pos.x] += DETOUR
    for door_id in (*group.given_up, *([blocked_door] if blocked_door else [])):
        door = world.structures.get(door_id)
        if door is not None:
            costs[door.pos.y, door.pos.x] = 0
    return costs


def distances(
    world: World,
    group: Group,
    goals: Iterable[Pos],
    avoid: tuple[str, ...],
    blocked_door: str | None = None,
    bodies: Iterable[Pos] = (),
) -> NDArray[np.int32]:
    """Cost to reach the nearest goal tile from every tile (cached unless ``bodies``)."""
    goal_list = sorted(set(goals))
    body_list = sorted(set(bodies) - set(goal_list))
    cache = world.cached("routes", route_version(world))
    key = (group.number, group.plan_version, tuple(goal_list), avoid, blocked_door)
    found: NDArray[np.int32] | None = None if body_list else cache.get(key)
    if found is not None:
        return found
    costs = _costs(world, group, avoid, blocked_door)
    for p in body_list:
        costs[p.y, p.x] = 0
    # tcod's Pathfinder rather than dijkstra2d: the same distances, and dijkstra2d (21.2.2)
    # keeps about 4 KB each call it never frees, which a long run of invasions would feel.
    finder = tcod.path.Pathfinder(tcod.path.SimpleGraph(cost=costs, cardinal=1, diagonal=0))
    for p in goal_list:
        finder.add_root((p.y, p.x))
    finder.resolve()
    dist: NDArray[np.int32] = np.array(finder.distance, dtype=np.int32)
    if not body_list:
        if len(cache) > _CACHE_SIZE:
            cache.clear()
        cache[key] = dist
    return dist


def _avoided_tiles(world: World, avoid: tuple[str, ...]) -> frozenset[Pos]:
    cache = world.cached("avoided-tiles", world.structure_version)
    found: frozenset[Pos] | None = cache.get(avoid)
    if found is None:
        tiles: set[Pos] = set()
        for trigger_id in avoid:
            trigger = world.structures[trigger_id]
            assert isinstance(trigger, Trigger)
            tiles.update(watched_tiles(world, trigger))
        found = cache[avoid] = frozenset(tiles)
    return found


def _climb(dist: NDArray[np.int32], start: Pos) -> list[Pos] | None:
    if dist[start.y, start.x] == _UNREACHED:
        return None
    if dist[start.y, start.x] == 0:
        return []
    steps = tcod.path.hillclimb2d(dist, (start.y, start.x), True, False)
    return [Pos(int(x), int(y)) for y, x in steps[1:]]


def way(
    world: World,
    adv: Adventurer,
    group: Group,
    goals: Iterable[Pos],
    *,
    blocked_door: str | None = None,
    bodies: Iterable[Pos] = (),
) -> list[Pos] | None:
    """The tiles to step into from where ``adv`` stands to the nearest goal, or None.

    The group's way (no trigger avoided) is searched once for all its members; a member
    searches its own only when that way crosses a tile it would walk round: the group's
    way is otherwise already the cheapest for it (avoiding only adds costs).
    """
    goal_list = list(goals)
    body_list = list(bodies)
    shared = _climb(distances(world, group, goal_list, (), blocked_door, body_list), adv.pos)
    avoid = avoided_triggers(world, adv, group)
    if shared is None or not avoid:
        return shared
    tiles = _avoided_tiles(world, avoid)
    if not any(p in tiles for p in shared):
        return shared
    return _climb(distances(world, group, goal_list, avoid, blocked_door, body_list), adv.pos)
