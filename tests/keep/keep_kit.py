"""Helpers for the keep tests: tiny drawn worlds, scripted dice, event filters."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventLog, KeepTime, LogEntry
from undercroft.core.grid import Pos
from undercroft.keep.commands import execute
from undercroft.keep.rules import building, invasions, stepping
from undercroft.keep.rules.parties import MemberDraw
from undercroft.keep.scenario import world_from_text
from undercroft.keep.state.actors import Creature, Job, Merchant, Minion
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import Group
from undercroft.keep.state.orders import CommandResult, Connect
from undercroft.keep.state.structures import Structure
from undercroft.keep.state.world import World

HEADER = """\
kind = "keep-scenario"
name = "test"
portals = ["p"]
sanctum = "s"
"""

# An open hall: portal p on the top edge, sanctum s at the bottom.
HALL = """
#####p#####
#.........#
#.........#
#.........#
#.........#
#.........#
#.........#
#.........#
#....s....#
###########
"""

# A hall over a wall with three doors, the sanctum below them.
THREE_DOORS = """
#####p#####
#.........#
#.........#
#.........#
#.........#
#.........#
####+#+#+##
#.........#
#....s....#
###########
"""


def calm(tiles: str) -> str:
    """The map with a walled pocket below it where the Master sits, out of everyone's
    reach (``CALM`` puts him there): for tests of what groups do on their way, which a
    fight with the Master would cut short."""
    rows = textwrap.dedent(tiles).strip("\n").splitlines()
    width = len(rows[0])
    return "\n".join([*rows, "#" * width, "##m" + "#" * (width - 3), "#" * width])


CALM = '[master]\nat = "m"\n'
PILE = '[[treasure]]\nat = "s"\namount = 100000\nname = "pile"\n'
"""A pile in the sanctum no group can empty (with ``CALM``: groups come for it)."""


class ScriptedDice(DiceSampler):
    """A sampler that gives the dice and percentage draws a test asks for, then random ones."""

    def __init__(self, dice: Sequence[int] = (), chances: Sequence[bool] = ()) -> None:
        super().__init__(0)
        self.dice = list(dice)
        self.chances = list(chances)

    def die(self, sides: int = 6) -> int:
        if self.dice:
            return self.dice.pop(0)
        return super().die(sides)

    def chance(self, p: float) -> bool:
        if self.chances:
            return self.chances.pop(0)
        return super().chance(p)


def make_world(
    tiles: str = HALL,
    extra: str = "",
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> tuple[World, EventLog]:
    """A world from a drawn map plus scenario TOML, logging in memory.

    Invasions are off unless ``options`` turns them on: these worlds test one rule at a time.
    """
    body = textwrap.dedent(tiles).strip("\n")
    text = HEADER + f'tiles = """\n{body}\n"""\n' + textwrap.dedent(extra)
    world = world_from_text(text, seed=seed, options={"invasions": False, **(options or {})})
    log = world.open_log()
    assert isinstance(log, EventLog)
    return world, log


def keep_time(entry: LogEntry) -> KeepTime:
    """A keep log entry's time (a keep world stamps its events with the minute)."""
    assert isinstance(entry.time, KeepTime), entry
    return entry.time


def put(world: World, kind: str, x: int, y: int, **kw: Any) -> Structure:
    """A finished structure placed directly (as a scenario's prebuilt ones are)."""
    return building.place(world, kind, Pos(x, y), **kw)


def wire(world: World, *points: tuple[int, int]) -> CommandResult:
    return execute(world, Connect(tuple(Pos(x, y) for x, y in points)))


def creature(world: World, breed: str, x: int, y: int, lair: str | None = None) -> Creature:
    kind = world.ruleset.creatures[breed]
    found = Creature(world.new_id("creature"), breed, kind.attributes, Pos(x, y), 1, lair=lair)
    found.equip(kind)
    found.home = Pos(x, y) if lair is not None else None
    world.beings[found.id] = found
    return found


def merchant(world: World, x: int, y: int) -> Merchant:
    kind = world.ruleset.merchants["pedlar"]
    found = Merchant(world.new_id("merchant"), "pedlar", kind.attributes, Pos(x, y), 1)
    world.beings[found.id] = found
    return found


