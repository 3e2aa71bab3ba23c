"""``undercroft play crawl``: numbered choices from standard input, to the end; saves."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from undercroft.cli import app

runner = CliRunner()
UNDERCROFT = Path(sys.executable).with_name("undercroft")


def test_yes_1_plays_the_adventure_to_the_end_and_prints_the_summary() -> None:
    assert shutil.which("yes")
    done = subprocess.run(
        f"yes 1 | {UNDERCROFT} play crawl --seed 3",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-5].startswith("Outcome: ")
    assert lines[-1].startswith("Adventure ")
    assert "1. " in done.stdout and "Turn 1, movement" in done.stdout


def test_a_saved_game_resumed_ends_as_the_game_played_at_once(tmp_path: Path) -> None:
    choices = ["2", "1", "3", "1", "1", "2", "1", "1"] * 4
    once = runner.invoke(app, ["play", "crawl", "--seed", "4", "--save", str(tmp_path / "a.json")],
                         input="\n".join(choices) + "\nq\n")  # fmt: skip
    save = tmp_path / "b.json"
    first = runner.invoke(app, ["play", "crawl", "--seed", "4", "--save", str(save)],
                          input="\n".join(choices[:7]) + "\nq\n")  # fmt: skip
    assert first.exit_code == 0 and "Saved to" in first.output
    assert len(json.loads(save.read_text())["actions"]) == 7
    second = runner.invoke(app, ["play", "crawl", "--resume", str(save), "--save", str(save)],
                           input="\n".join(choices[7:]) + "\nq\n")  # fmt: skip
    a, b = json.loads((tmp_path / "a.json").read_text()), json.loads(save.read_text())
    assert a["actions"] == b["actions"] and a["state"] == b["state"]
    assert len(a["actions"]) == len(choices)
    assert once.exit_code == second.exit_code == 0


def test_bad_input_exits_2_naming_what(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "undercroft-crawl-table", "adventure": "bone-priest", "players": 3}')
    result = runner.invoke(app, ["play", "crawl", "--resume", str(bad)])
    assert result.exit_code == 2 and "damaged" in result.output
    save = tmp_path / "s.json"
    runner.invoke(app, ["play", "crawl", "--seed", "4", "--save", str(save)], input="1\nq\n")
    data = json.loads(save.read_text())
    data["actions"][0]["points"] = 9
    save.write_text(json.dumps(data))
    result = runner.invoke(app, ["play", "crawl", "--resume", str(save)])
    assert result.exit_code == 2 and "action 1 of the save" in result.output
    result = runner.invoke(app, ["play", "crawl", "--seat", "everyone"])
    assert result.exit_code == 2 and "--seat" in result.output
    result = runner.invoke(app, ["play", "crawl", "--seed", "4"], input="7000\nx\n")
    assert result.exit_code == 2 and "input ended" in result.output
    assert "not a number from 1 to" in result.output
