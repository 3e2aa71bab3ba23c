"""The invasion director: when the next invasion comes (K-TIME-01..07).

* K-TIME-01: the first invasion comes on day 2 at a random hour (a 1d24 ``roll`` at the
  start; ruling R-K-TIME-03: at the start of that hour).
* K-TIME-02/03, rulings R-K-TIME-01/02: after an invasion ends a time limit starts (48
  hours if it ended on day 2, 30 from day 7, linear between; ``invasion_limit_hours``);
  at the end of each whole hour a ``chance`` event draws whether the next one comes, the
  chance rising from ``invasion_ramp.start`` to 100% at the limit (``invasion_ramp.k``
  shapes the curve).
* K-TIME-04: the indicator's word and this hour's exact chance (:func:`indicator`).
* K-TIME-05/06: no draw while a Rite of Storms lasts, the way from the Surface is cut
  (a scenario happening) or no edge portal reaches the sanctum; the limit runs on and,
  when it runs out while stopped, a new one of the same length starts. Ruling
  R-K-AFTER-02: once the Master is dead nothing comes any more (``master_dead``).
* K-TIME-07, K-SIZE-02: a settlement's host, a Hostile camp's warriors and a fugitive's
  pursuers come instead of the next invasion, at once or when the one under way ends.

The director draws from its own random stream, so turning invasions on or off does not
change the dice of traps and building; it needs nothing but the clock and the map to
decide, and :func:`ramp` and :func:`limit_minutes` are plain functions of the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from undercroft.core.dice import DiceSampler
from undercroft.core.events import Event, chance_event, roll_event
from undercroft.keep.content.calendar import MINUTES_PER_HOUR, day_of, day_start
from undercroft.keep.content.ruleset import KeepOptions
from undercroft.keep.state.clock import Priority

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

WORDS = ("No risk", "Unlikely", "Possible", "Likely", "Imminent")
"""K-TIME-04: the indicator's words, lowest to highest."""
IN_PROGRESS = "In progress"
"""K-ARR-05: the indicator once a group is sighted."""


# -- the numbers (pure functions) ----------------------------------------------------------


def limit_minutes(options: KeepOptions, day: int) -> int:
    """K-TIME-03, ruling R-K-TIME-02: the time limit after an invasion that ended on ``day``.

    48 - 3.6 x (day - 2) hours for days 2..7 (whole minutes: 2880, 2664, ... 1800), 30
    hours later, a day-2 limit before; or the ``invasion_limit_hours`` table's step.
    """
    table = options.invasion_limit_hours
    if table:
        hours = table[0][1]
        for first, value in table:
            if day >= first:
                hours = value
        return round(hours * MINUTES_PER_HOUR)
    d = min(max(day, 2), 7)
    return int(Fraction(48) * 60 - Fraction(36, 10) * (d - 2) * 60)


def ramp(options: KeepOptions, hour: int, limit: int) -> float:
    """R-K-TIME-01: the chance of the draw at the end of hour ``hour`` of a ``limit``.

    start + (1 - start) x f^k with f = (h - 1) / (L - 1), L the limit in hours; 100% at
    the limit itself (and for a limit of an hour or less).
    """
    start, k = options.invasion_ramp
    limit_hours = limit / MINUTES_PER_HOUR
    if hour * MINUTES_PER_HOUR >= limit or limit_hours <= 1:
        return 1.0
    f = (hour - 1) / (limit_hours - 1)
    return min(1.0, start + (1.0 - start) * float(f**k))


def draw_minute(state_start: int, hour: int, limit: int) -> int:
    """When the ``hour``-th draw of a limit falls: the end of that hour, or the limit."""
    return min(state_start + hour * MINUTES_PER_HOUR, state_start + limit)


def first_hour(rng: DiceSampler) -> tuple[int, Event]:
    """K-TIME-01: the hour of day 2 the first invasion comes (1d24: 1 is 00:00)."""
    natural = rng.die(24)
    return natural - 1, roll_event(
        ("K-TIME-01", "R-K-TIME-03"), "director", [natural], natural - 1, sides=24, day=2
    )


