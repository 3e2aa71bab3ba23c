"""Spells and scrolls (C-SPELL-01 to C-SPELL-07) and when combat spells are paid for
(C-CMB-01 step 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import pytest
from combat_kit import advance, events, fight, waiting_for, with_content
from crawl_kit import board, hero, roll, ruleset, start

from undercroft.core.events import EventLog
from undercroft.core.grid import AreaInfo, Grid, Pos
from undercroft.crawl import State
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import (
    BeginCasting,
    Cast,
    CastingChoice,
    ChooseTarget,
    Done,
    Evade,
    Memorize,
    OpenDoor,
    Rest,
)
from undercroft.crawl.ruleset import (
    CastingTime,
    HeroProfile,
    ItemCard,
    ItemKind,
    Options,
    Ruleset,
    SpellCard,
    Targeting,
    Trait,
)
from undercroft.render.narrate import narrate

# The caster at a, a monster four squares off in plain sight (no fight).
HALL = board(
    """
    ########
    #a...o.#
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

# The caster between two monsters: two fights.
FLANKED = board(
    """
    #######
    #.....#
    #.pao.#
    #.....#
    #######
    """
)

SPARK = SpellCard(
    "spark", "Spark", 1, CastingTime.COMBAT, Targeting.MONSTER, 3, (fx.SlayMonster(amount=1),)
)
BLAST = SpellCard(
    "blast", "Blast", 3, CastingTime.COMBAT, Targeting.MONSTER, 4, (fx.SlayMonster(amount=5),)
)
SCROLLS = {
    "glow-scroll": ItemCard("glow-scroll", "Scroll of Glow", ItemKind.SCROLL, spell="glow"),
    "blast-scroll": ItemCard("blast-scroll", "Scroll of Blast", ItemKind.SCROLL, spell="blast"),
}


def mage(spells: list[str], items: Sequence[str] = (), magic: int = 3) -> dict[str, HeroProfile]:
    """Dell (Learned) with the given spells, items and base Magic."""
    return {"dell": hero("dell", traits=[Trait.LEARNED], magic=magic, spells=spells, items=items)}


def rules_with(
    grid: Grid, spells: list[str], items: Sequence[str] = (), magic: int = 3, **kw: Any
) -> Ruleset:
    return with_content(
        ruleset(grid, **kw),
        heroes=mage(spells, items, magic),
        spells={"spark": SPARK, "blast": BLAST},
        items=SCROLLS,
    )


def scroll_of(state: State, hero_id: str, card: str) -> str:
    return next(u for u in state.heroes[hero_id].items if state.items[u].card == card)


# -- C-SPELL-01: scrolls -------------------------------------------------------------------


@pytest.mark.rule("C-SPELL-01", "C-CMB-01")
def test_casting_from_a_scroll_costs_no_magic_and_destroys_the_scroll() -> None:
    rules = with_content(
        ruleset(HALL, placements=[("orc", "o")]),
        heroes={"ana": hero("ana", items=["bolt-scroll"])},  # Magic 0
    )
    state, log = start(rules, ["ana"])
    uid = state.heroes["hero:ana"].items[0]
    advance(state, "spell_selection")
    assert BeginCasting("hero:ana", "bolt", uid) in state.legal_actions()
    state.apply(BeginCasting("hero:ana", "bolt", uid))
    advance(state, "cast_target")
    state.apply(ChooseTarget("hero:ana", "monster:orc-1"))
    ana = state.heroes["hero:ana"]
    assert ana.magic == 0 and ana.items == []
    assert state.monsters["monster:orc-1"].health == 1
    [cast] = events(log, "spell.cast")
    assert cast["spell"] == "bolt" and cast["magic"] == 0
    assert "C-SPELL-01" in cast["rules"]


@pytest.mark.rule("C-SPELL-01", "C-SPELL-02")
def test_memorizing_destroys_the_scroll_and_the_spell_is_then_known() -> None:
    state, log = start(rules_with(HALL, ["bolt"], ["mend-scroll"]), ["dell"])
    uid = state.heroes["hero:dell"].items[0]
    advance(state, "explore_actions")
    assert Memorize("hero:dell", uid) in state.legal_actions()
    state.apply(Memorize("hero:dell", uid))
    dell = state.heroes["hero:dell"]
    assert dell.spells == ["bolt", "mend"] and dell.items == []
    [event] = events(log, "spell.memorized")
    assert (event["spell"], event["forgot"]) == ("mend", [])
    # Known from now on: cast in a later Movement step by paying its level in Magic.
    advance(state, "movement", 3)
    state.apply(Cast("hero:dell", "mend", None, False, "hero:dell"))
    assert dell.magic == 1


