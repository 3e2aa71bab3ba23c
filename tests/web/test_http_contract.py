"""The HTTP contract of docs/web.md, played through: a whole game with both seats human
choosing random legal actions, refusals that change nothing, and the heroes' bodies
checked against what their observer gives them."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from web_kit import assert_hidden, bearer, game_of, make_client, secrets_of, start

from undercroft.core.events import log_from_text
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.runner import play


@pytest.fixture(scope="module")
def client() -> Any:
    return make_client()


def snapshot(game: Any) -> tuple[str, int, int]:
    return json.dumps(game.state.to_json()), len(game.log.entries), game.version


def refusals(
    client: Any, game_id: str, tokens: dict[str, str], seat: str, legal: list[Any]
) -> None:
    """Every kind of refusal, each leaving the game exactly as it was."""
    game = game_of(client, game_id)
    before = snapshot(game)
    other = "dm" if seat == "heroes" else "heroes"
    url = f"/api/crawl/games/{game_id}/actions"
    cases = [
        (401, {}, legal[0]),
        (401, bearer("not-a-token"), legal[0]),
        (401, bearer(tokens[seat][:-1]), legal[0]),
        (401, {"Authorization": tokens[seat]}, legal[0]),  # no Bearer scheme
        (409, bearer(tokens[other]), legal[0]),
        (422, bearer(tokens[seat]), {"action": "Step", "hero": "hero:brenna", "to": [0, 0]}),
        (422, bearer(tokens[seat]), {"action": "Teleport"}),
        (422, bearer(tokens[seat]), {"action": "FightStamina", "points": 99}),
        (422, bearer(tokens[seat]), [1, 2, 3]),
        (422, bearer(tokens[seat]), {"action": "Step", "hero": 7, "to": "nowhere"}),
    ]
    for status, headers, body in cases:
        response = client.post(url, headers=headers, json=body)
        assert response.status_code == status, (body, response.text)
        assert set(response.json()) == {"error"}
    for raw in (b"{not json", b"\xff\xfe", b"[" * 5000, b'"Done"'):
        headers = {**bearer(tokens[seat]), "Content-Type": "application/json"}
        response = client.post(url, headers=headers, content=raw)
        assert response.status_code == 422, raw
    assert client.get(f"/api/crawl/games/{game_id}/observation").status_code == 401
    assert client.get(f"/api/crawl/games/{game_id}/log", headers=bearer("x")).status_code == 401
    assert client.get("/api/crawl/games/nope/observation", headers=bearer("x")).status_code == 404
    assert snapshot(game) == before


def test_a_whole_game_of_random_legal_actions_with_refusals(client: Any) -> None:
    data = start(client, adventure="greyhollow-cellars", seed=2, heroes="human", dm="human")
    game_id = data["id"]
    tokens = {seat: data["seats"][seat]["token"] for seat in ("heroes", "dm")}
    assert all(len(t) >= 43 for t in tokens.values())  # 32 random bytes
    game = game_of(client, game_id)
    rng = random.Random(14)
    decisions = 0
    while True:
        views = {
            seat: client.get(f"/api/crawl/games/{game_id}/observation", headers=bearer(t)).json()
            for seat, t in tokens.items()
        }
        # The observation is the observer's, and legal is filled only for the seat to act.
        for seat, view in views.items():
            assert view == observe(game.state, Seat(seat)).to_json()
        assert_hidden(views["heroes"], secrets_of(game.state))
        acting = [seat for seat, view in views.items() if view["legal"]]
        if not acting:
            break
        assert len(acting) == 1 and views[acting[0]]["to_act"] == acting[0]
        seat = acting[0]
        if decisions % 60 == 0:
            refusals(client, game_id, tokens, seat, views[seat]["legal"])
        action = rng.choice(views[seat]["legal"])
        response = client.post(
            f"/api/crawl/games/{game_id}/actions", headers=bearer(tokens[seat]), json=action
        )
        assert response.status_code == 200, response.text
        assert response.json() == observe(game.state, Seat(seat)).to_json()
        if seat == "heroes":
            assert_hidden(response.json(), secrets_of(game.state))
        decisions += 1
    assert game.state.is_terminal() and decisions > 100
    after = client.post(
        f"/api/crawl/games/{game_id}/actions", headers=bearer(tokens["dm"]), json={"action": "Done"}
    )
    assert after.status_code == 409
    # The logs: the DM's is the whole log; the heroes' the observer's view of it.
    dm_log = client.get(f"/api/crawl/games/{game_id}/log", headers=bearer(tokens["dm"])).text
    assert dm_log == game.log.text()
    heroes_text = client.get(
        f"/api/crawl/games/{game_id}/log", headers=bearer(tokens["heroes"])
    ).text
    heroes_log = log_from_text(heroes_text)
    assert [e.seq for e in heroes_log.entries] == list(range(len(heroes_log.entries)))
    assert heroes_log.summary is not None and heroes_log.summary.results["outcome"]
    secrets = secrets_of(game.state)
    for line in heroes_text.splitlines():
        assert_hidden(json.loads(line), secrets)
    assert len(heroes_log.entries) < len(game.log.entries)


def test_a_game_the_server_plays_is_the_runners_game_byte_for_byte(client: Any) -> None:
    """The server rolls the dice and plays policy seats seeded as the runner does."""
    data = start(client, adventure="bone-priest", seed=9, heroes="heuristic", dm="heuristic")
    assert data["seats"]["heroes"]["token"] is None and data["seats"]["dm"]["token"] is None
    game = game_of(client, data["id"])
    pack = default_pack()
    party = list(pack.heroes)[:4]
    result = play(
        pack.ruleset("bone-priest"),
        party,
        seed=9,
        heroes="basic",
        dm="basic",
        scenario="bone-priest",
    )
    assert result.log is not None
    assert game.log.text() == result.log.text()


def test_hero_players_act_only_for_their_own_hero(client: Any) -> None:
    data = start(client, adventure="greyhollow-cellars", seed=3, heroes="human", dm="heuristic")
    players = data["seats"]["heroes"]["players"]
    assert set(players) == {"hero:brenna", "hero:garrick", "hero:durn", "hero:sable"}
    url = f"/api/crawl/games/{data['id']}/actions"
    sable = bearer(players["hero:sable"]["token"])
    view = client.get(f"/api/crawl/games/{data['id']}/observation", headers=sable).json()
    assert view["seat"] == "heroes" and view["legal"]
    theirs = next(a for a in view["legal"] if a.get("hero") == "hero:garrick")
    game = game_of(client, data["id"])
    before = snapshot(game)
    assert client.post(url, headers=sable, json=theirs).status_code == 403
    assert snapshot(game) == before
    own = next(a for a in view["legal"] if a.get("hero") == "hero:sable" and a["action"] == "Step")
    assert client.post(url, headers=sable, json=own).status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"adventure": "nowhere"}, "adventure"),
        ({"party": ["brenna", "brenna", "durn"]}, "party"),
        ({"party": ["brenna", "durn"]}, "party"),
        ({"party": "brenna"}, "party"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "3"}, "seed"),
        ({"dm": "mypolicies:make"}, "dm"),
        ({"heroes": "nobody"}, "heroes"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_a_bad_new_game_is_refused_naming_the_field(client: Any, body: Any, field: str) -> None:
    before = len(client.app.state.games)
    response = client.post("/api/crawl/games", json=body)
    assert response.status_code == 422
    assert response.json()["error"].startswith(field)
    assert len(client.app.state.games) == before


def test_health_options_pages_and_schema(client: Any) -> None:
    assert client.get("/healthz").status_code == 200
    options = client.get("/api/crawl/options").json()
    assert options["players"][0] == "human" and "basic" in options["players"]
    for path in ("/", "/play/crawl/x", "/replay", "/replay/crawl/x"):
        page = client.get(path)
        assert page.status_code == 200 and '<script src="/static/' in page.text
        assert "token" not in page.text.split("<body")[0] or "/static/" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("common.js", "play.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    schema = client.get("/openapi.json").json()
    assert {"/api/crawl/games", "/api/crawl/games/{game_id}/actions"} <= set(schema["paths"])


def test_the_socket_pushes_the_seats_frame_after_every_change(client: Any) -> None:
    data = start(client, adventure="greyhollow-cellars", seed=3, heroes="human", dm="heuristic")
    token = data["seats"]["heroes"]["token"]
    game = game_of(client, data["id"])
    with client.websocket_connect(f"/api/crawl/games/{data['id']}/ws?token={token}") as ws:
        first = ws.receive_json()
        assert first["observation"] == observe(game.state, Seat.HEROES).to_json()
        assert [e["entry"]["seq"] for e in first["events"]] == list(range(first["next"]))
        action = next(a for a in first["observation"]["legal"] if a["action"] == "Step")
        client.post(f"/api/crawl/games/{data['id']}/actions", headers=bearer(token), json=action)
        second = ws.receive_json()
        assert second["version"] > first["version"]
        assert second["observation"] == observe(game.state, Seat.HEROES).to_json()
        assert [e["entry"]["seq"] for e in second["events"]] == list(
            range(first["next"], second["next"])
        )
        assert any(e["entry"]["type"] == "moved" for e in second["events"])
    bad = f"/api/crawl/games/{data['id']}/ws?token=wrong"
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(bad) as ws:
        ws.receive_json()
    assert refused.value.code == 1008
