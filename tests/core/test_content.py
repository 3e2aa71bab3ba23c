"""Content loading: schema validation with file, line, key and allowed values."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from undercroft.core.content import (
    MAX_NESTING,
    ContentError,
    Schema,
    check_file,
    key_lines,
    load,
    load_map,
    parse_toml,
    read_text,
)
from undercroft.core.grid import Pos


class Monster(Schema):
    name: str
    hp: int
    encounter: Literal["guard", "patrol", "ambusher"] = "guard"


class Bestiary(Schema):
    title: str
    monster: list[Monster]


BESTIARY = """\
title = "Creatures"

[[monster]]
name = "Orc"
hp = 3

[[monster]]
name = "Goblin"
hp = "lots"
encounter = "lurker"
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_key_lines_cover_tables_arrays_and_inline_values() -> None:
    text = """\
a = 1
b = { c = 2, d = [10, 20] }
x.y = 3
[t]
k = "v"
[[arr]]
n = 1
[[arr]]
n = 2
"""
    lines = key_lines(text)
    assert lines[("a",)] == 1
    assert lines[("b", "c")] == 2 and lines[("b", "d", 1)] == 2
    assert lines[("x", "y")] == 3
    assert lines[("t",)] == 4 and lines[("t", "k")] == 5
    assert lines[("arr", 0, "n")] == 7 and lines[("arr", 1, "n")] == 9


def test_a_bad_field_names_file_line_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "bestiary.toml", BESTIARY)
    with pytest.raises(ContentError) as caught:
        load(path, Bestiary)
    problems = {p.key: p for p in caught.value.problems}
    assert set(problems) == {"monster[1].hp", "monster[1].encounter"}
    hp = problems["monster[1].hp"]
    assert (hp.file, hp.line) == (str(path), 9)
    assert "valid integer" in hp.message and "'lots'" in hp.message
    encounter = problems["monster[1].encounter"]
    assert encounter.line == 10
    assert encounter.allowed == ("guard", "patrol", "ambusher")
    assert str(encounter).startswith(f"{path}:10: monster[1].encounter: ")


def test_unknown_and_missing_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "b.toml", 'title = "x"\n[[monster]]\nname = "Orc"\nhp = 2\nhpp = 3\n')
    with pytest.raises(ContentError) as caught:
        load(path, Bestiary)
    (problem,) = caught.value.problems
    assert (problem.key, problem.line) == ("monster[0].hpp", 5)
    assert problem.allowed == ("name", "hp", "encounter")
    path = write(tmp_path, "c.toml", "[[monster]]\nname = 'Orc'\nhp = 2\n")
    with pytest.raises(ContentError, match=r"c.toml:1: title: Field required"):
        load(path, Bestiary)


def test_syntax_errors_give_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "s.toml", 'title = "x"\n\n[[monster]\nname = 1\n')
    with pytest.raises(ContentError) as caught:
        load(path, Bestiary)
    assert caught.value.problems[0].line == 3
    assert "TOML syntax" in caught.value.problems[0].message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="no such file"):
        load(tmp_path / "nope.toml", Bestiary)


MAP = '''\
kind = "map"
name = "Hall"
tiles = """
#####
#a.b#
#####
"""
'''


def test_a_map_file_loads_to_a_grid(tmp_path: Path) -> None:
    grid = load_map(write(tmp_path, "m.toml", MAP))
    assert grid.markers == {"a": Pos(1, 1), "b": Pos(3, 1)}


def test_a_bad_map_character_names_the_key_and_row(tmp_path: Path) -> None:
    path = write(tmp_path, "m.toml", MAP.replace("#a.b#", "#a?b#"))
    with pytest.raises(ContentError) as caught:
        check_file(path)
    (problem,) = caught.value.problems
    assert (problem.key, problem.line) == ("tiles", 3)
    assert "map row 2, column 3: unknown map character '?'" in problem.message


def test_check_needs_a_known_kind(tmp_path: Path) -> None:
    path = write(tmp_path, "k.toml", 'name = "x"\nkind = "spaceship"\n')
    with pytest.raises(ContentError) as caught:
        check_file(path)
    (problem,) = caught.value.problems
    assert (problem.line, problem.key) == (2, "kind")
    assert "map" in problem.allowed


def test_the_shipped_demo_map_is_valid() -> None:
    root = Path(__file__).resolve().parents[2] / "src" / "undercroft" / "core" / "data"
    for path in root.glob("*.toml"):
        check_file(path)


def test_a_content_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    """Some Windows editors start UTF-8 files with a BOM; TOML has none: it is skipped."""
    plain = tmp_path / "plain.toml"
    plain.write_text('kind = "map"\n', encoding="utf-8")
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert read_text(marked) == read_text(plain)


@pytest.mark.parametrize("kind", ["arrays", "tables", "dotted keys"])
def test_nesting_past_the_limit_names_the_line_of_the_deep_value(kind: str) -> None:
    def nested(depth: int) -> str:
        if kind == "arrays":
            return "x = " + "[" * depth + "]" * depth
        if kind == "tables":
            return "x = " + "{ a = " * (depth - 1) + "{}" + " }" * (depth - 1)
        return "x." + ".".join(["a"] * (depth - 1)) + " = {}"

    head = 'title = "deep"\n# the deep one is on line 4\n\n'
    assert parse_toml(head + nested(MAX_NESTING) + "\n", "f.toml")  # at the limit: fine
    with pytest.raises(ContentError) as caught:
        parse_toml(head + nested(MAX_NESTING + 1) + "\n", "f.toml")
    assert [str(p) for p in caught.value.problems] == [
        f"f.toml:4: x: arrays or tables nested too deeply (more than {MAX_NESTING} levels)"
    ]
