"""A crawl game at a table: people at some seats, policies at the others, the dice rolled.

Used by the terminal (``undercroft play crawl``) and the web server. The dice and the
policies are seeded from the game's seed exactly as :func:`undercroft.crawl.runner.play`
seeds them, so a game is reproduced by its seed and the actions the people chose; that is
all a save holds (with the state, to check that it replays to the same game).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from undercroft import __version__
from undercroft.agents.registry import Policy
from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventLog, write_text_atomic
from undercroft.core.versions import version_problem
from undercroft.crawl.actions import Action, Roll, from_json, to_json
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View, observe
from undercroft.crawl.ruleset import Ruleset
from undercroft.crawl.runner import header_of, play_until, say_why, seat_policies
from undercroft.crawl.state import IllegalActionError, SaveError, State

HUMAN = "human"
PLAYED_SEATS = (Seat.HEROES, Seat.DM)
SAVE_KIND = "undercroft-crawl-table"


class Table:
    """One game: ``players`` maps each seat to ``human`` or the policy that plays it."""

    def __init__(
        self,
        ruleset: Ruleset,
        party: Sequence[str],
        *,
        seed: int,
        players: Mapping[Seat, str],
        scenario: str | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.party = list(party)
        self.seed = seed
        self.players = {seat: players.get(seat, HUMAN) for seat in PLAYED_SEATS}
        self.scenario = scenario or ruleset.adventure.id
        self.state = State(ruleset, self.party)
        named = {seat.value: who for seat, who in self.players.items()}
        self.log = EventLog(header_of(self.state, seed, self.scenario, named))
        self.state.sink = self.log
        self.state.start()
        self.dice = DiceSampler(seed)
        policy = {s: None if p == HUMAN else p for s, p in self.players.items()}
        self.policies: dict[Seat, Policy] = seat_policies(
            seed, heroes=policy[Seat.HEROES], dm=policy[Seat.DM]
        )
        self.chosen: list[Action] = []
        """The actions people chose, in order: with the seed, the whole game."""
        self.advance()

    def human(self, seat: Seat) -> bool:
        return self.players[seat] == HUMAN

    def to_act(self) -> Seat | None:
        """The seat a person must act for now (``None``: the game is over)."""
        return self.state.current_player()

    def apply(self, action: Action) -> None:
        """A person's action (:class:`IllegalActionError` if not legal; nothing changes)."""
        seat = self.state.current_player()
        if seat is None or not self.human(seat):
            raise IllegalActionError("no person is to act now")
        self.state.apply(action)
        self.chosen.append(action)
        self.advance()

    def advance(self) -> None:
        """Roll the dice and let the policies play until a person must act or it ends."""
        play_until(self.state, self.dice, self.policies)
        self._close_if_over()

    def _close_if_over(self) -> None:
        if self.state.is_terminal() and self.log.summary is None:
            self.log.close(self.state.summary())

    def hand_over(self, seat: Seat, player: str) -> None:
        """Give ``seat`` to a person (``human``) or to the built-in policy ``player`` from
        now on. The policy is seeded as :func:`~undercroft.crawl.runner.seat_policies`
        seeds that seat's, so a game is still decided by its seed and the moments its
        seats changed hands (nothing is logged: the policy's ``reason`` lines tell who
        chose). Call :meth:`step` or :meth:`advance` to let it play. Used by the web
        server; a save (:meth:`to_json`) does not record handovers, and the terminal's
        ``play crawl`` never makes one."""
        if player == HUMAN:
            self.policies.pop(seat, None)
        else:
            named: dict[str, str | None] = {"heroes": None, "dm": None, seat.value: player}
            made = seat_policies(self.seed, heroes=named["heroes"], dm=named["dm"])
            self.policies[seat] = made[seat]
        self.players[seat] = player

    def step(self) -> bool:
        """Roll the dice due, then let a policy make one decision, as
        :func:`~undercroft.crawl.runner.play_until` would (the same dice, the same
        ``reason`` lines): ``False`` when a person must act or the game is over, so a
        caller can stop between any two decisions."""
        state = self.state
        while not state.is_terminal() and state.current_player() is Seat.CHANCE:
            assert state.pending is not None
            state.apply(Roll(self.dice.roll(state.pending.args["dice"])))
        seat = state.current_player()
        policy = None if seat is None else self.policies.get(seat)
        if seat is None or policy is None:
            self._close_if_over()
            return False
        seen = View(state, seat) if getattr(policy, "reads_views", False) else observe(state, seat)
        action = policy.act(seen)  # type: ignore[arg-type]
        if state.sink.enabled:
            say_why(state, seat, policy, action)
        state.apply(action)
        self._close_if_over()
        return True

    # -- saving --------------------------------------------------------------------------

    def to_json(self, pack: str | None = None) -> dict[str, Any]:
        return {
            "kind": SAVE_KIND,
            "version": __version__,
            "pack": pack,
            "adventure": self.ruleset.adventure.id,
            "scenario": self.scenario,
            "party": self.party,
            "seed": self.seed,
            "players": {s.value: p for s, p in self.players.items()},
            "actions": [to_json(a) for a in self.chosen],
            "state": self.state.to_json(),
        }

    def save(self, path: Path, pack: str | None = None) -> None:
        write_text_atomic(path, json.dumps(self.to_json(pack), indent=1) + "\n")

    @classmethod
    def replay(cls, ruleset: Ruleset, data: Mapping[str, Any]) -> Table:
        """The game a save describes, played again from its seed and actions; a
        :class:`SaveError` names what does not fit."""
        try:
            players = {Seat(s): str(p) for s, p in data["players"].items()}
            table = cls(
                ruleset,
                [str(h) for h in data["party"]],
                seed=int(data["seed"]),
                players=players,
                scenario=str(data["scenario"]),
            )
            actions = [from_json(a) for a in data["actions"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SaveError(f"the save is damaged: {exc!r}") from None
        for number, action in enumerate(actions, start=1):
            try:
                table.apply(action)
            except IllegalActionError:
                raise SaveError(
                    f"action {number} of the save ({action.describe()}) is not legal when "
                    "the game is played again: the save was changed, or made by another "
                    f"version than {__version__}"
                ) from None
        if data.get("state") != table.state.to_json():
            raise SaveError(
                f"the game played again differs from the saved state: the save was made by "
                f"undercroft {data.get('version')!r}, this is {__version__}, or it was changed"
            )
        return table


def read_save(path: Path) -> dict[str, Any]:
    """A save file's JSON, or :class:`SaveError` naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError, RecursionError) as exc:  # ValueError: JSON, UTF-8, digits
        raise SaveError(f"cannot read the saved game: {exc}") from None
    if not isinstance(data, dict) or data.get("kind") != SAVE_KIND:
        raise SaveError("not a game saved by `undercroft play crawl` (field 'kind')")
    # A game saved by a newer undercroft may hold what this one cannot play again (a save
    # with no version at all is checked as the game is played again, as before).
    problem = version_problem(str(data["version"])) if "version" in data else None
    if problem is not None:
        line = next(
            (
                n
                for n, row in enumerate(text.splitlines(), 1)
                if row.lstrip().startswith('"version"')
            ),
            1,
        )
        raise SaveError(f"line {line}: field 'version': {problem}")
    return data
