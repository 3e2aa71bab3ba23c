"""The command line: exit codes, messages, no tracebacks for user mistakes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from undercroft import __version__
from undercroft.cli import app
from undercroft.clikit import PIPED_WIDTH, Output

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"undercroft {__version__}"


def test_check_accepts_the_shipped_content() -> None:
    result = runner.invoke(app, ["check", str(ROOT / "src" / "undercroft")])
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout


def test_check_reports_file_line_key_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'kind = "map"\nname = 3\ntiles = "#.#"\nlegend = { A = { name = "x", kind = "hall" } }\n'
    )
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:2: name: Input should be a valid string" in result.stderr
    assert f"{bad}:4: legend.A" in result.stderr
    assert "Traceback" not in result.output


def test_check_knows_the_keep_in_a_fresh_process(tmp_path: Path) -> None:
    """In a process of its own (no test has imported the keep), `check` knows the keep's
    content kinds and sets a keep scenario up as `run keep` would: an option out of its
    range is named by file, line and key."""
    keep = ROOT / "src" / "undercroft" / "keep" / "content"
    command = [sys.executable, "-m", "undercroft", "check"]
    done = subprocess.run([*command, str(keep)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "valid" in done.stdout
    text = (keep / "late.toml").read_text(encoding="utf-8")
    assert "invasion_ramp = { start = 0.02," in text
    bad = tmp_path / "late.toml"
    bad.write_text(
        text.replace("invasion_ramp = { start = 0.02,", "invasion_ramp = { start = 5.0,")
    )
    done = subprocess.run([*command, str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    line = text.splitlines().index("[options]") + 1  # run keep names the [options] table
    assert f"{bad}:{line}: options.invasion_ramp.start" in done.stderr
    assert "Traceback" not in done.stderr


def test_check_a_missing_path_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nothing.toml")])
    assert result.exit_code == 2
    assert "no such file or folder" in result.stderr


def test_unknown_option_exits_2() -> None:
    result = runner.invoke(app, ["check", "--frobnicate"])
    assert result.exit_code == 2


@pytest.mark.rule("C-DIST-01", "C-LOS-01", "K-RNG-02")
def test_rules_coverage_reports_the_core_rules_as_covered() -> None:
    result = runner.invoke(app, ["rules", "--coverage", "--root", str(ROOT)], terminal_width=400)
    assert result.exit_code == 0, result.output
    uncited_line = next(line for line in result.stdout.splitlines() if line.startswith("Uncited"))
    for rid in ("C-DIST-01", "C-LOS-01", "K-RNG-02"):
        assert rid not in uncited_line
        row = next(line for line in result.stdout.splitlines() if f" {rid} " in line)
        assert "src/undercroft/core/" in row and "tests/" in row
    assert "K-KO-01" not in uncited_line  # keep combat is in (issue 11)
    assert "K-KNOW-01" not in uncited_line  # adventurers' trap knowledge is in
    assert "keep: 108/108 cited by code and tests" in result.stdout


def test_rules_shows_one_rule_and_refuses_unknown_ids() -> None:
    result = runner.invoke(app, ["rules", "C-DOOR-01", "--root", str(ROOT)])
    assert result.exit_code == 0
    assert "C-DOOR-01" in result.stdout and "docs/rules/crawl.md" in result.stdout
    result = runner.invoke(app, ["rules", "C-NOPE-01", "--root", str(ROOT)])
    assert result.exit_code == 2
    assert "no rule" in result.stderr


def test_rules_without_a_catalogue_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rules", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert "holds no rule catalogue" in result.stderr
    result = runner.invoke(app, ["rules", "--ruleset", "chess"])
    assert result.exit_code == 2


def test_demo_runs_and_explains_itself() -> None:
    result = runner.invoke(app, ["demo"], terminal_width=100)
    assert result.exit_code == 0, result.output
    for text in ("What the hero sees", "Walking there", "a can shoot b: False", "287/432"):
        assert text in result.stdout


def test_output_is_wide_when_piped_and_as_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Accounts and tables piped to a file keep whole lines (not rich's 80 columns);
    ``COLUMNS`` and an explicit width still decide."""
    monkeypatch.delenv("COLUMNS", raising=False)
    assert Output(file=io.StringIO()).width == PIPED_WIDTH
    assert Output(file=io.StringIO(), width=60).width == 60
    monkeypatch.setenv("COLUMNS", "100")
    assert Output(file=io.StringIO()).width == 100


