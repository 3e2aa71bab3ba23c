"""The Gymnasium adapter: Gymnasium's own checker, registration, and the same game as
the native engine (docs/rl.md)."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from rl_kit import ADVENTURES, native_log, new_log  # noqa: E402

from undercroft.core.dice import DiceSampler  # noqa: E402
from undercroft.crawl.actions import Action  # noqa: E402
from undercroft.crawl.engine import Seat  # noqa: E402
from undercroft.crawl.runner import seat_policies  # noqa: E402
from undercroft.rl import GYM_ID  # noqa: E402
from undercroft.rl.gym_env import CrawlEnv  # noqa: E402


@pytest.mark.parametrize("seat", ["heroes", "dm"])
def test_gymnasium_checker_passes(seat: str) -> None:
    env = gym.make(GYM_ID, adventure="bone-priest", seat=seat, max_turns=6)
    check_env(env.unwrapped)
    assert isinstance(env.unwrapped, CrawlEnv)
    assert env.unwrapped.opponent == ("master" if seat == "heroes" else "careful")


def test_an_illegal_index_changes_nothing() -> None:
    env = CrawlEnv("ash-king", max_turns=4)
    obs, _ = env.reset(seed=5)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal"] and reward == 0.0 and not (terminated or truncated)
    assert np.array_equal(again["observation"], obs["observation"])


@pytest.mark.parametrize(
    ("adventure", "seat"), [(a, s) for a in ADVENTURES for s in ("heroes", "dm")]
)
def test_a_random_learner_plays_the_game_the_engine_plays(adventure: str, seat: str) -> None:
    seed, turns = 11, 20
    log = new_log(adventure, seed, turns)
    env = CrawlEnv(adventure, seat=seat, max_turns=turns, sink=log)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen: list[Action] = []
    done = False
    while not done:
        index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        chosen.append(env.legal_actions()[index])
        obs, _reward, terminated, truncated, _ = env.step(index)
        done = terminated or truncated
    assert env.state is not None
    log.close(env.state.summary())
    other = Seat.DM if seat == "heroes" else Seat.HEROES
    policies = seat_policies(seed, heroes="careful", dm="master")
    native = native_log(adventure, seed, turns, chosen, {other: policies[other]}, DiceSampler(seed))
    assert log.text() == native.text()
    assert len(chosen) > 15
