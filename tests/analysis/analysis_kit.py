"""Helpers of the analysis tests: the CLI in-process, and the shared batch's shape."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from undercroft.cli import app

RUNS = 16
SEED = 7
ADVENTURE = "greyhollow-cellars"
KEEP_SCENARIO = "mid"
KEEP_RUNS = 6
KEEP_DAYS = 4


def invoke(*args: str) -> tuple[int, str, str]:
    """Run ``undercroft ARGS`` in-process; (exit code, stdout, stderr)."""
    result = CliRunner().invoke(app, list(args), terminal_width=200)
    return result.exit_code, result.stdout, result.stderr


@dataclass(frozen=True)
class Played:
    """The same batch played with 2 workers and with 1, registered in one catalogue."""

    two: Path
    one: Path
    catalogue: Path
    printed: str
    """What the 2-worker batch printed."""
