"""``--set`` and the options file: one schema for content and options, checked like content."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analysis.analysis_kit import invoke
from undercroft.core.content import ContentError
from undercroft.crawl.content import DEFAULT_PACK, check_settings, default_pack, load_pack
from undercroft.crawl.ruleset import Options
from undercroft.crawl.settings import SettingError, parse, split_values


def test_a_value_is_read_as_toml_or_as_a_word() -> None:
    assert parse("monsters.orc.fighting=3").value == 3
    assert parse("options.won_if_perished=true").value is True
    assert parse("options.ambusher_six=natural").value == "natural"
    assert parse('heroes.sable.traits=["Agile", "Strong"]').value == ["Agile", "Strong"]
    assert split_values('2,3,["a","b"],x') == ["2", "3", '["a","b"]', "x"]


def test_settings_change_the_cards_adventures_and_options() -> None:
    texts = (
        "monsters.orc.fighting=5",
        "adventures.greyhollow-cellars.light=7",
        "options.ambusher_six=natural",
        'heroes.sable.traits=["Strong"]',
    )
    sets = [parse(t) for t in texts]
    check_settings(default_pack(), sets)
    pack = load_pack(DEFAULT_PACK, sets)
    assert pack.monsters["orc"].fighting == 5
    assert pack.adventures["greyhollow-cellars"].light == 7
    assert pack.ruleset("greyhollow-cellars").options.ambusher_six == "natural"
    assert [t.value for t in pack.heroes["sable"].traits] == ["Strong"]
    assert default_pack().monsters["orc"].fighting != 5  # the shipped pack is untouched


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("monsters.orc.fighting=-1", "greater than or equal to 0"),
        ("monsters.nobody.fighting=1", "no monster 'nobody'"),
        ("options.max_turns=0", "greater than or equal to 1"),
        ("options.fight_order=random", "allowed: monster_square, hero_square"),
        ("options.nothing=1", "unknown field 'nothing'"),
        ("monsters.orc.id=elf", "unknown field 'id'"),
        ("monsters.orc=3", "monsters.ID.FIELD"),
        ("fighting", "KEY=VALUE"),
        ('heroes.sable.traits=["Quick"]', "allowed: Strong, Agile"),
    ],
)
def test_a_bad_setting_names_itself_and_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises(SettingError, match="--set") as caught:
        check_settings(default_pack(), [parse(text)])
    assert message in str(caught.value)


def test_a_set_value_gets_the_cross_checks_of_content() -> None:
    # Corvin's starting spells need Magic: with less, the pack check refuses it.
    sets = [parse("heroes.corvin.magic=0")]
    check_settings(default_pack(), sets)
    with pytest.raises(ContentError, match="more than the hero's Magic"):
        load_pack(DEFAULT_PACK, sets)


@pytest.mark.rule("R-C-SURP-02")
def test_a_pack_options_file_sets_the_options(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, pack)
    (pack / "options.toml").write_text('kind = "crawl-options"\nambusher_six = "natural"\n')
    loaded = load_pack(pack)
    assert loaded.options == Options(ambusher_six="natural")
    assert loaded.ruleset("greyhollow-cellars").options.ambusher_six == "natural"
    (pack / "options.toml").write_text('kind = "crawl-options"\n\nambusher_six = "never"\n')
    with pytest.raises(ContentError) as caught:
        load_pack(pack)
    problem = caught.value.problems[0]
    assert (problem.line, problem.key, problem.allowed) == (3, "ambusher_six", ("total", "natural"))
    code, _, stderr = invoke("check", str(pack / "options.toml"))
    assert code == 2 and "options.toml:3: ambusher_six" in stderr


def test_run_crawl_takes_set_and_writes_the_options_in_the_log(tmp_path: Path) -> None:
    import json

    log = tmp_path / "game.jsonl"
    code, _, stderr = invoke("run", "crawl", "--quiet", "--seed", "3", "--log", str(log),
                             "--set", "options.ambusher_six=natural",
                             "--set", "options.max_turns=12")  # fmt: skip
    assert code == 0, stderr
    header = json.loads(log.read_text().splitlines()[0])
    assert header["options"]["ambusher_six"] == "natural"
    assert header["options"]["max_turns"] == 12
    summary = json.loads(log.read_text().splitlines()[-1])
    assert summary["turns"] <= 12
    code, _, stderr = invoke("run", "crawl", "--set", "options.max_turns=x")
    assert code == 2 and "--set options.max_turns=x" in stderr
