"""The heuristic party: heroes that play from their observation to win the adventure.

An adventure is won when every surviving hero is out and every goal is met (C-END-01), so
the party pursues the goals it is shown before it leaves:

``visit``  go into the goal's area once it is revealed, explore it, and in a choice there
           take the deed the text offers (its first option)
``slay``   look for the named foe and fight it (every monster in sight is fought anyway)
``carry``  look for the item (found items come from room texts, so: explore every room
           and corridor), pick it up, and carry it out
A goal is given up only when it cannot be met any more: a visit goal whose area was
explored without meeting it. The party leaves when every goal is met, in hand or given
up, when nothing reachable is left to look at, or at ``give_up_turn``; a hero at Death's
Door out of combat leaves at once (or rests, with no way out). An adventure without goals
is explored while the Light lasts, as before.

In a fight every hero goes for the nearest monster, except the badly hurt while someone
fit is left; no Explore happens while monsters are on the board (C-CMB-01), so nobody
waits in an unexplored room for one, and a monster that only a detected trap leads to is
reached by springing the trap (monsters keep off traps and no trap is disarmed in combat).

The party remembers (``notes``) the board as it saw it and which areas its heroes
explored, since the observation shows neither; everything else it works out afresh from
each observation, never from the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
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
    Move,
    OpenDoor,
    Rest,
    TakeItem,
    Trade,
    UseItem,
)
from undercroft.crawl.observe import UNKNOWN, Observation
from undercroft.crawl.plan import (
    FAR,
    area_at,
    areas_mask,
    board_arrays,
    distance_map,
    exit_distances,
    frontier,
    nearest,
    path_from,
    planning_costs,
    pos,
    reachable,
    squares,
)


def spot(dist: NDArray[np.int32], monsters: set[Pos]) -> Pos | None:
    """The nearest reachable square next to a monster (row, then column, on a tie)."""
    spots = [q for m in monsters for q in m.orthogonal() if reachable(dist, q)]
    return min(spots, key=lambda q: (int(dist[q.y, q.x]), q.y, q.x)) if spots else None


@dataclass
class HeroParty:
    """The heuristic party (see the module docstring)."""

    rng: DiceSampler
    leave_margin: int = 3
    """Adventures without goals: leave when the Light left covers the walk out plus this
    many turns."""
    give_up_turn: int = 80
    """Leave from this turn on whatever is left undone."""
    fight_stamina: int = 2
    """Stamina a hero spends on a fight, at most (C-FIGHT-04)."""
    bold: int = 3
    """A hero with more Health than this springs a trap to reach a monster behind it."""
    notes: dict[str, Any] = field(default_factory=dict)

    def act(self, obs: Observation) -> Action:
        if obs.turn < self.notes.get("turn", 0):
            self.notes.clear()  # a new game
        self.notes["turn"] = obs.turn
        obs = replace(obs, board=self.remember(obs.board))
        legal = list(obs.legal)
        handler = getattr(self, f"on_{obs.decision}", None)
        if handler is not None:
            action: Action | None = handler(obs, legal)
            if action is not None:
                return action
        return legal[-1] if Done() in legal else legal[0]

    def remember(self, board: str) -> str:
        """The board as the party remembers it: what it sees now, and elsewhere what it
        last saw there. (The observation shows walls and doors only while a hero sees
        them; a party that forgot them would plan through walls it saw a moment ago.)"""
        if board is self.notes.get("seen_board"):
            remembered: str = self.notes["remembered"]
            return remembered
        codes = np.frombuffer(board.encode(), dtype=np.uint8)
        memory: NDArray[np.uint8] | None = self.notes.get("memory")
        if memory is None or memory.shape != codes.shape:
            memory = codes.copy()
        else:
            known = codes != ord(UNKNOWN)
            memory[known] = codes[known]
        self.notes.update(seen_board=board, memory=memory, remembered=memory.tobytes().decode())
        return str(self.notes["remembered"])

    # goals -----------------------------------------------------------------------------

    @property
    def explored(self) -> set[str]:
        """Areas a hero of the party explored (their texts have been read)."""
        found: set[str] = self.notes.setdefault("explored", set())
        return found

    def open_goals(self, obs: Observation) -> list[dict[str, Any]]:
        """Goals not met, not in hand, and not lost (a visit goal whose area was explored
        without meeting it can no longer be met)."""
        return [
            g
            for g in obs.goals
            if not (g["met"] or g["in_hand"])
            and not (g["kind"] == "visit" and g["target"] in self.explored)
        ]

    def goal_areas(self, obs: Observation, *, explored_too: bool = False) -> NDArray[np.bool_]:
        """The squares of the revealed areas that open visit goals name (``explored_too``:
        and of those explored, while their text is being read)."""
        goals = [g for g in obs.goals if not g["met"]] if explored_too else self.open_goals(obs)
        names = frozenset(g["target"] for g in goals if g["kind"] == "visit")
        return areas_mask(obs.area_map, obs.revealed, names)

    def to_look_at(self, obs: Observation) -> NDArray[np.bool_]:
        """Squares worth going to: in an area not yet explored, or leading somewhere new."""
        unexplored = frozenset(obs.revealed) - self.explored
        return areas_mask(obs.area_map, obs.revealed, unexplored) | frontier(obs.board)

    # movement -------------------------------------------------------------------------

    def should_leave(self, obs: Observation) -> bool:
        """Whether the whole party heads out now (see the module docstring)."""
        if not obs.goals:
            return self.light_runs_out(obs)
        if obs.turn >= self.give_up_turn or not self.open_goals(obs):
            return True
        return self.notes.get("nothing_left") == obs.board

    def nothing_left(self, obs: Observation) -> bool:
        """No hero can reach anything to look at (remembered until more is seen): asked
        only when a hero finds nothing to head for, so one search of the board now and
        then, not one a move."""
        heroes = squares(h["pos"] for h in obs.heroes)
        traps = {Pos(*t["at"]) for t in obs.traps if t["armed"]}
        dist = distance_map(planning_costs(obs.board), heroes, traps - heroes)
        wanted = self.goal_areas(obs) | self.to_look_at(obs)
        if nearest(dist, wanted) is not None:
            return False
        self.notes["nothing_left"] = obs.board
        return True

    def light_runs_out(self, obs: Observation) -> bool:
        """Nothing left to see, the Light is out, a hero lies at Death's Door out of
        combat, or the Light left barely covers the walk to an exit."""
        _, unknown, _ = board_arrays(obs.board)
        if not unknown.any() or obs.light <= 0:
            return True
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
            dying = hero["health"] == 0 and not obs.monsters
            choice = self.hero_move(obs, hero, options, leaving or (dying and bool(obs.exits)))
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
        monsters = squares(m["pos"] for m in obs.monsters)
        if not obs.monsters:
            for action in options:
                if isinstance(action, Drag) and leaving:
                    return action
            if hero["health"] == 0 and Rest in kinds and not leaving:
                return kinds[Rest]  # C-DD-02: no Death's Door roll for a hero who rests
            for action in options:
                if isinstance(action, Disarm):
                    return action
            if not leaving:
                for action in options:
                    if isinstance(action, OpenDoor):
                        return action
        walkable, _, chars = board_arrays(obs.board)
        bodies = squares(h["pos"] for h in obs.heroes) - {here}
        bodies |= monsters | squares(c["at"] for c in obs.corpses)
        traps = {Pos(*t["at"]) for t in obs.traps if t["armed"]}
        dist = distance_map(planning_costs(obs.board), here, bodies | traps)
        target = self.target(obs, hero, here, dist, leaving, monsters)
        if monsters and not leaving and hero["health"] > self.bold and spot(dist, monsters) is None:
            # Monsters keep off traps (C-TRAP-05) and no trap is disarmed in combat
            # (C-TRAP-03): a monster only a trap leads to is fought by springing it.
            bold = distance_map(planning_costs(obs.board), here, bodies)
            if spot(bold, monsters) is not None:
                dist, target = bold, spot(bold, monsters)
        if target is None and obs.goals and not (leaving or monsters) and self.nothing_left(obs):
            leaving = True
            target = self.target(obs, hero, here, dist, leaving, monsters)
        if target is None:
            # Boxed in by detected traps or furniture: try to jump it (C-JUMP-01).
            return next((a for a in options if isinstance(a, Jump)), None)
        if target == here:
            return None
        route = path_from(dist, target)
        if monsters and route and route[-1] in monsters:
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
        monsters: set[Pos],
    ) -> Pos | None:
        """Where the hero heads: stand and fight, the way out, the nearest monster, a goal's
        area, then the nearest thing not yet looked at."""
        if any(m.is_adjacent(here) for m in monsters):
            return here  # already fighting: stand (fights are automatic, C-FIGHT-01)
        if leaving:
            exits = [Pos(x, y) for x, y in obs.exits if dist[y, x] < FAR]
            if exits:
                return min(exits, key=lambda q: int(dist[q.y, q.x]))
        fit = [h for h in obs.heroes if h["pos"] is not None and h["health"] > 1]
        if monsters and (hero["health"] > 1 or not fit):  # the hurt hang back, if they can
            fight = spot(dist, monsters)
            if fight is not None:
                return fight
        if obs.goals:
            goal = nearest(dist, self.goal_areas(obs))
            if goal is not None:
                return goal
            if not monsters:
                return nearest(dist, self.to_look_at(obs))
        # No Explore while monsters are on the board (C-CMB-01): only look further.
        return nearest(dist, frontier(obs.board))

    def potion(self, hero: dict[str, Any], options: list[Action]) -> Action | None:
        """Something to use when hurt: a potion (most heal) before anything else."""
        kinds = {i["uid"]: i["kind"] for i in hero["items"]}
        uses = [a for a in options if isinstance(a, UseItem)]
        return min(uses, key=lambda a: kinds.get(a.item) != "potion", default=None)

    # combat -----------------------------------------------------------------------------

    def on_spell_selection(self, obs: Observation, legal: list[Action]) -> Action | None:
        """A known spell first; a face-down scroll (its spell unknown, R-C-IDENT-01) only
        when a hero is badly hurt, since a scroll whose spell does not suit the fight is
        wasted."""
        if not obs.monsters:
            return Done()
        casts = [a for a in legal if isinstance(a, BeginCasting) and not a.overcast]
        known = [a for a in casts if a.spell]
        if known:
            return known[0]
        desperate = any(h["pos"] is not None and h["health"] <= 2 for h in obs.heroes)
        return casts[0] if casts and desperate else Done()

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
        return FightStamina(min(most, self.fight_stamina))

    def on_mental_spend(self, obs: Observation, legal: list[Action]) -> Action | None:
        most = max(a.points for a in legal if isinstance(a, MentalSpend))
        return MentalSpend(min(most, 1))

    # explore and trade --------------------------------------------------------------------

    def on_explore_choice(self, obs: Observation, legal: list[Action]) -> Action | None:
        for action in legal:
            if isinstance(action, Explore) and action.explore:
                hero = next(h for h in obs.heroes if h["id"] == action.hero)
                area = area_at(obs.area_map, obs.revealed, Pos(*hero["pos"]))
                if area is not None:
                    self.explored.add(area)  # C-EXPL-01: its text is read now
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
        """The healthiest hero takes a found item: it is likeliest to carry it out."""
        health = {h["id"]: h["health"] for h in obs.heroes}
        takers = [a for a in legal if isinstance(a, TakeItem)]
        return max(takers, key=lambda a: health.get(a.hero, 0))

    def on_choice(self, obs: Observation, legal: list[Action]) -> Action | None:
        """In the area of an open visit goal do the deed the text offers (its first
        option); elsewhere pick at random."""
        options = [a for a in legal if isinstance(a, ChooseOption)]
        goal_areas = self.goal_areas(obs, explored_too=True)
        if any(goal_areas[p.y, p.x] for p in squares(h["pos"] for h in obs.heroes)):
            return min(options, key=lambda a: a.index)
        return self.rng.choose(options)

    def on_trade(self, obs: Observation, legal: list[Action]) -> Action | None:
        takes = [a for a in legal if isinstance(a, Trade) and a.giver.startswith("hero:")]
        dead = {h["id"] for h in obs.heroes if h["dead"]}
        for action in takes:
            if action.giver in dead:
                return action  # C-DEATH-01: take the fallen hero's gear
        return Done()
