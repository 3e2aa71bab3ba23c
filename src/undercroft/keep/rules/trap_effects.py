"""What a mechanism does to whoever it catches (K-TRAP-03, K-REARM-03a, K-LEARN-06).

Every mechanism reaches the beings within its content radius of its tile (R-K-TRAP-01)
along a line of fire from its tile: an area never reaches through a wall or round a wall
corner (ruling R-K-TRAP-02, the core's :meth:`~undercroft.core.sight.Sight.line_of_fire`).
By default it harms your own side as well (the seed's fumbled rearm "may hurt that
minion"); ``keep.options.trap_friendly_fire = false`` spares your Master, minions and
creatures, all but the minion whose rearm fumbled.

Each one caught by a wound, gas, web or terror resists with an opposed roll of the dice
model (K-CMB-01): the mechanism rolls its content ``power`` plus its quality grade value,
the victim its Block plus Caution's bonus (K-CAUT-03: +1 or +2 to resist traps; none
inside gas, K-LEARN-06) plus what it learned of that mechanism kind (K-LEARN-03); ties go
to the victim (R-K-DICE-01). One who fails is wounded (the content's level, a location
drawn on the content's table), held by the web, or made to flee from the trap, for the
content's duration. A gas sprayer also leaves a cloud for its duration whoever it caught
(K-LEARN-06); a spider trap releases the content's spiders, which fight for you until the
duration runs out; an alarm sights the group of whoever set it off (K-ARR-03, in
:mod:`undercroft.keep.rules.learning`).

A planned walker (a minion at its work, a visitor) that a web holds or terror drives off
stops its walk, and takes it up again when the hold or terror ends; walkers stepping tile
by tile (adventurers, beings in a fight) are held or flee at their own next step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.content.ruleset import Effect, MechanismKind
from undercroft.keep.rules import caution, combat, fray, movement, work, wounds
from undercroft.keep.state.actors import Being, Creature, Minion, Side
from undercroft.keep.state.clock import Priority, handles
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.structures import Mechanism

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

RESISTED = (Effect.WOUND, Effect.GAS, Effect.HOLD, Effect.FLEE)
"""The effects a victim resists with Block (the rest need no roll)."""


def _xy(pos: Pos) -> list[int]:
    return [pos.x, pos.y]


def caught(world: World, mech: Mechanism, kind: MechanismKind, fumbler: str | None) -> list[Being]:
    """Who the mechanism reaches now (R-K-TRAP-01, ruling R-K-TRAP-02): every being up
    within its radius along a clear line of fire; your side too unless switched off."""
    sight = world.sight()
    spare_own = not world.options.trap_friendly_fire
    found = []
    for being in world.present():
        if not being.up or being.carried_by is not None:
            continue
        pos = being.pos_at(world.now)
        if not world.options.within(pos, mech.pos, kind.area):
            continue
        if not sight.line_of_fire(mech.pos, pos):
            continue  # an area never reaches through a wall (R-K-TRAP-02)
        if spare_own and being.side() is Side.KEEP and being.id != fumbler:
            continue
        found.append(being)
    return found


def act(
    world: World,
    mech: Mechanism,
    kind: MechanismKind,
    victims: list[Being],
    by: str,
) -> None:
    """K-TRAP-03: the mechanism's effect on everyone it caught."""
    if kind.effect is Effect.GAS and kind.duration:
        _cloud(world, mech, kind)
    if kind.effect is Effect.SUMMON and kind.summon is not None:
        _spiders(world, mech, kind, by)
    if kind.effect in RESISTED:
        for victim in victims:
            if victim.up and not resists(world, mech, kind, victim):
                _befall(world, mech, kind, victim)
    remains = kind.effect.value in world.ruleset.adventurers.remains_from
    if victims and remains and world.options.invasions:
        caution.leave_remains(world, mech.pos, mech.kind, world.invasion.director.next_number - 1)


