"""What a group does at doors and at known triggers in its way (K-DOOR-01/02, K-FORCE-01..04,
K-CAUT-01's disarming).

K-DOOR-01: when a member sees a closed door on its way and there is another way round it,
the group takes the other way 50% of the time, 25% with a Guide among its members; if the
door is the only way, it goes through (no draw). K-DOOR-02: the first group of a faction
after one of its Cartographers escaped alive never takes the other way (``p`` 0). Ruling
R-K-DOOR-02: "sees" is a member's sight (K-PERC-01) of the first closed door on its way;
"another way" is any way to where it is going that avoids that door; the decision holds
for that door for the rest of the invasion (a way round that closes later leads back
through the door, K-DOOR-01's only path).

K-FORCE-01..04 (ruling R-K-FORCE-01): facing a locked door (an armed lock, K-LOCK-02), the
group picks it with a Locksmith, bashes it with a Doorbreaker (and no Locksmith), and
otherwise picks 70% of the time (a ``chance`` event). It sends its best member for the
method (highest Craft to pick, Battle to bash; ties to the lower member number). Each
attempt takes the content's minutes x 4 / (4 + attribute), twice as long to bash, then
rolls the attribute against the content's target plus the lock's (pick) or the door's
(bash) grade value (R-K-DICE-01). A success breaches the door (K-FORCE-05). After 5 failed
rolls the group tries the other method; after 5 more it gives up on that door (it plans
round it from then on, and cannot pass it).

K-CAUT-01: when a known pressure plate or sensor lies in the way with no way round, the
group tries to disarm it (ruling R-K-CAUT-01): its best Craft member rolls Craft + the
Caution bonus against the content's target plus the trigger's grade value; a success puts
the trigger out of action until a Traps-job minion rearms it, a fumble sets it off, and
after the content's number of failures the group walks over it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event, chance_event
from undercroft.core.grid import Pos
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import caution, doors, fallen, perception, routes, stepping, traps
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import Group, GroupJob
from undercroft.keep.state.structures import Door, PartState, Trigger

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

WAY_ROUND = 0.5
"""K-DOOR-01: the way round a closed door, 50% of the time."""
WAY_ROUND_GUIDE = 0.25
"""K-DOOR-01: 25% with a Guide in the group."""
PICK = 0.7
"""K-FORCE-02: the group picks 70% of the time."""
FAILURES = 5
"""K-FORCE-04: 5 failed rolls, then the other method; 5 more, then give up."""
SPEED_BASE = 4
"""Ruling R-K-FORCE-01: an attempt takes minutes x 4 / (4 + attribute)."""


def members(world: World, group: Group) -> list[Adventurer]:
    found = [world.beings[m] for m in group.members]
    return [m for m in found if isinstance(m, Adventurer)]


def has_trait(world: World, group: Group, trait: str) -> bool:
    return any(trait in m.traits for m in members(world, group))


# -- K-DOOR-01/02: the way round a closed door ---------------------------------------------


def door_ahead(world: World, adv: Adventurer, group: Group, goals: set[Pos]) -> bool:
    """Look along the way for the first closed door in sight; decide on it if new.

    True if the group chose the way round (its members plan again).
    """
    reach = perception.perception_range(adv.attributes.stalk)
    if adv.doors_ahead is None:
        adv.doors_ahead = [p for p in adv.path if world.door_id_at(p) is not None]
    for p in adv.doors_ahead:
        if max(abs(p.x - adv.pos.x), abs(p.y - adv.pos.y)) > reach:
            return False
        door_id = world.door_id_at(p)
        if door_id is None:
            continue
        door = world.door(door_id)
        if door.open:
            continue
        if door.id in group.doors or door.id in group.given_up:
            return False
        if not world.sight().can_see(adv.pos, p):
            return False
        return _decide(world, adv, group, door, goals)
    return False


def _decide(world: World, adv: Adventurer, group: Group, door: Door, goals: set[Pos]) -> bool:
    if routes.way(world, adv, group, goals, blocked_door=door.id) is None:
        group.doors[door.id] = "door"  # K-DOOR-01: the only way: they go through
        return False
    guide = has_trait(world, group, "guide")
    if group.never_alternate:
        p, rules = 0.0, ("K-DOOR-01", "K-DOOR-02")
    else:
        p, rules = (WAY_ROUND_GUIDE if guide else WAY_ROUND), ("K-DOOR-01", "R-K-DOOR-02")
    alternate = p > 0 and world.streams["adventurers"].chance(p)
    world.emit(
        chance_event(
            rules,
            adv.id,
            p,
            alternate,
            "alternate" if alternate else "door",
            door=door.id,
            group=group.number,
            guide=guide,
            cartographer=group.never_alternate,
        )
    )
    group.doors[door.id] = "alternate" if alternate else "door"
    if alternate:
        group.plan_version += 1
    return alternate


# -- the group's work: forcing a lock, disarming a trigger ---------------------------------


COMING = (Whereabouts.IN, Whereabouts.OUTSIDE)
"""Members the group can send: on the map, or still walking in beyond the edge."""


def best(world: World, group: Group, attribute: str) -> Adventurer | None:
    """K-FORCE-02: the group sends its best member: the highest attribute (lower number on
    ties) of those on the map or still walking in (K-ARR-02), who can come to the work
    without passing what the work is for (not one on the far side of the door)."""
    job = group.job
    able = [m for m in members(world, group) if m.where in COMING and m.up]
    if job is not None:
        able = [m for m in able if _can_come(world, m, group, job)]
    if not able:
        return None
    return max(able, key=lambda m: (getattr(m.attributes, attribute), -m.member))


def _can_come(world: World, m: Adventurer, group: Group, job: GroupJob) -> bool:
    if m.pos == job.approach:
        return True
    blocked = job.target if job.kind == "force" else None
    way = routes.way(world, m, group, {job.approach}, blocked_door=blocked)
    return way is not None and job.tile not in way


def _attribute(method: str) -> str:
    return "battle" if method == "bash" else "craft"


def _method(world: World, adv: Adventurer, group: Group, door: Door) -> str:
    """K-FORCE-02/03: Locksmith picks; else Doorbreaker bashes; else 70% pick."""
    if has_trait(world, group, "locksmith"):
        method, reason, rules = "pick", "locksmith", ("K-FORCE-03",)
    elif has_trait(world, group, "doorbreaker"):
        method, reason, rules = "bash", "doorbreaker", ("K-FORCE-03",)
    else:
        pick = world.streams["adventurers"].chance(PICK)
        world.emit(
            chance_event(
                ("K-FORCE-02",),
                adv.id,
                PICK,
                pick,
                "pick" if pick else "bash",
                door=door.id,
                group=group.number,
            )
        )
        method, reason, rules = ("pick" if pick else "bash"), "chance", ("K-FORCE-02",)
    _announce(world, group, door.id, method, reason, rules)
    return method


def _announce(
    world: World, group: Group, door: str, method: str, reason: str, rules: tuple[str, ...]
) -> None:
    worker = best(world, group, _attribute(method))
    assert group.job is not None
    group.job.method = method
    group.job.worker = worker.id if worker else None
    world.emit(
        Event(
            "door.forcing",
            (*rules, "K-FORCE-01", "K-FORCE-02"),
            {
                "group": group.number,
                "door": door,
                "method": method,
                "reason": reason,
                "adventurer": group.job.worker,
                "attribute": getattr(worker.attributes, _attribute(method)) if worker else None,
            },
        )
    )


def is_locked(world: World, door: Door) -> bool:
    lock = world.lock_of(door)
    return not door.open and lock is not None and lock.armed


def start_forcing(world: World, adv: Adventurer, group: Group, door: Door) -> None:
    """The way goes through a locked door: the group stops to pick or bash it."""
    group.job = GroupJob("force", door.id, adv.pos, "pick", tile=door.pos, started=world.now)
    _method(world, adv, group, door)
    stepping.wait_for(world, adv, door.pos)
    worker_ready(world, group)


def start_disarming(
    world: World, adv: Adventurer, group: Group, trigger: Trigger, tile: Pos
) -> None:
    """K-CAUT-01: a known plate or sensor blocks the way: the group tries to disarm it."""
    group.job = GroupJob("disarm", trigger.id, adv.pos, "disarm", tile=tile, started=world.now)
    worker = best(world, group, "craft")
    group.job.worker = worker.id if worker else None
    stepping.wait_for(world, adv, tile)
    worker_ready(world, group)


def worker_ready(world: World, group: Group) -> None:
    """If the group's worker stands at the work, it starts an attempt; else it comes."""
    job = group.job
    if job is None or job.worker is None:
        return
    worker = world.beings[job.worker]
    assert isinstance(worker, Adventurer)
    if not worker.up or worker.where not in COMING:
        worker_cannot_come(world, group)  # it fell: another takes the work, or it is dropped
        return
    if worker.pos != job.approach or worker.busy is not None:
        if worker.busy is None:
            stepping.queue_step(world, worker, 1)
        return
    worker.busy = job.kind
    job.token += 1
    stepping.queue_work(world, worker, _attempt_ticks(world, worker, job), job.token)


