"""Saving a world mid-run and loading it back to continue identically.

A save is one JSON object holding the whole mutable state — clock, queue (with its
sequence counter), the RNG's position in its stream, grid, beings, structures, wiring,
tasks, scenario labels and script, the workload so far — and a copy of the ruleset, so
a save needs nothing else to load. Loading rebuilds every cache from that state; the
world then produces the same events a run that never stopped would have. Files are
written atomically (core ``write_text_atomic``).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, model_validator

from undercroft.core.content import ContentError, Schema, format_key
from undercroft.core.dice import DiceSampler
from undercroft.core.files import PathError, check_input, write_text_atomic
from undercroft.core.grid import Grid, Pos
from undercroft.keep import invasion_save
from undercroft.keep.content.calendar import MAX_DAYS
from undercroft.keep.content.ruleset import Ruleset
from undercroft.keep.scenario import shipped
from undercroft.keep.state.clock import EventQueue, can_handle
from undercroft.keep.state.stats import Workload
from undercroft.keep.state.structures import (
    Mechanism,
    Site,
    Structure,
    Trigger,
    structure_from_json,
)
from undercroft.keep.state.tasks import Task
from undercroft.keep.state.wiring import Wiring
from undercroft.keep.state.world import Stockpile, World

FORMAT = "undercroft-keep-save"
FORMAT_VERSION = 1


class SaveError(ValueError):
    """A save file that cannot be loaded; names the file and what is wrong."""


# -- what a save must look like before it is rebuilt ---------------------------------------

Count = Annotated[int, Field(ge=0)]
XY = tuple[int, int]


class _StockpileSave(Schema):
    pos: XY
    metal: Count
    reserved: Count

    @model_validator(mode="after")
    def _reserved_is_held(self) -> _StockpileSave:
        if self.reserved > self.metal:
            raise ValueError(f"reserved {self.reserved} is more than the metal held, {self.metal}")
        return self


class _QueueSave(Schema):
    next_seq: Count
    items: list[
        tuple[Count, Count, Count, str, list[Any]]
        | tuple[Count, Count, Count, str, list[Any], Annotated[int, Field(ge=1, le=599)]]
    ]
    """[minute, priority, seq, action, args] and, for an item inside its minute, its tick."""


class _SaveSchema(Schema):
    """The top level of a save: types and bounds (a negative clock or metal is refused)."""

    format: Literal["undercroft-keep-save"]
    format_version: Literal[1]
    scenario: str
    seed: Annotated[int, Field(ge=0, le=2**64 - 1)]
    now: Count
    start_minute: Count = 0
    ruleset: dict[str, Any]
    grid: str
    markers: dict[str, XY]
    portals: list[XY]
    sanctum: XY
    stockpile: _StockpileSave | None
    lairs: dict[str, XY]
    rng: dict[str, Any]
    queue: _QueueSave
    counters: dict[str, Count]
    labels: dict[str, str]
    scenario_days: Annotated[int, Field(ge=1, le=MAX_DAYS)]
    script: list[dict[str, Any]]
    beings: list[dict[str, Any]]
    structures: list[dict[str, Any]]
    wiring: dict[str, Any]
    tasks: list[dict[str, Any]]
    workload: dict[str, Any]
    events_emitted: Count
    invasions: dict[str, Any] | None = None
    """The invasion systems' state (keep.invasion_save); none in a save from before them."""
    scenario_file: str | None = None
    """The scenario file of a world not set up from a shipped scenario."""


def _schema_problems(text: str) -> list[str]:
    """Every way the save's top level breaks :class:`_SaveSchema`, as ``key: message``."""
    try:
        _SaveSchema.model_validate_json(text)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            loc = tuple(p for p in error["loc"] if isinstance(p, str | int))
            got = f" (got {error['input']!r})" if error["type"] not in ("missing",) else ""
            if len(got) > 80:
                got = ""
            problems.append(f"{format_key(loc) or '(file)'}: {error['msg']}{got}")
        return problems
    return []