def hourly_draw(
    rng: DiceSampler, options: KeepOptions, hour: int, limit: int, **inputs: Any
) -> tuple[bool, float, Event]:
    """K-TIME-02: one hourly draw; at the limit the chance is 100% (K-TIME-03)."""
    p = ramp(options, hour, limit)
    hit = True if p >= 1.0 else rng.chance(p)
    rules = ("K-TIME-02", "K-TIME-03", "R-K-TIME-01") if p >= 1.0 else ("K-TIME-02", "R-K-TIME-01")
    event = chance_event(
        rules, "director", p, hit, "arrives" if hit else "waits", hour=hour, **inputs
    )
    return hit, p, event


def word_for(p: float) -> str:
    """K-TIME-04, ruling R-K-TIME-04: 0% No risk; under 25% Unlikely; under 50% Possible;
    under 75% Likely; else Imminent."""
    if p <= 0:
        return WORDS[0]
    return WORDS[1 + min(3, int(p * 4))]


# -- the director in the world -------------------------------------------------------------


def start(world: World) -> None:
    """Invasions are on: queue the first thing the director does (at the world's start)."""
    _queue(world, world.now, "begin")


def stopped_reason(world: World) -> str | None:
    """K-TIME-05: why no invasion can come now (None: one can)."""
    d = world.invasion.director
    master = world.beings.get("master")
    if master is not None and master.condition.value == "dead":
        return "master_dead"  # ruling R-K-AFTER-02: the keeper's game is over
    if d.rite_until > world.now:
        return "rite_of_storms"
    if d.cut_off:
        return "cut_off"
    if not world.reachable():
        return "unreachable"
    return None


def note_stop(world: World) -> str | None:
    """Log a change between stopped and not (K-TIME-05/06); returns the reason."""
    d = world.invasion.director
    reason = stopped_reason(world)
    if reason != d.stopped:
        if reason is None:
            world.emit(Event("invasions.resumed", ("K-TIME-05",), {"after": d.stopped}))
        else:
            world.emit(Event("invasions.stopped", ("K-TIME-05", "K-TIME-06"), {"reason": reason}))
        d.stopped = reason
    return reason


def begin(world: World) -> None:
    """K-TIME-01: roll the hour of day 2 the first invasion comes, and queue it.

    Ruling R-K-TIME-06: a scenario that starts after invasions have come (or after day 2)
    begins as if one had just ended: a K-TIME-03 limit for the day starts at once.
    """
    d = world.invasion.director
    if d.next_number > 1 or world.now >= day_start(3):
        start_limit(world, world.now, ("K-TIME-03", "R-K-TIME-06"))
        return
    hour, event = first_hour(world.streams["director"])
    world.emit(event)
    d.first_minute = day_start(2) + hour * MINUTES_PER_HOUR
    _queue(world, d.first_minute, "first")


def first_comes(world: World) -> bool:
    """The first invasion's hour: True if it comes now.

    Ruling R-K-TIME-03: if invasions are stopped at that hour it does not come, and a
    limit starts as if an invasion had ended then (K-TIME-06).
    """
    if note_stop(world) is not None:
        start_limit(world, world.now, ("K-TIME-01", "K-TIME-06", "R-K-TIME-03"))
        return False
    world.invasion.director.last_p = 1.0
    return True


def next_hour(world: World) -> bool:
    """An hour of the limit is over: True if an invasion may come now (not stopped).

    While stopped no draw is made and the limit runs on; when it runs out while stopped
    no invasion comes and a new limit of the same length starts (K-TIME-06).
    """
    d = world.invasion.director
    d.hour += 1
    if note_stop(world) is None:
        return True
    if world.now >= d.limit_start + d.limit_minutes:
        start_limit(world, world.now, ("K-TIME-06", "R-K-TIME-02"), restart=True)
    else:
        _queue(world, draw_minute(d.limit_start, d.hour + 1, d.limit_minutes), "hour")
    return False


