"""Carrying out a scenario's script: keeper commands and happenings at given times.

A scenario (:mod:`undercroft.keep.scenario`) queues its ``[[script]]`` entries as data; the
world hands each to :func:`run_script_item` when it is due. A keeper command goes through
the typed command API (logged as a ``command`` event); a happening (a visit, a rage, an
invasion event, ...) is carried out here, and one that cannot happen is logged as a
``script.failed`` event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep import commands, doors, invasions, jobs, movement, visitors
from undercroft.keep.actors import Creature, Job, Stance
from undercroft.keep.parties import MemberDraw

if TYPE_CHECKING:
    from undercroft.keep.world import World


def resolve_ref(world: World, ref: str) -> str:
    """A label (scenario names, named structures) or an id, as an id."""
    if ref in world.labels:
        return world.labels[ref]
    for structure in world.structures.values():
        if structure.name == ref:
            return structure.id
    return ref


def _command(item: Mapping[str, Any], r: Callable[[str], str]) -> commands.Command:
    def at(key: str) -> Pos:
        x, y = item[key]
        return Pos(x, y)

    do = item["do"]
    if do == "build":
        return commands.Build(item["kind"], at("at"), item.get("name"), item.get("delay"))
    if do == "move":
        return commands.Move(r("structure"), at("to"))
    if do == "remove":
        return commands.Remove(r("target"))
    if do == "wire":
        return commands.Connect(tuple(Pos(x, y) for x, y in item["path"]))
    if do == "set_timer":
        return commands.SetTimer(r("timer"), int(item["minutes"]))
    if do == "arm_lock":
        return commands.ArmLock(r("door"))
    if do == "disarm_lock":
        return commands.DisarmLock(r("door"))
    if do == "hold_door_open":
        return commands.HoldDoorOpen(r("door"), bool(item["hold"]))
    if do == "pull_lever":
        return commands.PullLever(r("lever"))
    if do == "set_job":
        return commands.SetJob(r("minion"), Job(item["job"]))
    if do == "set_stance":
        return commands.SetStance(r("minion"), Stance(item["stance"]))
    if do == "rite_of_storms":
        return commands.RiteOfStorms(item.get("hours"))
    if do == "answer_fugitive":
        return commands.AnswerFugitive(str(item["fugitive"]), bool(item.get("accept", True)))
    if do == "divine":
        return commands.Divine()
    if do == "watchful_eye":
        return commands.WatchfulEye()
    return commands.OrderAttack(r("minion"), r("target"))


def run_script_item(world: World, item: Mapping[str, Any]) -> None:
    """Carry out one scripted command or happening (queued by the world)."""

    def r(key: str) -> str:
        return resolve_ref(world, str(item[key]))

    do = item["do"]
    if do in commands.COMMANDS or do == "wire":
        world.command(_command(item, r))
        return
    try:
        _happening(world, item, r)
    except (visitors.VisitError, ValueError) as exc:
        world.emit(Event("script.failed", (), {"do": do, "when": item["when"], "reason": str(exc)}))


def _happening(world: World, item: Mapping[str, Any], r: Callable[[str], str]) -> None:
    do = item["do"]
    if do == "visit":
        route = [Pos(x, y) for x, y in item.get("route", [])]
        visitor = visitors.arrive(world, item["breed"], Pos(*item["portal"]), route)
        if item.get("name"):
            world.labels[item["name"]] = visitor.id
    elif do == "rage":
        jobs.set_blind_rage(world, world.minion(r("minion")), bool(item.get("on", True)))
    elif do == "settle":
        creature = world.being(r("creature"))
        if not isinstance(creature, Creature):
            raise ValueError(f"{creature.id} is not a creature")
        visitors.settle(world, creature, item["lair"])
    elif do == "breach":
        doors.breach(world, world.door(r("door")), str(item.get("by", "scenario")))
    elif do == "walk":
        being = world.being(r("who"))
        if not movement.walk_to(world, being, Pos(*item["to"])):
            raise ValueError(f"{being.id} has no way to {item['to']}")
    else:
        _invasion_happening(world, item)


def _invasion_happening(world: World, item: Mapping[str, Any]) -> None:
    """Scripted invasion events: a group, a host, warriors, a camp, a fugitive, the way cut."""
    do = item["do"]
    if not world.options.invasions:
        raise ValueError("invasions are off in this run")
    if do == "invade":
        members = tuple(
            MemberDraw(m["class"], int(m["level"]), tuple(m.get("traits", ())))
            for m in item["members"]
        )
        portal = Pos(*item["portal"]) if item.get("portal") else None
        group = invasions.come(
            world,
            "normal",
            members=members,
            goal=item.get("goal"),
            faction=item.get("faction"),
            portal=portal,
        )
        if item.get("name"):
            world.labels[item["name"]] = f"group:{group.number}"
    elif do == "host":
        invasions.host(world, str(item["settlement"]))
    elif do == "warriors":
        invasions.warriors(world, str(item["camp"]))
    elif do == "camp":
        invasions.camp_relation(world, str(item["camp"]), str(item["relation"]))
    elif do == "fugitive":
        invasions.fugitive_asks(world, str(item["fugitive"]))
    elif do == "cut_off":
        invasions.cut_off(world, bool(item.get("on", True)))
