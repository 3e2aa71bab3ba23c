"""The HTTP contract fuzzed from its own schema: schemathesis reads ``/openapi.json`` and
sends every operation requests made from it, valid (positive) and invalid (negative), as
an unknown caller, a caller without a token, a caller with a seat's or a world's token,
and with bodies built from the game itself (a legal action, a keeper command, a real log)
with one part replaced. No answer may be a 5xx, and every answer must be one the schema
lists for the operation, with its content type and body schema.

In process (the app over ASGI, no sockets) and derandomized: the same requests every run,
each test on a fresh app holding one seeded game and one seeded world, so a failure comes
back on the next run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from web_kit import bearer, make_client, start

from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play
from undercroft.keep.scenario import build_world
from undercroft.web.app import create_app
from undercroft.web.limits import Limits

EXAMPLES = 25
"""Requests per operation, mode and test; every operation has two modes at most."""

OPERATIONS = {
    "GET /healthz",
    "GET /api/crawl/options",
    "POST /api/crawl/games",
    "GET /api/crawl/games/{game_id}/observation",
    "POST /api/crawl/games/{game_id}/actions",
    "POST /api/crawl/games/{game_id}/player",
    "GET /api/crawl/games/{game_id}/log",
    "GET /api/crawl/games/{game_id}/replay",
    "POST /api/replays/crawl",
    "POST /api/replays",
    "GET /api/keep/options",
    "POST /api/keep/worlds",
    "GET /api/keep/worlds/{world_id}/view",
    "POST /api/keep/worlds/{world_id}/advance",
    "POST /api/keep/worlds/{world_id}/commands",
    "GET /api/keep/worlds/{world_id}/adventurers/{adv_id}",
}
"""Every operation of the schema: a route added later fails the first test until it is
fuzzed here too."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# negative_data_rejection runs only on untouched negative cases (see `fuzz`); positive
# data acceptance is not checked: a valid-looking party may not fit the adventure's start
# squares and a well-formed action is rarely legal now, which no schema can say.

COMMANDS: list[dict[str, Any]] = [
    {"do": "build", "kind": "pressure_plate", "at": [30, 18]},
    {"do": "pull_lever", "lever": "trigger:19"},
    {"do": "set_stance", "minion": "minion:1", "stance": "aggressive"},
    {"do": "set_job", "minion": "minion:2", "job": "chores"},
    {"do": "hold_door_open", "door": "door:2"},
    {"do": "arm_lock", "door": "door:1"},
    {"do": "wire", "path": [[30, 17], [33, 17]]},
    {"do": "rite_of_storms", "hours": 2},
]
"""Keeper commands trapworks accepts at its start (tests/web/test_keep_api.py)."""

# Logs reach the replay routes as JSON Lines: text on the wire.
schemathesis.serializer.alias("application/jsonl", "text/plain")

