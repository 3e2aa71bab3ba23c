"""Carrying out a scenario's script: keeper commands and happenings at given times.

A scenario (:mod:`undercroft.keep.scenario`) queues its ``[[script]]`` entries as data; the
world hands each to :func:`run_script_item` when it is due. A keeper command goes through
the typed command API (logged as a ``command`` event): :func:`command_from` turns an item
into its :mod:`~undercroft.keep.commands` dataclass, for scripts and for
:func:`parse_command`, which checks a command that comes as JSON (the web viewer's) against
the script's own schema first. A happening (a visit, a rage, an invasion event, ...) is
carried out here, and one that cannot happen is logged as a ``script.failed`` event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from undercroft.core.content import ContentError, validate
from undercroft.core.events import MINUTES_PER_DAY, Event
from undercroft.core.grid import Pos
from undercroft.keep import commands
from undercroft.keep.content.calendar import parse_when
from undercroft.keep.content.scenario_schema import CommandSchema
from undercroft.keep.rules import doors, invasions, jobs, movement, visitors
from undercroft.keep.rules.parties import MemberDraw
from undercroft.keep.state import orders
from undercroft.keep.state.actors import Creature, Job, Stance
from undercroft.keep.state.clock import handles

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def resolve_ref(world: World, ref: str) -> str:
    """A label (scenario names, named structures) or an id, as an id."""
    if ref in world.labels:
        return world.labels[ref]
    for structure in world.structures.values():
        if structure.name == ref:
            return structure.id
    return ref


PLACE_KEYS = ("at", "to")
"""The keys of a keeper command that hold a tile (``path`` holds a list of them)."""


def parse_command(world: World, data: Any) -> orders.Command:
    """A keeper command sent as JSON (``{"do": "build", "kind": ..., "at": [x, y]}``: a
    script item without ``when``) as its typed command, or :class:`CommandError` saying
    which key is wrong. Checked with the script's schema; names (labels, structure names)
    are resolved as in a script; places are ``[x, y]`` on the map."""
    if not isinstance(data, dict):
        raise orders.CommandError('a command is a JSON object: {"do": VERB, ...}')
    try:
        entry = validate(data, CommandSchema, json.dumps(data), "the command")
    except ContentError as exc:
        raise orders.CommandError(
            "; ".join(
                f"{p.key or 'the command'}: {p.message}"
                + (f" (allowed: {', '.join(p.allowed)})" if p.allowed else "")
                for p in exc.problems
            )
        ) from None
    if entry.do not in orders.COMMANDS:
        raise orders.CommandError(
            f"do: {entry.do!r} is a scenario happening, not a keeper command "
            f"(allowed: {', '.join(orders.COMMANDS)})"
        )
    item = entry.model_dump(exclude_none=True)
    for key in PLACE_KEYS:
        if key in item:
            item[key] = _tile(world, key, item[key])
    if "path" in item:
        item["path"] = [_tile(world, f"path[{i}]", p) for i, p in enumerate(item["path"])]
    return command_from(item, lambda key: resolve_ref(world, str(item[key])))


def _tile(world: World, key: str, value: Any) -> list[int]:
    grid = world.grid
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not (0 <= value[0] < grid.width and 0 <= value[1] < grid.height)
    ):
        raise orders.CommandError(
            f"{key}: a tile [x, y] on the map (0..{grid.width - 1}, 0..{grid.height - 1})"
        )
    return list(value)


def command_from(item: Mapping[str, Any], r: Callable[[str], str]) -> orders.Command:
    """The typed command of a checked script item (places as ``[x, y]``); ``r`` resolves
    the name under a key to an id."""

    def at(key: str) -> Pos:
        x, y = item[key]
        return Pos(x, y)

    do = item["do"]
    if do == "build":
        return orders.Build(item["kind"], at("at"), item.get("name"), item.get("delay"))
    if do == "move":
        return orders.Move(r("structure"), at("to"))
    if do == "remove":
        return orders.Remove(r("target"))
    if do == "wire":
        return orders.Connect(tuple(Pos(x, y) for x, y in item["path"]))
    if do == "set_timer":
        return orders.SetTimer(r("timer"), int(item["minutes"]))
    if do == "arm_lock":
        return orders.ArmLock(r("door"))
    if do == "disarm_lock":
        return orders.DisarmLock(r("door"))
    if do == "hold_door_open":
        return orders.HoldDoorOpen(r("door"), bool(item["hold"]))
    if do == "pull_lever":
        return orders.PullLever(r("lever"))
    if do == "set_job":
        return orders.SetJob(r("minion"), Job(item["job"]))
    if do == "set_stance":
        return orders.SetStance(r("minion"), Stance(item["stance"]))
    if do == "rite_of_storms":
        return orders.RiteOfStorms(item.get("hours"))
    if do == "answer_fugitive":
        return orders.AnswerFugitive(str(item["fugitive"]), bool(item.get("accept", True)))
    if do == "divine":
        return orders.Divine()
    if do == "watchful_eye":
        return orders.WatchfulEye()
    return orders.OrderAttack(r("minion"), r("target"))


@handles("script")
def on_script(world: World, args: tuple[Any, ...]) -> None:
    """A scripted item is due (queued by :meth:`World.schedule_script`); a repeated one
    (``every_days``) is queued again for its next time, up to its ``until``."""
    item = world.script[int(args[0])]
    run_script_item(world, item)
    every = item.get("every_days")
    if every:
        again = world.now + int(every) * MINUTES_PER_DAY
        until = item.get("until")
        if until is None or again <= parse_when(str(until)):
            world.schedule_script(again, item)


def run_script_item(world: World, item: Mapping[str, Any]) -> None:
    """Carry out one scripted command or happening (queued by the world)."""

    def r(key: str) -> str:
        return resolve_ref(world, str(item[key]))

    do = item["do"]
    if do in orders.COMMANDS:
        commands.execute(world, command_from(item, r))
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
