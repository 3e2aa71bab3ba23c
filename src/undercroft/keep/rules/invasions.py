"""Invasions from arrival to end: who comes, by which portal, and what ends them.

The director (:mod:`undercroft.keep.rules.director`) says *when*; this module brings the group:

* K-SIZE-*: the group is drawn for its number and the game day
  (:func:`undercroft.keep.rules.parties.draw_party`); a settlement's host is the invasion that
  would have come, a Hostile camp's warriors one warrior per member of it (K-SIZE-07), a
  fugitive's pursuers never a mob and never weaker or stronger (K-SIZE-02).
* K-INV-01/02: its faction and goal (the faction's weights); a goal already gone sends it
  for the Master. K-DOOR-02: the first group of a faction after one of its Cartographers
  escaped never takes the way round a door.
* K-INV-03, ruling R-K-INV-01: most groups pick a portal with a dry walking way to the
  sanctum; with the content's chance, one where they must cross water, if there is one.
* K-ARR-01/02: the group comes over the Surface from its faction's home settlement (or the
  Surface map edge), appears beyond the dungeon's map edge at the portal and walks in,
  hidden by fog, one member at a time (one body per tile).
* K-ARR-01, ruling R-K-ARR-02: a divination charge draws the next group at once (for that
  day) and shows its card; that group is the next one to come.
* K-TIME-07, K-SIZE-02: hosts, warriors and pursuers wait in line and come as soon as no
  invasion is under way and none is stopped.
* The end: when every member is gone (walked out, died or was captured), the
  ``invasion.ended`` event, and the director starts the next limit (K-TIME-03).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event, chance_event
from undercroft.core.grid import Pos
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.keep.content.calendar import MINUTES_PER_HOUR, TICKS_PER_MINUTE, day_of
from undercroft.keep.rules import director, goals, movement, stepping, work
from undercroft.keep.rules.parties import MemberDraw, PartyDraw, as_warriors, draw_party, weighted
from undercroft.keep.rules.perception import EYE_HOURS
from undercroft.keep.state.clock import Priority, handles
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import Group

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

KINDS = ("normal", "mob", "weaker", "stronger", "host", "warriors", "pursuers")
"""The ``kind`` of an ``invasion.arrived`` event (ARCHITECTURE.md)."""
SURFACE_EDGE = "the Surface map edge"


# -- the director's queue items ------------------------------------------------------------


@handles("director")
def on_director(world: World, args: tuple[Any, ...]) -> None:
    """The director's queued items: the start, the first invasion, the hourly draws."""
    d = world.invasion.director
    if int(args[0]) != d.token:
        return
    what = str(args[1])
    if what == "begin":
        director.begin(world)
    elif what == "first":
        if director.first_comes(world):
            come(world, "normal")
    elif director.next_hour(world) and not pending_ready(world) and director.draw(world):
        come(world, "normal")


@handles("invasion_end")
def on_invasion_end(world: World, args: tuple[Any, ...]) -> None:
    end(world, world.invasion.groups[int(args[0])])


@handles("rite_end")
def on_rite_end(world: World, args: tuple[Any, ...]) -> None:
    """The Rite of Storms is over (K-TIME-05): waiting hosts may come."""
    if world.invasion.director.rite_until == int(args[0]):
        world.emit(Event("rite.ended", ("K-TIME-05",), {}))
        if director.note_stop(world) is None:
            pending_ready(world)


# -- hosts, warriors, pursuers (K-TIME-07, K-SIZE-02) --------------------------------------


def announce(world: World, kind: str, source: str, *, at_once: bool = True) -> None:
    """A host, warriors or pursuers are coming instead of the next invasion."""
    world.invasion.director.pending.append({"kind": kind, "source": source, "at_once": at_once})
    world.emit(
        Event(
            "invasion.announced",
            ("K-TIME-07",) if kind != "pursuers" else ("K-SIZE-02",),
            {"kind": kind, "source": source, "at_once": at_once},
        )
    )
    d = world.invasion.director
    if d.phase != "under_way" and director.note_stop(world) is None:
        pending_ready(world)


def pending_ready(world: World) -> bool:
    """K-TIME-07: a waiting host, warriors or pursuers come now (no invasion under way)."""
    d = world.invasion.director
    if d.phase == "under_way":
        return False
    for i, entry in enumerate(d.pending):
        if entry["at_once"]:
            d.pending.pop(i)
            come(world, entry["kind"], entry["source"])
            return True
    return False


# -- coming --------------------------------------------------------------------------------


