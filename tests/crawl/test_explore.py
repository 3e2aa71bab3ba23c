"""Explore (C-EXPL-01, C-TURN-05): who explores, room texts for explorers or for
everyone, choices, trait tests, items found, and the order of the step."""

from __future__ import annotations

import pytest
from combat_kit import advance, events, waiting_for, with_content
from crawl_kit import board, roll, ruleset, start

from undercroft.core.grid import AreaInfo
from undercroft.crawl import State
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import (
    ChooseOption,
    Explore,
    Identify,
    Memorize,
    Rest,
    TakeItem,
    TakeTest,
)
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.options import Options
from undercroft.crawl.ruleset import RoomText

HALL = board(
    """
    #######
    #abc..#
    #.....#
    #######
    """,
    """
    #######
    #HHHHH#
    #HHHHH#
    #######
    """,
    {"H": AreaInfo("Hall")},
)


def explore(state: State, *explorers: str) -> None:
    """Play on to the Explore step and answer for every hero: the named ones explore."""
    advance(state, "explore_choice")
    while waiting_for(state) == "explore_choice":
        first = state.legal_actions()[0]
        assert isinstance(first, Explore)
        state.apply(Explore(first.hero, first.hero in explorers))


def text(*effects: fx.Effect, explorers_only: bool = True) -> RoomText:
    return RoomText("Hall", "A dusty hall.", tuple(effects), explorers_only=explorers_only)


PARTY = ["ana", "bram", "cora"]
PARTY_IDS = tuple(f"hero:{h}" for h in PARTY)
STARTS = ("a", "b", "c")


@pytest.mark.rule("C-EXPL-01", "C-TURN-05")
def test_each_hero_chooses_whether_to_explore() -> None:
    state, log = start(ruleset(HALL, starts=STARTS), PARTY)
    advance(state, "explore_choice")
    assert set(state.legal_actions()) == {
        Explore(f"hero:{h}", choice) for h in PARTY for choice in (True, False)
    }
    state.apply(Explore("hero:bram", True))
    assert set(state.legal_actions()) == {
        Explore(f"hero:{h}", choice) for h in ("ana", "cora") for choice in (True, False)
    }
    state.apply(Explore("hero:ana", False))
    state.apply(Explore("hero:cora", False))
    assert [(e["hero"], e["explore"]) for e in events(log, "explore.choice")] == [
        ("hero:bram", True),
        ("hero:ana", False),
        ("hero:cora", False),
    ]


@pytest.mark.rule("C-EXPL-01")
def test_a_text_for_explorers_waits_until_someone_explores() -> None:
    rules = ruleset(HALL, starts=STARTS, room_texts=[text(fx.Damage(amount=1, who="explorers"))])
    state, log = start(rules, PARTY)
    explore(state)  # nobody explores in turn 1
    advance(state, "movement", 3, 3, 3)
    assert events(log, "text.read") == []
    explore(state, "hero:ana")
    assert [e["area"] for e in events(log, "text.read")] == ["Hall"]
    assert [h.health for h in state.heroes.values()] == [5, 6, 6]


@pytest.mark.rule("C-EXPL-01")
def test_a_text_for_everyone_there_is_read_without_explorers() -> None:
    rules = ruleset(
        HALL,
        starts=STARTS,
        room_texts=[
            text(fx.Damage(amount=1, who="here"), explorers_only=False),
            text(fx.Damage(amount=2, who="explorers"), explorers_only=False),
        ],
    )
    state, log = start(rules, PARTY)
    explore(state, "hero:cora")
    assert len(events(log, "text.read")) == 2
    assert [h.health for h in state.heroes.values()] == [5, 5, 3]


@pytest.mark.rule("C-EXPL-01")
def test_an_item_found_goes_to_the_only_explorer() -> None:
    rules = ruleset(HALL, starts=STARTS, room_texts=[text(fx.GiveItem(item="gem"))])
    state, log = start(rules, PARTY)
    explore(state, "hero:bram")
    [found] = events(log, "item.found")
    assert (found["hero"], found["card"], found["identified"]) == ("hero:bram", "gem", True)
    assert [state.items[u].card for u in state.heroes["hero:bram"].items] == ["gem"]


@pytest.mark.rule("C-EXPL-01")
def test_an_item_found_goes_to_an_explorer_of_the_partys_choosing() -> None:
    rules = ruleset(HALL, starts=STARTS, room_texts=[text(fx.GiveItem(item="tonic"))])
    state, log = start(rules, PARTY)
    explore(state, "hero:ana", "hero:cora")
    assert waiting_for(state) == "take_item"
    assert state.legal_actions() == [TakeItem("hero:ana"), TakeItem("hero:cora")]  # not bram
    state.apply(TakeItem("hero:cora"))
    [found] = events(log, "item.found")
    assert (found["hero"], found["card"], found["identified"]) == ("hero:cora", "tonic", False)
    assert state.heroes["hero:ana"].items == []
    assert len(state.heroes["hero:cora"].items) == 1


