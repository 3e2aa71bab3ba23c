"""Typed actions: everything a hero player, the DM or chance can do.

Each action is a small frozen dataclass. ``State.legal_actions()`` lists the ones allowed
now; ``State.apply(action)`` performs one. Dice outcomes are :class:`Roll` actions
applied by the chance player, so a game is reproduced by its list of actions alone.
Actions round-trip through JSON with :func:`to_json` / :func:`from_json`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from mypy_extensions import mypyc_attr

from undercroft.core.grid import Pos


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Action:
    """Base class of every action."""

    def describe(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)}" for f in fields(self)]
        return f"{type(self).__name__}({', '.join(parts)})"


# -- chance ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll(Action):
    """The naturals of a die roll, applied by the chance player."""

    natural: tuple[int, ...]


# -- heroes' movement (C-TURN-03) -------------------------------------------------------


@dataclass(frozen=True)
class Step(Action):
    """Move one square orthogonally (C-TURN-03, C-DIST-01)."""

    hero: str
    to: Pos


@dataclass(frozen=True)
class Move(Action):
    """Walk along a path, square by square; stops early if something happens on the way."""

    hero: str
    path: tuple[Pos, ...]


@dataclass(frozen=True)
class SpendStamina(Action):
    """Spend Stamina for extra squares this Movement step (C-TURN-03, R-C-MOVE-01)."""

    hero: str
    points: int


@dataclass(frozen=True)
class OpenDoor(Action):
    """Try to force an unopened door next to the hero (C-DOOR-01)."""

    hero: str
    door: Pos


@dataclass(frozen=True)
class Jump(Action):
    """Jump the obstacle or detected trap on ``over`` to the square beyond (C-JUMP-01)."""

    hero: str
    over: Pos


@dataclass(frozen=True)
class Disarm(Action):
    """End movement and try to disarm the detected trap on ``trap`` (C-TRAP-03)."""

    hero: str
    trap: Pos


@dataclass(frozen=True)
class Drag(Action):
    """Drag the corpse next to the hero along this turn, for 1 square (C-DEATH-02)."""

    hero: str
    corpse: Pos


@dataclass(frozen=True)
class Leave(Action):
    """Leave the dungeon from an exit square (C-END-01)."""

    hero: str


@dataclass(frozen=True)
class Rest(Action):
    """Spend the whole turn resting (C-REST-01)."""

    hero: str


@dataclass(frozen=True)
class EndMovement(Action):
    """This hero moves no more this step."""

    hero: str


@dataclass(frozen=True)
class UseItem(Action):
    """Drink a potion, read a scroll, use gear or a magic item, on an optional target."""

    hero: str
    item: str
    target: str | None = None


@dataclass(frozen=True)
class Cast(Action):
    """Cast a non-combat spell now: from memory (``source`` None) or a scroll item. With
    ``spell`` ``""`` it reads the face-down scroll ``source`` blind; the target is chosen
    once the scroll is read (R-C-IDENT-01)."""

    hero: str
    spell: str
    source: str | None = None
    overcast: bool = False
    target: str | None = None


# -- the combat sequence (C-CMB-01) ------------------------------------------------------


@dataclass(frozen=True)
class BeginCasting(Action):
    """Spell Selection: begin casting a combat spell (C-CMB-01 step 1). With ``spell``
    ``""`` the face-down scroll ``source`` is begun blind and read in the casting step
    (R-C-IDENT-01)."""

    hero: str
    spell: str
    source: str | None = None
    overcast: bool = False


@dataclass(frozen=True)
class Evade(Action):
    """Evasion: move one square for 2 Stamina (C-CMB-01 step 3)."""

    hero: str
    to: Pos


@dataclass(frozen=True)
class CastingChoice(Action):
    """A caster in a fight: let the spell fail, or take double ones (C-SPELL-06)."""

    hero: str
    double_ones: bool


@dataclass(frozen=True)
class FightStamina(Action):
    """Stamina spent on the fight being resolved (C-FIGHT-04), 0 to 3."""

    points: int


@dataclass(frozen=True)
class ChooseTarget(Action):
    """Casting step: the caster picks the spell's target (C-CMB-01 step 5)."""

    hero: str
    target: str | None


@dataclass(frozen=True)
class MonsterMove(Action):
    """Monsters' Movement: a monster walks ``path``, spending ``stamina`` (C-CMB-01)."""

    monster: str
    path: tuple[Pos, ...]
    stamina: int = 0


