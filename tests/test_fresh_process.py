"""Each command, run for real in an interpreter of its own: a command that works in the
suite only because another test imported what it needs (a content kind, a policy, an
engine's registry) fails here. `check` lost the keep's kinds that way once, unseen
because the suite's check test ran after tests that had imported the keep."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

RUN = (
    "import sys; from undercroft.cli import main; sys.argv = ['undercroft', *sys.argv[1:]]; main()"
)


def undercroft(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "160"}
    return subprocess.run(
        [sys.executable, "-c", RUN, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("list", "adventures", "--plain"), "greyhollow-cellars"),
        (("list", "scenarios", "--plain"), "tutorial"),
        (("list", "spells", "--plain"), "ember-dart"),
        (("rules", "C-JUMP-01"), "C-JUMP-01"),
        (("odds", "fight", "--hero", "garrick", "--monster", "orc"), "garrick against orc"),
        (("odds", "rule", "C-DOOR-01", "--hero", "garrick"), "C-DOOR-01"),
        (("odds", "2d6+3 vs 2d6+1"), "%"),
        (
            ("run", "keep", "--scenario", "tutorial", "--days", "3", "--seed", "1", "--quiet"),
            "Summary",
        ),
        (
            (
                "run",
                "crawl",
                "--adventure",
                "bone-priest",
                "--seed",
                "2",
                "--quiet",
                "--dm",
                "master[harry=1]",
                "--policy",
                "careful[approach=1]",
            ),
            "Outcome:",
        ),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else None,
)
def test_a_command_works_in_a_fresh_process(
    tmp_path: Path, args: tuple[str, ...], expected: str
) -> None:
    done = undercroft(tmp_path, *args)
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout
    assert "Traceback" not in done.stderr


def test_a_saved_crawl_log_replays_in_a_fresh_process(tmp_path: Path) -> None:
    ran = undercroft(
        tmp_path,
        "run",
        "crawl",
        "--adventure",
        "greyhollow-cellars",
        "--seed",
        "3",
        "--log",
        "game.jsonl",
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    replayed = undercroft(tmp_path, "replay", "game.jsonl")
    assert replayed.returncode == 0, replayed.stderr[-2000:]
    # The replay tells the same ending the run told.
    assert ran.stdout.strip().splitlines()[-1] == replayed.stdout.strip().splitlines()[-1]
