"""The fast encoding the adapters use equals the straightforward one (every plane worked
out afresh: tests/rl/reference_encoding.py), byte for byte, for both seats at every
position of random games on the shipped adventures, from the lazy view and from the
observation (docs/rl.md, "Encodings")."""

from __future__ import annotations

from collections import Counter

import numpy as np
from reference_encoding import reference_encode
from rl_kit import ADVENTURES

from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Roll
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View, observe
from undercroft.crawl.runner import seat_policies
from undercroft.rl.encoding import BASES_KEPT, Encoder
from undercroft.rl.match import new_game, party_of, ruleset_of

MAX_TURNS = 40


def compare_game(
    adventure: str, seed: int, party: tuple[str, ...], dm: str = "random"
) -> Counter[str]:
    rules = ruleset_of(adventure, MAX_TURNS)
    state = new_game(rules, party)
    encoder = Encoder(rules, len(party))
    dice = DiceSampler(seed)
    policies = seat_policies(seed, heroes="careful", dm=dm)
    seen: Counter[str] = Counter()
    while True:
        for seat in (Seat.HEROES, Seat.DM):
            fast = encoder.encode(View(state, seat))
            assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
            snapshot = observe(state, seat)
            want = reference_encode(encoder, snapshot).tobytes()
            assert fast.tobytes() == want, f"{adventure} seed {seed} turn {state.turn} {seat}"
            assert encoder.encode(snapshot).tobytes() == want
            seen["positions"] += 1
            seen["monsters"] += bool(snapshot.monsters)
            seen["corpses"] += bool(snapshot.corpses)
            seen["spent_traps"] += any(not t["armed"] for t in snapshot.traps)
        if state.is_terminal():
            break
        to_act = state.current_player()
        if to_act is Seat.CHANCE:
            assert state.pending is not None
            state.apply(Roll(dice.roll(state.pending.args["dice"])))
        else:
            assert to_act is not None
            state.apply(policies[to_act].act(observe(state, to_act)))
    seen["outcome_" + str(state.outcome)] += 1
    return seen


def test_the_fast_encoding_is_the_straightforward_one() -> None:
    seen: Counter[str] = Counter()
    for adventure in ADVENTURES:
        for seed in range(2):
            seen += compare_game(adventure, seed, party_of(None))
    # Heroes seldom die against the random DM: a game against `master` where corpses
    # lie on the board for a while (a friend drags one along), for corpses.
    seen += compare_game("greyhollow-cellars", 2, party_of(None), dm="master[harry=0]")
    # A party of two: fewer hero slots than the pack's four.
    seen += compare_game("bone-priest", 5, party_of(None)[:2])
    assert seen["positions"] >= 5000 and seen["monsters"] >= 2000, seen
    assert seen["corpses"] >= 100 and seen["spent_traps"] >= 1000, seen


def test_an_encoded_vector_is_the_callers_own() -> None:
    rules = ruleset_of("greyhollow-cellars", MAX_TURNS)
    state = new_game(rules, party_of(None))
    encoder = Encoder(rules, 4)
    first = encoder.encode(View(state, Seat.HEROES))
    kept = first.copy()
    first[:] = 0.5  # a caller writing into its vector changes no later one
    assert encoder.encode(View(state, Seat.HEROES)).tobytes() == kept.tobytes()
    # Written into a caller's buffer (OpenSpiel's observer tensor): the same values.
    buffer = np.full(encoder.size, 0.5, np.float32)
    assert encoder.encode(View(state, Seat.HEROES), buffer) is buffer
    assert buffer.tobytes() == kept.tobytes()
    assert 1 <= len(encoder._bases) <= BASES_KEPT
