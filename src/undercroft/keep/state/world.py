"""The keep world: state, clock, event queue, the seeded RNG, and the loop that runs them.

One :class:`World` holds everything that changes in a game: the grid, the beings, the
structures, the wiring, the work waiting for minions, the queue of things due and the one
:class:`~undercroft.core.dice.DiceSampler` every system draws from (seeded from the run
seed, passed explicitly, never module-level). The rules themselves are in one module per
system (``traps``, ``doors``, ``locks``, ``jobs``, ``building``, ``movement``,
``visitors``, ...); they act on the world, and the world imports none of them: each
registers the queue items it carries out (:func:`undercroft.keep.state.clock.handles`), the jobs
rules register who takes open work (:func:`provides_dispatch`), and importing
:mod:`undercroft.keep` loads them all. Keeper commands are
:func:`undercroft.keep.commands.execute`.

Time (ruling R-K-CLOCK-01) jumps from one queued item to the next, in the total order
(minute, priority, sequence number) of :mod:`undercroft.keep.state.clock`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import tcod.path
from numpy.typing import NDArray

from undercroft import __version__
from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.events import (
    Actor,
    Event,
    EventLog,
    EventSink,
    Header,
    KeepTime,
    NullLog,
    StreamingLog,
)
from undercroft.core.grid import Grid, Pos, Terrain
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.core.sight import Sight
from undercroft.keep.content.calendar import TICKS_PER_MINUTE, day_of, day_start
from undercroft.keep.content.ruleset import KeepOptions, Ruleset
from undercroft.keep.state.actors import Being, Creature, Master, Merchant, Minion
from undercroft.keep.state.clock import EventQueue, Priority, QueueItem, handler_for
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.invasion_state import InvasionState
from undercroft.keep.state.orders import Command, CommandResult
from undercroft.keep.state.stats import Workload
from undercroft.keep.state.structures import (
    Door,
    Lock,
    Mechanism,
    Site,
    Structure,
    Timer,
    TrapPart,
    Trigger,
)
from undercroft.keep.state.tasks import Task
from undercroft.keep.state.wiring import Circuit, DragPlan, Role, Wiring


class WorldError(ValueError):
    """A request the world cannot carry out (an unknown id, a bad save file)."""


class Stockpile:
    """Where metal is kept (K-BUILD-01): how much, and how much is promised to sites."""

    def __init__(self, pos: Pos, metal: int, reserved: int = 0) -> None:
        self.pos = pos
        self.metal = metal
        self.reserved = reserved

    @property
    def free(self) -> int:
        return self.metal - self.reserved

    def to_json(self) -> dict[str, Any]:
        return {"pos": [self.pos.x, self.pos.y], "metal": self.metal, "reserved": self.reserved}


S = TypeVar("S", bound=Structure)

STREAMS = ("director", "parties", "adventurers", "combat")
"""The random streams of the systems that came after the first: stream ``i`` (from 1) is
seeded with ``derive_seed(seed, i)``. Traps and building keep drawing from ``World.rng``,
seeded with the run seed itself as before invasions existed, so turning invasions on or
off never changes their dice; fights and trap effects draw from ``combat``."""


def make_streams(seed: int) -> dict[str, DiceSampler]:
    return {name: DiceSampler(derive_seed(seed, i)) for i, name in enumerate(STREAMS, 1)}


class World:
    """A keep game in progress. Build one with :func:`undercroft.keep.scenario.build_world`
    (or :func:`undercroft.keep.save.load_world`)."""

    def __init__(
        self,
        *,
        ruleset: Ruleset,
        grid: Grid,
        seed: int,
        scenario: str,
        portals: list[Pos],
        sanctum: Pos,
        stockpile: Stockpile | None = None,
        lairs: Mapping[str, Pos] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.options: KeepOptions = ruleset.options
        self.grid = grid
        self.seed = seed
        self.scenario = scenario
        self.scenario_file: str | None = None
        """The scenario file the world was set up from, when not a shipped scenario (a
        save names it, so a save's scenario is always one that can be found)."""
        self.portals = list(portals)
        self.sanctum = sanctum
        self.stockpile = stockpile
        self.lairs: dict[str, Pos] = dict(lairs or {})
        self.rng = DiceSampler(seed)
        self.streams = make_streams(seed)
        self.queue = EventQueue()
        self.now = 0
        self.start_minute = 0
        """The minute the game started (day 1 unless the scenario starts later,
        R-K-TIME-06)."""
        self.tick = 0
        """The time in ticks of the item being carried out (minute x 600 for minute items)."""
        self.invasion = InvasionState()
        self.departed: dict[str, Adventurer] = {}
        """Adventurers of the last invasions who left the map (K-LEARN-07's view of them)."""
        self.bodies: dict[Pos, str] = {}
        """One body per tile (ruling R-K-MOVE-01, K-CROWD-01): who stands where, among
        tile steppers (adventurers, prisoners, your beings in a fight)."""
        self.shared: dict[Pos, str] = {}
        """K-CROWD-02: the second kobold on a tile whose body is in :attr:`bodies`."""
        self.beings: dict[str, Being] = {}
        self.structures: dict[str, Structure] = {}
        self.wiring = Wiring()
        self.tasks: dict[str, Task] = {}
        self.counters: dict[str, int] = {}
        self.script: list[dict[str, Any]] = []
        self.scenario_days = 30
        """How many days the scenario suggests running (its ``days`` key)."""
        self.labels: dict[str, str] = {}
        """Scenario labels -> ids (minions, doors, prebuilt structures, visitors)."""
        self.workload = Workload()
        self.log: EventSink = NullLog()
        self.events_emitted = 0
        self._buffer: list[Event] | None = None
        self._dispatch_due = False
        self._tile: dict[Pos, str] = {}
        self._door_at: dict[Pos, str] = {}
        self._zones: dict[Pos, list[str]] | None = None
        self.structure_version = 0
        """Bumped whenever structures or wiring change (trigger lookups are cached by it)."""
        self._circuits: dict[str, Circuit] = {}
        self._paths: dict[DoorPassage, Pathfinder] = {}
        self._walks: dict[tuple[Pos, Pos, DoorPassage, int], int | None] = {}
        self._distances: dict[tuple[Pos, DoorPassage, int], NDArray[np.int32]] = {}
        self._sight: Sight | None = None
        self._epoch_version = grid.version
        self._reach: tuple[int, bool] = (-1, True)
        self._caches: dict[str, tuple[Any, dict[Any, Any]]] = {}

    # -- ids and lookups ------------------------------------------------------------

    def new_id(self, prefix: str) -> str:
        """The next id of a kind: ``minion:1``, ``trap:3`` (numbered per kind from 1)."""
        number = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = number
        return f"{prefix}:{number}"

    def being(self, being_id: str) -> Being:
        found = self.beings.get(being_id)
        if found is None:
            raise WorldError(f"no one here has the id {being_id!r}")
        return found

    def minion(self, minion_id: str) -> Minion:
        found = self.beings.get(minion_id)
        if not isinstance(found, Minion):
            raise WorldError(f"{minion_id!r} is not a minion of this dungeon")
        return found

    def minions(self) -> list[Minion]:
        return [b for b in self.beings.values() if isinstance(b, Minion) and b.present]

    def present(self) -> Iterator[Being]:
        return (b for b in self.beings.values() if b.present)

    def structure(self, structure_id: str) -> Structure:
        found = self.structures.get(structure_id)
        if found is None:
            raise WorldError(f"nothing built here has the id {structure_id!r}")
        return found

    def of_type(self, cls: type[S]) -> list[S]:
        return [s for s in self.structures.values() if isinstance(s, cls)]

    def structure_at(self, pos: Pos) -> str | None:
        """The structure on a tile: a trap part, timer, barricade or site, else a door."""
        return self._tile.get(pos) or self._door_at.get(pos)

    def door_id_at(self, pos: Pos) -> str | None:
        return self._door_at.get(pos)

    def door_at(self, pos: Pos) -> Door | None:
        door_id = self._door_at.get(pos)
        return None if door_id is None else self.door(door_id)

    def door(self, door_id: str) -> Door:
        found = self.structures.get(door_id)
        if not isinstance(found, Door):
            raise WorldError(f"{door_id!r} is not a door")
        return found

    def lock_of(self, door: Door) -> Lock | None:
        if door.lock is None:
            return None
        found = self.structures[door.lock]
        assert isinstance(found, Lock)
        return found

    def role_of(self, structure_id: str) -> Role:
        role = type(self.structures[structure_id]).role
        if role is None:
            raise WorldError(f"{structure_id} cannot be wired")
        return role

    def circuit_of(self, structure_id: str) -> Circuit:
        """The circuit a structure is wired into (K-WIRE-06), cached until wiring changes."""
        found = self._circuits.get(structure_id)
        if found is None:
            found = self.wiring.circuit_of(structure_id, self.role_of)
            self._circuits[structure_id] = found
        return found

    def trap_of(self, part: TrapPart) -> str | None:
        """The trap (``trap:N``, the mechanism) a part belongs to, if it is wired to one."""
        if isinstance(part, Mechanism):
            return part.id
        return self.circuit_of(part.id).mechanism

    def circuit_delay(self, circuit: Circuit) -> int:
        """K-WIRE-03: the timers' delays (their sum, ruling R-K-WIRE-02)."""
        total = 0
        for timer_id in circuit.timers:
            timer = self.structures[timer_id]
            assert isinstance(timer, Timer)
            total += timer.delay
        return total

    def trigger_zones(self) -> dict[Pos, list[str]]:
        """Tile -> the triggers a walker on it sets off (R-K-TRAP-01 areas)."""
        if self._zones is None:
            zones: dict[Pos, list[str]] = {}
            for trigger in self.of_type(Trigger):
                if trigger.lever:
                    continue
                area = self.ruleset.triggers[trigger.kind].area
                for dy in range(-area, area + 1):
                    for dx in range(-area, area + 1):
                        p = trigger.pos.offset(dx, dy)
                        if self.grid.in_bounds(p) and self.options.within(p, trigger.pos, area):
                            zones.setdefault(p, []).append(trigger.id)
            self._zones = zones
        return self._zones

    def pathfinder(self, passage: DoorPassage) -> Pathfinder:
        finder = self._paths.get(passage)
        if finder is None:
            finder = Pathfinder(self.grid, passage)
            self._paths[passage] = finder
        return finder

    def distances(self, origin: Pos, passage: DoorPassage) -> NDArray[np.int32]:
        """Walking distances from ``origin`` to every tile, -1 where there is no way (cached
        per grid version; do not modify). Searched with python-tcod's ``Pathfinder``: its
        ``dijkstra2d`` (21.2.2) gives the same map but keeps memory it never frees."""
        key = (origin, passage, self.grid.version)
        found = self._distances.get(key)
        if found is None:
            if len(self._distances) >= 512:
                self._distances.clear()
            costs = self.pathfinder(passage).costs()
            costs[origin.y, origin.x] = max(int(costs[origin.y, origin.x]), 1)
            graph = tcod.path.SimpleGraph(cost=costs, cardinal=1, diagonal=0)
            finder = tcod.path.Pathfinder(graph)
            finder.add_root((origin.y, origin.x))
            finder.resolve()
            found = np.array(finder.distance, dtype=np.int32)
            found[found == np.iinfo(np.int32).max] = -1
            self._distances[key] = found
        return found

    def walk_distance(self, origin: Pos, goal: Pos, passage: DoorPassage) -> int | None:
        """The walking distance from ``origin`` to ``goal`` (None: no way), cached per grid
        version. One A* search a pair: minions weigh a few tasks at a time, so this is
        cheaper than a distance map, and python-tcod's ``dijkstra2d`` (21.2.2) keeps memory
        it never frees."""
        key = (origin, goal, passage, self.grid.version)
        if key in self._walks:
            return self._walks[key]
        if len(self._walks) >= 4096:
            self._walks.clear()
        path = self.pathfinder(passage).path(origin, goal)
        found = None if path is None else len(path)
        self._walks[key] = found
        return found

    def map_epoch(self) -> int:
        """A count of map changes that survives a save (the grid's own version does not):
        adventurers' plans are stamped with it (ruling R-K-MOVE-01)."""
        if self.grid.version != self._epoch_version:
            self._epoch_version = self.grid.version
            self.invasion.map_epoch += 1
        return self.invasion.map_epoch

    def cached(self, name: str, version: Any = None) -> dict[Any, Any]:
        """A cache of the invasion systems (routes, corridors, triggers near a tile, ...),
        emptied whenever ``version`` changes (by default the map epoch). Caches only spare
        work: what is in them never changes a result."""
        current = self.map_epoch() if version is None else version
        entry = self._caches.get(name)
        if entry is None or entry[0] != current:
            entry = (current, {})
            self._caches[name] = entry
        return entry[1]

    def forget(self, name: str) -> None:
        """Empty one of the :meth:`cached` caches now (what it holds went stale)."""
        self._caches.pop(name, None)

    def ground(self) -> tuple[str, int]:
        """A cache version for what only the ground decides (doors opening do not count)."""
        return ("ground", self.grid.terrain_version)

    def solid(self) -> NDArray[np.bool_]:
        """The grid's solid tiles, cached while the ground stays as it is (do not modify)."""
        cache = self.cached("solid", self.ground())
        found: NDArray[np.bool_] | None = cache.get("solid")
        if found is None:
            found = cache["solid"] = self.grid.solid()
        return found

    def keep_epoch(self) -> None:
        """The grid as it is now is the current epoch (a loaded save's grid)."""
        self._epoch_version = self.grid.version

    def sight(self) -> Sight:
        """Cached lines of sight on this grid (emptied when the grid changes)."""
        if self._sight is None:
            self._sight = Sight(self.grid, cache_size=4096)
        return self._sight

    def reachable(self) -> bool:
        """K-TIME-05: adventurers can reach the dungeon: some edge portal has a walking way
        to the sanctum (every door counted passable, they pick or bash locks; water waded)."""
        if self._reach[0] != self.grid.version:
            finder = self.pathfinder(DoorPassage.ALL)
            ok = any(finder.path(p, self.sanctum) is not None for p in self.portals)
            self._reach = (self.grid.version, ok or self.sanctum in self.portals)
        return self._reach[1]

    def adventurers(self) -> list[Adventurer]:
        """Adventurers on the map (not beyond the edge, not gone, not prisoners)."""
        return [
            b
            for b in self.beings.values()
            if isinstance(b, Adventurer) and b.where is Whereabouts.IN
        ]

    def schedule_tick(self, at_tick: int, priority: Priority, action: str, *args: Any) -> None:
        """Queue an item at a time in ticks (walkers stepping tile by tile)."""
        if at_tick < self.tick:
            raise WorldError(f"cannot schedule {action} in the past ({at_tick} < {self.tick})")
        self.queue.push_at_tick(at_tick, priority, action, *args)

    def can_carry_wire(self, pos: Pos) -> bool:
        if not self.grid.in_bounds(pos):
            return False
        return self.grid.terrain_at(pos) in (Terrain.FLOOR, Terrain.DOOR)

    # -- changes that invalidate caches ---------------------------------------------

    def index_structure(self, structure: Structure) -> None:
        if isinstance(structure, Door):
            self._door_at[structure.pos] = structure.id
        elif not isinstance(structure, Lock):
            self._tile[structure.pos] = structure.id
        self.wiring_changed()

    def unindex_structure(self, structure: Structure) -> None:
        if isinstance(structure, Door):
            self._door_at.pop(structure.pos, None)
        elif not isinstance(structure, Lock) and self._tile.get(structure.pos) == structure.id:
            del self._tile[structure.pos]
        self.wiring_changed()

    def wiring_changed(self) -> None:
        self._circuits.clear()
        self._zones = None
        self.structure_version += 1

    # -- the log --------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Send an event to the log at the current minute (buffered inside a command)."""
        if self._buffer is not None:
            self._buffer.append(event)
            return
        self.events_emitted += 1
        self.workload.note(self.now, event)
        self.log.emit(KeepTime(self.now), event)

    def header(self) -> Header:
        """The log's first line: every actor present at the start (beings, structures)."""
        actors = [Actor(b.id, b.kind, b.profile()) for b in self.present()]
        actors += [
            Actor(s.id, type(s).__name__.lower(), s.profile())
            for s in self.structures.values()
            if not isinstance(s, Site)
        ]
        return Header(
            ruleset="keep",
            version=__version__,
            seed=self.seed,
            scenario=self.scenario,
            options=self.options.to_json(),
            actors=tuple(actors),
        )

    def attach_log(self, sink: EventSink) -> EventSink:
        self.log = sink
        return sink

    def open_log(self, path: str | Path | None = None) -> EventLog | StreamingLog:
        """Start logging: in memory, or streamed to ``path`` (completed by :meth:`close_log`)."""
        sink: EventLog | StreamingLog
        sink = EventLog(self.header()) if path is None else StreamingLog(path, self.header())
        self.log = sink
        return sink

    def close_log(self) -> dict[str, Any]:
        """Write the summary line and finish the log; returns the summary."""
        summary = self.summary()
        close = getattr(self.log, "close", None)
        if close is not None:
            close(summary)
        return summary

    def summary(self) -> dict[str, Any]:
        """The headline numbers of the run so far (the log's ``summary`` line, K-DECAY-04)."""
        return _API.summary(self)

    @contextmanager
    def held_events(self) -> Iterator[list[Event]]:
        """Hold back the events emitted inside the block (they fill the list it gives), so a
        keeper command is logged before its effects (:func:`undercroft.keep.commands.execute`)."""
        self._buffer = []
        try:
            yield self._buffer
        finally:
            self._buffer = None

    # -- scripts ----------------------------------------------------------------------

    def schedule_script(self, minute: int, item: Mapping[str, Any]) -> None:
        """Queue a scripted command or happening (data, so saves keep it)."""
        index = len(self.script)
        self.script.append(dict(item))
        self.queue.push(minute, Priority.SCRIPT, "script", index)

    def draw_wire(self, points: list[Pos]) -> DragPlan:
        """Draw a connection through ``points`` (K-WIRE-01); raises WiringError if refused."""
        wire_id = f"wire:{self.counters.get('wire', 0) + 1}"
        plan = self.wiring.plan(
            wire_id,
            points,
            structure_at=self.structure_at,
            role_of=self.role_of,
            can_carry=self.can_carry_wire,
        )
        self.new_id("wire")
        self.wiring.add(plan)
        self.wiring_changed()
        return plan

    # -- the loop -------------------------------------------------------------------

    def schedule(self, minute: int, priority: Priority, action: str, *args: Any) -> None:
        if minute < self.now:
            raise WorldError(f"cannot schedule {action} in the past ({minute} < {self.now})")
        self.queue.push(minute, priority, action, *args)

    def request_dispatch(self) -> None:
        self._dispatch_due = True

    def dispatch(self) -> None:
        """If work appeared or a minion came free, idle minions take open work now (R-K-JOB-01)."""
        if self._dispatch_due:
            self._dispatch_due = False
            _API.dispatch(self)

    def step(self) -> QueueItem | None:
        """Carry out the next queued item (advancing the clock to it)."""
        if not self.queue:
            return None
        item = self.queue.pop()
        self.now = item.minute
        self.tick = item.at_tick
        handler_for(item.action)(self, item.args)
        self.dispatch()
        return item

    def run(self, until: int) -> None:
        """Carry out everything due up to and including minute ``until``, then stand there."""
        if until < self.now:
            raise WorldError(f"cannot run back to minute {until} from {self.now}")
        self.dispatch()
        items = self.queue.items
        while items and items[0][0] <= until:
            self.step()
        self.now = until
        self.tick = max(self.tick, until * TICKS_PER_MINUTE)

    def run_days(self, days: int) -> None:
        """Run ``days`` more days: to the last minute of day ``d + days - 1``, where ``d`` is
        the day still to run (day 1 at the start; the next day at the end of a day)."""
        self.run(day_start(day_of(self.now + 1) + days) - 1)

    # -- the Python API's spelling (ARCHITECTURE.md, Interfaces) ------------------------

    @classmethod
    def from_scenario(
        cls,
        scenario: str | Path,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> World:
        """A world set up from a scenario name (shipped) or a TOML file path: the same as
        :func:`undercroft.keep.scenario.build_world`, which registers itself here."""
        return _API.build(scenario, seed=seed, options=options or {})

    def command(self, cmd: Command) -> CommandResult:
        """Carry out a keeper command now: the same as
        :func:`undercroft.keep.commands.execute`, which registers itself here."""
        return _API.execute(self, cmd)


class _Builder(Protocol):
    def __call__(
        self, ref: str | Path, *, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> World: ...


def _unloaded(*_: Any, **__: Any) -> Any:
    raise RuntimeError("import undercroft.keep: its rule modules provide this")


class _Provided:
    """The rule-level functions behind :meth:`World.from_scenario`, :meth:`World.command`,
    :meth:`World.dispatch` (who takes open work, R-K-JOB-01) and :meth:`World.summary`,
    registered by the modules that define them, so the state keeps the contract's
    spelling without importing a rule module."""

    def __init__(self) -> None:
        self.build: _Builder = _unloaded
        self.execute: Callable[[World, Command], CommandResult] = _unloaded
        self.dispatch: Callable[[World], None] = _unloaded
        self.summary: Callable[[World], dict[str, Any]] = _unloaded


_API = _Provided()

B = TypeVar("B", bound=_Builder)
E = TypeVar("E", bound=Callable[["World", "Command"], "CommandResult"])


def provides_scenarios(fn: B) -> B:
    """Register the scenario builder behind :meth:`World.from_scenario`."""
    _API.build = fn
    return fn


def provides_commands(fn: E) -> E:
    """Register the command executor behind :meth:`World.command`."""
    _API.execute = fn
    return fn


D = TypeVar("D", bound=Callable[["World"], None])
M = TypeVar("M", bound=Callable[["World"], dict[str, Any]])


def provides_dispatch(fn: D) -> D:
    """Register how idle minions take open work (the jobs rules do, R-K-JOB-01)."""
    _API.dispatch = fn
    return fn


def provides_summary(fn: M) -> M:
    """Register the run's headline numbers behind :meth:`World.summary`."""
    _API.summary = fn
    return fn


__all__ = ["Creature", "Master", "Merchant", "Minion", "Stockpile", "World", "WorldError"]
