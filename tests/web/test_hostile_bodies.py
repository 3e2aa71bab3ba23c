"""Bodies no client should send get a 4xx, never a 500: huge integers, lone surrogates,
the wrong content type (a cross-site form post), partial bodies."""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest
from server_kit import serve_process
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


def send_and_hang_up(port: int, head: bytes, body: bytes, *, wait: float = 0.0) -> None:
    """Open a connection, send ``head`` and part of a body, and close it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head + body)
        time.sleep(wait)


def test_a_client_that_hangs_up_mid_body_leaves_no_traceback() -> None:
    """Bodies cut short (a length promised and not sent, a chunked body never ended, a log
    to replay cut at 100 KiB) and a client gone before its answer: the server goes on and
    its log holds no traceback (uvicorn as ``undercroft serve`` runs it)."""
    with serve_process() as (port, ended):
        host = b"Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
        game = b'{"adventure": "bone-priest", "seed": 1, "heroes": "basic", "dm": "basic"}'
        cases = [
            (b"POST /api/crawl/games HTTP/1.1\r\n" + host + b"Content-Length: 1000\r\n\r\n", game),
            (
                b"POST /api/crawl/games HTTP/1.1\r\n"
                + host
                + b"Transfer-Encoding: chunked\r\n\r\n",
                b"10\r\n" + game[:16] + b"\r\n",
            ),
            (
                b"POST /api/replays HTTP/1.1\r\n" + host + b"Content-Length: 5000000\r\n\r\n",
                b'{"type": "header"}\n' * 5000,
            ),
            (
                b"POST /api/crawl/games HTTP/1.1\r\n"
                + host
                + b"Content-Length: %d\r\n\r\n" % len(game),
                game,  # whole, then gone before the answer
            ),
        ]
        for head, body in cases:
            send_and_hang_up(port, head, body, wait=0.2)
        time.sleep(1)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert connection.recv(100).startswith(b"HTTP/1.1 200")
    stderr = ended["stderr"]
    assert ended["returncode"] == "130", stderr
    assert "Traceback" not in stderr and "ERROR" not in stderr, stderr
