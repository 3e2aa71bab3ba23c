"""Locks: arming and disarming, and who may pass or open what (K-LOCK-01..03).

A lock is built on a door and starts armed (K-LOCK-01); "Disarm lock" makes the door a
normal door again and "Arm lock" locks it again. Your Master, your loyal minions, the
creatures living in your lairs and visiting merchants open locked doors and pass; nobody
else does (K-LOCK-02; a minion in Blind Rage has turned against you, ruling R-K-OWN-01).
To reach an enemy, a minion opens a door only when ordered to attack it, a lair creature
never does, and the Master always may (K-LOCK-03).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.core.events import Event
from undercroft.keep.state.actors import Being, Creature, Master, Merchant, Minion, Side
from undercroft.keep.state.structures import Lock

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def may_pass_locks(being: Being) -> bool:
    """K-LOCK-02: Master, loyal minions, lair creatures and merchants pass locked doors."""
    if isinstance(being, Master | Merchant):
        return True
    if isinstance(being, Minion | Creature):
        return being.side() is Side.KEEP
    return False


def may_open_to_reach(being: Being, enemy_id: str) -> bool:
    """K-LOCK-03: may this being open a closed door to get at ``enemy_id``?"""
    if isinstance(being, Master):
        return True
    if isinstance(being, Minion):
        return being.side() is Side.KEEP and enemy_id in being.attack_orders
    return False


def set_armed(world: World, lock: Lock, armed: bool, by: str, rules: tuple[str, ...]) -> None:
    """Arm or disarm a lock, logging ``lock.armed`` / ``lock.disarmed``."""
    if lock.armed == armed:
        return
    lock.armed = armed
    fields = {"door": lock.door, "lock": lock.id, "by": by}
    if armed:
        world.emit(Event("lock.armed", rules, fields))
    else:
        world.emit(Event("lock.disarmed", rules, fields))