@pytest.mark.rule("C-EXPL-01", "R-C-EXPL-01")
@pytest.mark.parametrize("explorer", [None, "hero:cora"])
def test_an_item_for_everyone_there_goes_only_to_an_explorer(explorer: str | None) -> None:
    # A text read to everyone in the Hall, explorers or not, gives an item without saying
    # who takes it: only a hero who explored may; Ana rests, Bram stays put.
    rules = ruleset(
        HALL, starts=STARTS, room_texts=[text(fx.GiveItem(item="tonic"), explorers_only=False)]
    )
    state, log = start(rules, PARTY)
    state.apply(Rest("hero:ana"))
    explore(state, *([explorer] if explorer else []))
    assert [e["area"] for e in events(log, "text.read")] == ["Hall"]
    holders = [h.id for h in state.heroes.values() if h.items]
    if explorer is None:  # nobody explored: nobody takes it
        assert holders == [] and events(log, "item.found") == []
        [left] = events(log, "item.unclaimed")
        assert left == {
            "area": "Hall", "card": "tonic", "blind": True, "rules": ["C-EXPL-01", "R-C-EXPL-01"]
        }  # fmt: skip
        assert not any(i.card == "tonic" for i in state.items.values())
    else:
        assert holders == [explorer] and events(log, "item.unclaimed") == []


@pytest.mark.rule("C-EXPL-01")
def test_a_text_may_offer_the_explorers_a_choice() -> None:
    spring = text(
        fx.Choice(
            options=(
                fx.Option(label="Drink", effects=(fx.Damage(amount=2, who="explorers"),)),
                fx.Option(label="Walk on", effects=()),
            )
        )
    )
    rules = ruleset(HALL, starts=STARTS, room_texts=[spring])
    state, log = start(rules, PARTY)
    explore(state, "hero:ana", "hero:bram")
    assert waiting_for(state) == "choice"
    assert state.legal_actions() == [ChooseOption(0), ChooseOption(1)]
    state.apply(ChooseOption(0))
    assert [e["label"] for e in events(log, "choice.made")] == ["Drink"]
    assert [h.health for h in state.heroes.values()] == [4, 4, 6]


@pytest.mark.rule("C-EXPL-01", "C-SETUP-05")
def test_a_text_tests_a_trait_of_each_explorer() -> None:
    ledge = text(
        fx.TraitTest(
            trait="Agile",
            target=4,
            who="explorers",
            on_fail=(fx.Damage(amount=1, who="self"),),
        )
    )
    rules = ruleset(HALL, starts=STARTS, room_texts=[ledge])
    state, log = start(rules, PARTY)
    explore(state, "hero:ana", "hero:cora")
    assert waiting_for(state) == "trait_test"
    roll(state, 3)  # ana: 3, fails
    roll(state, 3)  # cora: 3 + 1 Agile, passes
    tests = [e for e in events(log, "roll") if e.get("trait") == "Agile"]
    assert [(e["actor"], e["modifiers"], e["total"], e["outcome"]) for e in tests] == [
        ("hero:ana", {}, 3, "fail"),
        ("hero:cora", {"Agile": 1}, 4, "pass"),
    ]
    assert [h.health for h in state.heroes.values()] == [5, 6, 6]


@pytest.mark.rule("C-EXPL-01", "R-C-EXPL-02")
@pytest.mark.parametrize(
    ("party", "explorers", "tested", "passed"),
    [
        (["ana", "bram", "cora"], ("hero:bram", "hero:cora"), "hero:bram", False),
        (["cora", "bram", "ana"], ("hero:bram", "hero:cora"), "hero:cora", True),
        (["ana", "bram", "cora"], (), "hero:ana", False),
    ],
)
def test_a_texts_own_test_falls_on_its_first_explorer_in_party_order(
    party: list[str], explorers: tuple[str, ...], tested: str, passed: bool
) -> None:
    """A text testing "the hero" (its ``self``) tests the first of its explorers in party
    order, whoever else explored; with nobody exploring (a text for everyone there), the
    first hero there. Cora is the Agile one."""
    nimble = text(fx.TraitTest(trait="Agile", target=0), explorers_only=False)
    state, log = start(ruleset(HALL, starts=STARTS, room_texts=[nimble]), party)
    explore(state, *explorers)
    assert [(e["hero"], e["passed"]) for e in events(log, "trait.tested")] == [(tested, passed)]


CHOSEN = Options(text_test="chosen")


