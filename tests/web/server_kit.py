"""A real uvicorn server on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from undercroft.web.app import create_app
from undercroft.web.cli import WS_MAX_SIZE


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(**app_options: Any) -> Iterator[tuple[str, Any]]:
    """``(base_url, app)`` of a server that stops when the block ends."""
    app = create_app(**app_options)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="error", ws_max_size=WS_MAX_SIZE
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(10)
