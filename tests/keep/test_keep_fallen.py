"""The fallen: waking, bleeding, healing, carrying, capture, killing and bodies (K-WAKE-01,
K-WAKE-02, K-AFTER-02, K-LEARN-07; rulings R-K-WAKE-01, R-K-WAKE-02)."""

from __future__ import annotations

from typing import Any

import pytest
from keep_kit import CALM, HALL, adv, calm, invade, invaded, make_world, member, minion, of, stand

from undercroft.core.grid import Pos
from undercroft.keep.content.ruleset import default_ruleset
from undercroft.keep.rules import fallen, learning, wounds
from undercroft.keep.state.actors import Being, Condition, Job
from undercroft.keep.state.invaders import Whereabouts
from undercroft.keep.state.world import World


def knock_out(world: World, being: Being, *, bleeding: bool = False, by: str = "test") -> None:
    """Take ``being`` out unconscious: a blunt light wound (no bleeding), or an edged
    critical one (bleeding, the content's ``bleeds``)."""
    level = "critical" if bleeding else "light"
    fallen.take_out(world, being, "unconscious", by=by, cause="wounds", blunt=not bleeding,
                    level=level)  # fmt: skip


@pytest.mark.rule("K-WAKE-02", "R-K-WAKE-01")
def test_one_not_bleeding_wakes_by_itself_within_4_hours() -> None:
    waits = []
    for seed in range(40):
        world, log = make_world(HALL, seed=seed)
        kobold = minion(world, 2, 2, job=Job.NONE)
        knock_out(world, kobold)
        (roll,) = [e for e in of(log, "roll") if "K-WAKE-02" in e["rules"]]
        assert roll["dice"] == "1d240"
        world.run(world.now + 240)
        (woke,) = of(log, "being.woke")
        assert woke["being"] == kobold.id and woke["how"] == "by_itself" and kobold.up
        waits.append(woke["time"]["minute"])
        assert woke["time"]["minute"] == roll["natural"][0]  # after exactly the roll
    assert max(waits) <= 240 and 60 < sum(waits) / len(waits) < 180


@pytest.mark.rule("K-WAKE-02", "R-K-WAKE-01")
def test_one_bleeding_does_not_wake_and_dies_unless_healed() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2, job=Job.NONE)
    kobold.wounds.append({"source": "adv:1-1"})
    knock_out(world, kobold, bleeding=True)
    (down,) = of(log, "being.unconscious")
    assert down["bleeding"] and down["until"] == 120  # the content's bleed_minutes
    world.run(world.now + 119)
    assert kobold.condition is Condition.UNCONSCIOUS and not of(log, "being.woke")
    world.run(world.now + 1)
    (died,) = of(log, "being.died")
    assert died["cause"] == "bleeding" and died["by"] == "adv:1-1"


@pytest.mark.rule("K-WAKE-02", "K-KO-01", "R-K-WAKE-01")
def test_shipped_content_bleeds_serious_and_critical_edged_knock_outs_and_mends_wounds() -> None:
    # Ruling R-K-WAKE-01 as shipped: an edged serious or critical wound that takes one out
    # leaves it bleeding; a light wound or a blunt weapon does not; wounds mend 1 point a
    # 2 hours up. Read from the shipped rules.toml (make_world uses it) through the engine.
    combat = default_ruleset().combat
    assert combat.bleeds == ("serious", "critical") and combat.mend_minutes == 120
    seen: dict[tuple[str, bool], set[bool]] = {}
    for seed in range(60):
        world, log = make_world(HALL, seed=seed)
        for n, (level, blunt) in enumerate(
            [("light", False), ("serious", False), ("critical", False), ("serious", True)]
        ):
            kobold = minion(world, 2 + n, 2, job=Job.NONE)
            kobold.wound_points = 9  # the next wound takes it out (K-KO-01)
            kobold.mended_at = world.now
            wounds.inflict(world, kobold, source="adv:1-1", weapon="sword" if not blunt
                           else "mace", blunt=blunt, level=level, location="torso")  # fmt: skip
            down = [e for e in of(log, "being.unconscious") if e["being"] == kobold.id]
            if down:
                seen.setdefault((level, blunt), set()).add(down[0]["bleeding"])
                assert (kobold.bleeding_until is not None) is down[0]["bleeding"]
    assert seen == {
        ("light", False): {False},
        ("serious", False): {True},  # the 1,034-in-1,893 case of the audit: it bleeds
        ("critical", False): {True},
        ("serious", True): {False},
    }
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2, job=Job.NONE)
    wounds.inflict(world, kobold, source="adv:1-1", weapon="sword", blunt=False,
                   level="critical", location="arms")  # fmt: skip
    assert kobold.wound_points == 4
    world.run(world.now + 4 * 60)  # up for 4 hours: 2 points mended
    assert wounds.mend(world, kobold) == 2


