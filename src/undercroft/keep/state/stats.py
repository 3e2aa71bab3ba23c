"""The workload: what happened each day, counted as it happens (K-DECAY-04).

The simulation fixes no formula for how much rearming a dungeon needs: the numbers here
are counted from what happened — every ``part.rearmed`` in the log, and every minute a
minion spent on a task (walking there included), split across the days it fell in.
:func:`undercroft.keep.rules.summary.summary` turns them into the log's last line and the CLI's
report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from undercroft.core.events import MINUTES_PER_DAY, Event


@dataclass
class DayStats:
    """What happened on one day."""

    rearms: int = 0
    rearms_decay: int = 0
    rearms_used: int = 0
    expired: int = 0
    fumbles: int = 0
    fumble_fires: int = 0
    tampered: int = 0
    traps_fired: int = 0
    built: int = 0
    door_moves: int = 0
    lock_flips: int = 0
    commands: int = 0
    refused: int = 0
    visitors: int = 0
    wait_minutes: int = 0
    doors_forced: int = 0
    adventurer_traps: int = 0
    discovered: int = 0
    wounds: int = 0
    knocked_out: int = 0
    deaths: int = 0
    traps_job_minutes: int = 0
    chores_job_minutes: int = 0
    rearm_minutes: int = 0


@dataclass
class Workload:
    """Per-day counts; fed by every event the world emits and by minions' busy time."""

    days: dict[int, DayStats] = field(default_factory=dict)
    max_wait: int = 0

    def day(self, number: int) -> DayStats:
        found = self.days.get(number)
        if found is None:
            found = self.days[number] = DayStats()
        return found

    def note(self, minute: int, event: Event) -> None:
        today = self.day(minute // MINUTES_PER_DAY + 1)
        kind, f = event.type, event.fields
        if kind == "part.rearmed":
            today.rearms += 1
            if f["reason"] == "decay":
                today.rearms_decay += 1
            else:
                today.rearms_used += 1
            today.wait_minutes += int(f["waited"])
            self.max_wait = max(self.max_wait, int(f["waited"]))
        elif kind == "part.expired":
            today.expired += 1
        elif kind == "roll" and f.get("outcome") == "fumble":
            today.fumbles += 1
        elif kind == "chance" and f.get("outcome") == "tampered":
            today.tampered += 1
        elif kind == "trap.fired":
            today.traps_fired += 1
            if f["cause"] == "fumble":
                today.fumble_fires += 1
            if str(f["by"]).startswith("adv:"):
                today.adventurer_traps += 1
        elif kind == "door.forced":
            today.doors_forced += 1
        elif kind == "trigger.discovered":
            today.discovered += 1
        elif kind == "wound":
            today.wounds += 1
        elif kind == "being.unconscious":
            today.knocked_out += 1
        elif kind == "being.died":
            today.deaths += 1
        elif kind == "structure.built":
            today.built += 1
        elif kind in ("door.opened", "door.closed"):
            today.door_moves += 1
        elif kind in ("lock.armed", "lock.disarmed"):
            today.lock_flips += 1
        elif kind == "command":
            today.commands += 1
            today.refused += not f["accepted"]
        elif kind == "visitor.arrived":
            today.visitors += 1

    def add_busy(self, job: str, task: str, start: int, end: int) -> None:
        """Count a minion's busy minutes [start, end) on the days they fall in."""
        minute = start
        while minute < end:
            day = minute // MINUTES_PER_DAY + 1
            upto = min(end, day * MINUTES_PER_DAY)
            spent = upto - minute
            stats = self.day(day)
            if job == "traps":
                stats.traps_job_minutes += spent
            elif job == "chores":
                stats.chores_job_minutes += spent
            if task == "rearm":
                stats.rearm_minutes += spent
            minute = upto

    def total(self, name: str, first: int = 1, last: int | None = None) -> int:
        return sum(
            getattr(s, name)
            for d, s in self.days.items()
            if d >= first and (last is None or d <= last)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "max_wait": self.max_wait,
            "days": {str(d): asdict(s) for d, s in sorted(self.days.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Workload:
        names = {f.name for f in fields(DayStats)}
        days = {
            int(d): DayStats(**{k: int(v) for k, v in s.items() if k in names})
            for d, s in data["days"].items()
        }
        return cls(days, int(data["max_wait"]))
