"""The rulings switches and engine limits of a crawl game (:class:`Options`).

Kept apart from :mod:`undercroft.crawl.ruleset` (which the compiled build compiles, see
:mod:`undercroft.native`): content files and ``--set`` validate options against these
annotations (``typing.get_type_hints``), and a compiled class keeps only the runtime
classes of its annotations (a ``Literal`` reads as ``type``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Options:
    """Rulings switches (docs/rulings.md) and engine limits."""

    light: int = 20
    """Turns of Light at the start (C-LIGHT-01)."""
    max_light: int = 20
    max_turns: int = 100
    """A safety cap: the game ends with reason ``turn_cap`` if it is ever reached."""
    surprise_turns: int = 1
    """R-C-SURP-01: how many combat turns surprise lasts, counting the first."""
    ambusher_six: Literal["total", "natural"] = "total"
    """R-C-SURP-02: whether trait and Light modifiers count towards the ambusher 6."""
    fight_order: Literal["monster_square", "hero_square"] = "monster_square"
    """R-C-FIGHT-01."""
    stamina_declared_first: Literal["dm", "heroes"] = "dm"
    """R-C-FIGHT-02: which side declares its Stamina for a fight first."""
    monsters_enter_traps: bool = False
    """R-C-TRAP-01: False = monsters never step on a trapped square (C-TRAP-05)."""
    move_stamina_cost: Literal["one_square_per_point", "three_squares_per_point"] = (
        "one_square_per_point"
    )
    """R-C-MOVE-01: 1 to 3 Stamina for 1 square each, or any Stamina for 3 squares each."""
    patrol_roll_step: Literal["turn_start", "turn_end"] = "turn_start"
    """R-C-PATROL-01: whether the Patrol rolls come at the next Turn Start or at Turn End."""
    distance_metric: Literal["walking", "manhattan"] = "walking"
    """R-CORE-DIST-01: "within N squares" as walking distance, or Manhattan distance."""
    won_if_perished: bool = False
    """R-C-END-01: False = a party that all died has not completed the adventure, so it
    is not won whatever goals were met; True = it has (no surviving hero is left inside),
    so it is won if every goal was met."""
    corpse_items: Literal["one", "any"] = "one"
    """R-C-TRADE-01: "one" = an item taken from a corpse is the hero's one item received
    in Trade Items (C-TURN-06); "any" = a hero may take any number of a corpse's items."""
    ongoing_lock: Literal["party", "caster"] = "party"
    """R-C-SPELL-02: "party" = while a spell's ongoing effect lasts nobody may cast that
    spell (C-SPELL-03); "caster" = only the hero who cast it may not."""
    blind_scroll: Literal["spent", "kept"] = "spent"
    """R-C-IDENT-01: "spent" = a scroll read blind is used up even when its spell does not
    take effect; "kept" = such a scroll stays in the reader's hand, face up."""
    text_test: Literal["first", "chosen"] = "first"
    """R-C-EXPL-02: who takes a room text's own test (the hero it is about, ``self``):
    "first" = the first of the area's explorers in party order; "chosen" = the explorers
    choose among themselves (a ``text_test`` decision, when two or more could)."""

    def as_dict(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}
