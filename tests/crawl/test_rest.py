"""Resting (C-REST-01 to C-REST-03)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from crawl_kit import HEROES, board, events, hero, next_turn, play_to, roll, ruleset, start

from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl.actions import Explore, Rest, Step, Trade
from undercroft.crawl.ruleset import HeroProfile, Ruleset, Trait

ANA, BRAM, DELL, FINN = "hero:ana", "hero:bram", "hero:dell", "hero:finn"

HALL = board(
    """
    ########
    #abcd..#
    #......#
    ########
    """,
    """
    ########
    #HHHHHH#
    #HHHHHH#
    ########
    """,
    {"H": AreaInfo("Hall")},
)


def rules_with(*profiles: HeroProfile) -> Ruleset:
    cards = dict(HEROES)
    cards.update({p.id: p for p in profiles})
    return replace(ruleset(HALL, starts=("a", "b", "c", "d")), heroes=cards)


@pytest.mark.rule("C-REST-01", "C-TURN-06")
def test_a_rest_takes_the_whole_turn_but_allows_trading() -> None:
    rules = rules_with(hero("ana", items=["gem"]), hero("bram", items=["tonic"]))
    state, log = start(rules, ["ana", "bram"])
    assert Rest(ANA) in state.legal_actions() and Rest(BRAM) in state.legal_actions()
    state.apply(Step(BRAM, Pos(2, 2)))
    assert Rest(BRAM) not in state.legal_actions()  # it has already acted this turn
    state.apply(Rest(ANA))
    assert events(log, "rest.started") == [{"hero": ANA, "rules": ["C-REST-01"]}]
    assert ANA not in {getattr(a, "hero", None) for a in state.legal_actions()}
    play_to(state, "explore_choice")
    assert state.legal_actions() == [Explore(BRAM, True), Explore(BRAM, False)]  # ana stays put
    play_to(state, "detect_traps")  # the DM rolls for every hero, resting or not (C-TRAP-01)
    assert state.pending is not None and state.pending.args["hero"] == ANA
    play_to(state, "trade", 6, 6)
    assert [e["actor"] for e in events(log, "roll")] == [ANA, BRAM]
    (gem,) = state.heroes[ANA].items
    assert Trade(ANA, BRAM, gem) in state.legal_actions()
    state.apply(Trade(ANA, BRAM, gem))
    assert gem in state.heroes[BRAM].items


@pytest.mark.rule("C-REST-02", "C-TURN-02", "C-SPELL-05", "C-SETUP-05")
def test_rest_brings_two_stamina_and_one_magic_or_two_for_the_learned_next_turn() -> None:
    rules = rules_with(hero("finn", magic=2))
    state, log = start(rules, ["ana", "dell", "finn"])
    for hid in (ANA, DELL, FINN):
        state.heroes[hid].stamina = 1
        state.heroes[hid].magic = 0
        state.apply(Rest(hid))
    # Everyone rests: no Explore choice, only the DM's Detect Traps rolls; turn 2 begins.
    play_to(state, "movement", 6, 6, 6)
    assert state.turn == 2 and state.step == "movement"
    assert events(log, "explore.choice") == []
    got = {h.id: (h.stamina, h.magic) for h in state.heroes.values()}
    assert got == {ANA: (3, 0), DELL: (3, 2), FINN: (3, 1)}  # dell is Learned
    assert state.ruleset.hero("dell").has(Trait.LEARNED)
    recovered = events(log, "recovered")
    assert [(e["hero"], e["rested"], e["rules"]) for e in recovered] == [
        (h, True, ["C-TURN-02", "C-REST-02"]) for h in (ANA, DELL, FINN)
    ]
    # The benefit comes once: a turn without rest brings the usual 1 Stamina.
    next_turn(state, 6, 6, 6)
    assert {h.id: (h.stamina, h.magic) for h in state.heroes.values()} == {
        ANA: (4, 0),
        DELL: (4, 2),
        FINN: (4, 1),
    }


@pytest.mark.rule("C-REST-03", "C-DD-02", "C-TURN-07")
def test_a_hero_that_rested_makes_no_deaths_door_roll_at_turn_end() -> None:
    state, log = start(rules_with(), ["ana", "bram"])
    state.heroes[ANA].health = 0
    state.heroes[BRAM].health = 0
    state.apply(Rest(ANA))
    play_to(state, "deaths_door", 6, 6)  # the Detect Traps rolls, ana's too (C-TRAP-01)
    assert state.pending is not None and state.pending.args["hero"] == BRAM
    roll(state, 4)
    assert events(log, "deaths_door.skipped") == [{"hero": ANA, "rules": ["C-DD-02", "C-REST-03"]}]
    dd = [r for r in events(log, "roll") if "C-DD-01" in r["rules"]]
    assert [(r["actor"], r["outcome"]) for r in dd] == [(BRAM, "survives")]
    assert state.turn == 2 and not state.heroes[ANA].dead
