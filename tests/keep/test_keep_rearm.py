"""Rearming after use: the roll, fumbles, tampering, levers, moving (K-REARM-01..07)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from keep_kit import HALL, ScriptedDice, creature, fired, make_world, minion, of, put, wire

from undercroft.core.checks import DiceModel
from undercroft.core.dice import DiceSampler
from undercroft.core.events import EventLog
from undercroft.core.grid import Pos
from undercroft.keep.commands import execute
from undercroft.keep.rules import jobs, movement, traps
from undercroft.keep.state.actors import Job, Minion
from undercroft.keep.state.orders import Move, PullLever
from undercroft.keep.state.structures import Mechanism, PartState, Trigger
from undercroft.keep.state.world import World


def trap_world(trigger: str = "pressure_plate") -> tuple[World, EventLog, Trigger, Mechanism]:
    world, log = make_world(HALL)
    t = put(world, trigger, 5, 3)
    m = put(world, "spinning_blades", 7, 3)
    assert wire(world, (5, 3), (7, 3)).accepted
    assert isinstance(t, Trigger) and isinstance(m, Mechanism)
    return world, log, t, m


def set_off(world: World, trigger: Trigger, breed: str = "wolf") -> str:
    wolf = creature(world, breed, trigger.pos.x, trigger.pos.y)
    traps.walker_enters(world, trigger.id, wolf)
    return wolf.id


@pytest.mark.rule("K-REARM-01")
def test_a_used_trap_needs_both_parts_rearmed() -> None:
    world, log, plate, blades = trap_world()
    kobold = minion(world, 6, 4, job=Job.NONE)
    set_off(world, plate)
    assert fired(log) == [blades.id]
    assert plate.state is PartState.USED and blades.state is PartState.USED
    expired = of(log, "part.expired")
    assert [(e["part"], e["reason"], e["trap"]) for e in expired] == [
        ("mechanism", "used", blades.id),
        ("trigger", "used", blades.id),
    ]
    set_off(world, plate)
    traps.complete(world, blades, kobold, fumble=False)
    set_off(world, plate)  # the trigger still waits for its rearm
    assert fired(log) == [blades.id]
    traps.complete(world, plate, kobold, fumble=False)
    set_off(world, plate)
    assert fired(log) == [blades.id, blades.id]


@pytest.mark.rule("K-REARM-01", "K-DOOR-05")
def test_a_lever_never_needs_rearming() -> None:
    world, log, lever, blades = trap_world("lever")
    execute(world, PullLever(lever.id))
    assert fired(log) == [blades.id]
    assert lever.state is PartState.ARMED and lever.on
    assert [e["part"] for e in of(log, "part.expired")] == ["mechanism"]
    execute(world, PullLever(lever.id))  # off
    kobold = minion(world, 6, 4, job=Job.NONE)
    traps.complete(world, blades, kobold, fumble=False)
    execute(world, PullLever(lever.id))  # on again, no rearm of the lever needed
    assert fired(log) == [blades.id, blades.id]


@pytest.mark.rule("K-REARM-02")
def test_a_traps_minion_rearms_each_part_with_its_own_roll() -> None:
    world, log, plate, blades = trap_world()
    set_off(world, plate)
    chores = minion(world, 1, 1, job=Job.CHORES)
    world.run(12 * 60)
    assert plate.state is PartState.USED  # Chores-job minions do not rearm
    kobold = minion(world, 1, 1, job=Job.TRAPS)
    world.run(24 * 60)
    rolls = [e for e in of(log, "roll") if "K-REARM-02" in e["rules"]]
    assert [(r["actor"], r["part"]) for r in rolls] == [
        (kobold.id, "trigger"),
        (kobold.id, "mechanism"),
    ] or [(r["actor"], r["part"]) for r in rolls] == [
        (kobold.id, "mechanism"),
        (kobold.id, "trigger"),
    ]
    rearmed = of(log, "part.rearmed")
    assert {(e["part"], e["minion"], e["reason"], e["fumble"]) for e in rearmed} == {
        ("trigger", kobold.id, "used", False),
        ("mechanism", kobold.id, "used", False),
    }
    assert plate.state is blades.state is PartState.ARMED
    assert chores.task is None


@pytest.mark.rule("K-REARM-03", "R-K-REARM-01", "R-K-DICE-01")
def test_the_exact_chance_of_each_fumble_outcome() -> None:
    model = DiceModel()
    p_fumble = model.p_fumble()
    # Independently: one face of the d20 is a fumble, then an even draw.
    naturals = [n for n in range(1, 21) if n == 1]
    assert p_fumble == Fraction(len(naturals), 20) == Fraction(1, 20)
    assert p_fumble * Fraction(1, 2) == Fraction(1, 40)  # fires, per rearm attempt
    # With the default target 0, nothing but a fumble spoils a rearm, whatever the Craft.
    for craft in (0, 4, 10):
        assert model.p_success(craft, 0) == 1 - p_fumble
    # Sampled over many fixed seeds: the outcomes follow those chances.
    world, log, plate, blades = trap_world()
    kobold = minion(world, 6, 4, job=Job.NONE)
    counts = {outcome: 0 for outcome in traps.RearmOutcome}
    trials = 0
    for seed in range(20):
        world.rng = DiceSampler(seed)
        for _ in range(200):
            blades.state = PartState.USED
            plate.state, plate.tampered_by = PartState.ARMED, None
            counts[traps.rearm(world, kobold, blades)] += 1
            trials += 1
    fumbles = counts[traps.RearmOutcome.FIRES] + counts[traps.RearmOutcome.TAMPERED]
    assert abs(fumbles / trials - 1 / 20) < 0.012
    assert 0.38 < counts[traps.RearmOutcome.FIRES] / fumbles < 0.62
    assert counts[traps.RearmOutcome.FAILED] == 0
    draws = [d for d in of(log, "chance") if "K-REARM-03" in d["rules"]]
    assert len(draws) == fumbles and all(d["p"] == 0.5 for d in draws)
    assert {d["outcome"] for d in draws} == {"fires", "tampered"}


@pytest.mark.rule("K-REARM-03", "R-K-REARM-01")
def test_a_fumble_that_fires_the_trap() -> None:
    world, log, plate, blades = trap_world()
    kobold = minion(world, 7, 4, job=Job.NONE)
    blades.state = PartState.USED  # the mechanism waits for its rearm
    world.rng = ScriptedDice(dice=[1], chances=[True])
    assert traps.rearm(world, kobold, blades) is traps.RearmOutcome.FIRES
    shot = of(log, "trap.fired")
    assert [(e["trap"], e["by"], e["cause"]) for e in shot] == [(blades.id, kobold.id, "fumble")]
    assert kobold.id in shot[0]["caught"]  # it may hurt that minion
    assert blades.state is PartState.USED  # the part still needs its rearm
    assert plate.state is PartState.USED and plate.on  # the trap went off
    chance = of(log, "chance")[0]
    assert (chance["outcome"], chance["hit"], chance["rules"]) == ("fires", True, ["K-REARM-03"])
    assert of(log, "part.rearmed") == []


@pytest.mark.rule("K-REARM-03", "K-REARM-04", "R-K-REARM-01")
def test_a_fumble_that_tampers_the_trigger() -> None:
    world, log, plate, blades = trap_world()
    fumbler = minion(world, 7, 4, job=Job.NONE)
    blades.state = PartState.USED
    world.rng = ScriptedDice(dice=[1], chances=[False])
    assert traps.rearm(world, fumbler, blades) is traps.RearmOutcome.TAMPERED
    assert blades.state is PartState.ARMED and plate.tampered_by == fumbler.id
    rearmed = of(log, "part.rearmed")
    assert [(e["part"], e["fumble"]) for e in rearmed] == [("mechanism", True)]
    assert of(log, "chance")[0]["outcome"] == "tampered"


def tampered_world() -> tuple[World, EventLog, Trigger, Mechanism, Minion, Minion]:
    world, log, plate, blades = trap_world()
    fumbler = minion(world, 5, 1, job=Job.NONE)
    other = minion(world, 5, 1, job=Job.NONE)
    plate.tampered_by = fumbler.id
    return world, log, plate, blades, fumbler, other


def walk_over(world: World, who: Minion) -> None:
    who.pos = Pos(5, 1)
    assert movement.walk_to(world, who, Pos(5, 6))
    world.run(world.now + 20)


@pytest.mark.rule("K-REARM-04", "K-OWN-01")
def test_a_tampered_trigger_reacts_to_your_minions_except_the_fumbler() -> None:
    world, log, plate, blades, fumbler, other = tampered_world()
    walk_over(world, fumbler)
    assert fired(log) == [] and plate.state is PartState.ARMED
    walk_over(world, other)
    assert fired(log) == [blades.id]
    shot = of(log, "trap.fired")[0]
    assert shot["by"] == other.id and "K-REARM-04" in shot["rules"]
    # Alarm-wired or not, lair creature or wild: a tampered trigger reacts to anyone.
    troll = creature(world, "troll", 5, 3, lair="den")
    plate.state, blades.state, plate.tampered_by = PartState.ARMED, PartState.ARMED, fumbler.id
    traps.walker_enters(world, plate.id, troll)
    assert fired(log) == [blades.id, blades.id]


@pytest.mark.rule("K-REARM-05")
def test_tampering_ends_after_firing_once() -> None:
    world, log, plate, blades, _, other = tampered_world()
    walk_over(world, other)
    assert plate.tampered_by is None
    kobold = minion(world, 1, 1, job=Job.NONE)
    traps.complete(world, plate, kobold, fumble=False)
    traps.complete(world, blades, kobold, fumble=False)
    walk_over(world, other)  # normal again: your minion passes freely
    assert fired(log) == [blades.id]


@pytest.mark.rule("K-REARM-05")
def test_tampering_ends_when_a_minion_rearms_the_trigger() -> None:
    world, log, plate, _, fumbler, other = tampered_world()
    plate.state = PartState.EXPIRED  # its 2 days ran out while tampered
    traps.complete(world, plate, fumbler, fumble=False)
    assert plate.tampered_by is None
    assert "K-REARM-05" in of(log, "part.rearmed")[0]["rules"]
    walk_over(world, other)
    assert fired(log) == []


@pytest.mark.rule("K-REARM-06")
def test_a_lever_trap_fumble_always_fires() -> None:
    for seed in range(5):
        world, log, lever, blades = trap_world("lever")
        kobold = minion(world, 7, 4, job=Job.NONE)
        blades.state = PartState.USED
        scripted = ScriptedDice(dice=[1], chances=[False])
        scripted.seed = seed
        world.rng = scripted
        assert traps.rearm(world, kobold, blades) is traps.RearmOutcome.FIRES
        assert scripted.chances == [False]  # no draw: a lever cannot be tampered
        assert of(log, "chance") == []
        shot = of(log, "trap.fired")[0]
        assert shot["cause"] == "fumble" and "K-REARM-06" in shot["rules"]
        assert lever.tampered_by is None and lever.state is PartState.ARMED


@pytest.mark.rule("K-REARM-03", "K-REARM-02")
def test_after_a_fumble_fires_the_minion_rearms_again() -> None:
    world, log, plate, blades = trap_world()
    set_off(world, plate)
    kobold = minion(world, 1, 1)
    world.rng = ScriptedDice(dice=[1], chances=[True])  # its first rearm fumbles and fires
    world.run(24 * 60)
    assert plate.state is blades.state is PartState.ARMED
    outcomes = [e["outcome"] for e in of(log, "roll")]
    assert outcomes[0] == "fumble" and outcomes.count("rearmed") == 2
    assert [e["cause"] for e in of(log, "trap.fired")] == ["set_off", "fumble"]
    assert kobold.task is None


@pytest.mark.rule("K-REARM-07", "R-K-BUILD-01")
def test_moving_a_trap_does_not_rearm_it() -> None:
    world, log, plate, blades = trap_world()
    set_off(world, plate)
    armed_at = plate.armed_at
    assert execute(world, Move(blades.id, Pos(8, 5))).accepted
    assert execute(world, Move(plate.id, Pos(5, 5))).accepted
    assert blades.state is PartState.USED and plate.state is PartState.USED
    assert plate.armed_at == armed_at
    assert world.circuit_of(plate.id).mechanism == blades.id  # still wired
    moved = of(log, "command")[-1]
    assert moved["rules"] == ["K-REARM-07"] and moved["from"] == [5, 3]
    assert {t.target for t in world.tasks.values()} == {plate.id, blades.id}
    kobold = minion(world, 1, 1)
    world.run(24 * 60)
    plate, blades = plate, blades  # the run rearmed them: mypy forgets the narrowing (mypy#17537)
    assert kobold.pos.manhattan(Pos(5, 5)) <= 1 or kobold.pos.manhattan(Pos(8, 5)) <= 1
    assert plate.state is blades.state is PartState.ARMED


def test_a_minion_in_blind_rage_drops_its_rearm() -> None:
    world, log, plate, _ = trap_world()
    set_off(world, plate)
    kobold = minion(world, 1, 1)
    world.run(1)
    assert kobold.task is not None
    jobs.set_blind_rage(world, kobold, True)
    assert kobold.task is None
    world.run(24 * 60)
    assert plate.state is PartState.USED
    jobs.set_blind_rage(world, kobold, False)
    world.run(48 * 60)
    assert plate.state is PartState.ARMED
    assert [e["minion"] for e in of(log, "minion.rage")] == [kobold.id, kobold.id]


@pytest.mark.rule("R-K-REARM-01", "K-REARM-02")
def test_the_rearm_target_switch_makes_failed_rolls_retry() -> None:
    world, log = make_world(HALL, options={"rearm_target": 30})
    plate = put(world, "pressure_plate", 5, 3)
    put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    assert isinstance(plate, Trigger)
    # Craft 4 adds 8: only the critical 20 reaches 30, so 1 rearm in 20 succeeds.
    assert world.options.dice_model.p_success(4, 30) == Fraction(1, 20)
    minion(world, 1, 1)
    world.rng = ScriptedDice(dice=[12, 19, 20])
    traps.use(world, plate, PartState.USED, ("K-REARM-01",))  # it went off
    world.run(200)
    outcomes = [(e["outcome"], e["target"]) for e in of(log, "roll")]
    assert outcomes == [("failed", 30), ("failed", 30), ("rearmed", 30)]
    assert plate.state is PartState.ARMED
    assert world.header().options["rearm_target"] == 30
