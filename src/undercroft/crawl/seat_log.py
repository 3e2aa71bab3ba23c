"""What each seat reads of the event log (ARCHITECTURE.md, "Hidden information"): the
log line as the seat may read it (:func:`observe_entry`), and for the heroes the
sightings of monsters their board shows that follow it (:func:`observe_line`, R-C-MON-06),
renumbered so a seat's log keeps the contract (:func:`observe_entries`). The DM reads
every line. :mod:`undercroft.crawl.observe` re-exports these names beside the views."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from undercroft.core.events import Event, LogEntry
from undercroft.crawl.engine import Seat
from undercroft.crawl.sightings import Sightings

BLIND_FIELDS: Final = ("card", "spell")
"""What the heroes' view drops from an event about a face-down item."""


def observe_entry(entry: LogEntry, seat: Seat) -> LogEntry | None:
    """The log line as ``seat`` may read it, or ``None`` if the seat does not see it."""
    if seat is not Seat.HEROES:
        return entry
    event = entry.event
    fields = dict(event.fields)
    if event.type == "roll" and fields.get("hidden"):
        return None  # C-TRAP-01: the Detect Traps number is never shown
    if event.type == "reason" and fields.get("seat") != Seat.HEROES.value:
        return None  # the DM's reasons tell what the heroes may not know
    if event.type == "traps.detected":
        fields = {"hero": fields["hero"], "found": fields["found"], "squares": fields["squares"]}
    elif fields.get("blind") or fields.get("identified") is False:
        # C-IDENT-01, R-C-IDENT-01: what a face-down item is, or which spell a scroll not
        # yet read holds, stays hidden; every event about one says so with ``blind``
        # (``identified`` false on ``item.found``).
        for key in BLIND_FIELDS:
            fields.pop(key, None)
    return LogEntry(entry.seq, entry.time, Event(event.type, event.rules, fields))


def observe_line(entry: LogEntry, seat: Seat, sightings: Sightings | None) -> list[LogEntry]:
    """What ``seat`` reads of one log line: the line as :func:`observe_entry` gives it,
    if the seat sees it, and for the heroes the sightings that follow it (R-C-MON-06),
    from ``sightings``, which follows the whole log line by line. With no ``sightings``
    (the adventure's board is not known) the heroes are told no monster's move at all.
    Numbered as ``entry``: :func:`observe_entries` renumbers."""
    seen = observe_entry(entry, seat)
    if seat is not Seat.HEROES:
        return [] if seen is None else [seen]
    news: list[Event] = []
    if sightings is None:
        keep = entry.event.type != "monster.moved"
    else:
        keep, news = sightings.follow(entry)
    found = [seen] if seen is not None and keep else []
    found.extend(LogEntry(entry.seq, entry.time, event) for event in news)
    return found


def observe_entries(
    entries: Iterable[LogEntry],
    seat: Seat,
    first_seq: int = 0,
    sightings: Sightings | None = None,
) -> list[LogEntry]:
    """The log lines ``seat`` may read (:func:`observe_line`), renumbered ``first_seq``,
    ``first_seq + 1``, ... so a seat's log keeps the contract (no gaps in ``seq``). A
    growing log can be viewed piece by piece (the heroes' with the same ``sightings``
    each time, as it follows the log)."""
    kept = [e for entry in entries for e in observe_line(entry, seat, sightings)]
    return [LogEntry(first_seq + i, e.time, e.event) for i, e in enumerate(kept)]