def _party(world: World, number: int, kind: str, source: str | None) -> tuple[PartyDraw, str]:
    """The group's members and faction for invasion ``number`` (K-SIZE-*, K-INV-01)."""
    rng = world.streams["parties"]
    content = world.ruleset.adventurers
    day = day_of(world.now)
    d = world.invasion.director
    if kind == "normal" and d.divined is not None:
        drawn, d.divined = d.divined, None
        members = tuple(MemberDraw(m[0], int(m[1]), tuple(m[2])) for m in drawn["members"])
        return PartyDraw(drawn["strength"], members), str(drawn["faction"])
    factions = [(f.key, f.weight) for f in content.factions.values() if f.weight]
    faction = weighted(rng, factions)
    if kind == "host" and source in world.invasion.settlements:
        faction = str(world.invasion.settlements[source].get("faction") or faction)
    mob_ok = kind in ("normal", "host")
    party = draw_party(
        rng, content, number, day, mob_allowed=mob_ok, strength_allowed=kind != "pursuers"
    )
    if kind == "warriors":
        party = as_warriors(content, party, rng)
    return party, faction


def divine(world: World) -> dict[str, Any]:
    """K-ARR-01 (ruling R-K-ARR-02): draw the next group now and return its card."""
    d = world.invasion.director
    if d.divined is None:
        number = d.next_number + (1 if d.phase == "under_way" else 0)
        party, faction = _party(world, number, "normal", None)
        for event in party.events:
            world.emit(event)
        goal = _goal(world, faction)
        d.divined = {
            "strength": party.strength,
            "faction": faction,
            "goal": goal,
            "members": [[m.klass, m.level, list(m.traits)] for m in party.members],
        }
    drawn = d.divined
    content = world.ruleset.adventurers
    card = {
        "faction": drawn["faction"],
        "from": content.factions[drawn["faction"]].home or SURFACE_EDGE,
        "goal": drawn["goal"],
        "members": [
            {
                "class": m[0],
                "level": m[1],
                "abilities": [*content.classes[m[0]].abilities, *m[2]],
            }
            for m in drawn["members"]
        ],
    }
    world.emit(Event("invasion.divined", ("K-ARR-01", "R-K-ARR-02"), card))
    return card


def _goal(world: World, faction: str) -> str:
    weights = world.ruleset.adventurers.factions[faction].goals
    return weighted(world.streams["parties"], [(g, w) for g, w in weights.items() if w])


def come(
    world: World,
    kind: str,
    source: str | None = None,
    *,
    members: tuple[MemberDraw, ...] | None = None,
    goal: str | None = None,
    faction: str | None = None,
    portal: Pos | None = None,
) -> Group:
    """An invasion arrives now: draw it (or take the given ``members``: a scenario's
    scripted invasion), pick its portal, and start it walking in."""
    d = world.invasion.director
    if kind == "normal":
        for i, entry in enumerate(d.pending):
            if not entry["at_once"]:
                d.pending.pop(i)  # R-K-SIZE-02: the pursuers come as this invasion
                kind, source = entry["kind"], entry["source"]
                break
    director.under_way(world)
    movement.rescan(world)  # K-CROWD-01: walks under way now look at every tile
    number = d.next_number
    d.next_number += 1
    divined = d.divined if kind == "normal" and members is None else None
    content = world.ruleset.adventurers
    if members is None:
        party, drawn_faction = _party(world, number, kind, source)
        for event in party.events:
            world.emit(event)
    else:
        party, drawn_faction = PartyDraw("normal", members), next(iter(content.factions))
    faction = faction or drawn_faction
    drawn_goal = goal or (str(divined["goal"]) if divined else _goal(world, faction))
    goal = drawn_goal if goals.available(world, drawn_goal) else "kill_master"
    home = content.factions[faction].home
    if kind == "host" and source:
        home = source
    water = False
    if portal is None:
        portal, water = _portal(world)
    group = Group(
        number=number,
        kind=kind if kind != "normal" else party.strength,
        strength=party.strength,
        faction=faction,
        home=home,
        goal=goal,
        goal_drawn=drawn_goal,
        members=[],
        arrived=world.now,
        portal=portal,
        water=water,
        divined=divined is not None,
    )
    if faction in world.invasion.cartographers:
        world.invasion.cartographers.remove(faction)
        group.never_alternate = True  # K-DOOR-02: this next group never goes round
    world.invasion.groups[number] = group
    totals = world.invasion
    totals.count("invasions")
    totals.count(f"kind:{group.kind}")
    totals.count("adventurers", len(party.members))
    for m, member in enumerate(party.members, start=1):
        adv = new_adventurer(world, number, m, member, faction, portal)
        group.members.append(adv.id)
    _arrived_event(world, group, kind)
    for i, adv_id in enumerate(group.members):
        walker = world.beings[adv_id]
        assert isinstance(walker, Adventurer)
        stepping.queue_step(world, walker, i)
    return group


