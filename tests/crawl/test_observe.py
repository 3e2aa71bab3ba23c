"""The hidden-information contract: what the heroes' seat may and may not see."""

from __future__ import annotations

import pytest
from crawl_kit import board, ruleset, start

from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import new_game
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import AREA_KEY, UNKNOWN, MonsterSeen, View, observe
from undercroft.crawl.reveal import spawn
from undercroft.crawl.ruleset import Goal
from undercroft.crawl.state import State

LAYOUT = board(
    """
    ##########
    #ab.t#...#
    #....+.o.#
    ##########
    """,
    """
    ##########
    #HHHH#VVV#
    #HHHH#VVV#
    ##########
    """,
    {"H": AreaInfo("Hall"), "V": AreaInfo("Vault")},
)


def game() -> State:
    rules = ruleset(LAYOUT, starts=("a", "b"), placements=[("orc", "o")], traps={"t": "pit"})
    state, _ = start(rules, ["ana", "dell"])
    dell = state.heroes["hero:dell"]
    dell.items.append(state.new_item("tonic"))  # found face down
    return state


@pytest.mark.rule("C-TRAP-01", "C-IDENT-01")
def test_the_heroes_see_no_hidden_trap_room_monster_or_item() -> None:
    state = game()
    heroes = observe(state, Seat.HEROES)
    dm = observe(state, Seat.DM)
    assert [t["at"] for t in heroes.traps] == []  # undetected
    assert [t["at"] for t in dm.traps] == [[4, 1]]
    rows = heroes.board.split("\n")
    assert rows[1][6:9] == UNKNOWN * 3 and rows[2][6:9] == UNKNOWN * 3  # unrevealed Vault
    assert dm.board.split("\n")[2][6:9] == "..."
    assert heroes.monsters == () and "Vault" not in heroes.revealed
    (tonic,) = [
        i
        for h in heroes.heroes
        if h["id"] == "hero:dell"
        for i in h["items"]
        if i["kind"] == "potion"
    ]
    assert tonic["card"] is None and tonic["name"] == "unidentified potion"
    (dm_tonic,) = [
        i for h in dm.heroes if h["id"] == "hero:dell" for i in h["items"] if i["kind"] == "potion"
    ]
    assert dm_tonic["card"] == "tonic"


@pytest.mark.rule("C-TRAP-01")
def test_a_detected_trap_becomes_visible_to_the_heroes() -> None:
    state = game()
    state.traps[Pos(4, 1)].detected = True
    assert [t["at"] for t in observe(state, Seat.HEROES).traps] == [[4, 1]]


def test_legal_actions_are_given_only_to_the_seat_to_act() -> None:
    state = game()
    assert state.current_player() is Seat.HEROES
    assert observe(state, Seat.HEROES).legal == tuple(state.legal_actions())
    assert observe(state, Seat.DM).legal == ()


@pytest.mark.rule("C-TURN-04")
def test_the_area_map_shows_the_revealed_areas_and_nothing_else() -> None:
    state = game()
    heroes = observe(state, Seat.HEROES)
    assert heroes.revealed == ("Hall",)
    hall = chr(AREA_KEY)
    assert heroes.area_map.split("\n") == [
        " " * 10,
        f" {hall * 4}     ",
        f" {hall * 4}     ",
        " " * 10,
    ]
    state.revealed.add("Vault")  # as if the door had been opened
    seen = observe(state, Seat.HEROES)
    assert seen.revealed == ("Hall", "Vault")
    vault = chr(AREA_KEY + 1)
    assert seen.area_map.split("\n")[2] == f" {hall * 4} {vault * 3} "


def test_every_seat_reads_the_adventures_introduction() -> None:
    """The introduction is read to the whole table before the first turn: both seats'
    views carry it, word for word, in the typed view and in the JSON form."""
    rules = default_pack().ruleset("bone-priest")
    state = new_game(rules, ["brenna", "garrick", "durn", "sable"])
    for seat in (Seat.HEROES, Seat.DM):
        assert observe(state, seat).intro == rules.adventure.intro
        assert View(state, seat).intro == rules.adventure.intro
        assert observe(state, seat).to_json()["intro"] == rules.adventure.intro
    assert "ossuary behind the chapel" in observe(state, Seat.HEROES).intro
    assert observe(game(), Seat.HEROES).intro == ""  # a scenario with none


@pytest.mark.rule("C-MON-03")
def test_the_heroes_are_told_which_revealed_areas_are_corridors() -> None:
    """A patrol roll follows a turn ended in a corridor, so a player sees which areas are
    corridors, once they are revealed and never before."""
    layout = board(
        """
        ##########
        #ab.#....#
        #...+....#
        ##########
        """,
        """
        ##########
        #CCC#RRRR#
        #CCC#RRRR#
        ##########
        """,
        {"C": AreaInfo("Passage", "corridor"), "R": AreaInfo("Crypt", "corridor")},
    )
    state, _ = start(ruleset(layout, starts=("a", "b")), ["ana", "dell"])
    assert observe(state, Seat.HEROES).corridors == ("Passage",)
    assert View(state, Seat.HEROES).corridors == ("Passage",)
    state.revealed.add("Crypt")  # as if the door had been opened
    assert observe(state, Seat.HEROES).corridors == ("Crypt", "Passage")
    assert observe(state, Seat.HEROES).to_json()["corridors"] == ["Crypt", "Passage"]
    # A room is not named.
    assert observe(game(), Seat.HEROES).corridors == ()


@pytest.mark.rule("C-END-01")
def test_the_goals_the_heroes_see_name_their_targets() -> None:
    goals = (
        Goal("relic", "Carry out the gem.", "carry", "gem"),
        Goal("orc", "Slay the orc.", "slay", "orc"),
        Goal("vault", "Search the vault.", "visit", "Vault"),
    )
    rules = ruleset(LAYOUT, starts=("a", "b"), placements=[("orc", "o")], goals=goals)
    state, _ = start(rules, ["ana", "dell"])
    dell = state.heroes["hero:dell"]
    dell.items.append(state.new_item("gem"))  # treasure is always face up
    views = observe(state, Seat.HEROES).goals
    assert [(g["id"], g["kind"], g["target"], g["met"], g["in_hand"]) for g in views] == [
        ("relic", "carry", "gem", False, True),
        ("orc", "slay", "orc", False, False),
        ("vault", "visit", "Vault", False, False),
    ]


@pytest.mark.rule("C-LOS-01", "C-TURN-04", "R-C-MON-06")
def test_a_monster_on_board_not_uncovered_is_out_of_the_heroes_sight() -> None:
    state = game()
    orc = spawn(state, "orc", Pos(6, 1), None)  # in the Vault, behind the shut door
    assert [m["id"] for m in observe(state, Seat.DM).monsters] == [orc.id]
    assert observe(state, Seat.HEROES).monsters == ()
    assert View(state, Seat.HEROES).monsters_seen() == ()
    # The Vault's tiles laid on the table: the orc on them is seen by all, though no
    # hero sees its square through the shut door.
    state.revealed.add("Vault")
    assert [(m["id"], m["pos"]) for m in observe(state, Seat.HEROES).monsters] == [(orc.id, [6, 1])]
    assert View(state, Seat.HEROES).monsters_seen() == (MonsterSeen(orc.id, Pos(6, 1), 3),)
