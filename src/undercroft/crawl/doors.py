"""Doors (C-DOOR-01, C-DOOR-02): forcing an unopened door open."""

from __future__ import annotations

from typing import Final

from undercroft.core.dice import Band, D6Table
from undercroft.core.grid import DoorState, Pos
from undercroft.crawl import reveal
from undercroft.crawl.actions import Action, OpenDoor
from undercroft.crawl.engine import Task, roll, task
from undercroft.crawl.figures import Hero
from undercroft.crawl.ruleset import Trait
from undercroft.crawl.state import State

# C-DOOR-01: 1-2 jammed, 3-4 stuck, 5-6 opened (Strong +1, C-DOOR-02).
OPEN_DOORS: Final = D6Table(
    "C-DOOR-01", (Band(1, 2, "jammed"), Band(3, 4, "stuck"), Band(5, 6, "opened"))
)


def door_actions(state: State, hero: Hero) -> list[Action]:
    """Unopened doors next to the hero that it has not already failed this turn.

    Trying costs no movement (ruling R-C-DOOR-01); a failed hero may not try that door
    again until next turn, other heroes may.
    """
    assert hero.pos is not None
    actions: list[Action] = []
    for p in state.grid.neighbours(hero.pos):
        door = state.doors.get(p)
        if door is not None and not door.opened and p not in hero.failed_doors:
            actions.append(OpenDoor(hero.id, p))
    return actions


@task("door_roll")
def door_roll(state: State, t: Task) -> None:
    state.ask_roll("open_door", hero=t.args["hero"], door=t.args["door"])


@roll("open_door")
def open_door_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    hero = state.heroes[str(args["hero"])]
    at = Pos(*args["door"])  # type: ignore[misc]
    door = state.doors[at]
    modifiers = state.trait_bonus(hero, Trait.STRONG)
    rules = ["C-DOOR-01"] + (["C-DOOR-02"] if modifiers else [])
    outcome = OPEN_DOORS.outcome(natural[0] + sum(modifiers.values()))
    state.emit_roll(rules, hero.id, natural, outcome, modifiers=modifiers, door=[at.x, at.y])
    if outcome == "opened":
        door.opened = True
        state.grid.set_door(at, DoorState.OPEN)
        state.emit("door.opened", ["C-DOOR-01"], door=[at.x, at.y], by=hero.id)
        # C-SURP-05: monsters revealed by a door that once rolled 1-2 cannot be surprised.
        reveal.update_view(state, unsurprisable=door.jammed)
        return
    hero.failed_doors.append(at)
    if outcome == "jammed":
        door.jammed = True
