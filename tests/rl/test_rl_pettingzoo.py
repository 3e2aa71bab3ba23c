"""The PettingZoo adapter: PettingZoo's API and seed tests, and the same game as the
native engine (docs/rl.md)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test
from rl_kit import ADVENTURES, native_log, new_log

from undercroft.crawl.actions import Action, Roll
from undercroft.rl.pettingzoo_env import CrawlAEC


def test_pettingzoo_api_test_passes() -> None:
    api_test(CrawlAEC("bone-priest", max_turns=8), num_cycles=400)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: CrawlAEC("ash-king", max_turns=8), num_cycles=300)


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_random_agents_play_the_game_the_engine_plays(adventure: str) -> None:
    seed, turns = 4, 12
    log = new_log(adventure, seed, turns)
    env = CrawlAEC(adventure, max_turns=turns, sink=log)
    env.reset(seed=seed)
    assert env.state is not None
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert agent == env.state.current_player().value  # type: ignore[union-attr]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    log.close(env.state.summary())
    # The native engine fed every action the adapter applied, the rolls included.
    played: list[Action] = list(env.state.history)
    assert any(isinstance(a, Roll) for a in played) and len(played) > 40
    assert log.text() == native_log(adventure, seed, turns, played).text()
