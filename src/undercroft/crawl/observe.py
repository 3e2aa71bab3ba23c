"""What each seat may see (ARCHITECTURE.md, "Hidden information").

The heroes never see an undetected trap, an unrevealed room or what is in it, the number
rolled for Detect Traps (C-TRAP-01), what an unidentified item is (C-IDENT-01), or a
monster standing where their board does not show (R-C-MON-06). The
DM sees everything. Policies, viewers and clients get what a seat sees, never the
:class:`State`; :func:`observe_entry` filters the event log the same way
(:mod:`undercroft.crawl.seat_log`, whose names this module re-exports).

Two forms of the same view:

:class:`View`         read from the game as each field is asked for, valid only until the
                      next action (reading it later is a :class:`StaleViewError`). The
                      built-in policies play from it: a decision reads a few fields, not
                      all of them, and asks for the legal actions of one kind and one
                      figure rather than for every legal action.
:class:`Observation`  a frozen snapshot of every field (:func:`observe`), for viewers,
                      clients, plug-in policies and JSON (:meth:`Observation.to_json`).

Both answer the same questions (the :class:`Seen` protocol), and an observation is built
from a view, so there is one place that decides what a seat sees. The typed records and
the protocol are :mod:`undercroft.crawl.seen`'s, the board's byte and integer forms
:mod:`undercroft.crawl.board_view`'s; this module re-exports their names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

# The names imported ``as`` themselves are re-exported: players, viewers and tests read
# the seat's vocabulary (seen records, board codes) from this module.
from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, MonsterMove, actor_of, to_json
from undercroft.crawl.board_view import AREA_KEY as AREA_KEY
from undercroft.crawl.board_view import SHOWN as SHOWN
from undercroft.crawl.board_view import UNKNOWN as UNKNOWN
from undercroft.crawl.board_view import UNKNOWN_BYTE as UNKNOWN_BYTE
from undercroft.crawl.board_view import area_codes as area_codes
from undercroft.crawl.board_view import area_map as area_map
from undercroft.crawl.board_view import board_bits as board_bits
from undercroft.crawl.board_view import board_codes as board_codes
from undercroft.crawl.board_view import trap_order as trap_order
from undercroft.crawl.context import Cards, cards_of, decision_context
from undercroft.crawl.engine import Seat
from undercroft.crawl.figures import Hero
from undercroft.crawl.goals import goal_met
from undercroft.crawl.known import known_squares as known_squares  # re-exported
from undercroft.crawl.known import monsters_in_sight
from undercroft.crawl.known import revealed_squares as revealed_squares  # re-exported
from undercroft.crawl.monsters import can_move, path_in, reach_tree, walk_ends, walks
from undercroft.crawl.movement import can_act, remaining
from undercroft.crawl.ruleset import Goal
from undercroft.crawl.seat_log import observe_entries as observe_entries
from undercroft.crawl.seat_log import observe_entry as observe_entry
from undercroft.crawl.seat_log import observe_line as observe_line
from undercroft.crawl.seen import A
from undercroft.crawl.seen import GoalSeen as GoalSeen
from undercroft.crawl.seen import HeroNumbers as HeroNumbers
from undercroft.crawl.seen import HeroSeen as HeroSeen
from undercroft.crawl.seen import MonsterSeen as MonsterSeen
from undercroft.crawl.seen import Seen as Seen
from undercroft.crawl.seen import actors_of as actors_of
from undercroft.crawl.seen import ends_of as ends_of
from undercroft.crawl.seen import path_ending as path_ending
from undercroft.crawl.seen import square_of as square_of
from undercroft.crawl.state import State


class StaleViewError(Exception):
    """A :class:`View` read after the game moved on (take an :func:`observe` snapshot
    to keep what a seat saw)."""


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
    intro: str = ""
    """The adventure's introduction as its scenario text states it, read to every seat
    before the first turn (the heroes' rumours and hints are in it)."""
    area_map: str = ""
    """Which revealed area each square belongs to, in the shape of ``board``: the
    character ``chr(AREA_KEY + i)`` marks the squares of ``revealed[i]``; a space marks a
    square of no revealed area (a wall, a doorway, or a square not known)."""
    corridors: tuple[str, ...] = ()
    """The revealed areas that are corridors (the others are rooms): a turn that ends
    with heroes in a corridor brings a patrol roll there (C-MON-03)."""
    cards: Cards | None = field(default=None, compare=False, repr=False)
    """The cards every player may read (:class:`~undercroft.crawl.context.Cards`); not
    part of the JSON form."""
    context: dict[str, Any] | None = None
    """What the decision is about, for the seat asked (:mod:`undercroft.crawl.context`):
    the fight of a ``fight_stamina``, the contest of a ``mental_spend``, ...; ``None``
    when there is none to tell."""

    def to_json(self) -> dict[str, Any]:
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
            "intro": self.intro,
            "area_map": self.area_map,
            "corridors": list(self.corridors),
            "context": self.context,
        }

    # -- the typed questions of :class:`Seen`, from the snapshot's fields ------------------

    def actors(self) -> list[str]:
        """The figures with a legal action, in the order the legal actions list them."""
        return actors_of(self.legal)

    def legal_of(self, kind: type[A], actor: str | None = None) -> list[A]:
        """The legal actions of type ``kind`` (of ``actor``, if given)."""
        return [
            a
            for a in self.legal
            if isinstance(a, kind) and type(a) is kind and (actor is None or actor_of(a) == actor)
        ]

    def walks_of(self, monster: str) -> list[tuple[tuple[Pos, ...], int]]:
        """The path and Stamina of each legal :class:`MonsterMove` of ``monster``."""
        return [(a.path, a.stamina) for a in self.legal_of(MonsterMove, monster)]

    def walk_ends(self, monster: str) -> list[tuple[Pos, int, int]]:
        """Where each of :meth:`walks_of` ends, its Stamina and its length, in order."""
        return ends_of(self.walks_of(monster), square_of(self, monster))

    def walk_to(self, monster: str, end: Pos) -> tuple[Pos, ...]:
        """The path of the first of :meth:`walks_of` that ends at ``end``."""
        return path_ending(self.walks_of(monster), square_of(self, monster), end)

    def board_codes(self) -> tuple[bytes, int]:
        """The board row by row without line breaks, and its width."""
        rows = self.board.split("\n")
        return "".join(rows).encode(), len(rows[0])

    def board_bits(self) -> tuple[int, int]:
        """:meth:`board_codes` read as one little-endian integer, and a mask of the
        squares it shows (0xFF in each byte of a square not shown as ``?``, else 0)."""
        codes = self.board_codes()[0]
        return int.from_bytes(codes, "little"), int.from_bytes(codes.translate(SHOWN), "little")

    def board_size(self) -> int:
        """The number of squares of the board (the length of :meth:`board_codes`)."""
        return len(self.board_codes()[0])

    def area_codes(self) -> bytes:
        """For each square (as :meth:`board_codes`), the index into ``revealed`` of its
        area, or 255 for none."""
        codes = [ord(c) - AREA_KEY for c in self.area_map.replace("\n", "")]
        return bytes(c if 0 <= c < 255 else 255 for c in codes)

    def goals_seen(self) -> tuple[GoalSeen, ...]:
        return tuple(
            GoalSeen(g["id"], g["kind"], g["target"], g["met"], g["in_hand"]) for g in self.goals
        )

    def heroes_seen(self) -> tuple[HeroSeen, ...]:
        return tuple(
            HeroSeen(
                h["id"],
                None if h["pos"] is None else Pos(*h["pos"]),
                h["health"],
                h["moves_left"],
                h["dead"],
            )
            for h in self.heroes
        )

    def hero_numbers(self) -> tuple[HeroNumbers, ...]:
        return tuple(
            (
                None if h["pos"] is None else Pos(*h["pos"]),
                h["dead"],
                h["left"],
                h["health"],
                h["stamina"],
                h["magic"],
                h["exhausted"],
                h["surprised"],
                h["resting"],
                h["moves_left"],
                h["acted"],
                h["jumped"],
                h["casting"] is not None,
                len(h["items"]),
                len(h["spells"]),
            )
            for h in self.heroes
        )

    def item_decks(self, hero: str) -> dict[str, str]:
        """The deck of each item ``hero`` carries (it shows on the card's back)."""
        return {i["uid"]: i["kind"] for h in self.heroes if h["id"] == hero for i in h["items"]}

    def monsters_seen(self) -> tuple[MonsterSeen, ...]:
        return tuple(MonsterSeen(m["id"], Pos(*m["pos"]), m["health"]) for m in self.monsters)

    def trap_squares(self) -> tuple[Pos, ...]:
        """The armed traps the seat knows of, in board order."""
        return tuple(Pos(*t["at"]) for t in self.traps if t["armed"])

    def corpse_squares(self) -> tuple[Pos, ...]:
        return tuple(Pos(*c["at"]) for c in self.corpses)


