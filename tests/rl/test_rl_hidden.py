"""The hidden-information contract holds for the adapters' outputs too (ARCHITECTURE.md,
"Hidden information"; the native property tests are tests/crawl/test_hidden_*.py).

Random games (careful heroes, a random DM that walks monsters anywhere) on the shipped
adventures, the heroes each holding a face-down scroll. At every decision a twin of the
game has every hidden fact changed: each monster out of the heroes' sight moved to
another square their board does not show (R-C-MON-06), each undetected trap made
another kind (C-TRAP-01) and each face-down item made another card of its deck
(C-IDENT-01). The heroes' seat must get the same from every adapter: the encoding and
action mask (Gymnasium, PettingZoo), the OpenSpiel observation string and tensor. The
DM's encoding must tell some twins apart (the swaps change something).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from rl_kit import ADVENTURES  # noqa: E402

from undercroft.core.dice import DiceSampler, derive_seed  # noqa: E402
from undercroft.core.grid import Pos  # noqa: E402
from undercroft.crawl.actions import Action, Roll  # noqa: E402
from undercroft.crawl.engine import Seat  # noqa: E402
from undercroft.crawl.observe import View, known_squares, observe  # noqa: E402
from undercroft.crawl.runner import seat_policies  # noqa: E402
from undercroft.crawl.state import State  # noqa: E402
from undercroft.rl.gym_env import CrawlEnv  # noqa: E402
from undercroft.rl.match import party_of, ruleset_of  # noqa: E402
from undercroft.rl.openspiel import GAME_NAME, CrawlState, Engine  # noqa: E402
from undercroft.rl.pettingzoo_env import CrawlAEC  # noqa: E402

MAX_TURNS = 30
SEEDS = range(3)  # enough games that a monster stands out of sight at 20 decisions or more


def unseen_squares(state: State) -> list[Pos]:
    """Free squares a monster could stand on that the heroes' board does not show."""
    known = known_squares(state)
    taken = state.occupied() | set(state.traps)
    return [
        Pos(x, y)
        for y, row in enumerate(state.walk_rows())
        for x, walkable in enumerate(row)
        if walkable and not known[y, x] and Pos(x, y) not in taken
    ]


def twin_of(state: State, swap: DiceSampler) -> tuple[State, Counter[str]]:
    """A copy with every fact hidden from the heroes changed; and how many were."""
    twin = state.clone()
    shown = {m["id"] for m in observe(state, Seat.HEROES).monsters}
    squares = unseen_squares(state)
    changed: Counter[str] = Counter()
    for monster in twin.monsters.values():
        if monster.id not in shown and squares:
            monster.pos = squares.pop(swap.die(len(squares)) - 1)
            changed["monsters"] += 1
    kinds = sorted(state.ruleset.traps)
    for trap in twin.traps.values():
        if trap.armed and not trap.detected:
            trap.kind = swap.choose([k for k in kinds if k != trap.kind])
            changed["traps"] += 1
    cards = state.ruleset.items
    for item in twin.items.values():
        if not item.identified:
            deck = cards[item.card].kind
            item.card = swap.choose(
                sorted(c for c, info in cards.items() if info.kind is deck and c != item.card)
            )
            changed["items"] += 1
    return twin, changed


class Adapters:
    """Each adapter's output for a seat, read from an engine state put in its place."""

    def __init__(self, adventure: str) -> None:
        self.gym = CrawlEnv(adventure, max_turns=MAX_TURNS)
        self.aec = CrawlAEC(adventure, max_turns=MAX_TURNS)
        game = pyspiel.load_game(GAME_NAME, {"adventure": adventure, "max_turns": MAX_TURNS})
        self.spiel: CrawlState = game.new_initial_state()
        self.adventure = adventure

    def outputs(self, state: State, seat: Seat) -> list[object]:
        self.gym.state = state
        self.gym.seat = seat
        self.gym._view = View(state, seat)
        self.gym._legal = list(self.gym._view.legal)
        gym = self.gym._observation()
        self.aec.state = state
        self.aec.agent_selection = seat.value
        self.aec._legal = state.legal_actions() if state.current_player() is seat else []
        aec = self.aec.observe(seat.value)
        self.spiel.engine = Engine(state, self.adventure, MAX_TURNS)
        p = 0 if seat is Seat.HEROES else 1
        return [
            gym["observation"].tobytes(),
            gym["action_mask"].tobytes(),
            aec["observation"].tobytes(),
            aec["action_mask"].tobytes(),
            self.spiel.observation_string(p),
            np.asarray(self.spiel.observation_tensor(p), np.float32).tobytes(),
        ]


def play_checked(adventure: str, seed: int) -> Counter[str]:
    rules = ruleset_of(adventure, MAX_TURNS)
    state = State(rules, party_of(None))
    scrolls = sorted(c for c, info in rules.items.items() if info.kind.face_down)
    draw = DiceSampler(derive_seed(seed, 7))
    for hero in state.roster:
        uid = state.new_item(draw.choose(scrolls))
        assert not state.items[uid].identified
        hero.items.append(uid)
    state.start()
    adapters = Adapters(adventure)
    dice, swap = DiceSampler(seed), DiceSampler(derive_seed(seed, 9))
    policies = seat_policies(seed, heroes="careful", dm="random")
    counts: Counter[str] = Counter()
    while not state.is_terminal():
        seat = state.current_player()
        action: Action
        if seat is Seat.CHANCE:
            assert state.pending is not None
            action = Roll(dice.roll(state.pending.args["dice"]))
        else:
            assert seat is not None
            counts["decisions"] += 1
            twin, changed = twin_of(state, swap)
            # Every decision with a monster out of sight (the rarer case), every fourth
            # otherwise (face-down items and undetected traps are there almost always).
            if changed["monsters"] or (changed and counts["decisions"] % 4 == 0):
                counts["twins"] += 1
                counts.update(changed)
                assert adapters.outputs(twin, Seat.HEROES) == adapters.outputs(
                    state, Seat.HEROES
                ), f"{adventure} seed {seed}, turn {state.turn}: the heroes saw a swap"
                if counts["twins"] % 8 == 0 and adapters.outputs(twin, Seat.DM) != adapters.outputs(
                    state, Seat.DM
                ):
                    counts["dm_saw"] += 1
            action = policies[seat].act(observe(state, seat))
        state.apply(action)
    return counts


@pytest.mark.rule("C-IDENT-01", "C-TRAP-01", "R-C-MON-06")
def test_no_adapter_shows_the_heroes_a_hidden_fact() -> None:
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        for adventure in ADVENTURES:
            seen += play_checked(adventure, seed)
    assert seen["twins"] >= 400 and seen["dm_saw"] >= 20, seen
    assert seen["monsters"] >= 20 and min(seen["traps"], seen["items"]) >= 500, seen