# -- C-SPELL-02: memorizing ----------------------------------------------------------------


@pytest.mark.rule("C-SPELL-02", "R-C-SPELL-01")
def test_a_full_memory_forgets_a_spell_of_the_heros_choice_to_make_room() -> None:
    # Base Magic 3: bolt (1) + mend (2) fill it; glow (1) needs one of them forgotten.
    state, log = start(rules_with(HALL, ["bolt", "mend"], ["glow-scroll"]), ["dell"])
    uid = scroll_of(state, "hero:dell", "glow-scroll")
    advance(state, "explore_actions")
    memorize = [a for a in state.legal_actions() if isinstance(a, Memorize)]
    assert memorize == [
        Memorize("hero:dell", uid, ("bolt",)),
        Memorize("hero:dell", uid, ("mend",)),
    ]
    state.apply(Memorize("hero:dell", uid, ("mend",)))
    assert state.heroes["hero:dell"].spells == ["bolt", "glow"]
    assert events(log, "spell.memorized")[0]["forgot"] == ["mend"]


@pytest.mark.rule("C-SPELL-02", "R-C-SPELL-01")
def test_only_the_smallest_sets_of_spells_to_forget_are_offered() -> None:
    # Three level-1 spells in a memory of 3; mend (level 2) needs two of them to go.
    state, _ = start(rules_with(HALL, ["bolt", "glow", "spark"], ["mend-scroll"]), ["dell"])
    uid = state.heroes["hero:dell"].items[0]
    advance(state, "explore_actions")
    forgets = sorted(a.forget for a in state.legal_actions() if isinstance(a, Memorize))
    assert forgets == [("bolt", "glow"), ("bolt", "spark"), ("glow", "spark")]
    state.apply(Memorize("hero:dell", uid, ("bolt", "spark")))
    assert state.heroes["hero:dell"].spells == ["glow", "mend"]


@pytest.mark.rule("C-SPELL-02", "R-C-SPELL-01")
def test_the_limit_is_base_magic_not_magic_left() -> None:
    state, _ = start(rules_with(HALL, ["bolt"], ["mend-scroll", "blast-scroll"], magic=2), ["dell"])
    dell = state.heroes["hero:dell"]
    dell.magic = 0
    mend = scroll_of(state, "hero:dell", "mend-scroll")
    advance(state, "explore_actions")
    memorize = [a for a in state.legal_actions() if isinstance(a, Memorize)]
    # mend (2) fits base Magic 2 once bolt is forgotten; blast (3) never fits.
    assert memorize == [Memorize("hero:dell", mend, ("bolt",))]


@pytest.mark.rule("C-SPELL-02")
def test_one_spell_memorized_per_explore_step() -> None:
    state, _ = start(rules_with(HALL, [], ["glow-scroll", "mend-scroll"]), ["dell"])
    glow = scroll_of(state, "hero:dell", "glow-scroll")
    mend = scroll_of(state, "hero:dell", "mend-scroll")
    advance(state, "explore_actions")
    assert {a for a in state.legal_actions() if isinstance(a, Memorize)} == {
        Memorize("hero:dell", glow),
        Memorize("hero:dell", mend),
    }
    state.apply(Memorize("hero:dell", glow))
    assert [a for a in state.legal_actions() if isinstance(a, Memorize)] == []
    # The next Explore step allows another.
    state.apply(Done())
    advance(state, "explore_actions", 3)
    assert [a for a in state.legal_actions() if isinstance(a, Memorize)] == [
        Memorize("hero:dell", mend)
    ]


# -- C-SPELL-03 and C-CMB-01 step 5: levels, ongoing spells, combat timing ------------------


