"""The rule catalogue and the coverage scan."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from undercroft.core import catalogue

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "rules"


RECORDED = Path(__file__).with_name("upstream_rule_ids.txt")


def upstream_ids(name: str) -> set[str]:
    text = (SHARED / name).read_text(encoding="utf-8")
    return set(re.findall(r"\*\*([CK]-[A-Z]+-\d{2})\*\*", text))


def recorded_ids(name: str) -> set[str]:
    """The upstream IDs as recorded in the repo, for ``name`` (crawl.md or keep.md)."""
    ids: dict[str, set[str]] = {}
    current = ""
    for line in RECORDED.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and line.endswith("rule IDs"):
            current = line[2:].split(":")[0]
        elif line and not line.startswith("#"):
            ids.setdefault(current, set()).add(line)
    return ids[name]


@pytest.mark.parametrize("name", ["crawl.md", "keep.md"])
def test_project_catalogue_has_exactly_the_upstream_ids(name: str) -> None:
    """docs/rules holds exactly the upstream catalogue's IDs: those of ../shared/rules when
    it is beside the checkout (and the recorded list must then agree with it), else the
    list recorded from it, so a fresh clone checks the same and skips nothing."""
    rules = catalogue.load_rules(ROOT)
    prefix = "C-" if name == "crawl.md" else "K-"
    ours = {rid for rid in rules if rid.startswith(prefix)}
    assert ours == recorded_ids(name)
    if SHARED.is_dir():
        assert recorded_ids(name) == upstream_ids(name), "re-record upstream_rule_ids.txt"


def test_rulings_referenced_by_rules_exist() -> None:
    rules = catalogue.load_rules(ROOT)
    for rule in rules.values():
        for ruling in re.findall(r"R-[A-Z]+(?:-[A-Z]+)*-\d{2}", rule.text):
            assert ruling in rules, f"{rule.id} refers to undefined {ruling}"


def make_project(tmp_path: Path) -> Path:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "crawl.md").write_text(
        "# c\n- **C-DOOR-01** Doors. Roll.\n- **C-DOOR-02** Strong doors. +1.\n"
    )
    (tmp_path / "docs" / "rules" / "keep.md").write_text("- **K-RNG-02** Fire. Corners.\n")
    (tmp_path / "docs" / "rulings.md").write_text("## R-C-DOOR-01 — Jams\nText.\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "doors.py").write_text(
        "# C-DOOR-01: roll to open\nX = 'K-RNG-02'\n# R-C-DOOR-01 and C-NOPE-09\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_doors.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.rule('C-DOOR-01', 'R-C-DOOR-01')\n"
        "def test_open():\n    assert True\n\n"
        "class TestStrong:\n"
        "    @pytest.mark.rule('C-DOOR-02')\n"
        "    def test_plus_one(self):\n        assert True\n"
    )
    return tmp_path


def test_coverage_finds_code_and_tests(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    report = catalogue.coverage(root)
    assert list(report.rules) == ["C-DOOR-01", "C-DOOR-02", "K-RNG-02", "R-C-DOOR-01"]
    assert report.code["C-DOOR-01"] == [catalogue.Citation("src/doors.py", 1)]
    assert [c.name for c in report.tests["C-DOOR-02"]] == ["test_plus_one"]
    assert report.covered("C-DOOR-01") and report.covered("R-C-DOOR-01")
    # R-C-DOOR-01 must not be mistaken for a citation of "C-DOOR-01".
    assert len(report.code["C-DOOR-01"]) == 1
    assert report.uncited() == ["C-DOOR-02", "K-RNG-02"]
    assert report.unknown() == ["C-NOPE-09"]


def test_a_rule_defined_twice_is_an_error(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "docs" / "rulings.md").write_text("- **C-DOOR-01** Again. Twice.\n")
    with pytest.raises(catalogue.CatalogueError, match="defined twice"):
        catalogue.load_rules(root)


def test_find_root_searches_upward_or_takes_an_exact_folder(tmp_path: Path) -> None:
    assert catalogue.find_root(ROOT / "src" / "undercroft") == ROOT
    assert catalogue.find_root(ROOT, exact=True) == ROOT
    with pytest.raises(catalogue.CatalogueError, match="holds no rule catalogue"):
        catalogue.find_root(tmp_path, exact=True)
