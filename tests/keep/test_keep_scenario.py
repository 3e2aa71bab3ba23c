"""Scenario files: the shipped trapworks, and mistakes named by file, line and key."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from keep_kit import HALL, THREE_DOORS, make_world

from undercroft.core.content import ContentError, check_file
from undercroft.core.events import EventLog
from undercroft.keep.content import trapworks
from undercroft.keep.scenario import build_world, resolve, shipped
from undercroft.keep.state.actors import Job, Minion
from undercroft.keep.state.structures import Door, Mechanism, Timer, Trigger

CONTENT = Path(trapworks.__file__).parent


def test_the_shipped_scenarios_are_valid_content() -> None:
    assert {"trapworks", "trapworks-40"} <= set(shipped())
    for path in sorted(CONTENT.glob("*.toml")):
        check_file(path)
    assert resolve("trapworks") == CONTENT / "trapworks.toml"


def test_the_shipped_trapworks_files_match_their_generator() -> None:
    assert (CONTENT / "trapworks.toml").read_text(encoding="utf-8") == trapworks.render()
    assert (CONTENT / "trapworks-40.toml").read_text(encoding="utf-8") == trapworks.render(
        both=True
    )


@pytest.mark.rule("K-TRAP-02", "K-TRAP-03", "K-WIRE-03", "K-WIRE-07", "K-LOCK-01")
def test_trapworks_has_twenty_traps_of_every_kind() -> None:
    world = build_world("trapworks", seed=1)
    world.run_days(1)  # the twentieth trap is built on site on day 1
    mechanisms = world.of_type(Mechanism)
    triggers = world.of_type(Trigger)
    assert len(mechanisms) == len(triggers) == 20
    assert set(Counter(m.kind for m in mechanisms).values()) == {2}
    assert set(world.ruleset.mechanisms) == {m.kind for m in mechanisms}
    assert set(world.ruleset.triggers) == {t.kind for t in triggers}
    assert all(world.circuit_of(t.id).mechanism is not None for t in triggers)
    assert len(world.of_type(Timer)) == 2
    lever = next(t for t in triggers if t.lever)
    circuit = world.circuit_of(lever.id)
    assert circuit.mechanism is not None and len(circuit.doors) == 2
    locked = [d for d in world.of_type(Door) if d.lock is not None]
    assert len(locked) == 3
    traps_minions = [m for m in world.minions() if m.job is Job.TRAPS]
    assert len(traps_minions) == 3
    assert all(isinstance(m, Minion) for m in traps_minions)


def problems(tiles: str, extra: str) -> str:
    with pytest.raises(ContentError) as caught:
        make_world(tiles, extra)
    return str(caught.value)


def test_mistakes_name_the_line_and_the_key() -> None:
    text = problems(
        HALL,
        """
[[structure]]
kind = "tripwire"
at = "z"

[[structure]]
kind = "pressure_plate"
at = [3, 3]

[[structure]]
kind = "sensor"
at = [5, 3]

[[minion]]
breed = "dragon"
at = [1, 1]
""",
    )
    lines = text.splitlines()
    assert any(":20: structure[0].at: 'z' is not a map marker" in line for line in lines)
    assert any(":26: structure[2]: K-TRAP-04:" in line for line in lines)
    assert any(
        ":31: minion[0].breed: unknown minion kind 'dragon' "
        "(allowed: kobold, goblin, goblin_archer, orc, shaman)" in line
        for line in lines
    )


WIRED = """
[[structure]]
kind = "pressure_plate"
at = [1, 3]

[[structure]]
kind = "spinning_blades"
at = [3, 3]

[[structure]]
kind = "web"
at = [1, 5]

[[wire]]
path = [[1, 3], [3, 3]]
"""


def test_a_refused_wire_and_an_unknown_label_are_reported() -> None:
    text = problems(
        HALL,
        WIRED
        + """
[[wire]]
path = [[1, 3], [1, 5]]

[[script]]
when = "day 2 10:00"
do = "pull_lever"
lever = "nothing"
""",
    )
    assert ":34: wire[1].path: K-WIRE-02: trigger:1 would be connected to more than" in text
    assert ":39: script[0].lever: no label 'nothing' in this scenario" in text


def test_script_entries_are_checked_before_anything_is_built() -> None:
    text = problems(
        HALL,
        WIRED
        + """
[[script]]
when = "day 2 25:00"
do = "pull_lever"
lever = "nothing"