@pytest.mark.rule("C-SPELL-03", "C-CMB-01")
def test_magic_is_paid_only_at_the_casting_step() -> None:
    state, log = start(rules_with(HALL, ["bolt"], placements=[("orc", "o")]), ["dell"])
    dell = state.heroes["hero:dell"]
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt"))
    assert dell.magic == 3 and dell.casting is not None
    seen = advance(state, "cast_target")
    assert seen == ["monster_movement", "evasion"]
    assert state.step == "casting" and dell.magic == 3
    # Only now the target is chosen, and the level paid.
    assert state.legal_actions() == [ChooseTarget("hero:dell", "monster:orc-1")]
    state.apply(ChooseTarget("hero:dell", "monster:orc-1"))
    assert dell.magic == 2
    [cast] = events(log, "spell.cast")
    assert (cast["spell"], cast["target"], cast["magic"]) == ("bolt", "monster:orc-1", 2)


@pytest.mark.rule("C-SPELL-03")
def test_a_spell_costs_its_level_in_magic() -> None:
    state, _ = start(rules_with(HALL, ["mend"]), ["dell"])
    state.apply(Cast("hero:dell", "mend", None, False, "hero:dell"))
    assert state.heroes["hero:dell"].magic == 1  # level 2


@pytest.mark.rule("C-SPELL-03")
def test_an_ongoing_spell_cannot_be_cast_again_while_it_lasts() -> None:
    rules = with_content(
        ruleset(HALL, options=Options(light=10)),
        heroes=mage(["glow"]),
    )
    state, _log = start(rules, ["dell"])
    dell = state.heroes["hero:dell"]
    advance(state, "explore_actions")
    state.apply(Cast("hero:dell", "glow", None, False, None))
    assert state.light == 13 and dell.ongoing == {"glow": 3}
    assert waiting_for(state) == "detect_traps"  # nothing more to do in this Explore
    roll(state, 3)
    for turn in (2, 3):  # the effect lasts: no Explore action is even offered
        assert waiting_for(state) == "movement" and state.turn == turn
        state.apply(Done())
        seen = advance(state, "detect_traps")
        assert "explore_actions" not in seen
        roll(state, 3)
    state.apply(Done())
    advance(state, "explore_actions")
    assert state.turn == 4 and dell.ongoing == {}
    assert Cast("hero:dell", "glow", None, False, None) in state.legal_actions()
    assert dell.magic == 2  # one cast of a level-1 spell, no rest


def two_glow_casters(lock: Literal["party", "caster"], items: Sequence[str] = ()) -> State:
    """Dell and Eryn both know Glow (an Explore spell whose effect lasts 3 turns)."""
    rules = with_content(
        ruleset(HALL_TWO, starts=("a", "b"), options=Options(light=10, ongoing_lock=lock)),
        heroes={
            "dell": hero("dell", traits=[Trait.LEARNED], magic=3, spells=["glow"]),
            "eryn": hero("eryn", magic=2, spells=["glow"], items=items),
        },
        items=SCROLLS,
    )
    state, _ = start(rules, ["dell", "eryn"])
    return state


