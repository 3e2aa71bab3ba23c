"""Joining and leaving a fight, as the rules below the fighters need it.

When a being of your side learns of an enemy (it sees one, K-PERC-01; it is hit, K-PERC-02;
it hears a noise, K-PERC-03; it wakes, K-WAKE-02; a trap lets it go, K-TRAP-03) its stance
decides whether it fights (:func:`undercroft.keep.rules.fighters.consider`, registered here with
:func:`considers`). Perception, combat, trap effects and the fallen rules call
:func:`consider` and the plain steps out of a fight here, so they import none of the
fighters' rules, which use theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from undercroft.keep.rules import movement, stepping
from undercroft.keep.state.actors import Being, Condition, Creature, Job, Master, Minion, Side

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

Consider = Callable[["World", Being], None]

_CONSIDER: list[Consider] = []
"""Whether a being that learned of an enemy joins the fight: registered by
:mod:`undercroft.keep.rules.fighters` (K-STANCE-01)."""


def considers(fn: Consider) -> Consider:
    """Register how a being decides to join a fight (the fighters' rules do, once)."""
    _CONSIDER[:] = [fn]
    return fn


def consider(world: World, being: Being) -> None:
    """It learned of an enemy (or woke, or was given an order): does it join the fight?
    Decided by the registered fighters' rule."""
    if not _CONSIDER:
        raise RuntimeError("undercroft.keep.rules.fighters is not loaded: nobody joins a fight")
    _CONSIDER[0](world, being)


def can_fight(being: Being) -> bool:
    """Your Master, loyal minions, lair creatures and summoned spiders, up and about."""
    if not isinstance(being, Master | Minion | Creature):
        return False
    return (
        being.side() is Side.KEEP
        and being.present
        and being.condition is Condition.UP
        and being.carried_by is None
    )


def leave_fight(world: World, being: Being) -> None:
    """Out of the fight: its tile is free again, its queued turn stale."""
    if being.fighting:
        stepping.vacate(world, being)
    being.fighting = False
    being.fight_gen += 1
    being.decision = ""
    world.forget("viewers")


def go_home(world: World, being: Being) -> None:
    """After a fight: a minion back to its work (or, with none, to its place); a creature
    to its lair; the Master to his place."""
    if isinstance(being, Minion) and being.job in (Job.TRAPS, Job.CHORES):
        world.request_dispatch()
        return
    home = being.home
    if home is not None and being.pos != home and can_fight(being):
        movement.walk_to(world, being, home)