[[script]]
when = "day 2 10:00"
do = "move"
""",
    )
    assert ":34: script[0].when: Value error, 'day 2 25:00' is not a time of the game" in text
    assert ":38: script[1]: Value error, 'move' needs 'structure', 'to'" in text


def test_a_portal_must_be_on_the_edge() -> None:
    inland = HALL.replace("#####p#####", "###########").replace("#.........#", "#..p......#", 1)
    text = problems(inland, "")
    assert "portal (3,1) is not on the edge of the map" in text


ON_A_WALL = [
    ("[master]\nat = [0, 4]\n", "master.at"),
    ('[[minion]]\nbreed = "kobold"\nat = [10, 2]\n', "minion[0].at"),
    ('[[minion]]\nbreed = "kobold"\nat = [2, 2]\nbed = [0, 2]\n', "minion[0].bed"),
    ('[[creature]]\nbreed = "wolf"\nat = [4, 9]\n', "creature[0].at"),
    ('[[lair]]\nname = "den"\nat = [0, 0]\n', "lair[0].at"),
    ("[[treasure]]\nat = [10, 9]\namount = 3\n", "treasure[0].at"),
    ('[[prisoner]]\nclass = "warrior"\nat = [0, 5]\n', "prisoner[0].at"),
    ('[stockpile]\nat = [0, 3]\nmetal = 5\n', "stockpile.at"),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "key"), ON_A_WALL, ids=[key for _, key in ON_A_WALL])
def test_nothing_is_placed_on_a_wall(extra: str, key: str) -> None:
    text = problems(HALL, extra)
    assert f" {key}: " in text and "is solid rock, not a square anyone can stand on" in text


def test_a_label_names_one_thing_and_a_door_has_one_entry() -> None:
    doors = """
[[door]]
at = [4, 6]
name = "left"

[[door]]
at = [4, 6]
name = "right"

[[minion]]
breed = "kobold"
at = [1, 1]
name = "left"
"""
    text = problems(THREE_DOORS, doors)
    assert "door[1].at: door[0] already describes the door at (4,6)" in text
    assert "minion[0].name: the label 'left' is used twice (first at door[0].name)" in text


def test_scripted_builds_visits_and_settlings_name_what_the_world_has() -> None:
    text = problems(
        HALL,
        """
[[script]]
when = "day 2 10:00"
do = "build"
kind = "laser"
at = [2, 2]

[[script]]
when = "day 2 11:00"
do = "visit"
breed = "dragon"
portal = "p"

[[script]]
when = "day 2 12:00"
do = "settle"
creature = "creature:1"
lair = "nowhere"
""",
    )
    assert "script[0].kind: unknown structure kind 'laser'" in text
    assert "script[1].breed: no creature or merchant kind 'dragon'" in text
    assert "script[2].lair: no lair named 'nowhere'" in text


@pytest.mark.rule("R-K-REARM-01")
def test_a_negative_rearm_target_is_refused() -> None:
    text = problems(HALL, "[options]\nrearm_target = -1\n")
    assert "options.rearm_target: Input should be greater than or equal to 0" in text


def test_the_example_in_the_user_guide_runs() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "keep.md").read_text(encoding="utf-8")
    start = guide.index('```toml\nkind = "keep-scenario"')
    text = guide[start + len("```toml\n") : guide.index("```", start + 8)]
    from undercroft.keep.scenario import world_from_text

    world = world_from_text(text, seed=1, file="docs/keep.md")
    log = world.open_log()
    assert isinstance(log, EventLog)
    world.run_days(4)
    assert world.close_log()["traps_fired"] >= 1  # the wolf steps on the plate
    commands = [e.event.fields for e in log.entries if e.event.type == "command"]
    assert [(c["command"], c["accepted"]) for c in commands] == [("disarm_lock", True)]


@pytest.mark.rule("K-TIME-05", "K-TIME-07", "K-SIZE-02", "K-ARR-01", "K-ARR-06")
def test_the_warrens_scenario_plays_every_invasion_command_and_happening() -> None:
    world = build_world("warrens", seed=1)
    log = world.open_log()
    assert isinstance(log, EventLog)
    world.run_days(30)
    world.close_log()
    commands = {
        e.event.fields["command"]: e.event.fields["accepted"] for e in log.of_type("command")
    }
    assert commands == {
        "divine": True,
        "answer_fugitive": True,
        "rite_of_storms": True,
        "watchful_eye": True,
    }
    kinds = {e.event.fields["kind"] for e in log.of_type("invasion.arrived")}
    assert {"pursuers", "host", "warriors"} <= kinds
    reasons = {e.event.fields["reason"] for e in log.of_type("invasions.stopped")}
    assert "rite_of_storms" in reasons
    assert reasons <= {"rite_of_storms", "cut_off", "master_dead"}
    # The way is cut on day 20 (once the Master has fallen, R-K-AFTER-02, nothing comes
    # any more anyway: then that is why invasions stopped).
    assert [e.event.fields["cut"] for e in log.of_type("surface.cut")] == [True, False]
    assert "cut_off" in reasons or "master_dead" in reasons
    assert log.of_type("invasion.divined") and log.of_type("fugitive.asked")
    assert not log.of_type("script.failed")
    assert all(g.phase == "ended" for g in list(world.invasion.groups.values())[:-1])


def test_a_scenario_names_an_unknown_settlement_or_class_by_line() -> None:
    bad = """
[[prisoner]]
class = "necromancer"
at = [2, 2]

[[script]]
when = "day 2"
do = "host"
settlement = "Nowhere"
"""
    text = problems(HALL, bad)
    assert "prisoner[0].class: no adventurer class 'necromancer'" in text
    assert "script[0].settlement: no settlement 'Nowhere' in this scenario" in text
