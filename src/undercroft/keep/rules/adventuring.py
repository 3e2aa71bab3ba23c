"""An adventurer's step: the rules of an invasion applied tile by tile (ruling R-K-MOVE-01).

Each queued step of an adventurer (:mod:`undercroft.keep.rules.stepping`) does, in order:

1. beyond the map edge: walk in at the group's portal once it is free (K-ARR-02);
2. the fight (:mod:`undercroft.keep.rules.skirmish`): flee in terror, strike an enemy in reach,
   stand held by a web, kill a fallen enemy beside it;
   then where to go (:func:`undercroft.keep.rules.goals.targets`): a fallen groupmate to heal,
   the goal, treasure, the work the group sent it to, or the way out; standing there, act
   (heal, take, free, wreck, work, leave);
3. plan again if the map, its knowledge or its group's decisions changed since the last
   plan (K-CAUT-01, :mod:`undercroft.keep.rules.routes`);
4. the first closed door in sight on the way: the group's way-round decision (K-DOOR-01/02);
5. the next tile: a locked door to pick or bash (K-FORCE-01..04), a known plate or sensor to
   disarm (K-CAUT-01), someone standing there (wait, or pass each other) — or step in,
   opening a closed door (K-DOOR-08) and setting off the triggers that watch the tile,
   stepping over a known tripwire (K-CAUT-01, ruling R-K-CAUT-01);
6. on the new tile: who notices whom and sighting (K-ARR-03/04, K-PERC-01), discovery and
   Detect Traps (K-DISC-01..03, K-KNOW-03/04), Caution from corridors and remains
   (K-CAUT-02);
7. the next step, one pace later (6/5 of it in Caution, K-CAUT-03).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import (
    caution,
    doors,
    forcing,
    goals,
    knowledge,
    movement,
    perception,
    routes,
    skirmish,
    stepping,
)
from undercroft.keep.state.actors import Being
from undercroft.keep.state.clock import handles
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import Group
from undercroft.keep.state.structures import Trigger

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

_MODES = {"goal": 0, "treasure": 1, "work": 2, "exit": 3, "heal": 4}
STUCK_WAIT = 6 * stepping.LOOK_AGAIN
"""A member with no way anywhere looks again after half an hour."""


@handles("adventurer")
def on_step(world: World, args: tuple[Any, ...]) -> None:
    """An adventurer's queued step (stale ones are ignored)."""
    adv = world.beings.get(str(args[0]))
    if not isinstance(adv, Adventurer) or adv.step_gen != int(args[1]):
        return
    group = world.invasion.groups.get(adv.invasion)
    if group is None or group.phase == "ended":
        return
    if adv.where is Whereabouts.OUTSIDE:
        _enter(world, adv, group)
    elif adv.where is Whereabouts.IN and adv.busy is None and adv.up:
        _walk(world, adv, group)


@handles("adventurer_work")
def on_work(world: World, args: tuple[Any, ...]) -> None:
    """A piece of an adventurer's work is finished."""
    adv = world.beings.get(str(args[0]))
    if not isinstance(adv, Adventurer) or adv.step_gen != int(args[1]):
        return
    group = world.invasion.groups.get(adv.invasion)
    if group is None:
        return
    if not adv.up:
        return
    if adv.busy == "goal":
        goals.work_done(world, adv, group)
    elif adv.busy == "heal":
        goals.healed(world, adv, group)
    elif adv.busy in ("force", "disarm"):
        forcing.work_done(world, adv, group, int(args[2]))


