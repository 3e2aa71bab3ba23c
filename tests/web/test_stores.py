"""The stores of games and worlds expire what nobody uses and share room fairly: one
client's abandoned games never lock everyone else out (docs/web.md, "Security and load")."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
import websockets
from server_kit import running_server
from web_kit import make_client

from undercroft.web.hub import Hub, RefusalError
from undercroft.web.limits import Limits


@dataclass(eq=False)
class Game:
    done: bool = False

    def finished(self) -> bool:
        return self.done


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_idle_game_expires_and_a_used_one_stays() -> None:
    clock = Clock()
    hub: Hub[Game] = Hub("games", 8, idle_seconds=100, finished_seconds=10, clock=clock)
    idle = hub.add(lambda _: Game(), "a")
    used = hub.add(lambda _: Game(), "b")
    ids = {id(g): k for k, g in hub._games.items()}
    clock.now = 60
    hub.get(ids[id(used)])
    clock.now = 101
    with pytest.raises(RefusalError) as gone:
        hub.get(ids[id(idle)])
    assert gone.value.status == 404
    assert hub.get(ids[id(used)]) is used
    used.done = True
    clock.now = 112  # finished, and unasked for 11 s
    with pytest.raises(RefusalError):
        hub.get(ids[id(used)])
    assert len(hub) == 0


def test_one_client_never_holds_more_than_its_share() -> None:
    hub: Hub[Game] = Hub("games", 16, clock=Clock())
    assert hub.per_owner == 2
    first = hub.add(lambda _: Game(), "flood")
    for _ in range(50):
        hub.add(lambda _: Game(), "flood")
    assert len(hub) == 2
    assert all(g is not first for g in hub._games.values())  # its own oldest made room
    for n in range(14):
        hub.add(lambda _: Game(), f"client-{n // 2}")
    assert len(hub) == 16
    with pytest.raises(RefusalError) as full:
        hub.add(lambda _: Game(), "late")
    assert full.value.status == 503


def test_a_flood_of_abandoned_games_from_one_client_leaves_room_for_others() -> None:
    """Over HTTP: 300 games from one address (the test client), then a keep world flood;
    the server still starts games, and the flood holds at most an eighth of the store."""
    client = make_client(limits=Limits(games=32, worlds=8))
    for _ in range(300):
        assert client.post("/api/crawl/games", json={"seed": 1}).status_code == 201
    games = client.app.state.games  # type: ignore[attr-defined]
    assert len(games) == 4
    for _ in range(20):
        response = client.post("/api/keep/worlds", json={"scenario": "tutorial", "seed": 1})
        assert response.status_code == 201
    assert len(client.app.state.worlds) == 1  # type: ignore[attr-defined]


def test_a_bad_link_is_closed_with_1008_on_a_real_server() -> None:
    """A browser sees a refusal at the handshake as 1006 (a lost connection, retried
    forever); the server accepts, then closes with 1008 and says why."""

    async def attempt(base: str) -> tuple[int | None, str | None]:
        url = base.replace("http://", "ws://") + "/api/crawl/games/nope/ws?token=x"
        async with websockets.connect(url) as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
        received = closed.value.rcvd
        assert received is not None
        return received.code, received.reason

    with running_server() as (base, _), ThreadPoolExecutor(1) as thread:
        # Its own thread: another test in this worker may have left an event loop running.
        code, reason = thread.submit(asyncio.run, attempt(base)).result()
    assert code == 1008
    assert reason == "this link is not valid"
