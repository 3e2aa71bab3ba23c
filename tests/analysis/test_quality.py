"""The play-quality measures of undercroft.analysis.quality, on hand-made event logs, and
a short run of benchmarks/ai_quality.py."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from undercroft.analysis import quality
from undercroft.core.events import (
    Actor,
    CrawlTime,
    Event,
    Header,
    LogEntry,
    fight_event,
    roll_event,
)

Square = tuple[int, int]
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


class Log:
    """Builds a list of log entries, numbered as they come."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []

    def add(self, turn: int, step: str, event: Event) -> None:
        self.entries.append(LogEntry(len(self.entries), CrawlTime(turn, step), event))

    def ev(self, turn: int, step: str, kind: str, rules: Sequence[str] = (), **fields: Any) -> None:
        self.add(turn, step, Event(kind, tuple(rules), fields))

    def __iter__(self) -> Iterator[LogEntry]:
        return iter(self.entries)


def walk(squares: Sequence[Square | None], hero: str = "hero:a") -> Log:
    """A hero that ends each turn's movement on the given square (None: it stays put)."""
    log = Log()
    log.ev(1, "turn_start", "adventure.started", ["C-SETUP-03"], heroes=[hero])
    for turn, square in enumerate(squares, start=1):
        log.ev(turn, "turn_start", "turn.started", ["C-TURN-01"], light=20)
        if square is not None:
            log.ev(turn, "movement", "moved", ["C-TURN-03"], actor=hero, to=list(square))
        log.ev(turn, "turn_end", "light.dropped", ["C-LIGHT-01"], light=20 - turn)
    return log


A, B, C = (1, 1), (2, 1), (3, 1)


# -- shuttles ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("squares", "count"),
    [
        ([A, B, A, B], 1),
        ([A, B, A, C], 0),
        ([A, B, A], 0),
        ([A, B, A, B, A, B, A], 1),  # one long shuttle counts once
        ([A, B, A, B, B, A, B, A], 2),  # staying put ends it; a new one starts
        ([A, B, A, B, C, B, C, B], 2),  # B-C-B-C after A-B-A-B
        ([A, A, A, A], 0),
        ([A, B, C, A, B, C], 0),
        ([A, B, None, A, B], 0),  # None: unknown or off the board
    ],
)
def test_count_shuttles(squares: list[Square | None], count: int) -> None:
    assert quality.count_shuttles(squares) == count


def test_shuttle_from_moved_events() -> None:
    assert quality.shuttles(walk([A, B, A, B]).entries) == 1
    assert quality.shuttles(walk([A, B, A, C]).entries) == 0


def test_a_turn_without_a_move_keeps_the_square() -> None:
    # B, then no move (still B), then A, B: B-B-A-B is no shuttle; from the start square A
    # the hero standing still on turn 1 then B, A, B is one.
    log = walk([B, None, A, B])
    assert quality.end_of_movement_squares(log, {"hero:a": A})["hero:a"] == [B, B, A, B]
    assert quality.shuttles(log.entries, {"hero:a": A}) == 0
    assert quality.shuttles(walk([None, B, A, B]).entries, {"hero:a": A}) == 1
    assert quality.shuttles(walk([None, B, A, B]).entries) == 0  # turn 1 square unknown


def test_only_the_last_square_of_the_movement_step_counts() -> None:
    log = Log()
    log.ev(1, "turn_start", "adventure.started", heroes=["hero:a"])
    for turn, end in enumerate([A, B, A, B], start=1):
        log.ev(turn, "movement", "moved", actor="hero:a", to=list(C))  # passing through
        log.ev(turn, "movement", "moved", actor="hero:a", to=list(end))
    assert quality.shuttles(log.entries) == 1


def test_evasion_is_not_the_end_of_movement_but_moves_the_hero() -> None:
    log = Log()
    log.ev(1, "turn_start", "adventure.started", heroes=["hero:a"])
    log.ev(1, "movement", "moved", actor="hero:a", to=list(A))
    log.ev(1, "evasion", "moved", actor="hero:a", to=list(B))
    log.ev(3, "movement", "moved", actor="hero:a", to=list(C))
    squares = quality.end_of_movement_squares(log.entries)["hero:a"]
    assert squares == [A, B, C]  # turn 1 ends its movement on A; turn 2 starts on B


def test_a_hero_that_left_or_died_is_off_the_board() -> None:
    log = walk([A, B, A, B, A])
    log.ev(5, "movement", "hero.left", ["C-END-01"], hero="hero:a")
    assert quality.end_of_movement_squares(log)["hero:a"] == [A, B, A, B, None]
    died = walk([A, B, A])
    died.ev(3, "turn_end", "hero.died", ["C-DD-01"], hero="hero:a", at=list(A))
    died.ev(4, "turn_start", "turn.started", light=16)
    died.ev(4, "movement", "moved", actor="hero:b", to=list(B))
    assert quality.end_of_movement_squares(died)["hero:a"] == [A, B, A, None]


