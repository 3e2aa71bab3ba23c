"""Watching a keep world in the browser: one :class:`undercroft.keep.World` run by the server.

:class:`KeepWatch` holds one world for one keeper (a secret token, as a crawl seat). The
page asks the server to advance the world (so many minutes, or to the next event of a
kind: any, a trap firing, an invasion arriving, a death, a wound) and to carry out keeper
commands, which go through :func:`undercroft.keep.script.parse_command` and
:func:`undercroft.keep.commands.execute`, exactly as a scenario's script does. The world's
own seeded RNG decides everything, so a watched world is the world ``run keep`` runs.

What is drawn is :func:`undercroft.web.keep_map.world_view` plus what this watcher kept of
the log: the latest lines and, per trap, its firings, rearms and expiries (its history and
workload).
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Callable, Mapping
from typing import Any

from undercroft.core.events import Event, LogEntry, Time
from undercroft.keep.commands import execute
from undercroft.keep.rules import learning
from undercroft.keep.scenario import build_world, shipped
from undercroft.keep.script import parse_command
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.orders import CommandError
from undercroft.keep.state.world import World
from undercroft.render.keep_lines import Names, command_sentence, sentence
from undercroft.web.crawl_games import new_token
from undercroft.web.hub import RefusalError
from undercroft.web.keep_map import world_view

LOG_KEPT = 500
"""Log lines the view keeps (a world can run for years: older lines are dropped)."""
HISTORY_KEPT = 20
MAX_ADVANCE = 7 * 24 * 60
"""The most minutes one request may advance a world (a week), "next event" included."""
NEXT_KINDS: Mapping[str, tuple[str, ...]] = {
    "any": (),
    "trap": ("trap.fired",),
    "invasion": ("invasion.arrived",),
    "death": ("being.died",),
    "wound": ("wound",),
    "fight": ("attack",),
}
"""What "next event" may look for: any logged event, or events of these types."""
QUIET = ("roll", "chance")
"""Dice lines: logged, but not an "event" to stop at or to list on the page."""


class TailLog:
    """An event sink that keeps the last lines, counts every type, and per trap its
    firings, rearms and expiries."""

    enabled = True

    def __init__(self, names: Names | None = None) -> None:
        self.names = names if names is not None else Names()
        self.entries: deque[LogEntry] = deque(maxlen=LOG_KEPT)
        self.lines: deque[dict[str, Any]] = deque(maxlen=LOG_KEPT)
        """The same lines as the page gets them, each with its sentence."""
        self.count = 0
        self.types: Counter[str] = Counter()
        self.traps: dict[str, dict[str, Any]] = {}

    def emit(self, time: Time, event: Event) -> None:
        entry = LogEntry(self.count, time, event)
        self.count += 1
        self.types[event.type] += 1
        self.names.learn(event)
        if event.type in QUIET:
            return
        said = line(entry, self.names)  # told now: the names of this moment
        self.entries.append(entry)
        self.lines.append(said)
        trap = event.fields.get("trap")
        if isinstance(trap, str) and event.type.startswith(("trap.", "part.")):
            record = self.traps.setdefault(
                trap, {"fired": 0, "rearmed": 0, "expired": 0, "history": []}
            )
            key = {"trap.fired": "fired", "part.rearmed": "rearmed", "part.expired": "expired"}
            if event.type in key:
                record[key[event.type]] += 1
            history: list[dict[str, Any]] = record["history"]
            history.append(said)
            del history[:-HISTORY_KEPT]

    def seen(self, types: tuple[str, ...]) -> int:
        """How many events of these types (any but dice if none) were logged so far."""
        if not types:
            return self.count - sum(self.types[t] for t in QUIET)
        return sum(self.types[t] for t in types)


def line(entry: LogEntry, names: Names | None = None) -> dict[str, Any]:
    """A log line for the page: the line itself and its sentence
    (:func:`undercroft.render.keep_lines.sentence`)."""
    return {"entry": entry.to_json(), "text": sentence(entry.event, names)}


def world_names(world: World) -> Names:
    """The names of a live world's beings and structures: those there now, and any id
    the log names later looked up in the world when first told."""

    def lookup(some_id: str) -> str | None:
        found = Names()
        being = world.beings.get(some_id)
        if being is not None:
            found.being(some_id, being.breed)
        structure = world.structures.get(some_id)
        if structure is not None:
            found.structure(some_id, structure.kind, structure.name)
        return found.known.get(some_id)

    names = Names(lookup)
    for being in world.beings.values():
        names.being(being.id, being.breed)
    for structure in world.structures.values():
        names.structure(structure.id, structure.kind, structure.name)
    return names


class KeepWatch:
    """One keep world watched from the browser (see the module docstring)."""

    def __init__(self, world_id: str, scenario: str, seed: int) -> None:
        self.id = world_id
        self.scenario = scenario
        self.world = build_world(scenario, seed=seed)
        self.log = TailLog(world_names(self.world))
        self.world.attach_log(self.log)
        self.token = new_token()
        self.lock = threading.Lock()
        self.listeners: set[Callable[[], None]] = set()

    def finished(self) -> bool:
        return False  # a world runs on; the hub keeps the newest

    def advance(self, minutes: int | None = None, kind: str = "any") -> dict[str, Any]:
        """Run ``minutes`` more (1 to a week), or with ``None`` up to the end of the minute
        of the next event of ``kind`` (one of :data:`NEXT_KINDS`), a week at most."""
        with self.lock:
            world = self.world
            if minutes is not None:
                world.run(world.now + minutes)
                return self._view()
            types = NEXT_KINDS[kind]
            before = self.log.seen(types)
            limit = world.now + MAX_ADVANCE
            while self.log.seen(types) == before:
                due = world.queue.items[0][0] if world.queue.items else None
                if due is None or due > limit:
                    world.run(limit)
                    break
                world.step()
            else:
                # Found: finish the minute it came in, so the world stands at a whole
                # minute, the same as a world run straight to it (World.run).
                world.run(world.now)
            view = self._view()
            view["found"] = self.log.seen(types) > before
            return view

    def command(self, data: Any) -> dict[str, Any]:
        """Carry out one keeper command (a script item without ``when``). Refused by the
        parser or by the rules: 422 with the reason, and the world unchanged."""
        with self.lock:
            try:
                cmd = parse_command(self.world, data)
            except CommandError as exc:
                raise RefusalError(422, exc.reason) from None
            result = execute(self.world, cmd)
            if not result.accepted:
                rules = f" ({', '.join(result.rules)})" if result.rules else ""
                raise RefusalError(422, f"{cmd.verb} refused: {result.reason}{rules}")
            view = self._view()
            fields = result.event(cmd).fields
            view["command"] = {
                "verb": cmd.verb,
                "args": cmd.args(),
                "effect": result.effect,
                "text": command_sentence(fields, self.log.names),
            }
            return view

    def adventurer(self, adv_id: str) -> dict[str, Any]:
        """K-LEARN-07: what one adventurer knows and its bonuses (``run keep --inspect``)."""
        with self.lock:
            adv = self.world.beings.get(adv_id)
            if not isinstance(adv, Adventurer):
                raise RefusalError(404, f"no adventurer {adv_id!r} came to this world")
            return learning.view(self.world, adv)

    def view(self) -> dict[str, Any]:
        with self.lock:
            return self._view()

    def _view(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            **world_view(self.world),
            "log": list(self.log.lines)[-100:],
            "lines": self.log.count,
            "traps": self.log.traps,
        }


def scenarios() -> list[str]:
    return shipped()