def resists(world: World, mech: Mechanism, kind: MechanismKind, victim: Being) -> bool:
    """K-CMB-01, K-CAUT-03, K-LEARN-03/06: the victim's Block against the mechanism."""
    model = world.options.dice_model
    stream = world.streams["combat"]
    quality = model.grade_value(mech.quality)
    attack = model.roll(stream, "power", kind.power, {"quality": quality} if quality else {})
    bonuses: dict[str, int] = {}
    rules = ["K-TRAP-03", "K-CMB-01", "R-K-DICE-01", "R-K-TRAP-02"]
    if isinstance(victim, Adventurer):
        group = world.invasion.groups.get(victim.invasion)
        bonus = caution.bonus(world, victim, group) if group is not None else 0
        if bonus:
            bonuses["caution"] = bonus
            rules.append("K-CAUT-03")
        elif group is not None and group.caution and caution.in_gas(world, victim.pos):
            rules.append("K-LEARN-06")  # inside the gas: no Caution bonus
        learned = victim.block.get(mech.kind, 0)
        if learned:
            bonuses["learned"] = learned
            rules.append("K-LEARN-03")
    defence = model.roll(stream, "block", victim.attributes.block, bonuses)
    hit = model.attacker_wins(attack, defence)
    inputs = {"trap": mech.id, "mechanism": mech.kind, "target": victim.id}
    world.emit(model.roll_event(tuple(rules), mech.id, attack, "win" if hit else "lose", **inputs))
    world.emit(
        model.roll_event(tuple(rules), victim.id, defence, "lose" if hit else "win", **inputs)
    )
    return not hit


def _befall(world: World, mech: Mechanism, kind: MechanismKind, victim: Being) -> None:
    if kind.wound != "none":
        location = combat.location(world, mech.id, victim)
        outcome = wounds.inflict(
            world,
            victim,
            source=mech.id,
            weapon=mech.kind,
            blunt=kind.blunt,
            level=kind.wound,
            location=location,
            rules=("K-TRAP-03",),
        )
        if outcome is not None:
            return
    if kind.effect is Effect.HOLD:
        hold(world, victim, world.now + kind.duration, mech.id)
    elif kind.effect is Effect.FLEE:
        terrify(world, victim, world.now + kind.duration, mech.pos, mech.id)


# -- gas, spiders ----------------------------------------------------------------------------


def _cloud(world: World, mech: Mechanism, kind: MechanismKind) -> None:
    """K-LEARN-06: the gas hangs there for its duration."""
    until = world.now + kind.duration
    world.invasion.gas = [g for g in world.invasion.gas if g["until"] > world.now]
    world.invasion.gas.append({"at": _xy(mech.pos), "area": kind.area, "until": until})
    world.emit(
        Event(
            "gas.cloud",
            ("K-TRAP-03", "K-LEARN-06"),
            {"trap": mech.id, "at": _xy(mech.pos), "area": kind.area, "until": until},
        )
    )


def _spiders(world: World, mech: Mechanism, kind: MechanismKind, by: str) -> None:
    """K-TRAP-03: the spider trap releases its spiders on free tiles of its area; they are
    your side's until the duration runs out, and know who set the trap off."""
    assert kind.summon is not None
    breed = world.ruleset.creatures[kind.summon]
    solid = world.solid()
    sight = world.sight()
    taken = {b.pos_at(world.now) for b in world.present() if b.up}
    tiles = sorted(
        (
            p
            for dy in range(-kind.area, kind.area + 1)
            for dx in range(-kind.area, kind.area + 1)
            if world.grid.in_bounds(p := mech.pos.offset(dx, dy))
            and not solid[p.y, p.x]
            and p not in taken
            and world.options.within(p, mech.pos, kind.area)
            and sight.line_of_fire(mech.pos, p)
        ),
        key=lambda p: (p.chebyshev(mech.pos), p.y, p.x),
    )
    until = world.now + kind.duration
    made = []
    setter = world.beings.get(by)
    for pos in tiles[: kind.count]:
        pace = breed.minutes_per_tile * world.options.minutes_per_tile
        spider = Creature(world.new_id("creature"), breed.key, breed.attributes, pos, pace)
        spider.equip(breed)
        spider.summoned_until = until
        spider.home = pos
        world.beings[spider.id] = spider
        made.append(spider.id)
        world.schedule(until, Priority.FALLEN, "effect_end", spider.id, "summoned", until)
    world.emit(
        Event(
            "creatures.summoned",
            ("K-TRAP-03",),
            {
                "trap": mech.id,
                "breed": breed.key,
                "creatures": made,
                "at": _xy(mech.pos),
                "until": until,
            },
        )
    )
    for spider_id in made:
        released = world.beings[spider_id]
        if isinstance(setter, Adventurer) and setter.up and setter.on_map:
            released.foes[setter.id] = _xy(setter.pos)
        fray.consider(world, released)


