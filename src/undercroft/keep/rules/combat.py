"""Attacks: melee and ranged, opposed rolls, wound level and location (K-CMB-01, K-RNG-*).

K-CMB-01: a fight is a series of opposed rolls of the core dice model (R-K-DICE-01): the
attacker rolls Battle plus its weapon's bonus, the defender Block; the higher total wins,
ties to the defender. K-RNG-01: a melee attacker must be next to its target (one of the
four tiles beside it: movement is orthogonal, and so is "next to", ruling R-K-CMB-01) and
turns to face it. K-RNG-02: a ranged attacker needs a clear line of fire within its
weapon's range, stricter than sight (a wall corner stops the shot, ruling R-CORE-LOF-01).
K-RNG-03: bodies in between do not block the shot but may take it: each one up on the
line, from the shooter out, takes it with the content's ``cover`` chance (a ``chance``
event), and the first that does is the one the shot is rolled against.

Ruling R-K-CMB-01 gives what the seed leaves to content: a won attack wounds; its level
comes from the margin (the content's ``serious_margin`` and ``critical_margin``; a natural
critical goes one level up) and its location from a roll on the content's ``locations``
table. Who fights whom: your side (the Master, loyal minions, lair creatures, a spider
trap's spiders) fights the adventurers; a minion ordered to attack someone (K-LOCK-03)
fights that one too; wild creatures and raging minions fight nobody unless ordered at.

Being hit tells the target where its attacker is (K-PERC-02); fighting a group sights it
(K-ARR-03) and ends its Caution (K-CAUT-03: "until the group's next combat").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event, chance_event, roll_event
from undercroft.core.grid import Pos
from undercroft.core.sight import supercover
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.content.equipment import Weapon
from undercroft.keep.rules import caution, fray, perception, stepping, wounds
from undercroft.keep.state.actors import Being, Side
from undercroft.keep.state.invaders import Adventurer

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

_FACING = {(0, -1): "n", (1, 0): "e", (0, 1): "s", (-1, 0): "w"}


def _xy(pos: Pos) -> list[int]:
    return [pos.x, pos.y]


def weapon_of(world: World, being: Being) -> Weapon:
    """The being's weapon (its content's table: the adventurers' or the keep's)."""
    table = (
        world.ruleset.adventurers.weapons
        if isinstance(being, Adventurer)
        else (world.ruleset.weapons)
    )
    found = table.get(being.weapon)
    if found is None:
        return Weapon(being.weapon, being.weapon, True, False, 1, 0, 40)  # fists
    return found


def enemies(a: Being, b: Being) -> bool:
    """Whether ``a`` fights ``b`` (ruling R-K-CMB-01): adventurers and your side; or an
    ordered target (K-LOCK-03)."""
    if isinstance(a, Adventurer):
        return b.side() is Side.KEEP
    if a.side() is Side.KEEP:
        return isinstance(b, Adventurer) or b.id in getattr(a, "attack_orders", ())
    return False


def next_to(a: Pos, b: Pos) -> bool:
    """K-RNG-01: next to = one of the four tiles beside (ruling R-K-CMB-01)."""
    return abs(a.x - b.x) + abs(a.y - b.y) == 1


def in_reach(world: World, attacker: Being, target: Being) -> bool:
    """K-RNG-01/02: melee next to the target; ranged within range on a clear line of fire
    that the shooter sees along (K-PERC-01)."""
    a, b = attacker.pos_at(world.now), target.pos_at(world.now)
    weapon = weapon_of(world, attacker)
    if not weapon.ranged:
        return next_to(a, b)
    if a == b or a.chebyshev(b) > weapon.range:
        return False  # K-CROWD-01, K-RNG-02: no shot at someone on one's own tile
    return next_to(a, b) or (
        perception.sees(world, a, b, attacker.attributes.stalk) and world.sight().line_of_fire(a, b)
    )


def face(attacker: Being, at: Pos, target: Pos) -> str:
    """K-RNG-01: the attacker turns to face its target (the main direction to it)."""
    dx, dy = target.x - at.x, target.y - at.y
    if abs(dx) >= abs(dy) and dx:
        attacker.facing = "e" if dx > 0 else "w"
    elif dy:
        attacker.facing = "s" if dy > 0 else "n"
    return attacker.facing


def location(world: World, actor: str, target: Being) -> str:
    """Ruling R-K-CMB-01: where a wound lands, rolled on the content's table (a die of the
    weights' sum)."""
    table = world.ruleset.combat.locations
    sides = sum(w for _, w in table)
    natural = world.streams["combat"].die(sides)
    left = natural
    found = table[-1][0]
    for name, weight in table:
        if left <= weight:
            found = name
            break
        left -= weight
    world.emit(
        roll_event(
            ("R-K-CMB-01", "K-HEAD-01"), actor, [natural], found, sides=sides, target=target.id
        )
    )
    return found


