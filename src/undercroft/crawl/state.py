"""The mutable game: figures, board, Light, the turn, and the decision interface.

``State`` follows the OpenSpiel shape: :meth:`State.current_player` is a hero seat, the
DM or CHANCE; :meth:`State.legal_actions` lists typed actions; :meth:`State.apply`
performs one; at a CHANCE node :meth:`State.chance_outcomes` gives every die result with
its exact ``Fraction``. The state holds no RNG. Rules live in the rule-area modules
(``turn``, ``movement``, ``doors``, ``reveal``, ``monsters``, ``combat``, ``traps``,
``spells``, ``explore``, ``resolve``), which register their handlers with
:mod:`undercroft.crawl.engine`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from undercroft import __version__
from undercroft.core.dice import outcomes
from undercroft.core.events import (
    Actor,
    CrawlTime,
    Event,
    EventSink,
    Header,
    NullLog,
    roll_event,
    write_text_atomic,
)
from undercroft.core.grid import DOOR_CODE, FLOOR_CODE, OPEN_CODE, DoorState, Grid, Pos, Terrain
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.core.sight import Sight
from undercroft.crawl import engine
from undercroft.crawl.actions import Action, Roll, actor_of
from undercroft.crawl.engine import Pending, Seat, Task
from undercroft.crawl.figures import Corpse, Door, Hero, Item, Monster, Trap
from undercroft.crawl.ruleset import HeroProfile, Ruleset, Trait

A = TypeVar("A", bound=Action)
SAVE_FORMAT: Final = 1
REASONS: Final = {
    "escaped": "every surviving hero left the dungeon (C-END-01)",
    "perished": "no hero is left alive in the dungeon",
    "turn_cap": "the safety cap of {cap} turns was reached (Options.max_turns)",
}


def plain(value: Any) -> Any:
    """``value`` as JSON gives it back: tuples as lists (effects and their squares are
    stored as tuples until a save is loaded), dicts and lists copied, the rest as is."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


class IllegalActionError(ValueError):
    """An action that is not legal in the current state."""


class SaveError(ValueError):
    """A saved game that cannot be loaded."""


