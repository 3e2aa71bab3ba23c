"""Which monsters the heroes see, followed along a crawl log (ruling R-C-MON-06).

A monster on a square the heroes' board shows (a square of a revealed area, or one a hero
on the board sees now: :func:`undercroft.crawl.observe.known_squares`) is on the table and
seen by everyone; one anywhere else is out of the heroes' sight. The heroes' log cannot
tell this from one line alone, so :class:`Sightings` follows the log from its first line
as the board it tells of: the doors opened, the areas revealed, where each hero and each
monster stands. For each line it says whether the heroes see it and which sightings follow
it: ``monster.seen`` (``monster``, ``kind``, ``at``) when a monster comes onto the table
or into a hero's view, ``monster.hidden`` (``monster``) when it leaves them. A monster's
move seen from start to end is told as it is; any other move is not told at all, only
the sighting it brings.

A log already filtered for the heroes reads the same again: its sighting lines are taken
as where the monster stood (``monster.hidden``: nowhere the heroes know), and told anew.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from undercroft.core.events import Event, Header, LogEntry
from undercroft.core.grid import DoorState, Pos, Terrain
from undercroft.core.sight import Sight
from undercroft.crawl.ruleset import Adventure

SEEN: Final = "monster.seen"
HIDDEN: Final = "monster.hidden"
RULES: Final = ("C-LOS-01", "R-C-MON-06")
CHANGES_SIGHT: Final = frozenset(
    {
        "moved",
        "hero.died",
        "hero.left",
        "door.opened",
        "area.revealed",
        "secret.revealed",
        "monster.appeared",
        "monster.moved",
        "monster.slain",
        SEEN,
        HIDDEN,
    }
)
"""The lines that can change which monsters the heroes see (the others change nothing)."""


class Sightings:
    """The board of one crawl log as far as its lines have told it, and the monsters the
    heroes' log has shown where (see the module docstring). Feed it every line, in order,
    with :meth:`follow`."""

    def __init__(self, adventure: Adventure, heroes: Iterable[str]) -> None:
        self.grid = adventure.board.copy()
        self.sight = Sight(self.grid)
        self.secret_areas = adventure.secret_areas
        self.width = self.grid.width
        self._area_index = {info.name: i for i, info in enumerate(self.grid.areas)}
        self._area_bits: dict[str, int] = {}
        self.revealed: set[str] = set()
        self.revealed_bits = 0
        self.heroes: dict[str, Pos | None] = dict(zip(heroes, adventure.starts, strict=False))
        """Each hero's square (``None`` once dead or out of the dungeon)."""
        self.monsters: dict[str, tuple[str, Pos | None]] = {}
        """Each monster on the board: its kind and square (``None``: not known, in a log
        already filtered for the heroes)."""
        self.shown: dict[str, Pos] = {}
        """The monsters the heroes see, where they see them."""
        self._known: int | None = None

    @classmethod
    def of_log(cls, adventure: Adventure, header: Header) -> Sightings:
        """For a log with this ``header`` (the heroes stand on the start squares in the
        order the header lists them, as the game put them there)."""
        return cls(adventure, [a.id for a in header.actors if a.kind == "hero"])

    # -- following the log --------------------------------------------------------------

    def follow(self, entry: LogEntry) -> tuple[bool, list[Event]]:
        """Take in one line: whether the heroes see the line itself, and the sighting
        events that follow it in their log."""
        event = entry.event
        if event.type not in CHANGES_SIGHT:
            return True, []
        f = event.fields
        keep = event.type not in (SEEN, HIDDEN)  # told anew below, not twice
        if event.type == "monster.moved":
            mid = str(f["monster"])
            keep = mid in self.shown
        self._apply(event.type, f)
        if event.type == "monster.moved":
            keep = keep and self._seen(_pos(f["to"]))
            if keep:
                self.shown[str(f["monster"])] = _pos(f["to"])
        elif event.type == "monster.appeared":
            keep = self._seen(_pos(f["at"]))
            if keep:
                self.shown[str(f["monster"])] = _pos(f["at"])
        return keep, self._news()

    def _apply(self, kind: str, f: Any) -> None:
        """Change the board as the line says."""
        if kind == "moved":
            self._put_hero(str(f["actor"]), _pos(f["to"]))
        elif kind in ("hero.died", "hero.left"):
            self._put_hero(str(f["hero"]), None)
        elif kind == "door.opened":
            self.grid.set_door(_pos(f["door"]), DoorState.OPEN)  # C-DOOR-01
            self._known = None
        elif kind in ("area.revealed", "secret.revealed"):
            for door in f.get("doors", ()):
                # C-EXPL-01: a secret area's doors are found open.
                self.grid.set_terrain(_pos(door), Terrain.DOOR, DoorState.OPEN)
            self._reveal(str(f["area"]))
        elif kind == "monster.appeared":
            self.monsters[str(f["monster"])] = (str(f["kind"]), _pos(f["at"]))
        elif kind == "monster.moved":
            mid = str(f["monster"])
            self.monsters[mid] = (self.monsters.get(mid, ("", None))[0], _pos(f["to"]))
        elif kind == "monster.slain":
            self.monsters.pop(str(f["monster"]), None)
            self.shown.pop(str(f["monster"]), None)
        elif kind == SEEN:
            self.monsters[str(f["monster"])] = (str(f["kind"]), _pos(f["at"]))
        elif kind == HIDDEN:
            mid = str(f["monster"])
            if mid in self.monsters:
                self.monsters[mid] = (self.monsters[mid][0], None)

    def _put_hero(self, hero: str, at: Pos | None) -> None:
        self.heroes[hero] = at
        self._known = None

    def _reveal(self, area: str) -> None:
        index = self._area_index.get(area)
        if index is None or area in self.revealed:
            return
        self.revealed.add(area)
        squares = (self.grid.area == index).tobytes()
        self.revealed_bits |= int.from_bytes(squares, "little")
        if area in self.secret_areas:
            # As the heroes' board (observe.known_squares, known.revealed_squares): the
            # doors in a revealed secret area's walls are known with it (C-EXPL-01).
            for door in self.grid.doors_around(area):
                self.revealed_bits |= 1 << (8 * (door.y * self.width + door.x))
        self._known = None

    def _news(self) -> list[Event]:
        """The sightings since the heroes' log last said where the monsters stand."""
        news: list[Event] = []
        for mid in list(self.shown):
            now = self.monsters.get(mid)
            if now is None or not self._seen(now[1]):
                del self.shown[mid]
                news.append(Event(HIDDEN, RULES, {"monster": mid}))
        for mid, (kind, at) in self.monsters.items():
            if at is not None and self.shown.get(mid) != at and self._seen(at):
                self.shown[mid] = at
                news.append(Event(SEEN, RULES, {"monster": mid, "kind": kind, "at": [at.x, at.y]}))
        return news

    # -- what the heroes' board shows ----------------------------------------------------

    def known(self) -> int:
        """The squares the heroes' board shows, one byte a square (1 shown) read as a
        little-endian integer: the revealed areas and what each hero on the board sees
        (as ``observe.known_squares``)."""
        if self._known is None:
            known = self.revealed_bits
            for at in self.heroes.values():
                if at is not None:
                    known |= self.sight.fov_bits(at)
            self._known = known
        return self._known

    def shows(self, x: int, y: int) -> bool:
        """Whether the heroes' board shows the square ``(x, y)``."""
        if not (0 <= x < self.width and 0 <= y < self.grid.height):
            return False
        return bool(self.known() >> (8 * (y * self.width + x)) & 1)

    def _seen(self, at: Pos | None) -> bool:
        return at is not None and self.shows(at.x, at.y)


def _pos(xy: Sequence[int]) -> Pos:
    return Pos(int(xy[0]), int(xy[1]))
