"""``benchmarks/rulings_crawl.py``: every crawl ruling's other reading, played on paired
seeds."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from undercroft.crawl.content import default_pack
from undercroft.crawl.options import Options

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
RULINGS = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"


@pytest.fixture(scope="module")
def rulings_crawl() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCHMARKS))  # it imports paired_cells from beside it
    try:
        spec = importlib.util.spec_from_file_location(
            "rulings_crawl", BENCHMARKS / "rulings_crawl.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["rulings_crawl"] = module  # so that its worker processes find one()
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_every_crawl_switch_of_the_rulings_is_tried_at_another_value(
    rulings_crawl: ModuleType,
) -> None:
    """Each ``Switch: crawl.options.NAME`` of docs/rulings.md is an option the benchmark
    plays at a value other than the pack's, and names its ruling."""
    switches = set(re.findall(r"^Switch: crawl\.options\.(\w+)", RULINGS.read_text(), re.M))
    pack = default_pack()
    tried = rulings_crawl.readings(pack.options)
    assert switches and {name for name, _ in tried} == switches
    for name, value in tried:
        assert value != getattr(pack.options, name)
        dataclasses.replace(Options(), **{name: value})  # a value the option takes
    named = rulings_crawl.ruling_of_switch()
    assert named["text_test"].startswith("R-C-EXPL-02 — ")
    assert set(named) == switches


def test_it_plays_a_reading_on_paired_seeds_and_writes_the_rows(
    rulings_crawl: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "rows.json"
    args = ["--seeds", "2", "--adventure", "bone-priest", "--party", "brenna,corvin,ysolde",
            "--only", "text_test", "--policy", "basic", "--dm", "basic", "--workers", "1",
            "--json", str(out)]  # fmt: skip
    assert rulings_crawl.main(args) == 0
    printed, progress = capsys.readouterr()
    rows = [line for line in printed.splitlines() if line.startswith("| text_test = chosen |")]
    assert len(rows) == 2  # the cell's row, then the summary's
    assert "| R-C-EXPL-02 | bone-priest | brenna,corvin,ysolde |" in rows[0]
    [row] = json.loads(out.read_text())["rows"]
    # basic takes the first in party order either way: the same games, both readings
    assert row["only_other"] == row["only_default"] == 0 and row["p"] == 1.0
    assert row["won_other"] == row["won_default"] and row["seeds"] == 2
    assert "text_test=chosen" in progress


def test_a_switch_it_does_not_know_exits_2(
    rulings_crawl: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert rulings_crawl.main(["--only", "nonesuch", "--seeds", "1"]) == 2
    assert "--only nonesuch: not a rulings switch (" in capsys.readouterr().err
