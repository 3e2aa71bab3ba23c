"""What a group comes for and what it does once there (K-INV-01/02, K-AFTER-01, K-DEF-01).

K-INV-01: most groups come to kill your Master; others to steal treasure, rescue prisoners
or wreck an altar (the faction's goal weights, content). K-INV-02: the goal is on the
arrival card; if it is gone before the group arrives (no treasure, prisoner or altar left)
the group goes for the Master. Having met its goal, most groups also take the treasure they
can carry (the content's chance, a ``chance`` event), then leave; a rescue group leaves as
soon as it has freed the prisoners (K-AFTER-01). Once the Master is dead or out of reach the
survivors scatter to take treasure and leave.

Ruling R-K-AFTER-01: a group sent for the Master goes to his side and fights him there
(:mod:`undercroft.keep.rules.skirmish`); when he dies (K-KO-04) the group that killed him has
met its goal, and every other group that came for him finds its goal gone: each scatters
for treasure as K-AFTER-01 says (ruling R-K-AFTER-02: with the Master dead no invasion
comes any more). A group that cannot get to its goal at all (every way given up,
K-FORCE-04) does the same (``out_of_reach``). A goal that vanishes while the group is
inside (the last treasure taken by others) turns it to the Master, as K-INV-02 does before
arrival. A Cleric (the ``heal`` ability) goes first to a fallen groupmate within 10 tiles
and heals it (K-WAKE-01). Members leave by the portal their group came in by; the invasion
ends when every member has left, died or been captured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event, chance_event
from undercroft.core.grid import Pos
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import director, fallen, stepping, work
from undercroft.keep.state.actors import Condition
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import Feature, Group

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def piles(world: World) -> list[Feature]:
    return [f for f in world.invasion.features.values() if f.kind == "treasure" and f.amount > 0]


def altars(world: World) -> list[Feature]:
    return [f for f in world.invasion.features.values() if f.kind == "altar" and f.amount > 0]


def prisoners(world: World) -> list[Adventurer]:
    return [
        b
        for b in world.beings.values()
        if isinstance(b, Adventurer) and b.where is Whereabouts.PRISONER
    ]


def available(world: World, goal: str) -> bool:
    """K-INV-02: is there still something to go for?"""
    if goal == "steal_treasure":
        return bool(piles(world))
    if goal == "rescue_prisoners":
        return bool(prisoners(world))
    if goal == "wreck_altar":
        return bool(altars(world))
    return master_alive(world)


def master_alive(world: World) -> bool:
    master = world.beings.get("master")
    return master is not None and master.present and master.condition is not Condition.DEAD


HEAL_TILES = 10
"""A healer goes to a fallen groupmate this near (ruling R-K-WAKE-01)."""


def patient(world: World, group: Group, adv: Adventurer) -> Adventurer | None:
    """The fallen groupmate a healer goes to: unconscious on the map, not carried, within
    :data:`HEAL_TILES` (the nearest, then the lower member number)."""
    if "heal" not in adv.abilities:
        return None
    found = [
        m
        for mid in group.members
        if isinstance(m := world.beings.get(mid), Adventurer)
        and m is not adv
        and m.where is Whereabouts.IN
        and m.condition is Condition.UNCONSCIOUS
        and m.carried_by is None
        and m.pos.chebyshev(adv.pos) <= HEAL_TILES
    ]
    return min(found, key=lambda m: (m.pos.chebyshev(adv.pos), m.member)) if found else None


def _beside(world: World, pos: Pos) -> set[Pos]:
    cache = world.cached("beside", world.ground())
    found: set[Pos] | None = cache.get(pos)
    if found is None:
        solid = world.solid()
        found = cache[pos] = {p for p in world.grid.neighbours(pos) if not solid[p.y, p.x]}
    return found


def goal_tiles(world: World, group: Group) -> set[Pos]:
    """Where the group's goal is reached: beside the Master, a prisoner or an altar; on a
    treasure pile."""
    if group.goal == "steal_treasure":
        return {f.pos for f in piles(world)}
    if group.goal == "rescue_prisoners":
        return set().union(*(_beside(world, p.pos) for p in prisoners(world)))
    if group.goal == "wreck_altar":
        return set().union(*(_beside(world, a.pos) for a in altars(world)))
    master = world.beings["master"]
    return _beside(world, master.pos_at(world.now))


def exit_tiles(group: Group) -> set[Pos]:
    assert group.portal is not None
    return {group.portal}


def targets(world: World, group: Group, adv: Adventurer) -> tuple[str, set[Pos]]:
    """Where this member is going now: ``goal``, ``treasure``, ``work`` or ``exit``."""
    job = group.job
    if job is not None and job.worker == adv.id:
        return "work", {job.approach}
    fallen_mate = patient(world, group, adv)
    if fallen_mate is not None:
        return "heal", _beside(world, fallen_mate.pos)
    if group.phase == "in" and not available(world, group.goal):
        if group.goal == "kill_master" and not master_alive(world):
            _master_gone(world, group, adv)  # K-AFTER-01: he is dead: scatter for treasure
        else:
            _goal_gone(world, group)
    if group.phase == "in":
        return "goal", goal_tiles(world, group)
    if group.phase == "after" and adv.aim is None and adv.treasure < adv.carry and piles(world):
        return "treasure", {f.pos for f in piles(world)}
    return "exit", exit_tiles(group)


def _goal_gone(world: World, group: Group) -> None:
    old = group.goal
    group.goal = "kill_master"
    group.plan_version += 1
    world.emit(
        Event(
            "invasion.goal",
            ("K-INV-02", "R-K-AFTER-01"),
            {"number": group.number, "goal": old, "outcome": "gone", "now": group.goal},
        )
    )


def out_of_reach(world: World, group: Group, adv: Adventurer) -> None:
    """No way to the goal at all: K-AFTER-01 as for a Master out of reach (R-K-AFTER-01)."""
    world.emit(
        Event(
            "invasion.goal",
            ("K-AFTER-01", "R-K-AFTER-01"),
            {"number": group.number, "goal": group.goal, "outcome": "out_of_reach", "by": adv.id},
        )
    )
    after_goal(world, group, adv)


def reached(world: World, group: Group, adv: Adventurer) -> None:
    """A member stands at the goal: beside the Master it fights him (its next step, the
    skirmish); elsewhere it starts the work there."""
    if group.goal == "kill_master":
        stepping.queue_step(world, adv, stepping.LOOK_AGAIN // 10)
        return
    _work(world, adv, group.goal)


@fallen.when_master_dies
def master_died(world: World, killer: str) -> None:
    """K-KO-04: the Master is dead. The group that killed him met its goal; every other
    group that came for him scatters for treasure (K-AFTER-01, ruling R-K-AFTER-01);
    no invasion comes any more (ruling R-K-AFTER-02)."""
    slayer = world.beings.get(killer)
    for group in list(world.invasion.groups.values()):
        if group.phase != "in" or group.goal != "kill_master":
            continue
        if isinstance(slayer, Adventurer) and slayer.invasion == group.number:
            _met(world, group, slayer)
            after_goal(world, group, slayer)
        else:
            first = _first_up(world, group)
            if first is not None:
                _master_gone(world, group, first)
    director.note_stop(world)


def _first_up(world: World, group: Group) -> Adventurer | None:
    for mid in group.members:
        m = world.beings.get(mid)
        if isinstance(m, Adventurer) and m.where is Whereabouts.IN and m.up:
            return m
    return None


def _master_gone(world: World, group: Group, adv: Adventurer) -> None:
    world.emit(
        Event(
            "invasion.goal",
            ("K-AFTER-01", "R-K-AFTER-01"),
            {"number": group.number, "goal": group.goal, "outcome": "master_dead", "by": adv.id},
        )
    )
    after_goal(world, group, adv)


def _work(world: World, adv: Adventurer, what: str) -> None:
    adv.busy = "goal"
    minutes = world.ruleset.adventurers.goal_minutes.get(what, 0)
    stepping.queue_work(world, adv, max(1, minutes * TICKS_PER_MINUTE), 0)


def at_treasure(world: World, adv: Adventurer) -> None:
    """After the goal: a member on a pile takes what it can carry."""
    _work(world, adv, "steal_treasure")


def at_patient(world: World, adv: Adventurer, group: Group) -> None:
    """A healer beside a fallen groupmate: it heals it (K-WAKE-01)."""
    adv.busy = "heal"
    ticks = world.ruleset.combat.heal_seconds * TICKS_PER_MINUTE // 60
    stepping.queue_work(world, adv, max(1, ticks), 0)


def healed(world: World, adv: Adventurer, group: Group) -> None:
    adv.busy = None
    found = patient(world, group, adv)
    if found is not None and found.pos.manhattan(adv.pos) <= 1:
        fallen.heal(world, adv, found)
    stepping.queue_step(world, adv, 1)


def work_done(world: World, adv: Adventurer, group: Group) -> None:
    """The member's work at the goal (or a pile) is finished."""
    adv.busy = None
    if group.phase == "in" and group.goal == "rescue_prisoners":
        _free(world, adv, group)
    elif group.phase == "in" and group.goal == "wreck_altar":
        _wreck(world, adv, group)
    else:
        _take(world, adv, group)
    stepping.queue_step(world, adv, 1)


