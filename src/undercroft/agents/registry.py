"""The policies by name: what ``--policy NAME`` and ``--dm NAME`` look up.

A policy is an object with ``act(observation) -> Action``; it is built by a factory
``(seat, rng) -> Policy`` registered under a name (:data:`POLICIES`), so others can plug
in their own with :func:`register_policy`. Every policy gets its own seeded
:class:`~undercroft.core.dice.DiceSampler` for tie-breaks, so a game is reproducible.

A built-in policy also says why it chose: after ``act`` its ``reason`` is a short
sentence in the game's terms ("wait: Durn two squares from the Chapel"), which the
runner writes to the log as a ``reason`` event when the log is on (docs/events.md).
The built-in names are registered by :mod:`undercroft.agents` (its ``__init__``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Action
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation
from undercroft.defaults import DEFAULT_DM as DEFAULT_DM  # re-exported
from undercroft.defaults import DEFAULT_HEROES as DEFAULT_HEROES  # re-exported


class Policy(Protocol):
    def act(self, observation: Observation) -> Action: ...


PolicyFactory = Callable[[Seat, DiceSampler], Policy]
POLICIES: Final[dict[str, PolicyFactory]] = {}
"""Every policy by name, the built-in ones and those registered since."""
ALIASES: Final[dict[str, str]] = {}
"""Older names still accepted, and the name they stand for (``heuristic``: ``basic``)."""
RESOLVERS: Final[list[Callable[[str], str]]] = []
"""Functions that register a name not yet known and give its registered name, or raise
``ValueError`` saying why it is no policy (``careful[gather=0]``: a built-in with
knobs, :func:`undercroft.agents.builtin.tuned`), so such a name works in any process."""


def resolve(name: str) -> str:
    """The registered name ``name`` stands for: itself, what an alias names, or what a
    resolver registers; a ``KeyError`` if none knows it."""
    if name in POLICIES:
        return name
    if name in ALIASES:
        return ALIASES[name]
    for resolver in RESOLVERS:
        found = resolver(name)
        if found in POLICIES:
            return found
    raise KeyError(f"no policy {name!r}; known: {', '.join(sorted(POLICIES))}")


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name (``undercroft run crawl --policy NAME``)."""
    POLICIES[name] = factory


def make_policy(name: str, seat: Seat, rng: DiceSampler) -> Policy:
    """The policy ``name`` (or an alias of one) for ``seat``, with its own sampler."""
    return POLICIES[resolve(name)](seat, rng)