class View:
    """What ``seat`` sees of ``state`` now, read lazily (see the module docstring).

    It holds the game only to answer with what the seat may see; a field is worked out
    the first time it is read. Any read after the next action raises
    :class:`StaleViewError`.
    """

    def __init__(self, state: State, seat: Seat) -> None:
        self._state = state
        self._stamp = len(state.history)
        self._fields: dict[str, Any] = {}
        # The fields the built-in policies read most, kept in slots of their own rather
        # than in ``_fields`` (each read is then an attribute, not a dict and a call).
        self._goals_kept: tuple[dict[str, Any], ...] | None = None
        self._goals_seen_kept: tuple[GoalSeen, ...] | None = None
        self._revealed_kept: tuple[str, ...] | None = None
        self._heroes_seen_kept: tuple[HeroSeen, ...] | None = None
        self._monsters_seen_kept: tuple[MonsterSeen, ...] | None = None
        self._trap_squares_kept: tuple[Pos, ...] | None = None
        self.seat = seat
        self.full = seat is not Seat.HEROES
        self.turn = state.turn
        self.step = state.step
        self.light = state.light
        self.to_act = state.current_player()
        pending = state.pending
        self.decision = None if pending is None else pending.kind
        self.outcome = state.outcome

    def _cached(self, name: str, work: Callable[[], Any]) -> Any:
        """A field, worked out on its first read; every read checks the view is current."""
        self._game()
        if name not in self._fields:
            self._fields[name] = work()
        return self._fields[name]

    def _game(self) -> State:
        state = self._state
        if len(state.history) != self._stamp:
            raise StaleViewError("this view was taken before the last action; observe again")
        return state

    def snapshot(self) -> Observation:
        """Every field, frozen: the :class:`Observation`."""
        return Observation(**{f.name: getattr(self, f.name) for f in fields(Observation)})

    def to_json(self) -> dict[str, Any]:
        return self.snapshot().to_json()

    # -- the fields of an Observation ------------------------------------------------------

    @property
    def board(self) -> str:
        found: str = self._cached("board", self._board)
        return found

    def _board(self) -> str:
        codes, width = self.board_codes()
        text = codes.decode()
        return "\n".join(text[i : i + width] for i in range(0, len(text), width))

    @property
    def heroes(self) -> tuple[dict[str, Any], ...]:
        found: tuple[dict[str, Any], ...] = self._cached("heroes", self._heroes)
        return found

    def _heroes(self) -> tuple[dict[str, Any], ...]:
        state = self._game()
        moving = self.decision == "movement"
        return tuple(
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
                "casting": _casting(h.casting, self.full),
                "items": [_item(state, uid, self.full) for uid in h.items],
            }
            for h in state.heroes.values()
        )

    @property
    def monsters(self) -> tuple[dict[str, Any], ...]:
        found: tuple[dict[str, Any], ...] = self._cached("monsters", self._monsters)
        return found

    def _monsters(self) -> tuple[dict[str, Any], ...]:
        return tuple(
            {
                "id": m.id,
                "kind": m.kind,
                "pos": [m.pos.x, m.pos.y],
                "health": m.health,
                "stamina": m.stamina,
                "encounter": m.encounter,
                "surprised": m.surprised,
            }
            for m in monsters_in_sight(self._game(), self.full)
        )

    @property
    def traps(self) -> tuple[dict[str, Any], ...]:
        found: tuple[dict[str, Any], ...] = self._cached("traps", self._traps)
        return found

    def _traps(self) -> tuple[dict[str, Any], ...]:
        return tuple(
            {"at": [p.x, p.y], "kind": t.kind, "detected": t.detected, "armed": t.armed}
            for p, t in sorted(self._game().traps.items())
            # C-TRAP-01: the heroes know only traps found, sprung or disarmed.
            if self.full or t.detected or not t.armed
        )

    @property
    def corpses(self) -> tuple[dict[str, Any], ...]:
        found: tuple[dict[str, Any], ...] = self._cached("corpses", self._corpses)
        return found

    def _corpses(self) -> tuple[dict[str, Any], ...]:
        state = self._game()
        return tuple(
            {
                "at": [p.x, p.y],
                "hero": c.hero,
                "items": [_item(state, i, self.full) for i in c.items],
            }
            for p, c in state.corpses.items()
        )

    @property
    def exits(self) -> tuple[tuple[int, int], ...]:
        found: tuple[tuple[int, int], ...] = self._cached("exits", self._exits)
        return found

    def _exits(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted((p.x, p.y) for p in self._game().exits))

    @property
    def revealed(self) -> tuple[str, ...]:
        self._game()
        found = self._revealed_kept
        if found is None:
            found = self._revealed_kept = self._revealed()
        return found

    def _revealed(self) -> tuple[str, ...]:
        return tuple(sorted(self._game().revealed))

    @property
    def legal(self) -> tuple[Action, ...]:
        found: tuple[Action, ...] = self._cached("legal", self._legal)
        return found

    def _legal(self) -> tuple[Action, ...]:
        state = self._game()
        if self.to_act is self.seat and self.seat is not Seat.CHANCE:
            return tuple(state.legal_actions())
        return ()

    @property
    def goals(self) -> tuple[dict[str, Any], ...]:
        self._game()
        found = self._goals_kept
        if found is None:
            found = self._goals_kept = self._goals()
        return found

    def _goals(self) -> tuple[dict[str, Any], ...]:
        state = self._game()
        return _goal_dicts(state.ruleset.adventure.goals, self.goals_seen())

    def goals_seen(self) -> tuple[GoalSeen, ...]:
        self._game()
        found = self._goals_seen_kept
        if found is None:
            found = self._goals_seen_kept = goals_seen(self._game(), self.full)
        return found

    @property
    def intro(self) -> str:
        return self._game().ruleset.adventure.intro

    @property
    def area_map(self) -> str:
        found: str = self._cached("area_map", self._area_map)
        return found

    def _area_map(self) -> str:
        return area_map(self._game())

    @property
    def corridors(self) -> tuple[str, ...]:
        found: tuple[str, ...] = self._cached("corridors", self._corridors)
        return found

    def _corridors(self) -> tuple[str, ...]:
        state = self._game()
        return tuple(a for a in self.revealed if state.area_kind(a) == "corridor")

    @property
    def cards(self) -> Cards:
        return cards_of(self._game())

    @property
    def context(self) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self._cached(
            "context", lambda: decision_context(self._game(), self.seat)
        )
        return found

    # -- the typed questions ---------------------------------------------------------------

    def _to_act(self) -> State | None:
        state = self._game()
        if self.to_act is not self.seat or self.seat is Seat.CHANCE:
            return None
        return state

    def actors(self) -> list[str]:
        """The figures with a legal action, in the order the legal actions list them."""
        state = self._to_act()
        return [] if state is None else state.legal_actors()

    def legal_of(self, kind: type[A], actor: str | None = None) -> list[A]:
        """The legal actions of type ``kind`` (of ``actor``, if given): for the
        Movement steps, from the rule code of that kind and figure only."""
        state = self._to_act()
        return [] if state is None else state.legal_actions_of(kind, actor)

    def walks_of(self, monster: str) -> list[tuple[tuple[Pos, ...], int]]:
        """The path and Stamina of each legal :class:`MonsterMove` of ``monster``, in
        their order, without making the actions (the DM weighs them all, picks one)."""
        state = self._to_act()
        if state is None or self.decision != "monster_movement":
            return [(a.path, a.stamina) for a in self.legal_of(MonsterMove, monster)]
        found = state.monsters.get(monster)
        return [] if found is None or not can_move(found) else walks(state, found)

    def walk_ends(self, monster: str) -> list[tuple[Pos, int, int]]:
        """Where each of :meth:`walks_of` ends, its Stamina and its length, in the same
        order, without building the paths (:meth:`walk_to` builds the one picked)."""
        tree = self._tree(monster)
        if tree is None:
            return ends_of(self.walks_of(monster), square_of(self, monster))
        state = self._game()
        return walk_ends(state, state.monsters[monster], tree) if tree else []

    def walk_to(self, monster: str, end: Pos) -> tuple[Pos, ...]:
        """The path of the walk of :meth:`walks_of` that ends at ``end``."""
        tree = self._tree(monster)
        if tree is None:
            return path_ending(self.walks_of(monster), square_of(self, monster), end)
        if end not in tree:
            raise KeyError(f"no legal walk of {monster} ends at {end}")
        return path_in(tree, end)

    def _tree(self, monster: str) -> dict[Pos, tuple[Pos | None, int]] | None:
        """The monster's :func:`~undercroft.crawl.monsters.reach_tree` in Monsters'
        Movement when the DM is to act (empty if it may not move), else ``None``."""
        state = self._to_act()
        if state is None or self.decision != "monster_movement":
            return None
        found = state.monsters.get(monster)
        if found is None or not can_move(found):
            return {}
        tree: dict[Pos, tuple[Pos | None, int]] = self._cached(
            "tree:" + monster, lambda: reach_tree(state, found)
        )
        return tree

    def board_codes(self) -> tuple[bytes, int]:
        """The board row by row without line breaks, and its width."""
        state = self._game()
        return board_codes(state, self.full), state.grid.width

    def board_bits(self) -> tuple[int, int]:
        """:meth:`board_codes` read as one little-endian integer, and a mask of the
        squares it shows (0xFF in each byte of a square not shown as ``?``, else 0)."""
        return board_bits(self._game(), self.full)

    def board_size(self) -> int:
        """The number of squares of the board (the length of :meth:`board_codes`)."""
        grid = self._game().grid
        return grid.width * grid.height

    def area_codes(self) -> bytes:
        """For each square, the index into ``revealed`` of its area, or 255 for none."""
        return area_codes(self._game())

    def heroes_seen(self) -> tuple[HeroSeen, ...]:
        self._game()
        found = self._heroes_seen_kept
        if found is None:
            found = self._heroes_seen_kept = self._heroes_seen()
        return found

    def _heroes_seen(self) -> tuple[HeroSeen, ...]:
        state = self._game()
        moving = self.decision == "movement"
        return tuple(_hero_seen(state, h, moving) for h in state.heroes.values())

    def hero_numbers(self) -> tuple[HeroNumbers, ...]:
        """The numbers and flags of the ``heroes`` field without its dicts, lists and
        items (:data:`HeroNumbers`; what the RL encoding reads at every step)."""
        state = self._game()
        moving = self.decision == "movement"
        return tuple(
            (
                h.pos if h.pos is not None and not h.dead and not h.left else None,
                h.dead,
                h.left,
                h.health,
                h.stamina,
                h.magic,
                h.exhausted,
                h.surprised,
                h.resting,
                remaining(state, h) if moving and can_act(state, h) else 0,
                h.acted,
                h.jumped,
                h.casting is not None,
                len(h.items),
                len(h.spells),
            )
            for h in state.heroes.values()
        )

    def item_decks(self, hero: str) -> dict[str, str]:
        """The deck of each item ``hero`` carries (it shows on the card's back)."""
        state = self._game()
        found = state.heroes.get(hero)
        items, cards = state.items, state.ruleset.items
        return {} if found is None else {u: cards[items[u].card].kind.value for u in found.items}

    def monsters_seen(self) -> tuple[MonsterSeen, ...]:
        self._game()
        found = self._monsters_seen_kept
        if found is None:
            found = self._monsters_seen_kept = self._monsters_seen()
        return found

    def _monsters_seen(self) -> tuple[MonsterSeen, ...]:
        return tuple(
            MonsterSeen(m.id, m.pos, m.health) for m in monsters_in_sight(self._game(), self.full)
        )

    def trap_squares(self) -> tuple[Pos, ...]:
        """The armed traps the seat knows of, in board order (C-TRAP-01)."""
        self._game()
        found = self._trap_squares_kept
        if found is None:
            found = self._trap_squares_kept = self._trap_squares()
        return found

    def _trap_squares(self) -> tuple[Pos, ...]:
        state = self._game()
        traps = state.traps
        full = self.full
        found: list[Pos] = []
        for p in trap_order(state):
            t = traps[p]
            if t.armed and (full or t.detected):
                found.append(p)
        return tuple(found)

    def corpse_squares(self) -> tuple[Pos, ...]:
        return tuple(self._game().corpses)


