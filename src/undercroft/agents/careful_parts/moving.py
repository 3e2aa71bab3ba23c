"""Moving as a team (see :mod:`undercroft.agents.careful`): the Movement step, the leader's
wait at a door, and exploring the areas that may serve a goal together (C-EXPL-01)."""

from __future__ import annotations

from collections.abc import Callable

from undercroft.agents.careful_parts.common import (
    NO_AREA,
    name,
)
from undercroft.agents.careful_parts.patrols import Patrols
from undercroft.agents.plan import (
    FAR,
    FURNITURE_CODE,
    PLANNING_COST,
    SHUT_CODE,
    Search,
)
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    Cast,
    Drag,
    Explore,
    Jump,
    Move,
    OpenDoor,
    Rest,
    SpendStamina,
)
from undercroft.crawl.observe import HeroSeen, ViewLike
from undercroft.crawl.ruleset import Trait

TRAP_BITE = 3.0
"""What springing a trap costs, in squares of walking, when a jump over it fails and the
hero lands on it (C-JUMP-01): its Health or Light, and its turn ends there."""
DRAG_REACH = 6
"""How far (squares of walking) a hero leaving the dungeon goes out of its way to fetch a
corpse (``drag``)."""
MOVE_STAMINA = 3
"""The most Stamina a hero spends on squares in one Movement step (R-C-MOVE-01)."""
GOAL_MUSTER = 4
"""Turns the party gives everyone to reach the area of a visit goal before exploring it."""


def beyond(at: Pos, over: Pos) -> Pos:
    """Where a jump from ``at`` over the square ``over`` next to it lands (C-JUMP-01)."""
    return Pos(2 * over.x - at.x, 2 * over.y - at.y)


