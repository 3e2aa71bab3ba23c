"""One body per tile holds for every being in a fight, busy or not (K-CROWD-01, issue 31):
a minion walking to its work does not step into an adventurer's tile, and adventurers and
fighters keep off the tiles of beings standing or working out of a fight."""

from __future__ import annotations

import pytest
from keep_kit import adv, creature, invade, invaded, member, merchant, minion, stand

from undercroft.core.grid import Pos
from undercroft.keep.rules import fighters, movement, stepping, visitors
from undercroft.keep.state.actors import Job
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.world import World

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


# -- your beings standing out of a fight are bodies too (issue 31) -----------------------------


def _moves(monkeypatch: pytest.MonkeyPatch, who: Adventurer) -> list[tuple[Pos, Pos | None]]:
    """Every tile ``who`` steps into, with where the other being stood at that moment."""
    seen: list[tuple[Pos, Pos | None]] = []
    real = stepping.move

    def move(world: World, walker: Adventurer, to: Pos) -> None:
        if walker is who:
            seen.append((to, None))
        real(world, walker, to)

    monkeypatch.setattr(stepping, "move", move)
    return seen


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_an_adventurer_waits_behind_a_being_standing_in_a_corridor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world, _ = invaded(CORRIDOR)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 1)
    pedlar = merchant(world, 3, 3)  # a visitor standing still: not an enemy, never struck
    steps = _moves(monkeypatch, warrior)
    stepping.queue_step(world, warrior, 1)
    world.run(world.now + 20)
    assert [to for to, _ in steps] == [Pos(3, 2)]  # it stops behind the pedlar and waits
    assert warrior.pos == Pos(3, 2)
    pedlar.pos = Pos(1, 1)  # the pedlar steps aside
    world.run(world.now + 20)
    assert Pos(3, 3) in [to for to, _ in steps] and warrior.pos.y >= 4


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_an_adventurer_goes_round_a_creature_standing_in_its_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world, _ = invaded(CORRIDOR.replace("###.###\n###.###\n###.###", "#.....#\n#.....#\n#.....#"))
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 1)
    worker = creature(world, "wolf", 3, 3)  # a wild wolf: it fights nobody, nobody fights it
    steps = _moves(monkeypatch, warrior)
    stepping.queue_step(world, warrior, 1)
    world.run(world.now + 20)
    tiles = [to for to, _ in steps]
    assert worker.pos == Pos(3, 3) and Pos(3, 3) not in tiles
    assert warrior.pos.y >= 4  # it went round


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_an_adventurer_and_a_walker_coming_the_other_way_pass_each_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world, _ = invaded(CORRIDOR)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 2)
    pedlar = merchant(world, 3, 4)
    seen: list[tuple[Pos, Pos]] = []
    real = stepping.move

    def move(w: World, walker: Adventurer, to: Pos) -> None:
        real(w, walker, to)
        if walker is warrior:
            seen.append((to, pedlar.pos_at(w.now)))

    monkeypatch.setattr(stepping, "move", move)
    assert movement.walk_to(world, pedlar, Pos(3, 1))
    stepping.queue_step(world, warrior, 1)
    world.run(world.now + 20)
    assert seen and all(mine != theirs for mine, theirs in seen)
    assert warrior.pos.y >= 4  # it got past the pedlar, who went on up the corridor
    assert pedlar.pos_at(world.now).y <= 2 or not pedlar.present


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_a_being_joining_a_fight_takes_a_tile_of_its_own_beside_those_standing_there() -> None:
    world, _ = invaded(CORRIDOR)
    first = minion(world, 3, 5, job=Job.FIGHTING, breed="orc")
    second = minion(world, 3, 5, job=Job.FIGHTING, breed="orc")  # placed on one tile
    fighters.engage(world, first)
    assert first.fighting and not second.fighting
    assert first.pos != second.pos and world.bodies.get(first.pos) == first.id
    assert not stepping.room_for(world, first, second.pos)  # nor does it step onto his


@pytest.mark.rule("K-CROWD-01", "R-K-MOVE-01")
def test_a_visitor_coming_in_at_a_portal_an_adventurer_stands_on_appears_beside_it() -> None:
    world, _ = invaded(CORRIDOR)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 3, 0)  # on the portal
    troll = visitors.arrive(world, "troll", Pos(3, 0), [Pos(3, 1)])
    assert troll.pos != warrior.pos and troll.pos.manhattan(Pos(3, 0)) == 1
