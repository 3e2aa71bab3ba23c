"""How well the heroes played one crawl game, read from its event log (docs/events.md).

Each measure is one function over the log's entries (``EventLog.entries``, or hand-made
:class:`~undercroft.core.events.LogEntry` lists in tests); what is not in the log (the
board's areas and walkable squares, the start squares, which item cards are healing
potions, which areas a ``visit`` goal names) is handed in, made from the ruleset by
:func:`board_of`, :func:`visit_areas` and :func:`healing_cards`.
:func:`game_quality` gathers every measure of one game. ``benchmarks/ai_quality.py``
runs them over many seeds.

Positions come from the ``moved`` events (one square a step, jumps included); a hero
stands on its start square (``Board.starts``) until its first ``moved``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import asdict, dataclass
from typing import Any, Final

from undercroft.core.events import EventLog, Header, LogEntry
from undercroft.core.grid import DOOR_CODE, FLOOR_CODE, OPEN_CODE, Pos
from undercroft.crawl.resolve import TRAIT_TEST_RULES
from undercroft.crawl.ruleset import ItemKind, Ruleset

Square = tuple[int, int]

TRAIT_TEST_RULE: Final = TRAIT_TEST_RULES[0]
"""The rule a room text's trait test cites (C-EXPL-01): on its ``roll`` (with a
``trait`` field) and on its ``trait.tested`` (a test without a roll)."""
MAX_STAMINA_SQUARES: Final = 3
"""C-TURN-03 (as ruled): a hero may spend 1 to 3 Stamina for +1 square each."""


@dataclass(frozen=True)
class Board:
    """What the measures need of the board, which the log does not carry."""

    areas: Mapping[Square, str]
    """The room or corridor of each square that belongs to one."""
    open_ground: frozenset[Square]
    """Squares a figure may stand on at the start, figures ignored: floor without
    furniture and doors already open. A door becomes passable when a ``door.opened``
    names it."""
    starts: Mapping[str, Square]
    """Each hero's start square (hero id -> square)."""


def board_of(ruleset: Ruleset, party: Sequence[str]) -> Board:
    """The :class:`Board` of ``ruleset``'s adventure for ``party`` (hero profile ids), the
    heroes on the start squares in party order as the engine places them."""
    adventure = ruleset.adventure
    grid = adventure.board
    areas: dict[Square, str] = {}
    ground: set[Square] = set()
    for y in range(grid.height):
        for x in range(grid.width):
            info = grid.area_at(Pos(x, y))
            if info is not None:
                areas[(x, y)] = info.name
            terrain = int(grid.terrain[y, x])
            floor = terrain == FLOOR_CODE and not bool(grid.furniture[y, x])
            if floor or (terrain == DOOR_CODE and int(grid.door[y, x]) == OPEN_CODE):
                ground.add((x, y))
    starts = {
        f"hero:{hero}": (pos.x, pos.y) for hero, pos in zip(party, adventure.starts, strict=False)
    }
    return Board(areas, frozenset(ground), starts)


def visit_areas(ruleset: Ruleset) -> frozenset[str]:
    """The areas the adventure's ``visit`` goals name."""
    return frozenset(g.target for g in ruleset.adventure.goals if g.kind == "visit")


def healing_cards(ruleset: Ruleset) -> dict[str, int]:
    """Every potion card whose effects (or a trait test's branches in them) heal: card id
    -> its uses."""
    found: dict[str, int] = {}
    for card in ruleset.items.values():
        if card.kind is ItemKind.POTION and _heals(card.effects):
            found[card.id] = card.uses
    return found


def _heals(effects: Iterable[Any]) -> bool:
    for effect in effects:
        if getattr(effect, "type", None) == "heal":
            return True
        if _heals(getattr(effect, "on_pass", ())) or _heals(getattr(effect, "on_fail", ())):
            return True
    return False


def movement_of(header: Header) -> dict[str, int]:
    """Each hero's Movement allowance, from the header's actor profiles."""
    return {
        a.id: int(a.profile["movement"])
        for a in header.actors
        if a.kind == "hero" and isinstance(a.profile.get("movement"), int)
    }


def _square(value: Any) -> Square:
    return (int(value[0]), int(value[1]))


# -- shuttles ------------------------------------------------------------------------------


