"""Exploring together (see :mod:`undercroft.agents.careful`): a room's text is read once,
in the Explore step, by the heroes who explore its area, and a test of every explorer
gives each a roll while a test of the one who chose falls to its first explorer in party
order (C-EXPL-01). So the heroes of an area wait or explore as one; with ``muster`` they
wait for friends who can come; with ``together`` a friend who can walk into an unread
goal area this turn joins, and a hero alone there waits a turn for one (with
``together=2`` in a room the adventure's introduction names too, while a visit goal's
area is still to be found: :attr:`~undercroft.crawl.observe.Observation.intro`)."""

from __future__ import annotations

from collections.abc import Callable

from undercroft.agents.careful_parts.common import (
    NO_AREA,
    name,
)
from undercroft.agents.careful_parts.patrols import Patrols
from undercroft.agents.plan import PLANNING_COST, Search
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    Action,
    Explore,
    Move,
    SpendStamina,
)
from undercroft.crawl.observe import HeroSeen, ViewLike

MOVE_STAMINA = 3
"""The most Stamina a hero spends on squares in one Movement step (R-C-MOVE-01)."""
GOAL_MUSTER = 4
"""Turns the party gives everyone to reach the area of a visit goal before exploring it."""


class Together(Patrols):
    """Exploring an area's text together: mustering, pairing, joining (``muster``,
    ``together``)."""

    def on_explore_choice(self, obs: ViewLike) -> Action | None:
        """Explore together (C-EXPL-01): a text that tests every explorer gives each a
        roll, and a text is read once, so the heroes in an area not yet explored wait
        (``muster``: for the turns :meth:`worth_mustering` gives, all told) while another
        hero can walk into it within that many turns; then every hero who can explores.
        The heroes of one area wait or explore as one: a text read by one explorer while
        a friend beside it waits is the worst of both."""
        heroes = self.on_board(obs)
        for action in obs.legal_of(Explore):
            if not action.explore:
                continue
            hero = next(h for h in heroes if h.id == action.hero)
            assert hero.pos is not None
            rank = self.area_rank(obs, hero.pos)
            area = obs.revealed[rank] if rank != NO_AREA else None
            if area is not None and area not in self.explored:
                coming, turns = self.mustering(obs, heroes, rank, area)
                if not coming and self.knobs.together:
                    coming, turns = self.pairing(obs, heroes, rank, area), 1
                if coming:
                    told = area in self.named_rooms(obs) and rank not in self.goal_areas(obs)
                    self.reason = (
                        f"{name(hero.id)} waits to explore the {area}: "
                        + ", ".join(name(h.id) for h in coming)
                        + (
                            " can join next turn"
                            if turns == 1
                            else f" can join within {turns} turns"
                        )
                        + (" (the tale tells of it, and a goal is still hidden)" if told else "")
                    )
                    return Explore(hero.id, False)
            if area is not None:
                self.explored.add(area)  # C-EXPL-01: read now
            self.reason = f"{name(hero.id)} explores {area or 'where it stands'}"
            return action
        return None

    def mustering(
        self, obs: ViewLike, heroes: list[HeroSeen], rank: int, area: str
    ) -> tuple[list[HeroSeen], int]:
        """The heroes the ones in ``area`` wait for this turn before exploring it (none:
        explore now), and the turns they are given. Every hero in the area gets the same
        answer: who can walk into the area does not depend on which hero asks, and a turn
        already waited is waited again."""
        turns = self.worth_mustering(obs, area)
        if not turns:
            return [], 0
        coming = self.could_join(obs, heroes, rank, turns)
        # At most ``turns`` turns of waiting an area, all told: a wait broken off (a
        # fight) and taken up again counts on, so heroes whose friends go elsewhere do
        # not wait for them turn after turn until the Light is out.
        waited: set[int] = self.notes.setdefault("waited", {}).setdefault(area, set())
        if not coming or (len(waited) >= turns and obs.turn not in waited):
            return [], turns
        if obs.turn not in waited:  # the area's first hero asked this turn
            waited.add(obs.turn)
            muster = self.notes.get("muster")
            if muster is None or muster[0] != area:
                self.notes["muster"] = (area, obs.turn, turns)  # the others come
        return coming, turns

    def unread_goal_ranks(self, obs: ViewLike) -> set[int]:
        """The ranks of the revealed areas of open visit goals whose text is still to be
        read (C-EXPL-01); with ``together=2``, while an open visit goal names an area not
        found yet, also every revealed room the adventure's introduction names whose
        text is still to be read: where the tale says to look, a text may test every
        explorer to find it (the Bone Priest's chapel, behind which lies the ossuary)."""
        revealed = obs.revealed
        ranks = {r for r in self.goal_areas(obs) if revealed[r] not in self.explored}
        if self.knobs.together >= 2 and self.goal_area_hidden(obs):
            ranks |= self.unread_named_ranks(obs)
        return ranks

    def join_goal_room(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]
    ) -> Action | None:
        """``together``: a hero outside the area of an open visit goal not yet explored,
        where a friend stands, walks into it this turn if its Movement takes it there over
        known floor: the area's text is read once, and a test it sets the one who chose
        falls to the first explorer in party order (C-EXPL-01), so a second hero there
        may take it in the first one's place (or add its roll to a test of every
        explorer)."""
        here = hero.pos
        assert here is not None
        unread = self.unread_goal_ranks(obs)
        if not unread or self.area_rank(obs, here) in unread:
            return None
        friends = [
            h
            for h in heroes
            if h.id != hero.id
            and h.pos is not None
            and h.health > 0
            and self.area_rank(obs, h.pos) in unread
        ]
        if not friends:
            return None
        ranks = {self.area_rank(obs, h.pos) for h in friends if h.pos is not None}
        search = self.known_floor_walk(here, self.blocked(obs, hero, heroes))
        target = search.nearest(self.in_areas(obs, ranks))
        if target is None:
            return None
        memory = self.memory
        area = obs.revealed[self.area_rank(obs, memory.pos(target))]
        inside = " and ".join(
            name(h.id)
            for h in friends
            if h.pos is not None and obs.revealed[self.area_rank(obs, h.pos)] == area
        )
        short = search.distance(target) - hero.moves_left
        if short > 0:
            # C-TURN-03: Stamina buys the squares that are missing, if it can.
            buy = [a for a in obs.legal_of(SpendStamina, hero.id) if a.points >= short]
            if not buy:
                return None
            self.reason = (
                f"{name(hero.id)} spends {buy[0].points} Stamina to join {inside} in the {area}"
            )
            return buy[0]
        walk = tuple(memory.pos(i) for i in search.path_to(target))
        if not walk:
            return None
        self.reason = f"{name(hero.id)} joins {inside} to explore the {area} together"
        return Move(hero.id, walk)

    def make_room(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]
    ) -> Action | None:
        """``together``: a hero that stays to explore the area of an open visit goal and
        stands where a friend coming to join it cannot get in (the only square inside its
        door; no hero moves through another, C-TURN-03) steps further in, to the nearest
        square of the area from which it leaves the way in open."""
        here = hero.pos
        assert here is not None
        rank = self.area_rank(obs, here)
        if rank not in self.unread_goal_ranks(obs):
            return None
        memory = self.memory
        inside = self.in_areas(obs, {rank})
        me = memory.index(here)
        others = [
            h
            for h in heroes
            if h.id != hero.id
            and h.pos is not None
            and h.health > 0
            and self.area_rank(obs, h.pos) != rank
        ]
        shut_out = []
        for other in others:
            assert other.pos is not None
            bodies = self.blocked(obs, other, heroes)
            free = self.known_floor_walk(other.pos, bodies - {me})
            target = free.nearest(inside)
            if target is None or free.distance(target) > self.reach_next_turn(obs, other):
                continue
            if self.known_floor_walk(other.pos, bodies).nearest(inside) is None:
                shut_out.append((other, bodies - {me}))
        if not shut_out:
            return None
        mine = self.known_floor_walk(here, self.blocked(obs, hero, heroes))
        spots = sorted(
            (d, i)
            for i, code in enumerate(inside)
            if code and i != me
            for d in (mine.distance(i),)
            if d <= hero.moves_left
        )
        best = next(
            (
                i
                for _, i in spots
                if all(
                    self.known_floor_walk(o.pos, bodies | {i}).nearest(inside) is not None
                    for o, bodies in shut_out
                    if o.pos is not None
                )
            ),
            None,
        )
        if best is None:
            return None
        walk = tuple(memory.pos(i) for i in mine.path_to(best))
        who = " and ".join(name(o.id) for o, _ in shut_out)
        self.reason = f"{name(hero.id)} steps further into the {obs.revealed[rank]} to let {who} in"
        return Move(hero.id, walk)

    def pairing(
        self, obs: ViewLike, heroes: list[HeroSeen], rank: int, area: str
    ) -> list[HeroSeen]:
        """``together``: the friends a hero alone in the area of an open visit goal not yet
        explored waits a turn for (once an area, all told: the wait is not renewed), those
        whose Movement takes them into it over known floor next turn (figures ignored);
        none: explore now."""
        if rank not in self.unread_goal_ranks(obs):
            return []
        inside = [h for h in heroes if h.pos is not None and self.area_rank(obs, h.pos) == rank]
        if len(inside) != 1:
            return []
        waited: dict[str, int] = self.notes.setdefault("paired", {})
        if area in waited and waited[area] != obs.turn:
            return []
        coming = self.walkers_in(
            obs, heroes, rank, self.known_floor_walk, lambda h: self.reach_next_turn(obs, h)
        )
        if coming:
            waited[area] = obs.turn
        return coming

    def reach_next_turn(self, obs: ViewLike, hero: HeroSeen) -> int:
        """The squares ``hero`` may walk next turn: its Movement, - 1 at Light 0 (the
        Light drops at this turn's end, C-LIGHT-01/02), + the Stamina it may spend on
        squares (1 to 3, C-TURN-03, R-C-MOVE-01; it recovers 1 at Turn Start, C-TURN-02;
        none while Exhausted, C-EXH-01)."""
        info = self.hero_info(obs, hero.id)
        stamina = 0 if info["exhausted"] else min(MOVE_STAMINA, int(info["stamina"]) + 1)
        dark = 1 if obs.light <= 1 else 0
        return self.cards(obs).hero(hero.id).movement - dark + stamina

    def worth_mustering(self, obs: ViewLike, area: str) -> int:
        """How many turns to let the others take to join before exploring ``area`` (0:
        do not wait): :data:`GOAL_MUSTER` for the area of an open visit goal (its text is
        read once, and may test its first explorer: the whole party should be there,
        first in party order first); one while a visit goal
        names an area not yet found (a secret room may be found by a text that tests
        every explorer), so that only heroes close by are waited for."""
        if not self.knobs.muster:
            return 0
        if any(g.kind == "visit" and g.target == area for g in self.open_goals(obs)):
            return GOAL_MUSTER
        return 1 if self.knobs.muster >= 2 and self.goal_area_hidden(obs) else 0

    def could_join(
        self, obs: ViewLike, heroes: list[HeroSeen], rank: int, turns: int
    ) -> list[HeroSeen]:
        """The living heroes not in the area of ``rank`` who could walk into it within
        ``turns`` turns (their Movement each turn, C-TURN-03)."""
        cards = self.cards(obs)
        return self.walkers_in(
            obs, heroes, rank, self.walk_from, lambda h: turns * cards.hero(h.id).movement
        )

    def walkers_in(
        self,
        obs: ViewLike,
        heroes: list[HeroSeen],
        rank: int,
        walks: Callable[[Pos], Search],
        reach: Callable[[HeroSeen], int],
    ) -> list[HeroSeen]:
        """The living heroes not in the area of ``rank`` whose walk (``walks`` from where
        each stands) into it is at most ``reach`` of them."""
        inside = self.in_areas(obs, {rank})
        found = []
        for other in heroes:
            if other.pos is None or other.health == 0:
                continue
            if self.area_rank(obs, other.pos) == rank:
                continue
            search = walks(other.pos)
            square = search.nearest(inside)
            if square is not None and search.distance(square) <= reach(other):
                found.append(other)
        return found

    def join_muster(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]
    ) -> Action | None:
        """A hero outside the area the party musters in walks into it."""
        muster = self.notes.get("muster")
        if muster is None or hero.pos is None or obs.turn - muster[1] > muster[2]:
            return None
        area = muster[0]
        if area in self.explored:
            return None
        ranks = self.area_ranks(obs, {area})
        if not ranks or self.area_rank(obs, hero.pos) in ranks:
            return None
        memory = self.memory
        blocked = self.blocked(obs, hero, heroes)
        search = self.search(
            hero.id, memory.costs(PLANNING_COST), [memory.index(hero.pos)], blocked
        )
        target = search.nearest(self.in_areas(obs, ranks))
        if target is None:
            return None
        walk = self.known_walk(search.path_to(target), hero.moves_left)
        if not walk:
            return None
        self.reason = f"{name(hero.id)} joins the others to explore the {area} together"
        return Move(hero.id, walk)


__all__ = ["GOAL_MUSTER", "MOVE_STAMINA", "Together"]
