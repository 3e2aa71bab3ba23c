"""The crawl as a single-agent Gymnasium environment (docs/rl.md, "Gymnasium").

The learner plays one seat, the heroes' party (``seat="heroes"``, the default) or the
DM (``seat="dm"``); a built-in policy plays the other (``master`` against the heroes,
``careful`` against the DM: each other's defaults). Chance nodes are rolled inside with
the engine's dice, seeded by ``reset(seed=...)``. Registered as
``undercroft/Crawl-v0`` when :mod:`undercroft.rl` is imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES, Policy, make_policy
from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.events import EventSink
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View
from undercroft.crawl.state import State
from undercroft.rl.encoding import MAX_ACTIONS, Encoder, action_mask
from undercroft.rl.match import (
    ADVENTURE,
    heroes_score,
    new_game,
    opponent_acts,
    party_of,
    roll_chance,
    ruleset_of,
)

ObsDict = dict[str, Any]


class CrawlEnv(gym.Env[ObsDict, np.int64]):
    """One seat of a crawl adventure against a built-in policy.

    Observation: ``{"observation": float32 vector in [0, 1], "action_mask": int8
    vector}`` (:mod:`undercroft.rl.encoding`). Action: an index into the seat's legal
    actions. Reward: 0 until the game ends, then the seat's return (the heroes' score
    in [0, 1] for the heroes, its negative for the DM: :func:`~undercroft.rl.match.
    heroes_score`). ``terminated`` when the adventure ends; ``truncated`` instead when
    it ends at the turn cap (outcome ``turn_cap``). An index the mask rules out is
    ignored: nothing happens, the reward is 0 and ``info["illegal"]`` is true.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  (Gymnasium's own convention)

    def __init__(
        self,
        adventure: str = ADVENTURE,
        *,
        seat: str = "heroes",
        opponent: str | None = None,
        party: Sequence[str] | None = None,
        max_turns: int | None = None,
        render_mode: str | None = None,
        sink: EventSink | None = None,
    ) -> None:
        if seat not in ("heroes", "dm"):
            raise ValueError(f"seat must be 'heroes' or 'dm', not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.seat = Seat(seat)
        self.other = Seat.DM if self.seat is Seat.HEROES else Seat.HEROES
        self.opponent = opponent or (DEFAULT_DM if self.seat is Seat.HEROES else DEFAULT_HEROES)
        self.ruleset = ruleset_of(adventure, max_turns)
        self.party = party_of(party)
        self.render_mode = render_mode
        self.sink = sink
        """Where the engine's events go (an EventLog to keep the game's log)."""
        self.encoder = Encoder(self.ruleset, len(self.party))
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(MAX_ACTIONS)
        self.state: State | None = None
        self._dice = DiceSampler(0)
        self._policy: Policy | None = None
        self._legal: list[Action] = []
        self._rolls: dict[tuple[int, ...], Roll] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        # With no seed, the episode's seed is drawn from the env's own generator (which
        # Gymnasium seeds from the first reset's seed), so every episode is replayable.
        episode = seed if seed is not None else int(self.np_random.integers(2**63))
        self.episode_seed = episode
        self._dice = DiceSampler(episode)
        # The opponent's sampler is the one the runner gives its seat for this seed.
        index = 1 if self.other is Seat.HEROES else 2
        self._policy = make_policy(
            self.opponent, self.other, DiceSampler(derive_seed(episode, index))
        )
        self.state = new_game(self.ruleset, self.party, self.sink)
        self._advance()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_terminal():
            raise RuntimeError("the episode is over; call reset()")
        index = int(action)
        if not 0 <= index < min(len(self._legal), MAX_ACTIONS):
            # An index the mask rules out changes nothing: the same decision is asked
            # again (Gymnasium's checker steps with unmasked samples).
            return self._observation(), 0.0, False, False, self._info(illegal=True)
        state.apply(self._legal[index])
        self._advance()
        reward = 0.0
        terminated = truncated = False
        if state.is_terminal():
            score = heroes_score(state)
            reward = score if self.seat is Seat.HEROES else -score
            truncated = state.outcome == "turn_cap"
            terminated = not truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def _advance(self) -> None:
        """Roll the dice and let the opponent play until the learner's seat decides or
        the game ends."""
        state = self.state
        assert state is not None and self._policy is not None
        while not state.is_terminal():
            seat = state.current_player()
            if seat is Seat.CHANCE:
                roll_chance(state, self._dice, self._rolls)
            elif seat is self.other:
                opponent_acts(state, seat, self._policy)
            else:
                break
        self._view = View(state, self.seat)
        self._legal = list(self._view.legal)

    def _observation(self) -> ObsDict:
        return {
            "observation": self.encoder.encode(self._view),
            "action_mask": action_mask(self._legal),
        }

    def _info(self, *, illegal: bool = False) -> dict[str, Any]:
        state = self.state
        assert state is not None
        return {"action_mask": action_mask(self._legal), "turn": state.turn, "illegal": illegal}

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal indices as booleans (the method sb3-contrib's MaskablePPO calls)."""
        return action_mask(self._legal).astype(bool)

    def legal_actions(self) -> list[Action]:
        """The engine's actions behind the legal indices, in index order."""
        return self._legal[:MAX_ACTIONS]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        seen = View(self.state, self.seat)
        return f"turn {seen.turn}, Light {seen.light}, {seen.decision}\n{seen.board}\n"