def end_of_movement_squares(
    entries: Iterable[LogEntry], starts: Mapping[str, Square] | None = None
) -> dict[str, list[Square | None]]:
    """Each hero's square at the end of the Heroes' Movement step of every turn: hero id
    -> a list indexed by turn - 1, up to the last turn of the log.

    The square is where the hero's last ``moved`` of that turn's ``movement`` step took
    it; a hero that did not move then stands where it stood when the turn began (evasion
    moves of earlier turns included). ``None``: the hero was not on the board at the end
    of that step (it had left, by the end of that turn, or died in an earlier turn) or
    its square is unknown (no start square given and no move yet).
    """
    where: dict[str, Square] = dict(starts or {})
    heroes: list[str] = list(where)
    gone: dict[str, int] = {}  # hero -> the first turn it is not counted in
    at_start: dict[int, dict[str, Square]] = {}
    moved: dict[int, dict[str, Square]] = {}
    last = 0
    for entry in entries:
        time = entry.time
        turn = getattr(time, "turn", last)
        if turn != last:
            for t in range(last + 1, turn + 1):
                at_start[t] = dict(where)
            last = turn
        event = entry.event
        kind = event.type
        if kind == "adventure.started":
            heroes.extend(h for h in event.fields.get("heroes", ()) if h not in heroes)
        elif kind == "moved":
            hero = str(event.fields["actor"])
            square = _square(event.fields["to"])
            where[hero] = square
            if hero not in heroes:
                heroes.append(hero)
            if getattr(time, "step", "") == "movement":
                moved.setdefault(turn, {})[hero] = square
        elif kind == "hero.left":
            gone.setdefault(str(event.fields["hero"]), turn)
        elif kind == "hero.died":
            gone.setdefault(str(event.fields["hero"]), turn + 1)
    out: dict[str, list[Square | None]] = {}
    for hero in heroes:
        squares: list[Square | None] = []
        for turn in range(1, last + 1):
            if turn >= gone.get(hero, last + 1):
                squares.append(None)
                continue
            there = moved.get(turn, {}).get(hero)
            squares.append(there if there is not None else at_start[turn].get(hero))
        out[hero] = squares
    return out


def count_shuttles(squares: Sequence[Square | None]) -> int:
    """The A-B-A-B runs in one hero's squares, turn by turn (:func:`shuttles`)."""
    found = 0
    run = 0  # the length of the alternating run that ends at this turn
    for i, square in enumerate(squares):
        if square is None:
            run = 0
        elif run == 0 or square == squares[i - 1]:
            run = 1
        elif run == 1:
            run = 2
        else:
            run = run + 1 if square == squares[i - 2] else 2
        if run == 4:
            found += 1
    return found


def shuttles(entries: Iterable[LogEntry], starts: Mapping[str, Square] | None = None) -> int:
    """The shuttles of a game: a hero's end-of-movement square
    (:func:`end_of_movement_squares`) going A, B, A, B over four consecutive turns with
    A != B. A run that keeps alternating (A-B-A-B-A-B...) counts once; a turn where the
    hero stays put, is off the board or goes to a third square ends the run, so A-B-A-C
    counts 0 and A-B-A-B-B-A-B-A counts 2. Summed over the heroes."""
    return sum(count_shuttles(s) for s in end_of_movement_squares(entries, starts).values())


# -- goal-area trait tests -------------------------------------------------------------------


@dataclass(frozen=True)
class GoalTest:
    """The room-text trait tests of one turn in one ``visit`` goal's area."""

    turn: int
    area: str
    tested: tuple[str, ...]
    """The heroes tested (each once), in the order of their first test."""
    explorers: int
    """Heroes who chose to explore (``explore.choice``) and stood in the area."""
    could_join: int
    """Living heroes on the board who stood in the area at the test, or could have
    walked there that turn (:func:`goal_tests`)."""

    @property
    def short(self) -> bool:
        """Fewer heroes explored the area than could have joined."""
        return self.explorers < self.could_join


def is_trait_test(entry: LogEntry) -> bool:
    """A room text's trait test: a ``roll`` citing C-EXPL-01 with a ``trait`` field, or a
    ``trait.tested`` (a test without a roll), both from ``resolve.trait_test``."""
    event = entry.event
    if event.type == "trait.tested":
        return True
    return event.type == "roll" and TRAIT_TEST_RULE in event.rules and "trait" in event.fields


def reachable(start: Square, budget: int, passable: Set[Square], goal: Set[Square]) -> bool:
    """Whether a square of ``goal`` lies within ``budget`` steps of ``start``, walking
    orthogonally (as the rules count squares) through ``passable`` squares, figures ignored."""
    if start in goal:
        return True
    seen = {start}
    todo: deque[tuple[Square, int]] = deque([(start, 0)])
    while todo:
        (x, y), d = todo.popleft()
        if d >= budget:
            continue
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in seen or nxt not in passable:
                continue
            if nxt in goal:
                return True
            seen.add(nxt)
            todo.append((nxt, d + 1))
    return False