def draw(world: World) -> bool:
    """K-TIME-02: this hour's draw; True if the next invasion arrives now."""
    d = world.invasion.director
    hit, p, event = hourly_draw(
        world.streams["director"],
        world.options,
        d.hour,
        d.limit_minutes,
        limit_hours=d.limit_minutes / MINUTES_PER_HOUR,
    )
    world.emit(event)
    if hit:
        d.last_p = p
    else:
        _queue(world, draw_minute(d.limit_start, d.hour + 1, d.limit_minutes), "hour")
    return hit


def _queue(world: World, minute: int, what: str) -> None:
    if stopped_reason(world) == "master_dead":
        return  # ruling R-K-AFTER-02: nothing more to wait for
    world.schedule(minute, Priority.DIRECTOR, "director", world.invasion.director.token, what)


def start_limit(
    world: World, minute: int, rules: tuple[str, ...], *, restart: bool = False
) -> None:
    """K-TIME-03: a new time limit from ``minute`` (of the same length when restarted).

    K-TIME-01, K-TIME-04, ruling R-K-TIME-02: no invasion comes on day 1 (No risk), so a
    limit that would start on day 1 (after a scenario's scripted invasion, or a scenario
    that starts on day 1 after invasions came) starts at the start of day 2.
    """
    d = world.invasion.director
    minute = max(minute, day_start(2))
    if not restart:
        d.limit_minutes = limit_minutes(world.options, day_of(minute))
    d.phase = "waiting"
    d.limit_start = minute
    d.hour = 0
    d.token += 1
    if restart:
        world.emit(
            Event(
                "invasion.limit",
                rules,
                {"limit_hours": d.limit_minutes / MINUTES_PER_HOUR, "restarted": True},
            )
        )
    _queue(world, draw_minute(minute, 1, d.limit_minutes), "hour")


def under_way(world: World) -> None:
    """An invasion came: no more draws until it ends."""
    d = world.invasion.director
    d.phase = "under_way"
    d.token += 1


def invasion_over(world: World) -> None:
    """K-TIME-03: the invasion ended: a limit starts, unless a host, warriors or pursuers
    wait to come at once (K-TIME-07; their own end starts the limit)."""
    d = world.invasion.director
    if any(p["at_once"] for p in d.pending) and note_stop(world) is None:
        d.phase = "between"
        return
    if d.first_minute is not None and world.now < d.first_minute:
        # K-TIME-01 (ruling R-K-TIME-03): an invasion that ended before the first one's
        # hour of day 2 (a scenario's scripted one) starts no limit: the first still
        # comes at its hour.
        d.phase = "first"
        d.token += 1
        _queue(world, d.first_minute, "first")
        return
    start_limit(world, world.now, ("K-TIME-03", "R-K-TIME-02"))


@dataclass(frozen=True)
class Indicator:
    """K-TIME-04: what the invasion indicator shows, and this hour's exact chance."""

    word: str
    percent: float


def indicator(world: World) -> Indicator:
    """The indicator now (ruling R-K-TIME-04).

    Day 1 and while invasions are stopped: No risk, 0%. On day 2 before the first: the
    chance it comes this hour given that it has not come yet, 1 / (hours left of day 2).
    Waiting: the chance of the draw that ends this hour. An invasion under way and not yet
    sighted: the word and chance of the draw that brought it (the fog hides it); sighted:
    In progress.
    """
    d = world.invasion.director
    if not world.options.invasions:
        return Indicator(WORDS[0], 0.0)
    if d.phase == "under_way":
        if any(g.sighted is not None for g in world.invasion.groups.values() if g.ended is None):
            return Indicator(IN_PROGRESS, 0.0)
        return Indicator(word_for(d.last_p), round(100 * d.last_p, 2))
    if stopped_reason(world) is not None or world.now < day_start(2):
        return Indicator(WORDS[0], 0.0)
    if d.phase == "first":
        hour = (world.now - day_start(2)) // MINUTES_PER_HOUR
        p = 1.0 / max(1, 24 - hour)
        return Indicator(word_for(p), round(100 * p, 2))
    p = ramp(world.options, d.hour + 1, d.limit_minutes)
    return Indicator(word_for(p), round(100 * p, 2))
