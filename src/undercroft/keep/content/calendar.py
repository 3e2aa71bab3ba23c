"""The calendar: how game time is counted and written (ruling R-K-CLOCK-01).

The clock counts whole game minutes from minute 0; an hour is 60 minutes and a day 1,440;
day 1 begins at minute 0. Walkers that step tile by tile (adventurers, ruling R-K-MOVE-01)
keep time in *ticks*, a 600th of a minute, so that a pace 20% slower (K-CAUT-03) is exact.
Scenario files and scripts write a time as ``day N HH:MM``; the queue that runs the world
on these minutes is :mod:`undercroft.keep.state.clock`.

>>> parse_when("day 3 08:30")
3390
>>> format_when(3390)
'day 3 08:30'
"""

from __future__ import annotations

import re

from undercroft.core.events import MINUTES_PER_DAY

MINUTES_PER_HOUR = 60
TICKS_PER_MINUTE = 600
"""Sub-minute time for walkers stepping tile by tile (a tick is a tenth of a second)."""
MAX_DAYS = 100_000
"""The longest run (``run keep --days``, a scenario's ``days``) and the latest scripted
day undercroft takes: about 274 years of game time."""
_WHEN = re.compile(r"^\s*day\s+(\d+)(?:\s+(\d{1,2}):(\d{2}))?\s*$")


class ClockError(ValueError):
    """A time that cannot be read (names the text and the expected form)."""


def day_start(day: int) -> int:
    """The first minute of ``day`` (day 1 starts at minute 0)."""
    return (day - 1) * MINUTES_PER_DAY


def day_of(minute: int) -> int:
    return minute // MINUTES_PER_DAY + 1


def parse_when(text: str) -> int:
    """``"day 3 08:30"`` (or ``"day 3"`` for its first minute) as a minute of game time."""
    found = _WHEN.match(text)
    if not found:
        raise ClockError(f"cannot read the time {text!r}; write it as 'day N HH:MM'")
    day = int(found.group(1))
    hour = int(found.group(2) or 0)
    minute = int(found.group(3) or 0)
    if not 1 <= day <= MAX_DAYS or hour > 23 or minute > 59:
        raise ClockError(
            f"{text!r} is not a time of the game (days from 1 to {MAX_DAYS:,}, 00:00 to 23:59)"
        )
    return day_start(day) + hour * MINUTES_PER_HOUR + minute


def format_when(minute: int) -> str:
    """A minute of game time as ``day N HH:MM``."""
    day = day_of(minute)
    rest = minute - day_start(day)
    return f"day {day} {rest // MINUTES_PER_HOUR:02d}:{rest % MINUTES_PER_HOUR:02d}"
