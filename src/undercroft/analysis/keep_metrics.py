"""What happened in one keep run, counted from its events as they come.

:class:`KeepMetrics` is an :class:`undercroft.core.events.EventSink` the world sends every
event to (the log contract, ``docs/events.md``); it keeps counts and one small record per
invasion, trap and locked door, never the events. Where things happen is read from the
events' own tiles (``at``): an adventurer's death, its wounds, the minutes a group spent at
a locked door (``door.forced``, ``door.given_up``) and the minutes a web held it
(``being.held``), which together are where adventurers are slowed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.events import MINUTES_PER_DAY, Event, Time
from undercroft.keep.fates import Fates


def is_adventurer(being: Any) -> bool:
    return str(being).startswith("adv:")


def _tile(value: Any) -> tuple[int, int] | None:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    return int(value[0]), int(value[1])


@dataclass
class Invasion:
    """One invasion as its ``invasion.arrived`` and ``invasion.ended`` tell it."""

    number: int
    day: int
    kind: str
    goal: str
    size: int
    levels: int
    outcome: str = "under way"
    """``goal met``, ``escaped`` (someone walked out, goal not met), ``repelled`` (every
    member dead or captured, goal not met), or ``under way`` when the run ended first."""
    treasure: int = 0
    minutes: int | None = None


@dataclass
class TrapRecord:
    """One trap (named after its mechanism, ``trap:N``)."""

    mechanism: str = ""
    x: int | None = None
    y: int | None = None
    fired: int = 0
    wounds: int = 0
    kills: int = 0
    rearms: int = 0
    fumbles: int = 0


@dataclass
class KeepMetrics:
    """Counts and records of one keep run."""

    enabled: bool = True
    minute: int = 0
    invasions: dict[int, Invasion] = field(default_factory=dict)
    traps: dict[str, TrapRecord] = field(default_factory=dict)
    doors: list[dict[str, Any]] = field(default_factory=list)
    squares: dict[tuple[int, int], Counter[str]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    master_died_day: int | None = None
    fates: Fates = field(default_factory=Fates)
    """What became of every adventurer who came (:mod:`undercroft.keep.fates`): the
    invasions' and the run's dead, captured, escaped and inside."""

    def emit(self, time: Time, event: Event) -> None:
        self.fates.read(event)
        handler = _HANDLERS.get(event.type)
        if handler is not None:
            minute = getattr(time, "minute", None)
            if isinstance(minute, int):
                self.minute = minute
            handler(self, event)

    @property
    def day(self) -> int:
        return self.minute // MINUTES_PER_DAY + 1

    def trap(self, trap_id: Any) -> TrapRecord:
        return self.traps.setdefault(str(trap_id), TrapRecord())

    def mark(self, at: Any, what: str, amount: int = 1) -> None:
        tile = _tile(at)
        if tile is not None:
            self.squares.setdefault(tile, Counter())[what] += amount

    def outcomes(self) -> Counter[str]:
        return Counter(i.outcome for i in self.invasions.values())


def _arrived(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    members = list(f.get("members", []))
    number = int(f["number"])
    m.invasions[number] = Invasion(
        number,
        int(f.get("day", m.day)),
        str(f.get("kind", "")),
        str(f.get("goal", "")),
        len(members),
        sum(int(x.get("level", 0)) for x in members),
    )


def _ended(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    found = m.invasions.get(int(f["number"]))
    if found is None:  # a group of a saved world, or prisoners a scenario starts with
        return
    found.treasure = int(f.get("treasure", 0) or 0)
    found.minutes = None if f.get("minutes") is None else int(f["minutes"])
    if f.get("goal_met") == "met":
        found.outcome = "goal met"
    elif f.get("escaped"):
        found.outcome = "escaped"
    else:
        found.outcome = "repelled"


def _fired(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    record = m.trap(f["trap"])
    record.mechanism = str(f.get("mechanism", record.mechanism))
    tile = _tile(f.get("at"))
    if tile is not None:
        record.x, record.y = tile
    record.fired += 1


def _wound(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    source = str(f.get("source", ""))
    if source.startswith("trap:"):
        m.trap(source).wounds += 1
    if is_adventurer(f.get("target")):
        m.counts["adventurer_wounds"] += 1
        m.mark(f.get("at"), "wounds")


def _died(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    by = str(f.get("by", ""))
    if by.startswith("trap:"):
        m.trap(by).kills += 1
    if f.get("being") == "master":
        m.master_died_day = m.day
    if is_adventurer(f.get("being")):
        m.counts["adventurers_died"] += 1
        m.mark(f.get("at"), "deaths")
        if by.startswith("trap:"):
            m.counts["trap_kills"] += 1


def _rearmed(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    if f.get("trap") is None:
        return
    record = m.trap(f["trap"])
    record.rearms += 1
    if f.get("fumble"):
        record.fumbles += 1


def _door(outcome: str) -> Any:
    def handler(m: KeepMetrics, e: Event) -> None:
        f = e.fields
        tile = _tile(f.get("at"))
        minutes = int(f.get("minutes", 0) or 0)
        m.doors.append(
            {
                "day": m.day,
                "group": int(f["group"]),
                "door": str(f["door"]),
                "x": None if tile is None else tile[0],
                "y": None if tile is None else tile[1],
                "outcome": outcome,
                "method": str(f.get("method", "")),
                "attempts": int(f.get("attempts", 0) or 0),
                "minutes": minutes,
            }
        )
        m.mark(f.get("at"), "slowed", minutes)

    return handler


def _held(m: KeepMetrics, e: Event) -> None:
    f = e.fields
    if is_adventurer(f.get("being")) and f.get("until") is not None:
        m.mark(f.get("at"), "slowed", max(0, int(f["until"]) - m.minute))


_HANDLERS = {
    "invasion.arrived": _arrived,
    "invasion.ended": _ended,
    "trap.fired": _fired,
    "wound": _wound,
    "being.died": _died,
    "part.rearmed": _rearmed,
    "door.forced": _door("forced"),
    "door.given_up": _door("given up"),
    "being.held": _held,
}
