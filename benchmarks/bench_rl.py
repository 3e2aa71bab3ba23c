"""Engine actions per second through each RL adapter against the native engine.

For every shipped adventure this plays ``--games`` seeds with uniformly random players
(random over the legal actions, or over the action mask), in one process, five ways:

* native: ``State.legal_actions`` and ``State.apply``, the dice rolled as the runner
  rolls them (no observation at all: the floor);
* gymnasium: ``CrawlEnv.step`` for the heroes, the built-in ``random`` DM inside;
* pettingzoo: ``CrawlAEC.last`` and ``step`` for both agents;
* openspiel: ``legal_actions``, the observation tensor of the player to act (through
  ``make_observation``) and
  ``apply_action`` (chance sampled from ``chance_outcomes``);
* openspiel-bare: the same without the observation tensor.

A step of an adapter is one engine action (a decision or a roll), so the figures compare
the cost of a step: actions per second, and the ratio of the native rate to each
adapter's (the issue's goal: at most 2). Each figure is the median of ``--rounds``.

    .venv/bin/python benchmarks/bench_rl.py [--games 4] [--rounds 3] [--max-turns 30]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Roll
from undercroft.crawl.engine import Seat
from undercroft.rl.gym_env import CrawlEnv
from undercroft.rl.match import new_game, party_of, roll_chance, ruleset_of
from undercroft.rl.openspiel import GAME_NAME
from undercroft.rl.pettingzoo_env import CrawlAEC

ADVENTURES = ("greyhollow-cellars", "bone-priest", "ash-king")


def native(adventure: str, seed: int, turns: int) -> int:
    state = new_game(ruleset_of(adventure, turns), party_of(None))
    dice, pick = DiceSampler(seed), DiceSampler(seed + 1)
    rolls: dict[tuple[int, ...], Roll] = {}
    while not state.is_terminal():
        if state.current_player() is Seat.CHANCE:
            roll_chance(state, dice, rolls)
        else:
            state.apply(pick.choose(state.legal_actions()))
    return len(state.history)


def gymnasium(adventure: str, seed: int, turns: int) -> int:
    env = CrawlEnv(adventure, opponent="random", max_turns=turns)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        done = terminated or truncated
    assert env.state is not None
    return len(env.state.history)


def pettingzoo(adventure: str, seed: int, turns: int) -> int:
    env = CrawlAEC(adventure, max_turns=turns)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.state is not None
    return len(env.state.history)


def openspiel(adventure: str, seed: int, turns: int, observe: bool = True) -> int:
    game = pyspiel.load_game(GAME_NAME, {"adventure": adventure, "max_turns": turns})
    state = game.new_initial_state()
    # The observer OpenSpiel's Python algorithms read tensors with: ``state.
    # observation_tensor`` would also make a new initial state each call (PyGame works
    # out the tensor's shape from one), a cost of OpenSpiel's, not the adapter's.
    observer = make_observation(game)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        if observe:
            observer.set_from(state, state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return len(state.game_state.history)


def openspiel_bare(adventure: str, seed: int, turns: int) -> int:
    return openspiel(adventure, seed, turns, observe=False)


WAYS: dict[str, Callable[[str, int, int], int]] = {
    "native": native,
    "gymnasium": gymnasium,
    "pettingzoo": pettingzoo,
    "openspiel": openspiel,
    "openspiel-bare": openspiel_bare,
}


def rate(way: Callable[[str, int, int], int], adventure: str, games: int, turns: int) -> float:
    """Engine actions per second over ``games`` seeds."""
    start = time.process_time()
    actions = sum(way(adventure, seed, turns) for seed in range(games))
    return actions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=30)
    args = parser.parse_args()
    print(f"{'adventure':<20}{'way':<16}{'actions/s':>12}{'native/way':>12}")
    for adventure in ADVENTURES:
        for way in WAYS.values():  # warm up: content loaded, caches filled
            way(adventure, 99, 3)
        rates: dict[str, list[float]] = {name: [] for name in WAYS}
        for _ in range(args.rounds):
            for name, way in WAYS.items():  # the ways take turns: noise bends all alike
                rates[name].append(rate(way, adventure, args.games, args.max_turns))
        base = statistics.median(rates["native"])
        for name in WAYS:
            found = statistics.median(rates[name])
            print(f"{adventure:<20}{name:<16}{found:>12.0f}{base / found:>12.2f}")


if __name__ == "__main__":
    main()