# -- goal-area trait tests -----------------------------------------------------------------

#  y=0: Cells (0,0) (1,0) | Hall (2,0) .. (6,0)
#  y=2: Crypt (0,2) .. (6,2), cut off by walls (nothing at y=1)
AREAS: dict[Square, str] = {(0, 0): "Cells", (1, 0): "Cells"}
AREAS.update({(x, 0): "Hall" for x in range(2, 7)})
AREAS.update({(x, 2): "Crypt" for x in range(7)})
BOARD = quality.Board(
    areas=AREAS,
    open_ground=frozenset(AREAS),
    starts={"hero:a": (0, 0), "hero:b": (3, 0), "hero:c": (6, 2)},
)
HEROES = ["hero:a", "hero:b", "hero:c"]
MOVEMENT = {"hero:a": 2, "hero:b": 2, "hero:c": 2}


def trait_roll(hero: str, outcome: str = "pass") -> Event:
    return roll_event(["C-EXPL-01"], hero, [4], outcome, target=4, trait="Agile")


def explore_turn(explorers: Sequence[str], tested: Sequence[str], *, light: int = 5) -> Log:
    log = Log()
    log.ev(1, "turn_start", "adventure.started", heroes=HEROES)
    log.ev(1, "turn_start", "turn.started", light=light)
    for hero in HEROES:
        log.ev(1, "explore", "explore.choice", ["C-EXPL-01"], hero=hero, explore=hero in explorers)
    log.ev(1, "explore", "text.read", ["C-EXPL-01"], area="Cells", text="A pilgrim in chains.")
    for hero in tested:
        log.add(1, "explore", trait_roll(hero))
    return log


def test_a_test_one_hero_took_while_another_could_have_joined() -> None:
    # b stands 1 square from the Cells (Movement 2 + 3); c is walled off in the Crypt.
    log = explore_turn(["hero:a"], ["hero:a"])
    [test] = quality.goal_tests(log, BOARD, {"Cells"}, MOVEMENT)
    assert test == quality.GoalTest(1, "Cells", ("hero:a",), explorers=1, could_join=2)
    assert test.short
    assert quality.short_goal_tests(log, BOARD, {"Cells"}, MOVEMENT) == 1


def test_no_shortfall_when_everyone_within_reach_explored() -> None:
    log = Log()
    log.ev(1, "turn_start", "adventure.started", heroes=HEROES)
    log.ev(1, "movement", "moved", actor="hero:b", to=[1, 0])  # b walks into the Cells
    for hero in ("hero:a", "hero:b"):
        log.ev(1, "explore", "explore.choice", hero=hero, explore=True)
    log.ev(1, "explore", "explore.choice", hero="hero:c", explore=False)
    log.add(1, "explore", trait_roll("hero:a"))
    log.add(1, "explore", trait_roll("hero:b", "fail"))
    [test] = quality.goal_tests(log, BOARD, {"Cells"}, MOVEMENT)
    assert test.tested == ("hero:a", "hero:b")  # both tests: one (turn, area)
    assert (test.explorers, test.could_join, test.short) == (2, 2, False)


def test_reach_counts_from_the_start_of_the_turn_and_the_movement() -> None:
    far = quality.Board(AREAS, BOARD.open_ground, {**BOARD.starts, "hero:b": (6, 0)})
    log = explore_turn(["hero:a"], ["hero:a"])
    # b: 5 squares from the Cells; Movement 1 + 3 Stamina falls short, 2 + 3 reaches.
    assert quality.goal_tests(log, far, {"Cells"}, {**MOVEMENT, "hero:b": 1})[0].could_join == 1
    assert quality.goal_tests(log, far, {"Cells"}, MOVEMENT)[0].could_join == 2
    # At Light 0, Movement takes -1 (C-LIGHT-02).
    dark = explore_turn(["hero:a"], ["hero:a"], light=0)
    assert quality.goal_tests(dark, far, {"Cells"}, MOVEMENT)[0].could_join == 1


def test_a_closed_door_blocks_reach_until_it_is_opened() -> None:
    door = (2, 0)
    shut = quality.Board(AREAS, BOARD.open_ground - {door}, BOARD.starts)
    log = explore_turn(["hero:a"], ["hero:a"])
    assert quality.goal_tests(log, shut, {"Cells"}, MOVEMENT)[0].could_join == 1
    opened = Log()
    opened.ev(1, "movement", "door.opened", ["C-DOOR-01"], door=list(door), by="hero:b")
    opened.entries.extend(explore_turn(["hero:a"], ["hero:a"]).entries)
    assert quality.goal_tests(opened, shut, {"Cells"}, MOVEMENT)[0].could_join == 2


