"""Engine actions per second through each RL adapter against the native engine.

For every shipped adventure this plays ``--games`` seeds with uniformly random players
(random over the legal actions, or over the action mask; Python's ``random.Random``
picks, whose cost is a fraction of a microsecond, so the figures are the adapters' and
not the player's), in one process:

* gymnasium: ``CrawlEnv.step`` for the heroes, the built-in ``random`` DM inside;
* pettingzoo: ``CrawlAEC.last`` and ``step`` for both agents;
* openspiel: ``legal_actions``, the observation tensor of the player to act (through
  ``make_observation``) and ``apply_action`` (chance sampled from ``chance_outcomes``);
* openspiel-bare: the same without the observation tensor;
* native: the engine alone playing *the same games* as each adapter: a started
  ``State``, then for each action the adapter's game applied, ``State.legal_actions``
  (as a native player reads them to choose) and ``State.apply``. The ratio native /
  adapter is taken over the same actions, so it measures the cost of the adapter's
  step and not how long or costly the random games happened to be (games of different
  seeds differ a lot: a Monsters' Movement with 300 legal walks costs far more than a
  roll);
* native-random: the engine playing its own random games (the runner's dice, a
  ``DiceSampler`` picking), for reference.

A step of an adapter is one engine action (a decision or a roll), so the figures compare
the cost of a step: actions per second, and the ratio of the native rate on the same
games to each adapter's (the issue's goal: at most 2). Each figure is the median of
``--rounds``; the ways take turns within a round.

    .venv/bin/python benchmarks/bench_rl.py [--games 4] [--rounds 3] [--max-turns 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.engine import Seat
from undercroft.rl.gym_env import CrawlEnv
from undercroft.rl.match import new_game, party_of, roll_chance, ruleset_of
from undercroft.rl.openspiel import GAME_NAME
from undercroft.rl.pettingzoo_env import CrawlAEC

ADVENTURES = ("greyhollow-cellars", "bone-priest", "ash-king")

Way = Callable[[str, int, int], list[Action]]
"""Plays one game (adventure, seed, turn cap); gives the engine actions applied."""


def native_random(adventure: str, seed: int, turns: int) -> list[Action]:
    state = new_game(ruleset_of(adventure, turns), party_of(None))
    dice, pick = DiceSampler(seed), DiceSampler(seed + 1)
    rolls: dict[tuple[int, ...], Roll] = {}
    while not state.is_terminal():
        if state.current_player() is Seat.CHANCE:
            roll_chance(state, dice, rolls)
        else:
            state.apply(pick.choose(state.legal_actions()))
    return state.history


def native_replay(adventure: str, turns: int, actions: Sequence[Action]) -> None:
    """The engine alone playing the game of ``actions``: the legal actions read at each
    decision, as a native player must, and every action applied."""
    state = new_game(ruleset_of(adventure, turns), party_of(None))
    for action in actions:
        if state.current_player() is not Seat.CHANCE:
            state.legal_actions()
        state.apply(action)
    assert state.is_terminal()


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random index the mask allows."""
    allowed = np.flatnonzero(mask)
    return int(allowed[rng.randrange(len(allowed))])


def gymnasium(adventure: str, seed: int, turns: int) -> list[Action]:
    env = CrawlEnv(adventure, opponent="random", max_turns=turns)
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(pick(obs["action_mask"], rng))
        done = terminated or truncated
    assert env.state is not None
    return env.state.history


def pettingzoo(adventure: str, seed: int, turns: int) -> list[Action]:
    env = CrawlAEC(adventure, max_turns=turns)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else pick(obs["action_mask"], rng))
    assert env.state is not None
    return env.state.history


def openspiel(adventure: str, seed: int, turns: int, observe: bool = True) -> list[Action]:
    game = pyspiel.load_game(GAME_NAME, {"adventure": adventure, "max_turns": turns})
    state = game.new_initial_state()
    # The observer OpenSpiel's Python algorithms read tensors with: ``state.
    # observation_tensor`` would also make a new initial state each call (PyGame works
    # out the tensor's shape from one), a cost of OpenSpiel's, not the adapter's.
    observer = make_observation(game)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if observe:
            observer.set_from(state, state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    history: list[Action] = state.game_state.history
    return history


def openspiel_bare(adventure: str, seed: int, turns: int) -> list[Action]:
    return openspiel(adventure, seed, turns, observe=False)


ADAPTERS: dict[str, Way] = {
    "gymnasium": gymnasium,
    "pettingzoo": pettingzoo,
    "openspiel": openspiel,
    "openspiel-bare": openspiel_bare,
}


def measure(adventure: str, games: int, turns: int) -> dict[str, tuple[float, float]]:
    """One round: per way, (its actions per second, the native engine's on the same
    games); for ``native-random`` the two are the same."""
    found: dict[str, tuple[float, float]] = {}
    for name, way in ADAPTERS.items():
        start = time.process_time()
        played = [way(adventure, seed, turns) for seed in range(games)]
        spent = time.process_time() - start
        start = time.process_time()
        for actions in played:
            native_replay(adventure, turns, actions)
        native = time.process_time() - start
        count = sum(len(a) for a in played)
        found[name] = (count / spent, count / native)
    start = time.process_time()
    count = sum(len(native_random(adventure, seed, turns)) for seed in range(games))
    rate = count / (time.process_time() - start)
    found["native-random"] = (rate, rate)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=30)
    args = parser.parse_args()
    print(f"{'adventure':<20}{'way':<16}{'actions/s':>12}{'native/s':>12}{'native/way':>12}")
    for adventure in ADVENTURES:
        measure(adventure, 1, 3)  # warm up: content loaded, caches filled
        rounds = [measure(adventure, args.games, args.max_turns) for _ in range(args.rounds)]
        for name in rounds[0]:
            way = statistics.median(r[name][0] for r in rounds)
            native = statistics.median(r[name][1] for r in rounds)
            print(f"{adventure:<20}{name:<16}{way:>12.0f}{native:>12.0f}{native / way:>12.2f}")


if __name__ == "__main__":
    main()
