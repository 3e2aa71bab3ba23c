"""The games a server holds: bounded in number, expiring when idle, and shared fairly
between clients, so a flood of requests can neither fill memory nor lock others out."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar


class RefusalError(Exception):
    """A request the server turns down: an HTTP status and a message that tells the
    asker nothing it does not already know."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message
        super().__init__(message)


class Hosted(Protocol):
    def finished(self) -> bool: ...


G = TypeVar("G", bound=Hosted)


class Hub(Generic[G]):
    """Games by id, at most ``limit`` of them, so a flood of requests cannot fill memory
    nor lock everyone else out.

    - A game nobody has asked about for ``idle_seconds`` is dropped (``finished_seconds``
      once it is over): an abandoned game does not hold its place until a restart.
    - One client (``owner``, the caller's address) holds at most ``per_owner`` games; its
      next one replaces its own least recently used, never someone else's.
    - When the hub is full all the same, the game finished longest ago makes room; with
      none finished the server refuses (503) rather than grow.
    """

    def __init__(
        self,
        what: str,
        limit: int,
        *,
        per_owner: int | None = None,
        idle_seconds: float = 30 * 60,
        finished_seconds: float = 10 * 60,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.limit = limit
        self.per_owner = per_owner if per_owner is not None else max(1, limit // 8)
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self.clock = clock
        self._games: OrderedDict[str, G] = OrderedDict()  # least recently used first
        self._used: dict[str, float] = {}
        self._owner: dict[str, str] = {}
        self._lock = threading.Lock()

    def new_id(self) -> str:
        return secrets.token_urlsafe(12)

    def add(self, make: Callable[[str], G], owner: str = "") -> G:
        """Make a game under a fresh id (``make(id)``) for ``owner`` and keep it."""
        with self._lock:
            self._expire()
            mine = [k for k in self._games if self._owner[k] == owner]
            if len(mine) >= self.per_owner:
                self._drop(mine[0])  # the owner's own least recently used
            elif len(self._games) >= self.limit:
                done = next((k for k, g in self._games.items() if g.finished()), None)
                if done is None:
                    raise RefusalError(503, f"the server holds {self.limit} {self.what} in play")
                self._drop(done)
            game_id = self.new_id()
        game = make(game_id)
        with self._lock:
            self._games[game_id] = game
            self._used[game_id] = self.clock()
            self._owner[game_id] = owner
        return game

    def get(self, game_id: str) -> G:
        """The game, marked as used now; 404 if there is none (or it expired)."""
        with self._lock:
            self._expire()
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
                self._used[game_id] = self.clock()
        if game is None:
            raise RefusalError(404, f"no such {self.what[:-1]}")
        return game

    def _expire(self) -> None:
        now = self.clock()
        for game_id, game in list(self._games.items()):
            idle = now - self._used[game_id]
            if idle > (self.finished_seconds if game.finished() else self.idle_seconds):
                self._drop(game_id)

    def _drop(self, game_id: str) -> None:
        del self._games[game_id]
        del self._used[game_id]
        del self._owner[game_id]

    def __len__(self) -> int:
        return len(self._games)
