"""Minion jobs: the work waiting to be done, who takes it, and doing it.

Work is a list of :class:`~undercroft.keep.state.tasks.Task` s, posted by the rules that make it
(:mod:`undercroft.keep.state.tasks`, the state-level half): rearm a part (K-REARM-02,
K-DECAY-02), build at a site (K-BUILD-01), carry metal to a site (K-BUILD-01), restore a
breached door (K-FORCE-05), carry a fallen being where it belongs (K-WAKE-01, K-AFTER-02,
ruling R-K-WAKE-02).
A job decides which tasks a minion takes (:data:`TIERS`): Traps-job minions rearm and
build, and carry metal and the fallen only when no trap work is open; Chores-job minions
carry metal, restore doors and carry the fallen (ruling R-K-BUILD-01). Whenever work
appears or a minion comes free, each idle minion in id order takes the open task it can
reach soonest, ties to the oldest task (ruling R-K-JOB-01). No dice: the choice is a
fixed function of the state.

The time a minion spends on a task, walking included, is its workload (K-DECAY-04),
counted per job and per day by :mod:`undercroft.keep.state.stats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.rules import building, doors, fallen, movement, traps
from undercroft.keep.rules.work import releases
from undercroft.keep.state.actors import Condition, Job, Minion
from undercroft.keep.state.clock import Priority, handles
from undercroft.keep.state.structures import Door, Site, TrapPart, Trigger
from undercroft.keep.state.tasks import Task, TaskKind
from undercroft.keep.state.world import provides_dispatch

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


TIERS: Mapping[Job, Mapping[TaskKind, int]] = {
    Job.TRAPS: {TaskKind.REARM: 0, TaskKind.BUILD: 0, TaskKind.HAUL: 1, TaskKind.CARRY: 1},
    Job.CHORES: {TaskKind.RESTORE_DOOR: 0, TaskKind.HAUL: 0, TaskKind.CARRY: 0},
    Job.FIGHTING: {TaskKind.CARRY: 0},
}
"""Which tasks each job takes, lower tiers first (K-BUILD-01, K-REARM-02, K-FORCE-05,
R-K-WAKE-02: guards, out of a fight, carry the living fallen, never the dead)."""


# -- choosing work -------------------------------------------------------------------------


def target_pos(world: World, task: Task) -> Pos:
    if task.kind is TaskKind.HAUL and task.phase in ("go", "fetch"):
        assert world.stockpile is not None
        return world.stockpile.pos
    if task.kind is TaskKind.CARRY:
        if task.phase == "carry" and task.to is not None:
            return Pos(int(task.to[1]), int(task.to[2]))
        return world.beings[task.target].pos  # (stale carries are dropped first)
    if task.kind is TaskKind.HEAL:
        return world.beings[task.target].pos
    return world.structure(task.target).pos


def _suits(world: World, minion: Minion, task: Task) -> bool:
    """A guard carries only the living (R-K-WAKE-02)."""
    if minion.job is Job.FIGHTING and task.kind is TaskKind.CARRY:
        body = world.beings.get(task.target)
        return body is not None and body.condition is Condition.UNCONSCIOUS
    return True


def _tier(world: World, tiers: Mapping[TaskKind, int], task: Task) -> int:
    """The task's tier for this minion; the living are carried before the dead."""
    tier = tiers[task.kind]
    if task.kind is TaskKind.CARRY:
        body = world.beings.get(task.target)
        if body is not None and body.condition is Condition.DEAD:
            tier += 1
    return tier


def _free(world: World, minion: Minion) -> bool:
    """Free to take work: up, not fighting, not held or fleeing, not already busy."""
    return (
        minion.task is None
        and not minion.blind_rage
        and minion.walk is None
        and minion.condition is Condition.UP
        and not minion.fighting
        and minion.carried_by is None
        and minion.terror_until < world.now
        and minion.held_until < world.now
    )


def _stale(world: World, task: Task) -> bool:
    """An open carry or heal whose body is gone or needs nobody any more (it woke, was
    freed, died)."""
    if task.minion is not None:
        return False
    if task.kind is TaskKind.CARRY:
        body = world.beings.get(task.target)
        return body is None or not fallen.needs_carrying(world, body)
    if task.kind is TaskKind.HEAL:
        body = world.beings.get(task.target)
        return body is None or not fallen.needs_healing(world, body)
    return False


def _tiers(world: World, minion: Minion) -> Mapping[TaskKind, int] | None:
    """The tasks a minion takes: its job's; a healer heals first whatever its job."""
    tiers = TIERS.get(minion.job)
    kind = world.ruleset.minions.get(minion.breed)
    if kind is not None and "heal" in kind.abilities:
        return {TaskKind.HEAL: -1, **(tiers or {})}
    return tiers


