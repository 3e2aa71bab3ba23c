"""A sweep says when a swept key changes nothing the games can play (issue 31)."""

from __future__ import annotations

from pathlib import Path

from analysis.analysis_kit import ADVENTURE, invoke
from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES
from undercroft.analysis.reach import idle_keys
from undercroft.analysis.targets import scenario_for

CRAWL = (None, DEFAULT_HEROES, DEFAULT_DM, None)


def crawl_points(*sets: str) -> list[object]:
    return [scenario_for("crawl", ADVENTURE, None, [s], CRAWL) for s in sets]


def test_crawl_keys_are_idle_only_for_cards_nothing_brings_into_play() -> None:
    points = crawl_points("options.max_turns=60", "options.max_turns=61")
    keys = [
        "monsters.orc.fighting",  # no orc in the cellars
        "monsters.goblin.fighting",  # placed
        "monsters.giant-rat.health",  # placed, on patrol and spawned by a room text
        "traps.pit.name",  # laid
        "traps.gust-vent.name",  # not laid
        "heroes.garrick.health",  # in the default party
        "heroes.corvin.health",  # not
        "spells.ember-dart.level",  # on a scroll a room gives
        "spells.thunderclap.level",  # only corvin knows it
        "options.max_turns",
        "adventures.greyhollow-cellars.light",
    ]
    idle = dict(idle_keys(points, keys))
    assert sorted(idle) == [
        "heroes.corvin.health", "monsters.orc.fighting", "spells.thunderclap.level",
        "traps.gust-vent.name",
    ]  # fmt: skip
    assert "no orc" in idle["monsters.orc.fighting"] and ADVENTURE in idle["monsters.orc.fighting"]


def test_a_point_that_brings_the_card_into_play_counts_for_the_key() -> None:
    points = crawl_points('adventures.greyhollow-cellars.patrol=["orc"]', "options.max_turns=60")
    assert idle_keys(points, ["monsters.orc.fighting"]) == []


def test_keep_kinds_no_scenario_or_content_names_are_idle() -> None:
    points = [scenario_for("keep", "mid", 1, [], CRAWL)]
    keys = [
        "creature.boar.attributes.battle",  # no boar in mid
        "creature.troll.attributes.battle",  # the troll's lair
        "creature.spider.attributes.battle",  # a spider trap's summon
        "minion.orc.armour",
        "options.trap_friendly_fire",
    ]
    assert [k for k, _ in idle_keys(points, keys)] == ["creature.boar.attributes.battle"]


def test_a_crawl_sweep_over_a_monster_not_in_the_adventure_warns(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, stdout, stderr = invoke(
        "sweep", "crawl", ADVENTURE, "--runs", "2", "--workers", "1",
        "--set", "monsters.orc.fighting=2,5", "--out", str(out),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    assert "warning: --set monsters.orc.fighting: changes nothing" in " ".join(stderr.split())
    page = (out / "report.html").read_text()
    assert '<p class="flag">monsters.orc.fighting changes nothing these games play' in page


def test_a_keep_sweep_over_a_creature_not_in_the_scenario_warns(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, stdout, stderr = invoke(
        "sweep", "keep", "mid", "--runs", "1", "--days", "1", "--workers", "1",
        "--set", "creature.boar.attributes.battle=2,5", "--out", str(out),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    assert "creature.boar.attributes.battle: changes nothing" in " ".join(stderr.split())
    assert "no boar" in (out / "report.html").read_text()


def test_a_sweep_over_a_monster_in_play_does_not_warn(tmp_path: Path) -> None:
    code, stdout, stderr = invoke(
        "sweep", "crawl", ADVENTURE, "--runs", "1", "--workers", "1",
        "--set", "monsters.goblin.fighting=1,4", "--out", str(tmp_path / "s"),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    assert "changes nothing" not in stderr