def _take(world: World, adv: Adventurer, group: Group) -> None:
    pile = next((f for f in piles(world) if f.pos == adv.pos), None)
    if pile is None:
        return
    amount = min(adv.carry - adv.treasure, pile.amount)
    pile.amount -= amount
    adv.treasure += amount
    world.emit(
        Event(
            "treasure.taken",
            ("K-INV-01", "K-AFTER-01"),
            {"adventurer": adv.id, "pile": pile.id, "amount": amount, "left": pile.amount},
        )
    )
    if group.phase == "in":
        _met(world, group, adv)
        group.phase = "after"  # the goal was treasure: the others take theirs too
        group.plan_version += 1


def _free(world: World, adv: Adventurer, group: Group) -> None:
    for prisoner in prisoners(world):
        if prisoner.pos.manhattan(adv.pos) == 1:
            if prisoner.condition is Condition.UNCONSCIOUS:
                fallen.heal(world, adv, prisoner)  # its rescuers rouse it (R-K-WAKE-01)
            prisoner.where = Whereabouts.IN  # K-LEARN-07: it kept its knowledge and bonuses
            prisoner.invasion = group.number  # it walks out with its rescuers
            group.members.append(prisoner.id)
            world.emit(
                Event(
                    "prisoner.freed",
                    ("K-INV-01", "K-AFTER-01", "K-LEARN-07"),
                    {"prisoner": prisoner.id, "by": adv.id, "group": group.number},
                )
            )
            stepping.queue_step(world, prisoner, 1)
            break
    if not prisoners(world):
        _met(world, group, adv)
        after_goal(world, group, adv)