def goal_tests(
    entries: Iterable[LogEntry],
    board: Board,
    goal_areas: Iterable[str],
    movement: Mapping[str, int] | None = None,
) -> list[GoalTest]:
    """Every turn's room-text trait tests (:func:`is_trait_test`) in an area a ``visit``
    goal names, one :class:`GoalTest` per (turn, area): a test counts for the area of the
    square the tested hero stands on.

    ``explorers``: heroes whose ``explore.choice`` that turn said ``explore: true`` and who
    stand in the area. ``could_join``: the living heroes on the board (started, not died,
    not left) when the area's first test that turn came that either stand in the area
    then (explorers or not, resting included), or could have walked into it that turn:
    from their square at the start of the turn, within their Movement (``movement``, the
    header's profiles, :func:`movement_of`) + 3 squares bought with Stamina, - 1 at Light
    0 (C-LIGHT-02), through squares that were open ground or doors opened by then,
    figures ignored. That reach is an upper bound: it ignores figures in the way, Stamina
    the hero did not have, doors it would have had to force, and a hero that was resting
    or surprised. Without ``movement`` (or a hero's start-of-turn square) every living
    hero on the board counts as able to join.
    """
    areas = board.areas
    goals = set(goal_areas)
    squares_of: dict[str, set[Square]] = {}
    for square, name in areas.items():
        if name in goals:
            squares_of.setdefault(name, set()).add(square)
    where: dict[str, Square] = dict(board.starts)
    passable: set[Square] = set(board.open_ground)
    living: list[str] = [h for h in board.starts]
    at_start: dict[str, Square] = dict(where)
    light_at_start = 1
    turn = 0
    explorers: set[str] = set()
    found: dict[tuple[int, str], tuple[list[str], int, int]] = {}
    for entry in entries:
        t = getattr(entry.time, "turn", turn)
        if t != turn:
            turn, at_start, explorers = t, dict(where), set()
        event = entry.event
        kind = event.type
        fields = event.fields
        if kind == "adventure.started":
            living.extend(h for h in fields.get("heroes", ()) if h not in living)
        elif kind == "turn.started":
            light_at_start = int(fields.get("light", 1))
            at_start = dict(where)
        elif kind == "moved":
            where[str(fields["actor"])] = _square(fields["to"])
        elif kind == "door.opened":
            passable.add(_square(fields["door"]))
        elif kind in ("hero.left", "hero.died"):
            if fields["hero"] in living:
                living.remove(str(fields["hero"]))
        elif kind == "explore.choice":
            if fields.get("explore"):
                explorers.add(str(fields["hero"]))
        elif is_trait_test(entry):
            hero = str(fields.get("hero", fields.get("actor")))
            pos = where.get(hero)
            area = areas.get(pos) if pos is not None else None
            if area is None or area not in goals:
                continue
            key = (turn, area)
            if key in found:
                tested = found[key][0]
                if hero not in tested:
                    tested.append(hero)
                continue
            inside = [h for h in living if h in where and areas.get(where[h]) == area]
            joined = sum(1 for h in inside if h in explorers)
            able = len(inside)
            for other in living:
                if other in inside:
                    continue
                allowance = movement.get(other) if movement is not None else None
                start = at_start.get(other, where.get(other))
                if allowance is None or start is None:
                    able += 1
                    continue
                budget = allowance + MAX_STAMINA_SQUARES - (1 if light_at_start <= 0 else 0)
                if reachable(start, budget, passable, squares_of[area]):
                    able += 1
            found[key] = ([hero], joined, able)
    return [
        GoalTest(turn, area, tuple(tested), joined, able)
        for (turn, area), (tested, joined, able) in found.items()
    ]


def short_goal_tests(
    entries: Iterable[LogEntry],
    board: Board,
    goal_areas: Iterable[str],
    movement: Mapping[str, int] | None = None,
) -> int:
    """The (turn, goal area) trait tests of :func:`goal_tests` that fewer heroes explored
    than could have joined (``explorers < could_join``)."""
    return sum(1 for test in goal_tests(entries, board, goal_areas, movement) if test.short)


# -- fights at Light 0 -----------------------------------------------------------------------


def light_zero_fights(entries: Iterable[LogEntry]) -> tuple[int, int]:
    """(fights at Light 0, all fights): the ``fight`` events whose ``hero_modifiers`` hold
    the Light 0 penalty ``light`` (C-LIGHT-02, C-FIGHT-02), and every ``fight`` event."""
    dark = fights = 0
    for entry in entries:
        if entry.event.type == "fight":
            fights += 1
            if "light" in entry.event.fields.get("hero_modifiers", {}):
                dark += 1
    return dark, fights


# -- healing carried out unused --------------------------------------------------------------


@dataclass
class Held:
    """An item instance as the log tells it: who holds it, its card, its uses left."""

    holder: str | None
    card: str
    uses: int