def wound_level(world: World, margin: int, critical: bool) -> str:
    """Ruling R-K-CMB-01: light below ``serious_margin``, serious below
    ``critical_margin``, else critical; a natural critical goes one level up."""
    c = world.ruleset.combat
    level = 0 if margin < c.serious_margin else 1 if margin < c.critical_margin else 2
    if critical:
        level = min(2, level + 1)
    return wounds.LEVELS[level]


def _in_the_way(world: World, shooter: Being, target: Being) -> Being:
    """K-RNG-03: bodies on the line of fire may take the shot instead (the first that
    does); the shot goes on to the target otherwise."""
    a, b = shooter.pos_at(world.now), target.pos_at(world.now)
    line = supercover(a, b)[1:-1]
    p = world.ruleset.combat.cover
    for tile in line:
        who = world.bodies.get(tile)
        body = world.beings.get(who) if who else None
        if body is None or body is target or body is shooter or not body.up:
            continue
        takes = p >= 1 or (p > 0 and world.streams["combat"].chance(p))
        world.emit(
            chance_event(
                ("K-RNG-03", "R-K-CMB-01"),
                shooter.id,
                p,
                takes,
                "takes" if takes else "passes",
                body=body.id,
                target=target.id,
                at=_xy(tile),
            )
        )
        if takes:
            return body
    return target


def attack(world: World, attacker: Being, target: Being) -> bool:
    """One attack (K-CMB-01); True if it wounded."""
    weapon = weapon_of(world, attacker)
    at, there = attacker.pos_at(world.now), target.pos_at(world.now)
    ranged = weapon.ranged and not next_to(at, there)
    rules: tuple[str, ...] = ("K-CMB-01", "R-K-DICE-01", "R-K-CMB-01")
    facing = face(attacker, at, there)
    if ranged:
        rules = (*rules, "K-RNG-02")
        target = _in_the_way(world, attacker, target)
        there = target.pos_at(world.now)
    else:
        rules = (*rules, "K-RNG-01")
    model = world.options.dice_model
    stream = world.streams["combat"]
    bonus = {"weapon": weapon.bonus} if weapon.bonus else {}
    a = model.roll(stream, "battle", attacker.attributes.battle, bonus)
    d = model.roll(stream, "block", target.attributes.block)
    hit = model.attacker_wins(a, d)
    world.emit(model.roll_event(rules, attacker.id, a, "win" if hit else "lose", target=target.id))
    world.emit(model.roll_event(rules, target.id, d, "lose" if hit else "win", against=attacker.id))
    world.emit(
        Event(
            "attack",
            rules,
            {
                "attacker": attacker.id,
                "target": target.id,
                "weapon": weapon.key,
                "ranged": ranged,
                "hit": hit,
                "margin": a.total - d.total,
                "facing": facing,
                "from": _xy(at),
                "at": _xy(there),
            },
        )
    )
    _aftermath(world, attacker, target)
    if not hit:
        return False
    level = wound_level(world, max(1, a.total - d.total), a.critical)
    wounds.inflict(
        world,
        target,
        source=attacker.id,
        weapon=weapon.key,
        blunt=weapon.blunt,
        level=level,
        location=location(world, attacker.id, target),
        rules=rules,
    )
    return True


def _aftermath(world: World, attacker: Being, target: Being) -> None:
    """K-PERC-02: the target knows where its attacker is; K-ARR-03: a fight sights the
    group; K-CAUT-03: the group's Caution ends with its combat."""
    at = attacker.pos_at(world.now)
    if isinstance(target, Adventurer):
        if attacker.id not in target.noticed:
            target.noticed.append(attacker.id)
        react = TICKS_PER_MINUTE * weapon_of(world, target).seconds // 60
        if target.busy is not None and target.up and target.on_map:
            target.busy = None  # it drops its work to face the attack (it starts it again)
            stepping.queue_step(world, target, 1)
        elif target.up and target.on_map and target.next_at > world.tick + react:
            stepping.queue_step(world, target, react)  # it turns to fight back
    else:
        if attacker.id not in target.foes:
            world.emit(
                Event(
                    "foe.known",
                    ("K-PERC-02",),
                    {"being": target.id, "foe": attacker.id, "at": _xy(at), "how": "hit"},
                )
            )
        target.foes[attacker.id] = _xy(at)
        target.struck_by[attacker.id] = world.now
        if target.up:
            fray.consider(world, target)
    for adv, other in ((attacker, target), (target, attacker)):
        if isinstance(adv, Adventurer):
            group = world.invasion.groups.get(adv.invasion)
            if group is None:
                continue
            if group.sighted is None:
                perception.sight(world, group, other.id, "fight", adv.id)
            caution.combat(world, group)
