"""Mental Combat (C-MENT-01 to C-MENT-03): a d6 each, Magic spent aggressor first,
the Iron-Willed bonus."""

from __future__ import annotations

from typing import Any

import pytest
from combat_kit import advance, rolls, waiting_for, with_content
from crawl_kit import board, hero, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.crawl import State
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import BeginCasting, ChooseTarget, MentalSpend, MonsterAbility
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import CastingTime, SpellCard, Targeting, Trait

# The gazer (Magic 2, a stare of power 1: the loser takes 1 damage) three squares off.
GALLERY = board(
    """
    #######
    #a..g.#
    #######
    """
)

DAUNT = SpellCard(
    "daunt",
    "Daunt",
    1,
    CastingTime.COMBAT,
    Targeting.MONSTER,
    6,
    (fx.MentalCombat(power=1, on_win=(fx.SlayMonster(amount=2),)),),
)
WREN = hero("wren", magic=3, spells=["daunt"])


def stare(party: list[str]) -> tuple[State, EventLog]:
    rules = with_content(
        ruleset(GALLERY, placements=[("gazer", "g")]),
        heroes={"wren": WREN},
        spells={"daunt": DAUNT},
    )
    state, log = start(rules, party)
    advance(state, "monster_movement")
    hero_id = f"hero:{party[0]}"
    state.apply(MonsterAbility("monster:gazer-1", "stare", hero_id))
    return state, log


def mental_rolls(log: EventLog) -> list[dict[str, Any]]:
    return rolls(log, "C-MENT-01")


@pytest.mark.rule("C-MENT-01")
@pytest.mark.parametrize(
    ("dice", "outcome", "health"),
    [((5, 3), "win", 6), ((3, 2), "tie", 6), ((2, 2), "lose", 5)],
)
def test_each_side_rolls_a_die_and_the_higher_wins(
    dice: tuple[int, int], outcome: str, health: int
) -> None:
    state, log = stare(["ana"])
    assert state.current_player() is Seat.DM
    state.apply(MentalSpend(0))  # Ana has no Magic: she is not asked
    assert waiting_for(state) == "mental"
    roll(state, *dice)
    ana, gazer = mental_rolls(log)
    assert (ana["actor"], ana["natural"], ana["modifiers"], ana["outcome"]) == (
        "hero:ana",
        [dice[0]],
        {},
        outcome,
    )
    assert (gazer["actor"], gazer["natural"], gazer["modifiers"], gazer["total"]) == (
        "monster:gazer-1",
        [dice[1]],
        {"power": 1},
        dice[1] + 1,
    )
    assert gazer["outcome"] == {"win": "lose", "lose": "win", "tie": "tie"}[outcome]
    # The stare says what each result does: a loss costs 1 Health, a tie nothing.
    assert state.heroes["hero:ana"].health == health


@pytest.mark.rule("C-MENT-02")
def test_both_sides_spend_magic_and_the_aggressor_declares_first() -> None:
    state, log = stare(["wren"])
    assert state.current_player() is Seat.DM  # the gazer stares: it declares first
    assert state.legal_actions() == [MentalSpend(0), MentalSpend(1), MentalSpend(2)]
    state.apply(MentalSpend(2))
    assert state.current_player() is Seat.HEROES
    assert state.legal_actions() == [MentalSpend(p) for p in range(4)]
    state.apply(MentalSpend(3))
    assert state.heroes["hero:wren"].magic == 0
    assert state.monsters["monster:gazer-1"].magic == 0
    roll(state, 2, 4)  # 2 + 3 = 5 against 4 + 1 + 2 = 7
    wren, gazer = mental_rolls(log)
    assert (wren["modifiers"], wren["total"], wren["outcome"]) == ({"magic": 3}, 5, "lose")
    assert (gazer["modifiers"], gazer["total"]) == ({"power": 1, "magic": 2}, 7)
    assert "C-MENT-02" in wren["rules"]
    assert state.heroes["hero:wren"].health == 5


@pytest.mark.rule("C-MENT-02", "C-CMB-01")
def test_a_casting_hero_is_the_aggressor_and_spends_on_top_of_the_spell() -> None:
    rules = with_content(
        ruleset(GALLERY, placements=[("gazer", "g")]),
        heroes={"wren": WREN},
        spells={"daunt": DAUNT},
    )
    state, log = start(rules, ["wren"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:wren", "daunt"))
    advance(state, "cast_target")
    state.apply(ChooseTarget("hero:wren", "monster:gazer-1"))
    wren = state.heroes["hero:wren"]
    assert wren.magic == 2  # the spell's level is paid first
    assert state.current_player() is Seat.HEROES  # the caster declares first
    assert state.legal_actions() == [MentalSpend(0), MentalSpend(1), MentalSpend(2)]
    state.apply(MentalSpend(2))
    assert state.current_player() is Seat.DM
    state.apply(MentalSpend(1))
    roll(state, 3, 4)  # 3 + 1 power + 2 = 6 against 4 + 1 = 5
    wren_roll, gazer_roll = mental_rolls(log)
    # The spell's power is the caster's: it is the spell's source.
    assert wren_roll["modifiers"] == {"power": 1, "magic": 2}
    assert (wren_roll["total"], wren_roll["outcome"]) == (6, "win")
    assert (gazer_roll["modifiers"], gazer_roll["total"]) == ({"magic": 1}, 5)
    assert wren.magic == 0 and state.monsters["monster:gazer-1"].magic == 1
    assert state.monsters["monster:gazer-1"].health == 1  # daunt's win: 2 damage


@pytest.mark.rule("C-MENT-03")
@pytest.mark.parametrize(("party", "outcome"), [("eryn", "tie"), ("ana", "lose")])
def test_an_iron_willed_hero_adds_one(party: str, outcome: str) -> None:
    state, log = stare([party])
    state.apply(MentalSpend(0))
    roll(state, 2, 2)  # 2 (+1 Iron-Willed) against 2 + 1
    hero_roll, _ = mental_rolls(log)
    assert hero_roll["outcome"] == outcome
    iron = party == "eryn"
    assert hero_roll["modifiers"] == ({"Iron-Willed": 1} if iron else {})
    assert ("C-MENT-03" in hero_roll["rules"]) == iron
    assert state.heroes[f"hero:{party}"].health == (6 if iron else 5)
    assert state.has_trait(state.heroes[f"hero:{party}"], Trait.IRON_WILLED) == iron
