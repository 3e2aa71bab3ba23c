"""The world clock and the event queue (ruling R-K-CLOCK-01).

The clock counts whole game minutes from minute 0; an hour is 60 minutes and a day 1,440;
day 1 begins at minute 0. The world does not tick: it keeps a queue of things due at a
minute and jumps from one to the next, so a day where nothing is due costs one comparison.
Walkers that step tile by tile (adventurers, ruling R-K-MOVE-01) keep time in *ticks*, a
600th of a minute, so that a pace 20% slower (K-CAUT-03) is exact; an item may be due at a
tick inside its minute. The queue has a total order, (minute, tick, priority, sequence
number): items of the same minute run at tick 0 first (everything minute-based is there),
two items due at the same tick run in :class:`Priority` order, and equal priorities in the
order they were queued. Items are plain data (an action name and JSON-able arguments) so a
saved world restores its queue exactly.

Minutes, days and ticks, and how a time is written, are :mod:`undercroft.keep.content.calendar`.
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from undercroft.keep.content.calendar import TICKS_PER_MINUTE


class Priority(enum.IntEnum):
    """The order of queue items due at the same minute (lower first)."""

    SCRIPT = 0
    """A scenario's scripted command or happening."""
    SIGNAL = 1
    """A mechanism fired after its timer's delay (K-WIRE-03)."""
    STEP = 2
    """A walker reaching a door or a trigger's area on its way."""
    ARRIVE = 3
    """A walker reaching the end of its walk."""
    WORK = 4
    """A minion finishing a piece of work (a rearm, a build, a load)."""
    DECAY = 5
    """A trap part's 2 days running out (K-DECAY-02)."""
    DIRECTOR = 6
    """The invasion director's hourly draw or a group setting out (K-TIME-01..07)."""
    ADVENTURER = 7
    """An adventurer's next step or a piece of its work (ruling R-K-MOVE-01)."""
    FIGHT = 8
    """A being of your side taking its turn in a fight (ruling R-K-STANCE-02)."""
    FALLEN = 9
    """A fallen being wakes or bleeds to death (K-WAKE-02); a trap's hold, terror or
    spiders end (K-TRAP-03)."""


@dataclass(frozen=True, order=True, slots=True)
class QueueItem:
    """Something due at a minute (and a tick inside it): an action name and its arguments."""

    minute: int
    tick: int
    """Ticks after the start of the minute (0 for everything minute-based)."""
    priority: int
    seq: int
    action: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False, default=())

    @property
    def at_tick(self) -> int:
        """The absolute time in ticks."""
        return self.minute * TICKS_PER_MINUTE + self.tick

    def to_json(self) -> list[Any]:
        out = [self.minute, self.priority, self.seq, self.action, list(self.args)]
        return [*out, self.tick] if self.tick else out

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> QueueItem:
        minute, priority, seq, action, args = data[:5]
        tick = int(data[5]) if len(data) > 5 else 0
        return cls(int(minute), tick, int(priority), int(seq), str(action), tuple(args))


_Entry = tuple[int, int, int, int, str, tuple[Any, ...]]


@dataclass
class EventQueue:
    """A heap of queued items with a per-world sequence number (a total order).

    The heap holds plain tuples ``(minute, tick, priority, seq, action, args)``: the
    sequence number is unique, so the action and arguments are never compared.
    """

    items: list[_Entry] = field(default_factory=list)
    next_seq: int = 0

    def push(self, minute: int, priority: Priority, action: str, *args: Any) -> QueueItem:
        return self._push(minute, 0, priority, action, args)

    def push_at_tick(self, at_tick: int, priority: Priority, action: str, *args: Any) -> QueueItem:
        """Queue an item at an absolute time in ticks (walkers stepping tile by tile)."""
        minute, tick = divmod(at_tick, TICKS_PER_MINUTE)
        return self._push(minute, tick, priority, action, args)

    def _push(
        self, minute: int, tick: int, priority: Priority, action: str, args: tuple[Any, ...]
    ) -> QueueItem:
        entry = (minute, tick, int(priority), self.next_seq, action, args)
        self.next_seq += 1
        heapq.heappush(self.items, entry)
        return QueueItem(*entry)

    def pop(self) -> QueueItem:
        return QueueItem(*heapq.heappop(self.items))

    def next_minute(self) -> int | None:
        return self.items[0][0] if self.items else None

    def __len__(self) -> int:
        return len(self.items)

    def to_json(self) -> dict[str, Any]:
        return {
            "next_seq": self.next_seq,
            "items": [QueueItem(*e).to_json() for e in sorted(self.items)],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EventQueue:
        items: list[_Entry] = []
        for d in data["items"]:
            item = QueueItem.from_json(d)
            items.append((item.minute, item.tick, item.priority, item.seq, item.action, item.args))
        heapq.heapify(items)
        return cls(items, int(data["next_seq"]))


# -- what carries queue items out ---------------------------------------------------------

Handler = Callable[[Any, tuple[Any, ...]], None]
"""The rule that carries out a queue item of one action, given the world and the item's
arguments. The world is ``Any`` here: the clock is below the world that runs it, and
each rule types its handler's world itself (the handler registered keeps its type)."""

H = TypeVar("H", bound=Handler)

_HANDLERS: dict[str, Handler] = {}


def handles(action: str) -> Callable[[H], H]:
    """Register the rule that carries out queue items of ``action`` (the rule modules do,
    on import, as the crawl rules register their tasks), so the world that runs the queue
    imports no rule module."""

    def register(fn: H) -> H:
        _HANDLERS[action] = fn
        return fn

    return register


def handler_for(action: str) -> Handler:
    """The rule registered for ``action`` (KeyError for an action nobody carries out)."""
    return _HANDLERS[action]


def can_handle(action: str) -> bool:
    """Whether a queued ``action`` has a rule to carry it out (loading checks saves)."""
    return action in _HANDLERS
