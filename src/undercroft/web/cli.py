"""``undercroft serve``: the web app on loopback unless told otherwise."""

from __future__ import annotations

import ipaddress
import socket
from typing import Annotated

import typer
from rich.console import Console

from undercroft.clikit import fail, interrupted, warn

out = Console(highlight=False, emoji=False)

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WS_MAX_SIZE = 64 * 1024
"""The largest message a page may send on a socket (it needs to send none)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_free(host: str, port: int) -> None:
    """Exit 2 now, in plain words, if the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        fail(f"--host {host}: not an address of this machine ({exc.strerror}).")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            fail(
                f"cannot listen on {host}:{port}: {exc.strerror or exc} "
                "(another server there? choose another --port)."
            )


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; anything but loopback is warned about.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8765,
) -> None:
    """Start the web app: the crawl lobby, play in the browser, replays (docs/web.md)."""
    # The server and the app (uvicorn, FastAPI) load only when serving: every other
    # command starts without them.
    import uvicorn

    from undercroft.web.app import create_app  # start-up time

    loopback = is_loopback(host)
    if not loopback:
        warn(
            f"--host {host} is not a loopback address: anyone who can reach this machine "
            "can open the lobby and start games (seats still need their secret tokens)."
        )
    check_free(host, port)
    shown = f"[{host}]" if ":" in host else host
    allowed = [*LOOPBACK_NAMES, host] if loopback else None
    app = create_app(allowed_hosts=allowed)
    out.print(f"undercroft is serving on http://{shown}:{port}/  (Ctrl-C stops it)")
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, log_level="warning")
    try:
        # uvicorn shuts down gracefully on Ctrl-C, then raises the signal again:
        # KeyboardInterrupt here (uvicorn.run would swallow it and exit 0).
        uvicorn.Server(config).run()
    except KeyboardInterrupt:
        interrupted("the server stopped")
