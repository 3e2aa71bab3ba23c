"""Trap parts, trigger areas, mechanism effects and trigger spacing (K-TRAP-01..05)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from keep_kit import HALL, creature, fired, make_world, of, put, wire

from undercroft.core.grid import Pos
from undercroft.keep.commands import execute
from undercroft.keep.content.ruleset import Effect, default_ruleset
from undercroft.keep.rules import movement
from undercroft.keep.state.orders import Build, Move
from undercroft.keep.state.structures import Mechanism, Trigger

ROOT = Path(__file__).resolve().parents[2]
STOCK = "stockpile = { at = [1, 1], metal = 50 }\n"


def catalogue_list(rule: str) -> str:
    text = (ROOT / "docs" / "rules" / "keep.md").read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if line.startswith(f"- **{rule}**"))


@pytest.mark.rule("K-TRAP-02", "K-TRAP-03")
def test_every_trigger_and_mechanism_kind_of_the_catalogue_is_content() -> None:
    rules = default_ruleset()
    assert set(rules.triggers) == {"tripwire", "wide_tripwire", "pressure_plate", "sensor", "lever"}
    assert [k for k, t in rules.triggers.items() if t.lever] == ["lever"]
    words = catalogue_list("K-TRAP-03").lower()
    for key, kind in rules.mechanisms.items():
        stem = key.split("_")[0]
        assert stem in words or kind.name.lower().split()[0] in words, key
        assert isinstance(kind.effect, Effect) and kind.rearm_minutes > 0 and kind.metal > 0
    assert len(rules.mechanisms) == 10
    assert [k for k, m in rules.mechanisms.items() if m.alarm] == ["alarm"]
    # tripwire and wide tripwire are one type for learning (K-LEARN-02 content)
    assert rules.triggers["tripwire"].learn_type == rules.triggers["wide_tripwire"].learn_type


@pytest.mark.rule("K-TRAP-02", "R-K-TRAP-01")
@pytest.mark.parametrize(
    ("kind", "sets_off"),
    [("tripwire", False), ("pressure_plate", False), ("wide_tripwire", True), ("sensor", True)],
)
def test_walking_past_a_trigger_sets_it_off_only_within_its_area(kind: str, sets_off: bool) -> None:
    world, log = make_world(HALL)
    put(world, kind, 5, 3)
    trap = put(world, "spinning_blades", 8, 6)
    assert wire(world, (5, 3), (5, 6), (8, 6)).accepted
    wolf = creature(world, "wolf", 1, 2)
    assert movement.walk_to(world, wolf, Pos(9, 2))  # along row 2, one tile from the trigger
    world.run(60)
    assert fired(log) == ([trap.id] if sets_off else [])
    if sets_off:
        assert of(log, "trap.fired")[0]["time"]["minute"] == 3  # at (4, 2), 3 steps in
    # Walking across the trigger's own tile sets every kind off.
    other, log2 = make_world(HALL)
    put(other, kind, 5, 3)
    put(other, "spinning_blades", 8, 6)
    wire(other, (5, 3), (5, 6), (8, 6))
    boar = creature(other, "boar", 5, 1)
    movement.walk_to(other, boar, Pos(5, 6))
    other.run(60)
    assert len(of(log2, "trap.fired")) == 1


@pytest.mark.rule("K-TRAP-02", "K-DOOR-05")
def test_a_lever_is_not_set_off_by_walking_over_it() -> None:
    world, log = make_world(HALL)
    put(world, "lever", 5, 3)
    put(world, "spinning_blades", 7, 3)
    wire(world, (5, 3), (7, 3))
    wolf = creature(world, "wolf", 1, 3)
    movement.walk_to(world, wolf, Pos(9, 3))
    world.run(60)
    assert fired(log) == []


@pytest.mark.rule("K-TRAP-03", "R-K-TRAP-01")
def test_a_mechanism_catches_everyone_within_its_area() -> None:
    world, log = make_world(HALL)
    plate = put(world, "pressure_plate", 1, 4)
    flames = put(world, "flamethrower", 5, 4)  # area 2
    wire(world, (1, 4), (5, 4))
    near = creature(world, "boar", 7, 6)  # Chebyshev 2
    far = creature(world, "boar", 8, 4)  # Chebyshev 3
    wolf = creature(world, "wolf", 1, 4)
    from undercroft.keep.rules import traps

    traps.walker_enters(world, plate.id, wolf)
    shot = of(log, "trap.fired")[0]
    assert shot["trap"] == flames.id and shot["effect"] == "wound" and shot["wound"] == "serious"
    assert shot["caught"] == [near.id]
    assert far.id not in shot["caught"] and wolf.id not in shot["caught"]


@pytest.mark.rule("K-TRAP-01", "K-BUILD-01")
def test_a_trap_is_a_trigger_and_a_mechanism_each_built_by_a_traps_minion() -> None:
    world, log = make_world(
        HALL,
        STOCK
        + """
