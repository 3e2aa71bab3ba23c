"""A loaded pack: everything a content folder holds, cross-checked (:class:`Pack`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from undercroft.core.grid import Grid
from undercroft.crawl import settings as setting
from undercroft.crawl.ruleset import (
    Adventure,
    HeroProfile,
    ItemCard,
    MonsterProfile,
    Options,
    Ruleset,
    SpellCard,
    TrapKind,
)


@dataclass
class Pack:
    """Everything a content folder holds, cross-checked."""

    folder: Path
    heroes: dict[str, HeroProfile] = field(default_factory=dict)
    monsters: dict[str, MonsterProfile] = field(default_factory=dict)
    spells: dict[str, SpellCard] = field(default_factory=dict)
    items: dict[str, ItemCard] = field(default_factory=dict)
    traps: dict[str, TrapKind] = field(default_factory=dict)
    boards: dict[str, Grid] = field(default_factory=dict)
    adventures: dict[str, Adventure] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    options: Options = field(default_factory=Options)
    """The options of the pack's ``crawl-options`` file (the defaults if it has none)."""
    settings: tuple[setting.Setting, ...] = ()
    """The ``--set`` settings applied when it was loaded."""

    def ruleset(self, adventure: str, options: Options | None = None) -> Ruleset:
        """The ruleset for one adventure of the pack."""
        if adventure not in self.adventures:
            known = ", ".join(sorted(self.adventures)) or "none"
            raise KeyError(f"no adventure {adventure!r} in {self.folder}; known: {known}")
        chosen = self.adventures[adventure]
        return Ruleset(
            self.heroes, self.monsters, self.spells, self.items, self.traps, chosen,
            options or self.options,
        )  # fmt: skip

    def campaign_order(self) -> list[str]:
        """Adventure ids in campaign order (their ``order`` key, then id)."""
        return sorted(self.adventures, key=lambda a: (self.order.get(a, 0), a))
