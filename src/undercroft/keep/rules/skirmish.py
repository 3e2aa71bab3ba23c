"""An adventurer's part in a fight, taken at each of its steps (K-CMB-01, K-RNG-*, K-TRAP-03).

Before it walks on (:mod:`undercroft.keep.rules.adventuring`), an adventurer that is up:

1. in terror (a terror trap, K-TRAP-03) steps away from the trap, or cowers if it cannot;
2. strikes (or shoots) an enemy of your side in reach (K-RNG-01/02): the Master first (most
   groups come to kill him, K-INV-01), then the nearest, then the lowest id;
3. held by a web (K-TRAP-03) waits for the web to let go;
4. kills a fallen being of your side lying next to it (K-WAKE-01), when nothing is in reach.

Otherwise it goes on towards its goal, and fights whoever stands in its way there. Ruling
R-K-CMB-01: this is how the built-in adventurers play to win: they go for their goal and
fight what they meet, and do not chase your minions round the dungeon.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.grid import Pos
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import combat, fallen, perception, stepping
from undercroft.keep.state.actors import Being, Condition, Master, Side
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import Group

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def _ticks(seconds: int) -> int:
    return max(1, seconds * TICKS_PER_MINUTE // 60)


def target(world: World, adv: Adventurer) -> Being | None:
    """The enemy it strikes now, if one is in reach: the Master, else the nearest."""
    here = adv.pos
    found: list[tuple[int, int, str, Being]] = []
    reach = combat.weapon_of(world, adv).range
    for being, at, _ in perception.watching(world):
        if max(abs(here.x - at.x), abs(here.y - at.y)) > reach:
            continue  # (quick: out of its weapon's reach)
        if not combat.in_reach(world, adv, being):
            continue
        found.append((0 if isinstance(being, Master) else 1, here.chebyshev(at), being.id, being))
    return min(found, key=lambda t: t[:3])[3] if found else None


def _fallen_enemy(world: World, adv: Adventurer) -> Being | None:
    for being in fallen.fallen_near(world, adv.pos, 1):
        if being.side() is Side.KEEP and combat.next_to(adv.pos, being.pos):
            return being
    return None


def act(world: World, adv: Adventurer, group: Group) -> bool:
    """The fight before the walk (see the module docstring, 2 to 4); True if it acted (its
    next step is queued). Terror (1) is :func:`flee_step`, which the walk carries out."""
    foe = target(world, adv)
    if foe is not None:
        combat.attack(world, adv, foe)
        if adv.condition is Condition.UP and adv.on_map:
            stepping.queue_step(world, adv, _ticks(combat.weapon_of(world, adv).seconds))
        return True
    if adv.held_until > world.now:
        wait = min(stepping.LOOK_AGAIN, (adv.held_until - world.now) * TICKS_PER_MINUTE)
        stepping.queue_step(world, adv, max(1, wait))
        return True
    victim = _fallen_enemy(world, adv)
    if victim is not None:
        fallen.kill(world, adv, victim)
        stepping.queue_step(world, adv, _ticks(combat.weapon_of(world, adv).seconds))
        return True
    return False


def terrified(world: World, adv: Adventurer) -> bool:
    return adv.terror_until > world.now and adv.terror_from is not None


def flee_step(world: World, adv: Adventurer) -> Pos | None:
    """K-TRAP-03: the free tile beside it farthest from the terror trap (farther than
    where it stands; north, east, south, west on ties), or None: it cowers."""
    assert adv.terror_from is not None
    away_from = adv.terror_from
    solid = world.solid()
    here = adv.pos
    best, gap = None, here.chebyshev(away_from)
    for p in world.grid.neighbours(here):
        if solid[p.y, p.x] or stepping.occupant(world, p) is not None:
            continue
        door = world.door_at(p)
        lock = world.lock_of(door) if door is not None else None
        if door is not None and not door.open and lock is not None and lock.armed:
            continue  # an armed lock stops it (K-LOCK-02)
        if p.chebyshev(away_from) > gap:
            best, gap = p, p.chebyshev(away_from)
    return best
