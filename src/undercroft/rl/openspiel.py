"""The crawl as an OpenSpiel Python game, ``undercroft_crawl`` (docs/rl.md, "OpenSpiel").

Importing this module registers the game: ``pyspiel.load_game("undercroft_crawl",
{"adventure": "bone-priest"})``. Player 0 is the heroes' seat (the whole party), player
1 the DM; chance nodes are the engine's rolls with their exact probabilities
(:meth:`CrawlState.exact_chance_outcomes` gives them as ``Fraction``). Observations and
information states are built from the seat's :class:`~undercroft.crawl.observe.
Observation` only. A state is serialized by OpenSpiel as its history and its Python
fields; the engine's game among them pickles as its JSON save (``State.to_json``).

``resample_from_infostate`` is added by the search agent.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from fractions import Fraction
from typing import Any, Final

import numpy as np
import pyspiel

from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, Roll, from_json, to_json
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation, View, observe
from undercroft.crawl.resample import resample, with_placements
from undercroft.crawl.ruleset import Placement
from undercroft.crawl.state import State
from undercroft.rl.encoding import MAX_ACTIONS, Encoder
from undercroft.rl.match import ADVENTURE, PLAYERS, new_game, party_of, returns, ruleset_of

GAME_NAME: Final = "undercroft_crawl"
MAX_DICE: Final = 2
"""The most dice one chance node rolls (fights and Mental Combat: 2d6)."""
MOVES_PER_TURN: Final = 1000
"""A bound on the actions (decisions and rolls) of one turn, for ``max_game_length``:
random play on the shipped adventures takes about 20 a turn."""
DEFAULT_MAX_TURNS: Final = 100
"""The engine's own turn cap (``Options.max_turns``)."""

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="undercroft crawl",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "adventure": ADVENTURE,
        "max_turns": DEFAULT_MAX_TURNS,
        "party": "",
    },
)


@functools.cache
def _encoder(adventure: str, max_turns: int, party: tuple[str, ...]) -> Encoder:
    return Encoder(ruleset_of(adventure, max_turns), len(party))


def _engine_from_save(
    adventure: str,
    max_turns: int,
    save: str,
    history: list[dict[str, Any]],
    recall: tuple[list[str], int, bool] = (["", ""], 0, False),
    placements: list[tuple[str, int, int]] | None = None,
) -> Engine:
    ruleset = ruleset_of(adventure, max_turns)
    if placements is not None:
        # A resampled game's guards stand where its draw put them, not the content.
        placed = tuple(Placement(kind, Pos(x, y)) for kind, x, y in placements)
        ruleset = dataclasses.replace(ruleset, adventure=with_placements(ruleset.adventure, placed))
    state = State.from_json(ruleset, json.loads(save))
    state.history = [from_json(a) for a in history]
    engine = Engine(state, adventure, max_turns)
    engine.chain, engine.upto, engine.eager = list(recall[0]), recall[1], recall[2]
    return engine


def _link(chain: list[str], state: State, seat: Seat, chosen: Action) -> None:
    """Add ``seat``'s observation now (without its legal actions) and its choice
    ``chosen`` to the seat's SHA-256 chain in ``chain``."""
    p = PLAYERS.index(seat)
    seen = observe(state, seat).to_json()
    del seen["legal"]
    seen["chosen"] = to_json(chosen)
    text = chain[p] + json.dumps(seen, sort_keys=True, separators=(",", ":"))
    chain[p] = hashlib.sha256(text.encode()).hexdigest()


class Engine:
    """The engine's game inside an OpenSpiel state: copied (OpenSpiel's ``Clone``
    deep-copies a Python state's fields) with :meth:`State.clone` and pickled
    (OpenSpiel's ``Serialize``) as its JSON save.

    It also keeps each player's recall chain (the information state): a SHA-256 chain of
    the player's observation, without its legal actions, and its choice at each of its
    decisions. The chain is worked out only once it is asked for: the first
    :meth:`recall` replays the game's history from its start (the game
    :func:`~undercroft.rl.match.new_game` sets up with the same party) to build it, and
    from then on (``eager``, kept by copies) each decision adds its link as it is
    played. A game whose information states nobody reads (learning from observation
    tensors, random simulation) pays nothing for them; the chain is the same either
    way.
    """

    def __init__(self, state: State, adventure: str, max_turns: int) -> None:
        self.state = state
        self.adventure = adventure
        self.max_turns = max_turns
        self.chain = ["", ""]
        """Per player, the chain over its decisions among the first ``upto`` actions."""
        self.upto = 0
        self.eager = False
        """Whether each decision adds its link as it is played."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        copy = Engine(self.state.clone(), self.adventure, self.max_turns)
        copy.chain, copy.upto, copy.eager = list(self.chain), self.upto, self.eager
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        save = json.dumps(self.state.to_json(), sort_keys=True)
        history = [to_json(a) for a in self.state.history]
        recall = (list(self.chain), self.upto, self.eager)
        placements = self.state.ruleset.adventure.placements
        stock = ruleset_of(self.adventure, self.max_turns).adventure.placements
        drawn = None if placements == stock else [(p.monster, p.at.x, p.at.y) for p in placements]
        return (
            _engine_from_save,
            (self.adventure, self.max_turns, save, history, recall, drawn),
        )

    def apply(self, chosen: Action) -> None:
        """Apply ``chosen``, adding its link to the chain when the chain is kept up."""
        state = self.state
        if self.eager and self.upto == len(state.history):
            seat = state.current_player()
            if seat is not None and seat is not Seat.CHANCE:
                _link(self.chain, state, seat, chosen)
            self.upto += 1
        state.apply(chosen)

    def recall(self) -> list[str]:
        """Each player's chain now (built by replaying the history the first time)."""
        history = self.state.history
        if self.upto != len(history):
            party = tuple(h.profile for h in self.state.roster)
            replay = new_game(ruleset_of(self.adventure, self.max_turns), party)
            chain = ["", ""]
            for action in history:
                seat = replay.current_player()
                if seat is not None and seat is not Seat.CHANCE:
                    _link(chain, replay, seat, action)
                replay.apply(action)
            self.chain, self.upto = chain, len(history)
        self.eager = True
        return self.chain


