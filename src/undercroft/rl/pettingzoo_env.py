"""The crawl as a PettingZoo AEC environment (docs/rl.md, "PettingZoo").

Two agents, ``"heroes"`` and ``"dm"``: the heroes' seat is one agent for the whole party,
as the engine has it (one HEROES seat whose actions each name the hero they are for, and
whose decisions mix the heroes: in Movement any hero may move next). One agent a hero
would need an order the rules do not have. Chance nodes are rolled inside with the
engine's dice, seeded by ``reset(seed=...)``. There is no parallel form: the crawl is
strictly turn-based, so PettingZoo's ``max_cycles_test`` (which builds a parallel env)
does not apply; the game's length is bounded by its turn cap (``max_turns``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventSink
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View
from undercroft.crawl.state import State
from undercroft.rl.encoding import MAX_ACTIONS, Encoder, action_mask
from undercroft.rl.match import ADVENTURE, new_game, party_of, returns, roll_chance, ruleset_of

ObsDict = dict[str, NDArray[Any]]
AGENTS = ("heroes", "dm")
SEATS = {a: Seat(a) for a in AGENTS}
"""Each agent's seat (a dict look-up: ``Seat(agent)`` is an Enum call each time)."""


class CrawlAEC(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """Both seats of a crawl adventure, turn by turn.

    ``observe(agent)`` gives ``{"observation": float32 vector in [0, 1],
    "action_mask": int8 vector}`` (all zeros when the agent is not to act). Rewards are
    0 until the game ends, then the heroes' score (:func:`~undercroft.rl.match.
    heroes_score`) to ``heroes`` and its negative to ``dm``; every agent is then
    terminated (truncated instead at the turn cap). An index the mask rules out is
    ignored (the same agent is asked again).
    """

    metadata = {"render_modes": ["ansi"], "name": "undercroft_crawl_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        adventure: str = ADVENTURE,
        *,
        party: Sequence[str] | None = None,
        max_turns: int | None = None,
        render_mode: str | None = None,
        sink: EventSink | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = ruleset_of(adventure, max_turns)
        self.party = party_of(party)
        self.render_mode = render_mode
        self.sink = sink
        self.encoder = Encoder(self.ruleset, len(self.party))
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, obs)
        self.action_spaces = {a: spaces.Discrete(MAX_ACTIONS) for a in AGENTS}
        self.state: State | None = None
        self._dice = DiceSampler(0)
        self._rolls: dict[tuple[int, ...], Roll] = {}
        self._legal: list[Action] = []
        self._seed_source = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_source = np.random.default_rng(seed)
        # With no seed, the episode's seed comes from the generator the last seed set.
        episode = seed if seed is not None else int(self._seed_source.integers(2**63))
        self.episode_seed = episode
        self._dice = DiceSampler(episode)
        self.state = new_game(self.ruleset, self.party, self.sink)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._advance()

    def _advance(self) -> None:
        """Roll the dice up to the next decision; then select its agent, or end."""
        state = self.state
        assert state is not None
        roll_chance(state, self._dice, self._rolls)
        if state.is_terminal():
            self._legal = []
            heroes, dm = returns(state)
            self.rewards = {"heroes": heroes, "dm": dm}
            cap = state.outcome == "turn_cap"
            self.terminations = dict.fromkeys(self.agents, not cap)
            self.truncations = dict.fromkeys(self.agents, cap)
            self.agent_selection = self.agents[0]
            return
        seat = state.current_player()
        assert seat is not None
        self.agent_selection = seat.value
        self._legal = state.legal_actions()

    def observe(self, agent: str) -> ObsDict:
        state = self.state
        assert state is not None
        seen = View(state, SEATS[agent])
        mine = agent == self.agent_selection and not state.is_terminal()
        return {
            "observation": self.encoder.encode(seen),
            "action_mask": action_mask(self._legal if mine else []),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        index = int(action)
        if not 0 <= index < min(len(self._legal), MAX_ACTIONS):
            self.infos[agent] = {"illegal": True}
            return
        self.infos[agent] = {}
        state.apply(self._legal[index])
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._advance()
        self._accumulate_rewards()

    def legal_actions(self) -> list[Action]:
        """The engine's actions behind the legal indices of the agent to act."""
        return self._legal[:MAX_ACTIONS]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        seen = View(self.state, Seat.HEROES)
        return f"turn {seen.turn}, Light {seen.light}, {seen.decision}\n{seen.board}\n"

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> CrawlAEC:
    """The AEC environment (PettingZoo's module-level constructor convention)."""
    return CrawlAEC(**kwargs)
