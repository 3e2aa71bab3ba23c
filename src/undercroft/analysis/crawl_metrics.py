"""What happened in one crawl game, counted from its events as they come.

:class:`CrawlMetrics` is an :class:`undercroft.core.events.EventSink`: the engine sends it
every event (the log contract, ``docs/events.md``) and it keeps only counts and a few
small records, never the events, so a batch pays no log in memory or on disk. It follows
where every figure stands (``moved``, ``monster.appeared``, ``monster.moved``) to place
fights on the board, and remembers the last blow each hero took to say what killed it.
Every event's ``rules`` are counted too (:mod:`.exercise`): which rules the game played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from undercroft.analysis.exercise import count_rules
from undercroft.analysis.odds import deciding_rule
from undercroft.core.events import Event, Time
from undercroft.core.grid import Grid, Pos


@dataclass
class Blow:
    """The last damage a hero took: who dealt it and the rules that decided it."""

    by: str
    rules: tuple[str, ...]


class RollKey(NamedTuple):
    """What a ``rolls`` row counts: the rule whose table decided the roll
    (:func:`.odds.deciding_rule`), every rule the roll cites, who rolled, the modifiers
    (their total and their names) and the outcome word."""

    rule: str
    rules: tuple[str, ...]
    actor: str
    modifier: int
    modifiers: str
    outcome: str


@dataclass
class CrawlMetrics:
    """Counts and records of one game, fed by the engine (``enabled`` is always on)."""

    board: Grid
    party_starts: dict[str, Pos]
    enabled: bool = True
    turn: int = 1
    positions: dict[str, Pos] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    """Actor id -> monster kind or trap kind (from the events that bring them in)."""
    counts: Counter[str] = field(default_factory=Counter)
    last_blow: dict[str, Blow] = field(default_factory=dict)
    fights: list[dict[str, Any]] = field(default_factory=list)
    deaths: list[dict[str, Any]] = field(default_factory=list)
    rolls: Counter[RollKey] = field(default_factory=Counter)
    """The rolls of the game, counted by :class:`RollKey` (the ``rolls`` table)."""
    squares: dict[tuple[int, int], Counter[str]] = field(default_factory=dict)
    rules: Counter[str] = field(default_factory=Counter)
    """Rule ID -> the events of the game that name it (the ``rules`` table)."""
    dd_rule: str = "C-DD-01"
    """The rule of the latest Death's Door roll: at Turn End (C-DD-01) or for a blow to a
    hero already at 0 (C-DD-03); a ``hero.died`` follows the roll that killed."""

    def __post_init__(self) -> None:
        self.positions.update(self.party_starts)

    @classmethod
    def for_game(cls, board: Grid, starts: Sequence[Pos], party: Sequence[str]) -> CrawlMetrics:
        """A collector for ``party`` on the adventure's start squares (as the state puts
        them: the party in order on the start squares in order)."""
        return cls(board, {f"hero:{h}": p for h, p in zip(party, starts, strict=False)})

    # -- the sink -----------------------------------------------------------------------

    def emit(self, time: Time, event: Event) -> None:
        count_rules(self.rules, event.rules)
        handler = _HANDLERS.get(event.type)
        if handler is not None:
            turn = getattr(time, "turn", None)
            if isinstance(turn, int):
                self.turn = turn
            handler(self, event)

    # -- helpers ------------------------------------------------------------------------

    def mark(self, square: Pos | None, what: str) -> None:
        if square is None:
            return
        self.squares.setdefault((square.x, square.y), Counter())[what] += 1

    def actor_kind(self, actor: str) -> str:
        """A hero by its profile id, a monster by its kind, the DM as ``dm``."""
        if actor.startswith("hero:"):
            return actor.removeprefix("hero:")
        return self.kinds.get(actor, actor)

    def area_at(self, square: Pos) -> str:
        info = self.board.area_at(square) if self.board.in_bounds(square) else None
        return "" if info is None else info.name

    def killer(self, blow: Blow | None) -> str:
        """What dealt a blow, in the words of the content: a monster kind, ``trap:KIND``,
        ``text:AREA`` (a room text), or ``hero:ID`` (its own overcast spell)."""
        if blow is None:
            return "unknown"
        if blow.by.startswith("monster:"):
            return self.kinds.get(blow.by, blow.by)
        if blow.by.startswith("trap:"):
            return f"trap:{self.kinds.get(blow.by, blow.by.removeprefix('trap:'))}"
        if blow.by.startswith("area:"):
            return f"text:{blow.by.removeprefix('area:')}"
        return blow.by


def _pos(value: Any) -> Pos:
    return Pos(int(value[0]), int(value[1]))


def _moved(m: CrawlMetrics, e: Event) -> None:
    m.positions[str(e.fields["actor"])] = _pos(e.fields["to"])


def _monster_appeared(m: CrawlMetrics, e: Event) -> None:
    mid = str(e.fields["monster"])
    m.kinds[mid] = str(e.fields["kind"])
    m.positions[mid] = _pos(e.fields["at"])


def _monster_moved(m: CrawlMetrics, e: Event) -> None:
    m.positions[str(e.fields["monster"])] = _pos(e.fields["to"])


def _fight(m: CrawlMetrics, e: Event) -> None:
    f = e.fields
    hero = str(f["hero"])
    winner = f["winner"] or "tie"
    m.counts["fights"] += 1
    m.counts[{"hero": "fights_won", "monster": "fights_lost"}.get(winner, "fights_tied")] += 1
    where = m.positions.get(hero)
    m.mark(where, "fights")
    m.fights.append(
        {
            "turn": m.turn,
            "hero": hero.removeprefix("hero:"),
            "monster": m.actor_kind(str(f["monster"])),
            "hero_score": int(f["hero_score"]),
            "monster_score": int(f["monster_score"]),
            "hero_stamina": int(f["hero_stamina"]),
            "monster_stamina": int(f["monster_stamina"]),
            "hero_dice": int(sum(f["hero_dice"])),
            "monster_dice": int(sum(f["monster_dice"])),
            "winner": winner,
            "x": None if where is None else where.x,
            "y": None if where is None else where.y,
        }
    )


SOURCE_RULES = {"trap:": "C-TRAP-06", "area:": "C-EXPL-01", "monster:": "C-MON-01"}
"""The rule behind a blow whose ``damage`` event cites none: the engine logs the damage of
a trap's, a room text's or a monster ability's effects with empty ``rules`` (it cites them
on the ``trap.sprung``, ``text.read`` and ``monster.ability`` event just before)."""


def _damage(m: CrawlMetrics, e: Event) -> None:
    target = str(e.fields["target"])
    if target.startswith("hero:"):
        by = [str(b) for b in e.fields.get("by", [])]
        source = by[-1] if by else "unknown"
        rules = e.rules or tuple(r for p, r in SOURCE_RULES.items() if source.startswith(p))
        m.last_blow[target] = Blow(source, rules)


def _trap_sprung(m: CrawlMetrics, e: Event) -> None:
    at = _pos(e.fields["at"])
    m.kinds[f"trap:{at.x},{at.y}"] = str(e.fields["trap"])
    m.counts["traps_sprung"] += 1
    m.mark(at, "traps")


def _hero_died(m: CrawlMetrics, e: Event) -> None:
    hero = str(e.fields["hero"])
    at = _pos(e.fields["at"])
    blow = m.last_blow.get(hero)
    m.mark(at, "deaths")
    cause = [r for r in (blow.rules if blow else ()) if r not in ("C-DD-01", "C-DD-03")]
    m.deaths.append(
        {
            "hero": hero.removeprefix("hero:"),
            "turn": m.turn,
            "x": at.x,
            "y": at.y,
            "area": m.area_at(at),
            "killer": m.killer(blow),
            "cause_rule": cause[0] if cause else "",
            "death_rule": m.dd_rule,
        }
    )


def modifiers_text(modifiers: dict[str, Any]) -> str:
    """A roll's named modifiers as the ``rolls`` table shows them: ``Perceptive +1, light -1``
    (in the engine's order), ``""`` for none."""
    return ", ".join(f"{name} {int(v):+d}" for name, v in modifiers.items())


def _roll(m: CrawlMetrics, e: Event) -> None:
    f = e.fields
    if "C-DD-01" in e.rules:
        m.dd_rule = "C-DD-03" if "C-DD-03" in e.rules else "C-DD-01"
    modifiers = dict(f.get("modifiers", {}))
    key = RollKey(
        deciding_rule(e.rules),
        tuple(e.rules),
        m.actor_kind(str(f.get("actor", ""))),
        sum(int(v) for v in modifiers.values()),
        modifiers_text(modifiers),
        str(f["outcome"]),
    )
    m.rolls[key] += 1


def _count(name: str) -> Any:
    def handler(m: CrawlMetrics, e: Event) -> None:
        m.counts[name] += 1

    return handler


_HANDLERS = {
    "moved": _moved,
    "monster.appeared": _monster_appeared,
    "monster.moved": _monster_moved,
    "fight": _fight,
    "damage": _damage,
    "trap.sprung": _trap_sprung,
    "hero.died": _hero_died,
    "roll": _roll,
    "spell.cast": _count("spells_cast"),
    "patrol.appeared": _count("patrols"),
    "monster.slain": _count("monsters_slain"),
    "door.opened": _count("doors_opened"),
    "item.found": _count("items_found"),
}