def held_items(
    header: Header, entries: Iterable[LogEntry], uses: Mapping[str, int] | None = None
) -> dict[str, Held]:
    """Every item instance of the game by uid, with who holds it at the end of
    ``entries`` (``None``: used up or eaten with a corpse; a dead hero's id: its corpse).

    The header's heroes start with their profile's ``items``, numbered ``item-1``,
    ``item-2``, ... in header order (as ``State.new_item`` numbers them); then
    ``item.found`` (taken), ``item.traded`` (giver to receiver, a dead hero's corpse
    included), ``item.used`` (one use gone, of ``uses``: card -> uses, 1 if not given),
    ``hero.died`` (the items stay with the corpse, under the hero's id),
    ``corpse.rescued`` (the corpse's items go to the hero who carried it out) and
    ``corpse.eaten`` (gone). Scrolls read, cast or memorized are not followed.
    """
    per_card = uses or {}
    items: dict[str, Held] = {}
    number = 0
    for actor in header.actors:
        if actor.kind != "hero":
            continue
        for name in actor.profile.get("items", ()):
            number += 1
            items[f"item-{number}"] = Held(actor.id, str(name), per_card.get(str(name), 1))
    for entry in entries:
        event = entry.event
        kind = event.type
        fields = event.fields
        if kind == "item.found":
            name = str(fields.get("card", ""))
            items[str(fields["item"])] = Held(str(fields["hero"]), name, per_card.get(name, 1))
        elif kind == "item.traded":
            uid = str(fields["item"])
            items.setdefault(uid, Held(None, "", 1)).holder = str(fields["receiver"])
        elif kind == "item.used":
            uid = str(fields["item"])
            name = str(fields.get("card", ""))
            held = items.setdefault(uid, Held(str(fields["hero"]), name, per_card.get(name, 1)))
            held.card = name or held.card
            held.uses -= 1
            if held.uses <= 0:
                held.holder = None
        elif kind == "corpse.rescued":
            corpse, hero = str(fields["corpse"]), str(fields["hero"])
            for held in items.values():
                if held.holder == corpse:
                    held.holder = hero
        elif kind == "corpse.eaten":
            corpse = str(fields["corpse"])
            for held in items.values():
                if held.holder == corpse:
                    held.holder = None
    return items


def healing_items_left(
    header: Header,
    entries: Sequence[LogEntry],
    summary: Mapping[str, Any] | None,
    healing: Mapping[str, int],
) -> int:
    """In a game where a hero died (a ``hero.died`` came, or the summary's ``dead`` is
    not empty), the healing potions (``healing``: card -> uses, :func:`healing_cards`)
    that heroes who escaped (the summary's ``escaped``) held at the end
    (:func:`held_items`), each with at least one use left: carried out unused while a
    hero died. 0 in a game without a death."""
    results = summary or {}
    died = any(e.event.type == "hero.died" for e in entries)
    if not (died or results.get("dead")):
        return 0
    escaped = set(results.get("escaped", ()))
    return sum(
        1
        for held in held_items(header, entries, healing).values()
        if held.holder in escaped and held.card in healing and held.uses > 0
    )


# -- spells with no target -------------------------------------------------------------------


def no_target_fizzles(entries: Iterable[LogEntry]) -> tuple[int, int]:
    """(castings that fizzled for lack of a target, castings begun): the ``spell.fizzled``
    events whose ``reason`` is ``no target`` (none in range when the casting step came,
    C-CMB-01), and the ``casting.begun`` events (Spell Selection)."""
    fizzled = begun = 0
    for entry in entries:
        kind = entry.event.type
        if kind == "casting.begun":
            begun += 1
        elif kind == "spell.fizzled" and entry.event.fields.get("reason") == "no target":
            fizzled += 1
    return fizzled, begun


# -- one game ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameQuality:
    """Every measure of one game."""

    won: bool
    deaths: int
    shuttles: int
    goal_tests: int
    short_goal_tests: int
    fights: int
    light_zero_fights: int
    healing_left: int
    castings: int
    no_target_fizzles: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def game_quality(
    log: EventLog,
    board: Board,
    goal_areas: Iterable[str],
    healing: Mapping[str, int],
) -> GameQuality:
    """The measures of one game's log (a complete one: its summary says who escaped)."""
    entries = log.entries
    summary = dict(log.summary.results) if log.summary is not None else {}
    tests = goal_tests(entries, board, goal_areas, movement_of(log.header))
    dark, fights = light_zero_fights(entries)
    fizzled, begun = no_target_fizzles(entries)
    return GameQuality(
        won=bool(summary.get("won")),
        deaths=len(summary.get("dead", ())),
        shuttles=shuttles(entries, board.starts),
        goal_tests=len(tests),
        short_goal_tests=sum(1 for t in tests if t.short),
        fights=fights,
        light_zero_fights=dark,
        healing_left=healing_items_left(log.header, entries, summary, healing),
        castings=begun,
        no_target_fizzles=fizzled,
    )
