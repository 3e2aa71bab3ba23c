"""What adventurers know of your triggers, and discovering them (K-KNOW-01..04, K-DISC-01..03).

Each adventurer keeps its own knowledge (K-KNOW-01, :attr:`Adventurer.knows`); what it
knows changes its way (K-CAUT-01, :mod:`undercroft.keep.rules.routes`). Knowledge spreads by
distance, not by group: a trap going off teaches every conscious adventurer within 10
tiles of its trigger (K-KNOW-02, in :mod:`undercroft.keep.rules.learning`), and a discovery
every conscious adventurer within 10 tiles of the one who made it (K-KNOW-03). A Rogue's
Detect Traps shows his whole group every trap within 7 tiles of him (K-KNOW-04).

Discovery (K-DISC-01..03, ruling R-K-DISC-01): after each step, the first member of a group
to see (line of sight) a trigger within 6 tiles that it does not know rolls a Stalk check
of the dice model: 1d20 + Stalk x 2 + modifiers against the content's target; the
modifiers are ``quality`` (minus the trigger's grade value: a Mediocre one is easier),
``dark`` (a trigger on a dark tile is harder, content), ``detect`` (its learned bonus for
that trigger type, K-LEARN-02) and ``caution`` (+1/+2 in Caution, K-CAUT-03, lost in gas,
K-LEARN-06). The group rolls once per trigger, and never again after a failure (K-DISC-03).
Levers are not rolled for (nothing steps on them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.rules import caution
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import Group
from undercroft.keep.state.structures import Trigger

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

KNOWLEDGE_TILES = 10
"""K-KNOW-02/03, K-LEARN-01: knowledge reaches every adventurer within 10 tiles."""
DISCOVERY_TILES = 6
"""K-DISC-01: a trigger is rolled for from 6 tiles or less."""
DETECT_TILES = 7
"""K-KNOW-04: Detect Traps shows every trap within 7 tiles of the Rogue."""


def triggers_near(world: World, pos: Pos, tiles: int) -> tuple[Trigger, ...]:
    """The triggers (not levers) within ``tiles`` of ``pos`` (cached until they change)."""
    cache = world.cached("triggers-near", world.structure_version)
    found: tuple[Trigger, ...] | None = cache.get((pos, tiles))
    if found is None:
        every: tuple[Trigger, ...] | None = cache.get("all")
        if every is None:
            every = cache["all"] = tuple(t for t in world.of_type(Trigger) if not t.lever)
        if world.options.distance_metric == "chebyshev":
            x, y = pos.x, pos.y
            found = tuple(t for t in every if max(abs(t.pos.x - x), abs(t.pos.y - y)) <= tiles)
        else:
            found = tuple(t for t in every if world.options.within(pos, t.pos, tiles))
        cache[(pos, tiles)] = found
    return found


def near(world: World, pos: Pos, tiles: int = KNOWLEDGE_TILES) -> list[Adventurer]:
    """Conscious adventurers on the map within ``tiles`` of ``pos`` (any group)."""
    return [
        a for a in world.adventurers() if a.conscious and world.options.within(a.pos, pos, tiles)
    ]


def tell(world: World, trigger_id: str, around: Pos, how: str) -> list[str]:
    """K-KNOW-03: every conscious adventurer within 10 tiles of ``around`` learns it."""
    return [a.id for a in near(world, around) if a.learn(trigger_id, how)]


def after_step(world: World, adv: Adventurer, group: Group) -> None:
    """Discovery rolls and Detect Traps for an adventurer that just stepped."""
    if "detect_traps" in adv.abilities:
        detect_traps(world, adv, group)
    for trigger in triggers_near(world, adv.pos, DISCOVERY_TILES):
        if trigger.id in adv.knows or trigger.id in group.rolled:
            continue
        if not world.sight().can_see(adv.pos, trigger.pos):
            continue
        discover(world, adv, group, trigger)


def discover(world: World, adv: Adventurer, group: Group, trigger: Trigger) -> bool:
    """K-DISC-01/02: the roll to discover ``trigger``; the group's only one (K-DISC-03)."""
    model = world.options.dice_model
    content = world.ruleset.adventurers
    learn_type = world.ruleset.triggers[trigger.kind].learn_type
    dark = bool(world.grid.dark[trigger.pos.y, trigger.pos.x])
    modifiers = {
        "quality": -model.grade_value(trigger.quality),
        "dark": content.dark if dark else 0,
        "detect": adv.detect.get(learn_type, 0),
        "caution": caution.bonus(world, adv, group),
    }
    modifiers = {k: v for k, v in modifiers.items() if v}
    roll = model.roll(world.streams["adventurers"], "stalk", adv.attributes.stalk, modifiers)
    found = model.succeeds(roll, content.discovery_target)
    group.rolled.append(trigger.id)
    world.emit(
        model.roll_event(
            ("K-DISC-01", "K-DISC-02", "K-DISC-03", "R-K-DICE-01", "R-K-DISC-01"),
            adv.id,
            roll,
            "discovered" if found else "missed",
            trigger=trigger.id,
            kind=trigger.kind,
            group=group.number,
            target=content.discovery_target,
            stalk=adv.attributes.stalk,
            quality=trigger.quality.value,
            dark=dark,
            bonuses={"detect": modifiers.get("detect", 0), "caution": modifiers.get("caution", 0)},
            distance=adv.pos.chebyshev(trigger.pos),
        )
    )
    if not found:
        return False
    adv.learn(trigger.id, "discovered")
    learned = tell(world, trigger.id, adv.pos, "told")
    world.emit(
        Event(
            "trigger.discovered",
            ("K-DISC-01", "K-KNOW-03"),
            {
                "adventurer": adv.id,
                "trigger": trigger.id,
                "kind": trigger.kind,
                "at": [trigger.pos.x, trigger.pos.y],
                "learned": learned,
            },
        )
    )
    caution.discovered(world, group)
    return True


def detect_traps(world: World, rogue: Adventurer, group: Group) -> None:
    """K-KNOW-04: Detect Traps shows the Rogue's whole group every trap within 7 tiles."""
    members = [world.beings[m] for m in group.members]
    shown: list[str] = []
    learned: list[str] = []
    for trigger in triggers_near(world, rogue.pos, DETECT_TILES):
        new = [m for m in members if isinstance(m, Adventurer) and m.learn(trigger.id, "detected")]
        if new:
            shown.append(trigger.id)
            learned.extend(m.id for m in new if m.id not in learned)
    if shown:
        world.emit(
            Event(
                "trigger.detected",
                ("K-KNOW-04",),
                {
                    "adventurer": rogue.id,
                    "group": group.number,
                    "triggers": shown,
                    "learned": learned,
                },
            )
        )
        caution.discovered(world, group)
