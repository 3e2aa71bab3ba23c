"""Moving as a team (see :mod:`undercroft.agents.careful`): the Movement step, the leader's
wait at a door, following the leader; corpses are
:mod:`undercroft.agents.careful_parts.corpses`, jumps and short cuts
:mod:`undercroft.agents.careful_parts.jumps`, exploring an area together
:mod:`undercroft.agents.careful_parts.together`."""

from __future__ import annotations

from undercroft.agents.careful_parts.common import (
    NO_AREA,
    name,
)
from undercroft.agents.careful_parts.corpses import Corpses
from undercroft.agents.plan import (
    FAR,
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
    Move,
    OpenDoor,
    Rest,
    SpendStamina,
    UseItem,
)
from undercroft.crawl.observe import HeroSeen, ViewLike


class Moving(Corpses):
    """Moving as a team: the Movement step, the leader waits at doors, the others follow."""

    def ward(self, obs: ViewLike, hero: HeroSeen) -> Action | None:
        """Knob ``ward``: a hero at Death's Door whose Movement would be nothing (it hangs
        back, waits, or cannot get nearer the way out) rests instead, when no monster is
        next to it: a hero that rested makes no Death's Door roll at Turn End (C-DD-02,
        C-REST-03), 3 in 6 to die otherwise (C-DD-01); a fight breaks the rest and the
        roll is made after all (R-C-REST-01), so nothing is lost but a spell begun or an
        evasion (C-REST-01). Out of combat, not leaving, ``basic``'s
        :meth:`~undercroft.agents.basic_party.HeroParty.first_of` rests such a hero
        already; this is for the rest: in a fight, leaving, or waiting. Read in the Bone
        Priest (casters, ``master``, 200 seeds):
        163 of the 877 Death's Door rolls at the end of a combat turn were of a hero
        hanging back, and none rested: 0 rolls skipped."""
        if hero.health > 0 or hero.pos is None:
            return None
        here = hero.pos
        if any(m.pos.is_adjacent(here) for m in obs.monsters_seen()):
            return None
        rest = obs.legal_of(Rest, hero.id)
        if not rest:
            return None  # it has moved or acted this turn (C-REST-01)
        why = self.reason
        self.reason = (
            f"{name(hero.id)} at Death's Door rests: no Death's Door roll at Turn End "
            "(C-DD-02)" + (f" ({why})" if why else "")
        )
        return rest[0]

    # -- the Movement step -------------------------------------------------------------
    def on_movement(self, obs: ViewLike) -> Action | None:
        acting = obs.actors()
        if not acting:
            self.reason = "every hero has moved"
            return DONE
        heroes = obs.heroes_seen()
        self.note_standoff(obs)
        if self.knobs.dark >= 2:
            self.note_seen(obs)
        if self.knobs.spells and len(acting) > 1 and self.anyone_hurt(obs, heroes):
            # A healer acts first when someone needs its heal (the others may wait for it);
            # with nobody hurt no heal is cast, and no healer's casts are asked for.
            for healer in heroes:
                if healer.id in acting[1:] and healer.pos is not None:
                    heal = self.first_aid(obs, healer, heroes, bool(obs.monsters))
                    if isinstance(heal, Cast):
                        return heal
        if self.knobs.order and len(acting) > 1:
            early = self.joiners_first(obs, acting, heroes)
            if early is not None:
                return early
        hero = next(h for h in heroes if h.id == acting[0])  # party order: the leader first
        lead = self.leader(obs)
        choice = self.careful_move(obs, hero, heroes, lead)
        if self.knobs.steady:
            choice = self.steady(obs, hero, lead, choice)
        if choice is None and self.knobs.ward:
            ward = self.ward(obs, hero)
            if ward is not None:
                return ward
        if self.knobs.rooms:
            choice = self.out_of_corridor(obs, hero, heroes, choice)
        if self.knobs.haste and isinstance(choice, Move):
            buy = self.hasten(obs, hero, choice)
            if buy is not None:
                return buy
        if isinstance(choice, Drag):
            self.notes.setdefault("drags", {})[hero.id] = obs.turn  # no jump this step
            self.notes.setdefault("dragged", {})[hero.id] = choice.corpse
        elif isinstance(choice, Move) and self.notes.get("drags", {}).get(hero.id) == obs.turn:
            # The dragged corpse follows into the square the hero left last (C-DEATH-02).
            assert hero.pos is not None
            self.notes["dragged"][hero.id] = (hero.pos, *choice.path)[-2]
        if choice is not None:
            return choice
        return self.end_movement(hero.id)

    def joiners_first(
        self, obs: ViewLike, acting: list[str], heroes: tuple[HeroSeen, ...]
    ) -> Action | None:
        """Knob ``order``: out of a fight, before the heroes move in party order, a hero
        standing where friends cannot get into an unread goal's area (or a room the tale
        names, ``together=2``) steps further in, and then the friends who can walk in
        this turn do (``together``): heroes move in any order (C-TURN-03), and the text
        is read by whoever is inside at Explore (C-EXPL-01). In party order the first
        heroes found the way in blocked by the one inside, who made room only when its
        own turn came, and walked on elsewhere, or forced a new door into a fight that
        kept the others from joining (Bone Priest, first four, ``master``, 300 seeds: in
        31 games the Chapel of Ash's search was failed by one or two heroes while all
        four were alive, and the Ossuary was never found)."""
        if not self.knobs.together or obs.monsters or not self.unread_goal_ranks(obs):
            return None
        if self.should_leave(obs):
            return None
        later = [h for h in heroes if h.id in acting[1:] and h.pos is not None and h.health > 0]
        for hero in later:
            room = self.make_room(obs, hero, heroes)
            if room is not None:
                return room
        for hero in later:
            join = self.join_goal_room(obs, hero, heroes)
            if join is not None:
                return join
        return None

    def hasten(self, obs: ViewLike, hero: HeroSeen, move: Move) -> Action | None:
        """Knob ``haste``: with no monster on the board, a hero at full Stamina (not
        Exhausted) whose walk takes every square it has left buys one more square with
        1 Stamina (C-TURN-03, R-C-MOVE-01) and plans again: each hero regains 1 Stamina
        at Turn Start (C-TURN-02), which a hero at full wastes, so the square costs
        nothing by the next turn, and a faster walk saves Light (C-LIGHT-01). ``None``:
        no square to buy."""
        if obs.monsters or len(move.path) < hero.moves_left:
            return None
        if self.knobs.haste >= 2 and any(self.area_rank(obs, p) == NO_AREA for p in move.path):
            return None  # it may walk into sight of what is not revealed yet: keep the point
        info = self.hero_info(obs, hero.id)
        if info["exhausted"] or info["stamina"] < self.cards(obs).hero(hero.id).stamina:
            return None
        buy = next((a for a in obs.legal_of(SpendStamina, hero.id) if a.points == 1), None)
        if buy is not None:
            self.reason = (
                f"{name(hero.id)} spends 1 Stamina for a square more: at full Stamina, "
                "Turn Start gives it back"
            )
        return buy

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
        if (
            self.knobs.dying
            and leaving
            and hero.health == 0
            and any(m.pos.is_adjacent(here) for m in monsters)
        ):
            # Leaving, a hero at Death's Door steps out of the fight first, as one that
            # stays does (``retreat``): a wound there brings another roll (C-DD-03).
            away = self.step_away(obs, hero, heroes, monsters)
            if away is not None:
                self.reason = f"{name(hero.id)} at Death's Door steps out of the fight, to leave"
                return away
        if monsters and not leaving and self.notes.get("roving"):
            return self.rove(obs, hero, heroes)
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
        if (
            self.knobs.clear >= 2
            and leaving
            and hero.health > 0
            and not any(m.pos.is_adjacent(here) for m in monsters)
        ):
            # The way out cleared first, before a corpse is fetched, and with monsters on
            # the board too: a corpse in the only way out of a dead end (the Ossuary's
            # doorway) shuts the hero in, and the monsters out, to the turn cap.
            cleared = self.unblock(obs, hero, heroes)
            if cleared is not None:
                return cleared
        if self.knobs.drag and leaving and not monsters and hero.health > 0:
            fetch = self.fetch_corpse(obs, hero, heroes)
            if fetch is not None:
                self.notes.setdefault("fetched", {})[hero.id] = obs.turn
                return fetch
            if self.notes.get("fetched", {}).get(hero.id) == obs.turn and any(
                c.is_adjacent(here) for c in obs.corpse_squares()
            ):
                # It walked up to the corpse this turn: it drags it from the next (the
                # drag is chosen before moving, C-DEATH-02). Walking on toward the way
                # out would take it away again, and the next turn's fetch back (Bone
                # Priest seed 333, the basic DM: to the turn cap, both goals met).
                self.reason = f"{name(hero.id)} stays by the corpse, to drag it out from next turn"
                return self.end_movement(hero.id)
        action = self.hero_move(obs, hero, heroes, leaving or (dying and bool(obs.exits)))
        if action is None and leaving and not monsters and self.knobs.clear < 2:
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
        showed when it was revealed, C-TURN-04), and with ``seek`` 2 and 3, while a goal's
        room is hidden, the rooms the tale names that nobody has read (3: only those,
        while there are any); else as ``basic``."""
        found = super().to_look_at(obs)
        if not self.knobs.seek or not self.seeking(obs):
            return found
        frontier = self.memory.frontier()
        if self.knobs.seek < 2 or not self.goal_area_hidden(obs):
            return frontier
        # ``seek=2``: a room the tale names, not read yet, is looked at too: a goal's
        # room is hidden, and its text may reveal it (and the monster in it); ``seek=3``
        # looks there first.
        ranks = self.unread_named_ranks(obs)
        if not ranks:
            return frontier
        told = self.in_areas(obs, ranks)
        if self.knobs.seek >= 3:
            return told
        return bytes(a | b for a, b in zip(frontier, told, strict=True))

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
                why = self.notes.get("leave_why") or ""
                return f"{who} heads for the way out ({end.x},{end.y}){why}"
            return f"{who} leads on to {end.x},{end.y}"
        return self.say(obs, action)

    def rove(self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]) -> Action | None:
        """A fight that stood still ``standoff`` turns with no way out known (the Court of
        the Ash King, before the Throne Room's text opens one): the party cannot leave,
        so each hero makes for the nearest monster as ``basic`` does, by doors and
        unknown squares too (no holding back, no waiting out of melee to cast), until
        the fight ends (:meth:`note_standoff`). A hero next to a monster does as in any
        fight (:meth:`fight_move`)."""
        here = hero.pos
        assert here is not None
        monsters = obs.monsters_seen()
        if any(m.pos.is_adjacent(here) for m in monsters):
            return self.fight_move(obs, hero, heroes, monsters)
        action = self.hero_move(obs, hero, heroes, False)
        who, turns = name(hero.id), self.knobs.standoff
        why = f"the fight stood still {turns} turns, and there is no way out yet"
        if isinstance(action, Move):
            end = action.path[-1]
            self.reason = f"{who} goes round to the monsters, to {end.x},{end.y}: {why}"
        elif isinstance(action, OpenDoor):
            door = action.door
            self.reason = f"{who} forces the door at {door.x},{door.y} toward the monsters: {why}"
        elif isinstance(action, UseItem):
            self.reason = self.use_reason(obs, hero, action)
        elif action is None:
            self.reason = f"{who} stands: no way to the monsters this turn, and no way out"
        return action

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