@fallen.when_worker_halts
def worker_cannot_come(world: World, group: Group) -> None:
    """The worker has no way to the work: whoever of the group stands there does it, or
    the work is dropped (they will meet the obstacle again)."""
    job = group.job
    if job is None:
        return
    who = world.bodies.get(job.approach)
    mate = world.beings.get(who) if who else None
    if (
        isinstance(mate, Adventurer)
        and mate.invasion == group.number
        and mate.busy is None
        and mate.up
        and mate.id != job.worker
    ):
        job.worker = mate.id
        worker_ready(world, group)
        return
    group.job = None
    if job.tile is not None:
        stepping.wake(world, job.tile)


def _attempt_ticks(world: World, adv: Adventurer, job: GroupJob) -> int:
    content = world.ruleset.adventurers
    if job.kind == "disarm":
        return content.disarm_minutes * TICKS_PER_MINUTE
    attribute = int(getattr(adv.attributes, _attribute(job.method)))
    ticks = content.pick_minutes * TICKS_PER_MINUTE * SPEED_BASE // (SPEED_BASE + attribute)
    return max(1, ticks * (2 if job.method == "bash" else 1))


def work_done(world: World, adv: Adventurer, group: Group, token: int) -> None:
    """An attempt is over: roll it, and carry on, switch, give up or go through."""
    job = group.job
    if job is None or job.token != token or job.worker != adv.id:
        return
    job.attempts += 1
    if job.kind == "force":
        _force_attempt(world, adv, group, job)
    else:
        _disarm_attempt(world, adv, group, job)


