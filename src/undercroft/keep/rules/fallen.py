"""The fallen: unconscious or dead, and what becomes of them (K-WAKE-01/02, K-AFTER-02).

Someone taken out of the fight (:mod:`undercroft.keep.rules.wounds`) stops whatever it was doing
and lies where it fell. Unconscious, it can be carried, healed, captured or killed
(K-WAKE-01); if it is not bleeding it wakes by itself within 4 game hours at most, and a
minion carried to its own bed within 1 game hour at most (K-WAKE-02). Unconscious
adventurers can be captured and held as prisoners, keeping their trap bonuses (K-AFTER-02,
K-LEARN-07); the dead can be butchered at a butcher table or left, and a pyre never burns
an adventurer (K-AFTER-02). Any death of a minion, adventurer or creature makes a noise
(K-PERC-03).

Ruling R-K-WAKE-01 says what the seed leaves to content: who bleeds (taken out by an edged
weapon with a wound the content lists, by default serious or critical), that a bleeding
being does not wake by itself and dies after the content's minutes unless healed, that
healing stops the bleeding and wakes it at once, and that the 4 hours and the 1 hour are
drawn as 1d240 and 1d60 minutes. Wound points stay as they were: one more wound takes a
woken being out again. Ruling R-K-WAKE-02 says what your minions do: a Chores-job minion
(or a Traps-job one with no trap work) carries a fallen minion to its bed, an unconscious
adventurer to a free prisoners' cell (``keep.options.fallen_adventurers``: or kills it, or
leaves it), a dead adventurer to a butcher table, and a dead minion or creature to a pyre
(else a butcher table); with nowhere to take a body, it is left where it lies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event, roll_event
from undercroft.core.grid import Pos
from undercroft.keep.rules import fray, movement, perception, stepping, work
from undercroft.keep.state import tasks
from undercroft.keep.state.actors import Being, Condition, Master, Minion
from undercroft.keep.state.clock import Priority, handles
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import Feature, Group

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

WAKE_MINUTES = 240
"""K-WAKE-02: not bleeding, one wakes by oneself within 4 game hours at most."""
BED_WAKE_MINUTES = 60
"""K-WAKE-02: a minion carried to its own bed wakes within 1 game hour at most."""


def _xy(pos: Pos) -> list[int]:
    return [pos.x, pos.y]


# -- what the rules above do when one falls ------------------------------------------------

MasterDied = Callable[["World", str], None]
WorkerHalted = Callable[["World", Group], None]

_MASTER_DIED: list[MasterDied] = []
"""What the invaders do when the Master dies (K-KO-04, K-AFTER-01): registered by
:mod:`undercroft.keep.rules.goals`, whose goals call :func:`heal` here."""

_WORKER_HALTED: list[WorkerHalted] = []
"""What a group does when the member on its way to a door or a trap falls (K-FORCE-01):
registered by :mod:`undercroft.keep.rules.forcing`, whose traps' effects take beings out here."""


def when_master_dies(fn: MasterDied) -> MasterDied:
    """Register what follows the Master's death (the invaders' goals do, once)."""
    _MASTER_DIED[:] = [fn]
    return fn


def when_worker_halts(fn: WorkerHalted) -> WorkerHalted:
    """Register what a group does when its worker falls (the forcing rules do, once)."""
    _WORKER_HALTED[:] = [fn]
    return fn


# -- falling -------------------------------------------------------------------------------


def halt(world: World, being: Being) -> None:
    """Whatever it was doing stops: its walk, its task, its fight, its step, its work."""
    movement.stop(world, being)
    if isinstance(being, Minion) and being.task is not None:
        work.release(world, being)
    if being.fighting:
        fray.leave_fight(world, being)
    being.held_until = being.terror_until = -1
    being.resume_to = None
    if isinstance(being, Adventurer):
        stepping.lift(world, being)
        being.step_gen += 1
        being.busy = None
        being.waiting_on = None
        group = world.invasion.groups.get(being.invasion)
        if group is not None and group.job is not None and group.job.worker == being.id:
            _WORKER_HALTED[0](world, group)