def test_keep_invasion_table_keeps_whole_lines_when_piped() -> None:
    """The per-invasion table of ``run keep`` is not cut at 80 columns in a pipe."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "undercroft.cli",
            "run",
            "keep",
            "--scenario",
            "tutorial",
            "--days",
            "3",
            "--seed",
            "1",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    header = next(line for line in done.stdout.splitlines() if "outcome" in line)
    assert "caught" in header and len(header) > 80


@pytest.mark.parametrize(
    "args",
    [
        ["batch", "crawl", "greyhollow-cellars", "--runs", "1", "--quiet"],
        ["results", "list"],
        ["results", "sql", "SELECT 1"],
        ["campaign", "new", "c1", "--party", "brenna,garrick,durn"],
    ],
)
def test_a_data_folder_that_is_a_file_is_exit_2(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """XDG_DATA_HOME (or UNDERCROFT_DATA) naming a file: a message, not NotADirectoryError."""
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    monkeypatch.delenv("UNDERCROFT_DATA", raising=False)
    monkeypatch.delenv("UNDERCROFT_CATALOGUE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(afile))
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "afile" in result.output and "Traceback" not in result.output
    assert afile.read_text() == "mine\n" and sorted(tmp_path.iterdir()) == [afile]


HELP_OF_EVERY_COMMAND = """
import sys
import typer.main
from undercroft.cli import app

def walk(command, words):
    yield words
    if hasattr(command, "list_commands"):  # a group; its commands load when asked for
        ctx = command.make_context("undercroft", [], resilient_parsing=True)
        for name in sorted(command.list_commands(ctx)):
            yield from walk(command.get_command(ctx, name), [*words, name])

for words in walk(typer.main.get_command(app), []):
    print("=== " + " ".join(words), flush=True)
    try:
        app([*words, "--help"], prog_name="undercroft")
    except SystemExit:
        pass
    sys.stdout.flush()
"""


def _helps(width: str | None) -> dict[str, str]:
    """Every command's and subcommand's ``--help`` as printed to a pipe (one process)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH")}
    if width is not None:
        env["TERMINAL_WIDTH"] = width
    done = subprocess.run([sys.executable, "-c", HELP_OF_EVERY_COMMAND], capture_output=True,
                          text=True, env=env, timeout=120, check=True)  # fmt: skip
    helps: dict[str, str] = {}
    for part in done.stdout.split("=== ")[1:]:
        name, _, text = part.partition("\n")
        helps[name] = text
    return helps


def test_help_on_a_pipe_cuts_no_number_or_word_across_lines() -> None:
    """``undercroft CMD --help | cat`` was laid out in rich's 80 columns, where the option
    table's first column cut ``[0<=x<=18446744073709551615]`` in two. Every word of every
    command's help, as laid out 1,000 columns wide, appears whole in the piped help."""
    piped, wide = _helps(None), _helps("1000")
    assert piped.keys() == wide.keys() and {"", "batch", "results sql", "run keep"} <= set(piped)
    cut = {}
    for name, text in wide.items():
        words = {w.strip("│╭╮╰╯─") for w in text.split()}
        missing = sorted(w for w in words if w and w not in piped[name])
        if missing:
            cut[name or "undercroft"] = missing
    assert not cut, f"words cut across lines in piped --help: {cut}"
