"""``undercroft play crawl``: numbered choices from standard input, to the end; saves."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from combat_kit import advance, waiting_for
from crawl_kit import board, ruleset, start
from rich.console import Console
from typer.testing import CliRunner

from undercroft.cli import app
from undercroft.core.grid import AreaInfo
from undercroft.crawl import effects as fx
from undercroft.crawl.app import terminal
from undercroft.crawl.app.terminal import choose, label
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.ruleset import RoomText
from undercroft.render.decision import context_line

HALL = board(
    """
    #####
    #ab.#
    #####
    """,
    """
    #####
    #HHH#
    #####
    """,
    {"H": AreaInfo("Hall")},
)

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


def test_a_choice_is_shown_by_its_options_labels_and_what_they_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A person at the terminal is told what a decision is about (its context) and picks
    a text's option by its label, not by a bare index."""
    spring = RoomText(
        "Hall",
        "A spring.",
        (
            fx.Choice(
                options=(
                    fx.Option(
                        label="Drink",
                        effects=(fx.TraitTest(trait="Iron-Willed", target=4),),
                    ),
                    fx.Option(label="Walk on", effects=()),
                )
            ),
        ),
    )
    state, _ = start(ruleset(HALL, starts=("a", "b"), room_texts=[spring]), ["ana", "bram"])
    advance(state, "explore_choice")
    while waiting_for(state) == "explore_choice":
        state.apply(state.legal_actions()[0])  # everyone explores
    assert waiting_for(state) == "choice"
    obs = observe(state, Seat.HEROES)
    assert [label(a, obs) for a in obs.legal] == ["Drink (Iron-Willed, 4+)", "Walk on"]
    assert context_line(obs.context) == "The text offers Ana a choice (Hall)."
    printed = io.StringIO()
    monkeypatch.setattr(terminal, "out", Console(file=printed, width=200))
    assert choose(obs, Seat.HEROES, io.StringIO("2\n")) == obs.legal[1]
    assert "  The text offers Ana a choice (Hall).\n" in printed.getvalue()
    assert "2. Walk on" in printed.getvalue()


def test_a_decisions_context_in_words() -> None:
    fight = {
        "kind": "fight", "hero": "hero:durn", "hero_score": 4, "hero_modifiers": {"light": -1},
        "hero_health": 8, "monster": "monster:cave-wolf-1", "monster_score": 2,
        "monster_modifiers": {}, "monster_health": 3, "declares_first": "dm", "declared": 1,
    }  # fmt: skip
    assert context_line(fight) == (
        "Fight: Durn, score 4 (light -1), Health 8, against Cave Wolf 1, score 2, Health 3; "
        "the DM spent 1 Stamina."
    )
    mental = {
        "kind": "mental", "hero": "hero:mirela", "hero_magic": 2, "opponent": "area:Scriptorium",
        "power": 1,
    }  # fmt: skip
    assert (
        context_line(mental)
        == "Mental Combat: Mirela (Magic 2) against Scriptorium, which adds +1."
    )
    asks = {
        "kind": "text_test", "tests": [{"trait": "Learned", "target": 0, "who": "self"}],
        "contests": [{"kind": "mental", "power": 1}],
    }  # fmt: skip
    assert context_line(asks) == (
        "Who takes up the text? It asks: Learned; a Mental Combat, the text +1."
    )
    assert context_line({"kind": "take_item", "deck": "potion", "card": None}) == (
        "Found: a potion; which explorer takes it?"
    )
    assert context_line(None) is None and context_line({"kind": "explore"}) is None
