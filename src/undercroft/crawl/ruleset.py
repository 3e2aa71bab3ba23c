"""The static side of crawl: profiles, cards, the adventure and the options.

A :class:`Ruleset` never changes during a game; everything that does lives in
:class:`undercroft.crawl.state.State`. Rulesets are built from content files
(:mod:`undercroft.crawl.content`) or directly in Python (tests).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from undercroft.core.grid import Grid, Pos
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.crawl.effects import Effect
from undercroft.crawl.options import Options as Options  # re-exported: its home was here


class Trait(enum.Enum):
    """The five hero traits (C-SETUP-05)."""

    STRONG = "Strong"
    """+1 to Open Doors (C-DOOR-02); wins fight ties (C-FIGHT-04)."""
    AGILE = "Agile"
    """+1 to Jump rolls (C-JUMP-02)."""
    PERCEPTIVE = "Perceptive"
    """+1 to Surprise (C-SURP-03) and Detect Traps (C-TRAP-04) rolls."""
    LEARNED = "Learned"
    """May identify items (C-IDENT-01); regains 2 Magic from rest (C-REST-02)."""
    IRON_WILLED = "Iron-Willed"
    """+1 to Death's Door (C-DD-04) and Mental Combat (C-MENT-03) rolls."""


class Encounter(enum.Enum):
    """How a monster is met (C-MON-01)."""

    GUARD = "guard"
    """Holds its square until a hero comes into its line of sight (C-MON-02)."""
    PATROL = "patrol"
    """Part of an adventure's Patrol; appears in corridors (C-MON-03)."""
    AMBUSHER = "ambusher"
    """Placed by room text or events; heroes surprised unless they roll 6 (C-MON-04)."""


@dataclass(frozen=True)
class HeroProfile:
    """A hero card."""

    id: str
    name: str
    movement: int
    fighting: int
    damage: int
    health: int
    stamina: int
    magic: int
    traits: frozenset[Trait] = frozenset()
    spells: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()

    def has(self, trait: Trait) -> bool:
        return trait in self.traits


@dataclass(frozen=True)
class MonsterAbility:
    """An Active monster ability: effects used instead of moving in Monsters' Movement."""

    name: str
    range: int
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class MonsterProfile:
    """A monster card."""

    id: str
    name: str
    movement: int
    fighting: int
    damage: int
    health: int
    stamina: int = 0
    magic: int = 0
    encounter: Encounter = Encounter.GUARD
    abilities: tuple[MonsterAbility, ...] = ()


class CastingTime(enum.Enum):
    """When a spell may be cast (C-SPELL-03)."""

    COMBAT = "combat"
    """Chosen in Spell Selection, takes effect in the combat's casting step (C-CMB-01)."""
    EXPLORE = "explore"
    """Cast during the Explore step, out of combat."""
    MOVEMENT = "movement"
    """Cast during the Heroes' Movement step, in or out of combat."""


class Targeting(enum.Enum):
    """What a spell or item is aimed at."""

    SELF = "self"
    """The caster."""
    HERO = "hero"
    """One hero in line of sight within range (the caster included)."""
    MONSTER = "monster"
    """One monster in line of sight within range."""
    ALL_MONSTERS = "all_monsters"
    """Every monster in line of sight within range."""
    PARTY = "party"
    """Every hero on the board."""


@dataclass(frozen=True)
class SpellCard:
    """A spell (C-SPELL-03): its level is its Magic cost."""

    id: str
    name: str
    level: int
    casting: CastingTime
    target: Targeting
    range: int
    effects: tuple[Effect, ...]
    overcast: tuple[Effect, ...] | None = None
    ongoing_turns: int = 0
    description: str = ""