@dataclass(frozen=True)
class MonsterAbility(Action):
    """A monster uses an ability instead of moving."""

    monster: str
    ability: str
    target: str


@dataclass(frozen=True)
class MentalSpend(Action):
    """Magic spent on a Mental Combat roll, 0 to 3 (C-MENT-02)."""

    points: int


# -- explore, identify, trade ------------------------------------------------------------


@dataclass(frozen=True)
class Explore(Action):
    """Explore the area the hero is in, or stay put (C-EXPL-01)."""

    hero: str
    explore: bool


@dataclass(frozen=True)
class ChooseOption(Action):
    """Pick an option of a room text's choice (C-EXPL-01)."""

    index: int


@dataclass(frozen=True)
class TakeItem(Action):
    """Which exploring hero takes a found item (C-EXPL-01)."""

    hero: str


@dataclass(frozen=True)
class TakeTest(Action):
    """Which hero in the area takes up a room text: its own trait tests, its Mental
    Combats and what it does to the hero it is about (``self``), when the explorers
    choose (R-C-EXPL-02, option ``text_test = "chosen"``)."""

    hero: str


@dataclass(frozen=True)
class Memorize(Action):
    """Memorize the spell of an identified scroll, forgetting spells to make room."""

    hero: str
    item: str
    forget: tuple[str, ...] = ()


@dataclass(frozen=True)
class Identify(Action):
    """A Learned hero tries to identify an item it holds (C-IDENT-01)."""

    hero: str
    item: str


@dataclass(frozen=True)
class Trade(Action):
    """Give an item to a hero in the same area, or take one from a corpse (C-TURN-06)."""

    giver: str
    receiver: str
    item: str


@dataclass(frozen=True)
class Done(Action):
    """The acting side is finished with the current step."""


DONE: Final = Done()
"""The one :class:`Done` the rules and the built-in policies hand out: every ``Done()``
is equal, and a frozen dataclass is slow to make (its ``__init__`` runs as Python even
compiled), so the hot paths share this one."""
FIGHT_STAMINA: Final = tuple(FightStamina(p) for p in range(4))
"""``FightStamina(0)`` to ``FightStamina(3)`` (C-FIGHT-04: 0 to 3), made once."""

ACTION_TYPES: Final[dict[str, type[Action]]] = {
    cls.__name__: cls
    for cls in (
        Roll, Step, Move, SpendStamina, OpenDoor, Jump, Disarm, Drag, Leave, Rest,
        EndMovement, UseItem, Cast, BeginCasting, Evade, CastingChoice, FightStamina,
        ChooseTarget, MonsterMove, MonsterAbility, MentalSpend, Explore, ChooseOption,
        TakeItem, TakeTest, Memorize, Identify, Trade, Done,
    )
}  # fmt: skip


def actor_of(action: Action) -> str | None:
    """Whom an action is for: its ``hero`` or ``monster`` (``None`` for a side's action
    such as :class:`Done`, a roll, or a choice of the whole party)."""
    actor = getattr(action, "hero", None) or getattr(action, "monster", None)
    return actor if isinstance(actor, str) else None


def _encode(value: Any) -> Any:
    if isinstance(value, Pos):
        return [value.x, value.y]
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def to_json(action: Action) -> dict[str, Any]:
    """``{"action": "Step", "hero": "hero:ana", "to": [3, 4]}``."""
    out: dict[str, Any] = {"action": type(action).__name__}
    for f in fields(action):
        out[f.name] = _encode(getattr(action, f.name))
    return out


SQUARE_FIELDS: Final = frozenset({"to", "door", "over", "trap", "corpse"})
"""Action fields that hold a square (``[x, y]`` in JSON)."""
PATH_FIELDS: Final = frozenset({"path"})
"""Action fields that hold a walk of squares."""


def from_json(data: dict[str, Any]) -> Action:
    """Rebuild an action written by :func:`to_json`; ``ValueError`` names the problem."""
    name = data.get("action")
    cls = ACTION_TYPES.get(str(name))
    if cls is None:
        raise ValueError(f"unknown action {name!r}; known: {', '.join(sorted(ACTION_TYPES))}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        # By field name rather than annotation: compiled code keeps no field types.
        if f.name in SQUARE_FIELDS:
            value = Pos(*value)
        elif f.name in PATH_FIELDS:
            value = tuple(Pos(*p) for p in value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"action {name}: {exc}") from None
