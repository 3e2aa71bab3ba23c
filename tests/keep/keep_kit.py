"""Helpers for the keep tests: tiny drawn worlds, scripted dice, event filters."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventLog
from undercroft.core.grid import Pos
from undercroft.keep import building
from undercroft.keep.actors import Creature, Job, Merchant, Minion
from undercroft.keep.commands import CommandResult, Connect
from undercroft.keep.scenario import world_from_text
from undercroft.keep.structures import Structure
from undercroft.keep.world import World

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


def put(world: World, kind: str, x: int, y: int, **kw: Any) -> Structure:
    """A finished structure placed directly (as a scenario's prebuilt ones are)."""
    return building.place(world, kind, Pos(x, y), **kw)


def wire(world: World, *points: tuple[int, int]) -> CommandResult:
    return world.command(Connect(tuple(Pos(x, y) for x, y in points)))


def creature(world: World, breed: str, x: int, y: int, lair: str | None = None) -> Creature:
    kind = world.ruleset.creatures[breed]
    found = Creature(world.new_id("creature"), breed, kind.attributes, Pos(x, y), 1, lair=lair)
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