def _end(world: World, adv: Adventurer, group: Group, job: GroupJob) -> None:
    group.job = None
    adv.busy = None
    if job.tile is not None:
        stepping.wake(world, job.tile)
    stepping.queue_step(world, adv, 1)


def _force_attempt(world: World, adv: Adventurer, group: Group, job: GroupJob) -> None:
    door = world.door(job.target)
    if not is_locked(world, door):
        _end(world, adv, group, job)  # opened or unlocked meanwhile: just go through
        return
    content = world.ruleset.adventurers
    model = world.options.dice_model
    if job.method == "pick":
        lock = world.lock_of(door)
        assert lock is not None
        grade, target = lock.quality, content.pick_target
    else:
        grade, target = door.quality, content.bash_target
    target += model.grade_value(grade)
    attribute = _attribute(job.method)
    roll = model.roll(world.streams["adventurers"], attribute, getattr(adv.attributes, attribute))
    success = model.succeeds(roll, target)
    world.emit(
        model.roll_event(
            ("K-FORCE-01", "R-K-DICE-01", "R-K-FORCE-01"),
            adv.id,
            roll,
            "success" if success else "fail",
            door=door.id,
            method=job.method,
            target=target,
            quality=grade.value,
            attempt=job.attempts,
            group=group.number,
        )
    )
    if success:
        doors.breach(world, door, adv.id)
        world.emit(
            Event(
                "door.forced",
                ("K-FORCE-01", "K-FORCE-05"),
                {
                    "group": group.number,
                    "door": door.id,
                    "method": job.method,
                    "by": adv.id,
                    "attempts": job.attempts,
                    "minutes": world.now - job.started,
                    "at": [door.pos.x, door.pos.y],
                },
            )
        )
        _end(world, adv, group, job)
        return
    if job.method == "bash":
        perception.noise(world, door.pos, "bash", adv.id)  # K-PERC-03: a failed bash
    job.fails[job.method] = job.fails.get(job.method, 0) + 1
    if job.fails[job.method] < FAILURES:
        worker_ready_again(world, adv, group)
        return
    other = "bash" if job.method == "pick" else "pick"
    if job.fails.get(other, 0) < FAILURES:
        adv.busy = None
        _announce(world, group, door.id, other, "switched", ("K-FORCE-04",))
        if job.worker != adv.id:
            stepping.wait_for(world, adv, door.pos)
        worker_ready(world, group)
        return
    group.given_up.append(door.id)
    group.plan_version += 1
    world.emit(
        Event(
            "door.given_up",
            ("K-FORCE-04",),
            {
                "group": group.number,
                "door": door.id,
                "attempts": job.attempts,
                "minutes": world.now - job.started,
                "at": [door.pos.x, door.pos.y],
            },
        )
    )
    _end(world, adv, group, job)
    for m in members(world, group):
        if m.on_map and m.busy is None and m is not adv:
            stepping.queue_step(world, m, 1)


