"""Hero traits (C-SETUP-05): each trait's bonus applies where the catalogue says, and
nowhere else. Strong: Open Doors +1 (C-DOOR-02), wins fight ties (C-FIGHT-04). Agile:
Jump +1 (C-JUMP-02). Perceptive: Surprise +1 (C-SURP-03), Detect Traps +1 but not
Disarm (C-TRAP-04). Learned: identifies items (C-IDENT-01), 2 Magic from rest
(C-REST-02). Iron-Willed: Death's Door +1 (C-DD-04), Mental Combat +1 (C-MENT-03)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from crawl_kit import board, events, next_turn, play_to, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import (
    Disarm,
    FightStamina,
    Identify,
    Jump,
    MonsterAbility,
    Move,
    OpenDoor,
    Step,
)
from undercroft.crawl.ruleset import RoomText
from undercroft.crawl.state import State

PARTY = ["ana", "bram", "cora", "dell", "eryn"]
Modifiers = dict[str, object]


def last_roll(log: EventLog, actor: str) -> Modifiers:
    rolled = [e for e in events(log, "roll") if e["actor"] == actor]
    modifiers: Modifiers = rolled[-1]["modifiers"]
    return modifiers


def door(who: str) -> Modifiers:
    rooms = board("######\n#a+..#\n######", "######\n#A.BB#\n######")
    state, log = start(ruleset(rooms), [who])
    state.apply(OpenDoor(f"hero:{who}", Pos(2, 1)))
    roll(state, 3)
    return last_roll(log, f"hero:{who}")


def jump(who: str) -> Modifiers:
    state, log = start(ruleset(board("######\n#aT..#\n######")), [who])
    state.apply(Jump(f"hero:{who}", Pos(2, 1)))
    roll(state, 3)
    return last_roll(log, f"hero:{who}")


def surprise(who: str) -> Modifiers:
    den = board(
        "######\n#a.+o#\n######",
        "######\n#AA.B#\n######",
        {"A": AreaInfo("Hall"), "B": AreaInfo("Den")},
    )
    state, log = start(ruleset(den, placements=[("orc", "o")]), [who])
    state.apply(Step(f"hero:{who}", Pos(2, 1)))
    state.apply(OpenDoor(f"hero:{who}", Pos(3, 1)))
    roll(state, 6)  # the door opens
    roll(state, 3)  # the Surprise roll
    return last_roll(log, f"hero:{who}")


def detect(who: str) -> Modifiers:
    state, log = start(ruleset(board("#####\n#a..#\n#####")), [who])
    play_to(state, "detect_traps")
    roll(state, 3)
    return last_roll(log, f"hero:{who}")


def disarm(who: str) -> Modifiers:
    state, log = start(ruleset(board("#####\n#a.t#\n#####"), traps={"t": "pit"}), [who])
    next_turn(state, 6)
    state.apply(Step(f"hero:{who}", Pos(2, 1)))
    state.apply(Disarm(f"hero:{who}", Pos(3, 1)))
    roll(state, 3)
    return last_roll(log, f"hero:{who}")


def deaths_door(who: str) -> Modifiers:
    state, log = start(ruleset(board("#####\n#a..#\n#####")), [who])
    state.heroes[f"hero:{who}"].health = 0
    play_to(state, "deaths_door", 6)
    roll(state, 4)
    return last_roll(log, f"hero:{who}")


def mental(who: str) -> Modifiers:
    state, log = start(
        ruleset(board("#######\n#a..g.#\n#######"), placements=[("gazer", "g")]), [who]
    )
    play_to(state, "monster_movement")
    state.apply(MonsterAbility("monster:gazer-1", "stare", f"hero:{who}"))
    play_to(state, "mental")  # no Magic spent on either side
    roll(state, 3, 3)
    return last_roll(log, f"hero:{who}")


ROLLS: dict[str, Callable[[str], Modifiers]] = {
    "door": door,
    "jump": jump,
    "surprise": surprise,
    "detect": detect,
    "disarm": disarm,
    "deaths_door": deaths_door,
    "mental": mental,
}
BONUS: dict[str, dict[str, Modifiers]] = {
    "ana": {},
    "bram": {"door": {"Strong": 1}},
    "cora": {"jump": {"Agile": 1}, "surprise": {"Perceptive": 1}, "detect": {"Perceptive": 1}},
    "dell": {},
    "eryn": {"deaths_door": {"Iron-Willed": 1}, "mental": {"Iron-Willed": 1}},
}


@pytest.mark.parametrize("who", PARTY)
@pytest.mark.rule(
    "C-SETUP-05",
    "C-DOOR-02",
    "C-JUMP-02",
    "C-SURP-03",
    "C-TRAP-04",
    "C-DD-04",
    "C-MENT-03",
)
def test_each_trait_modifies_exactly_the_rolls_the_catalogue_names(who: str) -> None:
    got = {name: run(who) for name, run in ROLLS.items()}
    assert got == {name: BONUS[who].get(name, {}) for name in ROLLS}


@pytest.mark.parametrize(("who", "winner"), [("bram", "hero"), ("ana", None)])
@pytest.mark.rule("C-SETUP-05", "C-FIGHT-04")
def test_a_strong_hero_wins_fight_ties(who: str, winner: str | None) -> None:
    state, log = start(ruleset(board("######\n#ao..#\n######"), placements=[("orc", "o")]), [who])
    play_to(state, "fight_stamina")
    state.apply(FightStamina(0))
    state.apply(FightStamina(0))
    roll(state, 3, 3)
    roll(state, 2, 4)
    (fight,) = events(log, "fight")
    assert (fight["hero_score"], fight["monster_score"]) == (3, 3)
    assert fight["winner"] == winner


@pytest.mark.parametrize(("who", "may"), [("dell", True), ("ana", False), ("cora", False)])
@pytest.mark.rule("C-SETUP-05", "C-IDENT-01")
def test_only_a_learned_hero_may_identify(who: str, may: bool) -> None:
    hall = board("#####\n#a..#\n#####", "#####\n#HHH#\n#####", {"H": AreaInfo("Hall")})
    text = RoomText("Hall", "A vial on a shelf.", (fx.GiveItem(item="tonic"),))
    state: State
    state, _ = start(ruleset(hall, room_texts=[text]), [who])
    me = f"hero:{who}"
    state.apply(Move(me, (Pos(2, 1),)))
    play_to(state, "explore_choice")
    state.apply(next(a for a in state.legal_actions() if getattr(a, "explore", False)))
    (vial,) = state.heroes[me].items
    assert not state.items[vial].identified
    offered = state.pending is not None and Identify(me, vial) in state.legal_actions()
    assert offered is may
