"""Caution (K-CAUT-01..04) and learning from traps that go off (K-LEARN-01..07)."""

from __future__ import annotations

import itertools

import pytest
from keep_kit import (
    ScriptedDice,
    adv,
    ended,
    invade,
    invaded,
    member,
    of,
    put,
    record_steps,
    run_until,
    stand,
    wire,
)
from test_keep_knowledge import TWO_WAYS, WIDE, trap_at

from undercroft.core.grid import Pos
from undercroft.keep.content.calendar import TICKS_PER_MINUTE
from undercroft.keep.rules import caution, knowledge, learning, stepping, traps
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.structures import Mechanism, Trigger
from undercroft.keep.state.world import World

# The only way down is a corridor 1 tile wide, x = 5, y = 3..6.
CORRIDOR = """
#####p#####
#.........#
#.........#
#####.#####
#####.#####
#####.#####
#####.#####
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-CAUT-01", "R-K-CAUT-01")
def test_a_known_tripwire_is_stepped_over_and_an_unknown_one_goes_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steps = record_steps(monkeypatch)
    world, log = invaded(CORRIDOR)
    wire_ = put(world, "tripwire", 5, 4)
    put(world, "alarm", 5, 6)
    wire(world, (5, 4), (5, 5), (5, 6))
    world.streams["adventurers"] = ScriptedDice(dice=[2, 2])  # nobody discovers it
    knowing = invade(world, member("warrior", 1))
    adv(world, knowing).learn(wire_.id, "test")
    run_until(world, ended(world, knowing))
    assert Pos(5, 4) in steps[adv(world, knowing).id]
    assert of(log, "trap.fired") == []
    stepped = of(log, "trigger.stepped_over")
    assert {e["adventurer"] for e in stepped} == {adv(world, knowing).id}
    unknowing = invade(world, member("warrior", 1))
    run_until(world, ended(world, unknowing))
    assert [e["by"] for e in of(log, "trap.fired")] == [adv(world, unknowing).id]


@pytest.mark.rule("K-CAUT-01", "R-K-CAUT-01")
def test_a_known_trigger_is_walked_round_when_it_can_be(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = record_steps(monkeypatch)
    world, log = invaded(TWO_WAYS, options={"known_tripwires": "walk_around"})
    tripwire = trap_at(world, 4, 4, "tripwire")
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    walker.learn(tripwire.id, "test")
    run_until(world, ended(world, group))
    assert Pos(4, 4) not in steps[walker.id] and Pos(9, 3) in steps[walker.id]
    assert of(log, "trap.fired") == [] and of(log, "trigger.stepped_over") == []


@pytest.mark.rule("K-CAUT-01", "K-CAUT-03", "R-K-CAUT-01")
def test_a_known_plate_that_blocks_the_way_is_disarmed() -> None:
    world, log = invaded(CORRIDOR)
    plate = put(world, "pressure_plate", 5, 4)
    assert isinstance(plate, Trigger)
    put(world, "spinning_blades", 5, 6)
    wire(world, (5, 4), (5, 5), (5, 6))
    world.streams["adventurers"] = ScriptedDice(dice=[3, 19])  # a failure, then a success
    group = invade(world, member("rogue", 1), member("warrior", 1))
    for m in (1, 2):
        adv(world, group, m).learn(plate.id, "test")
    group.caution = 1
    run_until(world, ended(world, group))
    rolls = [e for e in of(log, "roll") if "K-CAUT-01" in e["rules"]]
    assert [r["outcome"] for r in rolls] == ["fail", "disarmed"]
    assert {r["actor"] for r in rolls} == {adv(world, group, 1).id}  # the best Craft
    assert rolls[0]["modifiers"] == {"craft": 8, "caution": 1}
    assert rolls[0]["target"] == 18
    (done,) = of(log, "trigger.disarmed")
    assert done["outcome"] == "disarmed" and done["attempts"] == 2
    assert of(log, "trap.fired") == []
    (expired,) = [e for e in of(log, "part.expired") if e["structure"] == plate.id]
    assert "K-CAUT-01" in expired["rules"] and not plate.working  # it needs its rearm


@pytest.mark.rule("K-CAUT-02", "R-K-CAUT-02")
def test_a_corridor_one_tile_wide_puts_the_group_in_caution_a_doorway_does_not() -> None:
    world, log = invaded(CORRIDOR)
    corridors = caution.corridors(world)
    assert corridors[4, 5] and corridors[3, 5] and not corridors[0, 5]  # the portal gap
    assert not corridors[7, 5] and not corridors[2, 5]
    group = invade(world, member("warrior", 1))
    run_until(world, lambda: bool(of(log, "group.caution")))
    (entered,) = of(log, "group.caution")
    assert entered["reason"] == "corridor" and entered["caution"] == 1
    assert adv(world, group).pos == Pos(5, 3)


@pytest.mark.rule("K-CAUT-02", "K-CAUT-03")
def test_setting_off_a_trap_brings_caution_and_a_second_one_makes_it_plus_2() -> None:
    world, log = invaded(WIDE)
    first, second = trap_at(world, 2, 2), trap_at(world, 8, 2)
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    stand(world, walker, 2, 2)
    traps.walker_enters(world, first.id, walker)
    assert group.caution == 1
    stand(world, walker, 8, 2)
    traps.walker_enters(world, second.id, walker)
    assert group.caution == 2
    assert [(e["caution"], e["reason"]) for e in of(log, "group.caution")] == [
        (1, "trap"),
        (2, "trap"),
    ]
    assert caution.bonus(world, walker, group) == 2


@pytest.mark.rule("K-CAUT-02", "R-K-CAUT-02")
def test_old_remains_bring_caution_once_per_area() -> None:
    world, log = invaded(WIDE)
    blades = trap_at(world, 2, 2)
    first = invade(world, member("warrior", 1))
    stand(world, adv(world, first), 2, 2)
    traps.walker_enters(world, blades.id, adv(world, first))  # the darts hit it: blood
    assert [r["at"] for r in world.invasion.remains] == [[2, 4]]
    world.run(world.now + 10)
    later = invade(world, member("warrior", 1))
    walker = adv(world, later)
    stand(world, walker, 6, 4)
    caution.after_step(world, walker, later)
    caution.after_step(world, walker, later)
    assert later.caution == 1 and later.remains_areas == ["2,4"]
    assert [e["reason"] for e in of(log, "group.caution") if e["group"] == later.number] == [
        "remains"
    ]
    # Its own group's blood is not old to it.
    first.caution = 0
    caution.after_step(world, adv(world, first), first)
    assert first.caution == 0


@pytest.mark.rule("K-CAUT-03", "R-K-MOVE-01")
def test_in_caution_each_member_moves_exactly_20_percent_slower(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    times: list[int] = []
    real = stepping.move

    def move(world: World, who: Adventurer, to: Pos) -> None:
        times.append(world.tick)
        real(world, who, to)

    monkeypatch.setattr(stepping, "move", move)
    world, _ = invaded(WIDE)
    group = invade(world, member("warrior", 1))
    run_until(world, lambda: len(times) >= 4)
    calm = [b - a for a, b in itertools.pairwise(times)]
    group.caution = 1
    times.clear()
    run_until(world, lambda: len(times) >= 4)
    wary = [b - a for a, b in itertools.pairwise(times)]
    assert set(calm) == {60 * TICKS_PER_MINUTE // 60}  # a warrior: 60 seconds a tile
    assert set(wary) == {72 * TICKS_PER_MINUTE // 60}  # 6/5 of it


@pytest.mark.rule("K-CAUT-04")
def test_a_group_in_caution_that_discovers_a_trap_leaves_it_and_corridors_no_longer_count() -> None:
    world, _log = invaded(CORRIDOR)
    plate = put(world, "pressure_plate", 3, 1)
    put(world, "dart_launcher", 1, 1)
    wire(world, (3, 1), (2, 1), (1, 1))
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    group.caution = 1
    stand(world, walker, 6, 2)
    world.streams["adventurers"] = ScriptedDice(dice=[20])
    assert isinstance(plate, Trigger)
    knowledge.discover(world, walker, group, plate)
    assert group.caution == 0 and group.corridors_calm
    stand(world, walker, 5, 4)
    caution.after_step(world, walker, group)
    assert group.caution == 0  # the corridor no longer puts it in Caution
    darts = world.structures["trap:1"]
    assert isinstance(darts, Mechanism)
    learning.trap_went_off(world, darts, plate.id, walker.id, [])
    assert group.caution == 1  # a trap going off still does


@pytest.mark.rule("K-LEARN-02", "K-LEARN-03", "K-LEARN-04")
def test_bonuses_grow_by_trigger_type_and_mechanism_kind_to_plus_2_at_most() -> None:
    world, log = invaded(WIDE)
    wire1 = trap_at(world, 2, 2, "tripwire")
    wide = trap_at(world, 8, 2, "wide_tripwire")
    third = trap_at(world, 14, 2, "tripwire")
    plate = trap_at(world, 20, 2, "pressure_plate")
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    for trigger in (wire1, wide, third, plate):
        stand(world, walker, trigger.pos.x, trigger.pos.y)
        traps.walker_enters(world, trigger.id, walker)
    # Tripwire and wide tripwire are one type: three times, capped at +2.
    assert walker.detect == {"tripwire": 2, "pressure_plate": 1}
    assert walker.block == {"dart_launcher": 2}  # four darts: +2 at most
    learned = of(log, "adventurers.learned")
    assert [e["learners"][0]["detect"] for e in learned] == [
        {"tripwire": 1},
        {"tripwire": 2},
        {"tripwire": 2},
        {"pressure_plate": 1},
    ]


@pytest.mark.rule("K-LEARN-06", "K-CAUT-03")
def test_inside_gas_the_caution_bonus_is_lost_but_the_learned_bonuses_stay() -> None:
    world, log = invaded(WIDE)
    gas_plate = put(world, "pressure_plate", 6, 6)
    put(world, "gas_sprayer", 6, 4)
    wire(world, (6, 6), (6, 5), (6, 4))
    far = trap_at(world, 12, 4)
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    walker.detect["pressure_plate"] = 1
    group.caution = 1
    stand(world, walker, 6, 6)
    traps.walker_enters(world, gas_plate.id, walker)  # gas around (6, 4), 2 tiles
    assert caution.in_gas(world, walker.pos) and group.caution == 2
    assert caution.bonus(world, walker, group) == 0
    knowledge.discover(world, walker, group, far)
    (roll,) = [e for e in of(log, "roll") if e.get("trigger") == far.id]
    assert roll["bonuses"] == {"detect": 2, "caution": 0}
    world.run(world.now + 31)  # the gas is gone
    assert caution.bonus(world, walker, group) == 2


@pytest.mark.rule("K-LEARN-07")
def test_each_adventurer_can_be_inspected_and_keeps_its_bonuses_until_it_leaves() -> None:
    extra = '[[prisoner]]\nclass = "rogue"\nlevel = 2\nat = [20, 8]\nname = "held"\n'
    world, _log = invaded(WIDE, extra)
    darts = trap_at(world, 2, 2)
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    stand(world, walker, 2, 2)
    traps.walker_enters(world, darts.id, walker)
    view = learning.view(world, walker)
    assert view["knows"][0]["trigger"] == darts.id and view["knows"][0]["how"] == "went_off"
    assert view["detect"] == {"pressure_plate": 1} and view["block"] == {"dart_launcher": 1}
    assert view["kept"] and view["caution"] == 1
    prisoner = world.beings[world.labels["held"]]
    assert isinstance(prisoner, Adventurer)
    prisoner.block["spinning_blades"] = 2  # learned before it was captured
    assert learning.view(world, prisoner)["block"] == {"spinning_blades": 2}
    # A new group starts with none.
    newcomer = adv(world, invade(world, member("warrior", 1)))
    assert learning.view(world, newcomer)["detect"] == {} and newcomer.knows == {}
    stepping.queue_step(world, walker)
    run_until(world, ended(world, group))
    gone = learning.view(world, walker)
    assert not gone["kept"] and "K-LEARN-07" in gone["note"] and gone["caution"] == 0


@pytest.mark.rule("K-LEARN-01", "R-K-LEARN-01", "K-KNOW-02")
def test_a_trap_pulled_by_a_lever_teaches_too_counted_from_its_mechanism_if_unwired() -> None:
    from undercroft.keep.commands import execute
    from undercroft.keep.state.orders import PullLever

    world, log = invaded(WIDE)
    lever = put(world, "lever", 4, 4)
    put(world, "flamethrower", 6, 4)
    wire(world, (4, 4), (5, 4), (6, 4))
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    stand(world, walker, 14, 4)  # 10 from the lever
    assert execute(world, PullLever(lever.id)).accepted
    (learned,) = of(log, "adventurers.learned")
    assert learned["trigger"] == lever.id and learned["learners"][0]["id"] == walker.id
    assert walker.block == {"flamethrower": 1} and group.caution == 0  # it set nothing off
