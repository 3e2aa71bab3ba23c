"""The hidden-information contract for monsters out of the heroes' sight (R-C-MON-06).

A monster on a square the heroes' board shows (a revealed area, or a square a hero sees
now) is on the table; one anywhere else is not seen. Two properties over random games on
the shipped adventures, with a DM that walks monsters anywhere (random), so that they
often stand where the heroes have not looked:

* swap: at every decision where some monster stands out of the heroes' sight, moving it
  to another square their board does not show changes nothing the heroes' seat sees
  (the observation, legal actions included, and the lazy view's monsters);
* agreement: the heroes' log, followed line by line, shows at every decision exactly the
  monsters the heroes' observation shows, where it shows them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.events import CrawlTime, Event, EventLog, LogEntry, log_from_text
from undercroft.core.grid import DoorState, Pos, Terrain
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import View, known_squares, observe, observe_entries
from undercroft.crawl.runner import header_of, play, seat_policies
from undercroft.crawl.sightings import HIDDEN, SEEN, Sightings
from undercroft.crawl.state import State

PACK = default_pack()
PARTY = list(PACK.heroes)[:4]
SEEDS = range(10)
"""Ten games: since careful stopped shuttling (``steady``), its heroes wander less near
monsters out of sight, and seeds 0-5 alone hold 75 such decisions, short of the 150."""
MAX_DECISIONS = 1500


def unseen_squares(state: State) -> list[Pos]:
    """Free squares a monster could stand on that the heroes' board does not show."""
    known = known_squares(state)
    taken = state.occupied() | {p for p, t in state.traps.items() if t.armed}
    rows = state.walk_rows()
    return [
        Pos(x, y)
        for y, row in enumerate(rows)
        for x, walkable in enumerate(row)
        if walkable and not known[y, x] and Pos(x, y) not in taken
    ]


def swap_holds(state: State, swap: DiceSampler) -> int:
    """Move each unseen monster of a copy to another unseen square; the heroes' seat
    sees the same. Returns the number of swaps checked."""
    seen = observe(state, Seat.HEROES)
    shown = {m["id"] for m in seen.monsters}
    hidden = [m for m in state.monsters.values() if m.id not in shown]
    squares = unseen_squares(state)
    checked = 0
    for monster in hidden:
        twin = state.clone()
        twin.monsters[monster.id].pos = swap.choose(squares) if squares else monster.pos
        assert observe(twin, Seat.HEROES) == seen, (
            f"turn {state.turn}, {state.step}: moving unseen {monster.id} from "
            f"{monster.pos} changed the heroes' observation"
        )
        assert View(twin, Seat.HEROES).monsters_seen() == View(state, Seat.HEROES).monsters_seen()
        checked += 1
    return checked


def play_checked(adventure: str, seed: int) -> Counter[str]:
    """A game with careful heroes and a random DM, checking both properties at every
    decision; returns what was checked."""
    rules = PACK.ruleset(adventure)
    state = State(rules, PARTY)
    log = EventLog(header_of(state, seed, adventure, {}))
    state.sink = log
    state.start()
    sightings = Sightings.of_log(rules.adventure, log.header)
    dice, swap = DiceSampler(seed), DiceSampler(derive_seed(seed, 9))
    policies = seat_policies(seed, heroes="careful", dm="random")
    told = 0
    counts: Counter[str] = Counter()
    for _ in range(MAX_DECISIONS):
        if state.is_terminal():
            break
        seat = state.current_player()
        action: Action
        if seat is Seat.CHANCE:
            assert state.pending is not None
            action = Roll(dice.roll(state.pending.args["dice"]))
        else:
            assert seat is not None
            lines = observe_entries(log.entries[told:], Seat.HEROES, 0, sightings)
            counts.update(e.event.type for e in lines if e.event.type in (SEEN, HIDDEN))
            told = len(log.entries)
            seen = {m["id"]: m["pos"] for m in observe(state, Seat.HEROES).monsters}
            assert {m: [p.x, p.y] for m, p in sightings.shown.items()} == seen, (
                f"seed {seed}, turn {state.turn}, {state.step}: the heroes' log and "
                "observation disagree on the monsters in sight"
            )
            counts["decisions"] += 1
            counts["swaps"] += swap_holds(state, swap)
            action = policies[seat].act(observe(state, seat))
        state.apply(action)
    return counts