class ItemKind(enum.Enum):
    """The five decks (C-SETUP-02)."""

    TREASURE = "treasure"
    """Gold and valuables: kept between adventures, no use in play."""
    GEAR = "gear"
    """Adventuring Gear: always known, used for its effects."""
    POTION = "potion"
    """Arrives unidentified; may be drunk blind (C-IDENT-03)."""
    SCROLL = "scroll"
    """A spell on paper: arrives unidentified; cast or memorized (C-SPELL-01)."""
    MAGIC = "magic"
    """A magic item: unusable until identified (C-IDENT-03)."""

    @property
    def face_down(self) -> bool:
        """Whether this deck's cards arrive unidentified: potions, scrolls, magic items
        (C-IDENT-01)."""
        return self in (ItemKind.POTION, ItemKind.SCROLL, ItemKind.MAGIC)


@dataclass(frozen=True)
class ItemCard:
    """An item card."""

    id: str
    name: str
    kind: ItemKind
    effects: tuple[Effect, ...] = ()
    spell: str | None = None
    value: int = 0
    fighting_bonus: int = 0
    uses: int = 1
    revives: bool = False
    """The Elixir of Life and the Holy Talisman (C-DEATH-03)."""


@dataclass(frozen=True)
class TrapKind:
    """What a trap does when sprung (C-TRAP-06)."""

    id: str
    name: str
    effects: tuple[Effect, ...]
    ends_movement: bool = True


@dataclass(frozen=True)
class Placement:
    """A monster placed by the adventure: in an area, revealed with it."""

    monster: str
    at: Pos


@dataclass(frozen=True)
class RoomText:
    """Text read in the Explore step for an area (C-EXPL-01)."""

    area: str
    text: str
    effects: tuple[Effect, ...]
    explorers_only: bool = True
    once: bool = True


@dataclass(frozen=True)
class Goal:
    """An adventure goal beyond getting out (C-END-01)."""

    id: str
    text: str
    kind: Literal["slay", "carry", "visit"]
    target: str


@dataclass(frozen=True)
class Adventure:
    """One adventure: the board as it is laid out for it, and the scenario."""

    id: str
    name: str
    board: Grid
    starts: tuple[Pos, ...]
    exits: frozenset[Pos]
    intro: str = ""
    placements: tuple[Placement, ...] = ()
    traps: Mapping[Pos, str] = field(default_factory=dict)
    room_texts: tuple[RoomText, ...] = ()
    patrol: tuple[str, ...] = ()
    secret_areas: frozenset[str] = frozenset()
    goals: tuple[Goal, ...] = ()
    final: bool = False
    light: int | None = None
    """Turns of Light this adventure starts with, if not the usual (C-LIGHT-01)."""
    _worked_out: dict[str, frozenset[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """What is worked out once per adventure (a compiled class has no ``__dict__`` for
    ``functools.cached_property`` to keep it in)."""

    @property
    def rooms_in_play(self) -> frozenset[str]:
        """The non-secret rooms reachable from the start squares through any door: the
        rooms of its dungeon (ruling R-C-PATROL-03; patrols stop once all are revealed,
        C-MON-03). Worked out once per adventure."""
        found = self._worked_out.get("rooms_in_play")
        if found is None:
            found = self._worked_out["rooms_in_play"] = self._rooms_in_play()
        return found

    def _rooms_in_play(self) -> frozenset[str]:
        reach = np.zeros(self.board.terrain.shape, np.bool_)
        finder = Pathfinder(self.board, DoorPassage.ALL)
        for start in self.starts:
            reach |= finder.distances_from(start) >= 0
        return frozenset(
            info.name
            for index, info in enumerate(self.board.areas)
            if info.kind == "room"
            and info.name not in self.secret_areas
            and bool((reach & (self.board.area == index)).any())
        )


@dataclass(frozen=True)
class Ruleset:
    """Everything static about a game: cards, the adventure, the options."""

    heroes: Mapping[str, HeroProfile]
    monsters: Mapping[str, MonsterProfile]
    spells: Mapping[str, SpellCard]
    items: Mapping[str, ItemCard]
    traps: Mapping[str, TrapKind]
    adventure: Adventure
    options: Options = Options()  # noqa: RUF009  (frozen: one shared default is safe)

    def hero(self, hero_id: str) -> HeroProfile:
        return self.heroes[hero_id]

    def monster(self, kind: str) -> MonsterProfile:
        return self.monsters[kind]
