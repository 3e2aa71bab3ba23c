"""The decision's context in a seat's observation (undercroft.crawl.context): which fight a
Stamina decision is for, which contest a Magic decision is, what a caster is in, who
chooses to explore where, and what a text's choice tests; never what the seat may not
know."""

from __future__ import annotations

from typing import Any

import pytest

from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventLog
from undercroft.crawl.actions import Roll
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.runner import seat_policies
from undercroft.crawl.state import State

PACK = default_pack()
CASTERS = ["brenna", "corvin", "ysolde", "mirela"]


def played(adventure: str, party: list[str], seed: int) -> tuple[list[Any], EventLog]:
    """A seeded game of the basic players, with every decision's (seat asked, heroes'
    context, DM's context, index of the next log entry) kept."""
    rules = PACK.ruleset(adventure)
    log = EventLog(State(rules, party).header(seed, adventure))
    state = State(rules, party, sink=log)
    state.start()
    dice = DiceSampler(seed)
    policies = seat_policies(seed, heroes="basic", dm="basic")
    seen: list[Any] = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat is Seat.CHANCE:
            assert state.pending is not None
            state.apply(Roll(dice.roll(state.pending.args["dice"])))
            continue
        assert seat is not None
        heroes, dm = observe(state, Seat.HEROES), observe(state, Seat.DM)
        seen.append((seat, heroes.context, dm.context, len(log.entries)))
        state.apply(policies[seat].act(heroes if seat is Seat.HEROES else dm))
    return seen, log


@pytest.mark.rule("C-FIGHT-04", "C-FIGHT-02")
@pytest.mark.parametrize("adventure", ["greyhollow-cellars", "bone-priest"])
def test_a_stamina_decision_names_its_fight_and_what_the_dm_declared(adventure: str) -> None:
    checked = 0
    for seed in range(4):
        seen, log = played(adventure, list(PACK.heroes)[:4], seed)
        fights = [(e.seq, e.event.fields) for e in log.of_type("fight")]
        for seat, heroes, dm, at in seen:
            if seat is not Seat.HEROES or heroes is None or heroes["kind"] != "fight":
                continue
            # The fight this decision is for is the next one the log records.
            fight = next(f for seq, f in fights if seq >= at)
            assert (heroes["hero"], heroes["monster"]) == (fight["hero"], fight["monster"])
            assert heroes["hero_score"] == fight["hero_score"]
            assert heroes["monster_score"] == fight["monster_score"]
            assert heroes["hero_modifiers"] == fight["hero_modifiers"]
            # The DM declares first by default (R-C-FIGHT-02): the heroes are told.
            assert heroes["declares_first"] == "dm"
            assert heroes["declared"] == fight["monster_stamina"]
            assert dm == heroes  # the DM is told the same
            checked += 1
    assert checked > 20


@pytest.mark.rule("C-MENT-02", "C-SPELL-06", "C-EXPL-01")
def test_the_heroes_get_context_only_for_their_own_decisions_and_no_secret() -> None:
    kinds: set[str] = set()
    for adventure in PACK.campaign_order():
        for seed in range(3):
            seen, _ = played(adventure, CASTERS, seed)
            for seat, heroes, dm, _at in seen:
                if seat is Seat.DM:
                    assert heroes is None  # not the heroes' decision: nothing told
                    continue
                if heroes is None:
                    continue
                kinds.add(heroes["kind"])
                assert "opponent_magic" not in heroes  # the DM's bookkeeping
                assert dm is not None and dm["kind"] == heroes["kind"]
                if heroes["kind"] == "mental" and heroes["side"] != heroes["aggressor"]:
                    assert "declared" in heroes  # C-MENT-02: the aggressor declared first
    assert {"fight", "explore", "casting", "mental"} <= kinds


@pytest.mark.rule("C-EXPL-01")
def test_a_choice_tells_the_tested_hero_and_each_options_trait_tests() -> None:
    for seed in range(12):
        seen, _ = played("greyhollow-cellars", list(PACK.heroes)[:4], seed)
        for seat, heroes, _dm, _at in seen:
            if (
                seat is Seat.HEROES
                and heroes
                and heroes["kind"] == "choice"
                and (heroes["area"] == "Cells")
            ):
                strike, leave = heroes["options"]
                assert strike["tests"] == [{"trait": "Strong", "target": 3, "who": "self"}]
                assert leave["tests"] == []
                assert strike["contests"] == leave["contests"] == []
                assert str(heroes["hero"]).startswith("hero:")
                return
    pytest.fail("no game of 12 reached the pilgrim's choice")


@pytest.mark.rule("C-EXPL-01", "C-MENT-01")
def test_a_choice_tells_the_mental_combat_an_option_calls_for() -> None:
    """The Bone Priest's Scriptorium: reading the tome is a Mental Combat against the
    text's power 1 (lost: 2 damage); slamming it shut is nothing."""
    for seed in range(20):
        seen, _ = played("bone-priest", list(PACK.heroes)[:4], seed)
        for seat, heroes, _dm, _at in seen:
            if seat is Seat.HEROES and heroes and heroes["kind"] == "choice":
                if heroes["area"] != "Scriptorium":
                    continue
                read, slam = heroes["options"]
                assert (read["label"], slam["label"]) == ("Read the tome", "Slam it shut")
                assert read["contests"] == [{"kind": "mental", "power": 1}]
                assert read["tests"] == slam["tests"] == slam["contests"] == []
                return
    pytest.fail("no game of 20 reached the Scriptorium's choice")


@pytest.mark.rule("C-EXPL-01", "C-IDENT-01")
def test_an_item_to_take_tells_its_deck_and_only_a_face_up_card() -> None:
    """Who takes a found item: the heroes are told its deck (a card's back shows it), and
    its card only when it is face up (C-IDENT-01); the DM knows the card."""
    decks: set[str] = set()
    for seed in range(8):
        seen, log = played("greyhollow-cellars", list(PACK.heroes)[:4], seed)
        found = [e.event.fields for e in log.of_type("item.found")]
        for seat, heroes, dm, at in seen:
            if seat is not Seat.HEROES or heroes is None or heroes["kind"] != "take_item":
                continue
            # The item this decision is for is the next one the log records as found.
            item = next(e.event.fields for e in log.of_type("item.found") if e.seq >= at)
            assert item["hero"] in heroes["takers"] and len(heroes["takers"]) >= 2
            assert dm is not None and dm["card"] == item["card"]
            deck = PACK.ruleset("greyhollow-cellars").items[item["card"]].kind
            assert heroes["deck"] == deck.value
            assert heroes["card"] == (None if deck.face_down else item["card"])
            decks.add(heroes["deck"])
        assert found
    assert {"potion", "treasure"} <= decks, decks
