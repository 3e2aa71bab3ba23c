"""Keeper commands as data: a typed API for scripts, tests and the web viewer.

Each command is a frozen dataclass (its ``verb`` and its logged ``args``); what came of one
is a :class:`CommandResult`. Carrying them out is :func:`undercroft.keep.commands.execute`
(behind :meth:`undercroft.keep.state.world.World.command`).

>>> Build("pressure_plate", Pos(3, 4)).args()
{'kind': 'pressure_plate', 'at': [3, 4]}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from undercroft.core.events import Event
from undercroft.core.grid import Pos
from undercroft.keep.state.actors import Job, Stance


class CommandError(ValueError):
    """A command the rules forbid or the world cannot carry out."""

    def __init__(self, reason: str, rules: tuple[str, ...] = ()) -> None:
        self.reason = reason
        self.rules = rules
        super().__init__(reason)


@dataclass(frozen=True)
class CommandResult:
    """What came of a command: accepted or refused (with why), and what it made."""

    accepted: bool
    reason: str = ""
    rules: tuple[str, ...] = ()
    effect: Mapping[str, Any] = field(default_factory=dict)

    def event(self, cmd: Command) -> Event:
        fields: dict[str, Any] = {"command": cmd.verb, **cmd.args(), "accepted": self.accepted}
        if not self.accepted:
            fields["reason"] = self.reason
        fields.update(self.effect)
        return Event("command", self.rules, fields)


def _xy(pos: Pos) -> list[int]:
    return [pos.x, pos.y]


@dataclass(frozen=True)
class Build:
    """Order a structure built at a tile (K-BUILD-01); a lock goes on a door's tile."""

    kind: str
    at: Pos
    name: str | None = None
    delay: int | None = None
    """For a timer: its delay in minutes (default: the ruleset's)."""

    verb: ClassVar[str] = "build"

    def args(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "at": _xy(self.at)}
        if self.name is not None:
            out["name"] = self.name
        if self.delay is not None:
            out["delay"] = self.delay
        return out


@dataclass(frozen=True)
class Move:
    """Move a trap part or timer to another tile (K-REARM-07: rearm state kept)."""

    structure: str
    to: Pos

    verb: ClassVar[str] = "move"

    def args(self) -> dict[str, Any]:
        return {"structure": self.structure, "to": _xy(self.to)}


@dataclass(frozen=True)
class Remove:
    """Remove a structure, a building site or a connection (``wire:N``)."""

    target: str

    verb: ClassVar[str] = "remove"

    def args(self) -> dict[str, Any]:
        return {"target": self.target}


@dataclass(frozen=True)
class Connect:
    """Drag a connection through waypoints (K-WIRE-01, joined or hopping per K-WIRE-04/05)."""

    path: tuple[Pos, ...]

    verb: ClassVar[str] = "wire"

    def args(self) -> dict[str, Any]:
        return {"path": [_xy(p) for p in self.path]}


@dataclass(frozen=True)
class SetTimer:
    """Set a timer's delay in minutes (K-WIRE-03)."""

    timer: str
    minutes: int

    verb: ClassVar[str] = "set_timer"

    def args(self) -> dict[str, Any]:
        return {"timer": self.timer, "minutes": self.minutes}


@dataclass(frozen=True)
class ArmLock:
    """ "Arm lock" on a door's lock (K-LOCK-01)."""

    door: str

    verb: ClassVar[str] = "arm_lock"

    def args(self) -> dict[str, Any]:
        return {"door": self.door}


@dataclass(frozen=True)
class DisarmLock:
    """ "Disarm lock": the door becomes a normal door (K-LOCK-01)."""

    door: str

    verb: ClassVar[str] = "disarm_lock"

    def args(self) -> dict[str, Any]:
        return {"door": self.door}


@dataclass(frozen=True)
class HoldDoorOpen:
    """ "Hold door open" (or stop holding it) (K-DOOR-03)."""

    door: str
    hold: bool = True

    verb: ClassVar[str] = "hold_door_open"

    def args(self) -> dict[str, Any]:
        return {"door": self.door, "hold": self.hold}


@dataclass(frozen=True)
class PullLever:
    """Pull a lever: on if it was off, off if it was on (K-DOOR-05)."""

    lever: str

    verb: ClassVar[str] = "pull_lever"

    def args(self) -> dict[str, Any]:
        return {"lever": self.lever}


@dataclass(frozen=True)
class SetJob:
    """Give a minion a job (Traps, Chores, ...)."""

    minion: str
    job: Job

    verb: ClassVar[str] = "set_job"

    def args(self) -> dict[str, Any]:
        return {"minion": self.minion, "job": self.job.value}


@dataclass(frozen=True)
class SetStance:
    """Set a minion's combat stance (one of the five of ruling R-K-STANCE-01)."""

    minion: str
    stance: Stance

    verb: ClassVar[str] = "set_stance"

    def args(self) -> dict[str, Any]:
        return {"minion": self.minion, "stance": self.stance.value}


@dataclass(frozen=True)
class OrderAttack:
    """Order a minion to attack someone (K-LOCK-03: it may then open doors to reach them)."""

    minion: str
    target: str

    verb: ClassVar[str] = "order_attack"

    def args(self) -> dict[str, Any]:
        return {"minion": self.minion, "target": self.target}


@dataclass(frozen=True)
class RiteOfStorms:
    """Perform the Rite of Storms (Dark Arts): no invasion comes while it lasts (K-TIME-05)."""

    hours: int | None = None
    """How long it lasts (default ``keep.options.rite_of_storms_hours``)."""

    verb: ClassVar[str] = "rite_of_storms"

    def args(self) -> dict[str, Any]:
        return {} if self.hours is None else {"hours": self.hours}


@dataclass(frozen=True)
class AnswerFugitive:
    """Let a fugitive who asked to hide join your dungeon, or turn it away (K-SIZE-02)."""

    fugitive: str
    accept: bool = True

    verb: ClassVar[str] = "answer_fugitive"

    def args(self) -> dict[str, Any]:
        return {"fugitive": self.fugitive, "accept": self.accept}


@dataclass(frozen=True)
class Divine:
    """Spend a divination charge: reveal the next group on its way (K-ARR-01)."""

    verb: ClassVar[str] = "divine"

    def args(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class WatchfulEye:
    """The Mindflayer's blessing: a ghost eye patrols your guard posts for 24 h (K-ARR-06)."""

    verb: ClassVar[str] = "watchful_eye"

    def args(self) -> dict[str, Any]:
        return {}


Command = (
    Build
    | Move
    | Remove
    | Connect
    | SetTimer
    | ArmLock
    | DisarmLock
    | HoldDoorOpen
    | PullLever
    | SetJob
    | SetStance
    | OrderAttack
    | RiteOfStorms
    | AnswerFugitive
    | Divine
    | WatchfulEye
)
COMMANDS: dict[str, type[Command]] = {
    cls.verb: cls
    for cls in (
        Build,
        Move,
        Remove,
        Connect,
        SetTimer,
        ArmLock,
        DisarmLock,
        HoldDoorOpen,
        PullLever,
        SetJob,
        SetStance,
        OrderAttack,
        RiteOfStorms,
        AnswerFugitive,
        Divine,
        WatchfulEye,
    )
}
