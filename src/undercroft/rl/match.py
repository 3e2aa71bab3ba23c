"""What the three adapters share: the game set up from its parameters, the dice, the
built-in opponent and the documented reward (docs/rl.md, "Reward").

The dice are the engine's own: a :class:`~undercroft.core.dice.DiceSampler` seeded with
the episode's seed rolls every chance node, and a built-in opponent gets the sampler
:func:`undercroft.crawl.runner.seat_policies` gives its seat for that seed, so an episode
played by the adapters is the game ``undercroft run crawl`` plays with the same seed and
the same choices.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Final

from undercroft.agents.registry import Policy
from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventSink
from undercroft.crawl.actions import Roll
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View, observe
from undercroft.crawl.ruleset import Ruleset
from undercroft.crawl.runner import say_why
from undercroft.crawl.state import State

ADVENTURE: Final = "greyhollow-cellars"
"""The adventure of an environment made without one."""
PLAYERS: Final = (Seat.HEROES, Seat.DM)
"""The two players of the adapters, in their player order (OpenSpiel's 0 and 1)."""
WON: Final = 0.5
GOALS: Final = 0.25
ALIVE: Final = 0.25
"""The weights of the heroes' score (:func:`heroes_score`)."""


@functools.cache
def ruleset_of(adventure: str, max_turns: int | None = None) -> Ruleset:
    """The shipped adventure's ruleset, with the turn cap ``max_turns`` if given
    (``Options.max_turns``: the game ends with outcome ``turn_cap`` after that turn)."""
    pack = default_pack()
    options = pack.options
    if max_turns is not None:
        options = dataclasses.replace(options, max_turns=max_turns)
    return pack.ruleset(adventure, options)


def party_of(party: Sequence[str] | None) -> tuple[str, ...]:
    """The heroes: ``party``, or the pack's first four (as ``undercroft run crawl``)."""
    return tuple(party) if party is not None else tuple(list(default_pack().heroes)[:4])


def new_game(ruleset: Ruleset, party: Sequence[str], sink: EventSink | None = None) -> State:
    """A started game (the heroes' first look done, the first decision pending)."""
    state = State(ruleset, party)
    if sink is not None:
        state.sink = sink
    state.start()
    return state


def roll_chance(state: State, dice: DiceSampler, rolls: dict[tuple[int, ...], Roll]) -> None:
    """Roll every pending chance node with ``dice``, as the runner does (each node is
    n fair six-sided dice: rolling them samples it exactly)."""
    while state.current_player() is Seat.CHANCE:
        assert state.pending is not None
        natural = dice.roll(state.pending.args["dice"])
        roll = rolls.get(natural)
        if roll is None:
            roll = rolls[natural] = Roll(natural)
        state.apply(roll)


def opponent_acts(state: State, seat: Seat, policy: Policy) -> None:
    """The built-in ``policy`` plays one decision of ``seat`` from the seat's view, as
    :func:`undercroft.crawl.runner.play_until` does (a lazy view for a policy that reads
    one, its reason in the log when the log is on)."""
    lazy = bool(getattr(policy, "reads_views", False))
    seen = View(state, seat) if lazy else observe(state, seat)
    action = policy.act(seen)  # type: ignore[arg-type]
    if state.sink.enabled:
        say_why(state, seat, policy, action)
    state.apply(action)


def heroes_score(state: State) -> float:
    """The heroes' score of a finished game, in [0, 1]: 0.5 if the adventure is won,
    plus 0.25 times the share of goals met, plus 0.25 times the share of heroes alive
    (not dead). 0 while the game goes on."""
    if not state.is_terminal():
        return 0.0
    summary = state.summary()
    goals = len(summary["goals_met"]) + len(summary["goals_failed"])
    heroes = len(state.heroes)
    score = WON * bool(summary["won"])
    score += GOALS * (len(summary["goals_met"]) / goals if goals else 1.0)
    score += ALIVE * ((heroes - len(summary["dead"])) / heroes if heroes else 0.0)
    return score


def returns(state: State) -> tuple[float, float]:
    """Each player's return (heroes, DM): the heroes' score and its negative (zero sum)."""
    score = heroes_score(state)
    return score, -score
