"""A real uvicorn server on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
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


@contextmanager
def serve_process() -> Iterator[tuple[int, dict[str, str]]]:
    """``undercroft serve`` in a process of its own on a free loopback port: ``(port,
    ended)``, where ``ended`` holds the process's ``returncode`` and ``stderr`` once the
    block ends with Ctrl-C (SIGINT) sent to it."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "undercroft.cli", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ended: dict[str, str] = {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield port, ended
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
        ended.update(returncode=str(process.returncode), stderr=stderr)
