"""`undercroft run crawl`, `--view`, `replay`, `list`: what a user runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from undercroft.cli import app
from undercroft.core.events import read_log
from undercroft.crawl.content import default_pack

runner = CliRunner()
FIRST = default_pack().campaign_order()[0]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), terminal_width=200)
    return result.exit_code, result.stdout, result.stderr


def test_run_crawl_tells_the_game_and_sums_it_up(tmp_path: Path) -> None:
    code, out, _ = run("run", "crawl", "--seed", "3", "--log", str(tmp_path / "g.jsonl"))
    assert code == 0, out
    assert "Turn 1" in out and "Outcome:" in out and "Light left:" in out
    log = read_log(tmp_path / "g.jsonl")
    assert log.header.ruleset == "crawl" and log.header.seed == 3
    assert log.summary is not None and log.summary.results["outcome"] in ("escaped", "perished")
    # The same seed gives the same log, byte for byte.
    run("run", "crawl", "--seed", "3", "--log", str(tmp_path / "h.jsonl"), "--quiet")
    assert (tmp_path / "g.jsonl").read_bytes() == (tmp_path / "h.jsonl").read_bytes()


def test_explain_cites_the_rules_behind_each_line() -> None:
    code, out, _ = run("run", "crawl", "--seed", "3", "--explain")
    assert code == 0
    assert "[C-TURN-01]" in out or "[C-DOOR-01" in out
    assert any("[C-FIGHT-04" in line for line in out.splitlines() if "fights" in line)


@pytest.mark.rule("C-TRAP-01", "C-IDENT-01")
def test_the_heroes_view_hides_what_heroes_may_not_know(tmp_path: Path) -> None:
    full, heroes = tmp_path / "dm.jsonl", tmp_path / "heroes.jsonl"
    for seed in (1, 2, 3):
        run("run", "crawl", "--seed", str(seed), "--log", str(full), "--quiet")
        run(
            "run", "crawl", "--seed", str(seed), "--log", str(heroes), "--view", "heroes", "--quiet"
        )
        dm_log, hero_log = read_log(full), read_log(heroes)
        detect_rolls = [
            e for e in dm_log.entries if e.event.type == "roll" and "C-TRAP-01" in e.event.rules
        ]
        assert detect_rolls, "the DM's log has the Detect Traps numbers"
        for entry in hero_log.entries:
            fields = entry.event.fields
            assert not (entry.event.type == "roll" and "C-TRAP-01" in entry.event.rules)
            assert "hidden" not in fields
            if entry.event.type in ("item.found", "item.used"):
                identified = fields.get("identified", not fields.get("blind", False))
                assert identified or "card" not in fields
            if entry.event.type == "roll" and "C-IDENT-01" in entry.event.rules:
                assert ("card" in fields) == (fields["outcome"] == "identified")
        assert [e.seq for e in hero_log.entries] == list(range(len(hero_log.entries)))


def test_replay_tells_a_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    run("run", "crawl", "--seed", "5", "--log", str(path), "--quiet")
    code, out, _ = run("replay", str(path))
    assert code == 0
    assert "Outcome:" in out and "Turn 1" in out


def test_bad_arguments_exit_2_with_a_message(tmp_path: Path) -> None:
    assert run("run", "crawl", "--adventure", "nowhere")[0] == 2
    assert run("run", "crawl", "--party", "nobody")[0] == 2
    assert run("run", "crawl", "--policy", "genius")[0] == 2
    assert run("run", "crawl", "--view", "heroes")[0] == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "ruleset": "crawl"}\n{oops\n')
    code, _, err = run("replay", str(bad))
    assert code == 2 and f"{bad}:2:" in err
    assert "Traceback" not in err


def test_an_adventure_file_path_runs_with_its_pack() -> None:
    path = Path(default_pack().folder) / "adventures"
    first = sorted(path.glob("*.toml"))[0]
    code, out, _ = run("run", "crawl", "--adventure", str(first), "--quiet")
    assert code == 0, out
    assert "Outcome:" in out


def test_list_shows_what_the_packs_hold() -> None:
    code, out, _ = run("list", "adventures", "--plain")
    assert code == 0 and out.split() == default_pack().campaign_order()
    code, out, _ = run("list", "heroes", "--plain")
    assert out.split() == list(default_pack().heroes)
    listed = run("list", "scenarios", "--plain")[1].split()
    assert {"tutorial", "mid", "late", "trapworks"} <= set(listed) and listed == sorted(listed)
    assert run("list", "dragons")[0] == 2


def test_json_lines_view_is_valid_json(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    run("run", "crawl", "--log", str(path), "--view", "heroes", "--quiet", "--adventure", FIRST)
    for line in path.read_text(encoding="utf-8").splitlines():
        json.loads(line)


@pytest.mark.rule("C-SETUP-03")
def test_a_party_is_three_to_five_different_heroes() -> None:
    for party in ("brenna", "brenna,garrick", "brenna,brenna,durn", "a,b,c,d,e,f"):
        code, out, err = run("run", "crawl", "--party", party, "--quiet")
        assert code == 2 and out == "" and "--party:" in err, party
    for party in ("brenna,garrick,durn", "brenna,garrick,durn,sable,tamsin"):
        code, out, _ = run("run", "crawl", "--party", party, "--quiet")
        assert code == 0, out
        escaped_or_dead = out.split("Escaped:")[1]
        for hero in party.split(","):
            assert hero.title() in escaped_or_dead  # every hero played, none dropped


def test_a_policy_of_ones_own_is_loaded_as_module_colon_factory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parent)  # the module is found in the current folder
    mine, builtin = tmp_path / "mine.jsonl", tmp_path / "random.jsonl"
    plugin = ["--policy", "plugin_policy:make", "--dm", "plugin_policy:make"]
    code, out, err = run("run", "crawl", *plugin, "--seed", "4", "--log", str(mine), "--quiet")
    assert code == 0, out + err
    import plugin_policy

    from undercroft.crawl.engine import Seat

    assert plugin_policy.CALLS[Seat.HEROES] > 0 and plugin_policy.CALLS[Seat.DM] > 0
    builtin_args = ["--policy", "random", "--dm", "random", "--seed", "4", "--quiet"]
    assert run("run", "crawl", *builtin_args, "--log", str(builtin))[0] == 0
    # The factory got the seat's own seeded sampler: the very game the built-in plays
    # (the header names the players, so it differs by them alone).
    mine_lines = mine.read_text(encoding="utf-8").splitlines()
    builtin_lines = builtin.read_text(encoding="utf-8").splitlines()
    assert json.loads(mine_lines[0])["players"] == {
        "heroes": "plugin_policy:make",
        "dm": "plugin_policy:make",
    }
    assert json.loads(builtin_lines[0])["players"] == {"heroes": "random", "dm": "random"}
    assert mine_lines[1:] == builtin_lines[1:]
    db = str(tmp_path / "c.sqlite")
    assert run("campaign", "new", "c", "--party", "brenna,garrick,durn", "--db", db)[0] == 0
    calls = sum(plugin_policy.CALLS.values())
    code, out, err = run("campaign", "play", "c", *plugin, "--db", db, "--quiet")
    assert code == 0, out + err
    assert sum(plugin_policy.CALLS.values()) > calls


def test_replaying_an_unfinished_log_warns(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    assert run("run", "crawl", "--seed", "2", "--log", str(path), "--quiet")[0] == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-10]) + "\n", encoding="utf-8")  # cut short
    code, out, err = run("replay", str(path))
    assert code == 0 and "Turn 1" in out
    assert "warning:" in err and "no summary line" in err and f"after line {len(lines) - 10}" in err
    full = tmp_path / "full.jsonl"
    run("run", "crawl", "--seed", "2", "--log", str(full), "--quiet")
    assert run("replay", str(full))[2] == ""  # a finished log: no warning