def take_out(
    world: World, being: Being, outcome: str, *, by: str, cause: str, blunt: bool, level: str
) -> None:
    """K-KO-01/02: ``being`` is out of the fight, ``unconscious`` or ``dead``."""
    halt(world, being)
    if outcome == "dead":
        die(world, being, by=by, cause=cause)
        return
    being.condition = Condition.UNCONSCIOUS
    combat = world.ruleset.combat
    at = being.pos
    fields: dict[str, Any] = {"being": being.id, "kind": being.kind, "at": _xy(at), "by": by}
    if not blunt and level in combat.bleeds:
        being.bleeding_until = world.now + combat.bleed_minutes
        world.schedule(being.bleeding_until, Priority.FALLEN, "fallen", being.id, "bleed")
        fields.update(bleeding=True, until=being.bleeding_until)
    else:
        _wake_roll(world, being, WAKE_MINUTES, ("K-WAKE-02", "R-K-WAKE-01"))
        fields.update(bleeding=False, until=being.wake_at)
    fields["cause"] = cause
    world.emit(Event("being.unconscious", ("K-KO-02", "K-WAKE-01", "K-WAKE-02"), fields))
    post_work(world, being)


def _wake_roll(world: World, being: Being, within: int, rules: tuple[str, ...]) -> None:
    """K-WAKE-02: when it wakes (1dN minutes from now, ruling R-K-WAKE-01); an earlier
    time already drawn stands."""
    natural = world.streams["combat"].die(within)
    at = world.now + natural
    world.emit(roll_event(rules, being.id, [natural], natural, sides=within, within_minutes=within))
    if being.wake_at is None or at < being.wake_at:
        being.wake_at = at
        world.schedule(at, Priority.FALLEN, "fallen", being.id, "wake")


@handles("fallen")
def on_due(world: World, args: tuple[Any, ...]) -> None:
    """A fallen being's time: it wakes (K-WAKE-02) or bleeds to death (R-K-WAKE-01)."""
    being = world.beings.get(str(args[0]))
    if being is None or being.condition is not Condition.UNCONSCIOUS:
        return
    if args[1] == "wake" and being.wake_at == world.now and being.bleeding_until is None:
        wake(world, being, "by_itself")
    elif args[1] == "bleed" and being.bleeding_until == world.now:
        by = str(being.wounds[-1]["source"]) if being.wounds else being.id
        die(world, being, by=by, cause="bleeding")


def die(world: World, being: Being, *, by: str, cause: str) -> None:
    """Dead (K-KO-02): a body where it lies; a noise for K-PERC-03; the invasion goes on."""
    if being.carried_by is not None:
        _drop_from(world, being)
    being.condition = Condition.DEAD
    being.body = "lying"
    being.bleeding_until = being.wake_at = None
    being.present = False
    # R-K-JOB-01: work about it as it was (heal it, carry it unconscious) ends; the work a
    # body needs is posted afresh below.
    work.cancel_for(world, being.id, work.BODY_WORK)
    at = being.pos
    world.emit(
        Event(
            "being.died",
            ("K-KO-02", "K-KO-04") if being.kind in ("creature", "master") else ("K-KO-02",),
            {"being": being.id, "kind": being.kind, "at": _xy(at), "by": by, "cause": cause},
        )
    )
    if isinstance(being, Adventurer):
        was_prisoner = being.where is Whereabouts.PRISONER
        being.where = Whereabouts.DEAD
        if was_prisoner:
            stepping.lift(world, being)
        world.invasion.count("dead")
        group = world.invasion.groups.get(being.invasion)
        if group is not None:
            check_gone(world, group)
    elif isinstance(being, Master):
        world.invasion.totals["master_died"] = world.now
        _MASTER_DIED[0](world, by)
    else:
        world.invasion.count(f"{being.kind}s_dead")
    if not isinstance(being, Master):
        perception.noise(world, at, "death", being.id)  # K-PERC-03
    post_work(world, being)


def wake(world: World, being: Being, how: str) -> None:
    """It comes to (K-WAKE-02), with its wounds; back to what it was doing."""
    if being.carried_by is not None:
        _drop_from(world, being)
    being.condition = Condition.UP
    if not isinstance(being, Adventurer) and world.bodies.get(being.pos) not in (None, being.id):
        # K-CROWD-01: an adventurer or a fighter stands over it: it gets up beside them.
        being.pos = stepping.free_tile_near(world, being, being.pos)
    being.wake_at = being.bleeding_until = None
    being.mended_at = world.now  # its wounds mend from now on (ruling R-K-WAKE-01)
    work.cancel_for(world, being.id, work.BODY_WORK)  # up: nobody carries or heals it
    world.emit(
        Event(
            "being.woke",
            ("K-WAKE-02",) if how != "healed" else ("K-WAKE-01", "R-K-WAKE-01"),
            {"being": being.id, "at": _xy(being.pos), "how": how},
        )
    )
    if isinstance(being, Adventurer):
        if being.where is Whereabouts.IN:
            stepping.place(world, being, stepping.free_tile_near(world, being, being.pos))
            being.set_path([])
            being.path_stamp = ()  # it plans its way again from where it lies
            stepping.queue_step(world, being, 1)
        return
    if isinstance(being, Minion):
        world.request_dispatch()
    fray.consider(world, being)
    if not being.fighting:
        fray.go_home(world, being)


