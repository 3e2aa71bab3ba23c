"""Lazy views and kind-by-kind legal actions give exactly what the full lists and the
observation give (ARCHITECTURE.md "Hidden information"; the built-in policies play from
views, other policies and clients from observations).

Over whole seeded games (random play on the conformance board, the heuristic policies on
a shipped adventure), at every decision: a view's fields equal the observation's; its
typed questions agree with the observation's; the legal actions of one kind and actor
are exactly those of the full list, in its order; every action a built-in policy picks
is in the full list; the party picks the same action from a view as from the
observation of the same moment; and the boards worked out on integers are those numpy
arrays give.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_conformance import PARTY, RULES

from undercroft.agents.basic_dm import DungeonMaster
from undercroft.agents.basic_party import HeroParty
from undercroft.agents.randomly import RandomPolicy
from undercroft.core.dice import ChanceOutcome, DiceSampler, derive_seed
from undercroft.core.grid import Pos
from undercroft.crawl import State, new_game
from undercroft.crawl.actions import Action, Move, Roll, actor_of
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import LEGAL, Seat
from undercroft.crawl.observe import (
    UNKNOWN_BYTE,
    Observation,
    StaleViewError,
    View,
    board_codes,
    known_squares,
    observe,
    revealed_squares,
)
from undercroft.crawl.reveal import news_bits, news_squares
from undercroft.crawl.ruleset import Ruleset

FIELDS = (
    "seat", "turn", "step", "light", "to_act", "decision", "board", "heroes", "monsters",
    "traps", "corpses", "exits", "revealed", "legal", "outcome", "goals", "area_map",
    "corridors",
)  # fmt: skip


def same_answers(view: View, obs: Observation) -> None:
    for name in FIELDS:
        assert getattr(view, name) == getattr(obs, name), name
    assert view.actors() == obs.actors()
    assert view.board_codes() == obs.board_codes()
    # The board read as an integer, and 0xFF in each byte of a square not shown as ``?``.
    codes = obs.board_codes()[0]
    shown = bytes(0 if c == ord("?") else 255 for c in codes)
    read = (int.from_bytes(codes, "little"), int.from_bytes(shown, "little"))
    assert view.board_bits() == obs.board_bits() == read
    assert view.board_size() == obs.board_size() == len(codes)
    # The typed goals say what the observation's goals say.
    goals = view.goals_seen()
    assert goals == obs.goals_seen()
    assert [(g.id, g.kind, g.target, g.met, g.in_hand) for g in goals] == [
        (g["id"], g["kind"], g["target"], g["met"], g["in_hand"]) for g in obs.goals
    ]
    assert view.area_codes() == obs.area_codes()
    assert view.heroes_seen() == obs.heroes_seen()
    assert view.hero_numbers() == obs.hero_numbers()
    assert view.monsters_seen() == obs.monsters_seen()
    assert view.trap_squares() == obs.trap_squares()
    assert view.corpse_squares() == obs.corpse_squares()
    for hero in view.heroes_seen():
        assert view.item_decks(hero.id) == obs.item_decks(hero.id)
    for monster in view.monsters_seen():
        walks = view.walks_of(monster.id)
        assert walks == obs.walks_of(monster.id)
        # Where each walk ends, its Stamina and length, and the walk to each end: the
        # same as the walks themselves say, for the view and the observation alike.
        ends = [(p[-1] if p else monster.pos, stamina, len(p)) for p, stamina in walks]
        assert view.walk_ends(monster.id) == obs.walk_ends(monster.id) == ends
        firsts: dict[Pos, tuple[Pos, ...]] = {}
        for (path, _), (end, _, _) in zip(walks, ends, strict=True):
            firsts.setdefault(end, path)
        for end, path in firsts.items():
            assert view.walk_to(monster.id, end) == obs.walk_to(monster.id, end) == path


def board_as_numpy_draws_it(state: State) -> None:
    """The heroes' board, the squares they know, each hero's field of view and the
    squares that would show something new, worked out on integers (one byte a square),
    equal what numpy arrays give: characters where a revealed area or a hero's sight
    shows the square, ``?`` elsewhere (C-TURN-04)."""
    known = revealed_squares(state).copy()
    for hero in state.active_heroes():
        if hero.pos is not None:
            seen = state.sight.fov(hero.pos)
            assert state.sight.fov_bits(hero.pos) == int.from_bytes(seen.tobytes(), "little")
            known |= seen
    assert np.array_equal(known_squares(state), known)
    chars = state.grid.char_array()
    shown = np.full(chars.shape, UNKNOWN_BYTE, chars.dtype)
    np.copyto(shown, chars, where=known)
    assert board_codes(state, False) == shown.tobytes()
    assert board_codes(state, True) == chars.tobytes()
    news = news_squares(state)
    assert news_bits(state) == (0 if news is None else int.from_bytes(news.tobytes(), "little"))


def lists_agree(state: State) -> None:
    legal = state.legal_actions()
    # A list a task handed over (State.offer) is the one the decision's rule code makes.
    assert state.pending is not None
    assert legal == LEGAL[state.pending.kind](state, state.pending)
    assert state.legal_actors() == list(
        dict.fromkeys(a for a in map(actor_of, legal) if a is not None)
    )
    kinds = {type(a) for a in legal}
    for kind in kinds:
        assert state.legal_actions_of(kind) == [a for a in legal if type(a) is kind]
        for actor in state.legal_actors():
            want = [a for a in legal if type(a) is kind and actor_of(a) == actor]
            assert state.legal_actions_of(kind, actor) == want, (kind, actor)


def play_checked(rules: Ruleset, party: list[str], seed: int, heroes: str) -> int:
    """One game with every check at every decision; the number of decisions."""
    state = new_game(rules, party)
    dice = DiceSampler(seed)
    policies = {
        Seat.HEROES: HeroParty(DiceSampler(derive_seed(seed, 1)))
        if heroes == "heuristic"
        else RandomPolicy(DiceSampler(derive_seed(seed, 1))),
        Seat.DM: DungeonMaster(DiceSampler(derive_seed(seed, 2))),
    }
    twin = HeroParty(DiceSampler(derive_seed(seed, 1)))  # plays from observations
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat is Seat.CHANCE:
            node = [ChanceOutcome(a.natural, p) for a, p in state.chance_outcomes()]
            state.apply(Roll(dice.sample(node).natural))
            continue
        assert seat is not None
        view = View(state, seat)
        other = View(state, Seat.DM if seat is Seat.HEROES else Seat.HEROES)
        same_answers(view, observe(state, seat))
        same_answers(other, observe(state, other.seat))
        lists_agree(state)
        board_as_numpy_draws_it(state)
        action: Action = policies[seat].act(View(state, seat))
        if not isinstance(action, Move):  # a walk is checked square by square by apply
            assert action in state.legal_actions(), action
        if seat is Seat.HEROES and heroes == "heuristic":
            assert twin.act(observe(state, seat)) == action
        state.apply(action)
        decisions += 1
    return decisions


@pytest.mark.parametrize("seed", range(4))
def test_views_and_lists_agree_over_random_play(seed: int) -> None:
    assert play_checked(RULES, PARTY, seed, "random") > 10


@pytest.mark.parametrize("adventure", default_pack().campaign_order())
def test_views_and_lists_agree_over_a_heuristic_game(adventure: str) -> None:
    pack = default_pack()
    assert play_checked(pack.ruleset(adventure), list(pack.heroes)[:4], 7, "heuristic") > 50


def test_a_view_read_after_the_next_action_is_stale() -> None:
    state = new_game(RULES, PARTY)
    view = View(state, Seat.HEROES)
    kept = view.snapshot()
    state.apply(state.legal_actions()[-1])
    with pytest.raises(StaleViewError):
        _ = view.heroes
    assert kept.turn == 1  # a snapshot is the moment it was taken


def test_a_sink_given_to_play_sees_every_event_of_the_log() -> None:
    from undercroft.core.events import Event, Time
    from undercroft.crawl.runner import play

    class Counter:
        enabled = True

        def __init__(self) -> None:
            self.types: list[str] = []

        def emit(self, time: Time, event: Event) -> None:
            self.types.append(event.type)

    pack = default_pack()
    rules, party = pack.ruleset("bone-priest"), list(pack.heroes)[:4]
    counter = Counter()
    counted = play(rules, party, seed=5, sink=counter)
    logged = play(rules, party, seed=5)
    assert counted.log is None and logged.log is not None
    assert counter.types == [e.event.type for e in logged.log.entries]
    assert counted.state == logged.state
