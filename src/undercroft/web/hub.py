"""The games a server holds, bounded in number so a flood of requests cannot fill memory."""

from __future__ import annotations

import secrets
import threading
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
    """Games by id, at most ``limit`` of them. When full, the oldest finished game makes
    room for a new one; with none finished the server refuses (503) rather than grow."""

    def __init__(self, what: str, limit: int) -> None:
        self.what = what
        self.limit = limit
        self._games: OrderedDict[str, G] = OrderedDict()
        self._lock = threading.Lock()

    def new_id(self) -> str:
        return secrets.token_urlsafe(12)

    def add(self, make: Callable[[str], G]) -> G:
        """Make a game under a fresh id (``make(id)``) and keep it."""
        with self._lock:
            if len(self._games) >= self.limit:
                done = next((k for k, g in self._games.items() if g.finished()), None)
                if done is None:
                    raise RefusalError(503, f"the server holds {self.limit} {self.what} in play")
                del self._games[done]
            game_id = self.new_id()
        game = make(game_id)
        with self._lock:
            self._games[game_id] = game
        return game

    def get(self, game_id: str) -> G:
        with self._lock:
            game = self._games.get(game_id)
        if game is None:
            raise RefusalError(404, f"no such {self.what[:-1]}")
        return game

    def __len__(self) -> int:
        return len(self._games)
