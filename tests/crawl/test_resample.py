"""The heroes' determinization (:mod:`undercroft.crawl.resample`) over positions taken
from random games on the shipped adventures: the party holds face-down items of every
deck (as in the face-down items property test), a random DM walks monsters out of
sight, and traps and guards wait unmet on all three adventures, so every kind of
redrawn fact comes up often.

* the heroes' observation of a resampled game equals the original's;
* the draw is the seed's: the same seed gives the same game, other seeds other hidden
  facts;
* the draw does not depend on the hidden facts it replaces: swapping them in the original
  (another card for a face-down item, another unseen square for a monster out of sight,
  another unwalked square for an undetected trap, another unrevealed room for a guard)
  gives the same resampled game: it is a function of the heroes' view;
* a resampled game plays on legally to its end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.figures import Trap
from undercroft.crawl.known import monsters_in_sight
from undercroft.crawl.observe import View, observe
from undercroft.crawl.resample import (
    ItemDraw,
    determinize,
    resample,
    trap_floor,
    walkable_region,
    walked_squares,
    with_placements,
)
from undercroft.crawl.ruleset import ItemKind, Options, Placement
from undercroft.crawl.runner import play_until, seat_policies
from undercroft.crawl.state import State

PACK = default_pack()
PARTY = ["brenna", "garrick", "sable", "mirela"]
DECKS = {
    kind: sorted(c.id for c in PACK.items.values() if c.kind is kind)
    for kind in (ItemKind.POTION, ItemKind.SCROLL, ItemKind.MAGIC)
}
HANDS = [
    (ItemKind.SCROLL, ItemKind.POTION),
    (ItemKind.SCROLL, ItemKind.MAGIC),
    (ItemKind.SCROLL, ItemKind.POTION),
    (ItemKind.MAGIC, ItemKind.POTION),
]
SEEDS = range(6)
EVERY = 15
"""Take every 15th heroes' decision of a game as a position (and more, below)."""


def new_state(adventure: str, seed: int) -> State:
    """The adventure with each hero holding two face-down items drawn for ``seed``."""
    state = State(PACK.ruleset(adventure, Options(max_turns=40)), PARTY)
    draw = DiceSampler(derive_seed(seed, 7))
    for hero, kinds in zip(state.heroes.values(), HANDS, strict=True):
        for kind in kinds:
            hero.items.append(state.new_item(draw.choose(DECKS[kind])))
    state.start()
    return state


def positions(seed: int) -> Iterator[State]:
    """Heroes' decisions of a game (careful heroes, a random DM), every ``EVERY``th, and
    every one while a monster is out of the heroes' sight."""
    adventures = PACK.campaign_order()
    state = new_state(adventures[seed % len(adventures)], seed)
    dice = DiceSampler(seed)
    policies = seat_policies(seed, heroes="careful", dm="random")
    decisions = 0
    while not state.is_terminal() and decisions < 1500:
        seat = state.current_player()
        action: Action
        if seat is Seat.CHANCE:
            assert state.pending is not None
            action = Roll(dice.roll(state.pending.args["dice"]))
        else:
            assert seat is not None
            if seat is Seat.HEROES and (decisions % EVERY == 0 or out_of_sight(state)):
                yield state
            decisions += 1
            action = policies[seat].act(observe(state, seat))
        state.apply(action)


def out_of_sight(state: State) -> bool:
    return len(monsters_in_sight(state, False)) < len(state.monsters)


Facts = tuple[
    tuple[tuple[str, str], ...],
    tuple[tuple[str, Pos], ...],
    tuple[tuple[Pos, str], ...],
    tuple[tuple[int, str, Pos], ...],
]


def hidden_facts(state: State) -> Facts:
    """What :func:`resample` redraws: face-down cards, unseen monsters' squares, the
    undetected traps (outside secret areas) and the guards not yet met in rooms not
    revealed."""
    seen = {m.id for m in monsters_in_sight(state, False)}
    cards = tuple(sorted((u, i.card) for u, i in state.items.items() if not i.identified))
    squares = tuple(sorted((m.id, m.pos) for m in state.monsters.values() if m.id not in seen))
    return cards, squares, hidden_traps(state), hidden_guards(state)


def hidden_traps(state: State) -> tuple[tuple[Pos, str], ...]:
    secret = state.ruleset.adventure.secret_areas
    return tuple(
        sorted(
            (p, t.kind)
            for p, t in state.traps.items()
            if t.armed and not t.detected and state.area_of(p) not in secret
        )
    )


def waiting_rooms(state: State) -> frozenset[str]:
    return state.ruleset.adventure.rooms_in_play - state.revealed


