"""Watching a keep world in the browser: a small view over :class:`undercroft.keep.World`.

:class:`KeepWatch` holds one world run by the server for one keeper (a secret token, as a
crawl seat). :meth:`KeepWatch.view` is the whole of what the page draws: the map, the
structures (traps and their parts, timers, doors, locks, sites), the wiring, the beings
where they stand now, the clock, the latest log lines and, per trap, its firings and
rearms (its history and workload). The page asks the server to advance the world (so
many minutes, or to the next thing that happens); the world's own seeded RNG decides
everything, so a watched world is the world ``run keep`` runs.

Later keep issues plug in here: invasions and adventurers (their parties, what each knows,
K-LEARN-07), wounds and deaths, and keeper commands sent from the page through
``World.command`` (the commands scripts use).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from undercroft.core.events import Event, LogEntry, Time
from undercroft.keep.scenario import shipped
from undercroft.keep.world import World
from undercroft.web.crawl_games import new_token

LOG_KEPT = 500
"""Log lines the view keeps (a world can run for years: older lines are dropped)."""
HISTORY_KEPT = 20
MAX_ADVANCE = 7 * 24 * 60
"""The most minutes one request may advance a world (a week)."""
NEXT_STEPS = 10_000
"""How many queue items "next event" may carry out looking for a logged event."""


class TailLog:
    """An event sink that keeps the last lines, and per trap its firings and rearms."""

    enabled = True

    def __init__(self) -> None:
        self.entries: deque[LogEntry] = deque(maxlen=LOG_KEPT)
        self.count = 0
        self.traps: dict[str, dict[str, Any]] = {}

    def emit(self, time: Time, event: Event) -> None:
        entry = LogEntry(self.count, time, event)
        self.entries.append(entry)
        self.count += 1
        trap = event.fields.get("trap")
        if isinstance(trap, str) and event.type.startswith(("trap.", "part.")):
            record = self.traps.setdefault(
                trap, {"fired": 0, "rearmed": 0, "expired": 0, "history": []}
            )
            key = {"trap.fired": "fired", "part.rearmed": "rearmed", "part.expired": "expired"}
            if event.type in key:
                record[key[event.type]] += 1
            history: list[dict[str, Any]] = record["history"]
            history.append(line(entry))
            del history[:-HISTORY_KEPT]


def line(entry: LogEntry) -> dict[str, Any]:
    """A log line for the page: the line itself and a short sentence."""
    fields = entry.event.fields
    said = ", ".join(f"{k} {v}" for k, v in fields.items() if not isinstance(v, dict | list))
    return {"entry": entry.to_json(), "text": f"{entry.event.type}: {said}"}


class KeepWatch:
    """One keep world watched from the browser (see the module docstring)."""

    def __init__(self, world_id: str, scenario: str, seed: int) -> None:
        self.id = world_id
        self.scenario = scenario
        self.world = World.from_scenario(scenario, seed=seed)
        self.log = TailLog()
        self.world.attach_log(self.log)
        self.token = new_token()
        self.lock = threading.Lock()
        self.listeners: set[Callable[[], None]] = set()

    def finished(self) -> bool:
        return False  # a world runs on; the hub keeps the newest

    def advance(self, minutes: int | None = None) -> dict[str, Any]:
        """Run ``minutes`` more (1 to a week), or with ``None`` to the next logged event."""
        with self.lock:
            world = self.world
            if minutes is not None:
                world.run(world.now + minutes)
            else:
                before = self.log.count
                for _ in range(NEXT_STEPS):
                    if world.step() is None or self.log.count > before:
                        break
            return self._view()

    def view(self) -> dict[str, Any]:
        with self.lock:
            return self._view()

    def _view(self) -> dict[str, Any]:
        world = self.world
        grid = world.grid
        chars = grid.char_array()
        return {
            "scenario": self.scenario,
            "seed": world.seed,
            "clock": {
                "minute": world.now,
                "day": world.now // 1440 + 1,
                "hour": world.now % 1440 // 60,
            },
            "board": "\n".join(row.tobytes().decode() for row in chars),
            "structures": [s.to_json() for s in world.structures.values()],
            "wires": [w.to_json() for w in world.wiring.wires.values()],
            "beings": [
                {"id": b.id, "kind": b.kind, "breed": b.breed, "pos": xy(b.pos_at(world.now))}
                for b in world.present()
            ],
            "portals": [[p.x, p.y] for p in world.portals],
            "log": [line(e) for e in list(self.log.entries)[-100:]],
            "lines": self.log.count,
            "traps": self.log.traps,
        }


def scenarios() -> list[str]:
    return shipped()


def xy(pos: Any) -> list[int]:
    return [int(pos.x), int(pos.y)]