@pytest.mark.rule("C-EXPL-01", "R-C-EXPL-02")
@pytest.mark.parametrize(("taker", "passed"), [("hero:cora", True), ("hero:bram", False)])
def test_with_chosen_the_explorers_choose_who_takes_the_texts_own_test(
    taker: str, passed: bool
) -> None:
    """``text_test = "chosen"``: after the text is read the heroes' seat is asked which
    explorer takes it up, only the explorers are offered, the context says what the
    text asks, and the chosen hero is the one tested (and the one its branch befalls).
    Cora is the Agile one; Ana stayed put."""
    nimble = text(
        fx.TraitTest(trait="Agile", target=0, on_fail=(fx.Damage(amount=1, who="self"),)),
        explorers_only=False,
    )
    state, log = start(ruleset(HALL, starts=STARTS, room_texts=[nimble], options=CHOSEN), PARTY)
    explore(state, "hero:bram", "hero:cora")
    assert waiting_for(state) == "text_test"
    assert state.legal_actions() == [TakeTest("hero:bram"), TakeTest("hero:cora")]
    context = observe(state, Seat.HEROES).context
    assert context is not None
    assert context["kind"] == "text_test"
    assert context["takers"] == ["hero:bram", "hero:cora"]
    assert context["tests"] == [{"trait": "Agile", "target": 0, "who": "self"}]
    assert context["text"] == "A dusty hall."
    before = {h.id: h.health for h in state.heroes.values()}
    state.apply(TakeTest(taker))
    assert [(e["area"], e["hero"]) for e in events(log, "text.hero")] == [("Hall", taker)]
    assert [(e["hero"], e["passed"]) for e in events(log, "trait.tested")] == [(taker, passed)]
    hurt = {h.id for h in state.heroes.values() if h.health < before[h.id]}
    assert hurt == (set() if passed else {"hero:bram"})


@pytest.mark.rule("C-EXPL-01", "R-C-EXPL-02")
@pytest.mark.parametrize(
    ("effects", "explorers", "asked"),
    [
        # one explorer: nobody to choose among
        ((fx.TraitTest(trait="Agile", target=0),), ("hero:cora",), False),
        # a test of every explorer asks nothing of one hero, nor do its branches
        (
            (fx.TraitTest(trait="Agile", who="explorers", on_fail=(fx.Damage(amount=1),)),),
            ("hero:bram", "hero:cora"),
            False,
        ),
        # an item to the explorers and a light change: nothing asked of one hero
        ((fx.GiveItem(item="mend-scroll"), fx.ChangeLight(amount=-1)), PARTY_IDS, False),
        # a Mental Combat inside a choice's option is the text's hero's
        (
            (
                fx.Choice(
                    options=(
                        fx.Option(label="Read", effects=(fx.MentalCombat(power=1),)),
                        fx.Option(label="Leave", effects=()),
                    )
                ),
            ),
            PARTY_IDS,
            True,
        ),
        # nobody explores a text for everyone: the heroes there choose
        ((fx.Damage(amount=1, who="self"),), (), True),
    ],
)
def test_with_chosen_the_party_is_asked_only_when_a_hero_is_to_be_chosen(
    effects: tuple[fx.Effect, ...], explorers: tuple[str, ...], asked: bool
) -> None:
    rules = with_content(
        ruleset(
            HALL,
            starts=STARTS,
            room_texts=[text(*effects, explorers_only=False)],
            options=CHOSEN,
        )
    )
    state, _ = start(rules, PARTY)
    explore(state, *explorers)
    assert (waiting_for(state) == "text_test") is asked


@pytest.mark.rule("R-C-EXPL-02")
def test_the_first_reading_asks_nobody() -> None:
    """The default (``first``) never asks: the same text and explorers go straight on."""
    nimble = text(fx.TraitTest(trait="Agile", target=0), explorers_only=False)
    state, log = start(ruleset(HALL, starts=STARTS, room_texts=[nimble]), PARTY)
    explore(state, "hero:bram", "hero:cora")
    assert waiting_for(state) != "text_test"
    assert not events(log, "text.hero")
    assert [e["hero"] for e in events(log, "trait.tested")] == ["hero:bram"]


@pytest.mark.rule("C-EXPL-01", "C-SPELL-02", "C-IDENT-01", "C-TRAP-01")
def test_texts_then_identifying_and_memorizing_then_trap_detection() -> None:
    rules = with_content(
        ruleset(HALL, starts=("a",), room_texts=[text(fx.GiveItem(item="mend-scroll"))])
    )
    state, log = start(rules, ["dell"])
    explore(state, "hero:dell")
    [uid] = state.heroes["hero:dell"].items
    assert waiting_for(state) == "explore_actions"
    assert Memorize("hero:dell", uid) not in state.legal_actions()  # still face down
    state.apply(Identify("hero:dell", uid))
    roll(state, 5)
    state.apply(Memorize("hero:dell", uid))
    assert waiting_for(state) == "detect_traps"
    roll(state, 2)
    kinds = [
        e.event.type
        for e in log.entries
        if e.event.type in ("text.read", "item.found", "spell.memorized", "traps.detected")
    ]
    assert kinds == ["text.read", "item.found", "spell.memorized", "traps.detected"]
    assert state.heroes["hero:dell"].spells == ["bolt", "mend"]
