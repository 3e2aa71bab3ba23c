"""Golden playthroughs: every shipped adventure has one, and it replays exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from undercroft.crawl.app.playthrough import replay
from undercroft.crawl.content import default_pack

GOLDEN = Path(__file__).parent / "golden"
ADVENTURES = default_pack().campaign_order()


def test_every_shipped_adventure_has_a_playthrough() -> None:
    missing = [a for a in ADVENTURES if not (GOLDEN / f"{a}.jsonl").is_file()]
    assert not missing, (
        f"no golden playthrough for {missing}; write them with "
        "`python -m undercroft.crawl.app.playthrough tests/crawl/golden`"
    )


@pytest.mark.rule("C-END-01")
@pytest.mark.parametrize("adventure", ADVENTURES)
def test_the_playthrough_replays_to_the_same_end(adventure: str) -> None:
    result = replay((GOLDEN / f"{adventure}.jsonl").read_text(encoding="utf-8"))
    assert result.head["adventure"] == adventure
    assert result.summary == result.expected["summary"], "the game ended differently"
    assert result.summary["outcome"] in ("escaped", "perished")
    assert result.digest == result.expected["log_sha256"], (
        "same ending, different events: a rule changed what the log says; rewrite the "
        "playthroughs if that was intended"
    )