@pytest.mark.rule("K-WAKE-01", "K-WAKE-02", "R-K-WAKE-02")
def test_a_fallen_minion_is_carried_to_its_own_bed_and_wakes_within_an_hour() -> None:
    for seed in range(8):
        world, log = make_world(HALL, seed=seed)
        kobold = minion(world, 8, 7, job=Job.NONE)  # its bed: where it started
        kobold.pos = Pos(2, 2)  # it fell far from its bed
        minion(world, 5, 5, job=Job.CHORES, breed="goblin")
        knock_out(world, kobold)
        woke_at = kobold.wake_at
        world.run(world.now + 240)
        (laid,) = [e for e in of(log, "being.laid") if e["where"] == "bed"]
        assert laid["at"] == [8, 7] and of(log, "being.carried")[0]["being"] == kobold.id
        (woke,) = of(log, "being.woke")
        assert woke["time"]["minute"] <= laid["time"]["minute"] + 60  # within 1 hour of bed
        assert woke_at is not None and woke["time"]["minute"] <= woke_at
        assert kobold.pos == Pos(8, 7) and kobold.up


@pytest.mark.rule("K-WAKE-01", "R-K-WAKE-01")
def test_a_cleric_heals_a_fallen_groupmate_it_stops_the_bleeding() -> None:
    world, log = invaded(calm(HALL), CALM)
    group = invade(world, member("warrior", 1), member("cleric", 1))
    warrior, cleric = adv(world, group, 1), adv(world, group, 2)
    stand(world, warrior, 3, 3)
    stand(world, cleric, 6, 6)
    knock_out(world, warrior, bleeding=True)
    from undercroft.keep.rules import stepping

    stepping.queue_step(world, cleric)
    world.run(world.now + 30)
    (healed,) = of(log, "being.healed")
    assert (healed["being"], healed["by"], healed["bleeding"]) == (warrior.id, cleric.id, True)
    assert warrior.up and warrior.bleeding_until is None
    assert of(log, "being.woke")[0]["how"] == "healed"


def capture_world(**options: Any) -> tuple[World, Any, Any]:
    extra = '[[cell]]\nat = [9, 8]\nname = "cell"\n' + CALM
    world, log = invaded(calm(HALL), extra, options=options)
    group = invade(world, member("rogue", 2))
    rogue = adv(world, group)
    stand(world, rogue, 3, 3)
    minion(world, 8, 2, job=Job.CHORES, breed="goblin")
    return world, log, rogue


@pytest.mark.rule("K-AFTER-02", "K-LEARN-07", "K-WAKE-01", "R-K-WAKE-02")
def test_an_unconscious_adventurer_is_captured_and_keeps_its_bonuses() -> None:
    world, log, rogue = capture_world()
    rogue.block["spinning_blades"] = 1
    rogue.detect["tripwire"] = 2
    knock_out(world, rogue)
    world.run(world.now + 60)
    (taken,) = of(log, "adventurer.captured")
    assert taken["adventurer"] == rogue.id and taken["at"] == [9, 8]
    assert rogue.where is Whereabouts.PRISONER and rogue.pos == Pos(9, 8)
    view = learning.view(world, rogue)
    assert view["kept"] and view["block"] == {"spinning_blades": 1}
    assert view["detect"] == {"tripwire": 2} and view["where"] == "prisoner"
    world.run(world.now + 300)
    assert rogue.up and rogue.where is Whereabouts.PRISONER  # it woke in its cell
    ended = of(log, "invasion.ended")[0]
    assert ended["captured"] == [rogue.id] and world.summary()["captured"] == 1


