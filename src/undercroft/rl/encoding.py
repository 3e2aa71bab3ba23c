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
from typing import Final

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
    "movement", "explore_choice", "explore_actions", "take_item", "choice", "trade",
    "evasion", "casting_choice", "fight_stamina", "spell_selection", "cast_target",
    "mental_spend", "monster_movement", "roll",
)  # fmt: skip
OUTCOMES: Final = ("escaped", "perished", "turn_cap")
SEATS: Final = (Seat.HEROES, Seat.DM, Seat.CHANCE)
GOAL_SLOTS: Final = 4
GOAL_FIELDS: Final = ("present", "met", "in_hand")
SCALE: Final = 10.0
"""Health, Stamina, Magic and moves are divided by this and capped at 1."""


def _capped(value: float, scale: float = SCALE) -> float:
    return min(1.0, max(0.0, value / scale))


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
    """Encodes one seat's view of games of one ruleset and party size."""

    def __init__(self, ruleset: Ruleset, party: int) -> None:
        board = ruleset.adventure.board
        self.layout = Layout(board.width, board.height, party, tuple(sorted(ruleset.monsters)))
        self.max_turns = max(1, ruleset.options.max_turns)
        light = ruleset.adventure.light
        self.max_light = max(1, light if light is not None else ruleset.options.light)
        self.goals = tuple(g.id for g in ruleset.adventure.goals)[:GOAL_SLOTS]
        self._channel = {name: i for i, name in enumerate(self.layout.channels)}
        self._scalar = {name: i for i, name in enumerate(self.layout.scalars)}
        self._kind = {k: (i + 1) / len(self.layout.kinds) for i, k in enumerate(self.layout.kinds)}
        # The layout's sizes, worked out once (encode runs at every step).
        self._planes = (len(self.layout.channels), board.height, board.width)
        self._scalars = len(self.layout.scalars)
        self._size = self.layout.size

    @property
    def size(self) -> int:
        return self._size

    def encode(self, seen: Observation | View) -> NDArray[np.float32]:
        """The flat observation vector of ``seen`` (values in [0, 1])."""
        lay = self.layout
        h, w = lay.height, lay.width
        planes = np.zeros(self._planes, np.float32)
        codes, width = seen.board_codes()
        chars = np.frombuffer(codes, np.uint8).reshape(h, width)
        planes[: len(SQUARE_CHANNELS)] = CHAR_TABLE[chars].transpose(2, 0, 1)
        ch = self._channel
        for x, y in seen.exits:
            planes[ch["exit"], y, x] = 1.0
        areas = np.frombuffer(seen.area_codes(), np.uint8).reshape(h, w)
        planes[ch["revealed_area"]] = areas != 255
        scalars = np.zeros(self._scalars, np.float32)
        sc = self._scalar
        for i, hero in enumerate(seen.heroes[: lay.party]):
            pos = hero["pos"]
            if pos is not None:
                planes[ch["hero"], pos[1], pos[0]] = 1.0
                planes[ch[f"hero_{i}"], pos[1], pos[0]] = 1.0
            base = sc[f"hero_{i}_present"]
            scalars[base : base + len(HERO_FIELDS)] = (
                1.0,
                pos is not None,
                hero["dead"],
                hero["left"],
                _capped(hero["health"]),
                _capped(hero["stamina"]),
                _capped(hero["magic"]),
                hero["exhausted"],
                hero["surprised"],
                hero["resting"],
                _capped(hero["moves_left"]),
                hero["acted"],
                hero["jumped"],
                hero["casting"] is not None,
                _capped(len(hero["items"]), 8.0),
                _capped(len(hero["spells"]), 8.0),
            )
        monsters = seen.monsters
        for m in monsters:
            x, y = m["pos"]
            planes[ch["monster"], y, x] = 1.0
            planes[ch["monster_health"], y, x] = _capped(m["health"])
            planes[ch["monster_stamina"], y, x] = _capped(m["stamina"])
            planes[ch["monster_surprised"], y, x] = m["surprised"]
            planes[ch["monster_kind"], y, x] = self._kind.get(m["kind"], 0.0)
        for t in seen.traps:
            x, y = t["at"]
            planes[ch["trap_armed" if t["armed"] else "trap_spent"], y, x] = 1.0
        for c in seen.corpses:
            x, y = c["at"]
            planes[ch["corpse"], y, x] = 1.0
            planes[ch["corpse_items"], y, x] = _capped(len(c["items"]), 4.0)
        scalars[sc["seat_heroes" if seen.seat is Seat.HEROES else "seat_dm"]] = 1.0
        to_act = seen.to_act
        scalars[sc["to_act_none" if to_act is None else f"to_act_{to_act.value}"]] = 1.0
        scalars[sc["turn"]] = _capped(seen.turn, self.max_turns)
        scalars[sc["light"]] = _capped(seen.light, self.max_light)
        scalars[sc["monsters_seen"]] = _capped(len(monsters))
        scalars[sc["legal_actions"]] = _capped(len(seen.legal), MAX_ACTIONS)
        step = f"step_{seen.step}"
        scalars[sc[step] if step in sc else sc["step_other"]] = 1.0
        decision = f"decision_{seen.decision}"
        scalars[sc[decision] if decision in sc else sc["decision_none"]] = 1.0
        if seen.outcome is not None:
            scalars[sc[f"outcome_{seen.outcome}"]] = 1.0
        for i, goal in enumerate(seen.goals[:GOAL_SLOTS]):
            base = sc[f"goal_{i}_present"]
            scalars[base : base + 3] = (1.0, goal["met"], goal["in_hand"])
        return np.concatenate((planes.reshape(-1), scalars))


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
