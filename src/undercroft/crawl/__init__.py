"""crawl: the turn-based tabletop dungeon crawl (rules: docs/rules/crawl.md).

``new_game(ruleset, party)`` starts an adventure; docs/crawl.md explains the state
machine, the seats, observations and policies.
"""

from __future__ import annotations

from collections.abc import Iterable

from undercroft.core.events import EventSink

# Importing the rule modules registers their tasks and decisions with the engine.
from undercroft.crawl import (  # noqa: F401
    combat,
    doors,
    explore,
    monsters,
    movement,
    resolve,
    reveal,
    spells,
    traps,
    turn,
)
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import Ruleset
from undercroft.crawl.state import IllegalActionError, SaveError, State


def new_game(ruleset: Ruleset, party: Iterable[str], *, sink: EventSink | None = None) -> State:
    """Set up the adventure with the party's heroes on the start squares and begin."""
    state = State(ruleset, party, sink=sink)
    state.start()
    return state


__all__ = ["IllegalActionError", "Ruleset", "SaveError", "Seat", "State", "new_game"]
