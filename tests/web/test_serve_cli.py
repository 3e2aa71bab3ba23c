"""``undercroft serve``: loopback by default, a warning for anything else, a clear exit 2."""

from __future__ import annotations

import socket

from server_kit import serve_process
from typer.testing import CliRunner

from undercroft.cli import app
from undercroft.web.cli import is_loopback

runner = CliRunner()


def test_only_loopback_addresses_count_as_loopback() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "127.8.0.1"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "192.168.1.4", "::", "example.org"))


def test_a_port_in_use_or_out_of_range_exits_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and "cannot listen" in result.output
    assert runner.invoke(app, ["serve", "--port", "0"]).exit_code == 2
    result = runner.invoke(app, ["serve", "--host", "no.such.host.invalid"])
    assert result.exit_code == 2 and "--host" in result.output


def test_ctrl_c_stops_the_server_with_exit_130() -> None:
    """As every other command: Ctrl-C is exit 130 and says so (uvicorn.run exits 0)."""
    with serve_process() as (_, ended):
        pass
    stderr = ended["stderr"]
    assert ended["returncode"] == "130", stderr
    assert "interrupted: the server stopped" in stderr and "Traceback" not in stderr
