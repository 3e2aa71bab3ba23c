"""Your side in a fight: the Master, minions, lair creatures and spiders, tile by tile.

Out of a fight your beings walk planned walks (:mod:`undercroft.keep.rules.movement`). When one
learns of an enemy (it sees one, K-PERC-01; it is hit, K-PERC-02; it hears a noise,
K-PERC-03; the keeper orders an attack, K-LOCK-03) its stance decides (K-STANCE-01,
:func:`undercroft.keep.rules.stances.decide`); unless the decision is to carry on, it stops
what it was doing and fights: it takes a tile of its own (one body per tile, K-CROWD-01;
two kobolds may share one, K-CROWD-02) and takes a turn after each attack, step or wait,
deciding again each turn with what it knows then. When it knows of no enemy its stance
cares about, it leaves the fight and goes back to its work, its lair or its place.

K-LOCK-03: closing in on an enemy, a minion passes a closed door only if the keeper
ordered it to attack that enemy, a lair creature never, the Master always
(:func:`undercroft.keep.rules.locks.may_open_to_reach`); every other step (keeping away,
fleeing, regrouping, going home) passes the doors K-LOCK-02 lets it pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.core.paths import DoorPassage
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import combat, doors, fray, locks, movement, perception, stepping, work
from undercroft.keep.rules.stances import Act, Decision, Foe, Reach, Situation, decide
from undercroft.keep.state.actors import Being, Condition, Master, Minion, Stance
from undercroft.keep.state.clock import Priority, handles
from undercroft.keep.state.invaders import Adventurer, Whereabouts

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def _xy(pos: Pos) -> list[int]:
    return [pos.x, pos.y]


def stance_of(world: World, being: Being) -> Stance:
    """A minion's own stance; the Master's and a creature's are content (R-K-STANCE-02)."""
    if isinstance(being, Minion):
        return being.stance
    if isinstance(being, Master):
        return Stance(world.ruleset.combat.master_stance)
    kind = world.ruleset.creatures.get(being.breed)
    return Stance(kind.stance if kind is not None else "normal")


def live_foes(world: World, being: Being) -> list[Being]:
    """The enemies it knows of that are still up on the map (the rest are forgotten)."""
    out = []
    for foe_id in list(being.foes):
        foe = world.beings.get(foe_id)
        up = foe is not None and foe.present and foe.condition is Condition.UP
        if isinstance(foe, Adventurer):
            up = up and foe.where is Whereabouts.IN
        if foe is None or not up or not combat.enemies(being, foe):
            del being.foes[foe_id]
            being.struck_by.pop(foe_id, None)
        else:
            out.append(foe)
    return out


def _room_next_to(world: World, being: Being, pos: Pos) -> bool:
    solid = world.solid()
    return any(
        not solid[p.y, p.x] and stepping.room_for(world, being, p)
        for p in world.grid.neighbours(pos)
    )


def situation(world: World, being: Being, foes: list[Being]) -> Situation:
    """What the stance decides on (K-STANCE-01: no dice, only the state).

    What a stance never weighs is not worked out (``stances.decide``): a Flee or Avoid
    stance looks for room beside an enemy only when ordered to attack it, and whether it
    is cornered only when an enemy is within its limit and one is in reach; only the
    Defensive stance asks where its nearest ally is. Those fields are then False or None.
    """
    here = being.pos_at(world.now)
    ranged = combat.weapon_of(world, being).ranged
    stance = stance_of(world, being)
    reach_tiles = _reach(world)
    ordered = frozenset(getattr(being, "attack_orders", ()))
    limit = _wary_limit(reach_tiles, stance)
    wary = limit is not None
    wheres = [Pos(*being.foes[foe.id]) for foe in foes]  # where it knows them to be
    distances = [here.chebyshev(where) for where in wheres]
    # A wary stance with every enemy beyond its limit and none it was ordered to attack
    # carries on whatever its reach: reach and room are not worked out.
    aloof = limit is not None and _aloof(foes, distances, limit, ordered)
    known = []
    for foe, distance in zip(foes, distances, strict=True):
        struck = world.now - being.struck_by.get(foe.id, -10) <= 1
        if aloof:
            known.append(Foe(foe.id, distance, False, False, struck))
            continue
        reach = combat.in_reach(world, being, foe)
        weighs_room = not wary or foe.id in ordered
        room = reach or ranged or (weighs_room and _room_next_to(world, being, foe.pos))
        known.append(Foe(foe.id, distance, reach, room, struck))
    ally = None
    if stance is Stance.DEFENSIVE:
        allies = [b.pos.chebyshev(here) for b in _allies(world, being)]
        ally = min(allies) if allies else None
    cornered = False
    threatened = limit is not None and not aloof and bool(distances) and min(distances) <= limit
    if threatened and any(f.in_reach for f in known):
        cornered = _away_step(world, being, wheres) is None
    return Situation(
        stance=stance,
        foes=tuple(known),
        ordered=ordered,
        ally=ally,
        cornered=cornered,
        reach=reach_tiles,
    )