HALL_TWO = board(
    """
    ########
    #ab....#
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


@pytest.mark.rule("C-SPELL-03", "R-C-SPELL-02")
@pytest.mark.parametrize(("lock", "eryn_may"), [("party", False), ("caster", True)])
def test_an_ongoing_effect_bars_the_spell_to_the_whole_party(
    lock: Literal["party", "caster"], eryn_may: bool
) -> None:
    state = two_glow_casters(lock)
    advance(state, "explore_actions")
    eryn_glow = Cast("hero:eryn", "glow", None, False, None)
    assert eryn_glow in state.legal_actions()
    state.apply(Cast("hero:dell", "glow", None, False, None))
    assert state.light == 13 and state.heroes["hero:dell"].ongoing == {"glow": 3}
    assert (eryn_glow in state.legal_actions()) == eryn_may
    if eryn_may:  # the per-caster reading: a second Glow while the first lasts
        state.apply(eryn_glow)
        assert state.light == 16 and state.heroes["hero:eryn"].ongoing == {"glow": 3}
    else:  # one effect in play: nobody casts Glow again until it is over (turn 4)
        advance(state, "movement", 3, 3)  # nothing more on offer: the Detect Traps rolls
        state.apply(Done())
        seen = advance(state, "movement", 3, 3)
        assert state.turn == 3 and "explore_actions" not in seen  # nothing on offer
        state.apply(Done())
        advance(state, "explore_actions", 3, 3)  # none in turn 3 either: on to turn 4
        assert state.turn == 4 and state.heroes["hero:dell"].ongoing == {}
        assert eryn_glow in state.legal_actions()


@pytest.mark.rule("C-SPELL-03", "R-C-SPELL-02", "R-C-IDENT-01")
def test_a_blind_scroll_of_a_spell_in_effect_fizzles_when_read() -> None:
    state = two_glow_casters("party", items=["glow-scroll"])
    eryn = state.heroes["hero:eryn"]
    [scroll] = [u for u in eryn.items if state.items[u].card == "glow-scroll"]
    state.items[scroll].identified = False  # found face down
    advance(state, "explore_actions")
    state.apply(Cast("hero:dell", "glow", None, False, None))
    assert Cast("hero:eryn", "", scroll) in state.legal_actions()  # offered all the same
    state.apply(Cast("hero:eryn", "", scroll))
    assert isinstance(state.sink, EventLog)
    [fizzled] = events(state.sink, "spell.fizzled")
    assert (fizzled["spell"], fizzled["reason"]) == ("glow", "ongoing")
    assert state.light == 13 and scroll not in eryn.items and eryn.ongoing == {}


# -- C-SPELL-04: overcasting ----------------------------------------------------------------


@pytest.mark.rule("C-SPELL-04")
@pytest.mark.parametrize(
    ("natural", "outcome", "spells", "health"),
    [
        (1, "forget", [], 6),
        (2, "hurt", ["bolt"], 5),
        (5, "hurt", ["bolt"], 5),
        (6, "unharmed", ["bolt"], 6),
    ],
)
def test_overcasting_rolls_after_the_stronger_spell(
    natural: int, outcome: str, spells: list[str], health: int
) -> None:
    state, log = start(rules_with(HALL, ["bolt"], placements=[("ogre", "o")]), ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt", None, True))
    advance(state, "cast_target")
    state.apply(ChooseTarget("hero:dell", "monster:ogre-1"))
    assert state.monsters["monster:ogre-1"].health == 2  # overcast bolt: 4, not 2
    assert waiting_for(state) == "overcast"
    roll(state, natural)
    [event] = [e for e in events(log, "roll") if "C-SPELL-04" in e["rules"]]
    assert (event["outcome"], event["spell"]) == (outcome, "bolt")
    dell = state.heroes["hero:dell"]
    assert dell.spells == spells and dell.health == health and dell.magic == 2


@pytest.mark.rule("C-SPELL-04", "C-DD-03")
def test_overcast_harm_to_a_hero_at_deaths_door_brings_an_extra_roll() -> None:
    state, _log = start(rules_with(HALL, ["bolt"], placements=[("ogre", "o")]), ["dell"])
    state.heroes["hero:dell"].health = 0
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt", None, True))
    advance(state, "cast_target")
    state.apply(ChooseTarget("hero:dell", "monster:ogre-1"))
    roll(state, 3)  # hurt
    assert waiting_for(state) == "deaths_door"
    assert state.pending is not None and state.pending.args["reason"] == "damage"
    assert state.step == "casting"


# -- C-SPELL-05: Magic comes back only by resting -------------------------------------------


@pytest.mark.rule("C-SPELL-05", "C-REST-02")
def test_magic_comes_back_only_by_resting() -> None:
    state, log = start(rules_with(HALL, ["mend"]), ["dell"])
    dell = state.heroes["hero:dell"]
    state.apply(Cast("hero:dell", "mend", None, False, "hero:dell"))
    assert dell.magic == 1
    state.apply(Done())
    advance(state, "movement", 3)
    assert state.turn == 2 and dell.magic == 1  # Turn Start gave no Magic
    state.apply(Rest("hero:dell"))
    roll(state, 3)  # the DM's Detect Traps roll, resting or not (C-TRAP-01)
    assert state.turn == 3 and dell.magic == 3  # rested: +2 for a Learned hero
    recovered = events(log, "recovered")
    assert [e["magic"] for e in recovered if e["rested"]] == [3]


# -- C-SPELL-06: casting while fighting -----------------------------------------------------


@pytest.mark.rule("C-SPELL-06", "C-CMB-01")
def test_a_caster_in_fights_may_take_double_ones_in_every_fight() -> None:
    rules = rules_with(FLANKED, ["bolt"], placements=[("rat", "p"), ("orc", "o")])
    state, log = start(rules, ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt"))
    advance(state, "casting_choice")
    assert state.legal_actions() == [
        CastingChoice("hero:dell", False),
        CastingChoice("hero:dell", True),
    ]
    state.apply(CastingChoice("hero:dell", True))
    fight(state, None, (1, 1))  # no hero roll: its dice count as 1 and 1
    fight(state, None, (1, 1))
    fights = events(log, "fight")
    for event in fights:
        assert event["hero_dice"] == [1, 1] and event["casting"] is True
        assert "C-SPELL-06" in event["rules"]
        assert event["hero_modifiers"] == {"enemies": -1}
    # 2 + 2 against the rat's 1 + 2: the hero wins; against the orc's 3 + 2 it loses.
    assert [e["winner"] for e in fights] == ["hero", "monster"]
    assert waiting_for(state) == "cast_target"  # the spell goes on to the casting step
    state.apply(ChooseTarget("hero:dell", "monster:orc-1"))
    assert state.heroes["hero:dell"].magic == 2
    assert state.monsters["monster:orc-1"].health == 1


@pytest.mark.rule("C-SPELL-06")
def test_a_caster_in_a_fight_may_let_the_spell_fail_instead() -> None:
    state, log = start(rules_with(FLANKED, ["bolt"], placements=[("orc", "o")]), ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt"))
    advance(state, "casting_choice")
    state.apply(CastingChoice("hero:dell", False))
    fight(state, (6, 5), (1, 1))  # the hero rolls as usual
    [event] = events(log, "fight")
    assert event["hero_dice"] == [6, 5] and "casting" not in event
    assert [e["spell"] for e in events(log, "spell.failed")] == ["bolt"]
    assert events(log, "spell.cast") == []
    assert state.turn == 2 and state.heroes["hero:dell"].magic == 3  # never paid


@pytest.mark.rule("C-SPELL-06", "R-C-FIGHT-01")
def test_the_casting_choice_is_made_at_the_casters_first_fight_in_board_order() -> None:
    grid = board(
        """
        #######
        #.o...#
        #.a.b.#
        #...p.#
        #######
        """
    )
    rules = rules_with(grid, ["bolt"], starts=("a", "b"), placements=[("rat", "o"), ("orc", "p")])
    state, log = start(rules, ["ana", "dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt"))
    advance(state, "fight_stamina")
    fight(state, (4, 4), (2, 2))  # ana against the rat (row 1) comes first
    assert waiting_for(state) == "casting_choice"
    state.apply(CastingChoice("hero:dell", True))
    fight(state, None, (6, 6))
    order = [
        e.event.type
        for e in log.entries
        if e.event.type in ("fight", "casting.kept", "spell.failed")
    ]
    assert order == ["fight", "casting.kept", "fight"]


# -- C-SPELL-07: evading or surprised -------------------------------------------------------


@pytest.mark.rule("C-SPELL-07", "C-CMB-01")
def test_evading_while_casting_loses_the_spell() -> None:
    state, log = start(rules_with(HALL, ["bolt"], placements=[("orc", "o")]), ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt"))
    advance(state, "evasion")
    state.apply(Evade("hero:dell", Pos(1, 2)))
    dell = state.heroes["hero:dell"]
    assert dell.casting is None and dell.pos == Pos(1, 2) and dell.stamina == 2
    assert [e["spell"] for e in events(log, "spell.lost")] == ["bolt"]
    seen = advance(state, "movement")
    assert "cast_target" not in seen and state.turn == 2
    assert dell.magic == 3 and state.monsters["monster:orc-1"].health == 3


DOORWAY = board(
    """
    #########
    #.a+..o.#
    #########
    """,
    """
    #########
    #AA.BBBB#
    #########
    """,
    {"A": AreaInfo("West"), "B": AreaInfo("East")},
)


@pytest.mark.rule("C-SPELL-07", "C-SURP-01")
@pytest.mark.parametrize(("surprise", "asked"), [(1, False), (6, True)])
def test_a_surprised_hero_cannot_begin_a_spell(surprise: int, asked: bool) -> None:
    state, _log = start(rules_with(DOORWAY, ["bolt"], placements=[("orc", "o")]), ["dell"])
    state.apply(OpenDoor("hero:dell", Pos(3, 1)))
    roll(state, 5)  # the door opens on the orc
    assert waiting_for(state) == "surprise"
    roll(state, surprise)
    if not state.heroes["hero:dell"].surprised:
        state.apply(Done())  # a ready hero may still move; it does not
    assert (waiting_for(state) == "spell_selection") == asked
    if not asked:
        assert state.heroes["hero:dell"].surprised
        assert waiting_for(state) == "monster_movement"


@pytest.mark.rule("C-SPELL-03", "C-REST-01")
def test_a_resting_hero_begins_no_spell() -> None:
    state, _ = start(rules_with(HALL, ["bolt"], placements=[("orc", "o")]), ["dell"])
    state.apply(Rest("hero:dell"))
    assert waiting_for(state) == "monster_movement"  # no Spell Selection for it


ALCOVE = board(
    """
    #####
    #aTo#
    #...#
    #####
    """
)


@pytest.mark.rule("C-CMB-01", "C-DIST-01", "R-CORE-DIST-01")
@pytest.mark.parametrize(("spell", "in_range"), [("spark", False), ("bolt", True)])
def test_a_spells_range_is_counted_square_by_square_round_furniture(
    spell: str, in_range: bool
) -> None:
    # The orc is 2 squares off as the crow flies, 4 walking round the table; Spark
    # reaches 3 squares, Bolt 6.
    state, log = start(rules_with(ALCOVE, [spell], placements=[("orc", "o")]), ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", spell))
    if in_range:
        advance(state, "cast_target")
        assert state.legal_actions() == [ChooseTarget("hero:dell", "monster:orc-1")]
    else:
        seen = advance(state, "movement")
        assert "cast_target" not in seen
        [fizzled] = events(log, "spell.fizzled")
        assert (fizzled["spell"], fizzled["reason"]) == ("spark", "no target")
        assert state.heroes["hero:dell"].magic == 3


SUNBURST = SpellCard(
    "sunburst",
    "Sunburst",
    2,
    CastingTime.COMBAT,
    Targeting.ALL_MONSTERS,
    4,
    (fx.SlayMonster(amount=1),),
)

# Two rats within 4 squares; the orc is 6 squares off.
ARENA = board(
    """
    #########
    #a..p..o#
    #..q....#
    #########
    """
)


@pytest.mark.rule("C-SPELL-03", "C-CMB-01")
def test_a_spell_on_every_monster_strikes_each_one_in_reach() -> None:
    rules = with_content(
        ruleset(ARENA, placements=[("rat", "p"), ("rat", "q"), ("orc", "o")]),
        heroes=mage(["sunburst"]),
        spells={"sunburst": SUNBURST},
    )
    state, log = start(rules, ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "sunburst"))
    advance(state, "cast_target")
    assert state.legal_actions() == [ChooseTarget("hero:dell", None)]  # no choice to make
    state.apply(ChooseTarget("hero:dell", None))
    assert sorted(e["monster"] for e in events(log, "monster.slain")) == [
        "monster:rat-1",
        "monster:rat-2",
    ]
    assert list(state.monsters) == ["monster:orc-1"]
    assert state.monsters["monster:orc-1"].health == 3
    assert state.heroes["hero:dell"].magic == 1


@pytest.mark.rule("C-SPELL-03", "C-CMB-01")
def test_a_spell_on_every_monster_with_none_in_reach_fizzles_unpaid() -> None:
    rules = with_content(
        ruleset(ARENA, placements=[("orc", "o")]),
        heroes=mage(["sunburst"]),
        spells={"sunburst": SUNBURST},
    )
    state, log = start(rules, ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "sunburst"))
    seen = advance(state, "movement")
    assert "cast_target" not in seen
    assert [e["reason"] for e in events(log, "spell.fizzled")] == ["no target"]
    assert state.heroes["hero:dell"].magic == 3
    # The account tells both: the casting begun and the spell that came to nothing.
    told = list(narrate(log))
    assert "  Dell begins casting Sunburst." in told
    assert "  Dell's Sunburst comes to nothing: no target in range and in sight." in told