def heal(world: World, healer: Being, patient: Being) -> None:
    """K-WAKE-01: healed: the bleeding stops and it wakes at once (ruling R-K-WAKE-01)."""
    if patient.condition is not Condition.UNCONSCIOUS:
        return
    world.emit(
        Event(
            "being.healed",
            ("K-WAKE-01", "R-K-WAKE-01"),
            {
                "being": patient.id,
                "by": healer.id,
                "at": _xy(patient.pos),
                "bleeding": patient.bleeding_until is not None,
            },
        )
    )
    wake(world, patient, "healed")


def kill(world: World, killer: Being, victim: Being) -> None:
    """K-WAKE-01: an unconscious being killed where it lies."""
    if victim.condition is not Condition.UNCONSCIOUS:
        return
    world.emit(
        Event(
            "being.killed",
            ("K-WAKE-01",),
            {"being": victim.id, "by": killer.id, "at": _xy(victim.pos)},
        )
    )
    die(world, victim, by=killer.id, cause="killed")


# -- carrying (your minions' work, ruling R-K-WAKE-02) -------------------------------------


def needs_carrying(world: World, body: Being) -> bool:
    """Whether your minions have somewhere to take this fallen being (or, for an
    unconscious adventurer under ``fallen_adventurers = "kill"``, something to do)."""
    if body.condition is Condition.UNCONSCIOUS:
        if isinstance(body, Minion):
            return body.side().value == "keep" and body.home not in (None, body.pos)
        if isinstance(body, Adventurer):
            policy = world.options.fallen_adventurers
            return body.where is Whereabouts.IN and (
                policy == "kill" or (policy == "capture" and bool(features(world, "cell")))
            )
        return False
    if body.condition is Condition.DEAD and body.body == "lying":
        if isinstance(body, Adventurer):
            return bool(features(world, "butcher"))  # K-AFTER-02: never a pyre
        return bool(features(world, "pyre") or features(world, "butcher"))
    return False


def needs_healing(world: World, body: Being) -> bool:
    """K-WAKE-01: your healers heal a fallen being of your side, and a prisoner who is
    bleeding (ruling R-K-WAKE-02: the keeper wants them alive)."""
    if body.condition is not Condition.UNCONSCIOUS or body.carried_by is not None:
        return False
    if isinstance(body, Adventurer):
        return body.where is Whereabouts.PRISONER and body.bleeding_until is not None
    return body.side().value == "keep"


def post_work(world: World, body: Being) -> None:
    if needs_healing(world, body):
        work.add_task(world, tasks.TaskKind.HEAL, body.id)
    if needs_carrying(world, body):
        work.add_task(world, tasks.TaskKind.CARRY, body.id)


def features(world: World, kind: str) -> list[Feature]:
    return [f for f in world.invasion.features.values() if f.kind == kind]


def destination(world: World, body: Being) -> tuple[str, Pos] | None:
    """Where a carrier takes this body: ``bed``, ``cell``, ``pyre`` or ``butcher`` (or
    ``kill``: nowhere, it is killed where it lies), and the tile."""
    if not needs_carrying(world, body):
        return None
    if body.condition is Condition.UNCONSCIOUS:
        if isinstance(body, Minion):
            assert body.home is not None
            return "bed", body.home
        if world.options.fallen_adventurers == "kill":
            return "kill", body.pos
        cells = [c for c in features(world, "cell") if _cell_free(world, c)]
        if not cells:
            return None
        cell = min(cells, key=lambda c: (c.pos.chebyshev(body.pos), c.pos.y, c.pos.x))
        return "cell", cell.pos
    if isinstance(body, Adventurer):
        tables = features(world, "butcher")
        return ("butcher", tables[0].pos) if tables else None
    pyres = features(world, "pyre")
    if pyres:
        return "pyre", pyres[0].pos
    tables = features(world, "butcher")
    return ("butcher", tables[0].pos) if tables else None


def _cell_free(world: World, cell: Feature) -> bool:
    held = world.bodies.get(cell.pos)
    return held is None or held not in world.beings