def _enter(world: World, adv: Adventurer, group: Group) -> None:
    """K-ARR-02: from beyond the map edge onto the portal tile, one body at a time."""
    if group.phase == "leaving":
        goals.leave(world, adv, group)  # the group is going home before this one came in
        return
    portal = group.portal
    assert portal is not None
    who = stepping.occupant(world, portal)
    if who is not None:
        mate = world.beings.get(who)
        if not (isinstance(mate, Adventurer) and _may_pass(adv, mate, group)):
            stepping.wait_for(world, adv, portal)
            return
        _step_back_out(world, mate, portal)  # K-FORCE-02: the worker passes its groupmates
    adv.where = Whereabouts.IN
    adv.present = True
    stepping.place(world, adv, portal)
    _on_tile(world, adv, group, None)
    stepping.queue_step(world, adv, stepping.step_ticks(world, adv, portal, group.caution > 0))


def _step_back_out(world: World, mate: Adventurer, portal: Pos) -> None:
    """A groupmate on the portal makes way for the group's worker still beyond the edge:
    it steps back out and comes in again when the portal is free (one body per tile)."""
    stepping.lift(world, mate)
    mate.where = Whereabouts.OUTSIDE
    mate.present = False
    mate.set_path([])
    mate.path_stamp = ()
    stepping.wait_for(world, mate, portal)


def _stamp(
    world: World, adv: Adventurer, group: Group, mode: str, tiles: set[Pos]
) -> tuple[int, ...]:
    flat = [v for p in sorted(tiles) for v in (p.x, p.y)]
    version = routes.route_version(world)
    return (version, adv.knowledge_version, group.plan_version, _MODES[mode], *flat)


def _plan(world: World, adv: Adventurer, group: Group, mode: str, tiles: set[Pos]) -> bool:
    """Plan again if anything it was planned from changed; False if there is no way."""
    stamp = _stamp(world, adv, group, mode, tiles)
    if stamp == adv.path_stamp and adv.path:
        return True
    job = group.job
    if mode == "work" and job is not None:
        # The worker comes round to the work, not through the door or tile it is for.
        blocked = job.target if job.kind == "force" else None
        bodies = [job.tile] if job.kind == "disarm" and job.tile is not None else []
        path = routes.way(world, adv, group, tiles, blocked_door=blocked, bodies=bodies)
    else:
        path = routes.way(world, adv, group, tiles)
    adv.path_stamp = stamp
    adv.set_path(path or [])
    return path is not None


