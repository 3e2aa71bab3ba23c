"""Trade Items (C-TURN-06): one item given and one received per hero per turn, within
one room or corridor, never during combat; items taken from a corpse (R-C-TRADE-01)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import pytest
from combat_kit import advance, events, waiting_for, with_content
from crawl_kit import board, hero, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo
from undercroft.crawl import State
from undercroft.crawl.actions import Done, Trade
from undercroft.crawl.ruleset import Options

# Three heroes in the Hall, a fourth through an open door in the Vault.
ROOMS = board(
    """
    #########
    #abc#d..#
    #...'..o#
    #########
    """,
    """
    #########
    #HHH#VVV#
    #HHH.VVV#
    #########
    """,
    {"H": AreaInfo("Hall"), "V": AreaInfo("Vault")},
)

CARRIERS = {
    "ana": hero("ana", items=["gem"]),
    "bram": hero("bram", items=["torch"]),
    "cora": hero("cora", items=["tonic"]),
    "dell": hero("dell", items=["gem"]),
}


def hand(state: State, hero_id: str) -> list[str]:
    return [state.items[u].card for u in state.heroes[hero_id].items]


def uid(state: State, hero_id: str) -> str:
    return state.heroes[hero_id].items[0]


def trading(
    options: Options | None = None, placements: Sequence[tuple[str, str]] = ()
) -> tuple[State, EventLog]:
    rules = with_content(
        ruleset(ROOMS, starts=("a", "b", "c", "d"), placements=placements),
        heroes=CARRIERS,
        options=options,
    )
    return start(rules, ["ana", "bram", "cora", "dell"])


@pytest.mark.rule("C-TURN-06")
def test_each_hero_gives_one_item_and_receives_one() -> None:
    state, log = trading()
    advance(state, "trade", 1, 1, 1, 1)
    gem, torch, tonic = uid(state, "hero:ana"), uid(state, "hero:bram"), uid(state, "hero:cora")
    # The Hall's three trade among themselves; Dell in the Vault is out of reach.
    assert set(state.legal_actions()) == {
        Trade("hero:ana", "hero:bram", gem),
        Trade("hero:ana", "hero:cora", gem),
        Trade("hero:bram", "hero:ana", torch),
        Trade("hero:bram", "hero:cora", torch),
        Trade("hero:cora", "hero:ana", tonic),
        Trade("hero:cora", "hero:bram", tonic),
        Done(),
    }
    state.apply(Trade("hero:ana", "hero:bram", gem))
    # Ana has given, Bram has received (and may pass on what he got).
    assert set(state.legal_actions()) == {
        Trade("hero:bram", "hero:ana", torch),
        Trade("hero:bram", "hero:cora", torch),
        Trade("hero:bram", "hero:ana", gem),
        Trade("hero:bram", "hero:cora", gem),
        Trade("hero:cora", "hero:ana", tonic),
        Done(),
    }
    state.apply(Trade("hero:bram", "hero:cora", torch))
    state.apply(Trade("hero:cora", "hero:ana", tonic))
    assert hand(state, "hero:ana") == ["tonic"]
    assert hand(state, "hero:bram") == ["gem"]
    assert hand(state, "hero:cora") == ["torch"]
    assert hand(state, "hero:dell") == ["gem"]
    assert len(events(log, "item.traded")) == 3
    # Nothing more to trade: the step is over and the turn ends.
    assert state.turn == 2 and waiting_for(state) == "movement"


@pytest.mark.rule("C-TURN-06")
def test_the_limits_are_per_turn() -> None:
    state, _log = trading()
    advance(state, "trade", 1, 1, 1, 1)
    state.apply(Trade("hero:ana", "hero:bram", uid(state, "hero:ana")))
    state.apply(Done())
    advance(state, "trade", 1, 1, 1, 1)
    bram_items = state.heroes["hero:bram"].items
    assert Trade("hero:bram", "hero:ana", bram_items[0]) in state.legal_actions()
    assert Trade("hero:cora", "hero:bram", uid(state, "hero:cora")) in state.legal_actions()


@pytest.mark.rule("C-TURN-06", "C-CMB-01")
def test_no_trading_during_combat() -> None:
    state, log = trading(placements=[("rat", "o")])
    assert state.monsters  # the rat in the Vault, not next to anyone
    state.apply(Done())  # nobody moves
    seen = advance(state, "movement")  # the combat sub-steps, then Turn End
    assert state.turn == 2 and "monster_movement" in seen
    assert "trade" not in seen and "explore_choice" not in seen
    assert events(log, "item.traded") == []


@pytest.mark.rule("C-TURN-06", "C-DEATH-01", "R-C-TRADE-01")
@pytest.mark.parametrize(("rule", "takes"), [("one", 1), ("any", 2)])
def test_items_are_taken_from_a_corpse(rule: Literal["one", "any"], takes: int) -> None:
    rules = with_content(
        ruleset(ROOMS, starts=("a", "b")),
        heroes={"ana": hero("ana", items=["gem", "tonic"])},
        options=Options(corpse_items=rule),
    )
    state, log = start(rules, ["ana", "bram"])
    ana = state.heroes["hero:ana"]
    gem, tonic = ana.items
    ana.health = 0
    advance(state, "deaths_door", 1, 1)
    roll(state, 1)  # Ana dies; her corpse keeps her items
    assert ana.dead and ana.items == []
    advance(state, "trade", 1)
    assert set(state.legal_actions()) == {
        Trade("hero:ana", "hero:bram", gem),
        Trade("hero:ana", "hero:bram", tonic),
        Done(),
    }
    state.apply(Trade("hero:ana", "hero:bram", gem))
    left = [a for a in state.legal_actions() if isinstance(a, Trade)] if state.pending else []
    assert left == ([Trade("hero:ana", "hero:bram", tonic)] if takes == 2 else [])
    [traded] = events(log, "item.traded")
    assert "R-C-TRADE-01" in traded["rules"]
    assert hand(state, "hero:bram") == ["gem"]