class Moving(Patrols):
    """Moving as a team: the leader waits at doors, the party explores goal areas together."""

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
        """On the way out, a corpse next to the hero that stands on its only way out (a
        doorway one square wide) is dragged out of the way (C-DEATH-01: a corpse blocks
        movement; C-DEATH-02: a dragged corpse follows into the square the hero leaves):
        the hero drags it and steps aside onto a square from which the way is open once
        the corpse has taken the hero's square (the corpse in tow). ``None``: no corpse
        is in the way."""
        here = hero.pos
        assert here is not None
        corpses = [c for c in obs.corpse_squares() if c.is_adjacent(here)]
        if not corpses or not obs.exits:
            return None
        memory = self.memory
        marks = bytearray(len(memory.codes))
        for x, y in obs.exits:
            marks[memory.index(Pos(x, y))] = 1
        exits = bytes(marks)
        bodies = self.blocked(obs, hero, heroes)
        for corpse in corpses:
            blocked = bodies - {memory.index(corpse)}
            search = self.search(
                hero.id + ":unblock", memory.costs(PLANNING_COST), [memory.index(here)], blocked
            )
            target = search.nearest(exits)
            route = search.path_to(target) if target is not None else []
            if not route or memory.pos(route[0]) != corpse:
                continue
            drag = Drag(hero.id, corpse)
            if drag in obs.legal_of(Drag, hero.id):
                self.reason = (
                    f"{name(hero.id)} drags the corpse at {corpse.x},{corpse.y} out of the "
                    "way out (C-DEATH-02)"
                )
                return drag
            # Dragging already: a walk after which the way out is open, the corpse having
            # followed into the square the hero left before its last (C-DEATH-02).
            aside = self.walk_aside(hero, corpse, blocked, exits)
            if aside is not None:
                end = aside.path[-1]
                self.reason = (
                    f"{name(hero.id)} steps aside to {end.x},{end.y}, the corpse in tow, to "
                    "open the way out"
                )
                return aside
        return None

    def walk_aside(
        self, hero: HeroSeen, corpse: Pos, blocked: set[int], exits: bytes
    ) -> Move | None:
        """The shortest walk (within the hero's movement left) for a hero dragging the
        corpse at ``corpse`` after which a way out is open: at each step the corpse
        follows into the square the hero left (C-DEATH-02), so the search is over (hero,
        corpse) squares. Of the ends found, the one nearest an exit. ``blocked``: the
        squares nobody may walk through, the corpse's and the hero's own left out."""
        here = hero.pos
        assert here is not None
        memory = self.memory
        around = memory.shape.around
        start = (memory.index(here), memory.index(corpse))
        paths: dict[tuple[int, int], tuple[int, ...]] = {start: ()}
        frontier = [start]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for _ in range(hero.moves_left):
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
                    target = onward.nearest(exits)
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
        return Move(hero.id, tuple(memory.pos(i) for i in best[2]))

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

    def shortcut(self, obs: ViewLike, hero: HeroSeen, action: Move) -> Action:
        """``jump`` (C-JUMP-01/02): jump an obstacle or a detected trap on the way when the
        squares saved on the way to where the hero's route ends outweigh what a failed
        jump costs, by the jump's exact odds (4-6; Agile 3-6): a failed jump over an
        obstacle ends the movement on the take-off square, one over a trap lands on it
        (its bite, and the movement ends there). The take-off may be any square of this
        turn's walk (a jump may come after some walking, C-JUMP-01): the hero then walks
        to it first, and jumps at its next decision. A walk onto a detected trap is
        jumped instead (a jump that fails lands on it, one that succeeds does not)."""
        jumps = obs.legal_of(Jump, hero.id)
        traps = set(obs.trap_squares())
        for jump in jumps:
            if jump.over in action.path and jump.over in traps:
                self.reason = (
                    f"{name(hero.id)} jumps the trap at {jump.over.x},{jump.over.y} "
                    "rather than walk onto it"
                )
                return jump
        memory = self.memory
        route: list[int] = self.notes.get("routes", {}).get(hero.id, [])
        if not route or [memory.pos(i) for i in route[: len(action.path)]] != list(action.path):
            return action  # not the walk of this hero's route (a fight, a muster...)
        agile = self.cards(obs).hero(hero.id).has(Trait.AGILE)
        p = 4 / 6 if agile else 3 / 6
        best: tuple[float, int, Pos] | None = None
        for take_off, over, land in self.hurdles(obs, hero, action, jumps, traps):
            # A failed jump loses the rest of this turn's walk from the take-off square.
            lost = len(action.path) - take_off
            bite = TRAP_BITE if over in traps else 0.0
            gain = self.jump_gain(route, take_off, land, p, lost + bite)
            if gain is not None and (best is None or gain > best[0]):
                best = (gain, take_off, over)
        if best is None:
            return action
        gain, take_off, over = best
        if take_off > 0:
            at = action.path[take_off - 1]
            self.reason = (
                f"{name(hero.id)} walks to {at.x},{at.y} to jump at {over.x},{over.y}: a "
                f"short cut worth {gain:+.1f} squares at {p:.2f} to land (C-JUMP-01)"
            )
            return Move(hero.id, action.path[:take_off])
        self.reason = (
            f"{name(hero.id)} jumps at {over.x},{over.y}: a short cut worth "
            f"{gain:+.1f} squares at {p:.2f} to land (C-JUMP-01)"
        )
        return Jump(hero.id, over)

    def spare_trap(self, obs: ViewLike, hero: HeroSeen, action: Move) -> Action:
        """``jump``: a walk to a fight over a detected trap (a monster only the trap
        leads to: monsters keep off traps, C-TRAP-05, and none is disarmed in a fight,
        C-TRAP-03) jumps it instead of walking onto it: a jump that fails lands on it
        (its bite, and the turn ends there, as walking onto it would), one that succeeds
        (4-6; Agile 3-6, C-JUMP-01/02) lands beyond and walks on. From the square before
        the trap, if the hero is not there yet: it walks there first, when it will still
        have the jump's 2 squares of movement and the square beyond is free floor."""
        traps = set(obs.trap_squares())
        at = next((k for k, square in enumerate(action.path) if square in traps), None)
        if at is None:
            return action
        over = action.path[at]
        if at == 0:
            jump = Jump(hero.id, over)
            if jump in obs.legal_of(Jump, hero.id):
                self.reason = (
                    f"{name(hero.id)} jumps the trap at {over.x},{over.y} on its way to the "
                    "fight rather than walk onto it (C-JUMP-01)"
                )
                return jump
            return action
        take_off = action.path[at - 1]
        if (
            hero.moves_left - at < 2
            or self.hero_info(obs, hero.id)["jumped"]
            or self.notes.get("drags", {}).get(hero.id) == obs.turn
            or not self.free_landing(beyond(take_off, over), self.figures(obs), traps)
        ):
            return action
        self.reason = (
            f"{name(hero.id)} walks to {take_off.x},{take_off.y} to jump the trap at "
            f"{over.x},{over.y} on its way to the fight rather than walk onto it"
        )
        return Move(hero.id, action.path[:at])

    def hurdles(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        action: Move,
        jumps: list[Jump],
        traps: set[Pos],
    ) -> list[tuple[int, Pos, Pos]]:
        """The jumps the hero could make on this turn's walk: (squares walked first, the
        square jumped, the landing square beyond it). From where it stands, the jumps the
        rules offer now; further on, furniture or a detected trap next to a square of the
        walk with a free square of known floor beyond it, while at least the jump's 2
        squares of movement are left (C-JUMP-01: once a Movement step, never by a hero
        dragging a corpse, R-C-JUMP-01)."""
        here = hero.pos
        assert here is not None
        found = [(0, j.over, beyond(here, j.over)) for j in jumps]
        walk = action.path
        if (
            len(walk) < 3
            or self.hero_info(obs, hero.id)["jumped"]
            or self.notes.get("drags", {}).get(hero.id) == obs.turn
        ):
            return found
        memory = self.memory
        figures = self.figures(obs)
        for take_off in range(1, len(walk) - 1):
            at = walk[take_off - 1]
            for over in at.orthogonal():
                land = beyond(at, over)
                if (
                    over in figures
                    or not self.free_landing(land, figures, traps)
                    or not (over in traps or memory.codes[memory.index(over)] == FURNITURE_CODE)
                ):
                    continue
                found.append((take_off, over, land))
        return found

    @staticmethod
    def figures(obs: ViewLike) -> set[Pos]:
        """The squares no jump passes over or lands on: heroes, monsters and corpses
        (C-JUMP-01: figures cannot be jumped; C-DEATH-01: a corpse blocks)."""
        found = {h.pos for h in obs.heroes_seen() if h.pos is not None}
        return found | {m.pos for m in obs.monsters_seen()} | set(obs.corpse_squares())

    def free_landing(self, land: Pos, figures: set[Pos], traps: set[Pos]) -> bool:
        """Whether a jump may land on ``land`` (C-JUMP-01: an empty square; a detected
        trap is not landed on by choice): on the board, known floor, no figure, no trap."""
        memory = self.memory
        return (
            0 <= land.x < memory.width
            and 0 <= land.y < memory.height
            and land not in figures
            and land not in traps
            and memory.walkable(memory.index(land))
        )

    def jump_gain(
        self, route: list[int], take_off: int, land: Pos, p: float, lost: float
    ) -> float | None:
        """What a jump from ``take_off`` squares along ``route`` to ``land`` is worth in
        squares by its odds ``p``: the squares saved on the way to the route's end if it
        lands, less ``lost`` (the squares and bite a failure costs) if it fails; ``None``
        if it is worth nothing."""
        memory = self.memory
        end = route[-1]
        ahead = len(route) - take_off  # the squares still to walk from the take-off
        # A jump pays only if it saves more than ``lost * (1 - p) / p`` squares; the walk
        # from the landing square is at least its distance counted square by square
        # (C-DIST-01), so most landings are ruled out without a search.
        goal = memory.pos(end)
        if ahead - 2 - (abs(goal.x - land.x) + abs(goal.y - land.y)) <= lost * (1 - p) / p:
            return None
        after = self.walk_from(land).distance(end)
        if after == FAR:
            return None
        saved = ahead - (2 + after)  # walking there, or over (2 squares) and on
        gain = p * saved - (1 - p) * lost
        return gain if gain > 0 else None

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
                    self.reason = (
                        f"{name(hero.id)} waits to explore the {area}: "
                        + ", ".join(name(h.id) for h in coming)
                        + (
                            " can join next turn"
                            if turns == 1
                            else f" can join within {turns} turns"
                        )
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
        read (C-EXPL-01)."""
        return {r for r in self.goal_areas(obs) if obs.revealed[r] not in self.explored}

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
        revealed = set(obs.revealed)
        turns = 0
        for goal in self.open_goals(obs):
            if goal.kind != "visit" or not self.knobs.muster:
                continue
            if goal.target == area:
                return GOAL_MUSTER
            if goal.target not in revealed and self.knobs.muster >= 2:
                turns = 1
        return turns

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