@provides_dispatch
def dispatch(world: World) -> None:
    """Each idle minion (id order) takes the nearest open task its job allows (R-K-JOB-01)."""
    for task in [t for t in world.tasks.values() if _stale(world, t)]:
        del world.tasks[task.id]
    open_tasks = [t for t in world.tasks.values() if t.minion is None]
    if not open_tasks:
        return
    for minion in sorted(world.minions(), key=lambda m: _number(m.id)):
        if not _free(world, minion):
            continue
        tiers = _tiers(world, minion)
        if not tiers:
            continue
        candidates = [
            t
            for t in open_tasks
            if t.minion is None and t.kind in tiers and _suits(world, minion, t)
        ]
        if not candidates:
            continue
        best = _nearest(world, minion, candidates, tiers)
        if best is not None:
            start(world, minion, best)


_FEW = 6
"""Up to this many candidate tasks, a minion's walks are searched one by one."""


def _nearest(
    world: World, minion: Minion, candidates: list[Task], tiers: Mapping[TaskKind, int]
) -> Task | None:
    passage = movement.passage_for(minion)
    # A few tasks: an A* search each; many: one distance map (the same distances).
    many = world.distances(minion.pos, passage) if len(candidates) > _FEW else None
    best: tuple[int, int, int, int] | None = None
    chosen = None
    for task in candidates:
        pos = target_pos(world, task)
        if pos == minion.pos:
            far = 0
        elif many is not None:
            far = int(many[pos.y, pos.x])
        else:
            walk = world.walk_distance(minion.pos, pos, passage)
            far = -1 if walk is None else walk
        if far < 0:
            continue  # unreachable for now
        key = (_tier(world, tiers, task), far, task.created, _number(task.id))
        if best is None or key < best:
            best, chosen = key, task
    return chosen


def start(world: World, minion: Minion, task: Task) -> None:
    task.minion = minion.id
    minion.task = task.id
    minion.busy_since = world.now
    if task.kind is TaskKind.HAUL:
        if not building.take_haul(world, task, minion):
            # Nothing left to carry (the other loads cover it): the haul is void.
            world.tasks.pop(task.id, None)
            minion.task = None
            minion.busy_since = None
            return
        task.phase = "fetch"
    _go(world, minion, task)


def _go(world: World, minion: Minion, task: Task) -> None:
    if not movement.walk_to(world, minion, target_pos(world, task), adjacent=True):
        release(world, minion)


# -- doing it ------------------------------------------------------------------------------


@movement.arrival(Minion)
def on_arrival(world: World, minion: Minion) -> None:
    task = world.tasks.get(minion.task or "")
    if task is None:
        return
    goal = target_pos(world, task)
    if minion.pos.manhattan(goal) > 1:
        _go(world, minion, task)  # the target moved (K-REARM-07) or the way was blocked
        return
    if task.kind is TaskKind.HAUL and task.phase == "carry":
        building.deliver(world, task, minion)
        finish(world, minion, task)
        return
    if task.kind is TaskKind.CARRY and task.phase == "carry":
        _carried_there(world, minion, task)
        return
    minutes = _work_minutes(world, task)
    if minutes is None:
        finish(world, minion, task)  # nothing left to do here
        return
    _work(world, minion, task, minutes)


def _work(world: World, minion: Minion, task: Task, minutes: int) -> None:
    task.token += 1
    task.phase = "work" if task.kind is not TaskKind.HAUL else "load"
    world.schedule(world.now + minutes, Priority.WORK, "work", minion.id, task.id, task.token)


