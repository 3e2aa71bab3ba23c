"""A human seat handed to a built-in policy mid-game and taken back, over HTTP
(``POST /api/crawl/games/{id}/player``, docs/web.md)."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import pytest
from web_kit import bearer, game_of, make_client, start

from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.runner import play
from undercroft.web.crawl_games import CrawlGame


@pytest.fixture(scope="module")
def client() -> Any:
    return make_client()


def hand(client: Any, game_id: str, token: str | None, player: Any) -> Any:
    return client.post(
        f"/api/crawl/games/{game_id}/player", headers=bearer(token), json={"player": player}
    )


def settled(game: CrawlGame, timeout: float = 120) -> None:
    """Wait until no thread is letting this game's policies play."""
    deadline = time.monotonic() + timeout
    name = f"policies-{game.id}"
    while any(t.name == name for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the policies did not stop"
        time.sleep(0.02)


def test_a_seat_handed_over_at_the_start_plays_the_game_a_run_plays(client: Any) -> None:
    """Handed to careful before its first decision, the heroes' seat plays on to the end,
    and the log's lines are exactly those of ``run crawl`` with careful and master: the
    handover adds nothing to the log and the policy is seeded as a run seeds it."""
    data = start(client, adventure="greyhollow-cellars", seed=5, heroes="human", dm="master")
    token = data["seats"]["heroes"]["token"]
    game = game_of(client, data["id"])
    answer = hand(client, data["id"], token, "careful")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"seat": "heroes", "players": {"heroes": "careful", "dm": "master"}}
    settled(game)
    assert game.finished()
    pack = default_pack()
    run = play(pack.ruleset("greyhollow-cellars"), list(pack.heroes)[:4], seed=5, heroes="careful")
    assert run.log is not None
    assert [e.to_json() for e in game.log.entries] == [e.to_json() for e in run.log.entries]
    assert run.log.summary is not None
    assert game.summary() == dict(run.log.summary.results)
    # Over: the seat cannot change hands any more.
    assert hand(client, data["id"], token, "human").status_code == 409


def test_a_seat_taken_back_is_the_persons_at_its_next_decision(client: Any) -> None:
    data = start(client, adventure="greyhollow-cellars", seed=8, heroes="human", dm="master")
    token = data["seats"]["heroes"]["token"]
    game = game_of(client, data["id"])
    with game.driving:  # the server's policy thread waits: this test plays its steps
        assert hand(client, data["id"], token, "careful").status_code == 200
        for _ in range(6):
            assert game.step()
        back = hand(client, data["id"], token, "human")
        assert back.status_code == 200
        assert back.json()["players"] == {"heroes": "human", "dm": "master"}
    settled(game)
    why = [e.event.fields for e in game.log.entries if e.event.type == "reason"]
    assert any(f["seat"] == "heroes" for f in why)  # careful did play
    assert game.state.current_player() is Seat.HEROES  # and stopped; the DM's policy too
    seen = client.get(f"/api/crawl/games/{data['id']}/observation", headers=bearer(token))
    legal = seen.json()["legal"]
    assert legal
    acted = client.post(
        f"/api/crawl/games/{data['id']}/actions", headers=bearer(token), json=legal[0]
    )
    assert acted.status_code == 200, acted.text


def test_a_dm_handed_over_answers_the_heroes_moves(client: Any) -> None:
    """Both seats human; the DM hands its seat to basic: from then on every heroes' action
    comes back with the heroes to act again (or the game over), the DM's turns played."""
    data = start(client, adventure="greyhollow-cellars", seed=3, heroes="human", dm="human")
    game_id = data["id"]
    heroes, dm = (data["seats"][s]["token"] for s in ("heroes", "dm"))
    game = game_of(client, game_id)
    assert hand(client, game_id, dm, "basic").status_code == 200
    settled(game)
    with client.websocket_connect(f"/api/crawl/games/{game_id}/ws?token={heroes}") as ws:
        assert ws.receive_json()["players"] == {"heroes": "human", "dm": "basic"}
    rng = random.Random(4)
    for _ in range(40):
        if game.finished():
            break
        assert game.state.current_player() is Seat.HEROES
        legal = client.get(f"/api/crawl/games/{game_id}/observation", headers=bearer(heroes))
        action = rng.choice(legal.json()["legal"])
        answer = client.post(
            f"/api/crawl/games/{game_id}/actions", headers=bearer(heroes), json=action
        )
        assert answer.status_code == 200, answer.text
        settled(game)
    assert any(
        e.event.type == "reason" and e.event.fields["seat"] == "dm" for e in game.log.entries
    )


def test_handing_over_is_refused_clearly_and_changes_nothing(client: Any) -> None:
    data = start(client, adventure="greyhollow-cellars", seed=2, heroes="human", dm="human")
    game_id = data["id"]
    game = game_of(client, game_id)
    before = json.dumps(game.state.to_json()), game.version, dict(game.players)
    hero_link = next(iter(data["seats"]["heroes"]["players"].values()))["token"]
    token = data["seats"]["heroes"]["token"]
    url = f"/api/crawl/games/{game_id}/player"
    cases = [
        (401, {}, {"player": "careful"}),
        (401, bearer("nope"), {"player": "careful"}),
        (403, bearer(hero_link), {"player": "careful"}),
        (422, bearer(token), {"player": "mymodule:make"}),
        (422, bearer(token), {"player": "careful[gather=0]"}),
        (422, bearer(token), {"player": 7}),
        (422, bearer(token), {"player": "careful", "seat": "dm"}),
        (422, bearer(token), ["careful"]),
    ]
    for status, headers, body in cases:
        answer = client.post(url, headers=headers, json=body)
        assert answer.status_code == status, (body, answer.text)
        assert set(answer.json()) == {"error"}
    assert "careful" in client.post(url, headers=bearer(token), json={"player": 7}).json()["error"]
    assert (json.dumps(game.state.to_json()), game.version, dict(game.players)) == before
