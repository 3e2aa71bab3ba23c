"""Campaigns: what is kept between adventures, deaths, revivals, losing, restarts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import pytest

from undercroft.crawl import State, new_game
from undercroft.crawl.app import campaign
from undercroft.crawl.app.campaign import (
    DEAD,
    FALLEN,
    PARTY,
    CampaignError,
    _record,
    connect,
    new,
    play,
    status,
)
from undercroft.crawl.content import default_pack

PARTY4 = ["brenna", "garrick", "corvin", "ysolde"]


def ended(
    adventure: str,
    party: list[str],
    *,
    left: dict[str, list[str]],
    dead: list[str],
    rescued: Sequence[str] = (),
    outcome: str = "escaped",
    goals: tuple[str, ...] = (),
) -> State:
    """A finished adventure: heroes in ``left`` got out carrying those cards, ``goals``
    met."""
    state = new_game(default_pack().ruleset(adventure), party)
    for hero in state.heroes.values():
        if hero.profile in left:
            hero.left = True
            hero.items = [state.new_item(card, identified=True) for card in left[hero.profile]]
        elif hero.profile in dead:
            hero.dead = True
    state.rescued = [f"hero:{h}" for h in rescued]
    state.outcome = outcome
    state.goals_met = set(goals)
    return state


def record(db: Path, name: str, adventure: str, state: State) -> None:
    current = status(db, name)
    party = [h.hero for h in current.heroes if h.status == PARTY]
    index = len(current.played)
    with connect(db) as conn:
        _record(conn, name, default_pack(), current, adventure, index, 1, party, state)
        conn.commit()


def roles(db: Path, name: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {h.hero: (h.status, h.items) for h in status(db, name).heroes}


@pytest.mark.rule("C-SETUP-03")
def test_a_campaign_needs_three_to_five_different_heroes(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    with pytest.raises(CampaignError, match="3 to 5 players"):
        new(db, "x", ["brenna", "garrick"])
    with pytest.raises(CampaignError, match="different hero"):
        new(db, "x", ["brenna", "brenna", "garrick"])
    created = new(db, "x", PARTY4)
    assert [h.hero for h in created.heroes if h.status == PARTY] == PARTY4
    assert created.next_adventure == default_pack().campaign_order()[0]
    with pytest.raises(CampaignError, match="already exists"):
        new(db, "x", PARTY4)


@pytest.mark.rule("C-SETUP-04", "C-CAMP-01")
def test_items_carried_out_are_kept_and_a_dead_heros_player_picks_a_new_hero(
    tmp_path: Path,
) -> None:
    db = tmp_path / "c.sqlite"
    new(db, "x", PARTY4)
    first = default_pack().campaign_order()[0]
    state = ended(
        first, PARTY4,
        left={"brenna": ["gold-purse", "rune-blade"], "garrick": [], "corvin": []},
        dead=["ysolde"],
    )  # fmt: skip
    record(db, "x", first, state)
    after = roles(db, "x")
    assert after["brenna"] == (PARTY, ("gold-purse", "rune-blade"))
    assert after["ysolde"][0] == DEAD
    # The first unused hero in card order replaces Ysolde.
    newcomer = next(h for h in default_pack().heroes if h not in PARTY4)
    assert after[newcomer] == (PARTY, tuple(default_pack().heroes[newcomer].items))
    assert status(db, "x").status == "active"


@pytest.mark.rule("C-DEATH-03")
def test_a_rescued_corpse_is_revived_with_the_elixir(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    new(db, "x", PARTY4)
    first = default_pack().campaign_order()[0]
    state = ended(
        first, PARTY4,
        left={"brenna": ["elixir-of-life"], "garrick": [], "corvin": []},
        dead=["ysolde"], rescued=["ysolde"],
    )  # fmt: skip
    record(db, "x", first, state)
    after = roles(db, "x")
    assert after["ysolde"][0] == PARTY  # revived
    assert "elixir-of-life" not in after["brenna"][1]  # used up
    # Without a reviving item the rescued hero waits, fallen.
    db2 = tmp_path / "d.sqlite"
    new(db2, "x", PARTY4)
    state = ended(
        first, PARTY4, left={"brenna": [], "garrick": [], "corvin": []},
        dead=["ysolde"], rescued=["ysolde"],
    )  # fmt: skip
    record(db2, "x", first, state)
    assert roles(db2, "x")["ysolde"][0] == FALLEN


@pytest.mark.rule("C-CAMP-01")
def test_too_few_heroes_loses_the_campaign_except_on_the_final_adventure(
    tmp_path: Path,
) -> None:
    pack = default_pack()
    order = pack.campaign_order()
    five = list(pack.heroes)[:5]
    db = tmp_path / "c.sqlite"
    new(db, "x", five)
    # Everyone but one hero dies in the first adventure: 10 heroes, 5 players; 4 dead
    # leaves 6 living, enough. Make the reserve run out by killing the whole party twice.
    record(db, "x", order[0], ended(order[0], five, left={five[0]: []}, dead=five[1:]))
    assert status(db, "x").status == "active"
    party = [h.hero for h in status(db, "x").heroes if h.status == PARTY]
    record(db, "x", order[1], ended(order[1], party, left={party[0]: []}, dead=party[1:]))
    assert status(db, "x").status == "lost"
    # On the final adventure, dying to complete it still wins (R-C-CAMP-01): one hero
    # escapes, every goal met.
    with_final = [a for a in order if pack.adventures[a].final]
    assert with_final, "the default pack marks its last adventure final"
    final = with_final[0]
    goals = tuple(g.id for g in pack.adventures[final].goals)
    db2 = tmp_path / "d.sqlite"
    new(db2, "y", five)
    record(db2, "y", final, ended(final, five, left={five[0]: []}, dead=five[1:], goals=goals))
    assert status(db2, "y").status == "won"


@pytest.mark.rule("C-CAMP-01", "R-C-CAMP-01", "C-END-01")
def test_escaping_the_final_adventure_without_its_goals_loses_the_campaign(
    tmp_path: Path,
) -> None:
    pack = default_pack()
    five = list(pack.heroes)[:5]
    final = next(a for a in pack.campaign_order() if pack.adventures[a].final)
    goals = [g.id for g in pack.adventures[final].goals]
    db = tmp_path / "c.sqlite"
    new(db, "x", five)
    # Everyone gets out alive, but the crown is not carried out: not won, and the final
    # adventure leaves no later one to make up for it.
    record(
        db, "x", final, ended(final, five, left={h: [] for h in five}, dead=[], goals=(goals[0],))
    )
    assert status(db, "x").status == "lost"


def perished(adventure: str, party: list[str], *, slain: list[str]) -> State:
    """The whole party died in ``adventure`` after slaying a monster of each kind in
    ``slain``; the adventure ends as the engine ends it (goals judged, C-END-01)."""
    state = new_game(default_pack().ruleset(adventure), party)
    for kind in slain:  # came onto the board, and is no longer on it: slain
        state.counters[f"monster:{kind}"] = 1
        state.monsters = {k: m for k, m in state.monsters.items() if m.kind != kind}
    for hero in state.heroes.values():
        hero.dead = True
    state.finish("perished")
    return state


@pytest.mark.rule("C-CAMP-01", "R-C-CAMP-01")
@pytest.mark.parametrize(("slain", "outcome"), [(["ash-king"], "won"), ([], "lost")])
def test_heroes_who_all_die_destroying_the_final_foe_win_the_campaign(
    tmp_path: Path, slain: list[str], outcome: str
) -> None:
    pack = default_pack()
    final = next(a for a in pack.campaign_order() if pack.adventures[a].final)
    assert [(g.kind, g.target) for g in pack.adventures[final].goals if g.kind == "slay"] == [
        ("slay", "ash-king")
    ]
    db = tmp_path / "c.sqlite"
    new(db, "x", PARTY4)
    state = perished(final, PARTY4, slain=slain)
    assert state.summary()["outcome"] == "perished" and state.summary()["escaped"] == []
    assert ("ash-king" in state.goals_met) == bool(slain)
    record(db, "x", final, state)
    after = status(db, "x")
    # They gave their lives to vanquish evil: the campaign is won; without the Ash King
    # destroyed, a party that perished loses it.
    assert after.status == outcome
    assert {h.hero: h.status for h in after.heroes if h.hero in PARTY4} == {h: DEAD for h in PARTY4}
    assert after.played[-1]["outcome"] == "perished"


def test_a_crash_mid_adventure_loses_nothing_and_a_restart_replays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, reference = tmp_path / "c.sqlite", tmp_path / "ref.sqlite"
    new(db, "x", PARTY4, seed=5)
    new(reference, "x", PARTY4, seed=5)
    before = status(db, "x")

    def crash(*args: object, **kwargs: object) -> NoReturn:
        raise KeyboardInterrupt  # the process is stopped mid-adventure

    with monkeypatch.context() as patch:  # the real play_adventure is back after the block
        patch.setattr(campaign, "play_adventure", crash)
        with pytest.raises(KeyboardInterrupt):
            play(db, "x")
    assert status(db, "x") == before
    play(db, "x")
    play(reference, "x")
    assert status(db, "x").played == status(reference, "x").played


def test_a_campaign_survives_a_process_restart(tmp_path: Path) -> None:
    """Adventure 1 is played by one process, adventure 2 by another; the result equals
    a campaign played in one go."""
    db, reference = tmp_path / "c.sqlite", tmp_path / "ref.sqlite"
    new(reference, "x", PARTY4, seed=9)
    play(reference, "x")
    play(reference, "x")
    env = {**os.environ, "UNDERCROFT_DATA": str(tmp_path / "data")}
    cli = [sys.executable, "-m", "undercroft.cli", "campaign"]
    for args in (
        ["new", "x", "--party", ",".join(PARTY4), "--seed", "9"],
        ["play", "x", "--quiet"],
    ):
        subprocess.run([*cli, *args, "--db", str(db)], check=True, env=env, capture_output=True)
    play(db, "x")  # this process carries on where the other one stopped
    assert json.dumps(status(db, "x").played) == json.dumps(status(reference, "x").played)
    assert status(db, "x").heroes == status(reference, "x").heroes


def test_a_database_that_cannot_be_used_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database")
    with pytest.raises(CampaignError, match="cannot open the campaign database"):
        status(bad, "x")
    from typer.testing import CliRunner

    from undercroft.cli import app

    result = CliRunner().invoke(app, ["campaign", "status", "x", "--db", str(bad)])
    assert result.exit_code == 2 and "bad.sqlite" in result.stderr


def test_a_log_that_cannot_be_written_leaves_the_campaign_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    new(db, "x", PARTY4, seed=3)
    before = status(db, "x")

    def lost(result: object) -> None:
        raise OSError("disk full")  # the adventure's log cannot be written

    with pytest.raises(OSError):
        play(db, "x", before_record=lost)
    assert status(db, "x") == before
    from typer.testing import CliRunner

    from undercroft.cli import app

    result = CliRunner().invoke(
        app, ["campaign", "play", "x", "--db", str(db), "--log", str(tmp_path / "no" / "l.jsonl")]
    )
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert status(db, "x") == before


def test_two_plays_at_once_on_one_database_play_one_after_the_other(tmp_path: Path) -> None:
    """The second ``campaign play`` waits for the first's write lock, then plays the next
    adventure: nothing is recorded twice, nothing fails (it was an IntegrityError)."""
    db = tmp_path / "c.sqlite"
    new(db, "x", PARTY4, seed=11)
    env = {**os.environ, "UNDERCROFT_DATA": str(tmp_path / "data")}
    cli = [sys.executable, "-m", "undercroft.cli", "campaign", "play", "x", "--quiet"]
    plays = [
        subprocess.Popen(
            [*cli, "--db", str(db)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    results: list[tuple[int, str]] = []
    for p in plays:
        code = p.wait(timeout=120)
        assert p.stderr is not None  # piped
        results.append((code, p.stderr.read().decode()))
    for code, err in results:
        # Either played, or found the campaign lost by the adventure the other one played.
        assert code == 0 or (code == 2 and "is over" in err), err
        assert "Traceback" not in err
    played = status(db, "x").played
    assert len(played) == sum(code == 0 for code, _ in results) >= 1
    assert [p["adventure"] for p in played] == default_pack().campaign_order()[: len(played)]