ViewLike = View | Observation
"""What the built-in policies take: either form of a seat's view (both answer the
:class:`Seen` questions). Named as the two classes rather than the protocol so that the
compiled build calls their methods and properties directly: a call through a
``Protocol`` type is a Python attribute lookup each time, thousands a game."""


def _hero_seen(state: State, hero: Hero, moving: bool) -> HeroSeen:
    on_board = hero.pos is not None and not hero.dead and not hero.left
    return HeroSeen(
        hero.id,
        hero.pos if on_board else None,
        hero.health,
        remaining(state, hero) if moving and can_act(state, hero) else 0,
        hero.dead,
    )


def observe(state: State, seat: Seat) -> Observation:
    """The view of ``seat`` (HEROES or DM; CHANCE sees what the DM sees)."""
    return View(state, seat).snapshot()


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


def goal_views(state: State, full: bool = True) -> tuple[dict[str, Any], ...]:
    """The goals with what the seat can tell of them (``Observation.goals``): their
    text, and :func:`goals_seen`."""
    return _goal_dicts(state.ruleset.adventure.goals, goals_seen(state, full))


def _goal_dicts(goals: Iterable[Goal], seen: tuple[GoalSeen, ...]) -> tuple[dict[str, Any], ...]:
    return tuple(
        {
            "id": g.id,
            "text": g.text,
            "kind": g.kind,
            "target": g.target,
            "met": s.met,
            "in_hand": s.in_hand,
        }
        for g, s in zip(goals, seen, strict=True)
    )


def goals_seen(state: State, full: bool = True) -> tuple[GoalSeen, ...]:
    """The goals as the seat can tell of them: the scenario text states each goal and
    its target (the DM reads it aloud), so the target is no secret. The heroes do not
    know that a face-down item carried out is the one a goal names, so for them such a
    goal is met only once the item is identified (C-IDENT-01)."""
    goals = state.ruleset.adventure.goals
    if not goals:
        return ()
    # The cards in hand (identified, on heroes on the board) and carried out (shown to
    # the seat), in one pass over the heroes.
    held: set[str] = set()
    out: set[str] = set()
    items = state.items
    for h in state.heroes.values():
        if h.left:
            for uid in h.items:
                item = items[uid]
                if full or item.identified:
                    out.add(item.card)
        elif h.on_board:
            for uid in h.items:
                item = items[uid]
                if item.identified:
                    held.add(item.card)
    return tuple(
        GoalSeen(
            g.id,
            g.kind,
            g.target,
            goal_met(state, g)
            and (g.kind != "carry" or g.id in state.goals_met or g.target in out),
            g.kind == "carry" and g.target in held,
        )
        for g in goals
    )
