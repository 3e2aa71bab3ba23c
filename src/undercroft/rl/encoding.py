"""Fixed-size encodings of a seat's view for learning agents (docs/rl.md, "Encodings").

Everything here is built from what one seat sees (an
:class:`~undercroft.crawl.observe.Observation`, or its lazy twin the
:class:`~undercroft.crawl.observe.View`: the same fields), never from the
:class:`~undercroft.crawl.state.State`, so the heroes' encoding hides what their
observation hides (ARCHITECTURE.md, "Hidden information"). The only other input is the
public card text of the ruleset: the board's size, the monster kinds, the adventure's
goals and the turn cap, which every player may read.

The observation is one flat ``float32`` vector with values in [0, 1]: ``BOARD_CHANNELS``
planes of the board (``[channel, y, x]``, row-major), then the scalar features. The
action space is a capped index into the seat's legal actions in the order the engine
lists them (:data:`MAX_ACTIONS`); the mask marks the indices that are legal now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from undercroft.crawl.actions import Action
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation, View
from undercroft.crawl.ruleset import Ruleset

MAX_ACTIONS: Final = 1024
"""The size of the fixed action space: index ``i`` is the ``i``-th legal action of the
seat in the engine's order. The most seen in 36 games on the shipped adventures is 303
(the DM's Monsters' Movement); a decision with more offers the first ``MAX_ACTIONS``."""

SQUARE_CHANNELS: Final = (
    "known",  # the square is shown to the seat (not "?")
    "wall",  # "#"
    "blockage",  # "X": rubble or a sealed passage
    "floor",  # ".", "T", "~" or ":"
    "furniture",  # "T"
    "water",  # "~"
    "dark",  # ":"
    "door_closed",  # "+" (or "&")
    "door_open",  # "'"
    "exit",  # an exit square of the adventure
    "revealed_area",  # the square belongs to a revealed room or corridor
)
FIGURE_CHANNELS: Final = (
    "hero",  # any hero on the board
    "monster",  # a monster the seat sees
    "monster_health",  # its Health / 10 (capped at 1)
    "monster_stamina",  # its Stamina / 10 (capped at 1)
    "monster_surprised",  # it is surprised
    "monster_kind",  # (rank of its kind among the ruleset's monster kinds + 1) / kinds
    "trap_armed",  # an armed trap the seat knows of (the heroes: detected ones only)
    "trap_spent",  # a trap sprung or disarmed
    "corpse",  # a dead hero's body
    "corpse_items",  # the number of items on it / 4 (capped at 1)
)
HERO_FIELDS: Final = (
    "present",  # the slot holds a hero of the party
    "on_board",
    "dead",
    "left",  # left the dungeon
    "health",  # / 10, capped at 1
    "stamina",  # / 10, capped at 1
    "magic",  # / 10, capped at 1
    "exhausted",
    "surprised",
    "resting",
    "moves_left",  # / 10, capped at 1 (Movement only)
    "acted",
    "jumped",
    "casting",  # is casting a spell
    "items",  # number carried / 8, capped at 1
    "spells",  # number known / 8, capped at 1
)
STEPS: Final = (
    "turn_start", "movement", "evasion", "fighting", "spell_selection", "casting",
    "explore", "trade", "monster_movement", "turn_end",
)  # fmt: skip
DECISIONS: Final = (
    "movement", "explore_choice", "explore_actions", "take_item", "choice", "text_test", "trade",
    "evasion", "casting_choice", "fight_stamina", "spell_selection", "cast_target",
    "mental_spend", "monster_movement", "roll",
)  # fmt: skip
OUTCOMES: Final = ("escaped", "perished", "turn_cap")
SEATS: Final = (Seat.HEROES, Seat.DM, Seat.CHANCE)
GOAL_SLOTS: Final = 4
GOAL_FIELDS: Final = ("present", "met", "in_hand")
SCALE: Final = 10.0
"""Health, Stamina, Magic and moves are divided by this and capped at 1."""
HERO_COUNT: Final = len(HERO_FIELDS)
BASES_KEPT: Final = 64
"""How many boards' square planes an :class:`Encoder` keeps (a game's board changes a
few dozen times: a door opened, a room revealed, a hero moved in sight of new squares)."""


def capped(value: float, scale: float = SCALE) -> float:
    return min(1.0, max(0.0, value / scale))


class Scaled(dict[float, float]):
    """``scaled[v]`` is ``capped(v, scale)``, each value worked out once (a dict look-up
    where a call would cost more: encode scales some thirty numbers a step)."""

    def __init__(self, scale: float) -> None:
        super().__init__()
        self.scale = scale

    def __missing__(self, value: float) -> float:
        found = self[value] = capped(value, self.scale)
        return found


@dataclass(frozen=True)
class Layout:
    """Where each feature sits in the flat observation vector of one ruleset and party
    size (docs/rl.md lists the same)."""

    width: int
    height: int
    party: int
    kinds: tuple[str, ...]

    @property
    def channels(self) -> tuple[str, ...]:
        per_hero = tuple(f"hero_{i}" for i in range(self.party))
        return SQUARE_CHANNELS + FIGURE_CHANNELS + per_hero

    @property
    def scalars(self) -> tuple[str, ...]:
        names = ["seat_heroes", "seat_dm"]
        names += [f"to_act_{s.value}" for s in SEATS] + ["to_act_none"]
        names += ["turn", "light", "monsters_seen", "legal_actions"]
        names += [f"step_{s}" for s in STEPS] + ["step_other"]
        names += [f"decision_{d}" for d in DECISIONS] + ["decision_none"]
        names += [f"outcome_{o}" for o in OUTCOMES]
        for i in range(self.party):
            names += [f"hero_{i}_{f}" for f in HERO_FIELDS]
        for i in range(GOAL_SLOTS):
            names += [f"goal_{i}_{f}" for f in GOAL_FIELDS]
        return tuple(names)

    @property
    def board_size(self) -> int:
        return len(self.channels) * self.height * self.width

    @property
    def size(self) -> int:
        return self.board_size + len(self.scalars)


# Map-notation byte -> the square channels it lights (the rest of the board is "?").
_CHAR_CHANNELS: Final = {
    ord("#"): ("wall",),
    ord("X"): ("blockage",),
    ord("."): ("floor",),
    ord("T"): ("floor", "furniture"),
    ord("~"): ("floor", "water"),
    ord(":"): ("floor", "dark"),
    ord("+"): ("door_closed",),
    ord("&"): ("door_closed",),
    ord("'"): ("door_open",),
}


def _char_table() -> NDArray[np.float32]:
    """``table[byte]``: the values of the first channels for a square of that byte."""
    table = np.zeros((256, len(SQUARE_CHANNELS)), np.float32)
    for code, names in _CHAR_CHANNELS.items():
        table[code, SQUARE_CHANNELS.index("known")] = 1.0
        for name in names:
            table[code, SQUARE_CHANNELS.index(name)] = 1.0
    return table


CHAR_TABLE: Final = _char_table()


class Encoder:
    """Encodes one seat's view of games of one ruleset and party size.

    The vector is built as fast as the step it follows (the adapters encode at every
    step): the planes the board's squares, exits and revealed areas make are worked out
    once per board a seat sees and kept (:data:`BASES_KEPT` of them), then copied and
    the figures and scalars written over the copy at their flat indices. It gives the
    same vector, byte for byte, as working every plane out afresh (the straightforward
    encoding of tests/rl/reference_encoding.py, compared in tests/rl/test_rl_encoding.py).
    """

    def __init__(self, ruleset: Ruleset, party: int) -> None:
        board = ruleset.adventure.board
        self.layout = Layout(board.width, board.height, party, tuple(sorted(ruleset.monsters)))
        self.max_turns = max(1, ruleset.options.max_turns)
        light = ruleset.adventure.light
        self.max_light = max(1, light if light is not None else ruleset.options.light)
        self.goals = tuple(g.id for g in ruleset.adventure.goals)[:GOAL_SLOTS]
        lay = self.layout
        self._channel = {name: i for i, name in enumerate(lay.channels)}
        self._kind = {k: (i + 1) / len(lay.kinds) for i, k in enumerate(lay.kinds)}
        # The layout's sizes and offsets, worked out once (encode runs at every step).
        self._area = board.height * board.width
        self._board = lay.board_size
        self._size = lay.size
        sc = {name: i for i, name in enumerate(lay.scalars)}
        self._scalar = sc
        # The flat indices of each hero's and each goal's first scalar.
        board_size = lay.board_size
        self._hero_base = tuple(board_size + sc[f"hero_{i}_present"] for i in range(party))
        self._goal_base = tuple(board_size + sc[f"goal_{i}_present"] for i in range(GOAL_SLOTS))
        self._to_act_index: dict[str | None, int] = {
            s.value: sc[f"to_act_{s.value}"] for s in SEATS
        }
        self._to_act_index[None] = sc["to_act_none"]
        self._step_index = {s: sc[f"step_{s}"] for s in STEPS}
        self._decision_index = {d: sc[f"decision_{d}"] for d in DECISIONS}
        self._outcome_index = {o: sc[f"outcome_{o}"] for o in OUTCOMES}
        # The flat offset of each figure channel's plane.
        plane = self._area
        self._hero_plane = tuple(self._channel[f"hero_{i}"] * plane for i in range(party))
        self._figure = {name: self._channel[name] * plane for name in FIGURE_CHANNELS}
        self._bases: dict[tuple[bytes, bytes, tuple[tuple[int, int], ...]], NDArray[np.float32]]
        self._bases = {}
        self._tenths, self._eighths, self._quarters = Scaled(SCALE), Scaled(8.0), Scaled(4.0)

    @property
    def size(self) -> int:
        return self._size

    def _base(
        self, codes: bytes, width: int, areas: bytes, exits: tuple[tuple[int, int], ...]
    ) -> NDArray[np.float32]:
        """The vector with the square channels, exits and revealed areas of a board set
        and every other value 0 (kept per board: the board changes far less often than
        the figures)."""
        key = (codes, areas, exits)
        found = self._bases.get(key)
        if found is not None:
            return found
        lay = self.layout
        h, w = lay.height, lay.width
        vector = np.zeros(self._size, np.float32)
        planes = vector[: self._board].reshape(len(lay.channels), h, w)
        chars = np.frombuffer(codes, np.uint8).reshape(h, width)
        planes[: len(SQUARE_CHANNELS)] = CHAR_TABLE[chars].transpose(2, 0, 1)
        ch = self._channel
        for x, y in exits:
            planes[ch["exit"], y, x] = 1.0
        ranks = np.frombuffer(areas, np.uint8).reshape(h, w)
        planes[ch["revealed_area"]] = ranks != 255
        vector.flags.writeable = False  # shared: encode copies it
        if len(self._bases) >= BASES_KEPT:
            self._bases.clear()
        self._bases[key] = vector
        return vector

    def encode(
        self, seen: Observation | View, into: NDArray[np.float32] | None = None
    ) -> NDArray[np.float32]:
        """The flat observation vector of ``seen`` (values in [0, 1]): a new array, or
        ``into`` (a float32 vector of :attr:`size`) written over."""
        codes, width = seen.board_codes()
        base = self._base(codes, width, seen.area_codes(), seen.exits)
        if into is None:
            vector = base.copy()
        else:
            vector = into
            vector[:] = base
        # Written value by value through a memoryview (a C float store each: a NumPy
        # item assignment costs several times as much, and there are dozens a step). A
        # float64 stored into the float32 view rounds as NumPy's assignment rounds.
        # (Typed Any: typeshed's memoryview takes only ints, a "f" view takes floats.)
        out: Any = vector.data
        w = self.layout.width
        fig = self._figure
        ten, eighth = self._tenths, self._eighths
        hero_plane, hero_any = self._hero_plane, fig["hero"]
        # The heroes' numbers, not the ``heroes`` field's dicts (the same values).
        for i, hero in enumerate(seen.hero_numbers()[: self.layout.party]):
            pos = hero[0]
            if pos is not None:
                at = pos[1] * w + pos[0]
                out[hero_any + at] = 1.0
                out[hero_plane[i] + at] = 1.0
            b = self._hero_base[i]
            out[b] = 1.0  # present
            out[b + 1] = pos is not None  # on_board
            out[b + 2] = hero[1]  # dead
            out[b + 3] = hero[2]  # left
            out[b + 4] = ten[hero[3]]  # health
            out[b + 5] = ten[hero[4]]  # stamina
            out[b + 6] = ten[hero[5]]  # magic
            out[b + 7] = hero[6]  # exhausted
            out[b + 8] = hero[7]  # surprised
            out[b + 9] = hero[8]  # resting
            out[b + 10] = ten[hero[9]]  # moves_left
            out[b + 11] = hero[10]  # acted
            out[b + 12] = hero[11]  # jumped
            out[b + 13] = hero[12]  # casting
            out[b + 14] = eighth[hero[13]]  # items
            out[b + 15] = eighth[hero[14]]  # spells
        monsters = seen.monsters
        if monsters:
            kind = self._kind
            one, health, stamina = fig["monster"], fig["monster_health"], fig["monster_stamina"]
            surprised, kinds = fig["monster_surprised"], fig["monster_kind"]
            for m in monsters:
                x, y = m["pos"]
                at = y * w + x
                out[one + at] = 1.0
                out[health + at] = ten[m["health"]]
                out[stamina + at] = ten[m["stamina"]]
                out[surprised + at] = m["surprised"]
                out[kinds + at] = kind.get(m["kind"], 0.0)
        for t in seen.traps:
            x, y = t["at"]
            out[fig["trap_armed" if t["armed"] else "trap_spent"] + y * w + x] = 1.0
        for c in seen.corpses:
            x, y = c["at"]
            at = y * w + x
            out[fig["corpse"] + at] = 1.0
            out[fig["corpse_items"] + at] = self._quarters[len(c["items"])]
        sc = self._scalar
        board = self._board
        # ``is`` rather than a dict keyed by seat: an Enum's hash is a Python call.
        out[board + (sc["seat_heroes"] if seen.seat is Seat.HEROES else sc["seat_dm"])] = 1.0
        to_act = seen.to_act
        out[board + self._to_act_index[to_act.value if to_act is not None else None]] = 1.0
        out[board + sc["turn"]] = capped(seen.turn, self.max_turns)
        out[board + sc["light"]] = capped(seen.light, self.max_light)
        out[board + sc["monsters_seen"]] = ten[len(monsters)]
        out[board + sc["legal_actions"]] = capped(len(seen.legal), MAX_ACTIONS)
        out[board + self._step_index.get(seen.step, sc["step_other"])] = 1.0
        decision = seen.decision
        found = None if decision is None else self._decision_index.get(decision)
        out[board + (sc["decision_none"] if found is None else found)] = 1.0
        if seen.outcome is not None:
            out[board + self._outcome_index[seen.outcome]] = 1.0
        # The goals' typed form: the same ``met`` and ``in_hand`` as the ``goals`` field,
        # without its dicts.
        for i, goal in enumerate(seen.goals_seen()[:GOAL_SLOTS]):
            b = self._goal_base[i]
            out[b] = 1.0
            out[b + 1] = goal.met
            out[b + 2] = goal.in_hand
        return vector


def action_mask(legal: Sequence[Action]) -> NDArray[np.int8]:
    """The legal indices of the fixed action space (1 legal, 0 not)."""
    mask = np.zeros(MAX_ACTIONS, np.int8)
    mask[: min(len(legal), MAX_ACTIONS)] = 1
    return mask


def action_at(legal: Sequence[Action], index: int) -> Action:
    """The action at ``index`` of the fixed action space; ``ValueError`` if it is not
    legal now."""
    if not 0 <= index < min(len(legal), MAX_ACTIONS):
        raise ValueError(f"action index {index} is not legal now ({len(legal)} legal actions)")
    return legal[index]