def _work_minutes(world: World, task: Task) -> int | None:
    if task.kind is TaskKind.REARM:
        part = world.structures.get(task.target)
        if not isinstance(part, TrapPart) or part.working:
            return None
        if isinstance(part, Trigger):
            return world.ruleset.triggers[part.kind].rearm_minutes
        return world.ruleset.mechanisms[part.kind].rearm_minutes
    if task.kind is TaskKind.BUILD:
        return world.ruleset.build_minutes_for(world.structure(task.target).kind)
    if task.kind is TaskKind.HAUL:
        return world.options.pickup_minutes
    if task.kind is TaskKind.CARRY:
        body = world.beings.get(task.target)
        if body is None or body.carried_by is not None or not fallen.needs_carrying(world, body):
            return None
        return world.options.pickup_minutes
    if task.kind is TaskKind.HEAL:
        body = world.beings.get(task.target)
        if body is None or not fallen.needs_healing(world, body):
            return None
        return max(1, -(-world.ruleset.combat.heal_seconds // 60))
    door = world.structures.get(task.target)
    if not isinstance(door, Door) or not door.breached:
        return None
    return world.options.restore_door_minutes


@handles("work")
def on_work_done(world: World, args: tuple[Any, ...]) -> None:
    minion = world.beings.get(str(args[0]))
    task = world.tasks.get(str(args[1]))
    if not isinstance(minion, Minion) or task is None or task.minion != minion.id:
        return
    if task.token != int(args[2]):
        return
    if task.kind is TaskKind.REARM:
        part = world.structures[task.target]
        assert isinstance(part, TrapPart)
        outcome = traps.rearm(world, minion, part)
        if outcome in (traps.RearmOutcome.FIRES, traps.RearmOutcome.FAILED):
            minutes = _work_minutes(world, task)  # K-REARM-03 (a): it still needs its rearm
            if minutes is not None:
                _work(world, minion, task, minutes)
                return
        finish(world, minion, task)
    elif task.kind is TaskKind.BUILD:
        site = world.structure(task.target)
        assert isinstance(site, Site)
        building.complete(world, site, minion)
        finish(world, minion, task)
    elif task.kind is TaskKind.HAUL:
        building.load(world, task, minion)
        task.phase = "carry"
        _go(world, minion, task)
    elif task.kind is TaskKind.CARRY:
        _lift(world, minion, task)
    elif task.kind is TaskKind.HEAL:
        body = world.beings.get(task.target)
        if body is not None and fallen.needs_healing(world, body):
            fallen.heal(world, minion, body)
        finish(world, minion, task)
    else:
        doors.restore(world, world.door(task.target), minion.id)
        finish(world, minion, task)


def finish(world: World, minion: Minion, task: Task) -> None:
    _account(world, minion, task)
    world.tasks.pop(task.id, None)
    minion.task = None
    world.request_dispatch()


@releases
def release(world: World, minion: Minion) -> None:
    """The minion stops its task (new job, Blind Rage, no way there, a fight, a fall); the
    work stays open (a body it carried is laid down where it is)."""
    task = world.tasks.get(minion.task or "")
    movement.stop(world, minion)
    minion.task = None
    if task is None:
        return
    _account(world, minion, task)
    task.minion = None
    task.phase = "go"
    task.token += 1
    if task.kind is TaskKind.HAUL:
        building.drop_haul(world, task, minion)
        world.tasks.pop(task.id, None)
    if task.kind is TaskKind.CARRY:
        task.to = None
        world.tasks.pop(task.id, None)
        body = world.beings.get(task.target)
        if body is not None and body.carried_by == minion.id:
            fallen.drop(world, body)  # laid down; the work is posted again
        elif body is not None:
            fallen.post_work(world, body)
    world.request_dispatch()


# -- carrying the fallen (K-WAKE-01, K-AFTER-02, ruling R-K-WAKE-02) ------------------------


def _lift(world: World, minion: Minion, task: Task) -> None:
    """Beside the body: pick it up and set off where it belongs (or, to kill an unconscious
    adventurer, kill it)."""
    body = world.beings.get(task.target)
    found = fallen.destination(world, body) if body is not None else None
    if body is None or found is None or body.carried_by is not None:
        finish(world, minion, task)
        return
    where, at = found
    if where == "kill":
        fallen.kill(world, minion, body)
        finish(world, minion, task)
        return
    fallen.lift(world, minion, body)
    task.phase = "carry"
    task.to = [where, at.x, at.y]
    if minion.pos == at or not movement.walk_to(world, minion, at):
        _carried_there(world, minion, task)


def _carried_there(world: World, minion: Minion, task: Task) -> None:
    body = world.beings.get(task.target)
    if body is not None and body.carried_by == minion.id and task.to is not None:
        where, x, y = task.to
        found = fallen.destination(world, body) if where == "cell" else (where, Pos(x, y))
        if found is not None and found[1] != Pos(x, y):
            # The cell was taken meanwhile: on to another free one.
            task.to = [found[0], found[1].x, found[1].y]
            if movement.walk_to(world, minion, found[1]):
                return
            found = None
        if found is None:
            fallen.drop(world, body)
        else:
            fallen.deliver(world, minion, body, str(where), Pos(x, y))
    task.to = None
    finish(world, minion, task)


@movement.blocked(Minion)
def on_blocked(world: World, minion: Minion) -> None:
    release(world, minion)


def _account(world: World, minion: Minion, task: Task) -> None:
    if minion.busy_since is not None:
        world.workload.add_busy(minion.job.value, task.kind.value, minion.busy_since, world.now)
    minion.busy_since = None


def set_job(world: World, minion: Minion, job: Job) -> None:
    if minion.task is not None:
        task = world.tasks.get(minion.task)
        if task is None or task.kind not in TIERS.get(job, {TaskKind.HEAL: 0}):
            release(world, minion)
    minion.job = job
    world.request_dispatch()


def set_blind_rage(world: World, minion: Minion, rage: bool) -> None:
    """K-OWN-02: a minion in Blind Rage drops its work and sets traps off like an enemy."""
    if rage:
        release(world, minion)
    minion.blind_rage = rage
    world.emit(Event("minion.rage", ("K-OWN-02",), {"minion": minion.id, "blind_rage": rage}))
    world.request_dispatch()


def _number(some_id: str) -> int:
    _, _, number = some_id.partition(":")
    return int(number) if number.isdigit() else 0
