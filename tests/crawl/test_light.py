"""Light (C-LIGHT-01), Light 0 (C-LIGHT-02) and exhaustion (C-EXH-01)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from crawl_kit import HEROES, board, events, hero, next_turn, play_to, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import Pos
from undercroft.crawl.actions import FightStamina, MonsterMove, SpendStamina, Step, UseItem
from undercroft.crawl.engine import Seat
from undercroft.crawl.movement import allowance
from undercroft.crawl.ruleset import Options
from undercroft.crawl.state import State
from undercroft.render.narrate import narrate

ANA = "hero:ana"

ROOM = board(
    """
    ##########
    #a.......#
    #........#
    ##########
    """
)


@pytest.mark.rule("C-LIGHT-01", "C-TURN-07")
def test_the_light_starts_at_twenty_and_drops_by_one_each_turn_end_down_to_zero() -> None:
    state, log = start(ruleset(ROOM), ["ana"])
    assert state.light == 20 == events(log, "adventure.started")[0]["light"]
    state, log = start(ruleset(ROOM, options=Options(light=2)), ["ana"])
    for _ in range(3):
        next_turn(state, 6)
    assert [e["light"] for e in events(log, "light.dropped")] == [1, 0, 0]
    assert state.light == 0


@pytest.mark.rule("C-LIGHT-01")
def test_the_light_cannot_be_raised_above_twenty() -> None:
    rules = ruleset(ROOM)
    rules = replace(rules, heroes={**HEROES, "ana": hero("ana", items=["torch"])})
    state, log = start(rules, ["ana"])
    next_turn(state, 6)
    assert state.light == 19
    (torch,) = state.heroes[ANA].items
    state.apply(UseItem(ANA, torch))  # +2 turns of Light
    assert state.light == 20
    assert [e["light"] for e in events(log, "light.changed")] == [20]
    told = list(narrate(log))  # the account tells the use and its effect
    assert told.index("  Ana uses the Torch.") < told.index("  The Light is now 20.")


def light_zero(*party: str) -> tuple[State, EventLog]:
    rules = ruleset(
        board(
            """
            ##########
            #ab....o.#
            ##########
            """
        ),
        starts=("a", "b"),
        placements=[("rat", "o")],
        options=Options(light=0),
    )
    return start(rules, list(party))


@pytest.mark.rule("C-LIGHT-02", "C-TURN-03", "C-FIGHT-02")
def test_at_light_zero_heroes_lose_a_square_of_movement_and_fight_at_minus_one() -> None:
    state, log = light_zero("bram", "ana")
    bram = state.heroes["hero:bram"]
    assert allowance(state, bram) == 3
    state.apply(SpendStamina("hero:bram", 1))
    assert allowance(state, bram) == 4
    state.apply(Step("hero:ana", Pos(3, 1)))
    state.apply(Step("hero:ana", Pos(4, 1)))
    state.apply(Step("hero:ana", Pos(5, 1)))
    assert state.heroes[ANA].moved == 3
    assert not [a for a in state.legal_actions() if isinstance(a, Step) and a.hero == ANA]
    play_to(state, "monster_movement")
    state.apply(MonsterMove("monster:rat-1", (Pos(6, 1),)))
    play_to(state, "fight_stamina")
    state.apply(FightStamina(0))
    state.apply(FightStamina(0))
    roll(state, 3, 3)
    roll(state, 3, 3)
    (fight,) = events(log, "fight")
    assert (fight["hero"], fight["hero_modifiers"], fight["hero_score"]) == (ANA, {"light": -1}, 2)


@pytest.mark.rule("C-EXH-01", "C-TURN-02", "R-C-MOVE-01")
def test_an_exhausted_hero_spends_no_stamina_until_it_is_full_again() -> None:
    state, log = start(ruleset(ROOM), ["ana"])
    ana = state.heroes[ANA]

    def offers() -> list[int]:
        return [a.points for a in state.legal_actions() if isinstance(a, SpendStamina)]

    state.apply(SpendStamina(ANA, 3))
    assert (ana.stamina, ana.exhausted) == (1, False)
    next_turn(state, 6)
    assert ana.stamina == 2
    state.apply(SpendStamina(ANA, 2))
    assert (ana.stamina, ana.exhausted) == (0, True)
    assert events(log, "exhausted") == [{"actor": ANA, "reason": "movement", "rules": ["C-EXH-01"]}]
    assert offers() == []
    seen = []
    for _ in range(4):
        next_turn(state, 6)
        seen.append((ana.stamina, ana.exhausted, offers()))
    assert seen == [
        (1, True, []),
        (2, True, []),
        (3, True, []),
        (4, False, [1, 2, 3]),  # back to full: no longer Exhausted
    ]


@pytest.mark.rule("C-EXH-01", "C-CMB-01")
def test_an_exhausted_monster_moves_only_its_movement() -> None:
    corridor = board(
        """
        ##############
        #a..........o#
        ##############
        """
    )
    state, _ = start(ruleset(corridor, placements=[("orc", "o")]), ["ana"])
    play_to(state, "monster_movement")
    orc = state.monsters["monster:orc-1"]

    def farthest(s: State) -> int:
        return max(len(a.path) for a in s.legal_actions() if isinstance(a, MonsterMove))

    assert farthest(state) == 6  # Movement 4, plus 2 Stamina
    state.apply(MonsterMove(orc.id, tuple(Pos(x, 1) for x in range(11, 5, -1)), 2))
    assert (orc.stamina, orc.exhausted) == (0, True)
    play_to(state, "monster_movement", turn=2)
    assert state.current_player() is Seat.DM
    assert farthest(state) == 4
