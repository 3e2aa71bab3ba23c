"""Known numbers: exact probabilities got by enumerating the engine's own chance nodes
(every outcome applied to a clone and played on), checked against an independent count
(icepool, itertools, or by hand)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from combat_kit import Policy, advance, enumerate_outcomes, with_content
from crawl_kit import board, hero, ruleset, start

from undercroft.core.events import EventLog
from undercroft.crawl import State
from undercroft.crawl.actions import (
    Action,
    BeginCasting,
    ChooseTarget,
    FightStamina,
    Identify,
    MentalSpend,
    MonsterAbility,
)
from undercroft.crawl.ruleset import Trait

DUEL = board(
    """
    #######
    #.....#
    #.pao.#
    #.....#
    #######
    """
)


def two_d6(modifier: int) -> icepool.Die:
    return 2 @ icepool.d6 + modifier


def winner(state: State, log: EventLog) -> str | None:
    """The first fight's result, once its event is logged."""
    fights = log.of_type("fight")
    if not fights:
        return None
    return str(fights[0].event.fields["winner"])


def stamina(hero_points: int, monster_points: int) -> Policy:
    def policy(state: State) -> Action:
        assert state.pending is not None and state.pending.kind == "fight_stamina"
        side = state.pending.args["side"]
        return FightStamina(hero_points if side == "heroes" else monster_points)

    return policy


@pytest.mark.rule("C-FIGHT-04", "C-FIGHT-02", "C-SETUP-05")
@pytest.mark.parametrize(
    ("party", "monsters", "spend", "hero_total", "monster_total", "strong"),
    [
        # equal scores, nobody spends: Ana 3 against the orc's 3
        ("ana", [("orc", "o")], (0, 0), 3, 3, False),
        # the same fight for Strong Bram, who wins the ties
        ("bram", [("orc", "o")], (0, 0), 3, 3, True),
        # Stamina: Ana spends 2 (+2), the orc 1 (+1)
        ("ana", [("orc", "o")], (2, 1), 5, 4, False),
        # two enemies: Ana fights the rat first at 3 - 1, the rat at 1
        ("ana", [("rat", "p"), ("orc", "o")], (0, 0), 2, 1, False),
        # the ogre (5) against Strong Bram in two fights (3 - 1) spending 3
        ("bram", [("ogre", "p"), ("rat", "o")], (3, 0), 5, 5, True),
    ],
)
def test_the_chance_that_the_hero_wins_a_fight(
    party: str,
    monsters: list[tuple[str, str]],
    spend: tuple[int, int],
    hero_total: int,
    monster_total: int,
    strong: bool,
) -> None:
    state, _ = start(ruleset(DUEL, placements=monsters), [party])
    advance(state, "fight_stamina")
    odds = enumerate_outcomes(state, winner, stamina(*spend))
    assert sum(odds.values()) == 1
    hero_roll, monster_roll = two_d6(hero_total), two_d6(monster_total)
    higher = (hero_roll > monster_roll).probability(True)
    tie = (hero_roll == monster_roll).probability(True)
    lower = (hero_roll < monster_roll).probability(True)
    if strong:
        assert odds == {"hero": higher + tie, "monster": lower}
    else:
        assert odds == {"hero": higher, "None": tie, "monster": lower}


@pytest.mark.rule("C-FIGHT-04")
def test_an_even_fight_by_hand() -> None:
    # Of the 36 x 36 ordered rolls of two equal scores, 146 tie and the rest split evenly.
    ties = sum(1 for a, b, c, d in itertools.product(range(1, 7), repeat=4) if a + b == c + d)
    assert ties == 146
    even = {
        "hero": Fraction(1296 - ties, 2 * 1296),
        "None": Fraction(ties, 1296),
        "monster": Fraction(1296 - ties, 2 * 1296),
    }
    assert even["hero"] == Fraction(575, 1296)
    assert even == {
        "hero": (two_d6(3) > two_d6(3)).probability(True),
        "None": (two_d6(3) == two_d6(3)).probability(True),
        "monster": (two_d6(3) < two_d6(3)).probability(True),
    }


# -- single d6 rolls --------------------------------------------------------------------

ROOM = board(
    """
    ########
    #a...o.#
    ########
    """
)


def no_choice(state: State) -> Action:  # pragma: no cover - the walks meet no decision
    raise AssertionError(f"unexpected decision {state.pending}")