def _reach(world: World) -> Reach:
    c = world.ruleset.combat
    return Reach(c.flee_tiles, c.avoid_tiles, c.defend_tiles, c.engage_tiles)


def _wary_limit(reach: Reach, stance: Stance) -> int | None:
    """How near an enemy may come before a Flee or Avoid stance acts (None: not wary)."""
    if stance is Stance.FLEE:
        return reach.flee
    return reach.avoid if stance is Stance.AVOID else None


def _aloof(foes: list[Being], distances: list[int], limit: int, ordered: frozenset[str]) -> bool:
    """A wary stance's enemies all beyond its limit, none it was ordered to attack: it
    carries on (``stances.decide``, R-K-STANCE-02), whatever its reach."""
    return bool(distances) and min(distances) > limit and not any(f.id in ordered for f in foes)


def _carries_on(world: World, being: Being, foes: list[Being]) -> bool:
    """Whether a Flee or Avoid stance out of the fight carries on, told before its whole
    situation is worked out: a wary being watching a group go by asks this at every step
    of every member (K-PERC-01), and it is what ``decide`` would say."""
    limit = _wary_limit(_reach(world), stance_of(world, being))
    if limit is None:
        return False
    here = being.pos_at(world.now)
    distances = [here.chebyshev(Pos(*being.foes[foe.id])) for foe in foes]
    return _aloof(foes, distances, limit, frozenset(getattr(being, "attack_orders", ())))


@fray.considers
def consider(world: World, being: Being) -> None:
    """It learned of an enemy (or woke, or was given an order): does it join the fight?"""
    if being.fighting or not fray.can_fight(being):
        return
    foes = live_foes(world, being)
    if not foes or _carries_on(world, being, foes):
        return
    decision = decide(situation(world, being, foes))
    if decision.act is Act.CARRY_ON:
        return
    engage(world, being)


def engage(world: World, being: Being) -> None:
    """It stops what it was doing and fights, tile by tile (K-CROWD-01: a tile of its own)."""
    movement.stop(world, being)
    if isinstance(being, Minion) and being.task is not None:
        work.release(world, being)
    being.fighting = True
    being.resume_to = None
    stepping.occupy(world, being, stepping.free_tile_near(world, being, being.pos))
    world.forget("viewers")
    _queue(world, being, 0)


def _queue(world: World, being: Being, after: int) -> None:
    being.fight_gen += 1
    world.schedule_tick(world.tick + after, Priority.FIGHT, "fighter", being.id, being.fight_gen)


@handles("fighter")
def on_turn(world: World, args: tuple[Any, ...]) -> None:
    """A fighter's queued turn (stale ones are ignored)."""
    being = world.beings.get(str(args[0]))
    if being is None or not being.fighting or being.fight_gen != int(args[1]):
        return
    if not fray.can_fight(being):
        fray.leave_fight(world, being)
        return
    turn(world, being)


def _seconds(n: int) -> int:
    return n * TICKS_PER_MINUTE // 60


def _pace(being: Being) -> int:
    return being.pace * TICKS_PER_MINUTE


def turn(world: World, being: Being) -> None:
    """Look, decide (K-STANCE-01), act; queue the next turn."""
    perception.defender_looks(world, being)
    wait = _seconds(world.ruleset.combat.wait_seconds)
    if being.terror_until > world.now:
        assert being.terror_from is not None
        step = _away_step(world, being, [being.terror_from])
        if step is not None and being.held_until <= world.now:
            _step(world, being, step)
        _queue(world, being, _pace(being) if step is not None else wait)
        return
    foes = live_foes(world, being)
    decision = decide(situation(world, being, foes))
    held = being.held_until > world.now
    if held and decision.act not in (Act.ATTACK, Act.CARRY_ON):
        decision = Decision(Act.HOLD, decision.target, "held by a web (K-TRAP-03)")
    _note(world, being, decision)
    act = decision.act
    if act is Act.CARRY_ON:
        if held:
            _queue(world, being, wait)
            return
        fray.leave_fight(world, being)
        fray.go_home(world, being)
        return
    if act is Act.ATTACK:
        target = world.beings[str(decision.target)]
        combat.attack(world, being, target)
        if being.fighting and being.condition is Condition.UP:
            _queue(world, being, _seconds(combat.weapon_of(world, being).seconds))
        return
    moved: bool | None = False
    if act is Act.CLOSE_IN:
        moved = _close_in(world, being, world.beings[str(decision.target)])
    elif act in (Act.KEEP_AWAY, Act.FLEE):
        step = _away_step(world, being, [Pos(*being.foes[f.id]) for f in foes])
        moved = step is not None and _step(world, being, step)
    elif act is Act.REGROUP:
        moved = _regroup(world, being)
    if being.fighting and being.condition is Condition.UP:
        # No way at all to the enemy (K-LOCK-03: a door it may not open): look again later.
        later = wait * NO_WAY_WAITS if moved is None else wait
        _queue(world, being, _pace(being) if moved else later)


