"""What the adapters' tests share: the native engine fed a recorded game, and logs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from undercroft.agents.registry import Policy
from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventLog
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.engine import Seat
from undercroft.crawl.runner import header_of, play_until
from undercroft.crawl.state import State
from undercroft.rl.match import party_of, ruleset_of

ADVENTURES = ("greyhollow-cellars", "bone-priest", "ash-king")


def new_log(adventure: str, seed: int, max_turns: int | None) -> EventLog:
    """An empty log whose header names the game (the same for adapter and native)."""
    rules = ruleset_of(adventure, max_turns)
    header = header_of(State(rules, party_of(None)), seed, adventure, {"heroes": "rl", "dm": "rl"})
    return EventLog(header)


def native_log(
    adventure: str,
    seed: int,
    max_turns: int | None,
    actions: Sequence[Action],
    policies: Mapping[Seat, Policy] | None = None,
    dice: DiceSampler | None = None,
) -> EventLog:
    """The engine's own log of the game whose player decisions (and rolls, when
    ``dice`` is None) are ``actions``, in order; the seats of ``policies`` play
    themselves through the runner's loop, rolling ``dice``."""
    log = new_log(adventure, seed, max_turns)
    state = State(ruleset_of(adventure, max_turns), party_of(None))
    state.sink = log
    state.start()
    fed: Iterator[Action] = iter(actions)
    while not state.is_terminal():
        if dice is not None:
            play_until(state, dice, policies or {})
            if state.is_terminal():
                break
        action = next(fed)
        if state.current_player() is Seat.CHANCE:
            assert isinstance(action, Roll)
        state.apply(action)
    assert next(fed, None) is None, "actions left over"
    log.close(state.summary())
    return log
