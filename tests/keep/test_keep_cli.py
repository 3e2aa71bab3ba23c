"""``undercroft run keep``: the day-by-day account, the summary, the log, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from keep_kit import keep_time
from typer.testing import CliRunner

from undercroft.cli import app
from undercroft.core.events import read_log

runner = CliRunner()


@pytest.mark.rule("K-DECAY-04")
def test_run_keep_prints_each_day_and_the_workload(tmp_path: Path) -> None:
    log = tmp_path / "trapworks.jsonl"
    result = runner.invoke(
        app,
        ["run", "keep", "--scenario", "trapworks", "--days", "4", "--seed", "2", "--log", str(log)],
        terminal_width=120,
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["day", "rearms"])
    days = [line.split() for line in lines[header + 1 :] if line[:4].strip().isdigit()][:4]
    assert [d[0] for d in days] == ["1", "2", "3", "4"]
    written = read_log(log)
    assert written.summary is not None
    summary = written.summary.results
    assert sum(int(d[1]) for d in days) == summary["rearms"]
    assert "rearms per day" in result.stdout and "Traps-job minion-hours" in result.stdout
    assert f"{summary['rearms_per_day']}" in result.stdout
    assert written.header.scenario == "trapworks" and written.header.seed == 2


def test_quiet_prints_only_the_summary() -> None:
    result = runner.invoke(app, ["run", "keep", "--days", "1", "--quiet"], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert "rearms per day" in result.stdout
    assert "day rearms" not in result.stdout


def test_the_same_seed_gives_the_same_log(tmp_path: Path) -> None:
    texts = []
    for name in ("a.jsonl", "b.jsonl"):
        path = tmp_path / name
        args = ["run", "keep", "--days", "3", "--seed", "9", "--log", str(path), "--quiet"]
        assert runner.invoke(app, args).exit_code == 0
        texts.append(path.read_bytes())
    assert texts[0] == texts[1]


def test_save_and_resume_from_the_command_line(tmp_path: Path) -> None:
    save = tmp_path / "w.json"
    first = runner.invoke(app, ["run", "keep", "--days", "2", "--save", str(save), "--quiet"])
    assert first.exit_code == 0 and save.exists()
    log = tmp_path / "rest.jsonl"
    args = ["run", "keep", "--resume", str(save), "--days", "2", "--log", str(log), "--quiet"]
    second = runner.invoke(app, args)
    assert second.exit_code == 0, second.output
    rest = read_log(log)
    assert rest.summary is not None and rest.summary.results["days"] == 4
    assert min(keep_time(e).day for e in rest.entries) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "w.json", "--invasions", "on"], "--invasions cannot change a saved"),
        (["--invasions", "maybe"], "--invasions must be 'on' or 'off'"),
        (["--scenario", "no-such-place"], "no such scenario file"),
        (["--resume", "missing.json"], "--resume missing.json: no such file"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["run", "keep", *args], terminal_width=200)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_bad_scenario_names_file_line_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'kind = "keep-scenario"\nname = "bad"\nportals = ["p"]\nsanctum = "s"\n'
        'tiles = """\n##p##\n#...#\n#.s.#\n#####\n"""\n[[minion]]\nbreed = "kobold"\n'
        'at = "q"\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["run", "keep", "--scenario", str(bad)], terminal_width=200)
    assert result.exit_code == 2
    assert f"{bad}:13: minion[0].at: 'q' is not a map marker" in result.stderr
    # `check` sets the world up as `run keep` does, so it names the same mistake.
    check = runner.invoke(app, ["check", str(bad)], terminal_width=200)
    assert check.exit_code == 2
    assert f"{bad}:13: minion[0].at: 'q' is not a map marker" in check.stderr


@pytest.mark.rule("K-TIME-01", "K-ARR-05", "K-LEARN-07")
def test_invasions_are_on_by_default_with_an_account_a_summary_and_a_view(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    args = ["run", "keep", "--days", "5", "--seed", "3", "--log", str(log)]
    result = runner.invoke(app, [*args, "--inspect", "adv:2-1"], terminal_width=160)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "invasions on" in out.splitlines()[0]
    written = read_log(log)
    arrived = [e for e in written.entries if e.event.type == "invasion.arrived"]
    first = arrived[0].event.fields
    assert first["number"] == 1 and keep_time(arrived[0]).day == 2
    assert f"invasion 1 ({first['kind']}) arrived from {first['from']}" in out
    assert "sighted by" in out and "indicator:" in out
    assert "Invasions" in out and " out" in out  # the summary per invasion
    summary = written.summary.results if written.summary else {}
    assert summary["invasions"] == len(arrived) and "invasions" in out
    assert "adv:2-1" in out and "to discover:" in out and "Block:" in out


def test_invasions_off_prints_no_account() -> None:
    result = runner.invoke(
        app, ["run", "keep", "--days", "3", "--invasions", "off"], terminal_width=160
    )
    assert result.exit_code == 0, result.output
    assert "invasions off" in result.stdout and "invasion 1" not in result.stdout
    assert "Invasions" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--inspect", "hero:1"], "an adventurer is named adv:N-M"),
        (["--days", "1", "--inspect", "adv:9-9"], "no adventurer with that id came"),
    ],
)
def test_bad_inspect_ids_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["run", "keep", *args], terminal_width=200)
    assert result.exit_code == 2 and message in result.stderr
