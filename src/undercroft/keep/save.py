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
from pathlib import Path
from typing import Any

from undercroft.core.dice import DiceSampler
from undercroft.core.events import write_text_atomic
from undercroft.core.grid import Grid, Pos
from undercroft.keep import invasion_save
from undercroft.keep.clock import EventQueue
from undercroft.keep.jobs import Task
from undercroft.keep.ruleset import Ruleset
from undercroft.keep.stats import Workload
from undercroft.keep.structures import structure_from_json
from undercroft.keep.wiring import Wiring
from undercroft.keep.world import Stockpile, World

FORMAT = "undercroft-keep-save"
FORMAT_VERSION = 1


class SaveError(ValueError):
    """A save file that cannot be loaded; names the file and what is wrong."""


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
    }


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
    world.rng = DiceSampler.from_state(world.seed, data["rng"])
    world.queue = EventQueue.from_json(data["queue"])
    world.counters = {k: int(v) for k, v in data["counters"].items()}
    world.labels = {k: str(v) for k, v in data["labels"].items()}
    world.scenario_days = int(data["scenario_days"])
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


def save(world: World, path: Path) -> None:
    write_text_atomic(path, json.dumps(to_json(world), separators=(",", ":")) + "\n")


def load(path: Path) -> World:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}: not a JSON save file: {exc.msg}") from exc
    try:
        return from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"{path}: not a usable keep save ({exc})") from exc
