"""The heuristic party pursues the goals it is shown (C-END-01), from its observation only.

Scripted boards: a visit goal in a room the party can see, a named foe in sight of a hero
standing on the exit, an item to find and carry out. Each test looks at the decisions the
policy makes from an observation, then plays the game out with the built-in policies.
"""

from __future__ import annotations

import pytest
from crawl_kit import board, ruleset, start

from undercroft.agents.basic_party import HeroParty
from undercroft.core.dice import DiceSampler
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import EndMovement, Leave, Move, TakeItem
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.ruleset import Goal, RoomText, Ruleset
from undercroft.crawl.runner import play

# Two halls joined by an open doorway at (6, 1); the heroes start at a and b in the west
# hall, on its exit e. The east hall is in sight through the doorway from the start.
HALLS = board(
    """
    ############
    #ea....'...#
    #b.....#...#
    ############
    """,
    """
    ############
    #WWWWWW.EEE#
    #WWWWWW#EEE#
    ############
    """,
    {"W": AreaInfo("West Hall"), "E": AreaInfo("Shrine")},
)


GEM = Goal("gem", "Carry the gem out.", "carry", "gem")
HOARD = RoomText("Shrine", "A gem on the altar.", (fx.GiveItem(item="gem"),))


def first_move(rules: Ruleset, party: list[str]) -> object:
    state, _ = start(rules, party)
    return HeroParty(DiceSampler(0)).act(observe(state, Seat.HEROES))


# -- visit: go to the goal's area, explore it, do the deed -----------------------------------

SHRINE = Goal("shrine", "Pray at the shrine.", "visit", "Shrine")
ALTAR = RoomText(
    "Shrine",
    "An altar, and a bell to ring.",
    (
        fx.Choice(
            options=(
                fx.Option(label="Ring the bell and pray", effects=(fx.Goal(goal="shrine"),)),
                fx.Option(label="Leave it be", effects=()),
            )
        ),
    ),
)


def shrine_rules() -> Ruleset:
    return ruleset(HALLS, starts=("a",), exits=("e",), room_texts=[ALTAR], goals=[SHRINE])


@pytest.mark.rule("C-END-01", "C-EXPL-01")
def test_the_party_walks_to_the_goals_area() -> None:
    move = first_move(shrine_rules(), ["ana"])
    assert isinstance(move, Move) and move.hero == "hero:ana"
    assert move.path[-1] == Pos(6, 1)  # 4 squares of ana's 4, straight for the doorway
    # With no goal there, ana would first explore the hall she stands in.
    gem = ruleset(HALLS, starts=("a",), exits=("e",), goals=[GEM])
    assert first_move(gem, ["ana"]) == EndMovement("hero:ana")


@pytest.mark.rule("C-END-01", "C-EXPL-01")
@pytest.mark.parametrize("seed", range(3))
def test_the_party_explores_the_goals_area_does_the_deed_and_wins(seed: int) -> None:
    result = play(shrine_rules(), ["ana"], seed=seed)
    summary = result.state.summary()
    assert (summary["outcome"], summary["won"], summary["goals_met"]) == (
        "escaped",
        True,
        ["shrine"],
    )
    assert result.log is not None
    chosen = [e.event.fields["label"] for e in result.log.entries if e.event.type == "choice.made"]
    assert chosen == ["Ring the bell and pray"]


# -- slay: the named foe is fought, and the party stays until it is -----------------------


@pytest.mark.rule("C-END-01", "C-FIGHT-01")
def test_the_party_goes_for_the_named_foe_rather_than_leave() -> None:
    grid = board(
        """
        ##########
        #ea.....r#
        ##########
        """,
        """
        ##########
        #PPPPPPPP#
        ##########
        """,
        {"P": AreaInfo("Passage", "corridor")},
    )
    slay = Goal("rat", "Kill the rat.", "slay", "rat")
    hunt = ruleset(grid, starts=("e", "a"), exits=("e",), placements=[("rat", "r")], goals=[slay])
    move = first_move(hunt, ["ana"])  # ana stands on the exit
    assert isinstance(move, Move) and move.path == (Pos(2, 1), Pos(3, 1), Pos(4, 1), Pos(5, 1))
    carried = ruleset(
        grid,
        starts=("e",),
        exits=("e",),
        placements=[("rat", "r")],
        goals=[Goal("gem", "Carry out the gem.", "carry", "gem")],
    )
    state, _ = start(carried, ["ana"])
    state.heroes["hero:ana"].items.append(state.new_item("gem"))
    policy = HeroParty(DiceSampler(0))
    assert policy.act(observe(state, Seat.HEROES)) == Leave("hero:ana")  # goal in hand
    result = play(hunt, ["ana", "bram"], seed=1)
    summary = result.state.summary()
    assert (summary["won"], summary["goals_met"], summary["escaped"]) == (
        True,
        ["rat"],
        ["hero:ana", "hero:bram"],
    )


# -- carry: find the item, pick it up, carry it out -----------------------------------------


@pytest.mark.rule("C-END-01", "C-EXPL-01")
@pytest.mark.parametrize("seed", range(3))
def test_the_party_finds_picks_up_and_carries_out_the_item(seed: int) -> None:
    rules = ruleset(HALLS, starts=("a", "b"), exits=("e",), room_texts=[HOARD], goals=[GEM])
    result = play(rules, ["ana", "bram"], seed=seed)
    assert result.log is not None
    read = [e.event.fields["area"] for e in result.log.entries if e.event.type == "text.read"]
    found = [e.event.fields["card"] for e in result.log.entries if e.event.type == "item.found"]
    summary = result.state.summary()
    assert read == ["Shrine"] and found == ["gem"]  # the party went in and explored it
    assert (summary["won"], summary["goals_met"], summary["treasure"]) == (True, ["gem"], 50)
    assert summary["escaped"] == ["hero:ana", "hero:bram"]


@pytest.mark.rule("C-EXPL-01")
def test_the_healthiest_explorer_takes_a_found_item() -> None:
    state, _ = start(ruleset(HALLS, starts=("a", "b")), ["ana", "bram"])
    state.heroes["hero:ana"].health = 2
    state.ask(Seat.HEROES, "take_item", item="item-9", takers=["hero:ana", "hero:bram"])
    policy = HeroParty(DiceSampler(0))
    assert policy.act(observe(state, Seat.HEROES)) == TakeItem("hero:bram")
    # An item that is in play: the heroes are told its deck, the card only face up.
    found = state.new_item(next(iter(state.ruleset.items)))
    state.ask(Seat.HEROES, "take_item", item=found, takers=["hero:ana", "hero:bram"])
    context = observe(state, Seat.HEROES).context
    assert context is not None and context["kind"] == "take_item"
    assert context["takers"] == ["hero:ana", "hero:bram"]
    assert policy.act(observe(state, Seat.HEROES)) == TakeItem("hero:bram")
