"""What each seat may see (ARCHITECTURE.md, "Hidden information").

The heroes never see an undetected trap, an unrevealed room or what is in it, the number
rolled for Detect Traps (C-TRAP-01), or what an unidentified item is (C-IDENT-01). The
DM sees everything. Policies, viewers and clients get an :class:`Observation`, never
the :class:`State`; :func:`observe_entry` filters the event log the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from undercroft.core.events import Event, LogEntry
from undercroft.crawl.actions import Action
from undercroft.crawl.engine import Seat
from undercroft.crawl.movement import can_act, remaining
from undercroft.crawl.state import State

UNKNOWN = "?"
AREA_KEY = 0x41
"""The code point that marks the first revealed area in ``Observation.area_map``."""


@dataclass(frozen=True)
class Observation:
    """One seat's view of the game at one moment."""

    seat: Seat
    turn: int
    step: str
    light: int
    to_act: Seat | None
    decision: str | None
    board: str
    """The map in map notation; squares the heroes have not seen are ``?``."""
    heroes: tuple[dict[str, Any], ...]
    monsters: tuple[dict[str, Any], ...]
    traps: tuple[dict[str, Any], ...]
    corpses: tuple[dict[str, Any], ...]
    exits: tuple[tuple[int, int], ...]
    revealed: tuple[str, ...]
    legal: tuple[Action, ...] = field(default=())
    outcome: str | None = None
    goals: tuple[dict[str, Any], ...] = ()
    """The adventure's goals as the scenario text states them, with their ``target`` (an
    area, a monster kind or an item card): ``met`` once achieved, ``in_hand`` when a hero
    on the board holds the (identified) item to carry out."""
    area_map: str = ""
    """Which revealed area each square belongs to, in the shape of ``board``: the
    character ``chr(AREA_KEY + i)`` marks the squares of ``revealed[i]``; a space marks a
    square of no revealed area (a wall, a doorway, or a square not known)."""

    def to_json(self) -> dict[str, Any]:
        from undercroft.crawl.actions import to_json

        return {
            "seat": self.seat.value,
            "turn": self.turn,
            "step": self.step,
            "light": self.light,
            "to_act": None if self.to_act is None else self.to_act.value,
            "decision": self.decision,
            "board": self.board,
            "heroes": list(self.heroes),
            "monsters": list(self.monsters),
            "traps": list(self.traps),
            "corpses": list(self.corpses),
            "exits": [list(e) for e in self.exits],
            "revealed": list(self.revealed),
            "legal": [to_json(a) for a in self.legal],
            "outcome": self.outcome,
            "goals": list(self.goals),
            "area_map": self.area_map,
        }


def known_squares(state: State) -> np.ndarray:
    """Squares the heroes know: those of revealed areas, and those any hero sees now.

    Cached on the state until the board, the revealed areas or a hero's square changes.
    """
    key = (
        state.grid.version,
        len(state.revealed),
        tuple(h.pos for h in state.active_heroes()),
    )
    cached = getattr(state, "_known_cache", None)
    if cached is not None and cached[0] == key:
        known: np.ndarray = cached[1]
        return known
    known = np.zeros(state.grid.terrain.shape, np.bool_)
    for index, info in enumerate(state.grid.areas):
        if info.name in state.revealed:
            known |= state.grid.area == index
    for hero in state.active_heroes():
        assert hero.pos is not None
        known |= state.sight.fov(hero.pos)
    state._known_cache = (key, known)  # type: ignore[attr-defined]
    return known


def board_text(state: State, full: bool) -> str:
    """The board as ``full`` (DM) or hero eyes see it, cached like :func:`known_squares`."""
    key = (
        full,
        state.grid.version,
        len(state.revealed),
        tuple(h.pos for h in state.active_heroes()),
    )
    cached = getattr(state, "_board_cache", None)
    if cached is not None and cached[0] == key:
        text: str = cached[1]
        return text
    chars = state.grid.char_array().copy()
    if not full:
        chars[~known_squares(state)] = UNKNOWN.encode()
    text = "\n".join(row.tobytes().decode() for row in chars)
    state._board_cache = (key, text)  # type: ignore[attr-defined]
    return text


def area_map(state: State) -> str:
    """The squares of every revealed area (C-TURN-04: a revealed area is known whole),
    keyed by its rank in ``sorted(state.revealed)``; cached until an area is revealed."""
    key = len(state.revealed)
    cached = getattr(state, "_area_map_cache", None)
    if cached is not None and cached[0] == key:
        text: str = cached[1]
        return text
    grid = state.grid
    index = {info.name: i for i, info in enumerate(grid.areas)}
    codes = np.full((grid.height, grid.width + 1), ord(" "), np.uint32)
    codes[:, -1] = ord("\n")
    for rank, name in enumerate(sorted(state.revealed)):
        codes[:, :-1][grid.area == index[name]] = AREA_KEY + rank
    text = codes.tobytes().decode("utf-32-le")[:-1]
    state._area_map_cache = (key, text)  # type: ignore[attr-defined]
    return text


def _item(state: State, uid: str, full: bool) -> dict[str, Any]:
    item = state.items[uid]
    card = state.ruleset.items[item.card]
    shown = full or item.identified
    return {
        "uid": uid,
        "kind": card.kind.value,  # the deck shows on the card's back
        "card": item.card if shown else None,
        "name": card.name if shown else f"unidentified {card.kind.value}",
        "identified": item.identified,
    }


