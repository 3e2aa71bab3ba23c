"""Playing whole adventures with policies: the loop ``undercroft run crawl`` uses.

Seeds: the dice use ``DiceSampler(seed)``; the heroes' policy ``derive_seed(seed, 1)``;
the DM's ``derive_seed(seed, 2)``. The log header records the run seed, so a log names
everything needed to replay it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES, Policy, make_policy
from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.events import EventLog, EventSink, Header
from undercroft.crawl.actions import Action, Roll, actor_of
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View, observe
from undercroft.crawl.ruleset import Ruleset
from undercroft.crawl.state import State


@dataclass(frozen=True)
class RunResult:
    """The end of one adventure."""

    state: State
    log: EventLog | None
    decisions: int


def play(
    ruleset: Ruleset,
    party: Sequence[str],
    *,
    seed: int,
    heroes: str = DEFAULT_HEROES,
    dm: str = DEFAULT_DM,
    log: bool = True,
    scenario: str | None = None,
    max_decisions: int = 100_000,
    gear: Mapping[str, Sequence[str]] | None = None,
    sink: EventSink | None = None,
) -> RunResult:
    """Play one adventure to its end and return the final state (and log).

    ``gear`` gives heroes the items they carry in from a campaign (C-SETUP-04). ``sink``
    takes the events instead of an in-memory log (``log`` is then ignored and
    ``RunResult.log`` is ``None``): a metrics collector that looks at each event as it
    comes and keeps what it counts, or a :class:`~undercroft.core.events.StreamingLog`.
    The fastest games are ``log=False``: no event is built at all.
    """
    state = State(ruleset, party, gear=gear)
    events: EventLog | None = None
    if sink is not None:
        state.sink = sink
    elif log:
        h = state.header(seed, scenario)
        # The header names the players too: the same seed played by other policies is
        # another game.
        players = {"heroes": heroes, "dm": dm}
        events = EventLog(
            Header(h.ruleset, h.version, h.seed, h.scenario, h.options, h.actors, players)
        )
        state.sink = events
    state.start()
    dice = DiceSampler(seed)
    policies = seat_policies(seed, heroes=heroes, dm=dm)
    decisions = play_until(state, dice, policies, max_decisions=max_decisions)
    if events is not None:
        events.close(state.summary())
    return RunResult(state, events, decisions)


def header_of(state: State, seed: int, scenario: str | None, players: Mapping[str, str]) -> Header:
    """The log header, naming who played each seat (a policy, or ``human``): the same
    seed played by other players is another game."""
    h = state.header(seed, scenario)
    return Header(h.ruleset, h.version, h.seed, h.scenario, h.options, h.actors, dict(players))


def seat_policies(seed: int, *, heroes: str | None, dm: str | None) -> dict[Seat, Policy]:
    """The policies of the seats a policy plays (``None``: a person plays it), seeded as
    the module docstring says."""
    policies = {}
    if heroes is not None:
        policies[Seat.HEROES] = make_policy(heroes, Seat.HEROES, DiceSampler(derive_seed(seed, 1)))
    if dm is not None:
        policies[Seat.DM] = make_policy(dm, Seat.DM, DiceSampler(derive_seed(seed, 2)))
    return policies


def say_why(state: State, seat: Seat, policy: Policy, action: Action) -> None:
    """The policy's reason for ``action`` as a ``reason`` event (no rule IDs: a reason is
    the player's, not the rules'), if the policy gives one (docs/events.md)."""
    why = getattr(policy, "reason", None)
    if isinstance(why, str) and why:
        state.emit("reason", [], seat=seat.value, actor=actor_of(action), reason=why)


def play_until(
    state: State,
    dice: DiceSampler,
    policies: Mapping[Seat, Policy],
    *,
    max_decisions: int = 100_000,
) -> int:
    """Roll the dice and let the ``policies`` decide until the game ends or a seat with no
    policy (a person) must act; returns the number of decisions the policies made.

    The dice and the policies' own samplers are the ones :func:`play` seeds, so a game
    whose seats are played here and by people in turn stays reproducible from its seed.
    """
    decisions = 0
    # Looked up once: an Enum's hash is Python code, and this loop runs a few hundred
    # times a game. Built-in policies read a lazy view (the fields they ask for); any
    # other policy gets the full observation, which it may keep.
    heroes, dm = policies.get(Seat.HEROES), policies.get(Seat.DM)
    heroes_view = bool(getattr(heroes, "reads_views", False))
    dm_view = bool(getattr(dm, "reads_views", False))
    rolls: dict[tuple[int, ...], Roll] = {}  # actions are frozen: one Roll per result
    while not state.is_terminal():
        seat = state.current_player()
        if seat is Seat.CHANCE:
            # Every chance node is n fair six-sided dice: rolling them samples it exactly.
            assert state.pending is not None
            natural = dice.roll(state.pending.args["dice"])
            roll = rolls.get(natural)
            if roll is None:
                roll = rolls[natural] = Roll(natural)
            state.apply(roll)
            continue
        assert seat is not None
        if seat is Seat.HEROES:
            policy, view = heroes, heroes_view
        else:
            policy, view = dm, dm_view
        if policy is None:
            break
        seen = View(state, seat) if view else observe(state, seat)
        action = policy.act(seen)  # type: ignore[arg-type]
        if state.sink.enabled:
            say_why(state, seat, policy, action)
        state.apply(action)
        decisions += 1
        if decisions >= max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions (turn {state.turn})")
    return decisions
