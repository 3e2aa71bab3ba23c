"""What adventurers know of your triggers (K-KNOW-01..04) and discovering them (K-DISC-01..03)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from keep_kit import ScriptedDice, adv, invade, invaded, member, of, put, record_steps, stand, wire

from undercroft.core.checks import DiceModel, Grade
from undercroft.core.grid import Pos
from undercroft.keep.rules import knowledge, traps
from undercroft.keep.state.actors import Condition
from undercroft.keep.state.structures import Trigger
from undercroft.keep.state.world import World

WIDE = "\n".join(
    ["###############p###############"]
    + ["#" + "." * 29 + "#" for _ in range(9)]
    + ["#...............s.............#", "###############################"]
)

# Two ways from the portal to the Master: the short one through the gap at (4, 3) and
# over (4, 4), the long one through the gap at (9, 3).
TWO_WAYS = """
#####p#####
#.........#
#.........#
####.####.#
#.........#
#.........#
#....s....#
###########
"""


def trap_at(world: World, x: int, y: int, kind: str = "pressure_plate") -> Trigger:
    trigger = put(world, kind, x, y)
    put(world, "dart_launcher", x, y + 2)
    wire(world, (x, y), (x, y + 2))
    assert isinstance(trigger, Trigger)
    return trigger


@pytest.mark.rule("K-KNOW-02", "K-LEARN-01")
def test_a_trap_going_off_teaches_every_group_within_10_tiles_but_not_at_11() -> None:
    world, log = invaded(WIDE)
    plate = trap_at(world, 2, 4)
    setter, near, far = (adv(world, invade(world, member())) for _ in range(3))
    stand(world, setter, 2, 4)
    stand(world, near, 12, 5)  # Chebyshev 10 from the plate
    stand(world, far, 13, 5)  # 11
    traps.walker_enters(world, plate.id, setter)
    (learned,) = of(log, "adventurers.learned")
    assert [entry["id"] for entry in learned["learners"]] == [setter.id, near.id]
    assert plate.id in setter.knows and plate.id in near.knows and plate.id not in far.knows
    assert near.detect == {"pressure_plate": 1} and far.detect == {}
    assert {setter.invasion, near.invasion, far.invasion} == {1, 2, 3}  # three groups


@pytest.mark.rule("K-KNOW-02", "K-LEARN-01")
def test_unconscious_adventurers_learn_nothing() -> None:
    world, _ = invaded(WIDE)
    plate = trap_at(world, 2, 4)
    setter, out = (adv(world, invade(world, member())) for _ in range(2))
    stand(world, setter, 2, 4)
    stand(world, out, 4, 4)
    out.condition = Condition.UNCONSCIOUS  # knocked out (K-KO-02)
    traps.walker_enters(world, plate.id, setter)
    assert plate.id not in out.knows and out.block == {}


@pytest.mark.rule("K-KNOW-03", "K-DISC-01", "K-LEARN-05")
def test_a_discovery_teaches_everyone_within_10_tiles_of_the_finder_and_gives_no_bonus() -> None:
    world, log = invaded(WIDE)
    plate = trap_at(world, 8, 4)
    groups = [invade(world, member()) for _ in range(3)]
    finder, near, far = (adv(world, g) for g in groups)
    stand(world, finder, 4, 4)
    stand(world, near, 14, 6)  # 10 from the finder
    stand(world, far, 15, 6)  # 11 from the finder (7 from the plate)
    world.streams["adventurers"] = ScriptedDice(dice=[20])  # a critical: discovered
    assert knowledge.discover(world, finder, groups[0], plate)
    (found,) = of(log, "trigger.discovered")
    assert found["learned"] == [near.id] and finder.knows[plate.id] == "discovered"
    assert near.knows[plate.id] == "told" and plate.id not in far.knows
    assert finder.detect == {} and finder.block == {}  # K-LEARN-05: only where it is


@pytest.mark.rule("K-KNOW-04")
def test_detect_traps_shows_the_rogues_whole_group_every_trap_within_7_tiles() -> None:
    world, log = invaded(WIDE)
    at7 = trap_at(world, 12, 2)
    at8 = trap_at(world, 21, 2)
    group = invade(world, member("rogue", 1), member("warrior", 1))
    rogue, mate = adv(world, group, 1), adv(world, group, 2)
    stand(world, rogue, 5, 3)
    stand(world, mate, 28, 9)  # far away: Detect Traps shows the group, not a radius
    other = adv(world, invade(world, member()))
    stand(world, other, 6, 3)  # another group beside the Rogue learns nothing
    knowledge.detect_traps(world, rogue, group)
    (shown,) = of(log, "trigger.detected")
    assert shown["triggers"] == [at7.id] and shown["learned"] == [rogue.id, mate.id]
    assert at7.id in mate.knows and at8.id not in rogue.knows and at7.id not in other.knows
    assert not [e for e in of(log, "roll") if "K-DISC-01" in e["rules"]]  # no roll


@pytest.mark.rule("K-KNOW-01", "K-CAUT-01")
def test_each_adventurer_moves_by_what_it_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = record_steps(monkeypatch)
    world, log = invaded(TWO_WAYS)
    plate = trap_at(world, 4, 4)
    world.streams["adventurers"] = ScriptedDice(dice=[2])  # the other misses it
    group = invade(world, member("warrior", 1), member("warrior", 1))
    knower, other = adv(world, group, 1), adv(world, group, 2)
    knower.learn(plate.id, "test")
    world.run(40)
    assert Pos(4, 4) not in steps[knower.id] and Pos(9, 3) in steps[knower.id]  # round
    assert Pos(4, 4) in steps[other.id]  # straight onto it: it did not know
    assert [e["by"] for e in of(log, "trap.fired")] == [other.id]


@pytest.mark.rule("K-DISC-01", "R-K-DISC-01")
def test_the_first_member_to_see_a_trigger_from_6_tiles_rolls() -> None:
    world, log = invaded(
        WIDE.replace("#" + "." * 29 + "#", "#" + "." * 10 + "#" + "." * 18 + "#", 1)
    )
    plate = trap_at(world, 8, 5)
    group = invade(world, member("warrior", 1), member("warrior", 1))
    first, second = adv(world, group, 1), adv(world, group, 2)
    stand(world, first, 15, 5)  # 7 tiles: too far
    knowledge.after_step(world, first, group)
    assert not of(log, "roll")
    stand(world, first, 14, 5)  # 6 tiles
    stand(world, second, 13, 5)
    knowledge.after_step(world, first, group)
    knowledge.after_step(world, second, group)
    rolls = [e for e in of(log, "roll") if e["trigger"] == plate.id]
    assert [r["actor"] for r in rolls] == [first.id] and rolls[0]["distance"] == 6


@pytest.mark.rule("K-DISC-01")
def test_a_trigger_behind_a_wall_is_not_seen() -> None:
    walled = WIDE.replace("#" + "." * 29 + "#", "#" + "." * 9 + "#" + "." * 19 + "#")
    world, log = invaded(walled)
    trap_at(world, 7, 1)
    group = invade(world, member())
    stand(world, adv(world, group), 12, 1)  # 5 tiles, a wall at x=10 between
    knowledge.after_step(world, adv(world, group), group)
    assert not of(log, "roll")


@pytest.mark.rule("K-DISC-02", "K-LEARN-02", "K-CAUT-03", "R-K-DISC-01")
def test_stalk_quality_darkness_and_bonuses_change_the_chance_exactly() -> None:
    world, log = invaded(WIDE.replace("#....", "#:...", 1))  # (1, 1) is dark
    lit = trap_at(world, 6, 4)
    dark = trap_at(world, 1, 1)
    poor = trap_at(world, 12, 4)
    poor.quality = Grade.MEDIOCRE
    group = invade(world, member("warrior", 1), member("rogue", 3))
    peasant, rogue = adv(world, group, 1), adv(world, group, 2)
    rogue.detect["pressure_plate"] = 2
    group.caution = 1
    stand(world, peasant, 8, 6)
    stand(world, rogue, 8, 7)
    for who, trigger in ((peasant, lit), (rogue, lit), (peasant, dark), (peasant, poor)):
        group.rolled.clear()
        knowledge.discover(world, who, group, trigger)
    rolls = [e for e in of(log, "roll") if "K-DISC-01" in e["rules"]]
    model = DiceModel()
    target = world.ruleset.adventurers.discovery_target

    def p(roll: dict[str, Any]) -> Fraction:
        mods = {k: v for k, v in roll["modifiers"].items() if k != "stalk"}
        return model.p_success(roll["stalk"], target, mods)

    peasant_lit, rogue_lit, peasant_dark, peasant_poor = rolls
    assert peasant_lit["modifiers"] == {"stalk": 2, "caution": 1}
    assert rogue_lit["modifiers"] == {"stalk": 12, "detect": 2, "caution": 1}
    assert peasant_dark["modifiers"]["dark"] == -4 and peasant_dark["dark"]
    assert peasant_poor["modifiers"]["quality"] == 2 and peasant_poor["quality"] == "mediocre"
    # 1d20 + 2 + 1 >= 20: 4 faces in 20 (17..20); the Rogue's +12 +2 +1: 16 faces (5..20).
    assert p(peasant_lit) == Fraction(4, 20) and p(rogue_lit) == Fraction(16, 20)
    assert p(peasant_dark) < p(peasant_lit) < p(peasant_poor)


@pytest.mark.rule("K-DISC-02")
def test_the_discovery_frequency_follows_stalk() -> None:
    world, _log = invaded(WIDE)
    plate = trap_at(world, 6, 4)
    found = {}
    for stalk_class in ("peasant", "rogue"):
        group = invade(world, member(stalk_class, 0 if stalk_class == "peasant" else 5))
        who = adv(world, group)
        stand(world, who, 8, 6)
        hits = 0
        for _ in range(1000):
            group.rolled.clear()
            who.knows.clear()
            hits += knowledge.discover(world, who, group, plate)
        found[stalk_class] = hits / 1000
    model = DiceModel()
    target = world.ruleset.adventurers.discovery_target
    assert found["peasant"] == pytest.approx(float(model.p_success(1, target)), abs=0.04)
    assert found["rogue"] == pytest.approx(float(model.p_success(8, target)), abs=0.05)


@pytest.mark.rule("K-DISC-03")
def test_a_failed_discovery_roll_is_never_repeated_by_that_group() -> None:
    corridor = """
###########p###########
#.....................#
#.....................#
#.....................#
#..........s..........#
#######################
"""
    world, log = invaded(corridor)
    plate = trap_at(world, 3, 1)
    world.streams["adventurers"] = ScriptedDice(dice=[2])  # the first roll misses
    group = invade(world, member("warrior", 1), member("warrior", 1))
    walker = adv(world, group)
    for x in (9, 8, 7, 6, 5, 4):  # walking up to it, within 6 all the way
        stand(world, walker, x, 2)
        knowledge.after_step(world, walker, group)
    stand(world, adv(world, group, 2), 5, 3)
    knowledge.after_step(world, adv(world, group, 2), group)
    rolls = [e for e in of(log, "roll") if e["trigger"] == plate.id]
    assert [(r["actor"], r["outcome"]) for r in rolls] == [(walker.id, "missed")]
    assert group.rolled == [plate.id]
    # A new group rolls for it again.
    newcomers = invade(world, member("warrior", 1))
    stand(world, adv(world, newcomers), 6, 3)
    knowledge.after_step(world, adv(world, newcomers), newcomers)
    assert len([e for e in of(log, "roll") if e["trigger"] == plate.id]) == 2