def unknown(state: State) -> set[Pos]:
    shown = View(state, Seat.HEROES).board_codes()[0]
    width = state.grid.width
    return {
        Pos(x, y)
        for y in range(state.grid.height)
        for x in range(width)
        if shown[y * width + x] == ord("?")
    }


def hidden_guards(state: State) -> tuple[tuple[int, str, Pos], ...]:
    rooms, dark = waiting_rooms(state), unknown(state)
    return tuple(
        (i, p.monster, p.at)
        for i, p in enumerate(state.ruleset.adventure.placements)
        if i not in state.placed and p.at in dark and state.area_of(p.at) in rooms
    )


def same_game(one: State, two: State) -> bool:
    """Equal states (``State.__eq__``) of adventures with equal placements."""
    return one == two and one.ruleset.adventure.placements == two.ruleset.adventure.placements


def swapped(state: State, rng: DiceSampler, how: ItemDraw) -> State:
    """``state`` with its hidden facts changed where the heroes cannot see: face-down
    cards of a deck permuted (``shuffle``) or replaced by any card of the deck
    (``deck``), each monster out of sight moved to another unseen square of its region,
    each undetected trap to another floor square no hero has walked, and each guard not
    yet met to another unknown square of a room not revealed."""
    twin = state.clone()
    seen = {m.id for m in monsters_in_sight(twin, False)}
    held = [
        u
        for h in twin.heroes.values()
        if h.on_board
        for u in h.items
        if not twin.items[u].identified
        and twin.items[u].uses == twin.ruleset.items[twin.items[u].card].uses
    ]
    by_deck: dict[ItemKind, list[str]] = {}
    for uid in held:
        by_deck.setdefault(twin.ruleset.items[twin.items[uid].card].kind, []).append(uid)
    for kind, uids in by_deck.items():
        if how == "shuffle":
            cards = [twin.items[u].card for u in uids]
            cards = cards[1:] + cards[:1]
        else:
            cards = [rng.choose(DECKS[kind]) for _ in uids]
        for uid, card in zip(uids, cards, strict=True):
            twin.items[uid].card = card
            twin.items[uid].uses = twin.ruleset.items[card].uses
    dark = unknown(twin)
    taken = twin.occupied() | set(twin.traps)
    placements = list(twin.ruleset.adventure.placements)
    taken |= {p.at for i, p in enumerate(placements) if i not in twin.placed}
    for monster in twin.monsters.values():
        if monster.id in seen:
            continue
        region = walkable_region(twin.walk_rows(), monster.pos)
        free = [p for p in region if p in dark and p not in taken]
        if free:
            monster.pos = rng.choose(free)
            taken.add(monster.pos)
    rows = twin.walk_rows()
    rooms = sorted(waiting_rooms(twin))
    for index, _, at in hidden_guards(twin):
        here = twin.area_of(at)
        # Into another room not revealed where there is one (else elsewhere in its own).
        free = [
            p
            for name in rooms
            if name != here or len(rooms) == 1
            for p in twin.grid.squares_of(name)
            if rows[p.y][p.x] and p in dark and p not in taken
        ]
        if free:
            moved = rng.choose(free)
            placements[index] = Placement(placements[index].monster, moved)
            taken.add(moved)
    twin.ruleset = replace(
        twin.ruleset, adventure=with_placements(twin.ruleset.adventure, tuple(placements))
    )
    walked = walked_squares(twin)
    for at, trap in hidden_traps(twin):
        free = [p for p in trap_floor(twin) if p not in taken and p not in walked]
        if free:
            moved = rng.choose(free)
            del twin.traps[at]
            twin.traps[moved] = Trap(trap)
            taken.add(moved)
    for hero in twin.heroes.values():
        if hero.casting is not None and hero.casting.get("blind"):
            spell = twin.ruleset.items[twin.items[hero.casting["source"]].card].spell
            if spell is not None:
                hero.casting["spell"] = spell
    return twin


