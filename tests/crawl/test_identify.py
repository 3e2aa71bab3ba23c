"""Identifying items (C-IDENT-01 to C-IDENT-03) and the five decks (C-SETUP-02)."""

from __future__ import annotations

from typing import Any

import pytest
from combat_kit import advance, events, fight, rolls, waiting_for, with_content
from crawl_kit import ITEMS, board, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo
from undercroft.crawl import State
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import BeginCasting, Done, Identify, Leave, Memorize, UseItem
from undercroft.crawl.ruleset import ItemCard, ItemKind
from undercroft.render.narrate import narrate

HALL = board(
    """
    #######
    #ab...#
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

RING = ItemCard("ring", "Ring of Mending", ItemKind.MAGIC, (fx.Heal(amount=2, who="self"),))


def give(state: State, hero_id: str, card: str) -> str:
    """Put a newly found item (face down if a potion, scroll or magic item) in a hand."""
    uid = state.new_item(card)
    state.heroes[hero_id].items.append(uid)
    return uid


def identify_rolls(log: EventLog) -> list[dict[str, Any]]:
    return rolls(log, "C-IDENT-01")


@pytest.mark.rule("C-SETUP-02", "C-IDENT-01")
def test_five_decks_and_which_arrive_face_down() -> None:
    assert [k.value for k in ItemKind] == ["treasure", "gear", "potion", "scroll", "magic"]
    state, _ = start(ruleset(HALL), ["ana"])
    face_down = {card: not state.items[state.new_item(card)].identified for card in ITEMS}
    assert face_down == {
        "tonic": True,
        "bolt-scroll": True,
        "mend-scroll": True,
        "gem": False,
        "blade": True,
        "torch": False,
    }


@pytest.mark.rule("C-IDENT-01")
@pytest.mark.parametrize(
    ("natural", "outcome"),
    [(1, "never"), (2, "not_yet"), (3, "not_yet"), (4, "identified"), (6, "identified")],
)
def test_a_learned_hero_identifies_an_item(natural: int, outcome: str) -> None:
    state, log = start(ruleset(HALL), ["dell"])
    uid = give(state, "hero:dell", "tonic")
    advance(state, "explore_actions")
    assert Identify("hero:dell", uid) in state.legal_actions()
    state.apply(Identify("hero:dell", uid))
    roll(state, natural)
    [event] = identify_rolls(log)
    assert (event["actor"], event["outcome"], event["item"]) == ("hero:dell", outcome, uid)
    # The card is named only when identified.
    assert ("card" in event) == (outcome == "identified")
    item = state.items[uid]
    assert item.identified == (outcome == "identified")
    assert item.never == (outcome == "never")
    # Next Explore: another try only after "not yet".
    assert waiting_for(state) == "explore_actions"  # the tonic can still be drunk
    state.apply(Done())
    advance(state, "explore_actions", 3)
    assert (Identify("hero:dell", uid) in state.legal_actions()) == (outcome == "not_yet")


@pytest.mark.rule("C-IDENT-01")
def test_one_identification_attempt_per_explore_step() -> None:
    state, _ = start(ruleset(HALL), ["dell"])
    tonic = give(state, "hero:dell", "tonic")
    scroll = give(state, "hero:dell", "mend-scroll")
    advance(state, "explore_actions")
    assert {a for a in state.legal_actions() if isinstance(a, Identify)} == {
        Identify("hero:dell", tonic),
        Identify("hero:dell", scroll),
    }
    state.apply(Identify("hero:dell", tonic))
    roll(state, 2)
    assert waiting_for(state) == "explore_actions"  # the tonic can still be drunk
    assert [a for a in state.legal_actions() if isinstance(a, Identify)] == []


@pytest.mark.rule("C-IDENT-01")
def test_only_a_learned_hero_identifies() -> None:
    state, _ = start(ruleset(HALL, starts=("a", "b")), ["ana", "dell"])
    give(state, "hero:ana", "tonic")
    advance(state, "explore_actions")
    assert [a for a in state.legal_actions() if isinstance(a, Identify)] == []


@pytest.mark.rule("C-IDENT-02", "C-END-01")
def test_every_item_is_identified_when_the_adventure_ends() -> None:
    state, log = start(ruleset(HALL, starts=("a",), exits=("a",)), ["ana"])
    tonic = give(state, "hero:ana", "tonic")
    blade = give(state, "hero:ana", "blade")
    gem = give(state, "hero:ana", "gem")
    state.items[blade].never = True  # a roll of 1 does not stop it either
    state.apply(Leave("hero:ana"))
    assert state.outcome == "escaped"
    assert all(state.items[u].identified for u in (tonic, blade, gem))
    [event] = events(log, "items.identified")
    assert event["items"] == [
        {"item": tonic, "card": "tonic", "holder": "hero:ana"},
        {"item": blade, "card": "blade", "holder": "hero:ana"},
    ]
    kinds = [e.event.type for e in log.entries]
    assert kinds.index("items.identified") < kinds.index("adventure.ended")


@pytest.mark.rule("C-IDENT-03")
@pytest.mark.parametrize("identified", [False, True])
def test_a_magic_item_cannot_be_used_until_identified(identified: bool) -> None:
    state, _log = start(with_content(ruleset(HALL), items={"ring": RING}), ["ana"])
    ring = give(state, "hero:ana", "ring")
    state.items[ring].identified = identified
    state.heroes["hero:ana"].health = 3
    assert (UseItem("hero:ana", ring) in state.legal_actions()) == identified
    if identified:
        state.apply(UseItem("hero:ana", ring))
        assert state.heroes["hero:ana"].health == 5


@pytest.mark.rule("C-IDENT-03", "C-FIGHT-02")
@pytest.mark.parametrize(("identified", "modifiers"), [(False, {}), (True, {"items": 1})])
def test_a_magic_weapon_helps_only_once_identified(
    identified: bool, modifiers: dict[str, int]
) -> None:
    grid = board(
        """
        #####
        #ao.#
        #####
        """
    )
    state, log = start(ruleset(grid, placements=[("orc", "o")]), ["ana"])
    blade = give(state, "hero:ana", "blade")
    state.items[blade].identified = identified
    advance(state, "fight_stamina")
    fight(state, (3, 3), (3, 3))
    [event] = events(log, "fight")
    assert event["hero_modifiers"] == modifiers
    assert event["hero_score"] == 3 + sum(modifiers.values())
    assert event["winner"] == ("hero" if identified else None)


@pytest.mark.rule("C-IDENT-03")
def test_an_unidentified_potion_may_be_drunk_blind() -> None:
    state, log = start(ruleset(HALL), ["ana"])
    tonic = give(state, "hero:ana", "tonic")
    state.heroes["hero:ana"].health = 1
    state.apply(UseItem("hero:ana", tonic))
    assert state.heroes["hero:ana"].health == 3
    assert state.heroes["hero:ana"].items == []
    [used] = events(log, "item.used")
    assert (used["blind"], used["card"]) == (True, "tonic")
    assert "C-IDENT-03" in used["rules"]
    # The account tells the use and what the card turned out to be.
    assert "  Ana uses a face-down card: a Tonic." in list(narrate(log))


@pytest.mark.rule("C-IDENT-03", "C-SPELL-01")
def test_an_unidentified_scroll_may_be_cast_blind_but_not_memorized() -> None:
    grid = board(
        """
        ########
        #a...o.#
        ########
        """
    )
    state, log = start(ruleset(grid, placements=[("orc", "o")]), ["ana"])
    scroll = give(state, "hero:ana", "bolt-scroll")
    advance(state, "spell_selection")
    # Blind: the action names no spell, and the overcast version is not on offer.
    casting = [a for a in state.legal_actions() if isinstance(a, BeginCasting)]
    assert casting == [BeginCasting("hero:ana", "", scroll)]
    state.apply(casting[0])
    # The DM's log names the spell, marked blind; the heroes' view drops it (R-C-IDENT-01).
    [begun] = events(log, "casting.begun")
    assert (begun["spell"], begun["blind"]) == ("bolt", True)
    advance(state, "cast_target")
    assert state.items[scroll].identified  # read in the casting step
    state.apply(state.legal_actions()[0])
    assert state.monsters["monster:orc-1"].health == 1
    assert state.heroes["hero:ana"].items == []


@pytest.mark.rule("C-IDENT-03", "C-SPELL-02")
def test_no_spell_is_memorized_from_an_unidentified_scroll() -> None:
    state, _ = start(ruleset(HALL), ["dell"])
    scroll = give(state, "hero:dell", "mend-scroll")
    advance(state, "explore_actions")
    assert Memorize("hero:dell", scroll) not in state.legal_actions()
    state.apply(Identify("hero:dell", scroll))
    roll(state, 4)
    assert Memorize("hero:dell", scroll) in state.legal_actions()
