"""Moving as a team (see :mod:`undercroft.agents.careful`): the Movement step, the leader's
wait at a door, corpses dragged and fetched, jumps and short cuts; exploring an area
together is :mod:`undercroft.agents.careful_parts.together`."""

from __future__ import annotations

from undercroft.agents.careful_parts.common import (
    NO_AREA,
    name,
)
from undercroft.agents.careful_parts.jumps import Jumps
from undercroft.agents.plan import (
    FAR,
    PLANNING_COST,
    SHUT_CODE,
    WALK_COST,
    Search,
)
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    Cast,
    Drag,
    Move,
    OpenDoor,
    Rest,
)
from undercroft.crawl.observe import HeroSeen, MonsterSeen, ViewLike

DRAG_REACH = 6
"""How far (squares of walking) a hero leaving the dungeon goes out of its way to fetch a
corpse (``drag``)."""
ASIDE_BEYOND = 4
CORPSE_STEP = 16
"""What a corpse's square costs a walk that would clear it (:meth:`Moving.clear_way`):
a way round by up to 15 more squares is taken rather than one more corpse dragged."""
"""How many squares past its movement left a hero dragging a corpse out of the way out
looks for a walk that opens it (:meth:`Moving.walk_aside`: begun this turn, ended the
next)."""


class Moving(Jumps):
    """Moving as a team: the leader waits at doors, corpses come along, jumps pay."""

    # -- the Movement step -------------------------------------------------------------
    def on_movement(self, obs: ViewLike) -> Action | None:
        acting = obs.actors()
        if not acting:
            self.reason = "every hero has moved"
            return DONE
        heroes = obs.heroes_seen()
        if self.knobs.spells and len(acting) > 1 and self.anyone_hurt(obs, heroes):
            # A healer acts first when someone needs its heal (the others may wait for it);
            # with nobody hurt no heal is cast, and no healer's casts are asked for.
            for healer in heroes:
                if healer.id in acting[1:] and healer.pos is not None:
                    heal = self.first_aid(obs, healer, heroes, bool(obs.monsters))
                    if isinstance(heal, Cast):
                        return heal
        hero = next(h for h in heroes if h.id == acting[0])  # party order: the leader first
        lead = self.leader(obs)
        choice = self.careful_move(obs, hero, heroes, lead)
        if self.knobs.steady:
            choice = self.steady(obs, hero, lead, choice)
        if self.knobs.rooms:
            choice = self.out_of_corridor(obs, hero, heroes, choice)
        if isinstance(choice, Drag):
            self.notes.setdefault("drags", {})[hero.id] = obs.turn  # no jump this step
        if choice is not None:
            return choice
        return self.end_movement(hero.id)

    def steady(
        self, obs: ViewLike, hero: HeroSeen, lead: HeroSeen | None, action: Action | None
    ) -> Action | None:
        """No shuttle (``steady``): a hero does not walk back to the square it ended its
        movement on the turn before last when it ended elsewhere last turn (A-B-A, which
        two goals pulling in turn, or a fight's nearest square flipping between two far
        routes, would go on repeating): it stays where it is this turn instead. A move
        that joins a fight (it ends next to a monster) or leaves one (the hero stands
        next to a monster) goes ahead: the fight is what changed. The end squares are
        the party's own notes (where each Move it chose ended), not the state."""
        here = hero.pos
        assert here is not None
        ends: dict[str, dict[int, Pos]] = self.notes.setdefault("ends_of", {})
        mine = ends.setdefault(hero.id, {})
        for turn in [t for t in mine if t < obs.turn - 2]:
            del mine[turn]
        mine[obs.turn] = here
        if not isinstance(action, Move):
            return action
        end = action.path[-1]
        before, last = mine.get(obs.turn - 2), mine.get(obs.turn - 1)
        fights = [m.pos for m in obs.monsters_seen()]
        if (
            before is None
            or last is None
            or before == last
            or end != before
            or any(p.is_adjacent(end) or p.is_adjacent(here) for p in fights)
        ):
            mine[obs.turn] = end
            return action
        if lead is not None and hero.id == lead.id:
            self.notes["lead_stays"] = obs.turn  # see careful_move
        why = (
            f"{name(hero.id)} stays at {here.x},{here.y}: back to {end.x},{end.y}, "
            "where it stood two turns ago, would only undo last turn's walk"
        )
        return self.wait(obs, hero, why)

    def careful_move(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], lead: HeroSeen | None
    ) -> Action | None:
        here = hero.pos
        assert here is not None
        monsters = obs.monsters_seen()
        first = self.first_aid(obs, hero, heroes, bool(monsters))
        if first is not None:
            return first
        leaving = self.should_leave(obs)
        if monsters and not leaving:
            if self.knobs.clear:
                cleared = self.corpse_in_the_way(obs, hero, heroes, monsters)
                if cleared is not None:
                    return cleared
            action = self.fight_move(obs, hero, heroes, monsters)
            if self.knobs.rooms >= 2:
                action = self.wait_in_room(obs, hero, heroes, action)
            if self.knobs.jump and isinstance(action, Move):
                return self.spare_trap(obs, hero, action)
            return action
        if self.knobs.together and not leaving and hero.health > 0:
            join = self.join_goal_room(obs, hero, heroes) or self.make_room(obs, hero, heroes)
            if join is not None:
                return join
        if self.knobs.muster and not leaving:
            join = self.join_muster(obs, hero, heroes)
            if join is not None:
                return join
        gathering = self.knobs.gather > 0 and lead is not None and not leaving
        dying = hero.health == 0 and not monsters
        reach = self.follow_reach(obs)
        following = reach > 0 and lead is not None and lead.id != hero.id
        if (
            following
            and not (leaving or dying)
            and lead is not None
            and self.notes.get("lead_stays") != obs.turn
        ):
            # A leader that stays put this turn is not caught up with: it may be stuck
            # behind this very hero in a passage one square wide, and a follower that
            # went on past it would only walk back into its way (a deadlock to the
            # turn cap, measured in the Court of the Ash King).
            catch_up = self.catch_up(obs, hero, heroes, lead, reach)
            if catch_up is not None:
                return catch_up
        if self.knobs.drag and leaving and not monsters and hero.health > 0:
            fetch = self.fetch_corpse(obs, hero, heroes)
            if fetch is not None:
                return fetch
        action = self.hero_move(obs, hero, heroes, leaving or (dying and bool(obs.exits)))
        if action is None and leaving and not monsters:
            action = self.unblock(obs, hero, heroes)
        if self.knobs.jump and isinstance(action, Move):
            action = self.shortcut(obs, hero, action)
        if following and not (leaving or dying) and lead is not None:
            action = self.within_reach(obs, hero, lead, action, reach)
        if gathering and isinstance(action, OpenDoor) and lead is not None and hero.id == lead.id:
            action = self.hold_back(obs, hero, action)
        if (action is None or isinstance(action, Rest)) and lead is not None and hero.id == lead.id:
            # The leader stays put this turn: the followers may go on past it (one of
            # them may stand in its way in a passage one square wide).
            self.notes["lead_stays"] = obs.turn
        if action is None:
            return self.wait(obs, hero, self.reason or self.why_stay(obs, hero, leaving))
        if not self.reason:
            self.reason = self.why_move(obs, hero, action, leaving)
        return action

    def unblock(self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]) -> Action | None:
        """On the way out, a corpse in the way (C-DEATH-01: a corpse blocks movement) is
        dragged out of it (:meth:`clear_way`). ``None``: no corpse is in the way."""
        if not obs.exits:
            return None
        memory = self.memory
        marks = bytearray(len(memory.codes))
        for x, y in obs.exits:
            marks[memory.index(Pos(x, y))] = 1
        return self.clear_way(obs, hero, heroes, bytes(marks), "the way out")

    def corpse_in_the_way(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        """In a fight, a hero that can reach no square next to a monster but through a
        fallen friend's corpse (:meth:`clear_way`): it lies in the only way (a doorway),
        the monsters cannot come out and the heroes cannot go in, and while monsters are
        on the board nobody explores (C-CMB-01): read in Bone Priest seed 97, 75 turns of
        waiting, or of walking round by a shut door to where no way led."""
        here = hero.pos
        if here is None or any(m.pos.is_adjacent(here) for m in monsters):
            return None
        memory = self.memory
        marks = bytearray(len(memory.codes))
        for m in monsters:
            for p in memory.shape.around[memory.index(m.pos)]:
                marks[p] = 1
        monster_squares = tuple(m.pos for m in monsters)
        return self.clear_way(
            obs, hero, heroes, bytes(marks), "the way to the monsters", monster_squares
        )

    def clear_way(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        targets: bytes,
        way: str,
        more: tuple[Pos, ...] = (),
    ) -> Action | None:
        """A hero that can reach none of ``targets`` over known floor (``more``: monsters
        in the way too) when it could with the corpses gone clears the way: next to the
        first corpse on that walk it drags it (C-DEATH-02: the corpse follows into the
        square the hero leaves) and walks on, the corpse in tow, until the way is open
        behind it (:meth:`walk_aside`); further off, it walks up to it. Two corpses, one
        behind the other, are cleared one by one (Bone Priest seed 184: a hero who had
        met both goals dragged the wrong one, the one next to it, to the turn cap). With
        ``clear=0``, only a corpse next to the hero, on the way out. ``None``: the way is
        open, or no corpse is in it."""
        here = hero.pos
        corpses = set(obs.corpse_squares())
        if here is None or not corpses:
            return None
        memory = self.memory
        bodies = self.blocked(obs, hero, heroes, *more)
        if self.known_floor_walk(here, bodies).nearest(targets) is not None:
            return None  # a way round the corpses
        held = {memory.index(c) for c in corpses}
        # The walk over the fewest corpses (each a turn's work to clear).
        costs = bytearray(memory.costs(WALK_COST))
        for square in held:
            costs[square] = CORPSE_STEP
        search = Search(bytes(costs), memory.width, [memory.index(here)], bodies - held)
        target = search.nearest(targets)
        route = search.path_to(target) if target is not None else []
        first = next((i for i, square in enumerate(route) if square in held), None)
        if first is None:
            return None
        corpse = memory.pos(route[first])
        where = f"{corpse.x},{corpse.y}"
        if first == 0:
            drag = Drag(hero.id, corpse)
            if drag in obs.legal_of(Drag, hero.id):
                self.reason = (
                    f"{name(hero.id)} drags the corpse at {where} out of {way} (C-DEATH-02)"
                )
                return drag
            if self.notes.get("drags", {}).get(hero.id) != obs.turn:
                return None  # it came next to the corpse this move: it drags from the next
            # Dragging already: a walk after which the way is open, the corpse having
            # followed into the square the hero left before its last (C-DEATH-02).
            aside = self.walk_aside(hero, corpse, bodies - {route[0]}, targets)
            if aside is None:
                return None
            end = aside.path[-1]
            self.reason = (
                f"{name(hero.id)} steps aside to {end.x},{end.y}, the corpse in tow, to open {way}"
            )
            return aside
        if not self.knobs.clear:
            return None
        walk = tuple(memory.pos(i) for i in route[:first][: hero.moves_left])
        if not walk:
            return None
        self.reason = f"{name(hero.id)} walks up to the corpse at {where}: it lies in {way}"
        return Move(hero.id, walk)

    def walk_aside(
        self, hero: HeroSeen, corpse: Pos, blocked: set[int], targets: bytes
    ) -> Move | None:
        """The shortest walk for a hero dragging the corpse at ``corpse`` after which a way
        to ``targets`` (the exits, or squares next to monsters) is open: at each step the
        corpse follows into the square the hero left (C-DEATH-02), so the search is over
        (hero, corpse) squares. Of the ends found, the one nearest a target. With knob
        ``clear`` a walk longer than the hero's movement left is begun
        (its first squares, the corpse in tow): the rest is walked the next turn (in a
        dead end one square wide at its door, the corpse must go two squares in before
        the way is open, and a hero at Light 0 dragging has one square). ``blocked``:
        the squares nobody may walk through, the corpse's and the hero's own left out."""
        here = hero.pos
        assert here is not None
        if hero.moves_left <= 0:
            return None
        memory = self.memory
        around = memory.shape.around
        start = (memory.index(here), memory.index(corpse))
        paths: dict[tuple[int, int], tuple[int, ...]] = {start: ()}
        frontier = [start]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for _ in range(hero.moves_left + (ASIDE_BEYOND if self.knobs.clear else 0)):
            nxt: list[tuple[int, int]] = []
            for at, dragged in frontier:
                for to in around[at]:
                    if to == dragged or to in blocked or not memory.walkable(to):
                        continue
                    state = (to, at)
                    if state in paths:
                        continue
                    paths[state] = path = paths[(at, dragged)] + (to,)
                    nxt.append(state)
                    onward = self.search(
                        hero.id + ":aside", memory.costs(PLANNING_COST), [to], blocked | {at}
                    )
                    target = onward.nearest(targets)
                    if target is None:
                        continue
                    far = onward.distance(target)
                    if best is None or (far, len(path)) < best[:2]:
                        best = (far, len(path), path)
            if best is not None:
                break
            frontier = nxt
        if best is None:
            return None
        return Move(hero.id, tuple(memory.pos(i) for i in best[2][: hero.moves_left]))

    def first_of(self, obs: ViewLike, hero: HeroSeen, leaving: bool) -> Action | None:
        """``drag=2`` (C-DEATH-01/02/03): out of a fight, a hero starting its move next to
        a fallen friend's corpse drags it along, so the corpse is never left alone (and
        eaten) and can be brought out at the end; then as ``basic``."""
        if self.knobs.drag >= 2 and not leaving and hero.health > 0:
            drags = obs.legal_of(Drag, hero.id)
            if drags:
                corpse = drags[0].corpse
                self.reason = (
                    f"{name(hero.id)} drags the corpse at {corpse.x},{corpse.y} along "
                    "(C-DEATH-01: left alone it is eaten; brought out, its hero may be "
                    "revived, C-DEATH-03)"
                )
                return drags[0]
        return super().first_of(obs, hero, leaving)

    def fetch_corpse(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]
    ) -> Action | None:
        """``drag`` (C-DEATH-02/03): on the way out, a fallen hero's corpse within
        :data:`DRAG_REACH` squares of walking is fetched by the hero nearest to it, who
        walks next to it (and drags it out from the next turn on, C-DEATH-02: the drag
        is chosen before moving): a corpse brought out lets its gear be reused and its
        hero be revived (C-DEATH-03), for one square of movement a turn. ``None``: no
        corpse to fetch, or another hero is nearer, or this one stands next to it."""
        here = hero.pos
        assert here is not None
        corpses = obs.corpse_squares()
        if not corpses or any(c.is_adjacent(here) for c in corpses):
            return None
        memory = self.memory
        best: tuple[int, Pos] | None = None
        for corpse in corpses:
            near = self.walk_from(corpse)
            mine = near.distance(memory.index(here)) - 1
            if mine > DRAG_REACH:
                continue
            others = [
                near.distance(memory.index(h.pos)) - 1
                for h in heroes
                if h.id != hero.id and h.pos is not None and h.health > 0
            ]
            if any(d < mine for d in others):
                continue
            if best is None or mine < best[0]:
                best = (mine, corpse)
        if best is None:
            return None
        corpse = best[1]
        blocked = self.blocked(obs, hero, heroes)
        search = self.search(hero.id, memory.costs(PLANNING_COST), [memory.index(here)], blocked)
        around = bytes(
            1 if memory.pos(i).is_adjacent(corpse) and memory.pos(i) != corpse else 0
            for i in range(len(memory.codes))
        )
        target = search.nearest(around)
        if target is None:
            return None
        walk = self.known_walk(search.path_to(target), hero.moves_left)
        if not walk:
            return None
        self.reason = (
            f"{name(hero.id)} fetches the corpse at {corpse.x},{corpse.y} on the way out "
            "(C-DEATH-02/03: brought out, its hero may be revived)"
        )
        return Move(hero.id, walk)

    def catch_up(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        lead: HeroSeen,
        reach: int,
    ) -> Action | None:
        """A hero further than ``reach`` squares of walking from the leader walks toward
        it, over squares known to be floor (``None``: it is close enough, or cannot reach
        the leader at all, and goes its own way)."""
        assert hero.pos is not None and lead.pos is not None
        memory = self.memory
        near = self.walk_from(lead.pos)
        d = near.distance(memory.index(hero.pos))
        if d == FAR or d <= reach:
            return None
        blocked = self.blocked(obs, hero, heroes)
        search = self.search(
            hero.id, memory.costs(PLANNING_COST), [memory.index(hero.pos)], blocked
        )
        close = self.kept(f"close{reach}", lead.pos, 8, lambda: self.close_to(near, reach))
        target = search.nearest(close)
        route = search.path_to(target) if target is not None else []
        walk = self.known_walk(route, hero.moves_left)
        who = name(hero.id)
        if not walk:
            return self.wait(obs, hero, f"{who} waits for a way to {name(lead.id)}")
        self.reason = f"{who} keeps up with {name(lead.id)} ({d} squares away)"
        return Move(hero.id, walk)

    def close_to(self, near: Search, reach: int) -> bytes:
        """The squares within ``reach`` squares of walking of a search's origin."""
        return bytes(1 if near.distance(i) <= reach else 0 for i in range(len(self.memory.codes)))

    def within_reach(
        self, obs: ViewLike, hero: HeroSeen, lead: HeroSeen, action: Action | None, reach: int
    ) -> Action | None:
        """A follower's own move, cut where it would leave the leader's reach (a door it
        forces is within it: the leader is close by, and it may be in the leader's way)."""
        assert lead.pos is not None
        if not isinstance(action, Move) or self.notes.get("lead_stays") == obs.turn:
            return action
        near = self.walk_from(lead.pos)
        memory = self.memory
        kept: list[Pos] = []
        for square in action.path:
            if near.distance(memory.index(square)) > reach:
                break
            kept.append(square)
        if len(kept) == len(action.path):
            return action
        if not kept:
            return self.wait(obs, hero, f"{name(hero.id)} stays within reach of {name(lead.id)}")
        self.reason = f"{name(hero.id)} goes {len(kept)} squares, within reach of {name(lead.id)}"
        return Move(hero.id, tuple(kept))

    def to_look_at(self, obs: ViewLike) -> bytes:
        """With ``seek``, while a slay goal's monster is still to be found: only squares
        that lead somewhere new (its room is not one already in view, whose monsters
        showed when it was revealed, C-TURN-04); else as ``basic``."""
        found = super().to_look_at(obs)
        if not self.knobs.seek or not self.seeking(obs):
            return found
        return self.memory.frontier()

    def seeking(self, obs: ViewLike) -> bool:
        """Whether a slay goal names a monster no hero has seen yet."""
        seen: set[str] = self.notes.setdefault("kinds_seen", set())
        seen.update(m["kind"] for m in obs.monsters)
        return any(g.kind == "slay" and g.target not in seen for g in self.open_goals(obs))

    def anyone_hurt(self, obs: ViewLike, heroes: tuple[HeroSeen, ...]) -> bool:
        """Whether a hero on the board has less Health than its card."""
        cards = self.cards(obs)
        return any(h.pos is not None and h.health < cards.hero(h.id).health for h in heroes)

    def why_stay(self, obs: ViewLike, hero: HeroSeen, leaving: bool) -> str:
        """Why a hero ends its movement where it is (the reason of an EndMovement)."""
        who = name(hero.id)
        if hero.moves_left == 0:
            return f"{who} has used its movement"
        if hero.pos is not None:
            rank = self.area_rank(obs, hero.pos)
            if rank != NO_AREA and obs.revealed[rank] not in self.explored and not leaving:
                return f"{who} stays to explore the {obs.revealed[rank]}"
        if leaving:
            return f"{who} cannot get nearer the way out this turn"
        return f"{who}: the way on is blocked this turn"

    def why_move(self, obs: ViewLike, hero: HeroSeen, action: Action, leaving: bool) -> str:
        who = name(hero.id)
        if isinstance(action, OpenDoor):
            where = f"{action.door.x},{action.door.y}"
            if self.knobs.gather:
                return f"{who} forces the door at {where}: the others are close"
            return f"{who} forces the door at {where}: somewhere new beyond it"
        if isinstance(action, Move):
            end = action.path[-1]
            if leaving:
                return f"{who} heads for the way out ({end.x},{end.y})"
            return f"{who} leads on to {end.x},{end.y}"
        return self.say(obs, action)

    def hold_back(self, obs: ViewLike, hero: HeroSeen, action: Action) -> Action | None:
        """The leader forces no door and walks no further while the others lag, for at
        most ``patience`` turns in a row (a hero that cannot come up is not waited for
        for ever: the others may be in its way)."""
        waited: dict[str, int] = self.notes.setdefault("waited", {"turn": -1, "turns": 0})
        if waited["turn"] < obs.turn - 1:
            waited["turns"] = 0  # a turn without waiting: patience again
        if waited["turns"] >= self.patience and waited["turn"] != obs.turn:
            self.reason = f"{name(hero.id)} goes on: waited {waited['turns']} turns already"
            waited["turns"] = 0
            return action
        held = self.held_back(obs, hero, action)
        if held is not action and waited["turn"] != obs.turn:
            waited["turn"] = obs.turn
            waited["turns"] += 1
        return held

    def held_back(self, obs: ViewLike, hero: HeroSeen, action: Action) -> Action | None:
        if isinstance(action, OpenDoor):
            assert hero.pos is not None  # measured to the hero: a shut door costs 4 to plan
            far = self.laggards(obs, hero, hero.pos)
            if far:
                self.reason = self.waiting(hero, far, "before forcing the door")
                return self.wait(obs, hero, self.reason)
            return action
        if not isinstance(action, Move):
            return action
        memory = self.memory
        kept: list[Pos] = []
        for square in action.path:
            if self.laggards(obs, hero, square):
                break
            code = memory.codes[memory.index(square)]
            if code == SHUT_CODE:
                break
            kept.append(square)
        if len(kept) == len(action.path):
            return action
        if not kept:
            far = self.laggards(obs, hero, action.path[0])
            self.reason = self.waiting(hero, far, "before going on")
            return self.wait(obs, hero, self.reason)
        self.reason = f"{name(hero.id)} goes on only {len(kept)} squares: the others follow"
        return Move(hero.id, tuple(kept))

    def waiting(self, hero: HeroSeen, far: list[tuple[HeroSeen, int]], what: str) -> str:
        behind = " and ".join(f"{name(h.id)} {d} squares behind" for h, d in far)
        return f"{name(hero.id)} waits {what}: {behind}" if behind else f"{name(hero.id)} waits"

    def laggards(self, obs: ViewLike, hero: HeroSeen, at: Pos) -> list[tuple[HeroSeen, int]]:
        """The other heroes more than ``gather`` squares of walking from ``at`` (those who
        cannot reach it at all are left out: nobody waits for them)."""
        far = []
        memory = self.memory
        for other in self.on_board(obs):
            if other.id == hero.id or other.pos is None:
                continue
            d = self.walk_from(other.pos).distance(memory.index(at))
            if d != FAR and d > self.knobs.gather:
                far.append((other, d))
        return far