@pytest.mark.rule("C-LOS-01", "C-TURN-04", "C-CMB-01", "R-C-MON-06")
def test_where_an_unseen_monster_stands_changes_nothing_the_heroes_see() -> None:
    seen: Counter[str] = Counter()
    adventures = PACK.campaign_order()
    for seed in SEEDS:
        seen += play_checked(adventures[seed % len(adventures)], seed)
    # The games went through the moments that matter: many decisions with a monster out
    # of sight, and monsters leaving and coming back into sight in the heroes' log.
    assert seen["swaps"] >= 150, seen
    assert seen[HIDDEN] >= 10 and seen[SEEN] >= 10, seen


@pytest.mark.rule("C-LOS-01", "C-TURN-04", "C-MON-03", "R-C-MON-06")
def test_a_rat_that_runs_into_an_unrevealed_passage_is_not_followed() -> None:
    # Greyhollow, seed 2, random DM: in turn 3 a patrol's giant rat runs from the South
    # Gallery to [13, 18] in the Low East Passage, which no hero has seen yet; in turn 4
    # Brenna steps to [11, 22] and sees it there.
    rules = PACK.ruleset("greyhollow-cellars")
    result = play(rules, PARTY, seed=2, dm="random")
    assert result.log is not None
    rat = "monster:giant-rat-4"
    ran = {"monster": rat, "to": [13, 18], "squares": 5, "stamina": 0}
    full = [(e.event.type, dict(e.event.fields)) for e in result.log.entries]
    assert ("monster.moved", ran) in full  # the DM's log holds the truth
    sightings = Sightings.of_log(rules.adventure, result.log.header)
    heroes = observe_entries(result.log.entries, Seat.HEROES, 0, sightings)
    told = [(e.event.type, dict(e.event.fields)) for e in heroes]
    about_rat = [
        (e.time.to_json(), t, f)
        for e, (t, f) in zip(heroes, told, strict=True)
        if f.get("monster") == rat
    ]
    assert [(time, t) for time, t, _ in about_rat[:3]] == [
        ({"turn": 3, "step": "turn_start"}, "monster.appeared"),
        ({"turn": 3, "step": "monster_movement"}, HIDDEN),
        ({"turn": 4, "step": "movement"}, SEEN),
    ]
    assert about_rat[1][2] == {"monster": rat}  # not where it went
    assert about_rat[2][2] == {"monster": rat, "kind": "giant-rat", "at": [13, 18]}
    seen = told.index((SEEN, about_rat[2][2]))
    assert told[seen - 1] == ("moved", {"actor": "hero:brenna", "to": [11, 22]})
    assert told[seen + 1] == ("area.revealed", {"area": "Low East Passage", "kind": "corridor"})
    assert ("monster.moved", ran) not in told


@pytest.mark.rule("C-EXPL-01", "R-C-MON-06")
def test_the_doors_of_a_revealed_secret_area_are_on_the_heroes_board_in_their_log() -> None:
    # The heroes' board knows a revealed secret area's doors with it (known_squares): the
    # log's sightings must too, or a monster standing in the Ossuary's doorway is on the
    # table for the observation and not in the heroes' log (found in a Bone Priest game,
    # careful heroes against a random DM, seed 1, with ``careful[seek=1]``).
    rules = PACK.ruleset("bone-priest")
    doorway = Pos(5, 2)  # the Ossuary's secret door (the Chapel's text reveals it)
    sightings = Sightings(rules.adventure, PARTY)
    assert not sightings.shows(doorway.x, doorway.y)
    found = Event("secret.revealed", ("C-EXPL-01",), {"area": "Ossuary", "doors": [[5, 2]]})
    sightings.follow(LogEntry(0, CrawlTime(1, "explore"), found))
    assert sightings.shows(doorway.x, doorway.y)
    # The same square on the heroes' board of a game where the Ossuary is revealed.
    state = State(rules, PARTY)
    state.start()
    state.grid.set_terrain(doorway, Terrain.DOOR, DoorState.OPEN)
    state.opened_squares.append(doorway)
    state.revealed.add("Ossuary")
    assert known_squares(state)[doorway.y, doorway.x]


@pytest.mark.rule("R-C-MON-06")
def test_the_heroes_log_with_its_sightings_reads_back() -> None:
    # The heroes' log (the web's GET .../log, a replay of the heroes' seat) holds the
    # view-only monster.hidden and monster.seen lines: reading it back must accept them.
    rules = PACK.ruleset("greyhollow-cellars")
    result = play(rules, PARTY, seed=2, dm="random")
    assert result.log is not None
    sightings = Sightings.of_log(rules.adventure, result.log.header)
    heroes = observe_entries(result.log.entries, Seat.HEROES, 0, sightings)
    text = EventLog(result.log.header, heroes, result.log.summary).text()
    back = log_from_text(text, "heroes.jsonl")
    types = {e.event.type for e in back.entries}
    assert {HIDDEN, SEEN} <= types
    assert len(back.entries) == len(heroes)