def lift(world: World, carrier: Minion, body: Being) -> None:
    """The carrier picks the body up (K-WAKE-01: carried)."""
    body.carried_by = carrier.id
    if body.body == "lying":
        body.body = "carried"
    work.cancel_for(world, body.id, (tasks.TaskKind.HEAL,))  # carried away from its healer
    world.emit(
        Event(
            "being.carried",
            ("K-WAKE-01", "K-AFTER-02", "R-K-WAKE-02"),
            {"being": body.id, "by": carrier.id, "from": _xy(body.pos)},
        )
    )


def _drop_from(world: World, body: Being) -> None:
    """The carrier lets go (it woke, died, or the carrier stopped): it lies there."""
    carrier = world.beings.get(body.carried_by or "")
    body.carried_by = None
    if body.body == "carried":
        body.body = "lying"
    if carrier is not None:
        body.pos = carrier.pos_at(world.now)
    world.emit(
        Event(
            "being.laid",
            ("K-WAKE-01",),
            {
                "being": body.id,
                "by": carrier.id if carrier else None,
                "at": _xy(body.pos),
                "where": "floor",
            },
        )
    )


def drop(world: World, body: Being) -> None:
    """A carrier stops on the way (its task released): the body lies where it is."""
    if body.carried_by is not None:
        _drop_from(world, body)
        post_work(world, body)


def deliver(world: World, carrier: Minion, body: Being, where: str, at: Pos) -> None:
    """The carrier lays the body down where it was taking it."""
    body.carried_by = None
    body.pos = at
    if where == "bed":
        world.emit(
            Event(
                "being.laid",
                ("K-WAKE-01", "K-WAKE-02", "R-K-WAKE-02"),
                {"being": body.id, "by": carrier.id, "at": _xy(at), "where": "bed"},
            )
        )
        if body.condition is Condition.UNCONSCIOUS and body.bleeding_until is None:
            _wake_roll(world, body, BED_WAKE_MINUTES, ("K-WAKE-02",))  # K-WAKE-02: own bed
        post_work(world, body)  # a healer may come to it there
    elif where == "cell" and isinstance(body, Adventurer):
        capture(world, carrier, body, at)
    elif where == "pyre":
        assert not isinstance(body, Adventurer)  # K-AFTER-02: a pyre never burns one
        body.body = "burned"
        world.emit(
            Event(
                "body.burned",
                ("K-AFTER-02", "R-K-WAKE-02"),
                {"body": body.id, "kind": body.kind, "by": carrier.id, "at": _xy(at)},
            )
        )
    elif where == "butcher":
        body.body = "butchered"
        world.emit(
            Event(
                "body.butchered",
                ("K-AFTER-02", "R-K-WAKE-02"),
                {"body": body.id, "kind": body.kind, "by": carrier.id, "at": _xy(at)},
            )
        )


def capture(world: World, by: Being, adv: Adventurer, cell: Pos) -> None:
    """K-AFTER-02: an unconscious adventurer held as a prisoner (its bonuses kept,
    K-LEARN-07); the invasion counts it as captured."""
    adv.where = Whereabouts.PRISONER
    adv.captured_at = world.now
    stepping.place(world, adv, cell)
    world.invasion.count("captured")
    post_work(world, adv)  # a bleeding prisoner is healed if a healer can
    world.emit(
        Event(
            "adventurer.captured",
            ("K-AFTER-02", "K-LEARN-07", "R-K-WAKE-02"),
            {"adventurer": adv.id, "by": by.id, "at": _xy(cell), "group": adv.invasion},
        )
    )
    group = world.invasion.groups.get(adv.invasion)
    if group is not None:
        check_gone(world, group)


def fallen_near(world: World, pos: Pos, tiles: int) -> list[Being]:
    """Unconscious beings within ``tiles`` of ``pos`` (not carried)."""
    return [
        b
        for b in world.beings.values()
        if b.condition is Condition.UNCONSCIOUS
        and b.carried_by is None
        and b.pos.chebyshev(pos) <= tiles
        and (not isinstance(b, Adventurer) or b.where is Whereabouts.IN)
    ]


GONE = (Whereabouts.LEFT, Whereabouts.DEAD, Whereabouts.PRISONER)


def check_gone(world: World, group: Group) -> None:
    """The invasion ends when every member has left, died or been captured."""
    if group.phase == "ended":
        return
    if all(
        isinstance(m := world.beings.get(mid), Adventurer) and m.where in GONE
        for mid in group.members
    ):
        world.schedule(world.now, Priority.DIRECTOR, "invasion_end", group.number)
