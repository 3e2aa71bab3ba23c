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
what it is shown (a :class:`~undercroft.crawl.observe.View` or an
:class:`~undercroft.crawl.observe.Observation`, the same answers either way), never from
the state. Its searches (:class:`~undercroft.agents.plan.Search`) stop at the nearest
square that answers the question, and it asks for the legal actions of the kinds it
weighs, of the hero it moves, rather than for every legal action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from mypy_extensions import mypyc_attr

from undercroft.agents.plan import (
    FAR,
    PLANNING_COST,
    PLANNING_MOST,
    SHUT_CODE,
    UNKNOWN_CODE,
    WALK_COST,
    Memory,
    Search,
    either,
    mask_of,
    ranks_mask,
)
from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    BeginCasting,
    CastingChoice,
    ChooseOption,
    ChooseTarget,
    Disarm,
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
    TakeTest,
    Trade,
    UseItem,
)
from undercroft.crawl.observe import GoalSeen, HeroSeen, ViewLike

NO_AREA: Final = 255


@mypyc_attr(allow_interpreted_subclasses=True)
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
    reads_views = True
    """The runner may hand it a lazy :class:`~undercroft.crawl.observe.View`."""

    def act(self, obs: ViewLike) -> Action:
        if obs.turn < self.notes.get("turn", 0):
            self.notes.clear()  # a new game
        self.notes["turn"] = obs.turn
        self.remember(obs)
        handler: Callable[[ViewLike], Action | None] | None = getattr(
            self, f"on_{obs.decision}", None
        )
        if handler is not None:
            action = handler(obs)
            if action is not None:
                return action
        legal = obs.legal
        return legal[-1] if DONE in legal else legal[0]

    # what the party remembers ----------------------------------------------------------

    def remember(self, obs: ViewLike) -> None:
        """The board as the party remembers it: what it sees now, and elsewhere what it
        last saw there. (The observation shows walls and doors only while a hero sees
        them; a party that forgot them would plan through walls it saw a moment ago.)"""
        # Read as integers (the view's own form): the board's bytes are made only for a
        # new memory.
        board, shown = obs.board_bits()
        if board == self.notes.get("seen"):
            return
        memory: Memory | None = self.notes.get("memory")
        if memory is None or len(memory.codes) != obs.board_size():
            codes, width = obs.board_codes()
            memory = self.notes["memory"] = Memory(codes, width)
        else:
            memory.see_bits(board, shown)
        self.notes["seen"] = board

    @property
    def memory(self) -> Memory:
        found: Memory = self.notes["memory"]
        return found

    @property
    def explored(self) -> set[str]:
        """Areas a hero of the party explored (their texts have been read)."""
        found: set[str] = self.notes.setdefault("explored", set())
        return found

    # goals -----------------------------------------------------------------------------

    def open_goals(self, obs: ViewLike) -> list[GoalSeen]:
        """Goals not met, not in hand, and not lost (a visit goal whose area was explored
        without meeting it can no longer be met)."""
        return [
            g
            for g in obs.goals_seen()
            if not (g.met or g.in_hand) and not (g.kind == "visit" and g.target in self.explored)
        ]

    def area_ranks(self, obs: ViewLike, names: set[str] | frozenset[str]) -> set[int]:
        """The ranks (in ``obs.revealed``) of the revealed areas named."""
        return {rank for rank, name in enumerate(obs.revealed) if name in names}

    def in_areas(self, obs: ViewLike, ranks: set[int]) -> bytes:
        """The squares of the areas of these ranks (a mask, one byte a square)."""
        codes = obs.area_codes()
        if not ranks or len(codes) != len(self.memory.codes):
            return bytes(len(self.memory.codes))
        return ranks_mask(codes, ranks)

    def goal_areas(self, obs: ViewLike, *, explored_too: bool = False) -> set[int]:
        """The ranks of the revealed areas that open visit goals name (``explored_too``:
        and of those explored, while their text is being read)."""
        goals = [g for g in obs.goals_seen() if not g.met] if explored_too else self.open_goals(obs)
        return self.area_ranks(obs, {g.target for g in goals if g.kind == "visit"})

    def to_look_at(self, obs: ViewLike) -> bytes:
        """Squares worth going to: in an area not yet explored, or leading somewhere new
        (kept until the memory, the areas revealed or those explored change: the set of
        explored areas only grows within a game, so its size tells)."""
        key = (self.memory.codes, obs.area_codes(), obs.revealed, len(self.explored))
        kept: tuple[object, bytes] | None = self.notes.get("look")
        if kept is not None and kept[0] == key:
            return kept[1]
        unexplored = self.area_ranks(obs, set(obs.revealed) - self.explored)
        found = self.memory.frontier()
        if unexplored:
            found = either(self.in_areas(obs, unexplored), found)
        self.notes["look"] = (key, found)
        return found

    # movement -------------------------------------------------------------------------

    def should_leave(self, obs: ViewLike) -> bool:
        """Whether the whole party heads out now (see the module docstring)."""
        if not obs.goals_seen():
            return self.light_runs_out(obs)
        if obs.turn >= self.give_up_turn or not self.open_goals(obs):
            return True
        return self.notes.get("nothing_left") == self.memory.codes

    def nothing_left(self, obs: ViewLike, heroes: tuple[HeroSeen, ...]) -> bool:
        """No hero can reach anything to look at (remembered until more is seen): asked
        only when a hero finds nothing to head for."""
        memory = self.memory
        here = [memory.index(h.pos) for h in heroes if h.pos is not None]
        traps = [memory.index(p) for p in obs.trap_squares()]
        wanted = either(self.in_areas(obs, self.goal_areas(obs)), self.to_look_at(obs))
        # The same question has the same answer while nothing it reads changes (heroes
        # stuck behind one another ask it in one step, and again the next turn).
        asked = (memory.codes, here, traps, wanted)
        if self.notes.get("reachable") == asked:
            return False
        costs = memory.costs(PLANNING_COST)
        search = Search(costs, memory.width, here, traps, most=PLANNING_MOST)
        if search.nearest(wanted) is not None:
            self.notes["reachable"] = asked
            return False
        self.notes["nothing_left"] = memory.codes
        return True

    def light_runs_out(self, obs: ViewLike) -> bool:
        """Nothing left to see, the Light is out, a hero lies at Death's Door out of
        combat, or the Light left barely covers the walk to an exit."""
        memory = self.memory
        if UNKNOWN_CODE not in memory.codes or obs.light <= 0:
            return True
        heroes = [h for h in obs.heroes_seen() if h.pos is not None]
        if any(h.health == 0 for h in heroes) and not obs.monsters:
            return True
        exits = [memory.index(Pos(x, y)) for x, y in obs.exits]
        to_exit = Search(memory.costs(WALK_COST), memory.width, exits, most=1)
        walks = (to_exit.distance(memory.index(h.pos)) for h in heroes if h.pos is not None)
        far = max((d for d in walks if d != FAR), default=0)
        moves = 4
        return obs.light * moves <= far + self.leave_margin * moves

    def on_movement(self, obs: ViewLike) -> Action | None:
        acting = obs.actors()
        if not acting:
            return DONE
        leaving = self.should_leave(obs)
        heroes = obs.heroes_seen()
        hero = next(h for h in heroes if h.id == acting[0])
        dying = hero.health == 0 and not obs.monsters
        choice = self.hero_move(obs, hero, heroes, leaving or (dying and bool(obs.exits)))
        if choice is not None:
            return choice
        return self.end_movement(hero.id)

    def end_movement(self, hero_id: str) -> EndMovement:
        """One EndMovement a hero a game (a frozen dataclass is slow to make)."""
        ends: dict[str, EndMovement] = self.notes.setdefault("ends", {})
        end = ends.get(hero_id)
        if end is None:
            end = ends[hero_id] = EndMovement(hero_id)
        return end

    def hero_move(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], leaving: bool
    ) -> Action | None:
        here = hero.pos
        assert here is not None
        leave = obs.legal_of(Leave, hero.id)
        if leave and leaving:
            return leave[0]
        if hero.health <= 2:
            potion = self.potion(obs, hero)
            if potion is not None:
                return potion
        monsters = {m.pos for m in obs.monsters_seen()}
        if not monsters:
            first = self.first_of(obs, hero, leaving)
            if first is not None:
                return first
        elif any(m.is_adjacent(here) for m in monsters):
            # Already fighting: target() stands (fights are automatic), and the search
            # for a square next to a monster finds the hero's own: nothing moves.
            return None
        # A hero with no squares left in a fight, leaving, or without goals: standing()
        # answers without the obstacles (most such decisions end here).
        quick = hero.moves_left == 0 and (leaving or bool(monsters) or not obs.goals_seen())
        if quick and self.standing(obs, hero, leaving, monsters, b"", set()):
            return None
        memory = self.memory
        bodies = {h.pos for h in heroes if h.pos is not None} - {here}
        bodies |= monsters | set(obs.corpse_squares())
        traps = set(obs.trap_squares())
        costs = memory.costs(PLANNING_COST)
        origin = [memory.index(here)]
        blocked = {memory.index(p) for p in bodies | traps}
        if (
            hero.moves_left == 0
            and not quick
            and self.standing(obs, hero, leaving, monsters, costs, blocked)
        ):
            return None
        search = self.search(hero.id, costs, origin, blocked)
        target = self.target(obs, hero, heroes, search, leaving, monsters)
        if monsters and not leaving and hero.health > self.bold and spot(search, monsters) is None:
            # Monsters keep off traps (C-TRAP-05) and no trap is disarmed in combat
            # (C-TRAP-03): a monster only a trap leads to is fought by springing it.
            # With no detected trap off the bodies' squares the bolder search is this
            # one, and it already found nothing.
            daring = {memory.index(p) for p in bodies}
            bold = (
                self.search("bold:" + hero.id, costs, origin, daring) if daring != blocked else None
            )
            found = spot(bold, monsters) if bold is not None else None
            if bold is not None and found is not None:
                search, target = bold, found
        stuck = target is None and obs.goals_seen() and not (leaving or monsters)
        if stuck and self.nothing_left(obs, heroes):
            leaving = True
            target = self.target(obs, hero, heroes, search, leaving, monsters)
        if target is None:
            # Boxed in by detected traps or furniture: try to jump it (C-JUMP-01).
            jumps = obs.legal_of(Jump, hero.id)
            return jumps[0] if jumps else None
        if target == origin[0]:
            return None
        steps = search.path_to(target)
        self.notes.setdefault("routes", {})[hero.id] = steps  # see standing()
        route = steps  # squares (board indices) of the way, the origin left out
        if monsters and route and memory.pos(route[-1]) in monsters:
            route = route[:-1]
        # Walk the known part of the route; a shut door on it is forced first.
        walk: list[Pos] = []
        for i in route[: hero.moves_left]:
            if not memory.walkable(i):
                break
            walk.append(memory.pos(i))
        if walk:
            return Move(hero.id, tuple(walk))
        if route and memory.codes[route[0]] == SHUT_CODE:
            door = OpenDoor(hero.id, memory.pos(route[0]))
            if door in obs.legal_of(OpenDoor, hero.id):
                return door
        return None

    def search(self, key: str, costs: bytes, origin: list[int], blocked: set[int]) -> Search:
        """A search for ``key`` (a hero, or its bolder search past traps): the one of its
        last decision if that one looked over everything it could reach and a new one
        would find the same (:meth:`Search.finds_the_same`: a hero stuck in a fight asks
        the same each turn), else a new one, kept for the next."""
        kept: dict[str, Search] = self.notes.setdefault("searches", {})
        last = kept.get(key)
        if last is not None and last.finds_the_same(costs, origin, blocked):
            return last
        found = kept[key] = Search(costs, self.memory.width, origin, blocked, most=PLANNING_MOST)
        return found

    def standing(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        leaving: bool,
        monsters: set[Pos],
        costs: bytes,
        blocked: set[int],
    ) -> bool:
        """Whether a hero with no squares left this step can only end its movement, which
        is known without a search in most cases: walking is out, so only forcing a shut
        door on its way could follow (that needs a door next to it, and out of combat
        and not leaving, any door next to it is forced before this), and the one thing
        the search could change is the note that nothing is left to look at, made only
        out of combat, not leaving, with goals, and when the hero can reach nothing to
        look at: the rest of its last route proves it can, if that route is still open
        and still ends somewhere worth going."""
        if leaving or monsters:
            return not obs.legal_of(OpenDoor, hero.id)
        if not obs.goals_seen():
            return True
        memory = self.memory
        here = memory.index(hero.pos) if hero.pos is not None else -1
        route: list[int] = self.notes.get("routes", {}).get(hero.id, [])
        if here not in route:
            return False
        rest = route[route.index(here) + 1 :]
        if not rest or any(costs[i] == 0 or i in blocked for i in rest):
            return False
        ranks = self.goal_areas(obs)
        end = rest[-1]
        return bool(self.to_look_at(obs)[end] or (ranks and self.in_areas(obs, ranks)[end]))

    def first_of(self, obs: ViewLike, hero: HeroSeen, leaving: bool) -> Action | None:
        """Out of combat, before going anywhere: drag a corpse out when leaving, rest at
        Death's Door (C-DD-02: no Death's Door roll for a hero who rests), disarm a trap
        found, force a door (unless leaving)."""
        kinds: list[type[Action]] = [Drag] if leaving else []
        if hero.health == 0 and not leaving:
            kinds.append(Rest)
        kinds.append(Disarm)
        if not leaving:
            kinds.append(OpenDoor)
        for kind in kinds:
            found = obs.legal_of(kind, hero.id)
            if found:
                return found[0]
        return None

    def target(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        search: Search,
        leaving: bool,
        monsters: set[Pos],
    ) -> int | None:
        """Where the hero heads: stand and fight, the way out, the nearest monster, a goal's
        area, then the nearest thing not yet looked at."""
        memory = self.memory
        here = hero.pos
        assert here is not None
        if any(m.is_adjacent(here) for m in monsters):
            return memory.index(here)  # already fighting: stand (fights are automatic)
        if leaving:
            exits = {memory.index(Pos(x, y)): n for n, (x, y) in enumerate(obs.exits)}
            out = search.nearest(mask_of(len(memory.codes), exits), key=exits.__getitem__)
            if out is not None:
                return out
        fit = [h for h in heroes if h.pos is not None and h.health > 1]
        if monsters and (hero.health > 1 or not fit):  # the hurt hang back, if they can
            fight = spot(search, monsters)
            if fight is not None:
                return fight
        if obs.goals_seen():
            ranks = self.goal_areas(obs)
            if ranks:
                goal = search.nearest(self.in_areas(obs, ranks))
                if goal is not None:
                    return goal
            if not monsters:
                return search.nearest(self.to_look_at(obs))
        # No Explore while monsters are on the board (C-CMB-01): only look further.
        return search.nearest(memory.frontier())

    def potion(self, obs: ViewLike, hero: HeroSeen) -> Action | None:
        """Something to use when hurt: a potion (most heal) before anything else."""
        kinds = obs.item_decks(hero.id)
        uses = obs.legal_of(UseItem, hero.id)
        return min(uses, key=lambda a: kinds.get(a.item) != "potion", default=None)

    # combat -----------------------------------------------------------------------------

    def on_spell_selection(self, obs: ViewLike) -> Action | None:
        """A known spell first; a face-down scroll (its spell unknown, R-C-IDENT-01) only
        when a hero is badly hurt, since a scroll whose spell does not suit the fight is
        wasted."""
        if not obs.monsters:
            return DONE
        casts = [a for a in obs.legal_of(BeginCasting) if not a.overcast]
        known = [a for a in casts if a.spell]
        if known:
            return known[0]
        desperate = any(h.pos is not None and h.health <= 2 for h in obs.heroes_seen())
        return casts[0] if casts and desperate else DONE

    def on_evasion(self, obs: ViewLike) -> Action | None:
        return DONE

    def on_casting_choice(self, obs: ViewLike) -> Action | None:
        first = obs.legal_of(CastingChoice)[0]
        return CastingChoice(first.hero, False)

    def on_cast_target(self, obs: ViewLike) -> Action | None:
        health = {m.id: m.health for m in obs.monsters_seen()}
        targets = obs.legal_of(ChooseTarget)
        return min(targets, key=lambda a: health.get(str(a.target), 99))

    def on_fight_stamina(self, obs: ViewLike) -> Action | None:
        most = max(a.points for a in obs.legal_of(FightStamina))
        return FightStamina(min(most, self.fight_stamina))

    def on_mental_spend(self, obs: ViewLike) -> Action | None:
        most = max(a.points for a in obs.legal_of(MentalSpend))
        return MentalSpend(min(most, 1))

    # explore and trade --------------------------------------------------------------------

    def on_explore_choice(self, obs: ViewLike) -> Action | None:
        for action in obs.legal_of(Explore):
            if action.explore:
                hero = next(h for h in obs.heroes_seen() if h.id == action.hero)
                codes = obs.area_codes()
                if hero.pos is not None and codes:
                    rank = codes[self.memory.index(hero.pos)]
                    if rank != NO_AREA:
                        self.explored.add(obs.revealed[rank])  # C-EXPL-01: read now
                return action
        return None

    def on_explore_actions(self, obs: ViewLike) -> Action | None:
        for kind in (Identify, Memorize):
            found = obs.legal_of(kind)
            if found:
                return found[0]
        hurt = {h.id for h in obs.heroes_seen() if h.health <= 2}
        for action in obs.legal_of(UseItem):
            if action.hero in hurt:
                return action
        return DONE

    def on_take_item(self, obs: ViewLike) -> Action | None:
        """The healthiest hero takes a found item: it is likeliest to carry it out."""
        health = {h.id: h.health for h in obs.heroes_seen()}
        return max(obs.legal_of(TakeItem), key=lambda a: health.get(a.hero, 0))

    def on_text_test(self, obs: ViewLike) -> Action | None:
        """Who takes up a room text when the explorers choose (R-C-EXPL-02, option
        ``text_test = "chosen"``): the first of them in party order, as the engine's
        own reading has it, so ``basic`` plays the same party under both readings."""
        return obs.legal_of(TakeTest)[0]

    def on_choice(self, obs: ViewLike) -> Action | None:
        """In the area of an open visit goal do the deed the text offers (its first
        option); elsewhere pick at random."""
        options = obs.legal_of(ChooseOption)
        in_goal = self.in_areas(obs, self.goal_areas(obs, explored_too=True))
        memory = self.memory
        if any(in_goal[memory.index(h.pos)] for h in obs.heroes_seen() if h.pos is not None):
            return min(options, key=lambda a: a.index)
        return self.rng.choose(options)

    def on_trade(self, obs: ViewLike) -> Action | None:
        takes = [a for a in obs.legal_of(Trade) if a.giver.startswith("hero:")]
        dead = {h.id for h in obs.heroes_seen() if h.dead}
        for action in takes:
            if action.giver in dead:
                return action  # C-DEATH-01: take the fallen hero's gear
        return DONE


def spot(search: Search, monsters: set[Pos]) -> int | None:
    """The nearest reachable square next to a monster (row, then column, on a tie);
    asked again of the same search with the same set of monsters, the answer it gave."""
    if search.asked is not None and search.asked[0] is monsters:
        return search.asked[1]
    width = search.width
    spots = {j for m in monsters for j in search.around[m.y * width + m.x]}
    spots = {i for i in spots if search.enterable(i)}
    found = search.nearest(mask_of(len(search.costs), spots)) if spots else None
    search.asked = (monsters, found)
    return found
