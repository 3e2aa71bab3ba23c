"""Building on site, placement rules, moving and removing structures.

K-BUILD-01: triggers, mechanisms, locks (and every other structure) are built where they
will stand. The keeper's order reserves the metal at the stockpile and opens a site;
minions carry the metal there; then a Traps-job minion does the work and its Craft roll
sets the quality grade (ruling R-K-DICE-01). Placement is refused when a trigger would
stand closer than 3 tiles to another (K-TRAP-04, ruling R-K-DIST-01) or when a solid
structure would cut the last walking path from an edge portal to the sanctum, locked
doors counting as open (K-PATH-01). Moving keeps a part's rearm state (K-REARM-07).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from undercroft.core.checks import Grade
from undercroft.core.events import Event
from undercroft.core.grid import DoorState, Pos, Terrain
from undercroft.core.paths import DoorPassage
from undercroft.keep.rules import doors, movement, traps
from undercroft.keep.rules.work import add_task, cancel_for
from undercroft.keep.state.actors import Minion
from undercroft.keep.state.structures import (
    Barricade,
    Door,
    Lock,
    Mechanism,
    Site,
    Structure,
    Timer,
    TrapPart,
    Trigger,
)
from undercroft.keep.state.tasks import Task, TaskKind

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


class PlacementError(ValueError):
    """A structure cannot go there; ``rules`` names the rule that forbids it."""

    def __init__(self, reason: str, rules: Iterable[str] = ()) -> None:
        self.reason = reason
        self.rules = tuple(rules)
        super().__init__(reason)


# -- placement rules -----------------------------------------------------------------------


def check_spacing(world: World, pos: Pos, *, ignore: str | None = None) -> None:
    """K-TRAP-04: no trigger closer than 3 whole tiles to another (R-K-DIST-01: distance 4)."""
    spacing = world.options.trigger_spacing
    others: list[Structure] = [t for t in world.of_type(Trigger) if t.id != ignore]
    others += [s for s in world.of_type(Site) if s.kind in world.ruleset.triggers]
    for other in others:
        distance = world.options.distance(pos, other.pos)
        if distance < spacing:
            raise PlacementError(
                f"K-TRAP-04: {other.id} at {other.pos} is {distance:g} tiles from {pos}; "
                f"triggers need at least {spacing - 1} tiles between them "
                f"({world.options.distance_metric} distance {spacing} or more)",
                ("K-TRAP-04", "R-K-DIST-01"),
            )


def keeps_a_path(world: World, solid: Iterable[Pos]) -> bool:
    """K-PATH-01: some edge portal still reaches the sanctum with ``solid`` blocked too.

    Locked doors count as open (DoorPassage.ALL); planned solid sites count as built.
    """
    planned = {s.pos for s in world.of_type(Site) if world.ruleset.is_solid(s.kind)}
    blocked = [*planned, *solid]
    if world.sanctum in blocked:
        return False
    finder = world.pathfinder(DoorPassage.ALL)
    for portal in world.portals:
        if portal in blocked:
            continue
        if finder.path(portal, world.sanctum, bodies=blocked) is not None:
            return True
    return False


def check_path(world: World, pos: Pos) -> None:
    if not keeps_a_path(world, [pos]):
        raise PlacementError(
            f"K-PATH-01: a solid structure at {pos} would cut the last walking path from an "
            "edge portal to the sanctum (locked doors count as open)",
            ("K-PATH-01", "R-K-PATH-01"),
        )


def _check_floor(world: World, pos: Pos, *, ignore: str | None = None) -> None:
    if not world.grid.in_bounds(pos):
        raise PlacementError(f"{pos} is off the map")
    if world.grid.terrain_at(pos) is not Terrain.FLOOR or world.grid.furniture[pos.y, pos.x]:
        raise PlacementError(f"{pos} is not open floor")
    here = world.structure_at(pos)
    if here is not None and here != ignore:
        raise PlacementError(f"{here} already stands at {pos}")
    if pos == world.sanctum or pos in world.portals:
        raise PlacementError(f"{pos} is the sanctum or an edge portal; build elsewhere")
    if world.stockpile is not None and pos == world.stockpile.pos:
        raise PlacementError(f"{pos} is the stockpile")


def check_placement(world: World, kind: str, pos: Pos, *, ignore: str | None = None) -> None:
    """Every placement rule for a structure of ``kind`` at ``pos`` (raises if refused)."""
    rules = world.ruleset
    if kind == "lock":
        door = world.door_at(pos)
        if door is None:
            raise PlacementError(f"a lock goes on a door; there is none at {pos}")
        pending = any(s.kind == "lock" and s.pos == pos for s in world.of_type(Site))
        if door.lock is not None or pending:
            raise PlacementError(f"{door.id} already has a lock")
        return
    _check_floor(world, pos, ignore=ignore)
    if kind in rules.triggers:
        check_spacing(world, pos, ignore=ignore)  # levers are triggers too (K-REARM-01)
    if rules.is_solid(kind):
        check_path(world, pos)


# -- ordering, carrying and building -------------------------------------------------------


def order(world: World, kind: str, pos: Pos, *, name: str | None = None, delay: int = 0) -> Site:
    """K-BUILD-01: open a building site, reserving its metal at the stockpile."""
    if kind not in world.ruleset.build_kinds():
        known = ", ".join(world.ruleset.build_kinds())
        raise PlacementError(f"unknown structure kind {kind!r}; known: {known}")
    check_placement(world, kind, pos)
    metal = world.ruleset.metal_for(kind)
    stock = world.stockpile
    if metal > 0 and (stock is None or stock.free < metal):
        have = 0 if stock is None else stock.free
        raise PlacementError(
            f"K-BUILD-01: {kind} needs {metal} metal and the stockpile has {have} to spare",
            ("K-BUILD-01",),
        )
    if stock is not None:
        stock.reserved += metal
    site = Site(world.new_id("site"), kind, pos, name=name, metal_needed=metal, delay=delay)
    door = world.door_at(pos)
    site.door = door.id if kind == "lock" and door is not None else None
    world.structures[site.id] = site
    if kind != "lock":
        world.index_structure(site)
    need_haul(world, site)
    return site


def need_haul(world: World, site: Site) -> None:
    """Post a load to carry if metal is still missing, or the build once it is all there."""
    missing = site.metal_needed - site.metal_delivered - site.metal_on_the_way
    if missing > 0:
        add_task(world, TaskKind.HAUL, site.id)
    elif site.metal_delivered >= site.metal_needed:
        add_task(world, TaskKind.BUILD, site.id)


def take_haul(world: World, task: Task, minion: Minion) -> bool:
    """A minion takes a load for this site (as much as it carries and the site still needs).

    False if the site needs nothing more carried (loads on the way cover it).
    """
    site = world.structure(task.target)
    assert isinstance(site, Site)
    missing = site.metal_needed - site.metal_delivered - site.metal_on_the_way
    if missing <= 0:
        return False
    task.load = min(minion.carry or 1, missing)
    site.metal_on_the_way += task.load
    need_haul(world, site)  # more to carry: another minion may help
    return True


def load(world: World, task: Task, minion: Minion) -> None:
    stock = world.stockpile
    assert stock is not None
    stock.metal -= task.load
    stock.reserved -= task.load
    minion.carrying = task.load


def deliver(world: World, task: Task, minion: Minion) -> None:
    site = world.structure(task.target)
    assert isinstance(site, Site)
    site.metal_on_the_way -= task.load
    site.metal_delivered += task.load
    minion.carrying = 0
    world.emit(
        Event(
            "metal.delivered",
            ("K-BUILD-01",),
            {"site": site.id, "minion": minion.id, "metal": task.load, "kind": site.kind},
        )
    )
    need_haul(world, site)


def drop_haul(world: World, task: Task, minion: Minion) -> None:
    """A haul given up: the load goes back to the stockpile, still reserved for the site."""
    site = world.structures.get(task.target)
    if isinstance(site, Site):
        site.metal_on_the_way -= task.load
    stock = world.stockpile
    if minion.carrying and stock is not None:
        stock.metal += minion.carrying
        stock.reserved += minion.carrying
    minion.carrying = 0
    if isinstance(site, Site):
        need_haul(world, site)


def complete(world: World, site: Site, minion: Minion) -> Structure:
    """The Traps-job minion finishes: its Craft roll sets the grade (R-K-DICE-01)."""
    model = world.options.dice_model
    roll = model.roll(world.rng, "craft", minion.attributes.craft)
    grade = model.grade_of(roll.natural, roll.total)
    world.emit(
        model.roll_event(
            ("K-BUILD-01", "R-K-DICE-01"),
            minion.id,
            roll,
            grade.value,
            site=site.id,
            kind=site.kind,
        )
    )
    world.structures.pop(site.id)
    world.unindex_structure(site)
    structure = place(
        world, site.kind, site.pos, quality=grade, name=site.name, delay=site.delay, door=site.door
    )
    world.emit(
        Event(
            "structure.built",
            ("K-BUILD-01",),
            {
                "structure": structure.id,
                "kind": structure.kind,
                "at": [structure.pos.x, structure.pos.y],
                "quality": grade.value,
                "minion": minion.id,
                "site": site.id,
            },
        )
    )
    if isinstance(structure, Lock):
        # K-LOCK-01: building a lock on a door locks it; a new lock starts armed.
        world.emit(
            Event(
                "lock.armed",
                ("K-LOCK-01",),
                {"door": structure.door, "lock": structure.id, "by": minion.id},
            )
        )
        doors.sync(world, world.door(structure.door))
    return structure


def place(
    world: World,
    kind: str,
    pos: Pos,
    *,
    quality: Grade = Grade.NORMAL,
    name: str | None = None,
    delay: int = 0,
    door: str | None = None,
    armed: bool = True,
) -> Structure:
    """Put a finished structure in the world (building, or a scenario's prebuilt ones)."""
    rules = world.ruleset
    structure: Structure
    if kind in rules.triggers:
        lever = rules.triggers[kind].lever
        structure = Trigger(world.new_id("trigger"), kind, pos, quality, name, lever=lever)
    elif kind in rules.mechanisms:
        structure = Mechanism(world.new_id("trap"), kind, pos, quality, name)
    elif kind == "timer":
        structure = Timer(world.new_id("timer"), kind, pos, quality, name, delay=delay)
    elif kind == "lock":
        target = world.door(door) if door else world.door_at(pos)
        assert target is not None
        structure = Lock(world.new_id("lock"), kind, target.pos, quality, name, door=target.id)
        structure.armed = armed
        target.lock = structure.id
        world.structures[structure.id] = structure
        doors.sync(world, target)  # K-LOCK-01: the door is locked from now on
    elif kind == "door":
        world.grid.set_terrain(pos, Terrain.DOOR, DoorState.CLOSED)
        structure = Door(world.new_id("door"), kind, pos, quality, name)
    elif kind == "barricade":
        world.grid.set_terrain(pos, Terrain.BLOCKAGE)
        structure = Barricade(world.new_id("barricade"), kind, pos, quality, name)
    else:
        raise PlacementError(f"unknown structure kind {kind!r}")
    world.structures[structure.id] = structure
    world.index_structure(structure)
    if isinstance(structure, TrapPart):
        structure.armed_at = world.now
        traps.start_clock(world, structure)  # K-DECAY-01: the 2 days start when it is built
    if isinstance(structure, Trigger | Door):
        movement.rescan(world)
    if rules.is_solid(kind):
        movement.tile_blocked(world, pos)
    return structure


# -- moving and removing -------------------------------------------------------------------


def move(world: World, structure: Structure, to: Pos) -> Pos:
    """Move a trap part or timer; K-REARM-07: its rearm state goes with it unchanged."""
    if not isinstance(structure, TrapPart | Timer):
        raise PlacementError(f"{structure.id} cannot be moved (only trap parts and timers)")
    check_placement(world, structure.kind, to, ignore=structure.id)
    old = structure.pos
    world.unindex_structure(structure)
    structure.pos = to
    world.index_structure(structure)
    if isinstance(structure, Trigger):
        movement.rescan(world)
    return old


def remove(world: World, structure: Structure) -> list[str]:
    """Take a structure or site away; its connections go with it. Returns removed wires."""
    if isinstance(structure, Door):
        raise PlacementError(f"{structure.id} is part of the map and cannot be removed")
    wires: list[str] = []
    if structure.role is not None:
        wires = world.wiring.detach(structure.id)
    cancel_for(world, structure.id)
    if isinstance(structure, Site):
        _refund(world, structure)
    if isinstance(structure, Lock):
        door = world.door(structure.door)
        door.lock = None
        world.structures.pop(structure.id)
        doors.sync(world, door)
        return wires
    if isinstance(structure, Barricade):
        world.grid.set_terrain(structure.pos, Terrain.FLOOR)
    world.structures.pop(structure.id)
    world.unindex_structure(structure)
    if isinstance(structure, Trigger) and structure.on:
        doors.release_disconnected(world, structure.id)
    movement.rescan(world)
    return wires


def _refund(world: World, site: Site) -> None:
    stock = world.stockpile
    if stock is None:
        return
    undelivered = site.metal_needed - site.metal_delivered
    stock.reserved -= undelivered - site.metal_on_the_way
    stock.metal += site.metal_delivered
