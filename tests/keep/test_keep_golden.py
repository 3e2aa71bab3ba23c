"""Golden keep logs: every shipped default scenario's log stays byte-identical.

The trapworks logs in ``tests/keep/golden`` are invasions-off runs, first recorded before
invasions existed (see CHANGELOG for every re-recording and the rule fix that caused it);
the default scenarios ``tutorial``, ``mid`` and ``late`` are recorded with invasions on, so
their fights, wounds and knock-outs are held too. The header's ``version`` field is
normalised (the integrator bumps it at release); every other byte must match. Re-record
only for a documented rule fix:

    .venv/bin/python tests/keep/test_keep_golden.py --record [NAME ...]
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from undercroft.cli import app

GOLDEN = Path(__file__).parent / "golden"
OFF = ["--invasions", "off"]
RUNS = {
    "trapworks-30d-seed1": ["--scenario", "trapworks", "--days", "30", "--seed", "1", *OFF],
    "trapworks-40-10d-seed1": ["--scenario", "trapworks-40", "--days", "10", "--seed", "1", *OFF],
    "tutorial-5d-seed1": ["--scenario", "tutorial", "--days", "5", "--seed", "1"],
    "mid-10d-seed1": ["--scenario", "mid", "--days", "10", "--seed", "1"],
    "late-3d-seed1": ["--scenario", "late", "--days", "3", "--seed", "1"],
}
_VERSION = re.compile(r'"version":"[^"]*"')


def normalised(text: str) -> str:
    """The log with the header's version field replaced (first line only)."""
    head, _, rest = text.partition("\n")
    return _VERSION.sub('"version":"*"', head, count=1) + "\n" + rest


def run_log(args: list[str], path: Path) -> str:
    result = CliRunner().invoke(app, ["run", "keep", *args, "--log", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    return path.read_text(encoding="utf-8")


def first_difference(expected: str, got: str) -> str:
    pairs = zip(expected.splitlines(), got.splitlines(), strict=False)
    for number, (a, b) in enumerate(pairs, start=1):
        if a != b:
            return f"line {number} differs:\n  expected {a[:300]}\n  got      {b[:300]}"
    return f"lengths differ: {len(expected.splitlines())} vs {len(got.splitlines())} lines"


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_log_is_byte_identical(name: str, tmp_path: Path) -> None:
    expected = normalised(gzip.decompress((GOLDEN / f"{name}.jsonl.gz").read_bytes()).decode())
    got = normalised(run_log(RUNS[name], tmp_path / "run.jsonl"))
    assert got == expected, first_difference(expected, got)


def record(names: list[str]) -> None:
    import tempfile

    for name, args in RUNS.items():
        if names and name not in names:
            continue
        with tempfile.TemporaryDirectory() as folder:
            text = run_log(args, Path(folder) / "run.jsonl")
        (GOLDEN / f"{name}.jsonl.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
        print(f"recorded {name}: {len(text.splitlines())} lines")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"]:
        sys.exit("usage: test_keep_golden.py --record [NAME ...]  (default: all of them)")
    record(sys.argv[2:])