@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """A crawl game in progress."""

    def __init__(
        self,
        ruleset: Ruleset,
        party: Iterable[str],
        *,
        sink: EventSink | None = None,
        gear: Mapping[str, Sequence[str]] | None = None,
    ):
        adventure = ruleset.adventure
        self.ruleset = ruleset
        self.options = ruleset.options
        self.sink: EventSink = sink or NullLog()
        self.grid: Grid = adventure.board.copy()
        self.sight = Sight(self.grid)
        # C-DIST-01: walking distances go through opened doors only (R-CORE-DIST-01).
        self.paths = Pathfinder(self.grid, DoorPassage.OPEN_ONLY)
        self.turn = 1
        self.step = "turn_start"
        # C-LIGHT-01: 20 turns of Light unless the options or the adventure say otherwise.
        self.light = adventure.light if adventure.light is not None else ruleset.options.light
        self.heroes: dict[str, Hero] = {}
        self.roster: tuple[Hero, ...] = ()
        """The heroes of :attr:`heroes` in party order, the same objects: the party is set
        once (here or by :meth:`from_json`) and never changes, and the rules ask for the
        heroes on the board thousands of times a game (a tuple walks faster than a dict)."""
        self.monsters: dict[str, Monster] = {}
        self.items: dict[str, Item] = {}
        self.counters: dict[str, int] = {}
        self.doors: dict[Pos, Door] = {}
        self.traps: dict[Pos, Trap] = {p: Trap(kind) for p, kind in adventure.traps.items()}
        self.revealed: set[str] = set()
        self.placed: set[int] = set()
        self.texts_done: set[int] = set()
        self.corpses: dict[Pos, Corpse] = {}
        self.rescued: list[str] = []
        self.exits: set[Pos] = set(adventure.exits)
        self.opened_squares: list[Pos] = []
        self.patrol_corridors: list[str] = []
        self.goals_met: set[str] = set()
        self.fights: list[dict[str, Any]] = []
        self.stack: list[Task] = []
        self.pending: Pending | None = None
        self.outcome: str | None = None
        self.history: list[Action] = []
        self._legal: list[Action] | None = None
        self._walk_version = -1
        self._walk: list[list[bool]] = []
        self._now = CrawlTime(-1, "")
        self.derived: dict[str, Any] = {}
        """Caches of things worked out from the state (observers' boards, rooms in play),
        each stored with the key it is valid for: never saved, never compared."""
        self.views: dict[str, tuple[int, Pos]] = {}
        """(board version, square) of each hero's last look (``reveal.update_view``):
        derived, never saved."""
        # Every door square, row by row (numpy finds them: clones build states often).
        ys, xs = (self.grid.terrain == Terrain.DOOR).nonzero()
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            p = Pos(x, y)
            self.doors[p] = Door(opened=self.grid.door_at(p) is DoorState.OPEN)
        party = list(party)
        if len(party) > len(adventure.starts):
            raise ValueError(
                f"the adventure has {len(adventure.starts)} start squares, "
                f"the party has {len(party)} heroes"
            )
        for profile_id, start in zip(party, adventure.starts, strict=False):
            profile = ruleset.hero(profile_id)
            hero = Hero(
                id=f"hero:{profile_id}",
                profile=profile_id,
                pos=start,
                health=profile.health,
                stamina=profile.stamina,
                magic=profile.magic,
                spells=list(profile.spells),
            )
            self.heroes[hero.id] = hero
            # C-SETUP-04: a campaign hero brings what it kept; otherwise its card's items.
            cards = gear[profile_id] if gear is not None and profile_id in gear else profile.items
            for card in cards:
                hero.items.append(self.new_item(card, identified=True))
        self.roster = tuple(self.heroes.values())

    # -- the game interface ------------------------------------------------------------

    def start(self) -> None:
        """Begin the adventure: the heroes' first look, then turn 1 (the rule modules
        handle both tasks)."""
        self.emit(
            "adventure.started",
            ["C-SETUP-03"],
            adventure=self.ruleset.adventure.id,
            light=self.light,
            heroes=[h.id for h in self.heroes.values()],
        )
        self.push(Task("first_look"), Task("turn_start"))
        self.run()

    def current_player(self) -> Seat | None:
        """Who decides now: a seat, or ``None`` when the game is over."""
        return None if self.pending is None else self.pending.seat

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def legal_actions(self) -> list[Action]:
        """The actions allowed now (computed once per decision point)."""
        if self._legal is None:
            if self.pending is None:
                self._legal = []
            elif self.pending.seat is Seat.CHANCE:
                self._legal = [Roll(o.natural) for o in outcomes(self.pending.args["dice"])]
            else:
                self._legal = engine.LEGAL[self.pending.kind](self, self.pending)
        return list(self._legal)

    def legal_actions_of(self, kind: type[A], actor: str | None = None) -> list[A]:
        """The legal actions of type ``kind`` (those of ``actor``, a hero or monster id,
        if given), in the order :meth:`legal_actions` lists them. Decisions that can
        answer for one kind and actor do so without listing every legal action (the
        Movement steps: a policy asks what one hero can do)."""
        pending = self.pending
        if actor is not None and pending is not None:
            lister = engine.OPTIONS.get(pending.kind)
            found = None if lister is None else lister(self, kind, actor)
            if found is not None:
                return found  # type: ignore[return-value]
        return [
            a
            for a in self.legal_actions()
            if type(a) is kind and (actor is None or actor_of(a) == actor)
        ]

    def legal_actors(self) -> list[str]:
        """The heroes or monsters with a legal action now, in the order
        :meth:`legal_actions` first lists an action of each."""
        pending = self.pending
        lister = None if pending is None else engine.ACTORS.get(pending.kind)
        if lister is not None:
            return lister(self)
        found = (actor_of(a) for a in self.legal_actions())
        return list(dict.fromkeys(a for a in found if a is not None))

    def chance_outcomes(self) -> list[tuple[Roll, Fraction]]:
        """Every result of the pending roll with its exact probability."""
        if self.pending is None or self.pending.seat is not Seat.CHANCE:
            return []
        return [(Roll(o.natural), o.probability) for o in outcomes(self.pending.args["dice"])]

    def apply(self, action: Action) -> None:
        """Perform ``action``; :class:`IllegalActionError` if it is not legal now."""
        pending = self.pending
        if pending is None:
            raise IllegalActionError("the adventure is over; no action is legal")
        if not self._is_legal(pending, action):
            raise IllegalActionError(
                f"{action.describe()} is not legal now (waiting for {pending.seat.value}: "
                f"{pending.kind})"
            )
        self.history.append(action)
        self.pending = None
        self._legal = None
        if pending.seat is Seat.CHANCE:
            assert isinstance(action, Roll)
            engine.ROLLS[pending.args["roll"]](self, pending.args, action.natural)
        else:
            engine.ON_ACTION[pending.kind](self, pending, action)
        self.run()

    def _is_legal(self, pending: Pending, action: Action) -> bool:
        if pending.seat is Seat.CHANCE:
            dice = pending.args["dice"]
            return (
                isinstance(action, Roll)
                and len(action.natural) == dice
                and all(1 <= n <= 6 for n in action.natural)
            )
        check = engine.CHECKS.get(pending.kind)
        if check is not None:
            return check(self, pending, action)
        return action in self.legal_actions()

    def run(self) -> None:
        """Pop tasks until a decision is needed or the game ends."""
        while self.pending is None and self.stack and self.outcome is None:
            item = self.stack.pop()
            engine.TASKS[item.kind](self, item)
        if self.outcome is not None:
            self.stack.clear()
            self.pending = None

    def push(self, *tasks: Task) -> None:
        """Schedule tasks to run in the order given (the first runs next)."""
        if len(tasks) == 1:
            self.stack.append(tasks[0])  # most pushes: no reversed copy to make
        else:
            self.stack.extend(tasks[::-1])

    def ask(self, seat: Seat, kind: str, **args: Any) -> None:
        self.pending = Pending(seat, kind, args)
        self._legal = None

    def offer(self, legal: list[Action]) -> None:
        """The legal actions of the decision just asked, listed by the task that asked it
        (to see whether there was a choice) with the state as it is now: kept, so they
        are not listed again."""
        self._legal = legal

    def ask_roll(self, roll: str, dice: int = 1, **args: Any) -> None:
        """Stop at a CHANCE node: ``dice`` d6 whose naturals go to the ``roll`` handler."""
        self.pending = Pending(Seat.CHANCE, "roll", {"roll": roll, "dice": dice, **args})
        self._legal = None

    def finish(self, outcome: str) -> None:
        """End the adventure."""
        if self.outcome is None:
            self.outcome = outcome
            for closing in engine.CLOSING:  # C-IDENT-02, then the goals (C-END-01)
                closing(self)
            self.emit("adventure.ended", ["C-END-01"], **self.summary())

    # -- events -------------------------------------------------------------------------

    def emit(self, event_type: str, rules: list[str], /, **fields: Any) -> None:
        """Log an event of ``event_type`` decided by ``rules`` (skipped with the log off)."""
        if self.sink.enabled:
            self.sink.emit(self.now(), Event(event_type, tuple(rules), fields))

    def emit_roll(
        self,
        rules: Sequence[str],
        actor: str,
        natural: Sequence[int],
        outcome: str | int,
        *,
        modifiers: Mapping[str, int] | None = None,
        **inputs: Any,
    ) -> None:
        """Log a ``roll`` event (:func:`~undercroft.core.dice.roll_event`), built only
        when the log is on."""
        if self.sink.enabled:
            event = roll_event(rules, actor, natural, outcome, modifiers=modifiers, **inputs)
            self.sink.emit(self.now(), event)

    def emit_event(self, event: Event) -> None:
        if self.sink.enabled:
            self.sink.emit(self.now(), event)

    def now(self) -> CrawlTime:
        """The time of an event now: one object while the turn and step stay the same
        (it is frozen; a game logs over a thousand events)."""
        now = self._now
        if now.turn != self.turn or now.step != self.step:
            now = self._now = CrawlTime(self.turn, self.step)
        return now

    def header(self, seed: int, scenario: str | None = None) -> Header:
        """The log header: every actor at the start with its profile."""
        actors = []
        for hero in self.heroes.values():
            p = self.ruleset.hero(hero.profile)
            actors.append(
                Actor(
                    hero.id,
                    "hero",
                    {
                        "name": p.name,
                        "traits": sorted(t.value for t in p.traits),
                        "movement": p.movement,
                        "fighting": p.fighting,
                        "damage": p.damage,
                        "health": p.health,
                        "stamina": p.stamina,
                        "magic": p.magic,
                        "spells": list(p.spells),
                        "items": [self.items[i].card for i in hero.items],
                    },
                )
            )
        return Header(
            ruleset="crawl",
            version=__version__,
            seed=seed,
            scenario=scenario or self.ruleset.adventure.id,
            options=self.options.as_dict(),
            actors=tuple(actors),
        )

    # -- queries used across rule modules ----------------------------------------------

    def hero_profile(self, hero: Hero) -> HeroProfile:
        # The mapping itself, not ``Ruleset.hero``: the ruleset runs as Python, and a
        # Python call costs more than the lookup (about 1,400 a game).
        return self.ruleset.heroes[hero.profile]

    def has_trait(self, hero: Hero, trait: Trait) -> bool:
        # ``HeroProfile.has`` inlined, for the same reason; the traits walked rather than
        # hashed (an Enum hashes in Python: about 270 calls a game).
        # A loop, not ``any()``: compiled, ``any`` over a generator makes an object a call.
        for held in self.hero_profile(hero).traits:  # noqa: SIM110
            if held is trait:
                return True
        return False

    def active_heroes(self) -> list[Hero]:
        """Heroes on the board, in party order."""
        # ``Hero.on_board`` inlined (about 2,000 calls a game).
        return [h for h in self.roster if h.pos is not None and not h.dead and not h.left]

    def in_combat(self) -> bool:
        """Monsters are on the board (C-CMB-01)."""
        return bool(self.monsters)

    def occupied(self) -> set[Pos]:
        """Squares holding a figure or a corpse (C-LOS-01: they block movement)."""
        taken = {h.pos for h in self.roster if h.pos is not None and not h.dead and not h.left}
        taken.update(m.pos for m in self.monsters.values())
        taken.update(self.corpses)
        return taken

    def walkable(self, pos: Pos) -> bool:
        """A square a figure may stand on, ignoring figures: floor without furniture, or an
        opened door (C-DOOR-01: an unopened door must be forced first)."""
        rows = self.walk_rows()
        x, y = pos
        return 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x]

    def walk_rows(self) -> list[list[bool]]:
        """:meth:`walkable` for every square, row by row (``rows[y][x]``), as plain lists:
        asked square by square thousands of times a game, rebuilt only when the board
        changes (a door opens). Read-only."""
        g = self.grid
        if self._walk_version != g.version:
            change = g.last_change
            if change is not None and change[0] == g.version == self._walk_version + 1:
                # One square changed since these rows (a door opened): redraw that square
                # in a copy of its row; rows handed out before stay as they were.
                p = change[1]
                row = list(self._walk[p.y])
                row[p.x] = self._walkable_at(p)
                self._walk = list(self._walk)
                self._walk[p.y] = row
            else:
                self._walk = self._walkable_in(slice(None), slice(None))
            self._walk_version = g.version
        return self._walk

    def _walkable_in(self, rows: slice, columns: slice) -> list[list[bool]]:
        """:meth:`walkable` for the squares of a part of the grid as it is now: floor
        without furniture, or an opened door (C-DOOR-01)."""
        g = self.grid
        terrain = g.terrain[rows, columns]
        floor = (terrain == FLOOR_CODE) & ~g.furniture[rows, columns]
        opened = (terrain == DOOR_CODE) & (g.door[rows, columns] == OPEN_CODE)
        found: list[list[bool]] = (floor | opened).tolist()
        return found

    def _walkable_at(self, p: Pos) -> bool:
        """:meth:`_walkable_in` for one square (the one a door opening changed), read
        without numpy arrays (C-DOOR-01)."""
        g = self.grid
        terrain = g.terrain.item(p.y, p.x)
        if terrain == FLOOR_CODE:
            return not g.furniture.item(p.y, p.x)
        return bool(terrain == DOOR_CODE and g.door.item(p.y, p.x) == OPEN_CODE)

    def free(self, pos: Pos) -> bool:
        return self.walkable(pos) and pos not in self.occupied()

    def area_of(self, pos: Pos) -> str | None:
        info = self.grid.area_at(pos)
        return None if info is None else info.name

    def area_kind(self, name: str) -> str:
        for info in self.grid.areas:
            if info.name == name:
                return info.kind
        return "room"

    def heroes_in_area(self, area: str) -> list[Hero]:
        return [h for h in self.active_heroes() if h.pos and self.area_of(h.pos) == area]

    def new_id(self, prefix: str) -> str:
        n = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = n
        return f"{prefix}-{n}"

    def new_item(self, card: str, *, identified: bool | None = None) -> str:
        """Create an item instance; potions, scrolls and magic items start face down."""
        info = self.ruleset.items[card]
        if identified is None:
            identified = not info.kind.face_down
        uid = self.new_id("item")
        self.items[uid] = Item(uid, card, identified, uses=info.uses)
        return uid

    def light_penalty(self) -> int:
        """-1 at Light 0 (C-LIGHT-02), else 0."""
        return -1 if self.light <= 0 else 0

    def trait_bonus(self, hero: Hero, trait: Trait) -> dict[str, int]:
        """``{trait: +1}`` if the hero has the trait, else nothing: the one way a trait
        modifies a roll (C-SETUP-05), named after the trait as the log contract says."""
        return {trait.value: 1} if self.has_trait(hero, trait) else {}

    def perception_modifiers(self, hero: Hero) -> dict[str, int]:
        """The modifiers of Surprise and Detect Traps rolls alike: Perceptive +1
        (C-SURP-03, C-TRAP-04) and -1 at Light 0 (C-LIGHT-02)."""
        modifiers: dict[str, int] = {}
        if self.has_trait(hero, Trait.PERCEPTIVE):
            modifiers["Perceptive"] = 1
        if self.light_penalty():
            modifiers["light"] = self.light_penalty()
        return modifiers

    # -- summary, clone, save/load ---------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The headline results (ARCHITECTURE.md, "The event log"). ``won``: the adventure
        is complete (C-END-01: every surviving hero left, outcome ``escaped``) and every
        goal was met; a party that perished has not completed it (R-C-END-01, switch
        ``won_if_perished``). Goals are listed in the adventure's order."""
        heroes = list(self.heroes.values())
        goals = [g.id for g in self.ruleset.adventure.goals]
        failed = [g for g in goals if g not in self.goals_met]
        complete = self.outcome == "escaped" or (
            self.outcome == "perished" and self.options.won_if_perished
        )
        return {
            "outcome": self.outcome,
            "won": complete and not failed,
            "goals_met": [g for g in goals if g in self.goals_met],
            "goals_failed": failed,
            "reason": REASONS.get(str(self.outcome), "").format(cap=self.options.max_turns),
            "turns": self.turn,
            "light": self.light,
            "escaped": [h.id for h in heroes if h.left],
            "dead": [h.id for h in heroes if h.dead],
            "corpses_out": list(self.rescued),
            "goals": sorted(self.goals_met),
            "treasure": sum(
                self.ruleset.items[self.items[i].card].value
                for h in heroes
                if h.left
                for i in h.items
            ),
        }

    def to_json(self) -> dict[str, Any]:
        """Everything that changes during a game, as JSON values."""

        def pos(p: Pos | None) -> list[int] | None:
            return None if p is None else [p.x, p.y]

        def record(obj: Any) -> dict[str, Any]:
            data: dict[str, Any] = {}
            for f in fields(obj):
                value = getattr(obj, f.name)
                if isinstance(value, Pos):
                    value = pos(value)
                elif isinstance(value, list):
                    value = [pos(v) if isinstance(v, Pos) else v for v in value]
                elif isinstance(value, dict):
                    value = json.loads(json.dumps(value))
                data[f.name] = value
            return data

        return {
            "format": SAVE_FORMAT,
            "version": __version__,
            "adventure": self.ruleset.adventure.id,
            "turn": self.turn,
            "step": self.step,
            "light": self.light,
            "heroes": [record(h) for h in self.heroes.values()],
            "monsters": [record(m) for m in self.monsters.values()],
            "items": [asdict(i) for i in self.items.values()],
            "counters": dict(self.counters),
            "doors": [[p.x, p.y, d.opened, d.jammed] for p, d in self.doors.items()],
            "traps": [[p.x, p.y, asdict(t)] for p, t in self.traps.items()],
            "revealed": sorted(self.revealed),
            "placed": sorted(self.placed),
            "texts_done": sorted(self.texts_done),
            "corpses": [[p.x, p.y, c.hero, c.items] for p, c in self.corpses.items()],
            "rescued": list(self.rescued),
            "exits": sorted([p.x, p.y] for p in self.exits),
            "opened_squares": [[p.x, p.y] for p in self.opened_squares],
            "patrol_corridors": list(self.patrol_corridors),
            "goals_met": sorted(self.goals_met),
            "fights": plain(self.fights),
            "stack": [plain(t.to_json()) for t in self.stack],
            "pending": None if self.pending is None else plain(self.pending.to_json()),
            "outcome": self.outcome,
        }

    @classmethod
    def from_json(
        cls, ruleset: Ruleset, data: dict[str, Any], *, sink: EventSink | None = None
    ) -> State:
        """Rebuild a state saved by :meth:`to_json` (``SaveError`` if it does not fit)."""
        if data.get("format") != SAVE_FORMAT:
            raise SaveError(f"save format {data.get('format')!r} is not {SAVE_FORMAT}")
        if data.get("adventure") != ruleset.adventure.id:
            raise SaveError(
                f"the save is of adventure {data.get('adventure')!r}, not {ruleset.adventure.id!r}"
            )
        try:
            return cls._from_json(ruleset, data, sink)
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"the saved game is damaged: {exc!r}") from None

    @classmethod
    def _from_json(cls, ruleset: Ruleset, data: dict[str, Any], sink: EventSink | None) -> State:
        state = cls(ruleset, [], sink=sink)
        state.turn, state.step, state.light = data["turn"], data["step"], data["light"]

        def pos(v: Any) -> Pos | None:
            return None if v is None else Pos(v[0], v[1])

        for h in data["heroes"]:
            h = dict(h)
            h["pos"] = pos(h["pos"])
            h["dragging"] = pos(h["dragging"])
            h["failed_doors"] = [Pos(*p) for p in h["failed_doors"]]
            h["failed_disarms"] = [Pos(*p) for p in h["failed_disarms"]]
            state.heroes[h["id"]] = Hero(**h)
        state.roster = tuple(state.heroes.values())
        for m in data["monsters"]:
            m = dict(m)
            m["pos"] = Pos(*m["pos"])
            state.monsters[m["id"]] = Monster(**m)
        state.items = {i["uid"]: Item(**i) for i in data["items"]}
        state.counters = dict(data["counters"])
        state.doors = {Pos(x, y): Door(o, j) for x, y, o, j in data["doors"]}
        state.traps = {Pos(x, y): Trap(**t) for x, y, t in data["traps"]}
        state.revealed = set(data["revealed"])
        state.placed = set(data["placed"])
        state.texts_done = set(data["texts_done"])
        state.corpses = {Pos(x, y): Corpse(h, list(i)) for x, y, h, i in data["corpses"]}
        state.rescued = list(data["rescued"])
        state.exits = {Pos(x, y) for x, y in data["exits"]}
        state.opened_squares = [Pos(x, y) for x, y in data["opened_squares"]]
        state.patrol_corridors = list(data["patrol_corridors"])
        state.goals_met = set(data["goals_met"])
        state.fights = data["fights"]
        state.stack = [Task(t["kind"], t["args"]) for t in data["stack"]]
        state.pending = None if data["pending"] is None else Pending.from_json(data["pending"])
        state.outcome = data["outcome"]
        state.sync_board()
        return state

    def sync_board(self) -> None:
        """Make the grid agree with the doors and opened squares (after a load)."""
        for p in self.opened_squares:
            self.grid.set_terrain(p, Terrain.DOOR, DoorState.OPEN)
        for p, door in self.doors.items():
            if self.grid.is_door(p):
                want = DoorState.OPEN if door.opened else DoorState.CLOSED
                if self.grid.door_at(p) is not want:
                    self.grid.set_door(p, want)

    def clone(self) -> State:
        """An independent copy (its log sink is a null log)."""
        copy = State.from_json(self.ruleset, json.loads(json.dumps(self.to_json())))
        copy.history = list(self.history)
        return copy

    def __eq__(self, other: object) -> bool:
        """The same game: everything :meth:`to_json` saves is equal (so a clone, or a
        save loaded back, equals its original)."""
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def save(self, path: str | Path) -> None:
        """Write the game to ``path`` atomically (JSON)."""
        write_text_atomic(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, ruleset: Ruleset, path: str | Path, *, sink: EventSink | None = None) -> State:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:  # ValueError: JSON, digits
            raise SaveError(f"{path}: cannot read the saved game: {exc}") from None
        return cls.from_json(ruleset, data, sink=sink)
