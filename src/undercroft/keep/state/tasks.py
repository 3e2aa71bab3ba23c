"""The work waiting to be done, as data: :class:`Task` and its :class:`TaskKind`.

Rule modules post work (:mod:`undercroft.keep.rules.work`); who takes it and how it is done is
:mod:`undercroft.keep.rules.jobs`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


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
