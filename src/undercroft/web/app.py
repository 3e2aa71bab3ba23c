"""The web app (FastAPI): the lobby, the pages, the HTTP contract and the socket.

The contract is docs/web.md (and ``/openapi.json``). Every answer to a seat is built from
that seat's observation and log view (:mod:`undercroft.web.crawl_games`); the pages are
static files of this package (no CDN) that fetch what they draw with the seat's token,
so no page is ever rendered with game data in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import threading
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import anyio
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.websockets import WebSocketDisconnect

from undercroft import __version__
from undercroft.crawl.app.table import HUMAN, Table
from undercroft.crawl.content import Pack, default_pack
from undercroft.crawl.engine import Seat
from undercroft.web.contract import (
    ACTION_SCHEMA,
    COMMAND_SCHEMA,
    PLAYER_SCHEMA,
    JsonLines,
    NewGame,
    NewWorld,
    advance_schema,
    json_body,
    log_body,
    refusals,
    tidy,
    with_token,
)
from undercroft.web.crawl_games import CrawlGame, Pass, check_request, policy_names
from undercroft.web.headers import SecurityHeaders
from undercroft.web.hub import Hub, RefusalError
from undercroft.web.keep_replay import keep_frames
from undercroft.web.keep_view import MAX_ADVANCE, NEXT_KINDS, KeepWatch, scenarios
from undercroft.web.limits import BodyLimit, Limits
from undercroft.web.replay import ReplayError, crawl_frames, parse_log

SeatName = Literal["heroes", "dm"]
"""The seats a crawl log can be replayed as."""

STATIC = Path(str(files("undercroft.web") / "static"))


def create_app(
    *,
    pack: Pack | None = None,
    limits: Limits | None = None,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    """The app. ``allowed_hosts``: the Host headers it answers (None: any), so a page of
    another site cannot reach a loopback server through a DNS name it controls."""
    pack = pack or default_pack()
    limits = limits or Limits()
    games: Hub[CrawlGame] = Hub(
        "games",
        limits.games,
        idle_seconds=limits.idle_seconds,
        finished_seconds=limits.finished_seconds,
    )
    app = FastAPI(
        title="undercroft",
        version=__version__,
        docs_url=None,
        redoc_url=None,
        default_response_class=AsciiJSON,
    )
    app.state.games = games
    generated = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = tidy(generated())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(BodyLimit, limits=limits)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.add_middleware(SecurityHeaders)  # outermost: refusals of the two above carry them too

    @app.exception_handler(RefusalError)
    async def refused(_: Request, exc: RefusalError) -> JSONResponse:
        return AsciiJSON({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # A query parameter FastAPI checks (``seat``): the same {"error"} body as every
        # other refusal, naming the parameter and what it may be.
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "the request"
        return AsciiJSON({"error": f"{where}: {first.get('msg', 'invalid')}"}, status_code=422)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("lobby.html")

    @app.get("/play/crawl/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> FileResponse:
        return page("play.html")

    @app.get("/replay", include_in_schema=False)
    @app.get("/replay/crawl/{game_id}", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page("replay.html")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """200 while the server answers."""
        return {"ok": True, "version": __version__}

    # -- crawl ---------------------------------------------------------------------

    adventures = {a: len(pack.adventures[a].starts) for a in pack.campaign_order()}

    @app.get("/api/crawl/options")
    async def options() -> dict[str, Any]:
        """What a lobby offers: adventures, heroes, and who may play a seat."""
        return {
            "adventures": [
                {"id": a, "name": pack.adventures[a].name, "starts": n}
                for a, n in adventures.items()
            ],
            "heroes": [
                {"id": h.id, "name": h.name, "traits": sorted(t.value for t in h.traits)}
                for h in pack.heroes.values()
            ],
            "players": [HUMAN, *policy_names()],
            "party": {"min": 3, "max": 5},
        }

    @app.post(
        "/api/crawl/games",
        status_code=201,
        openapi_extra=json_body(NewGame),
        responses=refusals(413, 415, 422, 503),
    )
    async def new_game(request: Request) -> JSONResponse:
        """Start a game; each human seat gets a secret token and a link (201)."""
        data = await read_json(request)
        asked = check_request(
            data, adventures=adventures, order=list(adventures), heroes=list(pack.heroes)
        )

        def make(game_id: str) -> CrawlGame:
            ruleset = pack.ruleset(asked.adventure)
            table = Table(ruleset, asked.party, seed=asked.seed, players=asked.players)
            return CrawlGame(game_id, table)

        game = await anyio.to_thread.run_sync(games.add, make, client_of(request))
        base = str(request.base_url).rstrip("/")
        seats: dict[str, Any] = {}
        for seat in (Seat.HEROES, Seat.DM):
            token = game.tokens.get(seat)
            link = f"{base}/play/crawl/{game.id}#token={token}" if token else None
            seats[seat.value] = {"token": token, "url": link, "player": game.players[seat]}
        if game.hero_tokens:
            seats["heroes"]["players"] = {
                hero: {
                    "token": token,
                    "url": f"{base}/play/crawl/{game.id}?hero={hero}#token={token}",
                }
                for hero, token in game.hero_tokens.items()
            }
        return AsciiJSON(
            {"id": game.id, "seed": asked.seed, "adventure": asked.adventure, "seats": seats},
            status_code=201,
        )

    def seat_of(request: Request, game_id: str) -> tuple[CrawlGame, Pass]:
        game = games.get(game_id)
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer":
            raise RefusalError(401, "no valid token for this game (Authorization: Bearer TOKEN)")
        return game, game.authorize(token.strip())

    @app.get(
        "/api/crawl/games/{game_id}/observation",
        openapi_extra=with_token(),
        responses=refusals(401, 404),
    )
    async def observation(request: Request, game_id: str) -> dict[str, Any]:
        """The seat's observation (``legal`` filled only when the seat is to act)."""
        game, who = seat_of(request, game_id)
        return game.observation(who.seat)

    @app.post(
        "/api/crawl/games/{game_id}/actions",
        openapi_extra=with_token(json_body(ACTION_SCHEMA)),
        responses=refusals(401, 403, 404, 409, 413, 415, 422),
    )
    async def act(request: Request, game_id: str) -> dict[str, Any]:
        """Apply one action as listed in ``legal``; the new observation (200). 401 without
        a valid token, 409 not the seat's turn, 422 malformed or not legal, 403 a hero
        player acting for another hero. A refused action changes nothing."""
        game, who = seat_of(request, game_id)
        data = await read_json(request)
        result: dict[str, Any] = await anyio.to_thread.run_sync(game.act, who, data)
        game.notify()
        return result

    @app.post(
        "/api/crawl/games/{game_id}/player",
        openapi_extra=with_token(json_body(PLAYER_SCHEMA)),
        responses=refusals(401, 403, 404, 409, 413, 415, 422),
    )
    async def hand_over(request: Request, game_id: str) -> dict[str, Any]:
        """Hand the seat to a built-in policy (``{"player": "careful"}``) or take it back
        (``{"player": "human"}``) mid-game; who plays each seat now (200). The policy plays
        on from the seat's next decision; taken back, it stops at the next one. 401
        without a valid token, 403 with a hero player's link, 409 once the adventure is
        over, 422 for another name."""
        game, who = seat_of(request, game_id)
        data = await read_json(request)
        result: dict[str, Any] = await anyio.to_thread.run_sync(game.hand_over, who, data)
        play_policies(game)
        return result

    @app.get(
        "/api/crawl/games/{game_id}/log",
        response_class=JsonLines,
        openapi_extra=with_token(),
        responses=refusals(401, 404),
    )
    async def log(request: Request, game_id: str) -> JsonLines:
        """The log as the seat may see it (JSON Lines)."""
        game, who = seat_of(request, game_id)
        text = await anyio.to_thread.run_sync(game.log_text, who.seat)
        return JsonLines(text)

    @app.get(
        "/api/crawl/games/{game_id}/replay",
        openapi_extra=with_token(),
        responses=refusals(401, 404),
    )
    async def game_replay(request: Request, game_id: str) -> dict[str, Any]:
        """The seat's log as replay frames (the board after each line it may see)."""
        game, who = seat_of(request, game_id)
        text = await anyio.to_thread.run_sync(game.log_text, who.seat)
        return await anyio.to_thread.run_sync(any_replay, text, who.seat.value, "crawl")

    def any_replay(text: str, seat: str, ruleset: str | None) -> dict[str, Any]:
        """Frames of a log; ``ruleset`` None: whichever the header names."""
        try:
            log = parse_log(text)
            if ruleset is None and log.header.ruleset == "keep":
                return keep_frames(log)
            return {"ruleset": "crawl", **crawl_frames(log, pack, Seat(seat))}
        except ReplayError as exc:
            raise RefusalError(422, str(exc)) from None

    async def log_text(request: Request) -> str:
        body = await request.body()
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            raise RefusalError(422, "the log is not UTF-8 text") from None

    @app.post("/api/replays/crawl", openapi_extra=log_body(), responses=refusals(413, 422))
    async def replay_file(request: Request, seat: SeatName = "dm") -> dict[str, Any]:
        """Replay frames of a crawl log sent as the body, as ``seat`` (heroes or dm) sees it."""
        text = await log_text(request)
        return await anyio.to_thread.run_sync(any_replay, text, seat, "crawl")

    @app.post("/api/replays", openapi_extra=log_body(), responses=refusals(413, 422))
    async def replay_any(request: Request, seat: SeatName = "dm") -> dict[str, Any]:
        """Replay frames of a crawl or keep log sent as the body (``ruleset`` says which);
        a crawl log as ``seat`` sees it, a keep log whole (it has no hidden information)."""
        text = await log_text(request)
        return await anyio.to_thread.run_sync(any_replay, text, seat, None)

    @app.websocket("/api/crawl/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str, token: str = "", since: int = 0) -> None:
        """Pushes the seat's frame (observation, new log lines, summary) after every change."""
        try:
            game = games.get(game_id)
            who = game.authorize(token)
        except RefusalError:
            # Accepted, then closed with 1008 and a reason the page shows (a refusal at
            # the handshake reaches a page only as 1006, which looks like a lost line).
            await websocket.accept()
            await websocket.close(code=1008, reason="this link is not valid")
            return
        changed = asyncio.Event()
        loop = asyncio.get_running_loop()

        def wake() -> None:  # called from the threads that play policies, too
            with contextlib.suppress(RuntimeError):  # the loop is gone: so is the socket
                loop.call_soon_threadsafe(changed.set)

        game.listeners.add(wake)
        await websocket.accept()
        reader = asyncio.create_task(drain(websocket, changed))
        try:
            sent = since
            shown: int | None = None
            while not reader.done():
                changed.clear()
                frame = await anyio.to_thread.run_sync(game.frame, who.seat, sent)
                with contextlib.suppress(RefusalError):
                    games.get(game_id)  # a game watched live is in use: it does not expire
                if frame["version"] != shown:
                    # Only a frame that shows something new: the heroes get none for a DM
                    # move they cannot see (R-C-MON-06).
                    shown = frame["version"]
                    sent = frame["next"]
                    await websocket.send_json(frame)
                await changed.wait()
        except (WebSocketDisconnect, RuntimeError):
            pass  # the page went away mid-send
        finally:
            game.listeners.discard(wake)
            reader.cancel()

    # -- keep -------------------------------------------------------------------------

    worlds: Hub[KeepWatch] = Hub(
        "worlds",
        limits.worlds,
        idle_seconds=limits.idle_seconds,
        finished_seconds=limits.finished_seconds,
    )
    app.state.worlds = worlds

    @app.get("/keep", include_in_schema=False)
    async def keep_page() -> FileResponse:
        return page("keep.html")

    @app.get("/api/keep/options")
    async def keep_options() -> dict[str, Any]:
        """The shipped keep scenarios a world can be started from."""
        return {"scenarios": scenarios()}

    @app.post(
        "/api/keep/worlds",
        status_code=201,
        openapi_extra=json_body(NewWorld),
        responses=refusals(413, 415, 422, 503),
    )
    async def new_world(request: Request) -> JSONResponse:
        """Start a keep world from a shipped scenario: 201 ``{"id", "token"}``."""
        data = await read_json(request)
        if not isinstance(data, dict):
            raise RefusalError(422, "the body must be a JSON object")
        unknown = sorted(set(data) - {"scenario", "seed"})
        if unknown:
            raise RefusalError(422, f"unknown field(s) {', '.join(unknown)}; known: scenario, seed")
        scenario = data.get("scenario", "trapworks")
        if scenario not in scenarios():
            raise RefusalError(422, f"scenario: one of {', '.join(scenarios())}")
        seed = data.get("seed", 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise RefusalError(422, "seed: an integer from 0 to 2^63 - 1")
        watch = await anyio.to_thread.run_sync(
            worlds.add, lambda world_id: KeepWatch(world_id, scenario, seed), client_of(request)
        )
        return AsciiJSON({"id": watch.id, "token": watch.token}, status_code=201)

    def world_of(request: Request, world_id: str) -> KeepWatch:
        watch = worlds.get(world_id)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            token.strip().encode(), watch.token.encode()
        ):
            raise RefusalError(401, "no valid token for this world (Authorization: Bearer TOKEN)")
        return watch

    @app.get(
        "/api/keep/worlds/{world_id}/view", openapi_extra=with_token(), responses=refusals(401, 404)
    )
    async def world_view(request: Request, world_id: str) -> dict[str, Any]:
        """The map, structures, wiring, beings, clock, latest log lines and trap records."""
        watch = world_of(request, world_id)
        return await anyio.to_thread.run_sync(watch.view)

    @app.post(
        "/api/keep/worlds/{world_id}/advance",
        openapi_extra=with_token(json_body(advance_schema(MAX_ADVANCE, list(NEXT_KINDS)))),
        responses=refusals(401, 404, 413, 415, 422),
    )
    async def world_advance(request: Request, world_id: str) -> dict[str, Any]:
        """``{"minutes": N}`` (1 to a week), or ``{"next": true | KIND}`` to the next event
        (of a kind: trap, invasion, death, wound, fight), a week at most; the new view."""
        watch = world_of(request, world_id)
        data = await read_json(request)
        # One of the two, nothing else: a key the server would ignore is refused (as the
        # schema says), not taken for a request it did not make.
        alone = isinstance(data, dict) and len(data) == 1
        minutes = data.get("minutes") if alone else None
        wanted = data.get("next") if alone else None
        kind = "any" if wanted is True else wanted
        if isinstance(kind, str) and kind in NEXT_KINDS:
            minutes = None
        elif (
            not alone
            or wanted is not None
            or isinstance(minutes, bool)
            or not isinstance(minutes, int)
            or not (1 <= minutes <= MAX_ADVANCE)
        ):
            raise RefusalError(
                422,
                f'{{"minutes": 1 to {MAX_ADVANCE}}} or {{"next": true or one of '
                f"{', '.join(k for k in NEXT_KINDS if k != 'any')}}}",
            )
        result: dict[str, Any] = await anyio.to_thread.run_sync(
            watch.advance, minutes, kind if isinstance(kind, str) else "any"
        )
        return result

    @app.post(
        "/api/keep/worlds/{world_id}/commands",
        openapi_extra=with_token(json_body(COMMAND_SCHEMA)),
        responses=refusals(401, 404, 413, 415, 422),
    )
    async def world_command(request: Request, world_id: str) -> dict[str, Any]:
        """One keeper command, as a script item without ``when`` (``{"do": "build",
        "kind": "pressure_plate", "at": [x, y]}``); the new view (200). 422 with the
        parser's or the rules' reason for a refused one, and the world unchanged."""
        watch = world_of(request, world_id)
        data = await read_json(request)
        result: dict[str, Any] = await anyio.to_thread.run_sync(watch.command, data)
        return result

    @app.get(
        "/api/keep/worlds/{world_id}/adventurers/{adv_id}",
        openapi_extra=with_token(),
        responses=refusals(401, 404),
    )
    async def world_adventurer(request: Request, world_id: str, adv_id: str) -> dict[str, Any]:
        """What one adventurer knows and its bonuses (K-LEARN-07, as ``--inspect``)."""
        watch = world_of(request, world_id)
        return await anyio.to_thread.run_sync(watch.adventurer, adv_id)

    return app


def play_policies(game: CrawlGame) -> None:
    """Let the game's policies play on in a thread of their own, one decision at a time
    (:meth:`CrawlGame.run_policies`), so the request that handed a seat over returns at
    once and a seat taken back stops its policy at the next decision. Threads started
    for one game take turns (its ``driving`` lock): one that finds a person to act ends."""

    def run() -> None:
        with game.driving:
            game.run_policies(game.notify)

    threading.Thread(target=run, name=f"policies-{game.id}", daemon=True).start()


async def drain(websocket: WebSocket, changed: asyncio.Event) -> None:
    """Read (and ignore) what the page sends until it disconnects, then wake the sender."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        changed.set()


def client_of(request: Request) -> str:
    """Who asks, for sharing the stores fairly: the caller's address (behind a reverse
    proxy every caller is the proxy, and shares one quota)."""
    return request.client.host if request.client is not None else ""


async def read_json(request: Request) -> Any:
    """The body as JSON, or a 4xx (the size is bounded before this by :class:`BodyLimit`).

    Only ``application/json`` is read (415 otherwise): a form or a ``text/plain`` post from
    another site's page cannot create games or worlds or act in them. Numbers Python will
    not read (over 4,300 digits) and strings with a lone surrogate (which no UTF-8 answer
    could repeat) are refused with 422 like any other bad JSON."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise RefusalError(415, "send the body as JSON, with Content-Type: application/json")
    body = await request.body()
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # ValueError covers json.JSONDecodeError and the int digit limit.
        raise RefusalError(422, "the body is not valid JSON") from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise RefusalError(422, "the body has a string with a lone surrogate") from None
    except RecursionError:
        raise RefusalError(422, "the body is nested too deep") from None
    return data


class AsciiJSON(JSONResponse):
    """JSON answers with non-ASCII escaped: an answer may repeat what a client sent (a log's
    scenario, a key it did not know), and a lone surrogate in it must not turn a refusal
    into a 500."""

    def render(self, content: Any) -> bytes:
        return json.dumps(
            content, ensure_ascii=True, allow_nan=False, separators=(",", ":")
        ).encode()
