"""Walking: paths through the dungeon, the doors and trigger areas on the way, arrival.

A walk is planned once (core :class:`~undercroft.core.paths.Pathfinder`, orthogonal steps)
and not ticked: the world queues an item only for the tiles where something can happen (a
door to open, a trigger's area) and for the arrival, so a minion crossing an empty hall
costs two queue items whatever its length. Who may open which door decides the path
(K-LOCK-02: locked doors are walls to those who may not pass them).

What a walker does when it gets there, or finds its way blocked, belongs to the rules of
its kind: they register it here (:func:`arrival`, :func:`blocked`: the jobs rules for
minions, the visitors' for everyone else), so walking imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from undercroft.core.grid import Pos
from undercroft.core.paths import DoorPassage
from undercroft.keep.rules import doors, locks, stepping
from undercroft.keep.state.actors import Being, Walk
from undercroft.keep.state.clock import Priority, handles

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

B = TypeVar("B", bound=Being)
WalkEnd = Callable[["World", Any], None]
"""What a walker does at the end of its walk (arrived, or blocked on the way)."""

_ARRIVAL: dict[type[Being], WalkEnd] = {}
_BLOCKED: dict[type[Being], WalkEnd] = {}


def _registrar(
    table: dict[type[Being], WalkEnd], kind: type[B]
) -> Callable[[Callable[[World, B], None]], Callable[[World, B], None]]:
    def register(fn: Callable[[World, B], None]) -> Callable[[World, B], None]:
        table[kind] = fn
        return fn

    return register


def arrival(
    kind: type[B],
) -> Callable[[Callable[[World, B], None]], Callable[[World, B], None]]:
    """Register what a walker of ``kind`` (or a subclass without its own) does on arrival."""
    return _registrar(_ARRIVAL, kind)


def blocked(
    kind: type[B],
) -> Callable[[Callable[[World, B], None]], Callable[[World, B], None]]:
    """Register what a walker of ``kind`` does when its way is blocked."""
    return _registrar(_BLOCKED, kind)


def _walk_end(table: dict[type[Being], WalkEnd], world: World, being: Being) -> None:
    for kind in type(being).__mro__:
        handler = table.get(kind)
        if handler is not None:
            handler(world, being)
            return


def passage_for(being: Being) -> DoorPassage:
    """K-LOCK-02: those who may pass locks walk through every door; others only unlocked."""
    return DoorPassage.ALL if locks.may_pass_locks(being) else DoorPassage.UNLOCKED


def path_for(world: World, being: Being, goal: Pos) -> list[Pos] | None:
    """The shortest walk for this being from where it stands to ``goal``."""
    return world.pathfinder(passage_for(being)).path(being.pos, goal)


def path_to_reach(world: World, being: Being, enemy_id: str, goal: Pos) -> list[Pos] | None:
    """A path to get at an enemy: K-LOCK-03 decides whether closed doors may be opened.

    A minion ordered to attack that enemy and the Master open doors (locked ones too,
    K-LOCK-02); anyone else goes only through doors already open.
    """
    opens = locks.may_open_to_reach(being, enemy_id)
    passage = DoorPassage.ALL if opens else DoorPassage.OPEN_ONLY
    return world.pathfinder(passage).path(being.pos, goal)


def walk_to(world: World, being: Being, goal: Pos, *, adjacent: bool = False) -> bool:
    """Start walking to ``goal`` (or to a tile beside it); False if there is no way."""
    stop(world, being)
    if being.pos == goal or (adjacent and being.pos.manhattan(goal) <= 1):
        begin(world, being, [])
        return True
    path = path_for(world, being, goal)
    if path is None:
        return False
    begin(world, being, path[:-1] if adjacent else path)
    return True


def begin(world: World, being: Being, path: list[Pos]) -> None:
    """Set off along ``path`` now."""
    being.walk_gen += 1
    being.walk = Walk(list(path), world.now, being.pace, being.pos)
    _schedule(world, being, 1)


def crowded(world: World) -> bool:
    """Someone stands tile by tile (an invasion is on, or a fight): planned walks then
    look at every tile before stepping into it (K-CROWD-01)."""
    return bool(world.bodies) or world.invasion.director.phase == "under_way"


def _schedule(world: World, being: Being, first: int) -> None:
    walk = being.walk
    assert walk is not None
    zones = world.trigger_zones()
    every = crowded(world)
    for i in range(first, len(walk.path) + 1):
        tile = walk.path[i - 1]
        if every or tile in zones or world.door_at(tile) is not None:
            minute = walk.start + i * walk.pace
            world.schedule(minute, Priority.STEP, "step", being.id, being.walk_gen, i)
    world.schedule(walk.arrival(), Priority.ARRIVE, "arrive", being.id, being.walk_gen)


def stop(world: World, being: Being) -> None:
    """Stop where the walker stands now (its queued steps become stale)."""
    if being.walk is not None:
        being.pos = being.walk.pos_at(world.now)
        being.walk = None
    being.walk_gen += 1


def rescan(world: World) -> None:
    """Doors or triggers changed: requeue the steps ahead of everyone walking."""
    for being in list(world.present()):
        walk = being.walk
        if walk is None:
            continue
        done = (world.now - walk.start) // walk.pace
        being.walk_gen += 1
        _schedule(world, being, done + 1)


def tile_blocked(world: World, pos: Pos) -> None:
    """A tile became solid (a barricade finished): walkers whose way crosses it re-plan.

    A planned walk is not ticked, so nothing else would notice that the way ahead is gone;
    each walker stops where it stands and walks to the same place by another way (or, with
    none left, is blocked, as at a locked door).
    """
    for being in list(world.present()):
        walk = being.walk
        if walk is None:
            continue
        done = max(0, (world.now - walk.start) // walk.pace)
        if pos not in walk.path[done:]:
            continue
        goal = walk.path[-1]
        stop(world, being)
        if not walk_to(world, being, goal):
            _blocked(world, being)


@handles("step")
def on_step(world: World, args: tuple[Any, ...]) -> None:
    """A walker enters a door's tile or a trigger's area."""
    being_id, gen, index = str(args[0]), int(args[1]), int(args[2])
    being = world.beings.get(being_id)
    if being is None or being.walk is None or being.walk_gen != gen:
        return
    walk = being.walk
    tile = walk.path[index - 1]
    before = walk.path[index - 2] if index >= 2 else walk.origin
    if tile != before and _taken(world, being, tile):
        _make_way(world, being, walk, index, before)
        return
    door = world.door_at(tile)
    if door is not None and not doors.pass_through(world, door, being):
        being.pos = walk.path[index - 2] if index >= 2 else walk.origin
        being.walk = None
        being.walk_gen += 1
        _blocked(world, being)
        return
    for trigger_id in list(world.trigger_zones().get(tile, ())):
        stepping.enters(world, trigger_id, being)


def _taken(world: World, being: Being, tile: Pos) -> bool:
    """K-CROWD-01: someone stands there tile by tile (an adventurer, a fighter) with no
    room beside it for this walker (two kobolds may share, K-CROWD-02)."""
    return not stepping.room_for(world, being, tile)


def _make_way(world: World, being: Being, walk: Walk, index: int, before: Pos) -> None:
    """The next tile is taken (K-CROWD-01): the walker stays where it was and goes round
    the one standing there, or, with no way round, waits a pace and tries again."""
    rest = walk.path[index - 1 :]
    being.pos = before
    being.walk = None
    being.walk_gen += 1
    goal = walk.path[-1]
    around = None
    if goal != rest[0]:
        around = world.pathfinder(passage_for(being)).path(before, goal, bodies=[rest[0]])
    if around is not None and len(around) <= len(rest) + _DETOUR:
        begin(world, being, around)
    else:
        begin(world, being, [before, *rest])


_DETOUR = 6
"""A walker goes round someone in its way if that is at most this many tiles longer;
otherwise it waits for the tile."""
DETOUR = _DETOUR


def next_tile(world: World, being: Being) -> tuple[Pos, int] | None:
    """Where a planned walk steps next and the minute it does; None if it is not walking
    or has no step left."""
    walk = being.walk
    if walk is None:
        return None
    done = max(0, (world.now - walk.start) // walk.pace)
    if done >= len(walk.path):
        return None
    return walk.path[done], walk.start + (done + 1) * walk.pace


def pass_by(world: World, being: Being, to: Pos) -> None:
    """K-CROWD-01 (ruling R-K-MOVE-01): a walker and an adventurer who want each other's
    tile pass each other: the walker is on ``to`` (its next tile) now and walks on from
    there, setting off what watches that tile as a step would."""
    walk = being.walk
    assert walk is not None
    done = max(0, (world.now - walk.start) // walk.pace)
    rest = walk.path[done + 1 :]
    stop(world, being)
    being.pos = to
    begin(world, being, rest)
    for trigger_id in list(world.trigger_zones().get(to, ())):
        stepping.enters(world, trigger_id, being)


@handles("arrive")
def on_arrive(world: World, args: tuple[Any, ...]) -> None:
    being_id, gen = str(args[0]), int(args[1])
    being = world.beings.get(being_id)
    if being is None or being.walk is None or being.walk_gen != gen:
        return
    walk = being.walk
    being.pos = walk.path[-1] if walk.path else walk.origin
    being.walk = None
    if being.terror_until > world.now:
        return  # K-TRAP-03: it fled here; it stays until the terror ends
    arrived(world, being)


def arrived(world: World, being: Being) -> None:
    """A walker is where its walk was going: its work or its visit goes on."""
    _walk_end(_ARRIVAL, world, being)


def _blocked(world: World, being: Being) -> None:
    _walk_end(_BLOCKED, world, being)
