"""What a log may hold when read back: its ruleset's event types, a seed, a version this
undercroft can read (core.event_types, core.versions)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from undercroft import __version__
from undercroft.core.event_types import CRAWL, DICE, KEEP
from undercroft.core.events import LogFormatError, log_from_text
from undercroft.core.versions import release, version_problem
from undercroft.crawl.sightings import HIDDEN, SEEN

SRC = Path(__file__).resolve().parents[2] / "src" / "undercroft"


def emitted(folder: str) -> set[str]:
    """The event types the modules of ``src/undercroft/FOLDER`` build or emit."""
    found: set[str] = set()
    for path in (SRC / folder).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found.update(re.findall(r'Event\(\s*"([a-z_.]+)"', text))
        found.update(re.findall(r'\bemit\(\s*"([a-z_.]+)"', text))
    return found


def test_the_types_a_log_may_hold_are_the_types_the_engines_write() -> None:
    assert emitted("core") == DICE
    # The heroes' view adds the sightings of R-C-MON-06 (crawl/sightings.py).
    assert DICE | emitted("crawl") | {HIDDEN, SEEN} == CRAWL
    assert DICE | emitted("keep") == KEEP


HEADER = '{"type":"header","ruleset":"%s","version":"%s","seed":%s}\n'
LINE = '{"seq":0,"time":{"minute":3},"type":"%s","rules":[]}\n'


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (HEADER % ("crawl", "0.1.0", 1) + LINE % "door.closed", 2,
         "type: 'door.closed' is no event of a crawl log"),
        (HEADER % ("keep", "0.1.0", 1) + LINE % "hero.died", 2,
         "type: 'hero.died' is no event of a keep log"),
        (HEADER % ("keep", "99.0.0", 1), 1, "written by undercroft 99.0.0, newer than this"),
        (HEADER % ("keep", "soon", 1), 1, "'soon' is not an undercroft version"),
        (HEADER % ("keep", "0.1.0", -1), 1, "header field 'seed': -1 is not a seed"),
        (HEADER % ("keep", "0.1.0", 2**64), 1, "is not a seed (0 to 2**64 - 1)"),
        (HEADER % ("keep", "0.1.0", '"7"'), 1, "header field 'seed': '7' is not a seed"),
    ],
)  # fmt: skip
def test_a_log_with_what_no_undercroft_wrote_is_refused(text: str, line: int, message: str) -> None:
    with pytest.raises(LogFormatError) as caught:
        log_from_text(text, "x.jsonl")
    assert caught.value.line == line
    assert message in str(caught.value)


def test_a_log_of_known_types_from_this_or_an_older_version_reads() -> None:
    log = log_from_text(HEADER % ("keep", "0.1.0", 0) + LINE % "door.closed", "x.jsonl")
    assert [e.event.type for e in log.entries] == ["door.closed"]
    log_from_text(HEADER % ("crawl", __version__, 2**64 - 1), "x.jsonl")


def test_versions_compare_by_release() -> None:
    assert release("0.4.1") == (0, 4, 1)
    assert release("0.10.0.dev3+g12ab") == (0, 10, 0)
    assert release("0.4") is None and release("v0.4.1") is None
    assert version_problem("0.4.1", this="0.4.1") is None
    assert version_problem("0.3.9", this="0.4.1") is None
    assert version_problem("0.10.0", this="0.9.9") is not None  # numbers, not text
    assert version_problem("0.4.2", this="0.4.1") is not None
    # Run from a bare source tree, undercroft does not know its version: only non-versions.
    assert version_problem("9.0.0", this="0.0.0+unknown") is None
    assert version_problem("x", this="0.0.0+unknown") is not None