def new_adventurer(
    world: World, number: int, m: int, member: MemberDraw, faction: str, portal: Pos
) -> Adventurer:
    """Adventurer ``adv:number-m`` of the given class, level and traits, beyond the edge."""
    content = world.ruleset.adventurers
    klass = content.classes[member.klass]
    adv = Adventurer(
        id=f"adv:{number}-{m}",
        breed=klass.key,
        attributes=content.attributes_of(klass.key, member.level, member.traits),
        pos=portal,
        pace=-(-klass.seconds_per_tile // 60),
        invasion=number,
        member=m,
        level=member.level,
        traits=member.traits,
        faction=faction,
        abilities=klass.abilities,
        ticks_per_tile=klass.seconds_per_tile * TICKS_PER_MINUTE // 60,
        carry=klass.carry,
        weapon=klass.weapon,
        armour=klass.armour,
        helmet=klass.helmet,
    )
    adv.present = False
    world.beings[adv.id] = adv
    return adv


def _portal(world: World) -> tuple[Pos, bool]:
    """K-INV-03: most pick a portal with a dry way; some one across water (R-K-INV-01)."""
    cache = world.cached("portals", world.ground())
    found = cache.get("portals")
    if found is None:
        dry_finder = Pathfinder(world.grid, DoorPassage.ALL, water_cost=0)
        wet_finder = world.pathfinder(DoorPassage.ALL)
        dry = [p for p in world.portals if dry_finder.path(p, world.sanctum) is not None]
        wet = [
            p
            for p in world.portals
            if p not in dry and wet_finder.path(p, world.sanctum) is not None
        ]
        found = cache["portals"] = (dry, wet)
    dry, wet = found
    rng = world.streams["adventurers"]
    water = False
    if dry and wet:
        p = world.ruleset.adventurers.water_portal
        water = rng.chance(p)
        world.emit(
            chance_event(
                ("K-INV-03", "R-K-INV-01"),
                "director",
                p,
                water,
                "water" if water else "dry",
                dry=[[q.x, q.y] for q in dry],
                water_portals=[[q.x, q.y] for q in wet],
            )
        )
    elif wet and not dry:
        water = True
    choices = (wet if water else dry) or list(world.portals)
    return (choices[0] if len(choices) == 1 else rng.choose(choices)), water


def _arrived_event(world: World, group: Group, kind: str) -> None:
    members = [world.beings[m] for m in group.members]
    rules = ["K-INV-01", "K-INV-03", "K-ARR-01", "K-ARR-02", "K-SIZE-03", "K-SIZE-04", "K-SIZE-08"]
    if group.goal != group.goal_drawn:
        rules.append("K-INV-02")
    if kind in ("host", "warriors"):
        rules += ["K-TIME-07", "K-SIZE-07"]
    if kind == "pursuers":
        rules.append("K-SIZE-02")
    world.emit(
        Event(
            "invasion.arrived",
            tuple(rules),
            {
                "number": group.number,
                "day": day_of(world.now),
                "hour": (world.now % 1440) // MINUTES_PER_HOUR,
                "kind": group.kind,
                "goal": group.goal,
                "members": [
                    {
                        "id": a.id,
                        "class": a.breed,
                        "level": a.level,
                        "traits": list(a.traits),
                        "attributes": a.attributes.to_json(),
                    }
                    for a in members
                    if isinstance(a, Adventurer)
                ],
                "strength": group.strength,
                "goal_drawn": group.goal_drawn,
                "faction": group.faction,
                "from": group.home or SURFACE_EDGE,
                "portal": [group.portal.x, group.portal.y] if group.portal else None,
                "water": group.water,
                "divined": group.divined,
                "never_alternate": group.never_alternate,
            },
        )
    )


# -- the end -------------------------------------------------------------------------------


def end(world: World, group: Group) -> None:
    """Every member is gone: the invasion ends; the next limit (or waiting host) starts."""
    if group.phase == "ended":
        return
    group.phase = "ended"
    group.ended = world.now
    members = [world.beings[m] for m in group.members]
    advs = [a for a in members if isinstance(a, Adventurer)]
    if not any(g.phase != "ended" for g in world.invasion.groups.values()):
        director.invasion_over(world)
    d = world.invasion.director
    limit = (
        d.limit_minutes / MINUTES_PER_HOUR
        if d.phase == "waiting" and d.limit_start >= world.now
        else None
    )
    rules: tuple[str, ...] = ("K-TIME-07",)
    if limit is not None:
        rules = ("K-TIME-03", "R-K-TIME-02")
        if d.limit_start > world.now:
            rules = (*rules, "K-TIME-01")  # ended on day 1: the limit starts on day 2
    elif d.phase == "first":
        rules = ("K-TIME-01", "R-K-TIME-03")  # the first still comes at its hour of day 2
    world.emit(
        Event(
            "invasion.ended",
            rules,
            {
                "number": group.number,
                "day": day_of(world.now),
                "hour": (world.now % 1440) // MINUTES_PER_HOUR,
                "limit_hours": limit,
                "goal": group.goal,
                "goal_met": group.goal_met,
                "escaped": [a.id for a in advs if a.where is Whereabouts.LEFT],
                "dead": [a.id for a in advs if a.where is Whereabouts.DEAD],
                "captured": [a.id for a in advs if a.where is Whereabouts.PRISONER],
                "treasure": sum(a.treasure for a in advs),
                "minutes": world.now - group.arrived,
            },
        )
    )
    if group.goal_met is not None:
        world.invasion.count(f"goal:{group.goal_met}")
    _archive(world, group)
    pending_ready(world)


KEPT = 100
"""The groups (and their departed members) kept once over: the last 100 invasions."""


def _archive(world: World, group: Group) -> None:
    """The members who left go from the dungeon's beings to the departed (their view is
    still there for a while); groups older than the last :data:`KEPT` are let go, so a long
    run does not grow without end."""
    for member_id in group.members:
        member = world.beings.get(member_id)
        if isinstance(member, Adventurer) and member.where is Whereabouts.LEFT:
            work.being_gone(world, member_id)  # (ended when it left; nothing may outlive it)
            del world.beings[member_id]
            world.departed[member_id] = member
    old = [
        n
        for n, g in world.invasion.groups.items()
        if g.phase == "ended" and n <= group.number - KEPT
    ]
    for number in old:
        for member_id in world.invasion.groups.pop(number).members:
            world.departed.pop(member_id, None)


# -- the keeper's commands and the scenario's happenings ------------------------------------------


def rite_of_storms(world: World, hours: int) -> int:
    """K-TIME-05: no invasion comes until the rite ends; returns the minute it ends."""
    d = world.invasion.director
    d.rite_until = world.now + hours * MINUTES_PER_HOUR
    world.schedule(d.rite_until, Priority.DIRECTOR, "rite_end", d.rite_until)
    director.note_stop(world)
    return d.rite_until


def fugitive_asks(world: World, name: str) -> None:
    """K-SIZE-02: a fugitive asks to hide in your dungeon (answer it with AnswerFugitive)."""
    world.invasion.fugitives[name] = {"asked": world.now, "answer": None}
    world.emit(Event("fugitive.asked", ("K-SIZE-02",), {"fugitive": name}))


def answer_fugitive(world: World, name: str, accept: bool) -> str | None:
    """K-SIZE-02: if it joins, its pursuers count as an invasion (R-K-SIZE-02: at once, or
    as the next one); returns when they come, or None when it was turned away."""
    world.invasion.fugitives[name]["answer"] = "joined" if accept else "refused"
    if not accept:
        return None
    at_once = world.options.fugitive_pursuers == "at_once"
    announce(world, "pursuers", name, at_once=at_once)
    return world.options.fugitive_pursuers


def host(world: World, settlement: str) -> None:
    """K-TIME-07: a settlement sends a host instead of the next invasion."""
    if settlement not in world.invasion.settlements:
        raise ValueError(f"no settlement {settlement!r} in this scenario")
    announce(world, "host", settlement)


def warriors(world: World, camp: str) -> None:
    """K-TIME-07: a Hostile evil camp sends its warriors instead of the next invasion."""
    found = world.invasion.camps.get(camp)
    if found is None:
        raise ValueError(f"no evil camp {camp!r} in this scenario")
    if found["relation"] != "hostile":
        raise ValueError(f"the camp {camp!r} is {found['relation']}, not Hostile (K-TIME-07)")
    announce(world, "warriors", camp)


def camp_relation(world: World, camp: str, relation: str) -> None:
    if camp not in world.invasion.camps:
        raise ValueError(f"no evil camp {camp!r} in this scenario")
    world.invasion.camps[camp]["relation"] = relation
    world.emit(Event("camp.relation", ("K-TIME-07",), {"camp": camp, "relation": relation}))


def cut_off(world: World, cut: bool) -> None:
    """K-TIME-05: the Surface way to the dungeon is cut (or open again)."""
    world.invasion.director.cut_off = cut
    world.emit(Event("surface.cut", ("K-TIME-05",), {"cut": cut}))
    if director.note_stop(world) is None:
        pending_ready(world)


def watchful_eye(world: World) -> int:
    """K-ARR-06: the ghost eye patrols the guard posts for 24 hours; returns when it ends."""
    world.invasion.eye_until = world.now + EYE_HOURS * MINUTES_PER_HOUR
    return world.invasion.eye_until
