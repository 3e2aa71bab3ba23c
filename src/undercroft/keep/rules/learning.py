"""Learning from traps that go off (K-KNOW-02, K-LEARN-01..07), and what else a firing does
to an invasion (Caution K-CAUT-02, the alarm K-ARR-03; the gas cloud of K-LEARN-06 and the
remains of K-CAUT-02 are the mechanism's effects, :mod:`undercroft.keep.rules.trap_effects`).

When a trap goes off, those who set it off and every conscious adventurer within 10 tiles
of its trigger learn where the trigger is (K-KNOW-02) and gain two bonuses (K-LEARN-01): +1
to discover that trigger type (K-LEARN-02: tripwire and wide tripwire are one type) and +1
Block against that mechanism kind (K-LEARN-03); each grows separately to +2 at most
(K-LEARN-04). A discovered trigger teaches only where it is (K-LEARN-05: only this module
gives bonuses). An adventurer keeps them until it dies or leaves the map; a prisoner keeps
them; a new group starts with none (K-LEARN-07).

Ruling R-K-LEARN-01: every firing teaches (set off by a walker, a pulled lever, a fumbled
rearm); the learning point is the trigger, or the mechanism when no trigger is wired. The
lessons come after the trap has done its work: what one learns helps against the next
trap, and one it knocked out learns nothing (K-LEARN-01: "who is not unconscious"). The
Block bonus is added when a mechanism of that kind is resisted (K-LEARN-03).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.content.ruleset import Effect
from undercroft.keep.rules import caution, knowledge, perception
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.structures import Mechanism, Trigger

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def trap_went_off(
    world: World, mech: Mechanism, trigger_id: str | None, by: str, caught: list[str]
) -> None:
    """A mechanism fired: nearby adventurers learn; Caution; the alarm."""
    if not world.options.invasions:
        return
    kind = world.ruleset.mechanisms[mech.kind]
    on_map = world.adventurers()
    if not on_map:
        return
    trigger = world.structures.get(trigger_id) if trigger_id else None
    center = trigger.pos if isinstance(trigger, Trigger) else mech.pos
    setter = world.beings.get(by)
    learners = knowledge.near(world, center)
    if isinstance(setter, Adventurer) and setter.on_map and setter.up and setter not in learners:
        learners.append(setter)
    learn_type = (
        world.ruleset.triggers[trigger.kind].learn_type if isinstance(trigger, Trigger) else None
    )
    taught: list[dict[str, Any]] = []
    for adv in learners:
        entry: dict[str, Any] = {"id": adv.id}
        if isinstance(trigger, Trigger):
            adv.learn(trigger.id, "went_off")
            entry["detect"] = {learn_type: adv.gain(adv.detect, str(learn_type))}
        entry["block"] = {mech.kind: adv.gain(adv.block, mech.kind)}
        taught.append(entry)
    if taught:
        world.emit(
            Event(
                "adventurers.learned",
                (
                    "K-KNOW-02",
                    "K-LEARN-01",
                    "K-LEARN-02",
                    "K-LEARN-03",
                    "K-LEARN-04",
                    "R-K-LEARN-01",
                ),
                {
                    "trap": mech.id,
                    "trigger": trigger_id,
                    "mechanism": mech.kind,
                    "trigger_type": learn_type,
                    "at": [center.x, center.y],
                    "learners": taught,
                },
            )
        )
    if isinstance(setter, Adventurer) and setter.on_map:
        group = world.invasion.groups[setter.invasion]
        caution.trap_set_off(world, group)
        if kind.alarm or kind.effect is Effect.ALARM:
            perception.sight(world, group, mech.id, "alarm", setter.id)


def view(world: World, adv: Adventurer) -> dict[str, Any]:
    """K-LEARN-07: what one adventurer knows and its bonuses (its log tab)."""
    group = world.invasion.groups.get(adv.invasion)
    known = []
    for trigger_id, how in adv.knows.items():
        trigger = world.structures.get(trigger_id)
        where = [trigger.pos.x, trigger.pos.y] if trigger is not None else None
        known.append(
            {"trigger": trigger_id, "kind": getattr(trigger, "kind", None), "at": where, "how": how}
        )
    in_caution = group.caution if group is not None else 0
    dead = adv.where is Whereabouts.DEAD
    gone = adv.left_at is not None or dead
    return {
        "id": adv.id,
        "class": adv.breed,
        "level": adv.level,
        "traits": list(adv.traits),
        "abilities": list(adv.abilities),
        "attributes": adv.attributes.to_json(),
        "where": adv.where.value,
        "at": [adv.pos.x, adv.pos.y],
        "knows": known,
        "detect": dict(adv.detect),
        "block": dict(adv.block),
        "caution": 0 if gone else caution.bonus(world, adv, group) if group else 0,
        "group_caution": in_caution,
        "in_gas": caution.in_gas(world, adv.pos) if adv.on_map else False,
        "kept": not gone,
        "treasure": adv.treasure,
        "noticed": list(adv.noticed),
        "note": (
            "died: its knowledge and bonuses died with it (K-LEARN-07)"
            if dead
            else "left the map: its knowledge and bonuses went with it (K-LEARN-07)"
            if gone
            else ""
        ),
    }


__all__ = ["Pos", "trap_went_off", "view"]
