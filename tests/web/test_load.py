"""Load and abuse: 20 games played at once while 1,000 malformed requests arrive; the
server plays every game to its end and still answers."""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlparse

from server_kit import running_server


def request(
    base: str,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes]:
    url = urlparse(base)
    assert url.hostname is not None, base
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def call(base: str, method: str, path: str, token: str | None = None, data: Any = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = None if data is None else json.dumps(data).encode()
    status, raw = request(base, method, path, body, headers)
    return status, json.loads(raw)


def toward_the_exit(view: dict[str, Any]) -> dict[str, Any]:
    """Leave if one can, else step nearer an exit, else end the step."""
    legal: list[dict[str, Any]] = view["legal"]
    exits: list[tuple[int, int]] = [tuple(e) for e in view["exits"]]
    leave = [a for a in legal if a["action"] == "Leave"]
    if leave:
        return leave[0]
    here = {h["id"]: h["pos"] for h in view["heroes"]}

    def gap(p: list[int]) -> int:
        return min(abs(p[0] - x) + abs(p[1] - y) for x, y in exits)

    steps = [a for a in legal if a["action"] == "Step" and gap(a["to"]) < gap(here[a["hero"]])]
    if steps:
        return steps[0]
    return next((a for a in legal if a["action"] == "Done"), legal[0])


def play_one(base: str, seed: int) -> tuple[str, int]:
    status, game = call(base, "POST", "/api/crawl/games", data={"seed": seed, "dm": "heuristic"})
    assert status == 201, game
    token, path = game["seats"]["heroes"]["token"], f"/api/crawl/games/{game['id']}"
    moves = 0
    while True:
        status, view = call(base, "GET", f"{path}/observation", token)
        assert status == 200
        if view["outcome"]:
            return view["outcome"], moves
        if view["legal"]:
            status, _ = call(base, "POST", f"{path}/actions", token, toward_the_exit(view))
            assert status == 200
            moves += 1
        else:
            time.sleep(0.01)
        assert moves < 500


def malformed(base: str, n: int, seed: int) -> list[int]:
    """``n`` requests no client should send; returns their statuses."""
    rng = random.Random(seed)
    url = urlparse(base)
    statuses = []
    for i in range(n):
        kind = i % 10
        if kind == 0:
            statuses.append(request(base, "POST", "/api/crawl/games", bytes(rng.randbytes(200)))[0])
        elif kind == 1:
            statuses.append(request(base, "POST", "/api/crawl/games", b"{" * 3000)[0])
        elif kind == 2:
            statuses.append(request(base, "POST", "/api/crawl/games", b"x" * 200_000)[0])
        elif kind == 3:
            path = f"/api/crawl/games/{rng.randbytes(6).hex()}/actions"
            statuses.append(request(base, "POST", path, b"{}", {"Authorization": "Bearer x"})[0])
        elif kind == 4:
            statuses.append(request(base, "GET", "/api/crawl/games/%00%ff/observation")[0])
        elif kind == 5:
            body = json.dumps({"party": [rng.random()], "seed": "many"}).encode()
            statuses.append(request(base, "POST", "/api/crawl/games", body)[0])
        elif kind == 6:
            headers = {"Content-Length": "99999999999"}
            statuses.append(request(base, "POST", "/api/crawl/games", b"", headers)[0])
        elif kind == 7:
            statuses.append(
                request(base, "POST", "/api/replays/crawl?seat=heroes", rng.randbytes(300))[0]
            )
        elif kind == 8:
            # Raw garbage that is not HTTP at all: the server drops it and goes on.
            with socket.create_connection((url.hostname, url.port), timeout=5) as s:
                s.sendall(rng.randbytes(64) + b"\r\n\r\n")
                answer = s.recv(100)
            statuses.append(int(answer.split()[1]) if answer.startswith(b"HTTP/1.1 ") else 400)
        else:
            body = json.dumps({"adventure": ["x"] * 10, "heroes": {"a": 1}}).encode()
            statuses.append(request(base, "POST", "/api/crawl/games", body)[0])
    return statuses


def test_twenty_games_at_once_and_a_thousand_malformed_requests() -> None:
    with running_server() as (base, app):
        with ThreadPoolExecutor(max_workers=24) as pool:
            games = [pool.submit(play_one, base, seed) for seed in range(20)]
            abuse = [pool.submit(malformed, base, 250, k) for k in range(4)]
            outcomes = [g.result(timeout=120) for g in games]
            statuses = [s for a in abuse for s in a.result(timeout=120)]
        assert len(statuses) == 1000
        assert all(400 <= s < 500 for s in statuses), sorted(set(statuses))
        assert all(outcome in ("escaped", "perished") for outcome, _ in outcomes)
        assert request(base, "GET", "/healthz")[0] == 200
        assert len(app.state.games) == 20