def test_without_movement_every_living_hero_on_the_board_counts() -> None:
    log = explore_turn(["hero:a"], ["hero:a"])
    assert quality.goal_tests(log, BOARD, {"Cells"})[0].could_join == 3
    gone = Log()
    gone.ev(1, "turn_start", "adventure.started", heroes=HEROES)
    gone.ev(1, "movement", "hero.left", hero="hero:c")
    gone.ev(1, "explore", "hero.died", hero="hero:b", at=[3, 0])
    gone.entries.extend(explore_turn(["hero:a"], ["hero:a"]).entries[1:])
    assert quality.goal_tests(gone, BOARD, {"Cells"})[0].could_join == 1


def test_a_hero_in_the_area_who_stayed_put_could_have_joined() -> None:
    board = quality.Board(AREAS, BOARD.open_ground, {**BOARD.starts, "hero:b": (1, 0)})
    log = explore_turn(["hero:a"], ["hero:a"])
    test = quality.goal_tests(log, board, {"Cells"}, MOVEMENT)[0]
    assert (test.explorers, test.could_join) == (1, 2)


def test_only_trait_tests_in_goal_areas_count() -> None:
    log = explore_turn(["hero:a"], [])
    log.add(1, "explore", roll_event(["C-TRAP-02"], "hero:a", [2], "fail"))  # text detect
    log.add(1, "explore", trait_roll("hero:b"))  # b is in the Hall, not a goal area
    assert quality.goal_tests(log, BOARD, {"Cells"}, MOVEMENT) == []
    assert len(quality.goal_tests(log, BOARD, {"Hall"}, MOVEMENT)) == 1
    untested = explore_turn(["hero:a"], [])
    untested.ev(
        1, "explore", "trait.tested", ["C-EXPL-01"], hero="hero:a", trait="Strong", passed=True
    )
    assert len(quality.goal_tests(untested, BOARD, {"Cells"}, MOVEMENT)) == 1


def test_tests_on_two_turns_are_two() -> None:
    log = explore_turn(["hero:a"], ["hero:a"])
    log.ev(2, "turn_start", "turn.started", light=4)
    log.ev(2, "explore", "explore.choice", hero="hero:a", explore=True)
    log.add(2, "explore", trait_roll("hero:a"))
    tests = quality.goal_tests(log, BOARD, {"Cells"}, MOVEMENT)
    assert [(t.turn, t.explorers) for t in tests] == [(1, 1), (2, 1)]


# -- fights at Light 0 -----------------------------------------------------------------------


def fight(modifiers: dict[str, int]) -> Event:
    return fight_event(
        rules=["C-FIGHT-04"],
        hero="hero:a",
        monster="monster:orc-1",
        hero_score=3,
        monster_score=3,
        hero_modifiers=modifiers,
        monster_modifiers={"light": -1},  # only the hero's side counts
        hero_dice=(3, 4),
        monster_dice=(2, 2),
        hero_stamina=0,
        monster_stamina=0,
        winner="hero",
    )


def test_light_zero_fights() -> None:
    log = Log()
    log.add(1, "fighting", fight({"light": -1}))
    log.add(1, "fighting", fight({"enemies": -1, "light": -1}))
    log.add(1, "fighting", fight({"enemies": -1}))
    log.add(1, "fighting", fight({}))
    log.add(
        1,
        "fighting",
        roll_event(["C-SURP-01"], "hero:a", [2], "surprised", modifiers={"light": -1}),
    )
    assert quality.light_zero_fights(log) == (2, 4)
    assert quality.light_zero_fights([]) == (0, 0)


# -- healing carried out unused --------------------------------------------------------------

HEALING = {"healing-draught": 1, "big-flask": 2}


def header(**items: list[str]) -> Header:
    actors = tuple(Actor(f"hero:{h}", "hero", {"items": cards}) for h, cards in items.items())
    return Header("crawl", "test", 0, "test", {}, actors)


def ended(escaped: list[str], dead: list[str]) -> dict[str, Any]:
    return {"outcome": "escaped", "escaped": escaped, "dead": dead}


def test_healing_left_needs_a_death() -> None:
    head = header(a=["healing-draught", "oaken-shield"], b=[])
    assert quality.healing_items_left(head, [], ended(["hero:a", "hero:b"], []), HEALING) == 0
    died = Log()
    died.ev(9, "turn_end", "hero.died", hero="hero:b", at=[1, 1])
    assert (
        quality.healing_items_left(head, died.entries, ended(["hero:a"], ["hero:b"]), HEALING) == 1
    )


