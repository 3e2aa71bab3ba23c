"""Policies that play crawl from observations (never the state).

A policy is an object with ``act(observation) -> Action``; it is built by a factory
``(seat, rng) -> Policy`` registered under a name (:data:`POLICIES`), so others can plug
in their own with :func:`register_policy`. Every policy gets its own seeded
:class:`~undercroft.core.dice.DiceSampler` for tie-breaks, so a game is reproducible.

Built in:

``random``     uniformly random legal action (either seat)
``heuristic``  the heroes (:mod:`undercroft.crawl.party`): pursue the adventure's goals
               (go to a goal's area, find and fight the named foe, find and carry out
               the named item), explore rooms and toward the unknown, open doors, avoid
               and disarm detected traps, fight with sensible Stamina, drink potions when
               hurt, identify and memorize, drag corpses out, leave once every goal is
               met or in hand (or cannot be met any more)
``dm``         the Dungeon Master: monsters close in on the nearest hero by their
               encounter type (guards wait until roused, the rules enforce that),
               avoid traps (the rules enforce that too, C-TRAP-05), use abilities,
               spend Stamina to reach or win fights
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from mypy_extensions import mypyc_attr

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    FightStamina,
    MentalSpend,
    MonsterAbility,
    MonsterMove,
)
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation, ViewLike
from undercroft.crawl.party import HeroParty


class Policy(Protocol):
    def act(self, observation: Observation) -> Action: ...


PolicyFactory = Callable[[Seat, DiceSampler], Policy]
POLICIES: Final[dict[str, PolicyFactory]] = {}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name (``undercroft run crawl --policy NAME``)."""
    POLICIES[name] = factory


def make_policy(name: str, seat: Seat, rng: DiceSampler) -> Policy:
    if name not in POLICIES:
        raise KeyError(f"no policy {name!r}; known: {', '.join(sorted(POLICIES))}")
    return POLICIES[name](seat, rng)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class RandomPolicy:
    """A uniformly random legal action."""

    rng: DiceSampler
    reads_views = True
    """The runner may hand it a lazy :class:`~undercroft.crawl.observe.View`."""

    def act(self, observation: ViewLike) -> Action:
        action: Action = self.rng.choose(list(observation.legal))
        return action


# -- the Dungeon Master ---------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class DungeonMaster:
    """The heuristic DM (see the module docstring)."""

    rng: DiceSampler
    reads_views = True
    """The runner may hand it a lazy :class:`~undercroft.crawl.observe.View`."""

    def act(self, obs: ViewLike) -> Action:
        if obs.decision == "monster_movement":
            return self.move(obs)
        if obs.decision == "fight_stamina":
            most = max(a.points for a in obs.legal_of(FightStamina))
            return FightStamina(min(most, 1))
        if obs.decision == "mental_spend":
            most = max(a.points for a in obs.legal_of(MentalSpend))
            return MentalSpend(min(most, 1))
        legal = obs.legal
        return legal[-1] if DONE in legal else legal[0]

    def move(self, obs: ViewLike) -> Action:
        """The first monster that may move closes in on the nearest hero, or (half the
        time) uses an ability it can."""
        acting = obs.actors()
        if not acting:
            return DONE
        monster = acting[0]
        abilities = obs.legal_of(MonsterAbility, monster)
        if abilities and self.rng.chance(0.5):
            return abilities[0]
        heroes = [(h.pos.x, h.pos.y) for h in obs.heroes_seen() if h.pos is not None]
        # The walks are weighed by where they end (only the one picked is built): the
        # first walk with the least (closeness, Stamina, steps), where closeness is 0
        # next to a hero, else the distance (C-DIST-01) to the nearest hero + 1 (1 with
        # none). Compared field by field in the loop: no key function or tuple a walk.
        best: tuple[Pos, int, int] | None = None
        least, least_stamina, least_steps = 0, 0, 0
        for walk in obs.walk_ends(monster):
            end, stamina, steps = walk
            x, y = end
            gap = -1
            for hx, hy in heroes:
                dx, dy = x - hx, y - hy
                # ``abs`` written out: the compiled build calls Python's on an int.
                d = (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy)
                if gap < 0 or d < gap:
                    gap = d
            close = 0 if gap == 1 else max(gap, 0) + 1
            if (
                best is None
                or close < least
                or (close == least and stamina < least_stamina)
                or (close == least and stamina == least_stamina and steps < least_steps)
            ):
                best, least, least_stamina, least_steps = walk, close, stamina, steps
        if best is None:
            raise ValueError(f"{monster} has no walk, not even staying put")
        return MonsterMove(monster, obs.walk_to(monster, best[0]), best[1])


register_policy("random", lambda seat, rng: RandomPolicy(rng))
register_policy(
    "heuristic", lambda seat, rng: HeroParty(rng) if seat is Seat.HEROES else DungeonMaster(rng)
)
register_policy("dm", lambda seat, rng: DungeonMaster(rng))

__all__ = [
    "POLICIES",
    "DungeonMaster",
    "HeroParty",
    "Policy",
    "RandomPolicy",
    "make_policy",
    "register_policy",
]