# (An integer over 4,300 digits cannot be made here: no JSON writer writes it. The
# routes' answer to one is tests/web/test_hostile_bodies.py.)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([-1, 2**63, 2**64, 10**300])  # past every bound the routes read
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["\ud800", "adv:0-1", "hero:brenna", "minion:1", "door:1", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A crawl log (its first 150 lines: a replay's cost grows with its length) and a
    keep log, as ``--log`` writes them."""
    pack = default_pack()
    crawl = play(pack.ruleset("bone-priest"), list(pack.heroes)[:3], seed=1)
    assert crawl.log is not None
    first = "".join(crawl.log.text().splitlines(keepends=True)[:150])
    path = tmp_path_factory.mktemp("keep") / "run.jsonl"
    world = build_world("trapworks", seed=1)
    world.open_log(path)
    world.run_days(1)
    world.close_log()
    return first, path.read_text(encoding="utf-8")


@dataclass
class Served:
    """A fresh app, its schema, and a crawl game and a keep world with their tokens."""

    schema: Any
    ids: dict[str, str]
    tokens: dict[str, list[str]]
    """``game_id``/``world_id`` -> the tokens that open it (the seats', heroes', world's)."""
    client: Any
    logs: tuple[str, str]


@pytest.fixture
def served(logs: tuple[str, str]) -> Served:
    # Room for every game and world a test's requests create (one client makes them all).
    app = create_app(limits=Limits(games=1024, worlds=256))
    client = TestClient(app)
    game = start(client, adventure="greyhollow-cellars", seed=2, heroes="human", dm="human")
    world = client.post("/api/keep/worlds", json={"scenario": "trapworks", "seed": 1}).json()
    # Its first invasion in: an adventurer for GET .../adventurers/{adv_id} to find.
    invaded = client.post(
        f"/api/keep/worlds/{world['id']}/advance",
        headers=bearer(world["token"]),
        json={"next": "invasion"},
    )
    assert invaded.json()["found"], invaded.text
    seats = game["seats"]
    tokens = {
        "game_id": [
            seats["dm"]["token"],
            seats["heroes"]["token"],
            *(p["token"] for p in seats["heroes"]["players"].values()),
        ],
        "world_id": [world["token"]],
    }
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    ids = {"game_id": game["id"], "world_id": world["id"]}
    return Served(schema, ids, tokens, client, logs)


def test_the_schema_has_every_route_and_documents_its_refusals() -> None:
    client = make_client()
    schema = client.get("/openapi.json").json()
    labels = {f"{m.upper()} {p}" for p, ops in schema["paths"].items() for m in ops}
    assert labels == OPERATIONS
    error = {"$ref": "#/components/schemas/ErrorBody"}
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            refusals = {s: r for s, r in op["responses"].items() if s.startswith("4")}
            for status, answer in refusals.items():
                assert answer["content"] == {"application/json": {"schema": error}}, (path, status)
            if "{" in path:
                assert {"401", "404"} <= set(refusals) and op["security"] == [{"token": []}]
            if "requestBody" in op:
                assert {"413", "422"} <= set(refusals), (path, method)
            if "application/json" in op.get("requestBody", {}).get("content", {}):
                assert "415" in refusals, (path, method)
    assert schema["components"]["schemas"]["ErrorBody"]["required"] == ["error"]
    assert "HTTPValidationError" not in json.dumps(schema)


def edit(value: Any, draw: Callable[..., Any]) -> Any:
    """``value`` with one part (a field, an item, or the whole) replaced by any JSON."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: edit(value[key], draw)}
    if isinstance(value, list) and value and draw(st.booleans()):
        at = draw(st.integers(0, len(value) - 1))
        return [*value[:at], edit(value[at], draw), *value[at + 1 :]]
    return draw(JSON_VALUES)


def edited_log(text: str, draw: Callable[..., Any]) -> str:
    """A log with one line dropped, doubled, or with one part of it replaced."""
    lines = text.splitlines()
    at = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["drop", "double", "edit", "none"]))
    if how == "drop":
        del lines[at]
    elif how == "double":
        lines.insert(at, lines[at])
    elif how == "edit":
        lines[at] = json.dumps(edit(json.loads(lines[at]), draw), ensure_ascii=False)
    return "\n".join(lines) + "\n"


def to_act(served: Served) -> tuple[str, list[Any]]:
    """The token of the seat to act and its legal actions (none once the game is over)."""
    for token in served.tokens["game_id"][:2]:  # the DM's, the heroes'
        view = served.client.get(
            f"/api/crawl/games/{served.ids['game_id']}/observation", headers=bearer(token)
        ).json()
        if view["legal"]:
            return token, view["legal"]
    return served.tokens["game_id"][0], []


def game_body(served: Served, label: str, draw: Callable[..., Any]) -> Any:
    """A body made from the game or world itself, then maybe edited: a legal action of
    the seat to act, a keeper command, a log, a small advance."""
    edited = draw(st.booleans())
    body: Any
    if label.endswith("/actions"):
        legal = to_act(served)[1]
        body = pick(legal, draw) if legal else {"action": "Done"}
    elif label.endswith("/player"):
        body = {"player": draw(st.sampled_from(["human", "basic", "random", "careful"]))}
    elif label.endswith("/commands"):
        body = draw(st.sampled_from(COMMANDS))
    elif label.endswith("/advance"):
        body = draw(st.sampled_from([{"minutes": 1}, {"minutes": 60}, {"next": "trap"}]))
    elif label.startswith("POST /api/replays"):
        text = draw(st.sampled_from(served.logs))
        return edited_log(text, draw) if edited else text
    elif label == "POST /api/crawl/games":
        body = {"adventure": "bone-priest", "seed": 1, "heroes": "basic", "dm": "basic"}
    else:
        body = {"scenario": "tutorial", "seed": 1}
    return edit(body, draw) if edited else body


def pick(choices: list[Any], draw: Callable[..., Any]) -> Any:
    """One of ``choices``, which change as the game goes on: drawn by an index of a fixed
    range, so that the draws of one example do not depend on the examples before it."""
    return choices[draw(st.integers(0, 63)) % len(choices)]


def being(served: Served, draw: Callable[..., Any]) -> str:
    """The id of one of the world's beings now (an adventurer, a minion, the master)."""
    view = served.client.get(
        f"/api/keep/worlds/{served.ids['world_id']}/view",
        headers=bearer(served.tokens["world_id"][0]),
    ).json()
    ids: list[str] = sorted(b["id"] for b in view["beings"])
    return str(pick(ids, draw))


CALLERS = ("token, the game's body", "token", "no token", "unknown")
"""Who sends a case: with a token and a body made from the game or world (or for a route
that reads no body, just the token), with a token and the case's own body, with the
real id and no token, or as the case has it (an id that is no game's, no token)."""


def fuzz(served: Served, label: str, mode: GenerationMode) -> None:
    operation = served.schema[label.split(" ", 1)[1]][label.split(" ", 1)[0]]
    owned = [k for k in served.ids if "{" + k + "}" in operation.path]
    callers = CALLERS if owned else (CALLERS[0], CALLERS[3])
    reads_body = operation.body is not None and len(operation.body) > 0

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(mode), caller=st.sampled_from(callers), data=st.data())
    def check(case: Any, caller: str, data: st.DataObject) -> None:
        touched = caller != "unknown"
        if caller != "unknown":
            for key in owned:
                case.path_parameters[key] = served.ids[key]
        headers = dict(case.headers or {})
        if caller == CALLERS[0] and label.endswith("/actions"):
            headers.update(bearer(to_act(served)[0]))  # the seat whose turn it is
        elif caller.startswith("token") and owned:
            tokens = served.tokens[owned[0]]
            headers.update(bearer(data.draw(st.sampled_from(tokens), label="token")))
        if caller == CALLERS[0] and "{adv_id}" in operation.path:
            case.path_parameters["adv_id"] = being(served, data.draw)
        if caller == CALLERS[0] and reads_body:
            case.body = game_body(served, label, data.draw)
            case.media_type = "application/jsonl" if "replays" in label else "application/json"
        case.headers = headers
        checks = CHECKS + ([negative_data_rejection] if mode.is_negative and not touched else [])
        case.call_and_validate(checks=checks)

    check()


def fuzzed(label: str) -> list[Any]:
    modes = [GenerationMode.POSITIVE]
    if label.startswith("POST") or "{" in label:
        modes.append(GenerationMode.NEGATIVE)  # the others have nothing to make invalid
    return [pytest.param(label, mode, id=f"{label} {mode.value}") for mode in modes]


@pytest.mark.parametrize(("label", "mode"), [p for op in sorted(OPERATIONS) for p in fuzzed(op)])
def test_no_request_the_schema_describes_is_a_5xx_or_off_the_schema(
    served: Served, label: str, mode: GenerationMode
) -> None:
    fuzz(served, label, mode)
