"""Caution (K-CAUT-02..04) and the gas that takes its bonus away (K-LEARN-06).

A group enters Caution when a member sets off a trap, or enters a corridor 1 tile wide,
or sees old blood or burn remains (once per area) (K-CAUT-02). In Caution each member moves
20% slower (K-CAUT-03, :data:`undercroft.keep.rules.stepping.CAUTION_PACE`) and gains +1 to
discover, disarm and resist traps; +2 once a member sets off a trap while the group is
already in Caution. Caution lasts until the group's next combat (a member attacking or
attacked). A group in Caution that discovers a trap leaves Caution, and from then on
corridors no longer put it in Caution (K-CAUT-04). Inside a gas sprayer's gas an
adventurer loses the Caution bonus (K-LEARN-06).

Ruling R-K-CAUT-02: a corridor 1 tile wide is a floor tile (not a door) with impassable
tiles on two opposite sides; remains are left where a mechanism whose effect the content
lists (wounds, spiders) caught someone, and are "old" to groups that arrived after; their
area is the map's named area, or the remains' own tile on a map without areas; a group
sees them as it sees anything (K-PERC-01).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from undercroft.core.events import Event
from undercroft.core.grid import Pos, Terrain
from undercroft.keep.rules.perception import sees
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import Group

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def in_gas(world: World, pos: Pos) -> bool:
    """K-LEARN-06: ``pos`` is inside a gas sprayer's gas now."""
    return any(
        cloud["until"] > world.now
        and world.options.within(pos, Pos(*cloud["at"]), int(cloud["area"]))
        for cloud in world.invasion.gas
    )


def bonus(world: World, adv: Adventurer, group: Group) -> int:
    """K-CAUT-03, K-LEARN-06: +1/+2 to discover, disarm, resist traps; none in gas."""
    if group.caution == 0 or (world.invasion.gas and in_gas(world, adv.pos)):
        return 0
    return group.caution


def _set(world: World, group: Group, level: int, reason: str, rules: tuple[str, ...]) -> None:
    if group.caution == level:
        return
    group.caution = level
    world.emit(
        Event("group.caution", rules, {"group": group.number, "caution": level, "reason": reason})
    )


def trap_set_off(world: World, group: Group) -> None:
    """K-CAUT-02/03: a member set off a trap: Caution, or +2 if already in Caution."""
    level = 2 if group.caution else 1
    _set(world, group, level, "trap", ("K-CAUT-02", "K-CAUT-03"))


def combat(world: World, group: Group) -> None:
    """K-CAUT-03: Caution lasts until the group's next combat."""
    if group.caution:
        _set(world, group, 0, "combat", ("K-CAUT-03",))


def discovered(world: World, group: Group) -> None:
    """K-CAUT-04: a group in Caution that discovers a trap leaves Caution for good of
    corridors."""
    if group.caution:
        group.corridors_calm = True
        _set(world, group, 0, "discovered", ("K-CAUT-04",))


def corridors(world: World) -> NDArray[np.bool_]:
    """Ruling R-K-CAUT-02: floor tiles with impassable tiles on two opposite sides, next to
    another such tile along the way through (a gap in a wall is a doorway, not a corridor)."""
    cache = world.cached("corridors", world.ground())
    found: NDArray[np.bool_] | None = cache.get("map")
    if found is None:
        grid = world.grid
        blocked = np.pad(grid.solid(), 1, constant_values=True)
        north, south = blocked[:-2, 1:-1], blocked[2:, 1:-1]
        west, east = blocked[1:-1, :-2], blocked[1:-1, 2:]
        floor = ~grid.solid() & (grid.terrain != Terrain.DOOR)
        across = np.pad(floor & north & south, 1)  # walls above and below: runs east-west
        along = np.pad(floor & west & east, 1)  # walls left and right: runs north-south
        found = (across[1:-1, 1:-1] & (across[1:-1, :-2] | across[1:-1, 2:])) | (
            along[1:-1, 1:-1] & (along[:-2, 1:-1] | along[2:, 1:-1])
        )
        cache["map"] = found
    return found


def after_step(world: World, adv: Adventurer, group: Group) -> None:
    """K-CAUT-02: a corridor 1 tile wide, or old remains in sight, bring Caution."""
    pos = adv.pos
    if not group.caution and not group.corridors_calm and corridors(world)[pos.y, pos.x]:
        _set(world, group, 1, "corridor", ("K-CAUT-02", "R-K-CAUT-02"))
    if group.caution:
        return  # remains could not put it in Caution now (the area is not spent)
    for remains in world.invasion.remains:
        if remains["minute"] >= group.arrived:
            continue  # not old to this group
        at = Pos(*remains["at"])
        area = _area_of(world, at)
        if area in group.remains_areas:
            continue
        if sees(world, pos, at, adv.attributes.stalk):
            group.remains_areas.append(area)
            _set(world, group, 1, "remains", ("K-CAUT-02", "R-K-CAUT-02"))
            return


def _area_of(world: World, pos: Pos) -> str:
    index = int(world.grid.area[pos.y, pos.x])
    return world.grid.areas[index].name if index >= 0 else f"{pos.x},{pos.y}"


def leave_remains(world: World, at: Pos, mechanism: str, invasion: int) -> None:
    """Ruling R-K-CAUT-02: someone was hurt here; later groups see old remains (one record
    per tile, the oldest)."""
    if any(r["at"] == [at.x, at.y] for r in world.invasion.remains):
        return
    world.invasion.remains.append(
        {"at": [at.x, at.y], "kind": mechanism, "minute": world.now, "invasion": invasion}
    )