@pytest.mark.rule("C-DD-01", "C-DD-04")
@pytest.mark.parametrize(("party", "bonus"), [("ana", 0), ("eryn", 1)])
def test_the_chance_of_surviving_deaths_door(party: str, bonus: int) -> None:
    state, _ = start(ruleset(ROOM), [party])
    state.heroes[f"hero:{party}"].health = 0
    advance(state, "deaths_door", 3)

    def result(node: State, _: EventLog) -> str:
        return "dies" if node.heroes[f"hero:{party}"].dead else "survives"

    odds = enumerate_outcomes(state, result, no_choice)
    dies = (icepool.d6 + bonus <= 3).probability(True)
    assert odds == {"dies": dies, "survives": 1 - dies}
    assert odds["dies"] == (Fraction(1, 2) if bonus == 0 else Fraction(1, 3))


@pytest.mark.rule("C-IDENT-01")
def test_the_chance_of_identifying_an_item() -> None:
    state, _ = start(ruleset(ROOM), ["dell"])
    uid = state.new_item("tonic")
    state.heroes["hero:dell"].items.append(uid)
    advance(state, "explore_actions")
    state.apply(Identify("hero:dell", uid))

    def result(node: State, _: EventLog) -> str:
        item = node.items[uid]
        return "identified" if item.identified else "never" if item.never else "not_yet"

    odds = enumerate_outcomes(state, result, no_choice)
    faces = range(1, 7)
    count = {
        word: Fraction(sum(1 for f in faces if test(f)), 6)
        for word, test in (
            ("never", lambda f: f == 1),
            ("not_yet", lambda f: f in (2, 3)),
            ("identified", lambda f: f >= 4),
        )
    }
    assert odds == count
    assert count == {
        "never": Fraction(1, 6),
        "not_yet": Fraction(1, 3),
        "identified": Fraction(1, 2),
    }


@pytest.mark.rule("C-SPELL-04")
def test_the_chances_of_an_overcast() -> None:
    state, _ = start(ruleset(ROOM, placements=[("ogre", "o")]), ["dell"])
    advance(state, "spell_selection")
    state.apply(BeginCasting("hero:dell", "bolt", None, True))
    advance(state, "cast_target")
    state.apply(ChooseTarget("hero:dell", "monster:ogre-1"))

    def result(node: State, _: EventLog) -> str:
        dell = node.heroes["hero:dell"]
        if "bolt" not in dell.spells:
            return "forget"
        return "hurt" if dell.health == 5 else "unharmed"

    odds = enumerate_outcomes(state, result, no_choice)
    die = icepool.d6
    assert odds == {
        "forget": (die == 1).probability(True),
        "hurt": die.map(lambda face: 2 <= face <= 5).probability(True),
        "unharmed": (die == 6).probability(True),
    }
    assert odds["hurt"] == Fraction(2, 3)


# -- Mental Combat: two d6 --------------------------------------------------------------

GALLERY = board(
    """
    #######
    #a..g.#
    #######
    """
)


def mental_result(node: State, log: EventLog) -> str | None:
    rolls = [e for e in log.of_type("roll") if "C-MENT-01" in e.event.rules]
    return str(rolls[0].event.fields["outcome"]) if rolls else None


@pytest.mark.rule("C-MENT-01", "C-MENT-02", "C-MENT-03")
@pytest.mark.parametrize(
    ("iron", "hero_spends", "gazer_spends"),
    [(False, 0, 0), (True, 0, 0), (False, 2, 1), (True, 3, 2)],
)
def test_the_chances_of_mental_combat(iron: bool, hero_spends: int, gazer_spends: int) -> None:
    traits = [Trait.IRON_WILLED] if iron else []
    rules = with_content(
        ruleset(GALLERY, placements=[("gazer", "g")]),
        heroes={"sage": hero("sage", magic=3, traits=traits)},
    )
    state, _ = start(rules, ["sage"])
    advance(state, "monster_movement")
    state.apply(MonsterAbility("monster:gazer-1", "stare", "hero:sage"))

    def spend(node: State) -> Action:
        assert node.pending is not None
        return MentalSpend(gazer_spends if node.pending.seat.value == "dm" else hero_spends)

    odds = enumerate_outcomes(state, mental_result, spend)
    sage = icepool.d6 + hero_spends + (1 if iron else 0)
    gazer = icepool.d6 + 1 + gazer_spends  # the stare's power is 1
    assert odds == {
        word: p
        for word, p in (
            ("win", (sage > gazer).probability(True)),
            ("tie", (sage == gazer).probability(True)),
            ("lose", (sage < gazer).probability(True)),
        )
        if p
    }
