"""What the web tests share: a client on the app, and the secrets a heroes' message must
never hold (ARCHITECTURE.md, "Hidden information")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import known_squares, observe
from undercroft.crawl.sightings import Sightings
from undercroft.crawl.state import State
from undercroft.web.app import create_app
from undercroft.web.crawl_games import CrawlGame

JSON = {"Content-Type": "application/json"}


def make_client(**kwargs: Any) -> TestClient:
    return TestClient(create_app(**kwargs))


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def start(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/crawl/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def app_of(client: TestClient) -> FastAPI:
    """The client's app (``create_app`` makes a FastAPI), its games and worlds in its state."""
    app = client.app
    assert isinstance(app, FastAPI)
    return app


def game_of(client: TestClient, game_id: str) -> CrawlGame:
    game: CrawlGame = app_of(client).state.games.get(game_id)
    return game


@dataclass(frozen=True)
class Secrets:
    """What the heroes may not know at one moment of a game."""

    areas: frozenset[str]
    """Areas not revealed whose names appear nowhere public (goals)."""
    cards: frozenset[str]
    """Cards of face-down items that no public or identified thing names."""
    traps: frozenset[tuple[int, int]]
    """Armed traps not detected."""
    face_down: frozenset[str]
    """Item uids of face-down items."""
    unknown: frozenset[tuple[int, int]]
    """Squares the heroes neither see nor know (they must be ``?`` on their board)."""


def secrets_of(state: State) -> Secrets:
    adventure = state.ruleset.adventure
    public = " ".join(f"{g.text} {g.target}" for g in adventure.goals)
    areas = {
        a.name for a in state.grid.areas if a.name not in state.revealed and a.name not in public
    }
    shown = {i.card for i in state.items.values() if i.identified}
    header_cards = {card for h in state.heroes.values() for card in state.hero_profile(h).items}
    face_down = {uid for uid, i in state.items.items() if not i.identified}
    cards = {
        state.items[uid].card
        for uid in face_down
        if state.items[uid].card not in shown | header_cards and state.items[uid].card not in public
    }
    traps = {(p.x, p.y) for p, t in state.traps.items() if t.armed and not t.detected}
    known = known_squares(state)
    unknown = {
        (x, y) for y in range(state.grid.height) for x in range(state.grid.width) if not known[y, x]
    }
    return Secrets(
        frozenset(areas),
        frozenset(cards),
        frozenset(traps),
        frozenset(face_down),
        frozenset(unknown),
    )


def never_seen(game: CrawlGame) -> frozenset[tuple[int, int]]:
    """The squares the heroes' board never showed in the game so far (a replay may draw
    any square it showed at some line: the board as the heroes saw it then)."""
    state = game.state
    sightings = Sightings.of_log(state.ruleset.adventure, game.log.header)
    ever = sightings.known()
    for entry in game.log.entries:
        sightings.follow(entry)
        ever |= sightings.known()
    width, height = state.grid.width, state.grid.height
    return frozenset(
        (x, y) for y in range(height) for x in range(width) if not ever >> (8 * (y * width + x)) & 1
    )


def walk(value: Any) -> Any:
    """Every dict inside a JSON value."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def assert_hidden(message: Any, secrets: Secrets, *, board: bool = True) -> None:
    """A message sent to the heroes (parsed JSON) holds none of ``secrets``. ``board``:
    also check that the squares not known now are ``?`` and that no monster stands on
    one (R-C-MON-06; only for a message of this moment: what the heroes see changes as
    they move)."""
    text = json.dumps(message)
    for name in secrets.areas:
        assert json.dumps(name) not in text, f"unrevealed area {name!r} sent to the heroes"
    for card in secrets.cards:
        assert json.dumps(card) not in text, f"face-down card {card!r} sent to the heroes"
    for d in walk(message):
        if d.get("uid") in secrets.face_down or d.get("item") in secrets.face_down:
            assert d.get("card") is None, f"the identity of face-down {d} sent to the heroes"
        if "at" in d and ("armed" in d or ("kind" in d and "detected" in d)):
            assert tuple(d["at"]) not in secrets.traps, f"undetected trap {d} sent to the heroes"
        if d.get("type") == "roll":
            assert not d.get("hidden"), "a hidden roll (Detect Traps) sent to the heroes"
        if board and isinstance(d.get("monsters"), list):
            for m in d["monsters"]:
                if isinstance(m, dict):  # figures, not a log line's list of ids
                    at = tuple(m["pos"])
                    assert at not in secrets.unknown, f"{m['id']} out of sight sent to heroes"
        drawn = d.get("board")
        if board and isinstance(drawn, str):
            rows = drawn.split("\n")
            for x, y in secrets.unknown:
                assert rows[y][x] == "?", f"square ({x},{y}) shown to the heroes unseen"


def heroes_view_matches(game: CrawlGame, message: dict[str, Any]) -> None:
    """The observation in a message is exactly the heroes' observer's."""
    assert message == observe(game.state, Seat.HEROES).to_json()
