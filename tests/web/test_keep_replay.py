"""Keep log replays: a log written as ``run keep --log`` writes it, sent to the server, comes
back as frames whose picture at the last frame is the world at the end of the run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_kit import make_client

from undercroft.keep import World
from undercroft.keep.scenario import build_world
from undercroft.web.keep_map import being_view, shown_beings

SCENARIO, SEED, DAYS = "mid", 1, 6


@pytest.fixture(scope="module")
def keep_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[World, str]:
    path = tmp_path_factory.mktemp("keep") / "run.jsonl"
    world = build_world(SCENARIO, seed=SEED)
    world.open_log(path)
    world.run_days(DAYS)
    world.close_log()
    return world, Path(path).read_text(encoding="utf-8")


def fold(replay: dict[str, Any], upto: int) -> dict[str, dict[str, dict[str, Any]]]:
    """The picture at frame ``upto``: the start with every change up to it (as the page)."""
    start = replay["start"]
    picture = {t: {x["id"]: x for x in start[t]} for t in ("structures", "beings", "wires")}
    for frame in replay["frames"][: upto + 1]:
        for table, items in frame.get("changed", {}).items():
            picture[table].update({x["id"]: x for x in items})
        for gone in frame.get("removed", []):
            for table in picture.values():
                table.pop(gone, None)
    return picture


def test_a_keep_log_replays_to_the_world_it_came_from(keep_log: tuple[World, str]) -> None:
    world, text = keep_log
    client = make_client()
    response = client.post("/api/replays", content=text.encode())
    assert response.status_code == 200, response.text
    replay = response.json()
    assert replay["ruleset"] == "keep" and replay["scenario"] == SCENARIO
    assert replay["board_known"] and replay["summary"]["days"] == DAYS
    lines = [line for line in text.splitlines()[1:-1] if '"type":"roll"' not in line]
    assert len(replay["frames"]) == len([x for x in lines if '"type":"chance"' not in x])
    assert [f["entry"]["seq"] for f in replay["frames"]] == sorted(
        f["entry"]["seq"] for f in replay["frames"]
    )
    end = fold(replay, len(replay["frames"]) - 1)
    # Every structure as the world has it at the end: parts armed, used or expired, doors
    # open or shut, held, breached, locks armed.
    live = {s.id: s.to_json() for s in world.structures.values()}
    assert set(end["structures"]) == set(live)
    for sid, s in live.items():
        for key in ("state", "open", "armed", "breached", "held_open", "pos"):
            assert end["structures"][sid].get(key) == s.get(key), (sid, key)
    assert len(end["wires"]) == len(world.wiring.wires)
    # Everyone on the map, in the state the world has them (dead, captured, ...).
    shown = {b.id: being_view(world, b) for b in shown_beings(world)}
    assert set(end["beings"]) == set(shown)
    assert {i: b["state"] for i, b in end["beings"].items()} == {
        i: b["state"] for i, b in shown.items()
    }
    assert "captured" in {b["state"] for b in end["beings"].values()}
    # Adventurers come and go along the timeline: none at the start, some later; the dead
    # lie where they fell.
    types = [f["entry"]["type"] for f in replay["frames"]]
    died = types.index("being.died")
    dead = replay["frames"][died]["entry"]
    body = fold(replay, died)["beings"][dead["being"]]
    assert body["state"] == "dead" and body["pos"] == dead["at"]
    arrived = types.index("invasion.arrived")
    before = fold(replay, arrived - 1)["beings"].values()
    after = fold(replay, arrived)["beings"].values()
    on_map = [b for b in before if b["kind"] == "adventurer" and b["state"] != "captured"]
    assert on_map == []
    came = replay["frames"][arrived]["entry"]
    first = fold(replay, arrived)["beings"][came["members"][0]["id"]]
    assert first["side"] == "enemy" and first["pos"] == came["portal"]  # as it was then
    assert any(b["kind"] == "adventurer" and b["side"] == "enemy" for b in after)
    assert any(f.get("fired") for f in replay["frames"])


def test_a_bad_or_foreign_log_is_refused_naming_why(keep_log: tuple[World, str]) -> None:
    _, text = keep_log
    client = make_client()
    crawl_only = client.post("/api/replays/crawl", content=text.encode())
    assert crawl_only.status_code == 422
    assert "a keep log; this replays crawl logs" in crawl_only.json()["error"]
    broken = "\n".join([*text.splitlines()[:5], "{not json"])
    refused = client.post("/api/replays", content=broken.encode())
    assert refused.status_code == 422 and "the log:6:" in refused.json()["error"]
    assert client.post("/api/replays", content=b"\xff\xfe").status_code == 422
    refused = client.post("/api/replays?seat=x", content=text.encode())
    assert refused.status_code == 422
    assert refused.json() == {"error": "seat: Input should be 'heroes' or 'dm'"}