def test_healing_used_traded_found_rescued_eaten() -> None:
    head = header(a=["healing-draught"], b=["oaken-shield", "healing-draught"])  # item-1, item-3
    summary = ended(["hero:a"], ["hero:b"])
    log = Log()
    log.ev(
        2, "explore", "item.found", hero="hero:a", item="item-4", card="big-flask", identified=False
    )
    log.ev(3, "explore", "item.used", hero="hero:a", item="item-4", card="big-flask", blind=True)
    log.ev(4, "turn_end", "hero.died", hero="hero:b", at=[1, 1])
    # item-4 has a use left; item-1 and b's item-3 (on its corpse) not held by an escapee.
    assert quality.healing_items_left(head, log.entries, summary, HEALING) == 2
    used = Log()
    used.entries.extend(log.entries)
    used.ev(
        5,
        "movement",
        "item.used",
        hero="hero:a",
        item="item-1",
        card="healing-draught",
        blind=False,
    )
    assert quality.healing_items_left(head, used.entries, summary, HEALING) == 1
    rescued = Log()
    rescued.entries.extend(log.entries)
    rescued.ev(6, "movement", "corpse.rescued", ["C-DEATH-03"], hero="hero:a", corpse="hero:b")
    assert quality.healing_items_left(head, rescued.entries, summary, HEALING) == 3
    looted = Log()
    looted.entries.extend(log.entries)
    looted.ev(5, "trade", "item.traded", giver="hero:b", receiver="hero:a", item="item-3")
    assert quality.healing_items_left(head, looted.entries, summary, HEALING) == 3
    given = Log()
    given.ev(1, "trade", "item.traded", giver="hero:a", receiver="hero:b", item="item-1")
    given.entries.extend(log.entries)
    given.ev(6, "turn_start", "corpse.eaten", corpse="hero:b", items=2)
    assert quality.healing_items_left(head, given.entries, summary, HEALING) == 1  # item-4
    # Not a healing card: nothing counts.
    assert quality.healing_items_left(head, log.entries, summary, {"other": 1}) == 0


def test_held_items_numbers_the_starting_items_in_header_order() -> None:
    held = quality.held_items(header(a=["x", "y"], b=["z"]), [])
    assert {uid: (h.holder, h.card) for uid, h in held.items()} == {
        "item-1": ("hero:a", "x"),
        "item-2": ("hero:a", "y"),
        "item-3": ("hero:b", "z"),
    }


# -- spells with no target -------------------------------------------------------------------


def test_no_target_fizzles() -> None:
    log = Log()
    for hero in ("hero:a", "hero:b", "hero:c"):
        log.ev(
            2,
            "spell_selection",
            "casting.begun",
            ["C-CMB-01"],
            hero=hero,
            spell="ember-dart",
            overcast=False,
        )
    log.ev(
        2,
        "casting",
        "spell.fizzled",
        ["C-CMB-01"],
        hero="hero:a",
        spell="ember-dart",
        reason="no target",
    )
    log.ev(
        2,
        "casting",
        "spell.fizzled",
        ["C-SPELL-03"],
        hero="hero:b",
        spell="ember-dart",
        reason="magic",
    )
    log.ev(
        2,
        "casting",
        "spell.cast",
        hero="hero:c",
        spell="ember-dart",
        overcast=False,
        target=None,
        magic=1,
    )
    assert quality.no_target_fizzles(log) == (1, 3)


# -- the benchmark ---------------------------------------------------------------------------


def test_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        bench = importlib.import_module("ai_quality")
    finally:
        sys.path.remove(str(BENCHMARKS))
    out = tmp_path / "quality.json"
    policies = "basic,nobody,careful[jump=0],careful[zzz=1]"
    args = ["--seeds", "2", "--adventure", "greyhollow-cellars", "--policies", policies]
    assert bench.main([*args, "--dm", "basic", "--json", str(out)]) == 0
    printed = capsys.readouterr()
    assert "| greyhollow-cellars | brenna,corvin,ysolde,mirela | basic | 2 |" in printed.out
    # A registered policy with knobs is measured like any other (a designer's variant).
    assert "| greyhollow-cellars | brenna,corvin,ysolde,mirela | careful[jump=0] | 2 |" in (
        printed.out
    )
    assert "skipping policy 'nobody'" in printed.err
    assert "skipping policy 'careful[zzz=1]': careful: no knob 'zzz'" in printed.err
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert [(r["party"], r["policy"], r["games"]) for r in figures["rows"]] == [
        ("brenna,garrick,durn,sable", "basic", 2),
        ("brenna,garrick,durn,sable", "careful[jump=0]", 2),
        ("brenna,corvin,ysolde,mirela", "basic", 2),
        ("brenna,corvin,ysolde,mirela", "careful[jump=0]", 2),
    ]
    assert figures["skipped"] == ["nobody", "careful[zzz=1]"]
