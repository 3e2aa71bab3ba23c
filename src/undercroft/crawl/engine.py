"""The machinery that runs the turn: tasks, pending decisions and their registries.

The game advances by popping :class:`Task` objects off a stack. A task either does its
work at once (and may push more tasks) or stops the game at a :class:`Pending`
decision: a player's choice or a die roll (the CHANCE seat). ``State.apply`` hands the
action to the handler registered for that decision, which again may push tasks, and the
stack runs on. Tasks and decisions are plain data (a kind and a dict of JSON values), so
a state can be cloned, saved and loaded at any decision point.

Rule modules register their handlers with the decorators below; the state never needs
to know which module handles what. This module sits below the state (the state reads its
registries), so it does not name the state's class: the handlers' first argument, the
state, is typed ``Any`` here, and each handler's own signature says ``State``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from undercroft.crawl.actions import Action, actor_of


class Seat(enum.Enum):
    """Who decides at a decision point."""

    HEROES = "heroes"
    """The hero players; each action names the hero it is for."""
    DM = "dm"
    """The Dungeon Master, who moves monsters and spends their Stamina."""
    CHANCE = "chance"
    """The dice: ``chance_outcomes()`` lists the results with exact probabilities."""


@dataclass
class Task:
    """A unit of work on the stack."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)

    def __init__(self, kind: str, args: dict[str, Any] | None = None) -> None:
        # Written out, since a compiled (mypyc) class runs its own __init__ natively
        # but the one dataclasses generates as Python: thousands of tasks a game.
        self.kind = kind
        self.args = {} if args is None else args

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": self.args}


@dataclass
class Pending:
    """A decision the game waits for."""

    seat: Seat
    kind: str
    args: dict[str, Any] = field(default_factory=dict)

    def __init__(self, seat: Seat, kind: str, args: dict[str, Any] | None = None) -> None:
        # Written out for the compiled build, as Task's.
        self.seat = seat
        self.kind = kind
        self.args = {} if args is None else args

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat.value, "kind": self.kind, "args": self.args}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        return cls(Seat(data["seat"]), data["kind"], data["args"])


# The first argument of every handler is the game's State (see the module's note).
TaskHandler = Callable[[Any, Task], None]
LegalHandler = Callable[[Any, Pending], list[Action]]
ActionHandler = Callable[[Any, Pending, Action], None]
RollHandler = Callable[[Any, dict[str, Any], tuple[int, ...]], None]
CheckHandler = Callable[[Any, Pending, Action], bool]
OptionsHandler = Callable[[Any, type[Action], str], "list[Action] | None"]
ActorsHandler = Callable[[Any], list[str]]

ClosingHandler = Callable[[Any], None]

TASKS: Final[dict[str, TaskHandler]] = {}
LEGAL: Final[dict[str, LegalHandler]] = {}
ON_ACTION: Final[dict[str, ActionHandler]] = {}
ROLLS: Final[dict[str, RollHandler]] = {}
CHECKS: Final[dict[str, CheckHandler]] = {}
"""Decisions whose legality is checked without listing every legal action: the check
asks the same rule code as the legal actions, for the chosen action's kind and actor."""
OPTIONS: Final[dict[str, OptionsHandler]] = {}
"""Decisions that can list the legal actions of one kind for one actor (a hero or a
monster id) without listing the rest; ``None`` for a kind they cannot."""
CLOSING: Final[list[ClosingHandler]] = []
"""What the rules do when the adventure ends, before its summary, in order
(:func:`closing`)."""
ACTORS: Final[dict[str, ActorsHandler]] = {}
"""Decisions that can name the figures with a legal action (in the order the legal
actions list them) without listing the actions."""


def listed(options: OptionsHandler, state: Any, action: Action) -> bool:
    """Whether ``action`` is among the legal actions ``options`` lists for its kind and
    its actor (a kind ``options`` does not list is not legal)."""
    found = options(state, type(action), actor_of(action) or "")
    return found is not None and action in found


def closing(fn: ClosingHandler) -> ClosingHandler:
    """Register what the rules do when the adventure ends (in registration order)."""
    CLOSING.append(fn)
    return fn


def task(kind: str) -> Callable[[TaskHandler], TaskHandler]:
    """Register the handler of a task kind."""

    def register(fn: TaskHandler) -> TaskHandler:
        TASKS[kind] = fn
        return fn

    return register


def decision(
    kind: str,
    legal: LegalHandler,
    *,
    check: CheckHandler | None = None,
    options: OptionsHandler | None = None,
    actors: ActorsHandler | None = None,
) -> Callable[[ActionHandler], ActionHandler]:
    """Register a decision kind: its legal actions and the handler of the chosen one;
    optionally a legality check, a lister of one kind's actions for one actor and a
    lister of the figures that may act, all built on the same rule code as ``legal``
    (see :data:`CHECKS`, :data:`OPTIONS`, :data:`ACTORS`)."""

    def register(fn: ActionHandler) -> ActionHandler:
        LEGAL[kind] = legal
        ON_ACTION[kind] = fn
        if check is not None:
            CHECKS[kind] = check
        if options is not None:
            OPTIONS[kind] = options
        if actors is not None:
            ACTORS[kind] = actors
        return fn

    return register


def roll(kind: str) -> Callable[[RollHandler], RollHandler]:
    """Register what a die roll of this kind does with its naturals."""

    def register(fn: RollHandler) -> RollHandler:
        ROLLS[kind] = fn
        return fn

    return register