def observation_string(seen: Observation) -> str:
    """A seat's observation as OpenSpiel's observation string: its JSON form."""
    return json.dumps(seen.to_json(), sort_keys=True, separators=(",", ":"))


class CrawlGame(pyspiel.Game):  # type: ignore[misc]
    """A crawl adventure: parameters ``adventure``, ``max_turns`` (the turn cap; the
    game ends with outcome ``turn_cap`` after it) and ``party`` (comma-separated hero
    ids; empty: the pack's first four)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.adventure = str(params["adventure"])
        self.max_turns = int(params["max_turns"])
        names = [h.strip() for h in str(params["party"]).split(",") if h.strip()]
        self.party = party_of(names or None)
        self.ruleset = ruleset_of(self.adventure, self.max_turns)
        self.encoder = _encoder(self.adventure, self.max_turns, self.party)
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS,
            max_chance_outcomes=6**MAX_DICE,
            num_players=len(PLAYERS),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_turns * MOVES_PER_TURN,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> CrawlState:
        return CrawlState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CrawlObserver:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CrawlObserver(self.encoder, info_state=recall)


class CrawlState(pyspiel.State):  # type: ignore[misc]
    """A crawl game in progress: a thin layer over the engine's :class:`State`."""

    def __init__(self, game: CrawlGame) -> None:
        super().__init__(game)
        self.key = (game.adventure, game.max_turns, game.party)
        self.engine = Engine(new_game(game.ruleset, game.party), game.adventure, game.max_turns)

    @property
    def recall(self) -> list[str]:
        """Per player, a SHA-256 chain of the player's observation (without its legal
        actions) and its action at each of its decisions so far (:class:`Engine`)."""
        return self.engine.recall()

    @property
    def game_state(self) -> State:
        """The engine's game (for the adapter's own tests and tools, not for players)."""
        return self.engine.state

    def current_player(self) -> int:
        seat = self.engine.state.current_player()
        if seat is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if seat is Seat.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return PLAYERS.index(seat)

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(min(len(self.engine.state.legal_actions()), MAX_ACTIONS)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, float(p)) for i, (_, p) in enumerate(self.engine.state.chance_outcomes())]

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """:meth:`chance_outcomes` with the engine's exact probabilities."""
        return [(i, p) for i, (_, p) in enumerate(self.engine.state.chance_outcomes())]

    def engine_action(self, action: int) -> Action:
        """The engine's action behind OpenSpiel action ``action`` now."""
        return self.engine.state.legal_actions()[action]

    def _apply_action(self, action: int) -> None:
        self.engine.apply(self.engine.state.legal_actions()[action])

    def _action_to_string(self, player: int, action: int) -> str:
        legal = self.engine.state.legal_actions()
        if not 0 <= action < len(legal):
            return f"illegal action {action}"
        chosen = legal[action]
        if isinstance(chosen, Roll):
            return f"Roll{list(chosen.natural)}"
        return json.dumps(to_json(chosen), separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CrawlState:
        """A state ``player_id`` cannot tell from this one, the hidden facts drawn afresh
        (:func:`undercroft.crawl.resample.resample`: face-down cards, monsters out of
        sight, undetected traps, guards of unrevealed rooms; the DM sees everything and
        gets a copy), seeded from ``probability_sampler`` (OpenSpiel's sampler: a
        callable giving a float in [0, 1)). The player's information state is the
        original's; the other player's chain is carried over as it stands (in the
        drawn world it would have seen other things: ISMCTS keys only the searching
        player's nodes by it)."""
        seed = int(float(probability_sampler()) * 2**53)
        recall = self.engine.recall()
        twin: CrawlState = self.clone()
        state = resample(self.engine.state, PLAYERS[player_id], seed)
        engine = Engine(state, self.engine.adventure, self.engine.max_turns)
        engine.chain, engine.upto, engine.eager = list(recall), len(state.history), True
        twin.engine = engine
        return twin

    def is_terminal(self) -> bool:
        return self.engine.state.is_terminal()

    def returns(self) -> list[float]:
        return list(returns(self.engine.state))

    def __str__(self) -> str:
        return json.dumps(self.engine.state.to_json(), sort_keys=True, separators=(",", ":"))


class CrawlObserver:
    """OpenSpiel's observer of one seat: the observation (tensor and string) or the
    information state (string: the player's recall chain and its observation)."""

    def __init__(self, encoder: Encoder, *, info_state: bool) -> None:
        self.encoder = encoder
        self.info_state = info_state
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not info_state:
            self.tensor = np.zeros(encoder.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CrawlState, player: int) -> None:
        if self.tensor is not None:
            # The lazy view: the same fields as the observation, read only as asked.
            self.encoder.encode(View(state.engine.state, PLAYERS[player]), self.tensor)

    def string_from(self, state: CrawlState, player: int) -> str:
        seen = observation_string(observe(state.engine.state, PLAYERS[player]))
        if self.info_state:
            return f"{state.recall[player]}\n{seen}"
        return seen


pyspiel.register_game(GAME_TYPE, CrawlGame)
