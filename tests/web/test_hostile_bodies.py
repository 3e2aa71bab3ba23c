"""Bodies no client should send get a 4xx, never a 500: huge integers, lone surrogates,
the wrong content type (a cross-site form post), partial bodies."""

from __future__ import annotations

from typing import Any

import pytest
from web_kit import JSON, bearer, make_client, start

from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play

HUGE = b"1" * 5000  # over Python's 4,300-digit limit for int()


@pytest.fixture(scope="module")
def client() -> Any:
    return make_client()


def post_routes(client: Any) -> list[tuple[str, dict[str, str]]]:
    """Every POST route that reads a JSON body, with the token it needs."""
    game = start(client, heroes="human", dm="human", seed=3)
    world = client.post("/api/keep/worlds", json={"scenario": "tutorial", "seed": 1})
    assert world.status_code == 201, world.text
    keep = world.json()
    return [
        ("/api/crawl/games", {}),
        (f"/api/crawl/games/{game['id']}/actions", bearer(game["seats"]["heroes"]["token"])),
        ("/api/keep/worlds", {}),
        (f"/api/keep/worlds/{keep['id']}/advance", bearer(keep["token"])),
        (f"/api/keep/worlds/{keep['id']}/commands", bearer(keep["token"])),
    ]


def test_a_huge_integer_or_a_lone_surrogate_is_a_4xx_on_every_route(client: Any) -> None:
    bodies = [
        b'{"seed": ' + HUGE + b"}",
        b'{"action": "Done", "x": ' + HUGE + b"}",
        b"[" + HUGE + b"]",
        b'{"\\ud800": 1}',
        b'{"adventure": "\\udfff"}',
        b'{"action": "\\ud800"}',
        b'{"scenario": "\\ud800", "seed": 1}',
    ]
    for url, auth in post_routes(client):
        for body in bodies:
            response = client.post(url, headers={**auth, **JSON}, content=body)
            assert 400 <= response.status_code < 500, (url, body[:30], response.text)
            assert set(response.json()) == {"error"}


def test_only_json_bodies_are_read(client: Any) -> None:
    """A page on another site can post a form or text/plain without asking: such posts
    create no game and no world (415)."""
    for url, auth in post_routes(client):
        for kind in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {**auth, **({"Content-Type": kind} if kind else {})}
            response = client.post(url, headers=headers, content=b'{"seed": 1}')
            assert response.status_code == 415, (url, kind, response.text)


def test_a_log_with_a_lone_surrogate_replays_or_is_refused_never_a_500(client: Any) -> None:
    pack = default_pack()
    result = play(pack.ruleset("bone-priest"), list(pack.heroes)[:4], seed=1)
    assert result.log is not None
    text = result.log.text()
    hostile = [
        text.replace('"scenario":"bone-priest"', '"scenario":"\\ud800"', 1),
        text.replace('"seed":1', '"seed":' + HUGE.decode(), 1),
        text.replace('"actor":"hero:brenna"', '"actor":"\\ud800"', 1),
    ]
    for body in hostile:
        assert body != text
        response = client.post("/api/replays", content=body.encode())
        assert response.status_code < 500, response.text