def _note(world: World, being: Being, decision: Decision) -> None:
    """Log a decision when it changes (what the stance chose and why)."""
    word = f"{decision.act.value}:{decision.target or ''}"
    if word == being.decision:
        return
    being.decision = word
    world.emit(
        Event(
            "fighter.decision",
            ("K-STANCE-01", "R-K-STANCE-01", "R-K-STANCE-02"),
            {
                "being": being.id,
                "stance": stance_of(world, being).value,
                "act": decision.act.value,
                "target": decision.target,
                "why": decision.why,
                "at": _xy(being.pos),
            },
        )
    )


# -- moving in a fight ----------------------------------------------------------------------


def _blocked(world: World, being: Being, *keep_free: Pos) -> list[Pos]:
    """The tiles a fighter's way goes round: bodies it has no room beside, and your beings
    standing out of the fight (K-CROWD-01)."""
    held = [
        p for p in world.bodies if p not in keep_free and not stepping.room_for(world, being, p)
    ]
    still = stepping.standing_still(world)
    return held + [p for p in still if p not in keep_free and p not in world.bodies]


NO_WAY_WAITS = 6
"""A fighter with no way to its enemy looks again after six waits."""


def _close_in(world: World, being: Being, target: Being) -> bool | None:
    """Step towards the target by the shortest way its K-LOCK-03 door rights allow;
    None if there is no way to it at all (bodies aside)."""
    passage = (
        DoorPassage.ALL if locks.may_open_to_reach(being, target.id) else DoorPassage.OPEN_ONLY
    )
    goal = target.pos
    finder = world.pathfinder(passage)
    path = finder.path(being.pos, goal, bodies=_blocked(world, being, being.pos, goal))
    if not path:
        return None if finder.path(being.pos, goal) is None else False
    if path[0] == goal:
        return False
    return _step(world, being, path[0])


FIGHTING_STANCES = (Stance.DEFENSIVE, Stance.NORMAL, Stance.AGGRESSIVE)


def _allies(world: World, being: Being) -> list[Being]:
    """R-K-STANCE-02: the allies one regroups with: your beings in the fight whose stance
    fights (not those keeping away or fleeing)."""
    return [
        b
        for b in world.beings.values()
        if b is not being
        and b.fighting
        and b.condition is Condition.UP
        and fray.can_fight(b)
        and stance_of(world, b) in FIGHTING_STANCES
    ]


def _regroup(world: World, being: Being) -> bool:
    allies = _allies(world, being)
    if not allies:
        return False
    ally = min(allies, key=lambda b: (b.pos.chebyshev(being.pos), b.id))
    path = world.pathfinder(movement.passage_for(being)).path(
        being.pos, ally.pos, bodies=_blocked(world, being, being.pos, ally.pos)
    )
    if not path or path[0] == ally.pos:
        return False
    return _step(world, being, path[0])


def _passable(world: World, being: Being, pos: Pos) -> bool:
    if world.solid()[pos.y, pos.x] or not stepping.room_for(world, being, pos):
        return False
    door = world.door_at(pos)
    if door is None or door.open:
        return True
    lock = world.lock_of(door)
    return lock is None or not lock.armed or locks.may_pass_locks(being)


def _away_step(world: World, being: Being, dangers: list[Pos]) -> Pos | None:
    """The free tile beside it that takes it farthest from ``dangers`` (farther than now),
    in the order north, east, south, west on ties; None: cornered."""
    if not dangers:
        return None
    here = being.pos

    def gap(p: Pos) -> int:
        return min(p.chebyshev(d) for d in dangers)

    best: Pos | None = None
    best_gap = gap(here)
    for p in world.grid.neighbours(here):
        if _passable(world, being, p) and gap(p) > best_gap:
            best, best_gap = p, gap(p)
    return best


def _step(world: World, being: Being, to: Pos) -> bool:
    """One step in a fight: doors opened as K-LOCK-02 allows, triggers as for any walker."""
    if not stepping.room_for(world, being, to):
        return False
    door = world.door_at(to)
    if door is not None and not door.open:
        lock = world.lock_of(door)
        if lock is not None and lock.armed and not locks.may_pass_locks(being):
            return False  # K-LOCK-02
    stepping.move_body(world, being, to)
    if door is not None and not door.open:
        doors.step_in(world, door, being)  # open while it stands in it (R-K-DOOR-01)
    world.forget("viewers")
    for trigger_id in list(world.trigger_zones().get(to, ())):
        stepping.enters(world, trigger_id, being)
    if being.condition is Condition.UP:
        perception.defender_looks(world, being)
    return True
