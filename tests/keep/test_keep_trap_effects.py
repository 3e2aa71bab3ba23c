"""What mechanisms do to those they catch (K-TRAP-03, K-TRAP-05, K-REARM-03, ruling
R-K-TRAP-02): each mechanism's effect happens to whoever stands in its area, and to nobody
behind a wall; one caught resists with Block, Caution and what it learned."""

from __future__ import annotations

from typing import Any

import pytest
from keep_kit import (
    ScriptedDice,
    adv,
    creature,
    invade,
    invaded,
    make_world,
    member,
    minion,
    of,
    put,
    stand,
    wire,
)

from undercroft.core.events import EventLog
from undercroft.core.grid import Pos
from undercroft.keep.content.ruleset import Effect, default_ruleset
from undercroft.keep.rules import caution, traps
from undercroft.keep.state.actors import Job
from undercroft.keep.state.structures import Mechanism, PartState, Trigger
from undercroft.keep.state.world import World

# The mechanism stands at (4, 2) with a wall at (5, 2) east of it.
WALLED = """
########p#
#........#
#....#...#
#........#
#........#
#.......s#
##########
"""
MECH = Pos(4, 2)
NEAR = Pos(3, 2)  # in every area (1 tile west)
BEHIND = Pos(6, 2)  # 2 tiles east, behind the wall
CORNER = Pos(5, 3)  # 1 tile diagonally, past the wall's corner: sight, but no line of fire

# Each mechanism loses its roll (natural 15 against a natural 1) and its wound lands on
# the torso (a 4 on the 1d8 location table).
LOSES = [15, 1, 4] * 4


def placed(kind: str, **options: Any) -> tuple[World, Any, Mechanism, list[Any]]:
    world, log = make_world(WALLED, options=options)
    mech = put(world, kind, MECH.x, MECH.y)
    assert isinstance(mech, Mechanism)
    wolves = [creature(world, "wolf", p.x, p.y) for p in (NEAR, BEHIND, CORNER)]
    return world, log, mech, wolves


def fire(world: World, mech: Mechanism, by: str = "test") -> dict[str, Any]:
    """Fire ``mech`` with the mechanism winning every roll; its ``trap.fired`` line."""
    world.streams["combat"] = ScriptedDice(dice=LOSES)
    assert traps.fire(world, mech.id, None, by, "set_off", ("K-TRAP-03",))
    log = world.log
    assert isinstance(log, EventLog)
    return of(log, "trap.fired")[-1]


WOUNDING = ["spinning_blades", "flamethrower", "electric_coil", "dart_launcher", "explosive"]


@pytest.mark.rule("K-TRAP-03", "R-K-TRAP-02")
@pytest.mark.parametrize("kind", WOUNDING)
def test_a_wounding_mechanism_wounds_whoever_is_in_its_area_and_nobody_behind_a_wall(
    kind: str,
) -> None:
    world, log, mech, (near, behind, corner) = placed(kind)
    content = default_ruleset().mechanisms[kind]
    shot = fire(world, mech)
    assert shot["caught"] == [near.id]  # not through the wall, not round its corner
    assert world.sight().can_see(MECH, CORNER)  # (sight would pass that corner)
    (wound,) = of(log, "wound")
    assert (wound["target"], wound["source"], wound["weapon"]) == (near.id, mech.id, kind)
    assert wound["level"] == content.wound and wound["location"] == "torso"
    assert "K-TRAP-03" in wound["rules"]
    assert behind.wound_points == corner.wound_points == 0


@pytest.mark.rule("K-TRAP-03", "K-LEARN-06", "R-K-TRAP-02")
def test_a_gas_sprayer_leaves_a_cloud_and_wounds_those_it_catches() -> None:
    world, log, mech, (near, behind, _) = placed("gas_sprayer")
    shot = fire(world, mech)
    assert shot["caught"] == [near.id] and behind.wound_points == 0
    (cloud,) = of(log, "gas.cloud")
    assert cloud["at"] == [4, 2] and cloud["until"] == world.now + 30
    assert caution.in_gas(world, NEAR) and not caution.in_gas(world, Pos(8, 4))
    (wound,) = of(log, "wound")
    assert wound["target"] == near.id and wound["level"] == "light"
    world.run(world.now + 31)
    assert not caution.in_gas(world, NEAR)


