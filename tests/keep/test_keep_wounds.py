"""Wounds and being taken out of the fight (K-KO-01..04, K-HEAD-01/02, ruling R-K-KO-01).

The chances are the rule: they are tested here as exact fractions against the seed's
table written out by hand (the percentages of the combat page), for every row with every
armour and helmet case, and against the ``p`` the world logs when the draw is made.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from keep_kit import HALL, creature, make_world, minion, of

from undercroft.keep.rules import wounds
from undercroft.keep.state.actors import Being, Condition
from undercroft.keep.state.world import World

# The seed's combat page, as percentages (K-KO-02, K-KO-03, K-HEAD-01, K-HEAD-02).
SEED_UNCONSCIOUS = {
    ("light", False): 75,
    ("serious", False): 50,
    ("critical", False): 25,
    ("light", True): 100,
    ("serious", True): 75,
    ("critical", True): 50,
}
SEED_ARMOUR = {"none": 0, "cloth": 10, "leather": 10, "chain": 20, "plate": 30}
SEED_HEAD = {False: 25, True: 50}
HELMETS = (0, 5, 10, 20, 25, 30, 50)


def expected_unconscious(wound: str, blunt: bool, armour: str) -> Fraction:
    return Fraction(min(100, SEED_UNCONSCIOUS[(wound, blunt)] + SEED_ARMOUR[armour]), 100)


def expected_head(blunt: bool, helmet: int) -> Fraction:
    return Fraction(max(0, SEED_HEAD[blunt] - helmet), 100)


def draws(log: Any, rule: str) -> list[dict[str, Any]]:
    return [e for e in of(log, "chance") if rule in e["rules"]]


def hit(world: World, target: Being, level: str, location: str = "torso", **kw: Any) -> Any:
    return wounds.inflict(
        world,
        target,
        source=kw.pop("source", "trap:99"),
        weapon=kw.pop("weapon", "test"),
        blunt=kw.pop("blunt", False),
        level=level,
        location=location,
    )


@pytest.mark.rule("K-KO-01")
def test_wound_points_light_1_serious_2_critical_4_and_out_at_10() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2)
    assert [wounds.points(level) for level in wounds.LEVELS] == [1, 2, 4]
    for level in ("critical", "critical", "light"):  # 4 + 4 + 1 = 9: still up
        assert hit(world, kobold, level) is None
    assert kobold.wound_points == 9 and kobold.up
    assert [(w["level"], w["points"], w["total"]) for w in of(log, "wound")] == [
        ("critical", 4, 4),
        ("critical", 4, 8),
        ("light", 1, 9),
    ]
    assert of(log, "chance") == []  # nobody taken out yet
    assert hit(world, kobold, "light") in ("unconscious", "dead")  # 10: out
    assert not kobold.up and of(log, "wound")[-1]["total"] == 10
    (ko,) = draws(log, "K-KO-02")
    assert ko["actor"] == kobold.id and ko["total"] == 10


@pytest.mark.rule("K-KO-02", "K-KO-03", "R-K-KO-01")
@pytest.mark.parametrize(
    ("wound", "blunt", "armour"),
    list(product(("light", "serious", "critical"), (False, True), sorted(SEED_ARMOUR))),
)
def test_the_unconscious_chance_for_every_row_and_armour(
    wound: str, blunt: bool, armour: str
) -> None:
    expected = expected_unconscious(wound, blunt, armour)
    assert wounds.unconscious_chance(wound, blunt=blunt, armour=armour) == expected
    # The world logs exactly that chance when the wound takes someone out.
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2)
    kobold.armour = armour
    kobold.wound_points = 10 - wounds.points(wound)
    kobold.mended_at = world.now
    hit(world, kobold, wound, blunt=blunt, weapon="club" if blunt else "knife")
    (ko,) = draws(log, "K-KO-02")
    assert ko["p"] == float(expected)
    assert (ko["wound"], ko["blunt"], ko["armour"]) == (wound, blunt, armour)
    assert ko["weapon"] == ("club" if blunt else "knife")
    assert ("K-KO-03" in ko["rules"]) and "K-KO-04" not in ko["rules"]
    assert ko["outcome"] == ("unconscious" if ko["hit"] else "dead")
    assert kobold.condition is (Condition.UNCONSCIOUS if ko["hit"] else Condition.DEAD)


@pytest.mark.rule("K-KO-02", "K-KO-03")
def test_sampled_knock_outs_follow_the_chance() -> None:
    world, log = make_world(HALL, seed=11)
    trials = 600
    for _ in range(trials):
        kobold = minion(world, 2, 2)
        kobold.armour = "chain"
        kobold.wound_points = 8
        kobold.mended_at = world.now
        hit(world, kobold, "serious")  # 50% + 20% in chain mail
    alive = sum(d["hit"] for d in draws(log, "K-KO-02"))
    sigma = (0.7 * 0.3 / trials) ** 0.5
    assert abs(alive / trials - 0.7) < 4 * sigma


@pytest.mark.rule("K-KO-04")
@pytest.mark.parametrize(("breed", "alive"), [("wolf", False), ("boar", False), ("troll", True)])
def test_creatures_always_die_but_the_troll_always_goes_unconscious(
    breed: str, alive: bool
) -> None:
    world, log = make_world(HALL)
    beast = creature(world, breed, 3, 3)
    beast.wound_points = 9
    beast.mended_at = world.now
    hit(world, beast, "light", blunt=True)  # blunt and light would be 100% for anyone else
    (ko,) = draws(log, "K-KO-02")
    assert "K-KO-04" in ko["rules"] and ko["p"] == (1.0 if alive else 0.0)
    assert beast.condition is (Condition.UNCONSCIOUS if alive else Condition.DEAD)


@pytest.mark.rule("K-KO-04")
def test_the_master_always_dies() -> None:
    world, log = make_world(HALL)
    master = world.beings["master"]
    master.wound_points = 9
    hit(world, master, "light", blunt=True)
    (ko,) = draws(log, "K-KO-02")
    assert ko["p"] == 0.0 and ko["outcome"] == "dead" and master.condition is Condition.DEAD
    (died,) = of(log, "being.died")
    assert died["being"] == "master" and "K-KO-04" in died["rules"]


@pytest.mark.rule("K-HEAD-01", "R-K-KO-01")
@pytest.mark.parametrize(("blunt", "helmet"), list(product((False, True), HELMETS)))
def test_the_head_wound_chance_for_every_weapon_and_helmet(blunt: bool, helmet: int) -> None:
    expected = expected_head(blunt, helmet)
    assert wounds.head_out_chance(blunt=blunt, helmet=helmet) == expected
    for level in ("serious", "critical"):
        world, log = make_world(HALL)
        kobold = minion(world, 2, 2)
        kobold.helmet = helmet
        hit(world, kobold, level, location="head", blunt=blunt)
        (head,) = draws(log, "K-HEAD-01")
        assert head["p"] == float(expected) and head["helmet"] == helmet
        assert head["blunt"] == blunt and head["outcome"] == ("out" if head["hit"] else "stays")
        assert kobold.wound_points == wounds.points(level)  # whatever its wound points


@pytest.mark.rule("K-HEAD-01")
def test_light_head_wounds_and_other_places_draw_no_head_chance() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2)
    hit(world, kobold, "light", location="head")
    hit(world, kobold, "critical", location="torso")
    assert draws(log, "K-HEAD-01") == []


@pytest.mark.rule("K-HEAD-01")
def test_the_master_is_never_subject_to_the_head_chance() -> None:
    world, log = make_world(HALL)
    master = world.beings["master"]
    for _ in range(2):
        hit(world, master, "critical", location="head", blunt=True)
    assert draws(log, "K-HEAD-01") == [] and master.up


@pytest.mark.rule("K-HEAD-02")
@pytest.mark.parametrize(
    ("level", "expected"), [("serious", Fraction(1)), ("critical", Fraction(1, 2))]
)
def test_taken_out_by_a_head_wound_unconscious_by_the_wound_whatever_the_weapon(
    level: str, expected: Fraction
) -> None:
    assert wounds.head_unconscious_chance(level) == expected
    for blunt in (False, True):
        world, log = make_world(HALL, seed=3)
        outs = 0
        while not outs:  # wound heads until the head chance takes one out
            kobold = minion(world, 2, 2)
            hit(world, kobold, level, location="head", blunt=blunt)
            outs = len(draws(log, "K-HEAD-02"))
        (after,) = draws(log, "K-HEAD-02")
        assert after["p"] == float(expected) and after["wound"] == level
        assert "K-KO-03" not in after["rules"]  # armour plays no part
        assert draws(log, "K-HEAD-01")[-1]["outcome"] == "out"


@pytest.mark.rule("K-HEAD-02", "R-K-KO-01")
def test_a_head_wound_that_reaches_10_points_uses_the_normal_chances() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2)
    kobold.armour = "leather"
    kobold.wound_points = 8
    kobold.mended_at = world.now
    hit(world, kobold, "serious", location="head")
    assert draws(log, "K-HEAD-01") == [] and draws(log, "K-HEAD-02") == []
    (ko,) = draws(log, "K-KO-02")
    assert ko["p"] == float(Fraction(60, 100))  # 50% serious + 10% leather


@pytest.mark.rule("K-HEAD-02", "K-KO-04", "R-K-KO-01")
def test_a_creature_a_head_wound_takes_out_dies_and_the_troll_does_not() -> None:
    for breed, outcome in (("wolf", "dead"), ("troll", "unconscious")):
        world, log = make_world(HALL, seed=5)
        found: list[dict[str, Any]] = []
        while not found:
            beast = creature(world, breed, 3, 3)
            hit(world, beast, "serious", location="head")
            found = draws(log, "K-HEAD-02")
        assert found[0]["outcome"] == outcome and "K-KO-04" in found[0]["rules"]


@pytest.mark.rule("K-KO-01", "R-K-WAKE-01")
def test_wounds_mend_a_point_every_two_hours_while_up() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2)
    hit(world, kobold, "critical")
    world.run(world.now + 5 * 60)  # 5 hours: 2 points mended
    assert wounds.mend(world, kobold) == 2
    hit(world, kobold, "light")
    assert of(log, "wound")[-1]["total"] == 3