[[minion]]
breed = "kobold"
job = "traps"
at = [2, 1]
""",
    )
    execute(world, Build("pressure_plate", Pos(3, 3), name="plate"))
    execute(world, Build("web", Pos(6, 3), name="web"))
    world.run(24 * 60)
    built = of(log, "structure.built")
    assert sorted(e["kind"] for e in built) == ["pressure_plate", "web"]
    assert {e["minion"] for e in built} == {"minion:1"}
    trigger, mechanism = world.structure("trigger:1"), world.structure("trap:1")
    assert isinstance(trigger, Trigger) and isinstance(mechanism, Mechanism)
    assert wire(world, (3, 3), (6, 3)).accepted
    assert world.trap_of(trigger) == mechanism.id


@pytest.mark.rule("K-TRAP-04", "R-K-DIST-01")
def test_triggers_need_three_tiles_between_them() -> None:
    world, log = make_world(HALL, STOCK)
    put(world, "tripwire", 4, 3)
    too_close = [(7, 3), (1, 0 + 3), (7, 6), (4, 6), (1, 6)]
    for x, y in too_close:  # Chebyshev distance 3
        result = execute(world, Build("pressure_plate", Pos(x, y)))
        assert not result.accepted, (x, y)
        assert result.rules == ("K-TRAP-04", "R-K-DIST-01")
        assert "3 tiles" in result.reason and "trigger:1" in result.reason
    assert execute(world, Build("pressure_plate", Pos(8, 3))).accepted  # distance 4
    # A trigger still being built counts: (8, 6) is 3 from the site at (8, 3).
    assert not execute(world, Build("lever", Pos(8, 6))).accepted
    assert execute(world, Build("web", Pos(5, 3))).accepted  # mechanisms may stand close
    refused = of(log, "command")
    assert [e["accepted"] for e in refused] == [False] * 5 + [True, False, True]


@pytest.mark.rule("K-TRAP-04")
def test_moving_a_trigger_keeps_the_spacing() -> None:
    world, _ = make_world(HALL)
    put(world, "tripwire", 1, 1)
    plate = put(world, "pressure_plate", 6, 1)
    refused = execute(world, Move(plate.id, Pos(4, 2)))
    assert not refused.accepted and refused.rules[0] == "K-TRAP-04"
    assert plate.pos == Pos(6, 1)
    assert execute(world, Move(plate.id, Pos(5, 5))).accepted
    assert plate.pos == Pos(5, 5)


@pytest.mark.rule("R-K-DIST-01", "K-TRAP-04")
def test_the_distance_metric_switch() -> None:
    chebyshev, _ = make_world(HALL, STOCK)
    manhattan, _ = make_world(HALL, STOCK, options={"distance_metric": "manhattan"})
    for world in (chebyshev, manhattan):
        put(world, "tripwire", 1, 1)
    diagonal = Build("sensor", Pos(3, 3))  # Chebyshev 2, Manhattan 4
    assert not execute(chebyshev, diagonal).accepted
    assert execute(manhattan, diagonal).accepted
    assert re.search(r"manhattan", manhattan.header().options["distance_metric"])