def minion(world: World, x: int, y: int, job: Job = Job.TRAPS, breed: str = "kobold") -> Minion:
    kind = world.ruleset.minions[breed]
    found = Minion(
        world.new_id("minion"), breed, kind.attributes, Pos(x, y), 1, job=job, carry=kind.carry
    )
    found.equip(kind)
    found.home = Pos(x, y)
    world.beings[found.id] = found
    world.request_dispatch()
    return found


def of(log: EventLog, *types: str) -> list[dict[str, Any]]:
    """The events of the given types, each as its log line (time, type, rules, fields)."""
    return [e.to_json() for e in log.entries if e.event.type in types]


def kinds(log: EventLog, skip: Iterable[str] = ("roll", "chance")) -> list[str]:
    return [e.event.type for e in log.entries if e.event.type not in skip]


def fired(log: EventLog) -> list[str]:
    """The traps that fired, in order."""
    return [e["trap"] for e in of(log, "trap.fired")]


# -- invasions ----------------------------------------------------------------------------------


def invaded(
    tiles: str = HALL,
    extra: str = "",
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    director: bool = False,
) -> tuple[World, EventLog]:
    """A drawn world with invasions on; the director is silenced unless ``director``
    (groups then come only when a test brings them, with :func:`invade`)."""
    world, log = make_world(tiles, extra, seed=seed, options={"invasions": True, **(options or {})})
    if not director:
        world.invasion.director.token += 1  # its queued start goes stale
    return world, log


def member(klass: str = "warrior", level: int = 1, *traits: str) -> MemberDraw:
    return MemberDraw(klass, level, tuple(traits))


def invade(
    world: World,
    *members: MemberDraw,
    goal: str = "kill_master",
    faction: str | None = None,
    portal: tuple[int, int] | None = None,
) -> Group:
    """A group arrives now with exactly these members (a scripted invasion)."""
    at = Pos(*portal) if portal else None
    return invasions.come(
        world, "normal", members=members or (member(),), goal=goal, faction=faction, portal=at
    )


def adv(world: World, group: Group, m: int = 1) -> Adventurer:
    member_id = group.members[m - 1]
    found = world.beings.get(member_id) or world.departed.get(member_id)
    assert isinstance(found, Adventurer)
    return found


def stand(world: World, who: Adventurer, x: int, y: int) -> None:
    """Put an adventurer on the map at (x, y), standing (its queued steps go stale)."""
    who.where = Whereabouts.IN
    who.present = True
    who.step_gen += 1
    if world.bodies.get(who.pos) == who.id:
        del world.bodies[who.pos]
    stepping.place(world, who, Pos(x, y))


def run_until(world: World, done: Callable[[], bool], minutes: int = 24 * 60) -> None:
    """Run minute by minute until ``done()`` (failing the test after ``minutes``)."""
    for _ in range(minutes):
        if done():
            return
        world.run(world.now + 1)
    raise AssertionError(f"not done after {minutes} minutes")


def ended(world: World, group: Group) -> Callable[[], bool]:
    return lambda: group.phase == "ended"


def track(world: World, who: Adventurer, minutes: int) -> list[Pos]:
    """Where ``who`` stood at each tick-ordered step over ``minutes`` (sampled each minute
    and at every change)."""
    seen: list[Pos] = []
    for _ in range(minutes):
        world.run(world.now + 1)
        if not seen or seen[-1] != who.pos:
            seen.append(who.pos)
        if who.where is Whereabouts.LEFT:
            break
    return seen


def record_steps(monkeypatch: Any) -> dict[str, list[Pos]]:
    """Every tile each adventurer steps into (patched into ``stepping``), in order."""
    steps: dict[str, list[Pos]] = {}
    real_move, real_swap, real_place = stepping.move, stepping.swap, stepping.place

    def move(world: World, who: Adventurer, to: Pos) -> None:
        steps.setdefault(who.id, []).append(to)
        real_move(world, who, to)

    def swap(world: World, a: Adventurer, b: Adventurer) -> None:
        steps.setdefault(a.id, []).append(b.pos)
        steps.setdefault(b.id, []).append(a.pos)
        real_swap(world, a, b)

    def place(world: World, who: Adventurer, pos: Pos) -> None:
        steps.setdefault(who.id, []).append(pos)
        real_place(world, who, pos)

    monkeypatch.setattr(stepping, "move", move)
    monkeypatch.setattr(stepping, "swap", swap)
    monkeypatch.setattr(stepping, "place", place)
    return steps