@pytest.mark.rule("K-WAKE-01", "R-K-WAKE-02")
def test_the_keeper_may_have_unconscious_adventurers_killed_instead() -> None:
    world, log, rogue = capture_world(fallen_adventurers="kill")
    knock_out(world, rogue)
    world.run(world.now + 60)
    (killed,) = of(log, "being.killed")
    assert killed["being"] == rogue.id and of(log, "adventurer.captured") == []
    assert rogue.where is Whereabouts.DEAD and of(log, "being.died")[0]["cause"] == "killed"
    left, left_log, other = capture_world(fallen_adventurers="leave")
    knock_out(left, other)
    left.run(left.now + 60)
    assert of(left_log, "being.carried") == [] and of(left_log, "being.killed") == []


@pytest.mark.rule("K-WAKE-01")
def test_an_adventurer_kills_a_fallen_enemy_lying_beside_it() -> None:
    world, log = invaded(calm(HALL), CALM)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 3)
    kobold = minion(world, 4, 3, job=Job.NONE)
    knock_out(world, kobold)
    from undercroft.keep.rules import stepping

    stepping.queue_step(world, warrior)
    world.run(world.now + 2)
    (killed,) = of(log, "being.killed")
    assert (killed["being"], killed["by"]) == (kobold.id, warrior.id)
    assert kobold.condition is Condition.DEAD


BODIES = '[[pyre]]\nat = [1, 8]\nname = "pyre"\n[[butcher_table]]\nat = [9, 8]\nname = "table"\n'


@pytest.mark.rule("K-AFTER-02", "R-K-WAKE-02")
def test_the_dead_are_butchered_or_burned_and_a_pyre_never_burns_an_adventurer() -> None:
    world, log = invaded(calm(HALL), BODIES + CALM)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 3)
    dead_kobold = minion(world, 6, 3, job=Job.NONE)
    minion(world, 5, 6, job=Job.CHORES, breed="goblin")
    fallen.die(world, warrior, by="test", cause="wounds")
    fallen.die(world, dead_kobold, by="test", cause="wounds")
    world.run(world.now + 120)
    (butchered,) = of(log, "body.butchered")
    (burned,) = of(log, "body.burned")
    assert butchered["body"] == warrior.id and butchered["at"] == [9, 8]
    assert burned["body"] == dead_kobold.id and burned["at"] == [1, 8]
    assert warrior.body == "butchered" and dead_kobold.body == "burned"
    # With only a pyre, an adventurer's body is left where it lies.
    only_pyre, pyre_log = invaded(calm(HALL), "[[pyre]]\nat = [1, 8]\n" + CALM)
    group = invade(only_pyre, member("warrior", 1))
    body = adv(only_pyre, group)
    stand(only_pyre, body, 3, 3)
    minion(only_pyre, 5, 6, job=Job.CHORES, breed="goblin")
    fallen.die(only_pyre, body, by="test", cause="wounds")
    only_pyre.run(only_pyre.now + 120)
    assert of(pyre_log, "body.burned") == [] and of(pyre_log, "being.carried") == []
    assert body.body == "lying" and body.pos == Pos(3, 3)
    assert not fallen.needs_carrying(only_pyre, body)


@pytest.mark.rule("K-WAKE-01", "R-K-WAKE-02")
def test_a_shaman_heals_a_fallen_minion_and_a_guard_carries_a_captive() -> None:
    world, log = make_world(HALL)
    kobold = minion(world, 2, 2, job=Job.NONE)
    kobold.wounds.append({"source": "adv:1-1"})
    shaman = minion(world, 8, 7, job=Job.CHORES, breed="shaman")
    knock_out(world, kobold, bleeding=True)
    world.run(world.now + 30)
    (healed,) = of(log, "being.healed")
    assert (healed["being"], healed["by"], healed["bleeding"]) == (kobold.id, shaman.id, True)
    assert kobold.up and of(log, "being.died") == []
    # A guard, out of a fight, carries an unconscious adventurer to the cells.
    captive_world, captive_log = invaded(
        calm(HALL), '[[cell]]\nat = [9, 8]\nname = "cell"\n' + CALM
    )
    group = invade(captive_world, member("rogue", 1))
    rogue = adv(captive_world, group)
    stand(captive_world, rogue, 3, 3)
    guard = minion(captive_world, 6, 6, job=Job.FIGHTING, breed="orc")
    knock_out(captive_world, rogue)
    captive_world.run(captive_world.now + 60)
    (taken,) = of(captive_log, "adventurer.captured")
    assert taken["by"] == guard.id and rogue.where is Whereabouts.PRISONER