def _check_places(world: World) -> None:
    """Everything saved with a place stands on the map; every queued item is one the world
    knows how to carry out, and none is due before the clock."""
    grid = world.grid
    places: list[tuple[str, Pos]] = [("sanctum", world.sanctum)]
    places += [(f"markers.{k}", p) for k, p in grid.markers.items()]
    places += [(f"portals[{i}]", p) for i, p in enumerate(world.portals)]
    places += [(f"lairs.{k}", p) for k, p in world.lairs.items()]
    if world.stockpile is not None:
        places.append(("stockpile.pos", world.stockpile.pos))
    places += [(f"beings: {b.id}", b.pos) for b in world.beings.values()]
    places += [(f"structures: {s.id}", s.pos) for s in world.structures.values()]
    for key, pos in places:
        if not grid.in_bounds(pos):
            raise ValueError(f"{key}: {[pos.x, pos.y]} is off the {grid.width}x{grid.height} map")
    for i, (minute, _tick, _priority, _seq, action, _args) in enumerate(sorted(world.queue.items)):
        if not can_handle(action):
            raise ValueError(f"queue.items[{i}]: unknown action {action!r}")
        if minute < world.now:
            raise ValueError(
                f"queue.items[{i}]: due at minute {minute}, before the clock ({world.now})"
            )


def _check_names(world: World) -> None:
    """The save names a scenario that can be found, and every structure is of a kind of
    the saved ruleset that fits its class (a trigger of a trigger kind, K-TRAP-02/03)."""
    if world.scenario not in shipped() and world.scenario_file is None:
        raise ValueError(
            f"scenario: {world.scenario!r} is no shipped scenario ({', '.join(shipped())}) "
            "and the save names no scenario file"
        )
    for s in world.structures.values():
        known = _kinds_for(world.ruleset, s)
        if s.kind not in known:
            raise ValueError(
                f"structures: {s.id}: unknown {type(s).__name__.lower()} kind {s.kind!r}"
                f" (known: {', '.join(known)})"
            )


def _kinds_for(rules: Ruleset, structure: Structure) -> Collection[str]:
    """The kinds a structure of this class may be."""
    if isinstance(structure, Trigger):
        return list(rules.triggers)
    if isinstance(structure, Mechanism):
        return list(rules.mechanisms)
    if isinstance(structure, Site):
        return rules.build_kinds()
    return [type(structure).__name__.lower()]  # a door, lock, timer or barricade


def _xy(p: Pos) -> list[int]:
    return [p.x, p.y]