# -- held and in terror ------------------------------------------------------------------------


def hold(world: World, being: Being, until: int, source: str) -> None:
    """K-TRAP-03: a web holds it: it cannot step until ``until``."""
    being.held_until = max(being.held_until, until)
    world.emit(
        Event(
            "being.held",
            ("K-TRAP-03",),
            {
                "being": being.id,
                "by": source,
                "at": _xy(being.pos_at(world.now)),
                "until": being.held_until,
            },
        )
    )
    _interrupt(world, being, until, "held")


def terrify(world: World, being: Being, until: int, away_from: Pos, source: str) -> None:
    """K-TRAP-03: terror: it flees from the trap until ``until``."""
    being.terror_until = max(being.terror_until, until)
    being.terror_from = away_from
    world.emit(
        Event(
            "being.terrified",
            ("K-TRAP-03",),
            {
                "being": being.id,
                "by": source,
                "at": _xy(being.pos_at(world.now)),
                "until": being.terror_until,
                "from": _xy(away_from),
            },
        )
    )
    if _interrupt(world, being, until, "terror"):
        flee_walk(world, being, away_from, until - world.now)


def _interrupt(world: World, being: Being, until: int, what: str) -> bool:
    """A planned walker stops (remembering where it was going); True if it walks planned
    walks (adventurers and fighters step tile by tile and see to it themselves)."""
    if isinstance(being, Adventurer) or being.fighting:
        return False
    walk = being.walk
    if walk is not None:
        being.resume_to = walk.path[-1] if walk.path else walk.origin
    movement.stop(world, being)
    if what == "terror" and isinstance(being, Minion) and being.task is not None:
        work.release(world, being)  # it runs from its work; the work stays open
        being.resume_to = None
    world.schedule(until, Priority.FALLEN, "effect_end", being.id, what, until)
    return True


def flee_walk(world: World, being: Being, away_from: Pos, minutes: int) -> None:
    """Terror for a planned walker: walk to the reachable tile farthest from the trap
    within the steps it has time for (ties: the nearer walk, then row and column)."""
    passage = movement.passage_for(being)
    dist = world.distances(being.pos, passage)
    steps = max(1, minutes // max(1, being.pace))
    best: tuple[int, int, int, int] | None = None
    chosen = None
    ys, xs = ((dist >= 0) & (dist <= steps)).nonzero()
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        p = Pos(x, y)
        key = (-p.chebyshev(away_from), int(dist[y, x]), y, x)
        if best is None or key < best:
            best, chosen = key, p
    if chosen is not None and chosen != being.pos:
        movement.walk_to(world, being, chosen)


@handles("effect_end")
def on_end(world: World, args: tuple[Any, ...]) -> None:
    """A hold, a terror or a summoning is over (K-TRAP-03)."""
    being = world.beings.get(str(args[0]))
    what, until = str(args[1]), int(args[2])
    if being is None:
        return
    if what == "summoned":
        if isinstance(being, Creature) and being.summoned_until == until and being.present:
            gone(world, being)
        return
    current = being.held_until if what == "held" else being.terror_until
    if current != until or not being.up or being.fighting or isinstance(being, Adventurer):
        return
    if what == "terror" and getattr(being, "task", None) is None:
        movement.stop(world, being)  # the flee walk is over
    carry_on(world, being)


def carry_on(world: World, being: Being) -> None:
    """Back to where its walk was going (its task or its route goes on from there); a
    minion that ran from its work looks for work again."""
    goal, being.resume_to = being.resume_to, None
    if goal is not None:
        if goal == being.pos or not movement.walk_to(world, being, goal):
            movement.arrived(world, being)
    elif isinstance(being, Minion):
        world.request_dispatch()


def gone(world: World, spider: Creature) -> None:
    """The summoned spiders' time is up: they are gone."""
    if spider.fighting:
        fray.leave_fight(world, spider)
    movement.stop(world, spider)
    spider.present = False
    world.emit(Event("creature.gone", ("K-TRAP-03",), {"creature": spider.id}))


def held(world: World, being: Being) -> bool:
    return being.held_until > world.now


def terrified(world: World, being: Being) -> bool:
    return being.terror_until > world.now


__all__ = ["act", "caught", "hold", "resists", "terrify"]
