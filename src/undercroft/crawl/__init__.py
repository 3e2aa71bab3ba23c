"""crawl: the turn-based tabletop dungeon crawl (rules: docs/rules/crawl.md).

``new_game(ruleset, party)`` starts an adventure; docs/crawl.md explains the state
machine, the seats, observations and policies.
"""

from __future__ import annotations

from undercroft.native import search_path

search_path("crawl", __path__)  # the compiled build, if there is a current one

from collections.abc import Iterable  # noqa: E402

from undercroft.core.events import EventSink  # noqa: E402

# Importing the rule modules registers their tasks and decisions with the engine.
from undercroft.crawl import (  # noqa: E402, F401
    combat,
    doors,
    explore,
    goals,
    monsters,
    movement,
    resolve,
    reveal,
    spells,
    traps,
    turn,
)
from undercroft.crawl.engine import Seat  # noqa: E402
from undercroft.crawl.ruleset import Ruleset  # noqa: E402
from undercroft.crawl.state import IllegalActionError, SaveError, State  # noqa: E402


def new_game(ruleset: Ruleset, party: Iterable[str], *, sink: EventSink | None = None) -> State:
    """Set up the adventure with the party's heroes on the start squares and begin."""
    state = State(ruleset, party, sink=sink)
    state.start()
    return state


__all__ = ["IllegalActionError", "Ruleset", "SaveError", "Seat", "State", "new_game"]