def to_json(world: World) -> dict[str, Any]:
    """The whole world as JSON-able data."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "scenario": world.scenario,
        "seed": world.seed,
        "now": world.now,
        "start_minute": world.start_minute,
        "ruleset": dict(world.ruleset.source),
        "grid": world.grid.to_text(markers=False),
        "markers": {k: _xy(v) for k, v in world.grid.markers.items()},
        "portals": [_xy(p) for p in world.portals],
        "sanctum": _xy(world.sanctum),
        "stockpile": world.stockpile.to_json() if world.stockpile else None,
        "lairs": {k: _xy(v) for k, v in world.lairs.items()},
        "rng": world.rng.state(),
        "queue": world.queue.to_json(),
        "counters": dict(world.counters),
        "labels": dict(world.labels),
        "scenario_days": world.scenario_days,
        "script": list(world.script),
        "beings": [b.to_json() for b in world.beings.values()],
        "structures": [s.to_json() for s in world.structures.values()],
        "wiring": world.wiring.to_json(),
        "tasks": [t.to_json() for t in world.tasks.values()],
        "workload": world.workload.to_json(),
        "events_emitted": world.events_emitted,
        "invasions": invasion_save.to_json(world),
    } | ({} if world.scenario_file is None else {"scenario_file": world.scenario_file})


def from_json(data: dict[str, Any]) -> World:
    """Rebuild a world from :func:`to_json` (every cache recomputed)."""
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise SaveError(f"not a keep save of format version {FORMAT_VERSION}")
    grid = Grid.from_text(data["grid"])
    grid.markers = {k: Pos(int(x), int(y)) for k, (x, y) in data["markers"].items()}
    stock = data["stockpile"]
    world = World(
        ruleset=Ruleset.from_data(data["ruleset"], file="<saved ruleset>"),
        grid=grid,
        seed=int(data["seed"]),
        scenario=str(data["scenario"]),
        portals=[Pos(x, y) for x, y in data["portals"]],
        sanctum=Pos(*data["sanctum"]),
        stockpile=Stockpile(Pos(*stock["pos"]), stock["metal"], stock["reserved"])
        if stock
        else None,
        lairs={k: Pos(x, y) for k, (x, y) in data["lairs"].items()},
    )
    world.now = int(data["now"])
    world.start_minute = int(data.get("start_minute", 0))
    world.rng = DiceSampler.from_state(world.seed, data["rng"])
    world.queue = EventQueue.from_json(data["queue"])
    world.counters = {k: int(v) for k, v in data["counters"].items()}
    world.labels = {k: str(v) for k, v in data["labels"].items()}
    world.scenario_days = int(data["scenario_days"])
    world.scenario_file = data.get("scenario_file")
    world.script = [dict(item) for item in data["script"]]
    for b in data["beings"]:
        being = invasion_save.being(b)
        world.beings[being.id] = being
    for s in data["structures"]:
        structure = structure_from_json(s)
        world.structures[structure.id] = structure
        world.index_structure(structure)
    world.wiring = Wiring.from_json(data["wiring"])
    world.wiring_changed()
    world.tasks = {t.id: t for t in (Task.from_json(d) for d in data["tasks"])}
    world.workload = Workload.from_json(data["workload"])
    world.events_emitted = int(data["events_emitted"])
    invasion_save.restore(world, data.get("invasions"))
    return world


def clone_world(world: World) -> World:
    """An independent copy of ``world`` that goes on exactly as it would (the save's round
    trip in memory, with no log open): for search and what-if play. ``copy.deepcopy`` is
    no way to copy a world: its sight and pathfinding caches hold C data, and compiled
    (``undercroft.native``) its classes do not pickle."""
    return from_json(json.loads(json.dumps(to_json(world))))


def save_world(world: World, path: str | Path) -> None:
    """Write the whole world as JSON, atomically (continues identically when loaded)."""
    write_text_atomic(Path(path), json.dumps(to_json(world), separators=(",", ":")) + "\n")


def _json(value: Any) -> str:
    """What a JSON value is, in JSON's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array"


def load_world(path: str | Path) -> World:
    """Read a save back; anything that is not a keep save this version wrote, or that
    breaks its bounds, is a :class:`SaveError` naming the file and the key."""
    path = Path(path)
    try:
        check_input(path)
        text = path.read_text(encoding="utf-8")
    except PathError as exc:
        raise SaveError(f"--resume {path}: {exc.reason}") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path}: not a keep save: not UTF-8 text ({exc.reason})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}: not a JSON save file: {exc.msg}") from None
    except ValueError as exc:  # a number over Python's digit limit
        raise SaveError(f"{path}: not a keep save: {exc}") from None
    except RecursionError:
        raise SaveError(f"{path}: not a keep save: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise SaveError(f"{path}:1: not a keep save: a save is one JSON object, not {_json(data)}")
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise SaveError(
            f"{path}:1: format: not a keep save of format version {FORMAT_VERSION} "
            f"(format {data.get('format')!r}, format_version {data.get('format_version')!r})"
        )
    problems = _schema_problems(text)
    if problems:
        shown = "; ".join(problems[:5]) + (
            f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        )
        raise SaveError(f"{path}:1: not a usable keep save: {shown}")
    try:
        world = from_json(data)
        _check_places(world)
        _check_names(world)
    except ContentError as exc:
        raise SaveError(
            f"{path}:1: ruleset: the saved ruleset is not valid: {exc.problems[0]}"
        ) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        what = f"the key {exc.args[0]!r} is missing" if isinstance(exc, KeyError) else str(exc)
        raise SaveError(f"{path}:1: not a usable keep save: {what}") from None
    return world
