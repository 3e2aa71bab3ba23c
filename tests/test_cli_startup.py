"""Start-up: ``--version``, ``--help`` and ``odds 2d6`` load no engine (issue 32), and the
lazy command table (undercroft.clilazy) says what the commands it stands for say."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from undercroft.cli import RootGroup, RunGroup, app
from undercroft.clilazy import Lazy, load

ROOT = Path(__file__).resolve().parents[1]

# Run the CLI in a fresh interpreter and report which modules it imported.
PROBE = """
import json, sys
from undercroft.cli import main
sys.argv = ["undercroft", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as stop:
    code = stop.code
else:
    code = 0
sys.stderr.write("\\nMODULES " + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

# What a quick question must not pay for: the engines, their content and the heavy
# libraries of the analysis and the web server (typer itself loads pydantic).
HEAVY = (
    "undercroft.crawl",
    "undercroft.keep",
    "undercroft.agents",
    "undercroft.analysis.commands",
    "undercroft.web",
    "undercroft.demo",
    "tcod",
    "pyarrow",
    "duckdb",
    "scipy",
    "matplotlib",
    "fastapi",
)


def imported(*args: str) -> tuple[int, list[str]]:
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(list(args))],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    report = json.loads(done.stderr.rpartition("MODULES ")[2])
    return int(report["code"] or 0), list(report["modules"])


@pytest.mark.parametrize(
    "args", [["--version"], ["--help"], ["run", "--help"], ["odds", "2d6+3 vs 2d6+1"]]
)
def test_quick_commands_load_no_engine(args: list[str]) -> None:
    code, modules = imported(*args)
    assert code == 0
    loaded = [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == []


def test_a_command_loads_what_it_needs() -> None:
    code, modules = imported("odds", "rule", "C-DOOR-01", "--hero", "garrick")
    assert code == 0
    assert "undercroft.crawl.state" in modules
    assert "undercroft.keep" not in modules


def test_version_costs_under_a_third_of_a_second_of_cpu() -> None:
    before = os.times()
    done = subprocess.run(
        [sys.executable, "-m", "undercroft", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    after = os.times()
    assert done.returncode == 0, done.stderr
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    assert cpu < 0.3, f"undercroft --version took {cpu:.2f} s of CPU"


ENTRIES = [(group, entry) for group in (RootGroup, RunGroup) for entry in group.lazy]


@pytest.mark.parametrize(
    ("group", "entry"), ENTRIES, ids=[f"{g.__name__}:{e.name}" for g, e in ENTRIES]
)
def test_each_summary_opens_its_commands_own_help(group: type, entry: Lazy) -> None:
    command = load(entry)
    assert command.name == entry.name
    words = " ".join((command.help or "").split())
    assert words.startswith(entry.summary), (entry.name, words)


def test_the_help_lists_every_command_with_its_summary() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for entry in RootGroup.lazy:
        assert f" {entry.name} " in result.stdout
        assert entry.summary in " ".join(result.stdout.split())


def test_an_unknown_command_is_refused_with_a_suggestion() -> None:
    result = CliRunner().invoke(app, ["comapre"])
    assert result.exit_code == 2
    assert "compare" in result.output
    assert "Traceback" not in result.output
