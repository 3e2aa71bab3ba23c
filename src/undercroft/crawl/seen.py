"""What a seat's view answers, typed: the records of the heroes, monsters and goals it
shows (:class:`HeroSeen`, :class:`MonsterSeen`, :class:`GoalSeen`), the :class:`Seen`
protocol that both forms of a view answer (:mod:`undercroft.crawl.observe`), and the small
questions worked out from those answers alone (where a monster stands, where its walks
end, who has a legal action).

These are the words the built-in players read; which seat sees what is decided in
:mod:`undercroft.crawl.observe`, never here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, actor_of
from undercroft.crawl.engine import Seat

A = TypeVar("A", bound=Action)
"""The kind of action a ``legal_of`` question asks for."""
HeroNumbers = tuple[
    Pos | None, bool, bool, int, int, int, bool, bool, bool, int, bool, bool, bool, int, int
]
"""A hero as :meth:`~undercroft.crawl.observe.View.hero_numbers` gives it: the ``heroes``
field's values in this order, ``pos`` (``None`` off the board), ``dead``, ``left``,
``health``, ``stamina``, ``magic``, ``exhausted``, ``surprised``, ``resting``,
``moves_left``, ``acted``, ``jumped``, whether ``casting`` is set, and the numbers of
``items`` and ``spells``."""


@dataclass
class HeroSeen:
    """A hero as a seat sees it (the typed form of an ``Observation.heroes`` entry);
    read-only by convention (a plain class: made thousands of times a game)."""

    id: str
    pos: Pos | None
    """``None`` once dead or out of the dungeon."""
    health: int
    moves_left: int
    dead: bool

    def __init__(self, id: str, pos: Pos | None, health: int, moves_left: int, dead: bool) -> None:
        # Written out, since a compiled (mypyc) class runs its own __init__ natively
        # but the one dataclasses generates as Python.
        self.id = id
        self.pos = pos
        self.health = health
        self.moves_left = moves_left
        self.dead = dead


@dataclass
class MonsterSeen:
    """A monster on the board (the typed form of an ``Observation.monsters`` entry);
    read-only by convention."""

    id: str
    pos: Pos
    health: int

    def __init__(self, id: str, pos: Pos, health: int) -> None:
        # Written out for the compiled build, as HeroSeen's.
        self.id = id
        self.pos = pos
        self.health = health


@dataclass
class GoalSeen:
    """A goal as a seat can tell of it (the typed form of an ``Observation.goals``
    entry, without its text); read-only by convention."""

    id: str
    kind: str
    target: str
    met: bool
    in_hand: bool

    def __init__(self, id: str, kind: str, target: str, met: bool, in_hand: bool) -> None:
        # Written out for the compiled build, as HeroSeen's.
        self.id = id
        self.kind = kind
        self.target = target
        self.met = met
        self.in_hand = in_hand


class Seen(Protocol):
    """What a policy reads: every field of an
    :class:`~undercroft.crawl.observe.Observation`, and typed questions that a
    :class:`~undercroft.crawl.observe.View` answers without building the rest."""

    @property
    def seat(self) -> Seat: ...
    @property
    def turn(self) -> int: ...
    @property
    def light(self) -> int: ...
    @property
    def decision(self) -> str | None: ...
    @property
    def board(self) -> str: ...
    @property
    def heroes(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def monsters(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def exits(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def revealed(self) -> tuple[str, ...]: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def goals(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def intro(self) -> str: ...
    @property
    def context(self) -> dict[str, Any] | None: ...

    def actors(self) -> list[str]: ...
    def legal_of(self, kind: type[A], actor: str | None = None) -> list[A]: ...
    def walks_of(self, monster: str) -> list[tuple[tuple[Pos, ...], int]]: ...
    def walk_ends(self, monster: str) -> list[tuple[Pos, int, int]]: ...
    def walk_to(self, monster: str, end: Pos) -> tuple[Pos, ...]: ...
    def board_codes(self) -> tuple[bytes, int]: ...
    def board_bits(self) -> tuple[int, int]: ...
    def board_size(self) -> int: ...
    def area_codes(self) -> bytes: ...
    def heroes_seen(self) -> tuple[HeroSeen, ...]: ...
    def hero_numbers(self) -> tuple[HeroNumbers, ...]: ...
    def goals_seen(self) -> tuple[GoalSeen, ...]: ...
    def item_decks(self, hero: str) -> dict[str, str]: ...
    def monsters_seen(self) -> tuple[MonsterSeen, ...]: ...
    def trap_squares(self) -> tuple[Pos, ...]: ...
    def corpse_squares(self) -> tuple[Pos, ...]: ...


def square_of(seen: Seen, monster: str) -> Pos | None:
    """Where ``monster`` stands, as ``seen`` shows it (``None`` if it does not)."""
    return next((m.pos for m in seen.monsters_seen() if m.id == monster), None)


def ends_of(
    walks: list[tuple[tuple[Pos, ...], int]], here: Pos | None
) -> list[tuple[Pos, int, int]]:
    """Where each walk ends (``here``, the walker's square, for the walk that stays),
    its Stamina and its length."""
    found: list[tuple[Pos, int, int]] = []
    for path, stamina in walks:
        end = path[-1] if path else here
        if end is not None:
            found.append((end, stamina, len(path)))
    return found


def path_ending(
    walks: list[tuple[tuple[Pos, ...], int]], here: Pos | None, end: Pos
) -> tuple[Pos, ...]:
    """The path of the first walk that ends at ``end``."""
    for path, _ in walks:
        if (path[-1] if path else here) == end:
            return path
    raise KeyError(f"no legal walk ends at {end}")


def actors_of(legal: tuple[Action, ...]) -> list[str]:
    """The figures that ``legal`` actions are for, in order of their first action."""
    found = (actor_of(a) for a in legal)
    return list(dict.fromkeys(a for a in found if a is not None))