def _wreck(world: World, adv: Adventurer, group: Group) -> None:
    for altar in altars(world):
        if altar.pos.manhattan(adv.pos) == 1:
            altar.amount = 0
            world.emit(
                Event(
                    "altar.wrecked",
                    ("K-INV-01",),
                    {"altar": altar.id, "by": adv.id, "group": group.number},
                )
            )
            _met(world, group, adv)
            after_goal(world, group, adv)
            return


def _met(world: World, group: Group, adv: Adventurer) -> None:
    if group.goal_met is None:
        group.goal_met = "met"
        world.emit(
            Event(
                "invasion.goal",
                ("K-INV-01",),
                {"number": group.number, "goal": group.goal, "outcome": "met", "by": adv.id},
            )
        )


def after_goal(world: World, group: Group, adv: Adventurer) -> None:
    """K-INV-01, K-AFTER-01: most groups take what treasure they can carry, then leave; a
    rescue group leaves at once."""
    if group.phase != "in":
        return
    group.plan_version += 1
    if group.goal == "rescue_prisoners" and group.goal_met == "met":
        group.phase = "leaving"
        return
    p = world.ruleset.adventurers.take_treasure
    takes = world.streams["adventurers"].chance(p)
    group.takes_treasure = takes
    world.emit(
        chance_event(
            ("K-INV-01", "K-AFTER-01"),
            adv.id,
            p,
            takes,
            "takes" if takes else "leaves",
            group=group.number,
            treasure=sum(f.amount for f in piles(world)),
        )
    )
    group.phase = "after" if takes else "leaving"


def leave(world: World, adv: Adventurer, group: Group) -> None:
    """The member walks out at the portal: it escaped alive (K-DOOR-02, K-LEARN-07)."""
    was_in = adv.where is Whereabouts.IN
    if was_in:
        stepping.lift(world, adv)
    adv.where = Whereabouts.LEFT
    adv.present = False
    adv.left_at = world.now
    work.being_gone(world, adv.id)  # R-K-JOB-01: no minion goes on to carry or heal it
    adv.step_gen += 1
    world.emit(
        Event(
            "adventurer.left",
            ("K-AFTER-01", "K-LEARN-07"),
            {
                "adventurer": adv.id,
                "group": group.number,
                "at": [adv.pos.x, adv.pos.y] if was_in else None,
                "treasure": adv.treasure,
            },
        )
    )
    if not adv.id.startswith("adv:0-"):  # not a freed prisoner: one who came
        world.invasion.count("escaped")
    world.invasion.count("treasure", adv.treasure)
    if "cartographer" in adv.traits and adv.faction not in world.invasion.cartographers:
        world.invasion.cartographers.append(adv.faction)  # K-DOOR-02
    fallen.check_gone(world, group)
