"""Posting and dropping minion work (the :class:`~undercroft.keep.state.tasks.Task` data).

Rule modules that make work (a site waiting for metal or its build, K-BUILD-01; a trap
part to rearm, K-REARM-02, K-DECAY-02; a breached door, K-FORCE-05; a fallen being to
carry or heal, K-WAKE-01, K-AFTER-02, ruling R-K-WAKE-02) post it here, and who takes it
and how it is done is :mod:`undercroft.keep.rules.jobs`, which registers how a minion lets go
of its task (:func:`releases`) and who takes open work
(:func:`undercroft.keep.state.world.provides_dispatch`). So the modules that post work never
import the jobs rules, and the jobs rules may import them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from undercroft.keep.state.tasks import Task, TaskKind

if TYPE_CHECKING:
    from undercroft.keep.state.actors import Minion
    from undercroft.keep.state.world import World


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


Release = Callable[["World", "Minion"], None]

_RELEASE: list[Release] = []
"""How a minion lets go of its task: registered by :mod:`undercroft.keep.rules.jobs`."""


def releases(fn: Release) -> Release:
    """Register how a minion stops its task (the jobs rules do, once)."""
    _RELEASE[:] = [fn]
    return fn


def release(world: World, minion: Minion) -> None:
    """The minion stops its task (new job, Blind Rage, no way there, a fight, a fall, its
    target gone); the work stays open. Carried out by the registered jobs rule."""
    if not _RELEASE:
        raise RuntimeError("undercroft.keep.rules.jobs is not loaded: nothing can release a task")
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
