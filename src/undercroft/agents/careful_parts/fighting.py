"""Fighting (see :mod:`undercroft.agents.careful`): ganging up, squares next to one monster,
leaving a fight or evading at low Health (C-CMB-01), Stamina for a fight (C-FIGHT-04) and
Magic for a Mental Combat (C-MENT-02) by the exact odds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from undercroft.agents.basic_party import spot
from undercroft.agents.careful_parts.common import (
    DEATHS_DOOR,
    EXHAUSTED_COST,
    HURT_WEIGHT,
    KILL,
    MAGIC_POINT,
    RESERVE_COST,
    STAMINA_POINT,
    name,
)
from undercroft.agents.careful_parts.magic import Magic
from undercroft.agents.odds import fight_odds, mental_odds
from undercroft.agents.plan import (
    FAR,
    NEW_SQUARE,
    PLANNING_COST,
    PLANNING_MOST,
    SHUT_CODE,
    Search,
    mask_of,
)
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    Evade,
    FightStamina,
    Jump,
    MentalSpend,
    Move,
    OpenDoor,
    UseItem,
)
from undercroft.crawl.observe import HeroSeen, MonsterSeen, ViewLike

EASY = 0.85
"""A fight won this often with no Stamina gets none."""
STEADY = 2
"""The Stamina a fight that is not easy gets at least (while the hero has it to spare)."""
ENEMY_PENALTY = 3.0
"""How many squares further a hero walks to fight one monster fewer at once."""
FOCUS_BONUS = 2.0
"""How many squares further a hero walks to join a fight another hero is in."""
ALONE_PENALTY = 3.0
"""How many squares further a hero walks rather than face a stronger monster alone."""
HOLD_TURNS = 2
"""Turns of a fight without any hero next to a monster that the heroes hold their ground
(``hold``) before they go round by doors and unknown squares again (a monster that
never comes must still be reached)."""
RALLY_REACH = 2
"""How near (squares, diagonals counting one) a hero with no free square next to a
monster stays to a fight another hero is in (``rally``)."""


class Fighting(Magic):
    """Fights: where to stand, when to leave, Stamina and Magic by the exact odds."""

    # -- fighting ------------------------------------------------------------------------
    def fight_move(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        here = hero.pos
        assert here is not None
        self.note_contact(obs, heroes, monsters)
        adjacent = [m for m in monsters if m.pos.is_adjacent(here)]
        damage = sum(self.cards(obs).monsters[self.kind_of(obs, m.id)].damage for m in adjacent)
        if (
            adjacent
            and hero.health <= self.knobs.retreat
            and damage >= hero.health
            and not self.desperate(obs, hero, heroes)
        ):
            away = self.step_away(obs, hero, heroes, monsters)
            if away is not None:
                self.reason = (
                    f"{name(hero.id)} at Health {hero.health} leaves the fight: "
                    f"{damage} damage could come from {len(adjacent)} monster(s)"
                )
                return away
        if adjacent:
            self.reason = (
                f"{name(hero.id)} stands and fights {', '.join(name(m.id) for m in adjacent)}"
            )
            return None
        if hero.health <= self.knobs.retreat and any(
            h.health > self.knobs.retreat for h in heroes if h.id != hero.id
        ):
            self.reason = f"{name(hero.id)} at Health {hero.health} hangs back"
            return None
        if self.knobs.spells and self.casts_from_afar(obs, hero):
            if self.knobs.aim:
                aim = self.take_aim(obs, hero, heroes, monsters)
                if aim is not None:
                    return aim
            self.reason = f"{name(hero.id)} keeps out of melee to cast (C-SPELL-06)"
            return None
        if self.knobs.engage:
            return self.engage(obs, hero, heroes, monsters)
        action = self.hero_move(obs, hero, heroes, False)  # the nearest monster, as basic
        if self.knobs.rally and isinstance(action, Move) and not self.closing_in(hero, monsters):
            fights = self.fought_by_others(hero, heroes, monsters)
            return self.rally(obs, hero, heroes, monsters, fights) if fights else action
        if self.holds(obs) and self.into_the_unknown(hero, action) and self.holding(obs):
            self.notes["held"] = obs.turn  # waiting by choice: no standoff (note_standoff)
            return self.known_way(obs, hero, heroes, monsters)
        if self.knobs.approach and action is None and hero.moves_left > 0:
            # No square next to a monster to walk to: go near the fight another hero is
            # in rather than wait out of it (a friend fighting alone may fall, C-DD-01).
            fights = self.fought_by_others(hero, heroes, monsters)
            if fights:
                return self.rally(obs, hero, heroes, monsters, fights)
        if isinstance(action, Move):
            end = action.path[-1]
            self.reason = f"{name(hero.id)} closes in on the monsters, to {end.x},{end.y}"
        elif isinstance(action, OpenDoor):
            where = f"{action.door.x},{action.door.y}"
            self.reason = f"{name(hero.id)} forces the door at {where} toward the monsters"
        elif isinstance(action, UseItem):
            self.reason = self.use_reason(obs, hero, action)
        elif action is not None:
            self.reason = f"{self.say(obs, action)}, closing in on the monsters"
        elif hero.moves_left == 0:
            self.reason = f"{name(hero.id)} has used its movement"
        else:
            self.reason = f"{name(hero.id)} waits: no monster it can reach this turn"
        return action

    def desperate(self, obs: ViewLike, hero: HeroSeen, heroes: Sequence[HeroSeen]) -> bool:
        """Knob ``dying``: ``hero`` lies at Death's Door with no healthier friend on the
        board, and no way out is known (the Court of the Ash King before the Throne
        Room's text). It cannot leave, no friend fights in its stead, and every Turn End
        brings its roll (C-DD-01): stepping out of the fight only to walk back into it
        (Court, casters, 35 games of 100 before) buys nothing, and the monster's death
        is its only way out, so it stands and fights (a lone Brenna at Death's Door
        slew the Ash King at Health 2 so, Court seed 264, the ``basic`` DM)."""
        if not self.knobs.dying or hero.health > 0 or obs.exits:
            return False
        return not any(h.health > 0 for h in heroes if h.id != hero.id and h.pos is not None)

    def use_reason(self, obs: ViewLike, hero: HeroSeen, use: UseItem) -> str:
        """Why a hurt hero uses an item on its way to a fight (``basic``'s rule: at Health 2
        or less, a potion first), in the game's words."""
        what = self.item_words(obs, hero.id, use.item)
        return f"{name(hero.id)} at Health {hero.health} uses {what} before the fight"

    def closing_in(self, hero: HeroSeen, monsters: tuple[MonsterSeen, ...]) -> bool:
        """Whether the route ``hero_move`` planned for ``hero`` ends next to a monster
        (or on one): a walk to the fight, not to a goal or the unknown."""
        route: list[int] = self.notes.get("routes", {}).get(hero.id, [])
        if not route:
            return False
        end = self.memory.pos(route[-1])
        return any(m.pos == end or m.pos.is_adjacent(end) for m in monsters)

    @staticmethod
    def fought_by_others(
        hero: HeroSeen, heroes: tuple[HeroSeen, ...], monsters: tuple[MonsterSeen, ...]
    ) -> list[Pos]:
        """The squares of the monsters another hero than ``hero`` stands next to."""
        return [
            m.pos
            for m in monsters
            if any(
                h.id != hero.id and h.pos is not None and h.pos.is_adjacent(m.pos) for h in heroes
            )
        ]

    def rally(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
        fights: list[Pos],
    ) -> Action | None:
        """``rally`` (and ``approach``, for a hero with no such square it can reach): a
        hero with no free square next to a monster stays by the fight instead of
        wandering off alone (to read a room's text or meet new monsters while
        the others fight, C-TURN-04, C-CMB-01): over known floor it walks to within
        ``RALLY_REACH`` squares of a monster another hero fights (``fights``, the
        squares of those monsters, :meth:`fought_by_others`), or holds where it is."""
        here = hero.pos
        assert here is not None
        near = min(fights, key=here.chebyshev)
        where = f"{near.x},{near.y}"
        if here.chebyshev(near) <= RALLY_REACH:
            self.reason = (
                f"{name(hero.id)} stays by the fight at {where}: no free square next to a "
                "monster, and no wandering off alone"
            )
            return None
        memory = self.memory
        close = bytes(
            1 if any(f.chebyshev(q) <= RALLY_REACH for f in fights) else 0
            for q in memory.shape.squares
        )
        return self.walk_over_known(
            obs,
            hero,
            heroes,
            monsters,
            lambda s: s.nearest(close),
            f"{name(hero.id)} goes to the fight at {where} over known floor, to",
            f"{name(hero.id)} holds: no known way to the fight at {where}, and no wandering "
            "off alone",
        )

    def note_contact(
        self, obs: ViewLike, heroes: tuple[HeroSeen, ...], monsters: tuple[MonsterSeen, ...]
    ) -> None:
        """Remember the last turn a hero stood next to a monster (a new fight counts as
        contact on its first turn)."""
        contact: dict[str, int] = self.notes.setdefault("contact", {"seen": -9, "last": -9})
        if contact["seen"] < obs.turn - 1:
            contact["last"] = obs.turn  # a new fight: no monster on the board last turn
        contact["seen"] = obs.turn
        if any(h.pos is not None and h.pos.is_adjacent(m.pos) for h in heroes for m in monsters):
            contact["last"] = obs.turn

    def holding(self, obs: ViewLike) -> bool:
        """Whether the heroes still hold their ground: a hero fought a monster within the
        last ``HOLD_TURNS`` turns of this fight."""
        contact: dict[str, int] = self.notes.get("contact", {"last": obs.turn})
        return obs.turn - contact["last"] <= HOLD_TURNS

    def into_the_unknown(self, hero: HeroSeen, action: Action | None) -> bool:
        """Whether ``action`` forces a door, or heads along a way (the route ``hero_move``
        planned) that crosses a shut door or an unknown square: somewhere new, in a
        fight."""
        if isinstance(action, OpenDoor):
            return True
        if not isinstance(action, Move):
            return False
        memory = self.memory
        route: list[int] = self.notes.get("routes", {}).get(hero.id, [])
        if not route or memory.pos(route[0]) != action.path[0]:
            return False
        return any(NEW_SQUARE[memory.codes[i]] for i in route)

    def known_way(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        """Close in on the nearest monster over known floor only, or hold the ground: in
        a fight a careful hero forces no door and walks into no unknown square, which
        would reveal more monsters (C-TURN-04) while the others fight without it; the
        monsters come to the heroes (C-CMB-01)."""
        where = {m.pos for m in monsters}
        return self.walk_over_known(
            obs,
            hero,
            heroes,
            monsters,
            lambda s: spot(s, where),
            f"{name(hero.id)} closes in on the monsters over known floor, to",
            f"{name(hero.id)} holds its ground: no door forced and nothing unknown walked "
            "into in a fight",
        )

    def walk_over_known(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
        goal: Callable[[Search], int | None],
        going: str,
        holding: str,
    ) -> Action | None:
        """This turn's walk toward the square ``goal`` picks from a search over the board
        (walking costs, the other heroes, corpses, detected traps and the monsters in the
        way), up to the first square not known to be floor (``hold``, ``rally``); its
        reason is ``going`` and where it ends, or, with no such walk, ``holding`` (and
        the hero stays)."""
        here = hero.pos
        assert here is not None
        blocked = self.blocked(obs, hero, heroes, *(m.pos for m in monsters))
        search = self.known_floor_walk(here, blocked)
        target = goal(search)
        walk = self.known_walk(search.path_to(target), hero.moves_left) if target else ()
        if not walk:
            self.reason = holding
            return None
        end = walk[-1]
        self.reason = f"{going} {end.x},{end.y}"
        return Move(hero.id, walk)

    def casts_from_afar(self, obs: ViewLike, hero: HeroSeen) -> bool:
        """Whether the hero knows a combat spell it has the Magic for: it fights better
        from out of reach (a caster in a fight fails its spell or fights on double ones,
        C-SPELL-06)."""
        return self.combat_reach(obs, hero) is not None

    def engage(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        """Walk to a square next to the focus monster (the weakest that a hero already
        fights, else the nearest), next to no other monster if there is one."""
        here = hero.pos
        assert here is not None
        memory = self.memory
        blocked = self.blocked(obs, hero, heroes, *(m.pos for m in monsters))
        costs = memory.costs(PLANNING_COST)
        search = self.search(hero.id, costs, [memory.index(here)], blocked)
        engaged = [
            m for m in monsters
            if any(h.pos is not None and h.pos.is_adjacent(m.pos) for h in heroes)
        ]  # fmt: skip

        cards = self.cards(obs)
        fighting = cards.hero(hero.id).fighting
        by_square = {m.pos: m for m in monsters}
        best: tuple[float, int, MonsterSeen, int] | None = None
        for monster in monsters:
            strong = cards.monsters[self.kind_of(obs, monster.id)].fighting >= fighting + 1
            for j in search.around[memory.index(monster.pos)]:
                if j < 0 or j in blocked or not search.enterable(j):
                    continue
                d = search.distance(j)
                if d == FAR:
                    continue
                square = memory.pos(j)
                near = sum(1 for p in by_square if p.is_adjacent(square))
                # Nearest first, as basic; then one monster rather than several (each more
                # is -1, C-FIGHT-02), one a hero already fights (it takes -1 more), the
                # weakest; a strong monster nobody fights yet waits for company.
                score = d + ENEMY_PENALTY * (near - 1) - monster.health * 0.25
                if monster in engaged:
                    score -= FOCUS_BONUS
                elif strong:
                    score += ALONE_PENALTY
                if best is None or score < best[0]:
                    best = (score, j, monster, near)
        if best is not None:
            _score, target, monster, near = best
            route = search.path_to(target)
            walk = self.known_walk(route, hero.moves_left)
            if walk:
                self.reason = (
                    f"{name(hero.id)} closes on {name(monster.id)} (Health {monster.health})"
                    + (f", next to {near} monsters" if near > 1 else "")
                )
                return Move(hero.id, walk)
            if route and memory.codes[route[0]] == SHUT_CODE:
                door = OpenDoor(hero.id, memory.pos(route[0]))
                if door in obs.legal_of(OpenDoor, hero.id):
                    self.reason = f"{name(hero.id)} forces the door toward {name(monster.id)}"
                    return door
            jumps = obs.legal_of(Jump, hero.id)
            if jumps and route:
                self.reason = f"{name(hero.id)} jumps toward {name(monster.id)} (C-JUMP-01)"
                return jumps[0]
        # No monster to reach: look further as ``basic`` does (no Explore while monsters
        # are on the board, C-CMB-01).
        action = self.hero_move(obs, hero, heroes, False)
        self.reason = f"{name(hero.id)}: no monster within reach, " + (
            "holds its ground" if action is None else f"looks further ({self.say(obs, action)})"
        )
        return action

    def step_away(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        """A walk to the nearest square next to no monster."""
        here = hero.pos
        assert here is not None
        memory = self.memory
        blocked = self.blocked(obs, hero, heroes, *(m.pos for m in monsters))
        costs = memory.costs(PLANNING_COST)
        search = Search(costs, memory.width, [memory.index(here)], blocked, most=PLANNING_MOST)
        danger = {j for m in monsters for j in search.around[memory.index(m.pos)] if j >= 0}
        safe = {
            i for i in range(len(memory.codes))
            if memory.walkable(i) and i not in danger and i not in blocked
        }  # fmt: skip
        target = search.nearest(mask_of(len(memory.codes), safe)) if safe else None
        if target is None:
            return None
        route = search.path_to(target)
        if len(route) > hero.moves_left or any(not memory.walkable(i) for i in route):
            return None
        return Move(hero.id, tuple(memory.pos(i) for i in route))

    def on_evasion(self, obs: ViewLike) -> Action | None:
        """C-CMB-01 step 3: a hero that could die in this Fighting step steps away, at 2
        Stamina a square, to a square next to no monster."""
        monsters = obs.monsters_seen()
        for hero in self.on_board(obs):
            if hero.health > self.knobs.retreat or hero.pos is None:
                continue
            adjacent = [m for m in monsters if m.pos.is_adjacent(hero.pos)]
            if not adjacent:
                continue
            damage = sum(self.cards(obs).monsters[self.kind_of(obs, m.id)].damage for m in adjacent)
            if damage < hero.health and hero.health > 0:
                continue
            if self.desperate(obs, hero, self.on_board(obs)):
                continue
            for evade in obs.legal_of(Evade, hero.id):
                if not any(m.pos.is_adjacent(evade.to) for m in monsters):
                    self.reason = (
                        f"{name(hero.id)} at Health {hero.health} evades to "
                        f"{evade.to.x},{evade.to.y}: {damage} damage could come"
                    )
                    return evade
        self.reason = "nobody needs to evade"
        return DONE

    def on_fight_stamina(self, obs: ViewLike) -> Action | None:
        most = max(a.points for a in obs.legal_of(FightStamina))
        fight = obs.context
        if self.knobs.stamina == "flat" or fight is None or fight.get("kind") != "fight":
            self.reason = "Stamina 2 a fight (flat)"
            return FightStamina(min(most, 2))
        points, before, after = self.weigh_fight(obs, fight, most)
        monster = name(fight["monster"])
        if points:
            self.reason = f"Stamina {points}: {before:.2f} -> {after:.2f} to beat {monster}"
        else:
            self.reason = f"no Stamina: {before:.2f} to beat {monster}, more would not pay"
        return FightStamina(points)

    def weigh_fight(
        self, obs: ViewLike, fight: dict[str, Any], most: int
    ) -> tuple[int, float, float]:
        """The Stamina that maximizes the fight's expected worth (C-FIGHT-04)."""
        declared = int(fight.get("declared", 0))
        if fight.get("declares_first") == "heroes":
            declared = 1  # the DM answers: expect a point
        margin = fight["hero_score"] - fight["monster_score"] - declared
        strong = bool(fight["strong_wins_ties"])
        kill = fight["hero_damage"] >= fight["monster_health"]
        win_worth = KILL if kill else KILL * fight["hero_damage"] / max(1, fight["monster_health"])
        falls = fight["monster_damage"] >= fight["hero_health"]
        hurt = (
            DEATHS_DOOR
            if falls
            else HURT_WEIGHT * fight["monster_damage"] / max(1, fight["hero_health"])
        )
        info = self.hero_info(obs, fight["hero"])
        # Keep 2 Stamina back to evade with, when this hero may need to (C-CMB-01).
        reserve = 2 if fight["hero_health"] <= self.knobs.retreat + 1 else 0
        best, best_worth = 0, -1e9
        odds = {}
        for points in range(most + 1):
            win, lose = fight_odds(margin + points, strong)
            odds[points] = win
            cost = STAMINA_POINT * points
            if info["stamina"] - points < reserve:
                cost += RESERVE_COST
            if info["stamina"] - points <= 0:
                cost += EXHAUSTED_COST  # Exhausted until full again (C-EXH-01)
            worth = win * win_worth - lose * hurt - cost
            if worth > best_worth + 1e-9:
                best, best_worth = points, worth
        if odds[0] < EASY and best < STEADY and info["stamina"] - STEADY > reserve:
            # Measured: over whole games a steady 2 a fight beats spending only where a
            # single fight pays (fights repeat, wounds add up); never on a fight won
            # EASY times in 100 anyway.
            best = min(most, STEADY)
        return best, odds[0], odds[best]

    def on_mental_spend(self, obs: ViewLike) -> Action | None:
        most = max(a.points for a in obs.legal_of(MentalSpend))
        contest = obs.context
        if contest is None or contest.get("kind") != "mental":
            self.reason = "1 Magic (no context)"
            return MentalSpend(min(most, 1))
        declared = int(contest.get("declared", 0))
        base = (1 if contest["hero_iron_willed"] else 0) - int(contest["power"]) - declared
        if contest["aggressor"] == "hero" and "declared" not in contest:
            base -= 0  # we declare first: the other side answers unseen
        best, best_worth = 0, -1e9
        for points in range(most + 1):
            win, tie, _lose = mental_odds(base + points)
            worth = (win + tie / 2) * KILL - MAGIC_POINT * points
            if worth > best_worth + 1e-9:
                best, best_worth = points, worth
        before = sum(mental_odds(base)[:1])
        after = sum(mental_odds(base + best)[:1])
        self.reason = (
            f"Magic {best}: {before:.2f} -> {after:.2f} to win the Mental Combat"
            if best
            else f"no Magic: {before:.2f} to win the Mental Combat, more would not pay"
        )
        return MentalSpend(best)