@pytest.mark.rule("K-TRAP-03", "R-K-TRAP-02")
def test_a_web_holds_those_it_catches_and_they_walk_on_after() -> None:
    world, log, mech, (near, behind, _) = placed("web")
    from undercroft.keep.rules import movement

    assert movement.walk_to(world, near, Pos(1, 4))
    fire(world, mech)
    (held,) = of(log, "being.held")
    assert held["being"] == near.id and held["until"] == world.now + 20
    assert near.walk is None and near.pos == NEAR  # stopped where the web caught it
    world.run(world.now + 19)
    assert near.pos == NEAR
    world.run(world.now + 10)
    assert near.pos != NEAR  # the web let go: it walks on
    assert behind.held_until < 0


@pytest.mark.rule("K-TRAP-03", "R-K-TRAP-02")
def test_terror_makes_those_it_catches_flee_from_the_trap() -> None:
    world, log, mech, (near, behind, _) = placed("terror")
    fire(world, mech)
    (afraid,) = of(log, "being.terrified")
    assert afraid["being"] == near.id and afraid["from"] == [4, 2]
    world.run(world.now + 10)
    assert near.pos.chebyshev(MECH) > 1  # it ran from the trap
    assert behind.terror_until < 0


@pytest.mark.rule("K-TRAP-03", "R-K-TRAP-02")
def test_a_spider_trap_releases_spiders_of_your_side_on_its_side_of_the_wall() -> None:
    world, log, mech, _ = placed("spider")
    fire(world, mech)
    (released,) = of(log, "creatures.summoned")
    spiders = [world.beings[s] for s in released["creatures"]]
    assert len(spiders) == 2 and {s.breed for s in spiders} == {"spider"}
    assert all(s.side().value == "keep" and s.pos.x <= 4 for s in spiders)
    world.run(world.now + 61)
    assert not any(s.present for s in spiders)  # their time is up
    assert len(of(log, "creature.gone")) == 2


@pytest.mark.rule("K-TRAP-03", "K-ARR-03")
def test_every_mechanism_kind_has_an_effect_and_the_wounding_ones_a_wound() -> None:
    rules = default_ruleset()
    effects = {k: m.effect for k, m in rules.mechanisms.items()}
    assert effects["gas_sprayer"] is Effect.GAS and effects["web"] is Effect.HOLD
    assert effects["terror"] is Effect.FLEE and effects["alarm"] is Effect.ALARM
    assert effects["spider"] is Effect.SUMMON
    assert all(rules.mechanisms[k].wound != "none" for k in WOUNDING)
    assert all(rules.mechanisms[k].effect is Effect.WOUND for k in WOUNDING)


@pytest.mark.rule("K-TRAP-03", "K-CMB-01", "K-CAUT-03", "K-LEARN-03", "R-K-TRAP-02")
def test_a_victim_resists_with_block_caution_and_what_it_learned() -> None:
    world, log = invaded(WALLED)
    mech = put(world, "spinning_blades", MECH.x, MECH.y)
    assert isinstance(mech, Mechanism)
    group = invade(world, member("warrior", 2), goal="kill_master")
    walker = adv(world, group)
    stand(world, walker, NEAR.x, NEAR.y)
    walker.block["spinning_blades"] = 2  # learned from two earlier blades
    group.caution = 1
    world.streams["combat"] = ScriptedDice(dice=[12, 10])  # 12 + 12 vs 10 + 10 + 1 + 2
    traps.fire(world, mech.id, None, "test", "set_off", ())
    blade, block = [e for e in of(log, "roll") if "K-TRAP-03" in e["rules"]]
    assert blade["actor"] == mech.id and blade["modifiers"] == {"power": 12}
    assert block["actor"] == walker.id
    assert block["modifiers"] == {"block": 10, "caution": 1, "learned": 2}
    assert (blade["total"], block["total"]) == (24, 23) and blade["outcome"] == "win"
    assert {"K-CAUT-03", "K-LEARN-03"} <= set(block["rules"])
    assert of(log, "wound")  # 24 beats 23
    # The same roll with +1 more to resist (Caution +2) is a tie: ties go to the victim.
    group.caution = 2
    mech.state = PartState.ARMED
    world.streams["combat"] = ScriptedDice(dice=[12, 10])
    traps.fire(world, mech.id, None, "test", "set_off", ())
    assert len(of(log, "wound")) == 1


