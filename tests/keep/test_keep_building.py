"""Building on site with metal, and the walking path that must remain (K-BUILD-01, K-PATH-01)."""

from __future__ import annotations

import pytest
from keep_kit import HALL, ScriptedDice, make_world, minion, of

from undercroft.core.checks import DiceModel, Grade
from undercroft.core.content import ContentError
from undercroft.core.grid import Pos, Terrain
from undercroft.keep.commands import execute
from undercroft.keep.state.actors import Job
from undercroft.keep.state.orders import Build, Remove

STOCK = "stockpile = { at = [1, 1], metal = 7 }\n"

ONE_GAP = """
#####p#####
#.........#
#.........#
####.######
#.........#
#....s....#
###########
"""

ONE_DOOR = ONE_GAP.replace("####.####", "####+####")

TWO_GAPS = """
#####p#####
#.........#
#.........#
##.####.###
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-BUILD-01", "R-K-BUILD-01")
def test_metal_is_reserved_and_an_order_the_stockpile_cannot_cover_is_refused() -> None:
    world, _ = make_world(HALL, STOCK)
    assert world.stockpile is not None
    assert execute(world, Build("spinning_blades", Pos(5, 3))).accepted  # 5 metal
    assert (world.stockpile.metal, world.stockpile.reserved, world.stockpile.free) == (7, 5, 2)
    refused = execute(world, Build("flamethrower", Pos(7, 3)))  # 5 more
    assert not refused.accepted and refused.rules == ("K-BUILD-01",)
    assert "needs 5 metal" in refused.reason and "2 to spare" in refused.reason
    assert execute(world, Build("pressure_plate", Pos(2, 5))).accepted  # 2: exactly enough
    assert world.stockpile.free == 0
    # Removing an order gives its metal back.
    assert execute(world, Remove("site:1")).accepted
    assert world.stockpile.free == 5 and world.stockpile.metal == 7


@pytest.mark.rule("K-BUILD-01", "R-K-BUILD-01", "R-K-DICE-01")
def test_chores_minions_carry_the_metal_and_a_traps_minion_builds() -> None:
    world, log = make_world(HALL, STOCK)
    goblin = minion(world, 2, 1, job=Job.CHORES, breed="goblin")  # carries 4 a trip
    kobold = minion(world, 8, 7, job=Job.TRAPS)
    world.rng = ScriptedDice(dice=[18])  # craft 4 -> 18 + 8 = 26: Excellent
    assert execute(world, Build("spinning_blades", Pos(5, 3), name="blades")).accepted
    world.run(8 * 60)
    loads = of(log, "metal.delivered")
    # The goblin takes a full load; the idle Traps minion carries the rest (no trap work).
    assert [(e["minion"], e["metal"], e["time"]["minute"]) for e in loads] == [
        (goblin.id, 4, 6),
        (kobold.id, 1, 18),
    ]
    roll = next(e for e in of(log, "roll") if "K-BUILD-01" in e["rules"])
    assert roll["actor"] == kobold.id and roll["natural"] == [18] and roll["total"] == 26
    assert roll["outcome"] == "excellent"
    assert roll["outcome"] == DiceModel().grade_of(18, 26).value
    built = of(log, "structure.built")[0]
    assert (built["structure"], built["quality"]) == ("trap:1", "excellent")
    assert built["minion"] == kobold.id
    blades = world.structure("trap:1")
    assert blades.quality is Grade.EXCELLENT and blades.name == "blades"
    assert world.stockpile is not None and world.stockpile.metal == 2
    assert not any(m.task for m in world.minions())


@pytest.mark.rule("K-BUILD-01")
def test_without_a_traps_minion_nothing_gets_built() -> None:
    world, log = make_world(HALL, STOCK)
    minion(world, 2, 1, job=Job.CHORES, breed="goblin")
    execute(world, Build("web", Pos(5, 3)))
    world.run(2 * 24 * 60)
    assert of(log, "metal.delivered") and of(log, "structure.built") == []


@pytest.mark.rule("K-PATH-01", "R-K-PATH-01")
def test_nothing_built_may_cut_the_last_path_to_the_sanctum() -> None:
    world, log = make_world(ONE_GAP, STOCK)
    refused = execute(world, Build("barricade", Pos(4, 3)))
    assert not refused.accepted and refused.rules == ("K-PATH-01", "R-K-PATH-01")
    assert "last walking path" in refused.reason
    assert world.structure_at(Pos(4, 3)) is None
    assert execute(world, Build("barricade", Pos(2, 1))).accepted  # off the path: fine
    assert of(log, "command")[0]["accepted"] is False


@pytest.mark.rule("K-PATH-01", "K-LOCK-01")
def test_a_locked_door_counts_as_open_for_the_path() -> None:
    world, log = make_world(ONE_DOOR, STOCK)
    minion(world, 2, 1)
    assert execute(world, Build("lock", Pos(4, 3))).accepted
    world.run(6 * 60)
    assert of(log, "lock.armed")  # the only way in is locked, and that is allowed
    assert execute(world, Build("barricade", Pos(2, 4))).accepted


@pytest.mark.rule("K-PATH-01", "R-K-PATH-01")
def test_planned_barricades_count_as_built() -> None:
    world, _ = make_world(TWO_GAPS, "stockpile = { at = [1, 1], metal = 20 }\n")
    minion(world, 1, 2)
    assert execute(world, Build("barricade", Pos(2, 3))).accepted
    second = execute(world, Build("barricade", Pos(7, 3)))
    assert not second.accepted and second.rules[0] == "K-PATH-01"
    world.run(6 * 60)
    assert world.grid.terrain_at(Pos(2, 3)) is Terrain.BLOCKAGE
    assert not execute(world, Build("barricade", Pos(7, 3))).accepted
    assert execute(world, Remove("barricade:1")).accepted
    assert world.grid.terrain_at(Pos(2, 3)) is Terrain.FLOOR
    assert execute(world, Build("barricade", Pos(7, 3))).accepted


@pytest.mark.rule("K-PATH-01")
def test_a_scenario_without_a_path_is_refused() -> None:
    sealed = ONE_GAP.replace("####.######", "###########")
    with pytest.raises(ContentError) as caught:
        make_world(sealed)
    assert "K-PATH-01" in str(caught.value)


@pytest.mark.rule("K-BUILD-01", "R-K-BUILD-01")
def test_a_site_needing_several_hauls_gets_exactly_its_metal() -> None:
    # One kobold carrying 3 a trip for a 6-metal coil: two hauls, never a third one.
    world, log = make_world(HALL, "stockpile = { at = [1, 1], metal = 6 }\n")
    minion(world, 2, 1, job=Job.CHORES)
    assert world.stockpile is not None
    lowest = world.stockpile.metal
    assert execute(world, Build("electric_coil", Pos(5, 4))).accepted
    for _ in range(240):
        world.run(world.now + 1)
        lowest = min(lowest, world.stockpile.metal, world.stockpile.free)
    delivered = [e["metal"] for e in of(log, "metal.delivered")]
    assert sum(delivered) == 6 and len(delivered) == 2
    assert (world.stockpile.metal, world.stockpile.reserved) == (0, 0)
    assert lowest >= 0


@pytest.mark.rule("K-PATH-01")
def test_a_walker_goes_round_a_barricade_finished_on_its_way() -> None:
    from keep_kit import put

    from undercroft.keep.rules import visitors

    world, _ = make_world(TWO_GAPS)
    wolf = visitors.arrive(world, "wolf", Pos(5, 0), [Pos(7, 5)])
    world.run(world.now + 2)
    assert wolf.walk is not None and Pos(7, 3) in wolf.walk.path  # the short way, by x=7
    put(world, "barricade", 7, 3)
    seen = set()
    for _ in range(30):
        world.run(world.now + 1)
        seen.add(wolf.pos_at(world.now))
    assert Pos(7, 3) not in seen and Pos(2, 3) in seen  # round by the other gap
    assert Pos(7, 5) in seen