@pytest.mark.rule(
    "C-IDENT-01", "R-C-IDENT-01", "R-C-MON-06", "C-TRAP-01", "C-TRAP-06", "C-MON-02", "C-TURN-04"
)
def test_a_resampled_game_looks_the_same_to_the_heroes_and_its_hidden_facts_vary() -> None:
    counts: Counter[str] = Counter()
    for seed in SEEDS:
        for state in positions(seed):
            seen = observe(state, Seat.HEROES)
            facts = hidden_facts(state)
            walked = walked_squares(state)
            draws = set()
            for n in range(4):
                again = resample(state, Seat.HEROES, derive_seed(seed, 100 + n))
                assert observe(again, Seat.HEROES) == seen, (
                    f"seed {seed}, turn {state.turn}, {state.step}: the heroes see a "
                    "difference in a resampled game"
                )
                assert again.revealed == state.revealed and again.placed == state.placed
                assert again.ruleset.adventure.room_texts == state.ruleset.adventure.room_texts
                # As many undetected traps of the same kinds, none where a hero walked
                # (C-TRAP-06), on a figure, or on a known trap's square.
                traps = hidden_traps(again)
                assert sorted(k for _, k in traps) == sorted(k for _, k in facts[2])
                assert not {p for p, _ in traps} & (walked | again.occupied())
                known = {p: t for p, t in state.traps.items() if t.detected or not t.armed}
                assert {p: t for p, t in again.traps.items() if t.detected or not t.armed} == known
                # The same guards still to meet, each in a room not revealed, unseen.
                guards = hidden_guards(again)
                assert sorted(k for _, k, _ in guards) == sorted(k for _, k, _ in facts[3])
                assert [i for i, _, _ in guards] == [i for i, _, _ in facts[3]]
                draws.add(repr(hidden_facts(again)))
                counts["traps moved"] += traps != facts[2]
                counts["guards moved"] += guards != facts[3]
            counts["positions"] += 1
            counts["varied"] += len(draws) > 1
            counts["unseen monsters"] += bool(facts[1])
            counts["moved"] += bool(facts[1]) and any(repr(facts[1]) not in d for d in draws)
            counts["with traps"] += bool(facts[2])
            counts["with guards"] += bool(facts[3])
    # The positions had the hidden facts that matter, and the seeds drew them apart.
    assert counts["positions"] >= 100, counts
    assert counts["varied"] >= 0.8 * counts["positions"], counts
    assert counts["unseen monsters"] >= 10 and counts["moved"] >= 10, counts
    assert counts["with traps"] >= 50 and counts["traps moved"] >= 3 * counts["with traps"], counts
    assert counts["with guards"] >= 30, counts
    assert counts["guards moved"] >= 3 * counts["with guards"], counts


@pytest.mark.rule("C-IDENT-01", "R-C-MON-06", "C-TRAP-01", "C-MON-02")
@pytest.mark.parametrize("how", ["shuffle", "deck"])
def test_the_draw_depends_on_the_seed_and_not_on_the_facts_it_replaces(how: ItemDraw) -> None:
    # The no-leak property: the resampled game is a function of the heroes' view (and
    # their moves), so changing what they cannot see leaves it as it was, seed for seed.
    checked: Counter[str] = Counter()
    for seed in SEEDS:
        swap = DiceSampler(derive_seed(seed, 9))
        for state in positions(seed):
            one = resample(state, Seat.HEROES, 5, items=how)
            assert same_game(one, resample(state, Seat.HEROES, 5, items=how))  # the seed's
            twin = swapped(state, swap, how)
            assert observe(twin, Seat.HEROES) == observe(state, Seat.HEROES)
            assert same_game(resample(twin, Seat.HEROES, 5, items=how), one), (
                f"seed {seed}, turn {state.turn}: a hidden fact leaks into the draw"
            )
            before, after = hidden_facts(state), hidden_facts(twin)
            checked["items"] += before[0] != after[0]
            checked["monsters"] += before[1] != after[1]
            checked["traps"] += before[2] != after[2]
            checked["guards"] += before[3] != after[3]
    assert checked["items"] >= 30 and checked["monsters"] >= 5, checked
    assert checked["traps"] >= 50 and checked["guards"] >= 30, checked


@pytest.mark.rule("C-TRAP-01", "C-MON-02")
def test_the_content_layout_keeps_the_traps_and_guards_where_the_adventure_put_them() -> None:
    for seed in SEEDS[:3]:
        for state in positions(seed):
            again = resample(state, Seat.HEROES, seed, layout="content")
            assert observe(again, Seat.HEROES) == observe(state, Seat.HEROES)
            assert again.to_json()["traps"] == state.to_json()["traps"]
            assert again.ruleset is state.ruleset


def test_the_dm_sees_everything_so_its_resample_is_a_copy() -> None:
    state = next(positions(1))
    assert same_game(resample(state, Seat.DM, 3), state)
    assert same_game(determinize(View(state, Seat.DM), 3), state)
    assert same_game(determinize(View(state, Seat.HEROES), 3), resample(state, Seat.HEROES, 3))


@pytest.mark.rule("C-IDENT-02", "C-END-01")
def test_a_resampled_game_plays_on_legally_to_its_end() -> None:
    ended = 0
    for seed in SEEDS[:4]:
        for n, state in enumerate(positions(seed)):
            if n % 3:
                continue
            again = resample(state, Seat.HEROES, derive_seed(seed, n))
            policies = seat_policies(seed + n, heroes="careful", dm="master")
            play_until(again, DiceSampler(seed + n), policies, max_decisions=5000)
            assert again.is_terminal()
            ended += 1
    assert ended >= 15
