"""Golden playthroughs: a whole seeded game recorded as text, and replayed.

A playthrough file is JSON Lines: a ``playthrough`` header (adventure, party, seed,
policies), one line per action in order (chance outcomes included, as ``Roll``), and a
``result`` line with the summary and a SHA-256 of the event log's events and summary
(the header is left out so a version bump does not change it). Replaying the actions on
the current engine must give the same result: a changed rule shows up as a changed
playthrough, with the first differing event named.

    python -m undercroft.crawl.app.playthrough tests/crawl/golden   # (re)write one per adventure
    python -m undercroft.crawl.app.playthrough --refresh tests/crawl/golden   # same actions,
        # result lines rewritten (when only what the summary or log reports has changed)
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from undercroft.core.events import EventLog, Header, dumps
from undercroft.crawl import new_game
from undercroft.crawl.actions import from_json, to_json
from undercroft.crawl.content import Pack, default_pack
from undercroft.crawl.runner import play


def log_digest(log: EventLog) -> str:
    lines = [dumps(e.to_json()) for e in log.entries]
    if log.summary is not None:
        lines.append(dumps(log.summary.to_json()))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def record(pack: Pack, adventure: str, party: list[str], seed: int) -> str:
    """Play the adventure with the ``basic`` policies (the heuristic ones the playthroughs
    were first recorded with) and write its playthrough; the result line is the replay's,
    whose log holds the rules' events only (no players' ``reason`` events)."""
    result = play(pack.ruleset(adventure), party, seed=seed, heroes="basic", dm="basic", log=False)
    head = {
        "type": "playthrough",
        "adventure": adventure,
        "party": party,
        "seed": seed,
        "policies": ["basic", "basic"],
    }
    lines = [dumps(head)]
    lines.extend(dumps(to_json(a)) for a in result.state.history)
    lines.append(dumps({"type": "result", "summary": {}, "log_sha256": ""}))
    return refresh("\n".join(lines) + "\n", pack)


@dataclass(frozen=True)
class Replay:
    head: dict[str, Any]
    expected: dict[str, Any]
    summary: dict[str, Any]
    digest: str
    log: EventLog


def replay(text: str, pack: Pack | None = None) -> Replay:
    """Apply a playthrough's actions to a fresh game and report what came of it."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    head, actions, expected = rows[0], rows[1:-1], rows[-1]
    chosen = pack or default_pack()
    log = EventLog(Header("crawl", "", head["seed"], head["adventure"]))
    state = new_game(chosen.ruleset(head["adventure"]), head["party"], sink=log)
    for row in actions:
        state.apply(from_json(row))
    log.close(state.summary())
    return Replay(head, expected, state.summary(), log_digest(log), log)


def refresh(text: str, pack: Pack | None = None) -> str:
    """The same playthrough (header and actions untouched) with its result line rewritten
    from a replay: for a change of what the summary or the log reports, not of the game."""
    lines = [line for line in text.splitlines() if line.strip()]
    result = replay(text, pack)
    lines[-1] = dumps({"type": "result", "summary": result.summary, "log_sha256": result.digest})
    return "\n".join(lines) + "\n"


USAGE = """usage: python -m undercroft.crawl.app.playthrough [--refresh] [FOLDER]

Record one golden playthrough per shipped adventure (seed 2026, the first four heroes,
the basic policies) into FOLDER (default tests/crawl/golden); --refresh keeps the recorded
actions and rewrites only each file's result line."""


def main(argv: list[str]) -> None:
    keep_actions = "--refresh" in argv
    argv = [a for a in argv if a != "--refresh"]
    if len(argv) > 1 or any(a.startswith("-") for a in argv):
        raise SystemExit(USAGE)
    folder = Path(argv[0] if argv else "tests/crawl/golden")
    folder.mkdir(parents=True, exist_ok=True)
    pack = default_pack()
    if keep_actions:
        for path in sorted(folder.glob("*.jsonl")):
            path.write_text(refresh(path.read_text(encoding="utf-8"), pack), encoding="utf-8")
            print(f"refreshed {path}")
        return
    party = list(pack.heroes)[:4]
    for adventure in pack.campaign_order():
        path = folder / f"{adventure}.jsonl"
        path.write_text(record(pack, adventure, party, seed=2026), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
