"""The work waiting to be done, as data: :class:`Task`, its :class:`TaskKind`, posting one.

This is the state-level half of minion jobs: rule modules that make work (a site waiting
for metal or its build, K-BUILD-01; a trap part to rearm, K-REARM-02, K-DECAY-02; a
breached door, K-FORCE-05; a fallen being to carry or heal, K-WAKE-01, K-AFTER-02, ruling
R-K-WAKE-02) post it here, and who takes it and how it is done is
:mod:`undercroft.keep.jobs`, which registers how a minion lets go of its task
(:func:`releases`). So the modules that post work never import the jobs rules, and the
jobs rules may import them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from undercroft.keep.actors import Minion
    from undercroft.keep.world import World


class TaskKind(enum.Enum):
    """A kind of work."""

    REARM = "rearm"
    """Rearm a trap part that went off or ran out (K-REARM-02, K-DECAY-02)."""
    BUILD = "build"
    """Build a structure at a site whose metal has all arrived (K-BUILD-01)."""
    HAUL = "haul"
    """Carry a load of metal from the stockpile to a site (K-BUILD-01)."""
    RESTORE_DOOR = "restore_door"
    """Close a breached door and re-arm its lock (K-FORCE-05)."""
    CARRY = "carry"
    """Carry a fallen being to its bed, a cell, a pyre or a butcher table, or kill an
    unconscious adventurer where it lies (K-WAKE-01, K-AFTER-02, ruling R-K-WAKE-02)."""
    HEAL = "heal"
    """Heal a fallen being of your side, or a bleeding prisoner (K-WAKE-01): a minion
    with the ``heal`` ability's work, before any other (ruling R-K-WAKE-02)."""


@dataclass(eq=False)
class Task:
    """One piece of work, open or taken by a minion."""

    id: str
    kind: TaskKind
    target: str
    created: int
    minion: str | None = None
    phase: str = "go"
    load: int = 0
    token: int = 0
    to: list[Any] | None = None
    """A carry's destination once the body is lifted: ``[where, x, y]``."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "target": self.target,
            "created": self.created,
            "minion": self.minion,
            "phase": self.phase,
            "load": self.load,
            "token": self.token,
        }
        if self.to is not None:
            out["to"] = list(self.to)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Task:
        return cls(
            str(data["id"]),
            TaskKind(data["kind"]),
            str(data["target"]),
            int(data["created"]),
            data["minion"],
            str(data["phase"]),
            int(data["load"]),
            int(data["token"]),
            list(data["to"]) if data.get("to") is not None else None,
        )


def add_task(world: World, kind: TaskKind, target: str) -> Task | None:
    """Post a task unless the same work is already posted.

    Several minions may carry metal for one site at once (R-K-BUILD-01), so a haul already
    taken does not stop a new one; an open haul for the site does (one is enough: whoever
    takes it loads what the site still needs).
    """
    for task in world.tasks.values():
        if task.kind is not kind or task.target != target:
            continue
        if kind is not TaskKind.HAUL or task.minion is None:
            return None
    task = Task(world.new_id("task"), kind, target, world.now)
    world.tasks[task.id] = task
    world.request_dispatch()
    return task


Dispatch = Callable[["World"], None]

_DISPATCH: list[Dispatch] = []
"""Who takes open work: registered by :mod:`undercroft.keep.jobs` (ruling R-K-JOB-01)."""


def dispatches(fn: Dispatch) -> Dispatch:
    """Register how idle minions take open work (the jobs rules do, once)."""
    _DISPATCH[:] = [fn]
    return fn


def dispatch(world: World) -> None:
    """Idle minions take open work now (R-K-JOB-01), by the registered jobs rule."""
    if not _DISPATCH:
        raise RuntimeError("undercroft.keep.jobs is not loaded: nobody takes open work")
    _DISPATCH[0](world)


Release = Callable[["World", "Minion"], None]

_RELEASE: list[Release] = []
"""How a minion lets go of its task: registered by :mod:`undercroft.keep.jobs`."""


def releases(fn: Release) -> Release:
    """Register how a minion stops its task (the jobs rules do, once)."""
    _RELEASE[:] = [fn]
    return fn


def release(world: World, minion: Minion) -> None:
    """The minion stops its task (new job, Blind Rage, no way there, a fight, a fall, its
    target gone); the work stays open. Carried out by the registered jobs rule."""
    if not _RELEASE:
        raise RuntimeError("undercroft.keep.jobs is not loaded: nothing can release a task")
    _RELEASE[0](world, minion)


def cancel_for(world: World, target: str, kinds: tuple[TaskKind, ...] = ()) -> None:
    """Drop every task about a structure or site that is gone, or about a being that left,
    died, woke or was carried away (only ``kinds``, if given): a minion on its way to it
    stops, so no work outlives what it is about."""
    for task in list(world.tasks.values()):
        if _about(task, target, kinds) and task.minion is not None:
            release(world, world.minion(task.minion))
    for task in list(world.tasks.values()):  # releasing may have posted the work again
        if _about(task, target, kinds):
            del world.tasks[task.id]


def _about(task: Task, target: str, kinds: tuple[TaskKind, ...]) -> bool:
    return task.target == target and (not kinds or task.kind in kinds)


BODY_WORK = (TaskKind.CARRY, TaskKind.HEAL)
"""The tasks about a being (R-K-WAKE-02): they end when it leaves, dies, wakes or is
carried away (ruling R-K-JOB-01), and are posted afresh if it still needs something."""


def being_gone(world: World, being_id: str) -> None:
    """The being left the map (or is no longer in the dungeon): work about it ends."""
    cancel_for(world, being_id, BODY_WORK)
