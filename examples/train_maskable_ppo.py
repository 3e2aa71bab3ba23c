"""Train a learner on the crawl's heroes' seat for a few minutes and print its learning
curve against a random party and the careful party, on the same evaluation seeds.

The learner is sb3-contrib's ``MaskablePPO`` on the Gymnasium env ``undercroft/Crawl-v0``
(docs/rl.md): the heroes against the ``master`` Dungeon Master, one decision a step, the
action mask from ``env.action_masks()``, the reward paid at the end (0.5 for the
adventure won, 0.25 for the share of goals met, 0.25 for the share of heroes alive).
CPU only; not part of ``make test``. Install the extra and the learner first::

    pip install 'undercroft[rl]' sb3-contrib    # sb3-contrib pulls PyTorch (CPU is enough)
    python examples/train_maskable_ppo.py --adventure greyhollow-cellars --minutes 5

Every ``--every`` training steps it plays the evaluation seeds greedily and prints a row:
minutes, training steps, episodes, won, mean reward. The last two rows are a random
party (a uniformly random legal action) and ``careful``, on the same seeds, so a curve
reads against both ends. A few minutes is far too short to learn this game (an episode
is several hundred decisions and the reward comes at the end): the point is a working
loop to start from, with the baselines beside it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

import undercroft.rl  # noqa: F401  (registers undercroft/Crawl-v0)
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play
from undercroft.rl.match import heroes_score

try:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
except ImportError:  # pragma: no cover - an example's friendly message
    sys.exit("this example needs sb3-contrib: pip install sb3-contrib (it pulls PyTorch)")


class Episodes(BaseCallback):  # type: ignore[misc]
    """Counts the training episodes finished."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _on_step(self) -> bool:
        self.count += int(np.sum(self.locals["dones"]))
        return True


Chooser = Callable[[dict[str, Any], Any], int]


def episode(env: gymnasium.Env[Any, Any], seed: int, choose: Chooser) -> tuple[bool, float]:
    """(won, reward) of one episode on ``seed``, each action from ``choose``."""
    obs, _ = env.reset(seed=seed)
    done, reward = False, 0.0
    while not done:
        obs, reward_f, terminated, truncated, _ = env.step(choose(obs, env))
        reward = float(reward_f)
        done = terminated or truncated
    state = env.unwrapped.state  # type: ignore[attr-defined]
    return bool(state.summary()["won"]), reward


def evaluate(
    env: gymnasium.Env[Any, Any], seeds: Sequence[int], choose: Chooser
) -> tuple[float, float]:
    results = [episode(env, s, choose) for s in seeds]
    return sum(w for w, _ in results) / len(results), sum(r for _, r in results) / len(results)


def careful_baseline(adventure: str, seeds: Sequence[int]) -> tuple[float, float]:
    """The careful party against master on the same seeds (the env's episode on a seed is
    the game ``undercroft run crawl --seed`` plays), scored as the env scores."""
    ruleset = default_pack().ruleset(adventure)
    party = list(default_pack().heroes)[:4]
    games = [
        play(ruleset, party, seed=s, heroes="careful", dm="master", log=False).state for s in seeds
    ]
    return (
        sum(bool(g.summary()["won"]) for g in games) / len(games),
        sum(heroes_score(g) for g in games) / len(games),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--adventure", default="greyhollow-cellars")
    parser.add_argument("--minutes", type=float, default=5.0, help="training time")
    parser.add_argument("--every", type=int, default=4096, help="training steps between rows")
    parser.add_argument("--eval-seeds", type=int, default=10, help="evaluation games a row")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = gymnasium.make("undercroft/Crawl-v0", adventure=args.adventure)
    probe = gymnasium.make("undercroft/Crawl-v0", adventure=args.adventure)
    seeds = [10_000 + i for i in range(args.eval_seeds)]  # never a training episode's seed
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=1024,
        batch_size=256,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )

    def greedy(obs: dict[str, Any], e: Any) -> int:
        action, _ = model.predict(obs, action_masks=e.unwrapped.action_masks(), deterministic=True)
        return int(action)

    print(f"# MaskablePPO on {args.adventure}, heroes against master, {args.minutes} minutes")
    print("| minutes | training steps | episodes | won | mean reward |")
    print("|---:|---:|---:|---:|---:|")
    started = time.perf_counter()
    counter = Episodes()
    while time.perf_counter() - started < args.minutes * 60:
        model.learn(total_timesteps=args.every, reset_num_timesteps=False, callback=counter)
        won, reward = evaluate(probe, seeds, greedy)
        episodes = counter.count
        minutes = (time.perf_counter() - started) / 60
        print(
            f"| {minutes:.1f} | {model.num_timesteps} | {episodes} | {won:.0%} | {reward:.3f} |",
            flush=True,
        )
    rng = np.random.default_rng(args.seed)

    def random_choice(obs: dict[str, Any], e: Any) -> int:
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    won, reward = evaluate(probe, seeds, random_choice)
    print(f"| random party | | | {won:.0%} | {reward:.3f} |")
    won, reward = careful_baseline(args.adventure, seeds)
    print(f"| careful party | | | {won:.0%} | {reward:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
