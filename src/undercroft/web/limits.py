"""Bounds on what a request may ask of the server: body sizes and the games held."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


@dataclass(frozen=True)
class Limits:
    """``body``: the largest request body (bytes); ``log_body``: the largest log sent to
    be replayed; ``games`` and ``worlds``: how many are held at once (one client at most
    an eighth of them); ``idle_seconds``: a game or world nobody asked about for this long
    is dropped, ``finished_seconds`` once its adventure is over (docs/web.md)."""

    body: int = 64 * 1024
    log_body: int = 8 * 1024 * 1024
    games: int = 256
    worlds: int = 16
    idle_seconds: float = 30 * 60
    finished_seconds: float = 10 * 60

    def body_for(self, path: str) -> int:
        replay = path == "/api/replays" or path.startswith("/api/replays/")
        return self.log_body if replay else self.body


class BodyLimit:
    """ASGI middleware: a body over the limit is answered 413 before the app sees any of
    it, whether it says its length or streams (the body is read here, then handed on)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.body_for(scope.get("path", ""))
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await too_large(send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await too_large(send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                message: Message = await receive()
                return message
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def too_large(send: Send, limit: int) -> None:
    payload: dict[str, Any] = {"error": f"the request body is over {limit} bytes"}
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
