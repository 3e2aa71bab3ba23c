"""The event log contract: written, read back equal, byte-identical across processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from undercroft.core.events import (
    Actor,
    CrawlTime,
    Event,
    EventLog,
    Header,
    KeepTime,
    LogFormatError,
    StreamingLog,
    chance_event,
    fight_event,
    read_log,
    roll_event,
)

FIGHT_FIELDS = [
    "hero", "monster", "hero_score", "monster_score", "hero_modifiers", "monster_modifiers",
    "hero_dice", "monster_dice", "hero_stamina", "monster_stamina", "winner",
]  # fmt: skip


def sample_log() -> EventLog:
    header = Header(
        ruleset="crawl",
        version="0.1.0",
        seed=7,
        scenario="test",
        options={"light": 20},
        actors=(Actor("hero:brenna", "hero", {"traits": ["Strong"], "health": 8}),),
    )
    log = EventLog(header)
    log.emit(CrawlTime(1, "movement"), roll_event(["C-DOOR-01"], "hero:brenna", [5], "opened"))
    log.emit(
        CrawlTime(1, "fighting"),
        fight_event(
            rules=["C-FIGHT-04"], hero="hero:brenna", monster="monster:orc-1", hero_score=4,
            monster_score=3, hero_modifiers={"enemies": -1}, monster_modifiers={},
            hero_dice=(3, 4), monster_dice=(2, 2), hero_stamina=1, monster_stamina=0,
            winner="hero",
        ),
    )  # fmt: skip
    log.emit(CrawlTime(2, "turn_end"), Event("light.dropped", ("C-LIGHT-01",), {"light": 18}))
    log.close({"outcome": "escaped", "turns": 2, "name": "Brenna’s run"})
    return log


def test_a_log_written_and_read_back_is_equal(tmp_path: Path) -> None:
    log = sample_log()
    path = tmp_path / "run.jsonl"
    log.write(path)
    back = read_log(path)
    assert back.header == log.header
    assert back.entries == log.entries
    assert back.summary == log.summary
    assert back.text() == path.read_text(encoding="utf-8")


def test_lines_follow_the_contract_order() -> None:
    lines = [json.loads(line) for line in sample_log().lines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "summary"
    assert lines[0]["actors"] == [
        {"id": "hero:brenna", "kind": "hero", "traits": ["Strong"], "health": 8}
    ]
    assert [line["seq"] for line in lines[1:-1]] == [0, 1, 2]
    assert list(lines[1])[:4] == ["seq", "time", "type", "rules"]
    assert list(lines[2])[4:] == FIGHT_FIELDS


def test_keep_time_days_start_at_minute_zero() -> None:
    assert KeepTime(0).to_json() == {"minute": 0, "day": 1, "hour": 0}
    assert KeepTime(1439).to_json() == {"minute": 1439, "day": 1, "hour": 23}
    assert KeepTime(1440 + 125).to_json() == {"minute": 1565, "day": 2, "hour": 2}


def test_chance_event_fields() -> None:
    event = chance_event(["K-KO-02"], "adv:1-1", 0.7, True, "unconscious", wound="serious")
    assert dict(event.fields) == {
        "actor": "adv:1-1", "p": 0.7, "hit": True, "outcome": "unconscious", "wound": "serious",
    }  # fmt: skip


def test_events_may_not_shadow_log_fields() -> None:
    with pytest.raises(ValueError, match="seq"):
        Event("x", (), {"seq": 1})
    with pytest.raises(ValueError, match="own"):
        Event("summary", ())


SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from test_events import sample_log
sys.stdout.buffer.write(sample_log().text().encode("utf-8"))
"""


def test_the_same_log_is_byte_identical_in_another_process() -> None:
    here = sample_log().text().encode("utf-8")
    script = SCRIPT.format(tests=str(Path(__file__).parent))
    env = {"PYTHONHASHSEED": "123"}
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True, env=env
    ).stdout
    assert other == here


def test_streaming_log_appears_only_when_complete(tmp_path: Path) -> None:
    path = tmp_path / "stream.jsonl"
    reference = sample_log()
    stream = StreamingLog(path, reference.header)
    for entry in reference.entries:
        stream.emit(entry.time, entry.event)
    assert not path.exists()
    stream.close(dict(reference.summary.results if reference.summary else {}))
    assert path.read_text(encoding="utf-8") == reference.text()


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "empty"),
        ('{"type": "roll"}\n', 1, "first line must be the header"),
        ('{"type":"header","ruleset":"crawl"}\nnot json\n', 2, "not JSON"),
        ('{"type":"header","ruleset":"crawl"}\n{"seq":3,"type":"x","rules":[],'
         '"time":{"turn":1,"step":"s"}}\n', 2, "out of order"),
        ('{"type":"header","ruleset":"crawl"}\n{"type":"summary"}\n{"seq":0}\n', 2, "last line"),
    ],
)  # fmt: skip
def test_bad_logs_name_the_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LogFormatError, match=message) as caught:
        read_log(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}:")
