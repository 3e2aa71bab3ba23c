"""Replays: a crawl log turned into frames a page can scrub, as one seat may see it.

A log holds what happened, not the actions, so the board of each frame is rebuilt from
the events themselves (figures placed and moved, damage, doors forced, areas revealed,
traps found or sprung) over the adventure's board from the pack. The log is first
filtered for the seat with ``observe_line`` (ARCHITECTURE.md, "Hidden information"):
the heroes' frames are made from the heroes' log only, and their board shows what the
heroes' board showed then (the areas revealed and what the heroes saw, followed by
:class:`~undercroft.crawl.sightings.Sightings`), with the monsters where the heroes saw
them (R-C-MON-06), so a replay tells the heroes nothing their game did not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from undercroft.core.events import EventLog, LogEntry, LogFormatError, log_from_text
from undercroft.core.grid import Grid
from undercroft.crawl.content import Pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import UNKNOWN, observe_line
from undercroft.crawl.ruleset import Adventure
from undercroft.crawl.sightings import HIDDEN, SEEN, Sightings
from undercroft.web.crawl_games import entry_view

MAX_FRAMES = 100_000
T = TypeVar("T")


class ReplayError(ValueError):
    """A log that cannot be replayed (not a crawl log, malformed: the message says where)."""


def parse_log(text: str) -> EventLog:
    try:
        return log_from_text(text, "the log")
    except LogFormatError as exc:
        raise ReplayError(str(exc)) from None


def check_log(log: EventLog, ruleset: str) -> None:
    """A log of ``ruleset`` short enough to replay, or :class:`ReplayError`."""
    if log.header.ruleset != ruleset:
        raise ReplayError(f"a {log.header.ruleset} log; this replays {ruleset} logs")
    if len(log.entries) > MAX_FRAMES:
        raise ReplayError(f"the log has {len(log.entries)} lines; at most {MAX_FRAMES} replay")


def apply_line(apply: Callable[[LogEntry], T], entry: LogEntry) -> T:
    """``apply(entry)``; a line missing a field or with one of the wrong type (a log
    written by hand, or damaged) is a :class:`ReplayError` naming it."""
    try:
        return apply(entry)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ReplayError(
            f"the log's {entry.event.type!r} line (seq {entry.seq}) lacks a field or has "
            f"one of the wrong type ({exc!r})"
        ) from None


class Board:
    """The board of a replay as far as the events have told it."""

    def __init__(
        self,
        adventure: Adventure | None,
        seat: Seat,
        header: dict[str, Any],
        sightings: Sightings | None = None,
    ) -> None:
        self.full = seat is not Seat.HEROES
        self.sightings = sightings
        """What the heroes' board shows (their seat, the board known)."""
        self.grid: Grid | None = None if adventure is None else adventure.board.copy()
        self.chars = None if self.grid is None else self.grid.char_array().copy()
        self.revealed: set[str] = set()
        self.light = 0
        self.heroes: dict[str, dict[str, Any]] = {}
        starts = list(adventure.starts) if adventure else []
        for i, actor in enumerate(a for a in header.get("actors", []) if a.get("kind") == "hero"):
            pos = [starts[i].x, starts[i].y] if i < len(starts) else None
            self.heroes[str(actor["id"])] = {
                "id": actor["id"],
                "pos": pos,
                "health": actor.get("health"),
                "stamina": actor.get("stamina"),
                "magic": actor.get("magic"),
                "dead": False,
                "left": False,
            }
        self.monsters: dict[str, dict[str, Any]] = {}
        self.traps: dict[tuple[int, int], dict[str, Any]] = {}
        if adventure is not None and self.full:
            for p, kind in adventure.traps.items():
                self.traps[(p.x, p.y)] = {"at": [p.x, p.y], "kind": kind, "armed": True}
        self.corpses: dict[str, dict[str, Any]] = {}
        self.exits = sorted([p.x, p.y] for p in adventure.exits) if adventure else []
        self._text: str | None = None

    def board_text(self) -> str | None:
        if self.grid is None or self.chars is None:
            return None
        chars = self.chars.copy()
        if not self.full:
            chars[~self.known(chars.shape)] = UNKNOWN.encode()
        return "\n".join(row.tobytes().decode() for row in chars)

    def known(self, shape: tuple[int, ...]) -> np.ndarray:
        """The squares the heroes' board shows: as the game showed them (the revealed
        areas and what the heroes saw), or with no way to follow sight, the revealed
        areas."""
        if self.sightings is not None:
            size = shape[0] * shape[1]
            bits = self.sightings.known().to_bytes(size, "little")
            return np.frombuffer(bits, np.bool_).reshape(shape)
        known = np.zeros(shape, np.bool_)
        assert self.grid is not None
        for index, info in enumerate(self.grid.areas):
            if info.name in self.revealed:
                known |= self.grid.area == index
        return known

    def drawn(self, at: list[int] | None) -> bool:
        """Whether a monster at ``at`` is drawn: out of the heroes' sight it is not
        (R-C-MON-06), nor in the frame of a line whose sighting comes after it (a hero's
        step that takes a monster out of sight)."""
        if at is None:
            return False
        if self.sightings is None:
            return True
        return self.sightings.shows(at[0], at[1])

    def set_char(self, at: Any, char: bytes) -> None:
        if self.chars is not None and isinstance(at, list) and len(at) == 2:
            x, y = int(at[0]), int(at[1])
            if 0 <= y < self.chars.shape[0] and 0 <= x < self.chars.shape[1]:
                self.chars[y, x] = char

    def apply(self, entry: LogEntry) -> None:
        """Change the board as the event says (events that move nothing change nothing)."""
        f = entry.event.fields
        kind = entry.event.type
        hero = self.heroes.get(str(f.get("hero", f.get("actor", f.get("target", "")))))
        if kind in ("adventure.started", "turn.started", "light.changed"):
            self.light = int(f.get("light", self.light))
        elif kind in ("area.revealed", "secret.revealed"):
            self.revealed.add(str(f["area"]))
            for door in f.get("doors", []):
                self.set_char(door, b"'")
        elif kind == "door.opened":
            self.set_char(f["door"], b"'")
        elif kind == "moved" and hero is not None:
            hero["pos"] = list(f["to"])
        elif kind == "monster.appeared":
            profile = f.get("profile", {})
            self.monsters[str(f["monster"])] = {
                "id": f["monster"],
                "kind": f.get("kind"),
                "pos": list(f["at"]),
                "health": profile.get("health"),
                "stamina": profile.get("stamina"),
            }
        elif kind == "monster.moved" and str(f["monster"]) in self.monsters:
            self.monsters[str(f["monster"])]["pos"] = list(f["to"])
        elif kind == SEEN:  # R-C-MON-06: back in the heroes' sight
            known = self.monsters.get(str(f["monster"]), {"id": f["monster"], "kind": f["kind"]})
            self.monsters[str(f["monster"])] = {**known, "pos": list(f["at"])}
        elif kind == HIDDEN and str(f["monster"]) in self.monsters:
            self.monsters[str(f["monster"])] = {**self.monsters[str(f["monster"])], "pos": None}
        elif kind == "monster.slain":
            self.monsters.pop(str(f["monster"]), None)
        elif kind == "damage":
            target = self.monsters.get(str(f["target"])) or hero
            if target is not None:
                target["health"] = f["health"]
        elif kind in ("recovered", "stamina.spent", "stamina.restored") and hero is not None:
            hero["stamina"] = f.get("stamina", hero["stamina"])
            hero["magic"] = f.get("magic", hero["magic"])
        elif kind == "healed" and hero is not None:
            hero["health"] = f["health"]
        elif kind == "hero.died" and hero is not None:
            hero["dead"] = True
            hero["pos"] = None
            self.corpses[str(f["hero"])] = {"at": list(f["at"]), "hero": f["hero"]}
        elif kind == "hero.left" and hero is not None:
            hero["left"] = True
            hero["pos"] = None
        elif kind in ("corpse.eaten", "corpse.rescued"):
            self.corpses.pop(str(f["corpse"]), None)
        elif kind == "corpse.dragged" and hero is not None:
            pass  # the corpse follows the hero: shown where the hero is
        elif kind == "trap.sprung":
            self.traps[tuple(f["at"])] = {
                "at": list(f["at"]),
                "kind": f.get("trap"),
                "armed": False,
            }
        elif kind == "traps.detected":
            for square in f.get("squares", []):
                known = self.traps.get(tuple(square), {"at": list(square), "kind": None})
                self.traps[tuple(square)] = {**known, "detected": True, "armed": True}
        elif kind == "exit.opened":
            self.exits = sorted([*self.exits, *(list(p) for p in f.get("at", []))])

    def snapshot(self) -> dict[str, Any]:
        """The board now, as copies: :meth:`apply` goes on changing its own figures, and a
        frame must keep showing the board as it was then. (Each figure's fields are
        replaced, never changed in place, so a copy of each figure's dict is enough.)"""
        return {
            "light": self.light,
            "heroes": [dict(h) for h in self.heroes.values()],
            "monsters": [dict(m) for m in self.monsters.values() if self.drawn(m["pos"])],
            "traps": [dict(t) for t in self.traps.values()],
            "corpses": [dict(c) for c in self.corpses.values()],
            "exits": self.exits,
            "revealed": sorted(self.revealed),
        }


def crawl_frames(log: EventLog, pack: Pack, seat: Seat) -> dict[str, Any]:
    """The replay of ``log`` as ``seat`` sees it: its header, one frame per log line it may
    read (the line, its sentence, the board after it), and the summary."""
    check_log(log, "crawl")
    adventure = pack.adventures.get(log.header.scenario)
    header = log.header.to_json()
    sightings = None
    if adventure is not None and seat is Seat.HEROES:
        sightings = Sightings.of_log(adventure, log.header)
    board = Board(adventure, seat, header, sightings)
    frames: list[dict[str, Any]] = []
    last_board = None
    for line in log.entries:
        for seen in apply_line(lambda e: observe_line(e, seat, sightings), line):
            entry = LogEntry(len(frames), seen.time, seen.event)  # the seat's numbering
            apply_line(board.apply, entry)
            frame = {**entry_view(entry), **board.snapshot()}
            text = board.board_text()
            if text != last_board:
                frame["board"] = text
                last_board = text
            frames.append(frame)
    return {
        "seat": seat.value,
        "scenario": log.header.scenario,
        "seed": log.header.seed,
        "version": log.header.version,
        "board_known": adventure is not None,
        "frames": frames,
        "summary": None if log.summary is None else dict(log.summary.results),
    }