def _casting(casting: dict[str, Any] | None, full: bool) -> dict[str, Any] | None:
    """The spell a hero is casting; the heroes do not see which spell a face-down scroll
    holds before it is read (R-C-IDENT-01)."""
    if casting is None:
        return None
    shown = dict(casting)
    if casting.get("blind") and not full:
        shown["spell"] = None
    return shown


def observe(state: State, seat: Seat) -> Observation:
    """The view of ``seat`` (HEROES or DM; CHANCE sees what the DM sees)."""
    full = seat is not Seat.HEROES
    board = board_text(state, full)
    moving = state.pending is not None and state.pending.kind == "movement"
    heroes = tuple(
        {
            "id": h.id,
            "pos": None if h.pos is None or h.dead or h.left else [h.pos.x, h.pos.y],
            "health": h.health,
            "stamina": h.stamina,
            "magic": h.magic,
            "exhausted": h.exhausted,
            "dead": h.dead,
            "left": h.left,
            "surprised": h.surprised,
            "resting": h.resting,
            "moves_left": remaining(state, h) if moving and can_act(state, h) else 0,
            "acted": h.acted,
            "jumped": h.jumped,
            "spells": list(h.spells),
            "casting": _casting(h.casting, full),
            "items": [_item(state, uid, full) for uid in h.items],
        }
        for h in state.heroes.values()
    )
    monsters = tuple(
        {
            "id": m.id,
            "kind": m.kind,
            "pos": [m.pos.x, m.pos.y],
            "health": m.health,
            "stamina": m.stamina,
            "encounter": m.encounter,
            "surprised": m.surprised,
        }
        for m in state.monsters.values()
    )
    traps = tuple(
        {"at": [p.x, p.y], "kind": t.kind, "detected": t.detected, "armed": t.armed}
        for p, t in sorted(state.traps.items())
        # C-TRAP-01: the heroes know only traps found, sprung or disarmed.
        if full or t.detected or not t.armed
    )
    corpses = tuple(
        {"at": [p.x, p.y], "hero": c.hero, "items": [_item(state, i, full) for i in c.items]}
        for p, c in state.corpses.items()
    )
    exits = tuple(sorted((p.x, p.y) for p in state.exits))
    revealed = tuple(sorted(state.revealed))
    to_act = state.current_player()
    legal: tuple[Action, ...] = ()
    if to_act is seat and seat is not Seat.CHANCE:
        legal = tuple(state.legal_actions())
    return Observation(
        seat=seat,
        turn=state.turn,
        step=state.step,
        light=state.light,
        to_act=to_act,
        decision=None if state.pending is None else state.pending.kind,
        board=board,
        heroes=heroes,
        monsters=monsters,
        traps=traps,
        corpses=corpses,
        exits=exits,
        revealed=revealed,
        legal=legal,
        outcome=state.outcome,
        goals=goal_views(state, full),
        area_map=area_map(state),
    )


def goal_views(state: State, full: bool = True) -> tuple[dict[str, Any], ...]:
    """The goals with what the seat can tell of them: the scenario text states each goal
    and its target (the DM reads it aloud), so the target is no secret. The heroes do not
    know that a face-down item carried out is the one a goal names, so for them such a
    goal is met only once the item is identified (C-IDENT-01)."""
    from undercroft.crawl.goals import goal_met

    held = {
        state.items[uid].card
        for h in state.active_heroes()
        for uid in h.items
        if state.items[uid].identified
    }
    out = {
        state.items[uid].card
        for h in state.heroes.values()
        if h.left
        for uid in h.items
        if full or state.items[uid].identified
    }
    return tuple(
        {
            "id": g.id,
            "text": g.text,
            "kind": g.kind,
            "target": g.target,
            "met": goal_met(state, g)
            and (g.kind != "carry" or g.id in state.goals_met or g.target in out),
            "in_hand": g.kind == "carry" and g.target in held,
        }
        for g in state.ruleset.adventure.goals
    )


BLIND_FIELDS = ("card", "spell")
"""What the heroes' view drops from an event about a face-down item."""


def observe_entry(entry: LogEntry, seat: Seat) -> LogEntry | None:
    """The log line as ``seat`` may read it, or ``None`` if the seat does not see it."""
    if seat is not Seat.HEROES:
        return entry
    event = entry.event
    fields = dict(event.fields)
    if event.type == "roll" and fields.get("hidden"):
        return None  # C-TRAP-01: the Detect Traps number is never shown
    if event.type == "traps.detected":
        fields = {"hero": fields["hero"], "found": fields["found"], "squares": fields["squares"]}
    elif fields.get("blind") or fields.get("identified") is False:
        # C-IDENT-01, R-C-IDENT-01: what a face-down item is, or which spell a scroll not
        # yet read holds, stays hidden; every event about one says so with ``blind``
        # (``identified`` false on ``item.found``).
        for key in BLIND_FIELDS:
            fields.pop(key, None)
    return LogEntry(entry.seq, entry.time, Event(event.type, event.rules, fields))


def observe_entries(entries: Iterable[LogEntry], seat: Seat, first_seq: int = 0) -> list[LogEntry]:
    """The log lines ``seat`` may read (:func:`observe_entry`), renumbered ``first_seq``,
    ``first_seq + 1``, ... so a seat's log keeps the contract (no gaps in ``seq``). The
    filter looks at one line at a time, so a growing log can be viewed piece by piece."""
    seen = (observe_entry(entry, seat) for entry in entries)
    kept = [entry for entry in seen if entry is not None]
    return [LogEntry(first_seq + i, e.time, e.event) for i, e in enumerate(kept)]
