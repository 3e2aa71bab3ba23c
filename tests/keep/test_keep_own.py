"""Who sets your traps off: enemies and the wild, not your own side (K-OWN-01..04)."""

from __future__ import annotations

import pytest
from keep_kit import HALL, creature, fired, keep_time, make_world, merchant, minion, of, put, wire

from undercroft.core.events import EventLog
from undercroft.core.grid import Pos
from undercroft.keep.rules import jobs, movement, visitors
from undercroft.keep.state.actors import Being, Creature, Job
from undercroft.keep.state.structures import PartState, Trigger
from undercroft.keep.state.world import World

LAIR = '[[lair]]\nname = "den"\nat = [8, 7]\n'


def trap_world(mechanism: str = "spinning_blades") -> tuple[World, Trigger, str, EventLog]:
    world, log = make_world(HALL, LAIR)
    plate = put(world, "pressure_plate", 5, 3)
    trap = put(world, mechanism, 8, 3)
    assert wire(world, (5, 3), (8, 3)).accepted
    assert isinstance(plate, Trigger)
    return world, plate, trap.id, log


def walk_across(world: World, being: Being) -> None:
    """Walk the being down column 5, over the plate at (5, 3)."""
    being.pos = Pos(5, 1)
    assert movement.walk_to(world, being, Pos(5, 6))
    world.run(world.now + 30)


@pytest.mark.rule("K-OWN-01", "R-K-OWN-01")
def test_your_minions_and_master_do_not_set_off_your_traps() -> None:
    world, plate, _, log = trap_world()
    kobold = minion(world, 5, 1, job=Job.NONE)
    walk_across(world, kobold)
    walk_across(world, world.being("master"))
    assert fired(log) == [] and plate.state is PartState.ARMED


@pytest.mark.rule("K-OWN-02", "R-K-OWN-01")
def test_a_minion_in_blind_rage_sets_them_off_like_an_enemy() -> None:
    world, _, trap, log = trap_world()
    kobold = minion(world, 5, 1, job=Job.NONE)
    jobs.set_blind_rage(world, kobold, True)
    walk_across(world, kobold)
    assert fired(log) == [trap]
    shot = of(log, "trap.fired")[0]
    assert shot["by"] == kobold.id and "K-OWN-02" in shot["rules"]
    assert of(log, "minion.rage")[0]["blind_rage"] is True


@pytest.mark.rule("K-OWN-03")
def test_wild_creatures_set_off_traps_but_not_alarm_wired_triggers() -> None:
    world, _, trap, log = trap_world()
    walk_across(world, creature(world, "wolf", 5, 1))
    assert fired(log) == [trap]
    assert "K-OWN-03" in of(log, "trap.fired")[0]["rules"]
    alarm_world, plate, _, alarm_log = trap_world("alarm")
    walk_across(alarm_world, creature(alarm_world, "wolf", 5, 1))
    assert fired(alarm_log) == [] and plate.state is PartState.ARMED


@pytest.mark.rule("K-OWN-04")
def test_a_creature_living_in_your_lair_does_not_set_them_off() -> None:
    world, _, trap, log = trap_world()
    troll = creature(world, "troll", 5, 1, lair="den")
    walk_across(world, troll)
    assert fired(log) == []
    boar = creature(world, "boar", 5, 1)
    visitors.settle(world, boar, "den")  # the wild boar moves into your lair
    walk_across(world, boar)
    assert fired(log) == []
    assert of(log, "creature.settled") and of(log, "creature.settled")[0]["rules"] == ["K-OWN-04"]
    walk_across(world, creature(world, "boar", 5, 1))  # a wild one still does
    assert fired(log) == [trap]


@pytest.mark.rule("R-K-OWN-01")
def test_visiting_merchants_do_not_set_them_off() -> None:
    world, _, _, log = trap_world()
    walk_across(world, merchant(world, 5, 1))
    assert fired(log) == []


@pytest.mark.rule("K-OWN-04")
def test_a_repeated_script_brings_a_creature_into_your_lair_every_few_days() -> None:
    """A scenario's reinforcements: a wild troll walks in at the portal and moves into the
    lair (K-OWN-04) on days 2, 4 and 6 (``every_days = 2`` up to ``until``), never after."""
    world, log = make_world(
        HALL,
        """
        [[lair]]
        name = "pit"
        at = [5, 7]

        [[script]]
        when = "day 2 12:00"
        every_days = 2
        until = "day 6 12:00"
        do = "visit"
        breed = "troll"
        portal = "p"
        route = [[5, 2]]
        name = "newcomer"

        [[script]]
        when = "day 2 12:00"
        every_days = 2
        until = "day 6 12:00"
        do = "settle"
        creature = "newcomer"
        lair = "pit"
        """,
    )
    world.run_days(9)
    settled = [
        (keep_time(e).day, e.event.fields["creature"])
        for e in log.entries
        if e.event.type == "creature.settled"
    ]
    assert settled == [(2, "creature:1"), (4, "creature:2"), (6, "creature:3")]
    trolls = [world.being(f"creature:{n}") for n in (1, 2, 3)]
    assert all(isinstance(t, Creature) and t.lair == "pit" for t in trolls)
    assert all(t.present and t.pos == Pos(5, 7) for t in trolls)
    assert not any(e.event.type == "visitor.left" for e in log.entries)
