"""One body per tile holds for every being in a fight, busy or not (K-CROWD-01, issue 31):
a minion walking to its work does not step into an adventurer's tile."""

from __future__ import annotations

import pytest
from keep_kit import adv, invade, invaded, member, minion, stand

from undercroft.core.grid import Pos
from undercroft.keep import movement, stepping
from undercroft.keep.actors import Job

# A corridor one tile wide between two rooms: nobody can go round someone standing in it.
CORRIDOR = """
###p###
#.....#
###.###
###.###
###.###
#.....#
#..s..#
#######
"""


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_a_walking_minion_waits_for_an_adventurers_tile_and_never_steps_into_it() -> None:
    world, _ = invaded(CORRIDOR)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 3)
    kobold = minion(world, 3, 1, job=Job.NONE)
    assert movement.walk_to(world, kobold, Pos(3, 6))
    seen = []
    for _ in range(15):
        world.run(world.now + 1)
        seen.append(kobold.pos_at(world.now))
    assert Pos(3, 3) not in seen and seen[-1] == Pos(3, 2)  # it waits behind the warrior
    stepping.move(world, warrior, Pos(1, 1))  # the warrior steps out of the way
    world.run(world.now + 10)
    assert kobold.walk is None and kobold.pos == Pos(3, 6)


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_a_walking_minion_goes_round_an_adventurer_when_it_can() -> None:
    world, _ = invaded(CORRIDOR.replace("###.###\n###.###\n###.###", "#.....#\n#.....#\n#.....#"))
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 3)
    kobold = minion(world, 3, 1, job=Job.NONE)
    assert movement.walk_to(world, kobold, Pos(3, 6))
    path = list(kobold.walk.path) if kobold.walk else []
    assert Pos(3, 3) in path  # its planned way went through the warrior
    seen = []
    for _ in range(12):
        world.run(world.now + 1)
        seen.append(kobold.pos_at(world.now))
    assert Pos(3, 3) not in seen and kobold.pos == Pos(3, 6)
