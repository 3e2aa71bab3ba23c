"""The keep viewer's log and command results read as sentences: one per keep event type
(:mod:`undercroft.render.keep_lines`), never a dump of the event's fields."""

from __future__ import annotations

import ast
import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from web_kit import bearer, make_client

from undercroft.core.events import Event, log_from_text
from undercroft.render.keep_lines import SENTENCES, Names, sentence

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "keep" / "golden").glob("*.jsonl.gz"))
DUMP = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b")
"""What a field dump shows and a sentence never does."""

SAMPLES: dict[str, dict[str, Any]] = {
    # The keep events no golden log holds, with the fields docs/events.md gives them.
    "part.fumbled": {
        "trap": "trap:1",
        "part": "trigger",
        "structure": "trigger:1",
        "minion": "minion:2",
    },
    "door.given_up": {"group": 3, "door": "door:2", "attempts": 10, "minutes": 80, "at": [4, 5]},
    "adventurer.stuck": {"adventurer": "adv:3-1", "group": 3},
    "adventurer.left": {"adventurer": "adv:3-1", "group": 3, "at": [0, 1], "treasure": 12},
    "invasions.stopped": {"reason": "rite_of_storms"},
    "invasions.resumed": {"after": "rite_of_storms"},
    "invasion.limit": {"limit_hours": 30.0, "restarted": True},
    "invasion.announced": {"kind": "pursuers", "source": "Lyra", "at_once": True},
    "invasion.goal": {
        "number": 3,
        "goal": "steal_treasure",
        "outcome": "gone",
        "now": "kill_master",
        "by": None,
    },
    "invasion.divined": {
        "faction": "kingdom",
        "from": "Greyford",
        "goal": "wreck_altar",
        "members": [{"class": "rogue", "level": 2, "abilities": ["detect_traps"]}],
    },
    "trigger.disarmed": {
        "group": 3,
        "trigger": "trigger:4",
        "by": "adv:3-2",
        "outcome": "walked_over",
        "attempts": 5,
    },
    "treasure.taken": {"adventurer": "adv:3-1", "pile": "treasure:1", "amount": 20, "left": 80},
    "prisoner.freed": {"prisoner": "adv:0-1", "by": "adv:3-1", "group": 3},
    "altar.wrecked": {"altar": "altar:1", "by": "adv:3-1", "group": 3},
    "rite.ended": {},
    "surface.cut": {"cut": True},
    "camp.relation": {"camp": "orc_camp", "relation": "hostile"},
    "fugitive.asked": {"fugitive": "Lyra"},
    "script.failed": {
        "do": "visitor_leaves",
        "when": {"day": 2, "hour": 3},
        "reason": "creature:9 has left",
    },
}


def keep_event_types() -> set[str]:
    """Every event type ``src/undercroft/keep`` builds (``Event("type", ...)``), and the
    dice events it writes through the core's helpers."""
    found = {"roll", "chance"}
    for path in (ROOT / "src" / "undercroft" / "keep").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Event":
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant), f"{path}:{node.lineno}: a computed type"
                found.add(str(first.value))
    return found


def golden_events() -> list[tuple[Event, Names]]:
    """Every event of the golden keep logs, each with the names known when it came."""
    out = []
    for path in GOLDEN:
        log = log_from_text(gzip.decompress(path.read_bytes()).decode("utf-8"))
        names = Names().actors({"id": a.id, "kind": a.kind, **a.profile} for a in log.header.actors)
        for entry in log.entries:
            names.learn(entry.event)
            out.append((entry.event, names))
    return out


def test_every_keep_event_type_has_a_sentence() -> None:
    types = keep_event_types()
    assert len(types) > 60
    assert types <= set(SENTENCES), sorted(types - set(SENTENCES))


def test_every_keep_event_reads_as_a_sentence_not_a_field_dump() -> None:
    told: set[str] = set()
    for event, names in golden_events() + [(Event(t, (), f), Names()) for t, f in SAMPLES.items()]:
        text = SENTENCES[event.type](event.fields, names)  # raises if a field is misread
        said = sentence(event, names)
        assert said[:1] == text[:1].upper() and said[1:] == text[1:]
        assert not DUMP.search(said), (event.type, said)
        assert not said.lower().startswith(event.type.lower()), said
        told.add(event.type)
    assert keep_event_types() <= told, sorted(keep_event_types() - told)


@pytest.mark.rule("K-TRAP-03")
def test_sentences_name_beings_and_structures_as_the_map_does() -> None:
    names = Names().actors(
        [
            {"id": "minion:2", "kind": "minion", "breed": "orc"},
            {"id": "trap:1", "kind": "mechanism", "structure": "spinning_blades", "at": [3, 4]},
            {"id": "trigger:1", "kind": "trigger", "structure": "pressure_plate", "at": [4, 5]},
        ]
    )
    fired = Event(
        "trap.fired",
        ("K-WIRE-01",),
        {"trap": "trap:1", "trigger": "trigger:1", "mechanism": "spinning_blades", "by": "minion:2",
         "cause": "set_off", "at": [4, 5], "caught": ["minion:2", "adv:1-1"]},
    )  # fmt: skip
    assert sentence(fired, names) == (
        "Orc 2 sets off spinning blades 1 at (4,5): caught Orc 2, Adventurer 1-1"
    )
    names.learn(Event("invasion.arrived", (), {"members": [{"id": "adv:1-1", "class": "ranger"}]}))
    wound = Event(
        "wound",
        ("K-KO-01",),
        {"target": "adv:1-1", "source": "trap:1", "weapon": "spinning_blades", "level": "serious",
         "location": "torso", "points": 2, "total": 2, "at": [4, 5]},
    )  # fmt: skip
    assert sentence(wound, names) == (
        "Spinning blades 1 wounds Ranger 1-1 with spinning blades: serious torso wound, "
        "2 of 10 wound points"
    )
    assert sentence(Event("being.died", (), {"being": "master", "by": "adv:1-1",
                                             "cause": "head", "at": [1, 2]}), names) == (
        "The Master dies of a head wound at (1,2) (by Ranger 1-1)"
    )  # fmt: skip


def test_the_keep_viewer_sends_sentences_for_its_log_and_command_results() -> None:
    client = make_client()
    made = client.post("/api/keep/worlds", json={"scenario": "mid", "seed": 1}).json()
    url, auth = f"/api/keep/worlds/{made['id']}", bearer(made["token"])
    view = client.post(f"{url}/advance", headers=auth, json={"next": "fight"}).json()
    assert view["log"]
    for line in view["log"]:
        assert not DUMP.search(line["text"]), line
        assert not line["text"].startswith(line["entry"]["type"]), line
    for record in view["traps"].values():
        assert all(not DUMP.search(h["text"]) for h in record["history"])
    done = client.post(
        f"{url}/commands",
        headers=auth,
        json={"do": "set_stance", "minion": "minion:1", "stance": "flee"},
    ).json()
    breed = next(b["breed"] for b in done["beings"] if b["id"] == "minion:1")
    assert done["command"]["text"] == (
        f"The keeper orders: set {breed.replace('_', ' ').title()} 1's stance to flee. Done."
    )
