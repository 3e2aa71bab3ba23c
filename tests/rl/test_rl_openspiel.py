"""The OpenSpiel adapter: OpenSpiel's random simulation test with serialization on every
shipped adventure, its Python-game checks (pickling, serialization, clones, observers),
exact chance probabilities, and the same game as the native engine (docs/rl.md)."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import random
from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402
from rl_kit import ADVENTURES, native_log, new_log  # noqa: E402

from undercroft.crawl.actions import Action, to_json  # noqa: E402
from undercroft.crawl.observe import observe  # noqa: E402
from undercroft.rl.match import new_game, party_of, ruleset_of  # noqa: E402
from undercroft.rl.openspiel import GAME_NAME, CrawlState, Engine  # noqa: E402


def load(adventure: str, max_turns: int = 3) -> object:
    return pyspiel.load_game(GAME_NAME, {"adventure": adventure, "max_turns": max_turns})


def played(game: object, seed: int, moves: int) -> CrawlState:
    state: CrawlState = game.new_initial_state()  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_random_sim_test_with_serialization_passes(adventure: str) -> None:
    pyspiel.random_sim_test(load(adventure), num_sims=2, serialize=True, verbose=False)


def test_game_and_state_pickle_and_serialize() -> None:
    game = load("bone-priest")
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = played(game, 1, 60)
    new_game_, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(new_game_) == str(game) and str(new_state) == str(state)
    assert new_state.history() == state.history()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    for p in (0, 1):
        assert new_state.information_state_string(p) == state.information_state_string(p)


def test_a_clone_matches_its_original_and_goes_its_own_way() -> None:
    state = played(load("ash-king"), 2, 50)
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    assert clone.game_state == state.game_state and clone.game_state is not state.game_state
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()


def test_the_observer_tensor_is_the_states() -> None:
    game = load("greyhollow-cellars")
    state = played(game, 3, 40)
    obs = make_observation(game)
    for p in (0, 1):
        obs.set_from(state, p)
        assert np.array_equal(obs.tensor, np.asarray(state.observation_tensor(p), np.float32))
        assert obs.string_from(state, p) == state.observation_string(p)
    assert state.observation_string(0) != state.observation_string(1)


def test_chance_outcomes_are_the_engines_exact_probabilities() -> None:
    state = played(load("bone-priest", 40), 4, 0)
    seen = 0
    rng = np.random.default_rng(4)
    while not state.is_terminal() and seen < 30:
        if state.is_chance_node():
            exact = state.exact_chance_outcomes()
            engine = state.game_state.chance_outcomes()
            assert [p for _, p in exact] == [p for _, p in engine]
            assert sum(p for _, p in exact) == Fraction(1)
            assert len(exact) in (6, 36) and {p for _, p in exact} == {Fraction(1, len(exact))}
            assert [p for _, p in state.chance_outcomes()] == [float(p) for _, p in exact]
            seen += 1
            state.apply_action(int(rng.integers(len(exact))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen == 30


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_random_players_play_the_game_the_engine_plays(adventure: str) -> None:
    seed, turns = 6, 12
    game = load(adventure, turns)
    state: CrawlState = game.new_initial_state()  # type: ignore[attr-defined]
    log = new_log(adventure, seed, turns)
    state.engine = Engine(
        new_game(ruleset_of(adventure, turns), party_of(None), log), adventure, turns
    )
    rng = np.random.default_rng(seed)
    fed: list[Action] = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(actions, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
        fed.append(state.engine_action(action))
        state.apply_action(action)
    log.close(state.game_state.summary())
    assert log.text() == native_log(adventure, seed, turns, fed).text()
    assert len(fed) > 40


def chain_of(steps: list[tuple[object, ...]]) -> list[str]:
    """Each player's recall chain worked out step by step, as the adapter first did at
    every decision: its observation's JSON without the legal actions, and its choice."""
    chain = ["", ""]
    for player, seen, chosen in steps:
        assert isinstance(player, int) and isinstance(seen, dict)
        del seen["legal"]
        seen["chosen"] = chosen
        text = chain[player] + json.dumps(seen, sort_keys=True, separators=(",", ":"))
        chain[player] = hashlib.sha256(text.encode()).hexdigest()
    return chain


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_the_information_state_worked_out_late_is_the_one_kept_up(adventure: str) -> None:
    game = load(adventure, 8)
    late: CrawlState = game.new_initial_state()  # type: ignore[attr-defined]
    kept: CrawlState = game.new_initial_state()  # type: ignore[attr-defined]
    kept.information_state_string(0)  # from here on it keeps its chain up, move by move
    rng = np.random.default_rng(7)
    steps: list[tuple[object, ...]] = []
    copies: list[tuple[CrawlState, list[str]]] = []
    while not late.is_terminal():
        if late.is_chance_node():
            actions, probs = zip(*late.chance_outcomes(), strict=True)
            action = int(rng.choice(actions, p=probs))
        else:
            player = late.current_player()
            seat = late.game_state.current_player()
            assert seat is not None
            action = int(rng.choice(late.legal_actions()))
            chosen = to_json(late.engine_action(action))
            steps.append((player, observe(late.game_state, seat).to_json(), chosen))
        late.apply_action(action)
        kept.apply_action(action)
        if len(steps) % 25 == 0 and not late.is_chance_node():
            # Copies taken now and read later: each has the chain of its own game.
            want = chain_of(list(map(copy.deepcopy, steps)))
            copies += [(kept.clone(), want), (pickle.loads(pickle.dumps(late)), want)]
            for p in (0, 1):
                assert kept.information_state_string(p).split("\n")[0] == want[p]
    want = chain_of(steps)
    for p in (0, 1):
        assert late.information_state_string(p) == kept.information_state_string(p)
        assert late.information_state_string(p) == f"{want[p]}\n{late.observation_string(p)}"
    assert len(copies) >= 2
    for state, chain in copies:
        assert [state.information_state_string(p).split("\n")[0] for p in (0, 1)] == chain


@pytest.mark.parametrize("adventure", ADVENTURES)
def test_resample_from_infostate_keeps_the_players_information(adventure: str) -> None:
    game = load(adventure, max_turns=40)
    sampler = random.Random(0).random  # any callable of [0, 1); OpenSpiel's own is unseeded
    drawn = 0
    for seed in range(4):
        state = played(game, seed, 20 + 15 * seed)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        if state.is_terminal():
            continue
        for player in (0, 1):
            twin = state.resample_from_infostate(player, sampler)
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.observation_string(player) == state.observation_string(player)
            if state.current_player() == player:  # another's choices may hang on hidden facts
                assert twin.legal_actions() == state.legal_actions()
            if player == 1:  # the DM sees everything: a copy
                assert str(twin) == str(state)
            else:
                drawn += str(twin) != str(state)
                # Serialized and back, the drawn world (its guards too) is kept.
                back = pickle.loads(pickle.dumps(twin))
                assert str(back) == str(twin)
                assert back.game_state.ruleset.adventure.placements == (
                    twin.game_state.ruleset.adventure.placements
                )
            twin.apply_action(twin.legal_actions()[0])  # and plays on
    assert drawn >= 2  # the heroes' twins differ from the real game in hidden facts


def test_openspiels_ismcts_bot_plays_the_heroes_on_resampled_worlds() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("greyhollow-cellars", max_turns=4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(0)
    )
    state = played(game, 5, 30)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    if state.current_player() != 0:
        pytest.skip("not the heroes' turn at this seed")
    action = bot.step(state)
    assert action in state.legal_actions()
