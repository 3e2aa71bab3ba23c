"""The ``search`` heroes' policy (:mod:`undercroft.agents.search`): reproducible from the
game's seed, blind to what the heroes cannot see, able to finish a game on a tiny
budget, and better than chance where one move is plainly best."""

from __future__ import annotations

from collections import Counter

import pytest
from crawl_kit import board
from crawl_kit import ruleset as kit_ruleset
from crawl_kit import start as kit_start
from test_resample import hidden_facts, positions, swapped

from undercroft.agents.knobs import KnobError
from undercroft.agents.registry import resolve
from undercroft.agents.search import SearchKnobs, SearchParty
from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.events import EventLog
from undercroft.crawl.actions import Leave
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View
from undercroft.crawl.runner import play

PACK = default_pack()
PARTY = list(PACK.heroes)[:4]
TINY = "search[budget=3,depth=1]"


def reasons(log: EventLog) -> list[str]:
    return [str(e.event.fields["reason"]) for e in log.entries if e.event.type == "reason"]


def test_a_search_game_is_its_seed_s_and_ends() -> None:
    rules = PACK.ruleset("bone-priest")
    one = play(rules, PARTY, seed=0, heroes=TINY)
    two = play(rules, PARTY, seed=0, heroes=TINY)
    assert one.log is not None and two.log is not None
    assert one.state.is_terminal()
    assert one.log.text() == two.log.text()  # the same seed, the same log, byte for byte
    said = reasons(one.log)
    assert any(r.startswith("search: ") for r in said)  # decisions it searched say so
    assert one.log.header.players == {"heroes": TINY, "dm": "master"}


def test_search_knobs_are_checked() -> None:
    assert resolve("search[depth=2,budget=5]") == "search[budget=5,depth=2]"
    with pytest.raises(KnobError, match="no knob 'speed'"):
        resolve("search[speed=2]")
    with pytest.raises(KnobError, match="out of range"):
        resolve("search[budget=0]")


@pytest.mark.rule("C-IDENT-01", "R-C-IDENT-01", "R-C-MON-06", "C-TRAP-01", "C-MON-02")
def test_its_decisions_do_not_change_when_the_hidden_facts_do() -> None:
    # At positions of random games, two searches with the same seed, one shown the game
    # and one a game that differs only where the heroes cannot see (another face-down
    # card, a monster elsewhere out of sight, an undetected trap on another square no
    # hero walked, a guard waiting in another unrevealed room), choose alike and say
    # alike why.
    knobs = SearchKnobs(budget=4, depth=1, width=4)
    counts: Counter[str] = Counter()
    for seed in range(4):
        swap = DiceSampler(derive_seed(seed, 11))
        for state in positions(seed):
            twin = swapped(state, swap, "shuffle")
            here = SearchParty(DiceSampler(seed), knobs=knobs)
            there = SearchParty(DiceSampler(seed), knobs=knobs)
            chosen = here.act(View(state, Seat.HEROES))
            assert there.act(View(twin, Seat.HEROES)) == chosen
            assert there.reason == here.reason
            counts["searched"] += here.reason.startswith("search: ")
            before, after = hidden_facts(state), hidden_facts(twin)
            counts["differ"] += before != after
            counts["traps"] += before[2] != after[2]
            counts["guards"] += before[3] != after[3]
    assert counts["searched"] >= 20 and counts["differ"] >= 20, counts
    assert counts["traps"] >= 20 and counts["guards"] >= 20, counts


# Ana at the exit (a), alone, at 1 Health, an orc beside her: leaving now wins the
# adventure (it has no goals); staying means a fight she will likely not survive.
EXIT = board(
    """
    ######
    #ao..#
    #....#
    ######
    """
)


def test_where_one_move_wins_outright_it_takes_it() -> None:
    rules = kit_ruleset(EXIT, starts=("a",), placements=[("orc", "o")], exits=("a",))
    state, _ = kit_start(rules, ["ana"])
    state.heroes["hero:ana"].health = 1
    legal = state.legal_actions()
    assert Leave("hero:ana") in legal and len(legal) >= 5  # a random move: 1 in 5 at best
    policy = SearchParty(DiceSampler(4), knobs=SearchKnobs(budget=40, depth=2, width=10))
    assert policy.act(View(state, Seat.HEROES)) == Leave("hero:ana")
    assert policy.reason.startswith("search: ")