def _walk(world: World, adv: Adventurer, group: Group) -> None:
    if skirmish.terrified(world, adv):
        away = skirmish.flee_step(world, adv)
        if away is None:
            stepping.queue_step(world, adv, stepping.LOOK_AGAIN // 5)
        else:
            adv.path_stamp = ()  # its way is planned again once the terror is over
            _step_into(world, adv, group, away)
        return
    if skirmish.act(world, adv, group):
        return
    mode, tiles = goals.targets(world, group, adv)
    if adv.pos in tiles:
        _arrived(world, adv, group, mode)
        return
    if not tiles or not _plan(world, adv, group, mode, tiles):
        _no_way(world, adv, group, mode)
        return
    if forcing.door_ahead(world, adv, group, tiles) and not _plan(world, adv, group, mode, tiles):
        _no_way(world, adv, group, mode)
        return
    if not adv.path:
        _no_way(world, adv, group, mode)
        return
    adv.stuck_since = None
    nxt = adv.path[0]
    if _clear(world, adv, group, nxt, (mode, tiles)):
        _step_into(world, adv, group, nxt)


def _clear(
    world: World, adv: Adventurer, group: Group, nxt: Pos, going: tuple[str, set[Pos]]
) -> bool:
    """Whether it may step into ``nxt`` now; if not, it waits or the group starts work."""
    job = group.job
    if job is not None and job.tile == nxt:
        stepping.wait_for(world, adv, nxt)
        return False
    door = world.door_at(nxt)
    if door is not None and forcing.is_locked(world, door):
        if job is None:
            forcing.start_forcing(world, adv, group, door)
        else:
            _blocked_on_the_way(world, adv, group, nxt)
        return False
    trigger = _known_in_way(world, adv, group, nxt)
    if trigger is not None:
        if job is None:
            forcing.start_disarming(world, adv, group, trigger, nxt)
        else:
            _blocked_on_the_way(world, adv, group, nxt)
        return False
    who = stepping.occupant(world, nxt)
    if who is None:
        return True
    other = world.beings[who]
    if not isinstance(other, Adventurer):
        _meet(world, adv, group, other, going)
        return False
    if isinstance(other, Adventurer) and _may_pass(adv, other, group):
        _pass(world, adv, group, other)
        return False
    if isinstance(other, Adventurer) and stepping.follow(world, adv, other):
        return False
    if isinstance(other, Adventurer) and _stays(other):
        around = routes.way(world, adv, group, _target_tiles(world, group, adv), bodies=[nxt])
        if around:
            adv.set_path(around)
            adv.path_stamp = ()
    stepping.wait_for(world, adv, nxt)
    return False


def _meet(
    world: World, adv: Adventurer, group: Group, other: Being, going: tuple[str, set[Pos]]
) -> None:
    """One of your beings stands on the next tile out of a fight (K-CROWD-01, ruling
    R-K-MOVE-01: one body per tile holds for every being, busy or not). Walking into this
    adventurer's tile, they pass each other; walking on, the adventurer steps in just after
    it has gone; standing still or working, the adventurer goes round it if the way round
    is at most 6 tiles longer, or else waits for the tile, looking again each pace."""
    nxt = adv.path[0]
    ahead = movement.next_tile(world, other)
    if ahead is not None and ahead[0] == adv.pos:
        movement.pass_by(world, other, adv.pos)
        _step_into(world, adv, group, nxt)
        return
    if ahead is not None:
        stepping.queue_step(world, adv, ahead[1] * TICKS_PER_MINUTE - world.tick + 1)
        return
    mode, tiles = going
    held = [nxt, *stepping.standing_still(world)]
    around = routes.way(world, adv, group, tiles, bodies=held)
    if around is not None and nxt not in around and len(around) <= len(adv.path) + movement.DETOUR:
        adv.set_path(around)
        adv.path_stamp = _stamp(world, adv, group, mode, tiles)
        _next(world, adv, group)
        return
    pace = stepping.step_ticks(world, adv, nxt, group.caution > 0)
    stepping.wait_for(world, adv, nxt, pace)


def _blocked_on_the_way(world: World, adv: Adventurer, group: Group, nxt: Pos) -> None:
    """Another locked door or known trigger while the group works elsewhere: wait (and look
    again later); the worker itself, unable to come, hands the work on."""
    job = group.job
    stepping.wait_for(world, adv, nxt)
    if job is not None and job.worker == adv.id:
        forcing.worker_cannot_come(world, group)


def _target_tiles(world: World, group: Group, adv: Adventurer) -> set[Pos]:
    return goals.targets(world, group, adv)[1]


def _stays(other: Adventurer) -> bool:
    """Someone who is not about to move on (a prisoner, a worker, one with no way)."""
    return other.where is Whereabouts.PRISONER or other.busy is not None or not other.path


def _may_pass(adv: Adventurer, other: Adventurer, group: Group) -> bool:
    """Two walkers who want each other's tile pass; a group's worker passes its mates."""
    if other.where is not Whereabouts.IN or other.busy is not None:
        return False
    if other.path and other.path[0] == adv.pos:
        return True
    job = group.job
    return job is not None and job.worker == adv.id and other.invasion == adv.invasion


def _pass(world: World, adv: Adventurer, group: Group, other: Adventurer) -> None:
    old = adv.pos
    stepping.swap(world, adv, other)
    adv.step_on()
    if other.path and other.path[0] == adv.pos:
        other.step_on()
    else:
        other.path_stamp = ()  # pushed back: it plans again
    other_group = world.invasion.groups[other.invasion]
    _on_tile(world, adv, group, old)
    _on_tile(world, other, other_group, adv.pos)
    _next(world, adv, group)
    if other.where is Whereabouts.IN and other.busy is None:
        _next(world, other, other_group)


def _known_in_way(world: World, adv: Adventurer, group: Group, tile: Pos) -> Trigger | None:
    """K-CAUT-01: a known plate or sensor watching the next tile (not yet dealt with)."""
    for trigger_id in world.trigger_zones().get(tile, ()):
        if trigger_id not in adv.knows or trigger_id in group.disarmed:
            continue
        trigger = world.structures.get(trigger_id)
        if isinstance(trigger, Trigger) and not routes.steps_over(world, trigger):
            return trigger
    return None


def _step_into(world: World, adv: Adventurer, group: Group, nxt: Pos) -> None:
    old = adv.pos
    door = world.door_at(nxt)
    stepping.move(world, adv, nxt)
    if adv.path and adv.path[0] == nxt:
        adv.step_on()
    if door is not None and not door.open:
        doors.step_in(world, door, adv)  # K-DOOR-08: anyone opens a closed door
    _on_tile(world, adv, group, old)
    _next(world, adv, group)


def _next(world: World, adv: Adventurer, group: Group) -> None:
    if adv.where is Whereabouts.IN and adv.busy is None and adv.up:
        into = adv.path[0] if adv.path else adv.pos
        stepping.queue_step(world, adv, stepping.step_ticks(world, adv, into, group.caution > 0))


def _on_tile(world: World, adv: Adventurer, group: Group, came_from: Pos | None) -> None:
    """Everything that happens on entering a tile (the module docstring's 5 and 6)."""
    zones = world.trigger_zones()
    for trigger_id in list(zones.get(adv.pos, ())):
        trigger = world.structures.get(trigger_id)
        if not isinstance(trigger, Trigger):
            continue
        if trigger_id in adv.knows and routes.steps_over(world, trigger):
            if came_from is None or trigger_id not in zones.get(came_from, ()):
                world.emit(
                    Event(
                        "trigger.stepped_over",
                        ("K-CAUT-01", "R-K-CAUT-01"),
                        {"adventurer": adv.id, "trigger": trigger_id, "at": [adv.pos.x, adv.pos.y]},
                    )
                )
            continue
        stepping.enters(world, trigger_id, adv)
        if not adv.up:
            return  # a trap took it out of the fight
    if adv.where is not Whereabouts.IN:
        return
    perception.after_step(world, adv, group)
    knowledge.after_step(world, adv, group)
    caution.after_step(world, adv, group)


def _arrived(world: World, adv: Adventurer, group: Group, mode: str) -> None:
    if mode == "heal":
        goals.at_patient(world, adv, group)
    elif mode == "goal":
        goals.reached(world, group, adv)
    elif mode == "treasure":
        goals.at_treasure(world, adv)
    elif mode == "work":
        forcing.worker_ready(world, group)
    else:
        goals.leave(world, adv, group)


def _no_way(world: World, adv: Adventurer, group: Group, mode: str) -> None:
    """No way to where it is going."""
    if mode == "goal":
        goals.out_of_reach(world, group, adv)
        stepping.queue_step(world, adv, 1)
    elif mode == "treasure":
        adv.aim = group.portal  # no treasure it can reach: it is done with treasure
        stepping.queue_step(world, adv, 1)
    elif mode == "work":
        forcing.worker_cannot_come(world, group)
        stepping.queue_step(world, adv, stepping.LOOK_AGAIN)
    elif mode == "heal":
        stepping.queue_step(world, adv, stepping.LOOK_AGAIN)  # no way to it: later
    else:
        if adv.stuck_since is None:
            adv.stuck_since = world.now
            world.emit(
                Event(
                    "adventurer.stuck",
                    ("K-FORCE-04",),
                    {"adventurer": adv.id, "group": group.number},
                )
            )
        stepping.queue_step(world, adv, STUCK_WAIT)
