"""Policies that play crawl from observations (never the state).

A policy is an object with ``act(observation) -> Action``; it is built by a factory
``(seat, rng) -> Policy`` registered under a name (:data:`POLICIES`), so others can plug
in their own with :func:`register_policy`. Every policy gets its own seeded
:class:`~undercroft.core.dice.DiceSampler` for tie-breaks, so a game is reproducible.

Built in:

``random``     uniformly random legal action (either seat)
``heuristic``  the heroes: explore toward unrevealed rooms, open doors, avoid and disarm
               detected traps, fight with sensible Stamina, rest when safe, drink potions
               when hurt, identify and memorize, drag corpses out, leave when the goal is
               met, the dungeon is explored, or the Light runs low
``dm``         the Dungeon Master: monsters close in on the nearest hero by their
               encounter type (guards wait until roused, the rules enforce that),
               avoid traps (the rules enforce that too, C-TRAP-05), use abilities,
               spend Stamina to reach or win fights
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
import tcod.path
from numpy.typing import NDArray

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    Action,
    BeginCasting,
    CastingChoice,
    ChooseOption,
    ChooseTarget,
    Disarm,
    Done,
    Drag,
    EndMovement,
    Explore,
    FightStamina,
    Identify,
    Jump,
    Leave,
    Memorize,
    MentalSpend,
    MonsterAbility,
    MonsterMove,
    Move,
    OpenDoor,
    Rest,
    Trade,
    UseItem,
)
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import UNKNOWN, Observation

WALKABLE = np.zeros(256, np.bool_)
WALKABLE[list(b".'~:abcdefghijklmnopqrstuvwxyz0123456789@")] = True


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


# -- map helpers over the observed board -------------------------------------------------


@lru_cache(maxsize=64)
def board_arrays(board: str) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[Any]]:
    """(walkable, unknown, chars) arrays of an observed board text."""
    rows = board.split("\n")
    codes = np.frombuffer("".join(rows).encode(), dtype=np.uint8).reshape(len(rows), -1)
    chars = codes.view("S1")
    walkable = WALKABLE[codes]
    unknown = chars == UNKNOWN.encode()
    return walkable, unknown, chars


@lru_cache(maxsize=64)
def planning_costs(board: str) -> NDArray[np.int32]:
    """Step costs for planning on an observed board: known floor 1, a shut door 4 (it
    must be forced), an unknown square 3 (it may well be floor), walls never."""
    walkable, unknown, chars = board_arrays(board)
    cost = walkable.astype(np.int32)
    cost[unknown] = 3
    cost[chars == b"+"] = 4
    cost.flags.writeable = False
    return cost


def distance_map(costs: NDArray[np.int32], origin: Pos, blocked: set[Pos]) -> NDArray[np.int32]:
    """Step-cost distances from ``origin`` with ``blocked`` squares impassable."""
    cost = costs.copy()
    for p in blocked:
        cost[p.y, p.x] = 0
    cost[origin.y, origin.x] = 1
    dist = tcod.path.maxarray(cost.shape, np.int32)
    dist[origin.y, origin.x] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
    return dist


def path_from(dist: NDArray[np.int32], goal: Pos) -> list[Pos]:
    """Walk back down a distance map from ``goal`` to its origin (origin excluded)."""
    steps = tcod.path.hillclimb2d(dist, (goal.y, goal.x), True, False).tolist()
    # hillclimb2d walks from the goal down to the origin: reverse it, drop the origin.
    return [Pos(x, y) for y, x in reversed(steps)][1:]


@lru_cache(maxsize=32)
def exit_distances(board: str, exits: tuple[tuple[int, int], ...]) -> NDArray[np.int32]:
    """Walking distance from every square to the nearest exit (-1: none), one Dijkstra."""
    walkable, _, _ = board_arrays(board)
    cost = walkable.astype(np.int32)
    dist = tcod.path.maxarray(cost.shape, np.int32)
    for x, y in exits:
        dist[y, x] = 0
        cost[y, x] = max(int(cost[y, x]), 1)
    tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
    dist[dist == np.iinfo(np.int32).max] = -1
    return dist


def pos(value: Any) -> Pos | None:
    return None if value is None else Pos(int(value[0]), int(value[1]))


# -- the heroes -----------------------------------------------------------------------------


@dataclass
class HeroParty:
    """The heuristic party (see the module docstring)."""

    rng: DiceSampler
    leave_margin: int = 3
    notes: dict[str, Any] = field(default_factory=dict)

    def act(self, obs: Observation) -> Action:
        legal = list(obs.legal)
        handler = getattr(self, f"on_{obs.decision}", None)
        if handler is not None:
            action: Action | None = handler(obs, legal)
            if action is not None:
                return action
        return legal[-1] if Done() in legal else legal[0]

    # movement -------------------------------------------------------------------------

    def should_leave(self, obs: Observation) -> bool:
        """Leave when nothing is left to see, the Light is out, a hero lies at Death's
        Door out of combat, or the Light left barely covers the walk to an exit."""
        _, unknown, _ = board_arrays(obs.board)
        if not unknown.any() or obs.light <= 0:
            return True
        if obs.goals and all(g["met"] or g["in_hand"] for g in obs.goals):
            return True  # the goal is met: take it home
        heroes = [h for h in obs.heroes if h["pos"] is not None]
        if any(h["health"] == 0 for h in heroes) and not obs.monsters:
            return True
        to_exit = exit_distances(obs.board, obs.exits)
        far = max(
            (
                int(to_exit[h["pos"][1], h["pos"][0]])
                for h in heroes
                if to_exit[h["pos"][1], h["pos"][0]] >= 0
            ),
            default=0,
        )
        moves = 4
        return obs.light * moves <= far + self.leave_margin * moves

    def on_movement(self, obs: Observation, legal: list[Action]) -> Action | None:
        by_hero: dict[str, list[Action]] = {}
        for action in legal:
            hid = getattr(action, "hero", None)
            if hid is not None:
                by_hero.setdefault(hid, []).append(action)
        leaving = self.should_leave(obs)
        for hero in obs.heroes:
            options = by_hero.get(hero["id"])
            if not options:
                continue
            choice = self.hero_move(obs, hero, options, leaving)
            if choice is not None:
                return choice
            return EndMovement(hero["id"])
        return Done()

    def hero_move(
        self, obs: Observation, hero: dict[str, Any], options: list[Action], leaving: bool
    ) -> Action | None:
        here = pos(hero["pos"])
        assert here is not None
        kinds = {type(a): a for a in options}
        if Leave in kinds and leaving:
            return kinds[Leave]
        potion = self.potion(hero, options)
        if potion is not None and hero["health"] <= 2:
            return potion
        monsters = [pos(m["pos"]) for m in obs.monsters]
        if not obs.monsters:
            for action in options:
                if isinstance(action, Drag) and leaving:
                    return action
            if hero["health"] <= 1 and Rest in kinds and not leaving:
                return kinds[Rest]
            for action in options:
                if isinstance(action, Disarm):
                    return action
            if not leaving:
                for action in options:
                    if isinstance(action, OpenDoor):
                        return action
        walkable, unknown, chars = board_arrays(obs.board)
        bodies = {p for p in (pos(h["pos"]) for h in obs.heroes) if p is not None and p != here}
        bodies |= {p for p in monsters if p is not None}
        bodies |= {p for p in (pos(c["at"]) for c in obs.corpses) if p is not None}
        traps = {Pos(*t["at"]) for t in obs.traps if t["armed"]}
        dist = distance_map(planning_costs(obs.board), here, bodies | traps)
        target = self.target(obs, hero, here, dist, leaving, monsters, unknown, chars)
        if target is None:
            # Boxed in by detected traps or furniture: try to jump it (C-JUMP-01).
            return next((a for a in options if isinstance(a, Jump)), None)
        if target == here:
            return None
        route = path_from(dist, target)
        if monsters and route and route[-1] in {p for p in monsters if p is not None}:
            route = route[:-1]
        # Walk the known part of the route; a shut door on it is forced first.
        walk: list[Pos] = []
        for step in route[: hero["moves_left"]]:
            if not walkable[step.y, step.x]:
                break
            walk.append(step)
        if walk:
            return Move(hero["id"], tuple(walk))
        if route and chars[route[0].y, route[0].x] == b"+":
            door = OpenDoor(hero["id"], route[0])
            if door in options:
                return door
        return None

    def target(
        self,
        obs: Observation,
        hero: dict[str, Any],
        here: Pos,
        dist: NDArray[np.int32],
        leaving: bool,
        monsters: list[Pos | None],
        unknown: NDArray[np.bool_],
        chars: NDArray[Any],
    ) -> Pos | None:
        big = np.iinfo(np.int32).max
        if any(m is not None and m.is_adjacent(here) for m in monsters):
            return here  # already fighting: stand (fights are automatic, C-FIGHT-01)
        if leaving:
            exits = [Pos(x, y) for x, y in obs.exits if dist[y, x] < big]
            if exits:
                return min(exits, key=lambda q: int(dist[q.y, q.x]))
        if obs.monsters and hero["health"] > 1:
            spots = [
                q
                for m in monsters
                if m is not None
                for q in m.orthogonal()
                if 0 <= q.y < dist.shape[0] and 0 <= q.x < dist.shape[1] and dist[q.y, q.x] < big
            ]
            if spots:
                return min(spots, key=lambda q: (int(dist[q.y, q.x]), q.y, q.x))
        # Explore: the nearest reachable square next to the unknown, or next to a shut door.
        frontier = np.zeros_like(unknown)
        frontier[1:, :] |= unknown[:-1, :]
        frontier[:-1, :] |= unknown[1:, :]
        frontier[:, 1:] |= unknown[:, :-1]
        frontier[:, :-1] |= unknown[:, 1:]
        doors = chars == b"+"
        near_door = np.zeros_like(doors)
        near_door[1:, :] |= doors[:-1, :]
        near_door[:-1, :] |= doors[1:, :]
        near_door[:, 1:] |= doors[:, :-1]
        near_door[:, :-1] |= doors[:, 1:]
        goal = (frontier | near_door) & (dist < big)
        if not goal.any():
            return None
        masked = np.where(goal, dist, big)
        y, x = np.unravel_index(int(np.argmin(masked)), masked.shape)
        return Pos(int(x), int(y))

    def potion(self, hero: dict[str, Any], options: list[Action]) -> Action | None:
        for action in options:
            if isinstance(action, UseItem):
                return action
        return None

    # combat -----------------------------------------------------------------------------

    def on_spell_selection(self, obs: Observation, legal: list[Action]) -> Action | None:
        casts = [a for a in legal if isinstance(a, BeginCasting) and not a.overcast]
        return casts[0] if casts and obs.monsters else Done()

    def on_evasion(self, obs: Observation, legal: list[Action]) -> Action | None:
        return Done()

    def on_casting_choice(self, obs: Observation, legal: list[Action]) -> Action | None:
        first = legal[0]
        assert isinstance(first, CastingChoice)
        return CastingChoice(first.hero, False)

    def on_cast_target(self, obs: Observation, legal: list[Action]) -> Action | None:
        health = {m["id"]: m["health"] for m in obs.monsters}
        targets = [a for a in legal if isinstance(a, ChooseTarget)]
        return min(targets, key=lambda a: health.get(str(a.target), 99))

    def on_fight_stamina(self, obs: Observation, legal: list[Action]) -> Action | None:
        most = max(a.points for a in legal if isinstance(a, FightStamina))
        return FightStamina(min(most, 1))

    def on_mental_spend(self, obs: Observation, legal: list[Action]) -> Action | None:
        most = max(a.points for a in legal if isinstance(a, MentalSpend))
        return MentalSpend(min(most, 1))

    # explore and trade --------------------------------------------------------------------

    def on_explore_choice(self, obs: Observation, legal: list[Action]) -> Action | None:
        for action in legal:
            if isinstance(action, Explore) and action.explore:
                return action
        return None

    def on_explore_actions(self, obs: Observation, legal: list[Action]) -> Action | None:
        for kind in (Identify, Memorize):
            for action in legal:
                if isinstance(action, kind):
                    return action
        hurt = {h["id"] for h in obs.heroes if h["health"] <= 2}
        for action in legal:
            if isinstance(action, UseItem) and action.hero in hurt:
                return action
        return Done()

    def on_take_item(self, obs: Observation, legal: list[Action]) -> Action | None:
        return legal[0]

    def on_choice(self, obs: Observation, legal: list[Action]) -> Action | None:
        options = [a for a in legal if isinstance(a, ChooseOption)]
        return self.rng.choose(options)

    def on_trade(self, obs: Observation, legal: list[Action]) -> Action | None:
        takes = [a for a in legal if isinstance(a, Trade) and a.giver.startswith("hero:")]
        dead = {h["id"] for h in obs.heroes if h["dead"]}
        for action in takes:
            if action.giver in dead:
                return action  # C-DEATH-01: take the fallen hero's gear
        return Done()


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