def worker_ready_again(world: World, adv: Adventurer, group: Group) -> None:
    adv.busy = None
    worker_ready(world, group)


def _disarm_attempt(world: World, adv: Adventurer, group: Group, job: GroupJob) -> None:
    trigger = world.structures.get(job.target)
    if not isinstance(trigger, Trigger):
        _end(world, adv, group, job)
        return
    content = world.ruleset.adventurers
    model = world.options.dice_model
    target = content.disarm_target + model.grade_value(trigger.quality)
    bonus = caution.bonus(world, adv, group)
    roll = model.roll(
        world.streams["adventurers"],
        "craft",
        adv.attributes.craft,
        {"caution": bonus} if bonus else {},
    )
    success = model.succeeds(roll, target)
    outcome = "disarmed" if success else ("fumble" if roll.fumble else "fail")
    world.emit(
        model.roll_event(
            ("K-CAUT-01", "K-CAUT-03", "R-K-DICE-01", "R-K-CAUT-01"),
            adv.id,
            roll,
            outcome,
            trigger=trigger.id,
            kind=trigger.kind,
            target=target,
            quality=trigger.quality.value,
            attempt=job.attempts,
            group=group.number,
        )
    )
    if outcome == "fail" and job.attempts < content.disarm_attempts:
        worker_ready_again(world, adv, group)
        return
    if success:
        traps.use(world, trigger, PartState.USED, ("K-CAUT-01", "R-K-CAUT-01"))
        result = "disarmed"
    elif roll.fumble:
        stepping.enters(world, trigger.id, adv)
        result = "set_off"
    else:
        result = "walked_over"
    group.disarmed.append(trigger.id)
    group.plan_version += 1
    world.emit(
        Event(
            "trigger.disarmed",
            ("K-CAUT-01", "R-K-CAUT-01"),
            {
                "group": group.number,
                "trigger": trigger.id,
                "by": adv.id,
                "outcome": result,
                "attempts": job.attempts,
            },
        )
    )
    _end(world, adv, group, job)
