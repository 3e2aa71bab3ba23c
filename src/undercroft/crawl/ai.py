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
from typing import Protocol

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    Action,
    Done,
    FightStamina,
    MentalSpend,
    MonsterAbility,
    MonsterMove,
)
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation
from undercroft.crawl.party import HeroParty
from undercroft.crawl.plan import pos


class Policy(Protocol):
    def act(self, observation: Observation) -> Action: ...


PolicyFactory = Callable[[Seat, DiceSampler], Policy]
POLICIES: dict[str, PolicyFactory] = {}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name (``undercroft run crawl --policy NAME``)."""
    POLICIES[name] = factory


def make_policy(name: str, seat: Seat, rng: DiceSampler) -> Policy:
    if name not in POLICIES:
        raise KeyError(f"no policy {name!r}; known: {', '.join(sorted(POLICIES))}")
    return POLICIES[name](seat, rng)


@dataclass
class RandomPolicy:
    """A uniformly random legal action."""

    rng: DiceSampler

    def act(self, observation: Observation) -> Action:
        action: Action = self.rng.choose(list(observation.legal))
        return action


# -- the Dungeon Master ---------------------------------------------------------------------


@dataclass
class DungeonMaster:
    """The heuristic DM (see the module docstring)."""

    rng: DiceSampler

    def act(self, obs: Observation) -> Action:
        legal = list(obs.legal)
        if obs.decision == "monster_movement":
            return self.move(obs, legal)
        if obs.decision == "fight_stamina":
            most = max(a.points for a in legal if isinstance(a, FightStamina))
            return FightStamina(min(most, 1))
        if obs.decision == "mental_spend":
            most = max(a.points for a in legal if isinstance(a, MentalSpend))
            return MentalSpend(min(most, 1))
        return legal[-1] if Done() in legal else legal[0]

    def move(self, obs: Observation, legal: list[Action]) -> Action:
        heroes = [p for p in (pos(h["pos"]) for h in obs.heroes) if p is not None]
        abilities = [a for a in legal if isinstance(a, MonsterAbility)]
        moves = [a for a in legal if isinstance(a, MonsterMove)]
        if not moves and not abilities:
            return Done()
        monster = moves[0].monster if moves else abilities[0].monster
        mine_abilities = [a for a in abilities if a.monster == monster]
        if mine_abilities and self.rng.chance(0.5):
            return mine_abilities[0]
        mine = [a for a in moves if a.monster == monster]
        here = next(Pos(*m["pos"]) for m in obs.monsters if m["id"] == monster)

        def score(action: MonsterMove) -> tuple[int, int, int]:
            end = action.path[-1] if action.path else here
            gap = min((end.manhattan(h) for h in heroes), default=0)
            return (0 if gap == 1 else gap + 1, action.stamina, len(action.path))

        return min(mine, key=score)


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