@pytest.mark.rule("K-TRAP-03", "R-K-TRAP-02")
def test_your_own_side_is_caught_unless_the_switch_spares_it() -> None:
    for spare in (False, True):
        world, log = make_world(WALLED, options={"trap_friendly_fire": not spare})
        mech = put(world, "dart_launcher", MECH.x, MECH.y)
        kobold = minion(world, NEAR.x, NEAR.y, job=Job.NONE)
        wolf = creature(world, "wolf", 2, 2)
        assert isinstance(mech, Mechanism)
        fire(world, mech)
        caught = of(log, "trap.fired")[0]["caught"]
        assert caught == ([wolf.id] if spare else [kobold.id, wolf.id])
    assert world.header().options["trap_friendly_fire"] is False


@pytest.mark.rule("K-REARM-03", "K-TRAP-03", "R-K-REARM-01", "R-K-TRAP-02")
def test_a_fumbled_rearm_that_fires_may_hurt_the_rearming_minion() -> None:
    for spare in (False, True):  # even a trap that spares your side catches the fumbler
        world, log = make_world(WALLED, options={"trap_friendly_fire": not spare})
        plate = put(world, "pressure_plate", 2, 4)
        blades = put(world, "spinning_blades", MECH.x, MECH.y)
        assert wire(world, (2, 4), (4, 4), (4, 2)).accepted
        kobold = minion(world, NEAR.x, NEAR.y, job=Job.NONE)  # beside the blades
        assert isinstance(blades, Mechanism)
        blades.state = PartState.USED
        world.rng = ScriptedDice(dice=[1], chances=[True])  # a fumble that fires
        world.streams["combat"] = ScriptedDice(dice=LOSES)
        assert traps.rearm(world, kobold, blades) is traps.RearmOutcome.FIRES
        shot = of(log, "trap.fired")[0]
        assert shot["cause"] == "fumble" and shot["caught"] == [kobold.id]
        (wound,) = of(log, "wound")
        assert wound["target"] == kobold.id and wound["source"] == blades.id
        assert plate.id  # (the trigger is the trap's)


@pytest.mark.rule("K-TRAP-05", "K-REARM-03", "R-K-REARM-01")
def test_a_mechanism_with_nothing_wired_never_fires_not_even_on_a_fumble() -> None:
    world, log = make_world(WALLED)
    blades = put(world, "spinning_blades", MECH.x, MECH.y)
    kobold = minion(world, NEAR.x, NEAR.y, job=Job.NONE)
    assert isinstance(blades, Mechanism)
    blades.state = PartState.USED
    world.rng = ScriptedDice(dice=[1], chances=[True])
    assert traps.rearm(world, kobold, blades) is traps.RearmOutcome.FAILED
    assert of(log, "trap.fired") == [] and of(log, "chance") == []  # no firing, no draw
    (fumbled,) = of(log, "part.fumbled")
    assert fumbled["structure"] == blades.id and "K-TRAP-05" in fumbled["rules"]
    assert blades.state is PartState.USED  # the rearm starts again
    # A trigger wired to nothing does nothing on a fumble either.
    lone = put(world, "tripwire", 8, 4)
    assert isinstance(lone, Trigger)
    lone.state = PartState.USED
    world.rng = ScriptedDice(dice=[1], chances=[True])
    assert traps.rearm(world, kobold, lone) is traps.RearmOutcome.FAILED
    assert of(log, "trap.fired") == [] and len(of(log, "part.fumbled")) == 2
