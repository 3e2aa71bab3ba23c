"""Conformance over random legal play: thousands of seeded games on test content.

Invariants (STYLE.md, "one conformance suite"): a terminal state has no legal actions;
a clone equals the original; save/load round-trips; the same seed gives the same log;
Health never goes below 0; no two bodies share a square; every chance node's
probabilities sum to 1.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from crawl_kit import board, ruleset

from undercroft.core.dice import ChanceOutcome, DiceSampler
from undercroft.core.events import EventLog, Header
from undercroft.core.grid import AreaInfo
from undercroft.crawl import State, new_game
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Action, Roll, from_json, to_json
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.ruleset import Options, RoomText

TINY = board(
    """
    #########
    #ab.#.o.#
    #cd.+...#
    #e..#.p.#
    ##'######
    #..f....#
    #########
    """,
    """
    #########
    #AAA#BBB#
    #AAA.BBB#
    #AAA#BBB#
    ##.######
    #cccccccc#
    #########
    """.replace("#cccccccc#", "#ccccccc#"),
    {"A": AreaInfo("Hall"), "B": AreaInfo("Vault"), "c": AreaInfo("Passage", "corridor")},
)

RULES = ruleset(
    TINY,
    starts=("a", "b", "c", "d"),
    exits=("a",),
    placements=[("orc", "o"), ("gazer", "p")],
    traps={"f": "pit", "e": "darts"},
    patrol=("rat",),
    room_texts=[
        RoomText("Hall", "A chest.", (fx.GiveItem(item="tonic"), fx.GiveItem(item="bolt-scroll"))),
        RoomText(
            "Vault",
            "A lever.",
            (
                fx.TraitTest(
                    trait="Strong",
                    on_pass=(fx.GiveItem(item="gem"),),
                    on_fail=(fx.Damage(amount=1, who="self"),),
                ),
                fx.Spawn(monsters=("lurker",), at=((6, 2),)),
            ),
        ),
    ],
    options=Options(max_turns=12),
)
PARTY = ["ana", "bram", "cora", "dell"]


def choose(sampler: DiceSampler, state: State) -> Action:
    if state.current_player() is Seat.CHANCE:
        node = [ChanceOutcome(a.natural, p) for a, p in state.chance_outcomes()]
        return Roll(sampler.sample(node).natural)
    return sampler.choose(state.legal_actions())


def check_invariants(state: State) -> None:
    bodies = [h.pos for h in state.heroes.values() if h.on_board]
    bodies += [m.pos for m in state.monsters.values()]
    bodies += list(state.corpses)
    assert len(bodies) == len(set(bodies)), "two bodies on one square"
    assert all(h.health >= 0 for h in state.heroes.values())
    assert all(m.health > 0 for m in state.monsters.values())
    if state.current_player() is Seat.CHANCE:
        assert sum(p for _, p in state.chance_outcomes()) == Fraction(1)
    if state.is_terminal():
        assert state.legal_actions() == []
    else:
        assert state.legal_actions(), "a live state with no legal action"


def play(seed: int, *, deep_every: int = 0) -> tuple[State, str]:
    log = EventLog(Header("crawl", "test", seed, "tiny"))
    state = new_game(RULES, PARTY, sink=log)
    sampler = DiceSampler(seed)
    steps = 0
    while not state.is_terminal():
        check_invariants(state)
        if deep_every and steps % deep_every == 0:
            copy = state.clone()
            assert copy == state
            assert State.from_json(RULES, json.loads(json.dumps(state.to_json()))) == state
        action = choose(sampler, state)
        state.apply(action)
        steps += 1
        assert steps < 20_000
    check_invariants(state)
    log.close(state.summary())
    return state, log.text()


@pytest.mark.rule("C-END-01", "C-FIGHT-06")
def test_thousands_of_random_games_keep_the_invariants() -> None:
    outcomes: dict[str, int] = {}
    for seed in range(1000):
        state, _ = play(seed, deep_every=97 if seed % 50 == 0 else 0)
        outcomes[str(state.outcome)] = outcomes.get(str(state.outcome), 0) + 1
    # Random play reaches every kind of ending on this board.
    assert set(outcomes) >= {"escaped", "turn_cap"}, outcomes


def test_same_seed_same_log() -> None:
    for seed in (3, 17, 99):
        assert play(seed)[1] == play(seed)[1]
    assert play(3)[1] != play(4)[1]


def test_a_game_replays_from_its_action_list() -> None:
    state, text = play(21)
    log = EventLog(Header("crawl", "test", 21, "tiny"))
    replay = new_game(RULES, PARTY, sink=log)
    for action in [from_json(json.loads(json.dumps(to_json(a)))) for a in state.history]:
        replay.apply(action)
    log.close(replay.summary())
    assert replay == state
    assert log.text() == text


def test_save_and_load_mid_game_continues_identically(tmp_path: Path) -> None:
    state, _ = play(5)
    history = state.history
    half = new_game(RULES, PARTY)
    for action in history[: len(history) // 2]:
        half.apply(action)
    path = tmp_path / "save.json"
    half.save(path)
    loaded = State.load(RULES, path)
    assert loaded == half
    for action in history[len(history) // 2 :]:
        loaded.apply(action)
    assert loaded == state


def test_observations_serialise() -> None:
    state = new_game(RULES, PARTY)
    for seat in (Seat.HEROES, Seat.DM):
        json.dumps(observe(state, seat).to_json())


def test_a_fresh_clone_equals_its_original_at_every_decision() -> None:
    # Effects waiting on the stack are tuples until a save is loaded and lists after:
    # equality compares what a save holds, so a clone equals its original.
    from undercroft.crawl.content import default_pack
    from undercroft.crawl.runner import play as play_adventure

    pack = default_pack()
    ruleset = pack.ruleset("greyhollow-cellars")
    party = list(pack.heroes)[:4]
    history = play_adventure(ruleset, party, seed=3, log=False).state.history
    state = new_game(ruleset, party)
    for action in history:
        assert state.clone() == state
        state.apply(action)
    assert state.clone() == state


def test_every_square_field_of_an_action_is_decoded_as_a_square() -> None:
    # from_json finds squares by field name (compiled code keeps no field types).
    import dataclasses

    from undercroft.crawl.actions import ACTION_TYPES, PATH_FIELDS, SQUARE_FIELDS

    for name, cls in ACTION_TYPES.items():
        for f in dataclasses.fields(cls):
            typed = str(f.type)
            if typed in ("Pos", "tuple[Pos, ...]"):  # postponed annotations (pure Python)
                assert f.name in (SQUARE_FIELDS if typed == "Pos" else PATH_FIELDS), name
            elif "Pos" not in typed and "class" not in typed:
                assert f.name not in SQUARE_FIELDS | PATH_FIELDS, (name, f.name)
