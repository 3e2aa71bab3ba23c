"""The keep viewer's API: a world from a shipped scenario, advanced on request, watched;
keeper commands through the script's own parser; adventurers and what they know."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_kit import JSON, app_of, bearer, make_client

from undercroft.keep.rules import learning
from undercroft.keep.save import to_json
from undercroft.keep.scenario import build_world
from undercroft.keep.script import command_from, parse_command
from undercroft.keep.state.invaders import Adventurer
from undercroft.web.keep_view import KeepWatch


def new_world(client: TestClient, scenario: str, seed: int) -> tuple[str, dict[str, str]]:
    made = client.post("/api/keep/worlds", json={"scenario": scenario, "seed": seed})
    assert made.status_code == 201
    return f"/api/keep/worlds/{made.json()['id']}", bearer(made.json()["token"])


def watch_of(client: TestClient, url: str) -> KeepWatch:
    watch: KeepWatch = app_of(client).state.worlds.get(url.rsplit("/", 1)[1])
    return watch


def test_a_watched_world_is_the_world_run_keep_runs() -> None:
    client = make_client()
    made = client.post("/api/keep/worlds", json={"scenario": "trapworks", "seed": 4})
    assert made.status_code == 201
    url, token = f"/api/keep/worlds/{made.json()['id']}", made.json()["token"]
    assert client.get(f"{url}/view").status_code == 401
    assert client.get(f"{url}/view", headers=bearer("x" * 43)).status_code == 401
    bodies: list[object] = [{"minutes": 0}, {"minutes": 10**9}, {"minutes": "1"}, [], {"next": 1}]
    for bad in bodies:
        assert client.post(f"{url}/advance", headers=bearer(token), json=bad).status_code == 422
    unknown_kind = client.post(f"{url}/advance", headers=bearer(token), json={"next": "x"})
    assert unknown_kind.status_code == 422
    for _ in range(3):
        view = client.post(f"{url}/advance", headers=bearer(token), json={"minutes": 1440}).json()
    assert view["clock"]["minute"] == 3 * 1440
    world = build_world("trapworks", seed=4)
    world.run(3 * 1440)
    fired = sum(t["fired"] for t in view["traps"].values())
    assert fired == world.summary()["traps_fired"] and fired > 0
    assert {s["id"] for s in view["structures"]} == set(world.structures)
    beings = {b.id: [b.pos_at(world.now).x, b.pos_at(world.now).y] for b in world.present()}
    assert {b["id"]: b["pos"] for b in view["beings"] if b["state"] != "dead"} == beings
    step = client.post(f"{url}/advance", headers=bearer(token), json={"next": True}).json()
    assert step["lines"] > view["lines"]
    assert client.post("/api/keep/worlds", json={"scenario": "../etc"}).status_code == 422


def test_a_body_the_schema_refuses_is_refused_not_half_read() -> None:
    """What ``/openapi.json`` says the keep routes read is what they accept: advance takes
    exactly one of ``minutes`` and ``next``, a new world only ``scenario`` and ``seed``
    (each was once read in part, the rest ignored; the schema fuzz test's negative cases
    expect a 4xx)."""
    client = make_client()
    url, auth = new_world(client, "tutorial", 1)
    bodies: list[dict[str, Any]] = [
        {"minutes": 5, "next": "trap"},
        {"next": True, "minutes": 0},
        {"minutes": 5, "speed": 2},
        {},
    ]
    for body in bodies:
        response = client.post(f"{url}/advance", headers=auth, json=body)
        assert response.status_code == 422, body
        assert set(response.json()) == {"error"}
    assert client.get(f"{url}/view", headers=auth).json()["clock"]["minute"] == 0
    made = client.post("/api/keep/worlds", json={"scenario": "tutorial", "colour": "red"})
    assert made.status_code == 422 and made.json()["error"].startswith("unknown field(s) colour")
    assert len(app_of(client).state.worlds) == 1


def test_next_event_jumps_to_an_invasion_then_a_trap_then_a_death() -> None:
    client = make_client()
    url, auth = new_world(client, "mid", 1)
    arrived = client.post(f"{url}/advance", headers=auth, json={"next": "invasion"}).json()
    assert arrived["found"]
    came = [line["entry"] for line in arrived["log"] if line["entry"]["type"] == "invasion.arrived"]
    assert came[-1]["time"]["minute"] == arrived["clock"]["minute"]  # stopped at its minute
    assert [g["number"] for g in arrived["invasions"]["groups"]] == [1]
    for kind, event in (("trap", "trap.fired"), ("wound", "wound"), ("death", "being.died")):
        view = client.post(f"{url}/advance", headers=auth, json={"next": kind}).json()
        assert view["found"], kind
        assert [line["entry"]["type"] for line in view["log"]].count(event) >= 1
        last = [line for line in view["log"] if line["entry"]["type"] == event][-1]
        assert last["entry"]["time"]["minute"] == view["clock"]["minute"]  # stopped there
    # Same world, same seed, run straight to that minute: the same beings, same wounds.
    world = build_world("mid", seed=1)
    world.run(view["clock"]["minute"])
    watched = watch_of(client, url).world
    assert to_json(watched)["beings"] == to_json(world)["beings"]


def test_the_view_shows_adventurers_their_wounds_and_state_during_an_invasion() -> None:
    client = make_client()
    url, auth = new_world(client, "mid", 1)
    client.post(f"{url}/advance", headers=auth, json={"next": "invasion"})
    for _ in range(20):  # wounds until one is an adventurer's (a defender may bleed first)
        view = client.post(f"{url}/advance", headers=auth, json={"next": "wound"}).json()
        adventurers = {b["id"]: b for b in view["beings"] if b["kind"] == "adventurer"}
        if any(a["wounds"] > 0 for a in adventurers.values()):
            break
    world = watch_of(client, url).world
    on_map = [
        b
        for b in world.beings.values()
        if isinstance(b, Adventurer) and b.present and b.invasion > 0
    ]
    assert {a.id for a in on_map} <= set(adventurers) and len(on_map) >= 1
    for adv in on_map:
        shown = adventurers[adv.id]
        assert shown["side"] == "enemy" and shown["group"] == adv.invasion
        assert shown["pos"] == [adv.pos.x, adv.pos.y]
        assert shown["wound_points"] == adv.wound_points
        assert shown["wounds"] == len(adv.wounds)
        assert shown["state"] == ("up" if adv.up else adv.condition.value)
    assert any(a["wounds"] > 0 for a in adventurers.values())
    assert adventurers["adv:0-1"]["state"] == "captured"  # mid's prisoner
    keep = [b for b in view["beings"] if b["side"] == "keep"]
    assert keep and all(b["kind"] in ("master", "minion", "creature") for b in keep)
    group = view["invasions"]["groups"][0]
    assert group["members"] == world.invasion.groups[1].members
    assert {a.id for a in on_map} <= set(group["members"])
    # What one of them knows: exactly what `run keep --inspect` prints (K-LEARN-07).
    first = on_map[0]
    knows = client.get(f"{url}/adventurers/{first.id}", headers=auth)
    assert knows.status_code == 200 and knows.json() == learning.view(world, first)
    assert client.get(f"{url}/adventurers/minion:1", headers=auth).status_code == 404
    assert client.get(f"{url}/adventurers/adv:1-1").status_code == 401


ACCEPTED: list[dict[str, Any]] = [
    {"do": "build", "kind": "pressure_plate", "at": [30, 18]},
    {"do": "pull_lever", "lever": "trigger:19"},
    {"do": "set_stance", "minion": "minion:1", "stance": "aggressive"},
    {"do": "set_job", "minion": "minion:2", "job": "chores"},
    {"do": "hold_door_open", "door": "door:2"},
    {"do": "disarm_lock", "door": "door:1"},
    {"do": "arm_lock", "door": "door:1"},
    {"do": "wire", "path": [[30, 17], [33, 17]]},
    {"do": "rite_of_storms", "hours": 2},
]


def test_keeper_commands_from_the_browser_are_the_scripts_commands() -> None:
    client = make_client()
    url, auth = new_world(client, "trapworks", 1)
    client.post(f"{url}/advance", headers=auth, json={"minutes": 60})
    world = watch_of(client, url).world
    for body in ACCEPTED:
        cmd = parse_command(world, body)
        # The one parser: a script item of the same keys (and the schema's default
        # ``hold``) makes the same typed command.
        item = {"hold": True, **body}

        def resolve(key: str, i: dict[str, Any] = item) -> str:
            return str(i[key])

        assert cmd == command_from(item, resolve)
        response = client.post(f"{url}/commands", headers=auth, json=body)
        assert response.status_code == 200, (body, response.text)
        assert response.json()["command"]["verb"] == body["do"]
    assert world.minion("minion:1").stance.value == "aggressive"
    assert world.minion("minion:2").job.value == "chores"
    assert world.door("door:2").held_open and world.structure("trigger:19").to_json()["on"]
    logged = [e for e in watch_of(client, url).log.entries if e.event.type == "command"]
    assert [e.event.fields["command"] for e in logged[-len(ACCEPTED) :]] == [
        b["do"] for b in ACCEPTED
    ]
    assert all(e.event.fields["accepted"] for e in logged[-len(ACCEPTED) :])


REFUSED_BY_THE_PARSER: list[tuple[Any, str]] = [
    ([1, 2], "a command is a JSON object"),
    ({"kind": "pressure_plate"}, "do: Field required"),
    ({"do": "explode"}, "do: Input should be"),
    ({"do": "invade", "members": []}, "a scenario happening, not a keeper command"),
    ({"do": "build", "kind": "pressure_plate"}, "'build' needs 'at'"),
    ({"do": "build", "kind": "pressure_plate", "at": [999, 1]}, "at: a tile [x, y] on the map"),
    ({"do": "build", "kind": "pressure_plate", "at": "m"}, "at: a tile [x, y]"),
    ({"do": "set_stance", "minion": "minion:1", "stance": "brave"}, "stance: Input should be"),
    ({"do": "set_stance", "minion": "minion:1", "stance": "flee", "x": 1}, "x: Extra inputs"),
    ({"do": "set_timer", "timer": "timer:1", "minutes": "10"}, "minutes: Input should be"),
]
REFUSED_BY_THE_RULES: list[tuple[Any, str]] = [
    ({"do": "build", "kind": "nope", "at": [30, 18]}, "unknown structure kind 'nope'"),
    ({"do": "build", "kind": "pressure_plate", "at": [13, 18]}, "already stands at"),
    ({"do": "pull_lever", "lever": "trap:1"}, "pull_lever refused"),
    ({"do": "order_attack", "minion": "minion:99", "target": "adv:1-1"}, "not a minion"),
]


@pytest.mark.parametrize(("body", "says"), REFUSED_BY_THE_PARSER + REFUSED_BY_THE_RULES)
def test_a_refused_command_is_422_with_the_reason_and_changes_nothing(body: Any, says: str) -> None:
    client = make_client()
    url, auth = new_world(client, "trapworks", 1)
    client.post(f"{url}/advance", headers=auth, json={"minutes": 600})
    watch = watch_of(client, url)
    before = to_json(watch.world)
    response = client.post(f"{url}/commands", headers=auth, json=body)
    assert response.status_code == 422
    assert says in response.json()["error"], response.json()
    after = to_json(watch.world)
    if (body, says) in REFUSED_BY_THE_RULES:
        # As a script's refused command: logged (accepted false) and counted, nothing else.
        day = str(watch.world.now // 1440 + 1)
        for counter in ("commands", "refused"):
            assert after["workload"]["days"][day][counter] == (
                before["workload"]["days"][day][counter] + 1
            )
            after["workload"]["days"][day][counter] -= 1
        after["events_emitted"] -= 1
        last = watch.log.entries[-1].event
        assert last.type == "command" and last.fields["accepted"] is False
    assert after == before
    assert (
        client.post(f"{url}/commands", headers={**auth, **JSON}, content=b"{no").status_code == 422
    )
    assert client.post(f"{url}/commands", json=body).status_code == 401
