"""``master``: a Dungeon Master who plays to win within the rules (the default DM).

It keeps the ``basic`` DM's walks (:class:`~undercroft.agents.basic_dm.DungeonMaster`)
and decides as a DM who wants the heroes dead would (its knobs: :class:`MasterKnobs`).
The heroes move before the monsters (C-CMB-01), so in Monsters' Movement the DM sees
where every hero will fight from and picks the fights:

Focus
    Every walk that ends next to a hero is weighed by what the Fighting step would do
    with the monsters where they would then stand, with the exact odds
    (:mod:`undercroft.agents.odds`): a hero in 2, 3 or 4 fights fights each at -1, -2,
    -3 (C-FIGHT-02), all damage lands at once (C-FIGHT-05), a hero brought to 0 Health
    is at Death's Door (C-DD-01) and every creature that hits a hero already there forces
    another roll (C-DD-03). So monsters gang up on the hero they can bring down or
    finish, keep out of fights where heroes surround them, and the monster whose move
    does the most goes first. A monster with no hero in reach closes in as ``basic``'s do.
Abilities
    An ability (instead of moving) is weighed the same way: its odds of hurting its
    target (a Mental Combat, C-MENT-01..03, or a trait test) and what that hurt does to
    the fights that follow, against the best walk.
Stamina and Magic
    Weighed with the exact odds, counting the hero's other fights this step: a fight
    that could put a hero at Death's Door, or roll for one already there, or save a
    monster's life gets what it takes; a monster's Stamina never comes back.
Stall
    A patrol or ambusher with no fight worth taking keeps out of the heroes' reach (it
    moves after them, so only an Evasion or a dead end brings it to battle): while a
    monster is on the board there is no Explore (C-CMB-01, C-TURN-05), so the goals wait
    and the Light runs down. A guard, once roused, attacks and fights to the death
    (C-MON-02).

The rules keep guards, patrols and ambushers to their encounter types and monsters off
traps (C-MON-02..04, C-TRAP-05). Every decision sets ``reason`` (the ``reason`` event,
which the heroes' view never shows). The DM reads only its seat's view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from undercroft.agents.basic_dm import DungeonMaster
from undercroft.agents.knobs import MasterKnobs
from undercroft.agents.odds import damage_totals, fight_odds, mental_odds
from undercroft.agents.plan import WALK_COST, Search
from undercroft.core.grid import Pos
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import (
    DONE,
    Action,
    FightStamina,
    MentalSpend,
    MonsterAbility,
    MonsterMove,
)
from undercroft.crawl.context import Cards
from undercroft.crawl.observe import ViewLike
from undercroft.crawl.ruleset import Encounter, Trait

STAMINA_POINT = 0.01
"""What a monster's point of Stamina costs the DM (it does not come back)."""
MAGIC_POINT = 0.15
DEATH = 1.0
"""What a hero's death is worth to the DM (the unit of every other worth)."""
DOOR = 0.6
"""A hero brought to Death's Door: dies on 1-3 at Turn End (C-DD-01), and is easy prey."""
WOUND = 0.06
"""A point of Health off a hero that stays above 0."""
SLAIN = 0.25
"""A monster slain, before its card's worth (:func:`monster_worth`)."""
HURT = 0.03
"""A point of Health off a monster that lives."""
AWAY = Pos(-99, -99)
"""Where a monster is put to weigh the fights without it."""
HERO_STAMINA = 2
"""What a hero is expected to spend on a fight (C-FIGHT-04), Stamina allowing."""
MAX_HERO_STAMINA = 3
"""The most Stamina a hero may spend for extra squares (C-TURN-03)."""
EVADE_COST = 2
"""Stamina a hero pays for each square it Evades (C-CMB-01)."""
FAR_ENOUGH = 99
"""A distance past any hero's reach (a square no hero can walk to)."""

Choice = MonsterAbility | tuple[str, Pos, int]
"""A monster's move as the DM weighs it: an ability, or (monster, end, Stamina)."""


def name(figure: str) -> str:
    bare = figure.partition(":")[2] or figure
    return bare.capitalize() if figure.startswith("hero:") else bare


class Side:
    """A hero or a monster as the DM weighs it in a fight (a plain class)."""

    def __init__(
        self,
        id: str,
        pos: Pos,
        health: int,
        fighting: int,
        damage: int,
        bonus: int,
        strong: bool = False,
        door_death: float = 0.5,
        worth: float = 0.0,
    ) -> None:
        self.id = id
        self.pos = pos
        self.health = health
        self.fighting = fighting
        """Its card's Fighting Score with every modifier but C-FIGHT-02's."""
        self.damage = damage
        self.bonus = bonus
        """The Stamina it is expected to spend a fight."""
        self.strong = strong
        self.door_death = door_death
        """A hero's chance to die on one Death's Door roll (C-DD-01, C-DD-04)."""
        self.worth = worth
        """A monster's worth when slain."""


def hero_harm(hero: Side, blows: list[tuple[float, int]]) -> float:
    """What the blows (chance to land, damage) do to a hero, in the DM's worth: a blow on
    a hero at Death's Door is a roll to die (C-DD-03), a total that reaches its Health
    puts it there (C-FIGHT-06), anything less wounds it."""
    if not blows:
        return 0.0
    if hero.health <= 0:
        lives = 1.0
        for p, _damage in blows:
            lives *= 1.0 - p * hero.door_death
        return hero.worth * DEATH * (1.0 - lives)
    worth = 0.0
    for total, p in damage_totals(blows).items():
        if total >= hero.health:
            worth += p * (DOOR + WOUND * hero.health)
        else:
            worth += p * WOUND * total
    return hero.worth * worth


def monster_loss(monster: Side, blows: list[tuple[float, int]]) -> float:
    """What the blows do to a monster: slain at 0 Health (C-FIGHT-06), else hurt."""
    if not blows:
        return 0.0
    worth = 0.0
    for total, p in damage_totals(blows).items():
        if total >= monster.health:
            worth += p * monster.worth
        else:
            worth += p * HURT * total
    return worth


def crowd(count: int) -> int:
    """C-FIGHT-02: -1 in 2 fights, -2 in 3, -3 in 4."""
    return -min(3, max(0, count - 1))


@dataclass
class Table:
    """The heroes and monsters on the board as the DM weighs them (one a decision)."""

    heroes: dict[str, Side]
    monsters: dict[str, Side]

    def pairs(self, where: dict[str, Pos]) -> list[tuple[Side, Side]]:
        """Every fight (C-FIGHT-01) with the monsters at ``where``."""
        found = []
        for hero in self.heroes.values():
            for monster in self.monsters.values():
                if where[monster.id].is_adjacent(hero.pos):
                    found.append((hero, monster))
        return found

    def worth(self, where: dict[str, Pos], health: dict[str, int] | None = None) -> float:
        """What the Fighting step would be worth to the DM with the monsters at ``where``
        (and heroes' Health as in ``health``): harm to heroes minus the monsters' loss."""
        pairs = self.pairs(where)
        if not pairs:
            return 0.0
        count: dict[str, int] = {}
        for hero, monster in pairs:
            count[hero.id] = count.get(hero.id, 0) + 1
            count[monster.id] = count.get(monster.id, 0) + 1
        on_hero: dict[str, list[tuple[float, int]]] = {}
        on_monster: dict[str, list[tuple[float, int]]] = {}
        for hero, monster in pairs:
            hero_share = hero.bonus // count[hero.id] if count[hero.id] > 1 else hero.bonus
            margin = (hero.fighting + crowd(count[hero.id]) + hero_share) - (
                monster.fighting + crowd(count[monster.id]) + monster.bonus
            )
            hero_wins, monster_wins = fight_odds(margin, hero.strong)
            on_hero.setdefault(hero.id, []).append((monster_wins, monster.damage))
            on_monster.setdefault(monster.id, []).append((hero_wins, hero.damage))
        worth = 0.0
        for hid, blows in on_hero.items():
            hero = self.heroes[hid]
            if health is not None and hid in health:
                hero = Side(
                    hero.id, hero.pos, health[hid], hero.fighting, hero.damage, hero.bonus,
                    hero.strong, hero.door_death, hero.worth,
                )  # fmt: skip
            worth += hero_harm(hero, blows)
        for mid, blows in on_monster.items():
            worth -= monster_loss(self.monsters[mid], blows)
        return worth


def monster_worth(fighting: int, damage: int, health: int, goal: bool) -> float:
    """What losing a monster costs the DM: more for a stronger one, most for a foe a
    ``slay`` goal names (its death meets the goal)."""
    base = SLAIN + 0.02 * (fighting + damage) + 0.01 * health
    return base + (0.6 if goal else 0.0)


@dataclass
class Master(DungeonMaster):
    """The DM that plays to win (see the module docstring)."""

    knobs: MasterKnobs = field(default_factory=MasterKnobs)
    kept_away: dict[str, set[int]] = field(default_factory=dict)
    """Knob ``harry``: the turns each monster has kept out of the heroes' reach."""

    def act(self, obs: ViewLike) -> Action:
        if obs.decision == "monster_movement":
            return self.move(obs)
        if obs.decision == "fight_stamina" and self.knobs.stamina == "all":
            most = max(a.points for a in obs.legal_of(FightStamina))
            self.reason = f"Stamina {most}: all it may spend (it never comes back)"
            return FightStamina(most)
        if obs.decision == "fight_stamina" and self.knobs.stamina == "odds":
            return self.fight_stamina(obs)
        if obs.decision == "mental_spend" and self.knobs.stamina == "odds":
            return self.mental_spend(obs)
        return super().act(obs)

    # -- the table ---------------------------------------------------------------------

    def table(self, obs: ViewLike) -> Table:
        cards = cards_of(obs)
        penalty = -1 if obs.light <= 0 else 0  # C-LIGHT-02
        heroes: dict[str, Side] = {}
        for h in obs.heroes:
            pos = h["pos"]
            if pos is None:
                continue
            card = cards.hero(h["id"])
            bonus = sum(
                cards.items[i["card"]].fighting_bonus
                for i in h["items"]
                if i["identified"] and i["card"] in cards.items
            )
            score = card.fighting + bonus + penalty - (1 if h["surprised"] else 0)
            stamina = 0 if h["exhausted"] else min(HERO_STAMINA, int(h["stamina"]))
            heroes[h["id"]] = Side(
                h["id"],
                Pos(pos[0], pos[1]),
                int(h["health"]),
                score,
                card.damage,
                stamina,
                strong=Trait.STRONG in card.traits,
                door_death=(2 if Trait.IRON_WILLED in card.traits else 3) / 6,
            )
        self.weigh_heroes(obs, heroes)
        slay = {g.target for g in obs.goals_seen() if g.kind == "slay" and not g.met}
        monsters: dict[str, Side] = {}
        for m in obs.monsters:
            profile = cards.monsters[m["kind"]]
            monsters[m["id"]] = Side(
                m["id"],
                Pos(m["pos"][0], m["pos"][1]),
                int(m["health"]),
                profile.fighting,
                profile.damage,
                0,
                worth=monster_worth(
                    profile.fighting, profile.damage, profile.health, m["kind"] in slay
                ),
            )
        return Table(heroes, monsters)

    def weigh_heroes(self, obs: ViewLike, heroes: dict[str, Side]) -> None:
        """Each hero's worth to its party (knob ``focus`` 2): the strongest fighters
        carry the party, the last hero standing is the whole party, and a hero holding
        a ``carry`` goal's item carries the goal."""
        if self.knobs.focus < 2 or not heroes:
            for hero in heroes.values():
                hero.worth = 1.0
            return
        cards = cards_of(obs)
        strength = {
            h: cards.hero(h).fighting + cards.hero(h).damage + cards.hero(h).health / 4
            for h in heroes
        }
        mean = sum(strength.values()) / len(strength)
        carried = {g.target for g in obs.goals_seen() if g.kind == "carry" and not g.met}
        holding = {
            h["id"]
            for h in obs.heroes
            if h["id"] in heroes and any(i["card"] in carried for i in h["items"])
        }
        for hid, hero in heroes.items():
            hero.worth = strength[hid] / mean
            if hid in holding:
                hero.worth *= 1.5
            if len(heroes) == 1:
                hero.worth *= 2.0

    # -- Monsters' Movement ------------------------------------------------------------

    def move(self, obs: ViewLike) -> Action:
        acting = obs.actors()
        if not acting:
            self.reason = "no monster left to move"
            return DONE
        if not self.knobs.focus:
            return super().move(obs)
        table = self.table(obs)
        where = {m.id: m.pos for m in table.monsters.values()}
        best: tuple[float, int, int, int] | None = None
        chosen: Choice | None = None
        why = ""
        beside = {
            Pos(h.pos.x + dx, h.pos.y + dy)
            for h in table.heroes.values()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        }
        # Knobs ``stall`` and ``harry``: the monsters not bound to attack (C-MON-02 binds
        # guards) that have no fight worth taking keep out of reach; each one's own best
        # choice is kept for when it is cornered.
        stallers = self.stallers(obs) if self.knobs.stall or self.knobs.harry else set()
        keeping: list[str] = []
        own: dict[str, tuple[tuple[float, int, int, int], Choice, str]] = {}
        for order, monster in enumerate(acting):
            here = where[monster]
            mine: tuple[float, int, int, int] | None = None
            picked: Choice | None = None
            said = ""
            # Each choice is weighed against the fights as they would be without it.
            where[monster] = AWAY
            base = table.worth(where)
            for end, stamina, steps in obs.walk_ends(monster):
                if end not in beside:
                    continue  # no fight there: closing in is the fallback below
                where[monster] = end
                gain = table.worth(where) - base - STAMINA_POINT * stamina
                key = (gain, -stamina, -steps, -order)
                if mine is None or key > mine:
                    mine, picked = key, (monster, end, stamina)
                    said = self.fight_reason(table, monster, end, here, gain)
            where[monster] = here
            if self.knobs.abilities:
                for ability in obs.legal_of(MonsterAbility, monster):
                    gain = self.ability_gain(obs, table, where, base, ability)
                    key = (gain, 0, 0, -order)
                    if mine is None or key > mine:
                        mine, picked = key, ability
                        said = (
                            f"{name(monster)} uses {ability.ability} on "
                            f"{name(ability.target)}: worth {gain:+.2f}"
                        )
            if mine is not None and picked is not None:
                own[monster] = (mine, picked, said)
            if monster in stallers and (mine is None or mine[0] <= 0.0):
                keeping.append(monster)
                continue
            if mine is not None and (best is None or mine > best):
                best, chosen, why = mine, picked, said
        if keeping and (best is None or best[0] <= 0.0):
            if self.knobs.harry:
                self.kept_away.setdefault(keeping[0], set()).add(obs.turn)
            return self.keep_away(obs, table, keeping[0], own.get(keeping[0]))
        if chosen is None:
            return self.close_in(obs, acting[0])
        return self.do(obs, chosen, why)

    def do(self, obs: ViewLike, chosen: Choice, why: str) -> Action:
        self.reason = why
        if isinstance(chosen, MonsterAbility):
            return chosen
        monster, end, stamina = chosen
        return MonsterMove(monster, obs.walk_to(monster, end), stamina)

    # -- knob stall --------------------------------------------------------------------

    def stallers(self, obs: ViewLike) -> set[str]:
        """The monsters free to keep away: patrols and ambushers. A guard, once roused,
        attacks and fights to the death (C-MON-02). With ``harry`` (and not ``stall``),
        only those that have kept away on fewer than ``harry`` turns (this one aside)."""
        free = {m["id"] for m in obs.monsters if m["encounter"] != Encounter.GUARD.value}
        if self.knobs.stall or not self.knobs.harry:
            return free
        turn, most = obs.turn, self.knobs.harry
        return {m for m in free if len(self.kept_away.get(m, set()) - {turn}) < most}

    def keep_away(
        self,
        obs: ViewLike,
        table: Table,
        monster: str,
        cornered: tuple[tuple[float, int, int, int], Choice, str] | None,
    ) -> Action:
        """Knob ``stall``: the monsters move after the heroes (C-CMB-01), so a monster
        that ends its move where no hero can reach a square next to it by Evading (2
        Stamina a square) fights nobody this turn; while it lives the combat goes on: no
        Explore (C-CMB-01, C-TURN-05) and the Light runs down. Of those squares the one
        out of the heroes' next move too (Movement and 1-3 Stamina, C-TURN-03; -1 at
        Light 0, C-LIGHT-02), least Stamina spent, nearest the heroes. With none, it
        takes its best fight (cornered), or failing one the square furthest out."""
        margins = self.reach_margins(obs, table)
        safe: tuple[int, int, int, int] | None = None
        far: tuple[int, int, int] | None = None
        safe_end: tuple[Pos, int] | None = None
        far_end: tuple[Pos, int] | None = None
        for end, stamina, steps in obs.walk_ends(monster):
            evade, move, gap = margins(end)
            if evade > 0:
                key = (-min(move, 1), stamina, gap, steps)
                if safe is None or key < safe:
                    safe, safe_end = key, (end, stamina)
            else:
                key2 = (-evade, stamina, steps)
                if far is None or key2 < far:
                    far, far_end = key2, (end, stamina)
        if safe_end is not None:
            end, stamina = safe_end
            self.reason = f"{name(monster)} keeps out of the heroes' reach"
            return MonsterMove(monster, obs.walk_to(monster, end), stamina)
        if cornered is not None:
            return self.do(obs, cornered[1], cornered[2] + " (cornered)")
        if far_end is None:
            raise ValueError(f"{monster} has no walk, not even staying put")
        end, stamina = far_end
        self.reason = f"{name(monster)} keeps as far from the heroes as it can"
        return MonsterMove(monster, obs.walk_to(monster, end), stamina)

    def reach_margins(self, obs: ViewLike, table: Table) -> Callable[[Pos], tuple[int, int, int]]:
        """For a square: how many squares short of a square next to it the nearest hero
        would end an Evasion this step (C-CMB-01: 2 Stamina a square) and its next move
        (0 or less: it reaches it), and the walk from the nearest hero. Walks go over
        known floor round walls and shut doors; figures are not counted, so a margin is
        never more than the real one."""
        codes, width = obs.board_codes()
        costs = codes.translate(WALK_COST)
        cards = cards_of(obs)
        penalty = -1 if obs.light <= 0 else 0  # C-LIGHT-02
        searches: list[tuple[Search, int, int]] = []
        for h in obs.heroes:
            hero = table.heroes.get(h["id"])
            if hero is None:
                continue
            stamina = 0 if h["exhausted"] else int(h["stamina"])
            evade = 0 if h["surprised"] else stamina // EVADE_COST  # C-CMB-01, C-SURP-01
            move = cards.hero(h["id"]).movement + penalty + min(MAX_HERO_STAMINA, stamina)
            start = hero.pos.y * width + hero.pos.x
            searches.append((Search(costs, width, [start], most=1), evade, move))

        def margins(p: Pos) -> tuple[int, int, int]:
            i = p.y * width + p.x
            evade_left, move_left, gap = FAR_ENOUGH, FAR_ENOUGH, FAR_ENOUGH
            for search, evade, move in searches:
                walk = min(search.distance(i), FAR_ENOUGH)
                evade_left = min(evade_left, walk - 1 - evade)
                move_left = min(move_left, walk - 1 - move)
                gap = min(gap, walk)
            return evade_left, move_left, gap

        return margins

    def fight_reason(self, table: Table, monster: str, end: Pos, here: Pos, gain: float) -> str:
        foes = [h for h in table.heroes.values() if end.is_adjacent(h.pos)]
        if not foes:
            return f"{name(monster)} keeps out of the fight ({gain:+.2f})"
        weakest = min(foes, key=lambda h: (h.health, h.id))
        verb = "stays in its fight with" if end == here else "goes for"
        others = sum(
            1 for m, s in table.monsters.items() if m != monster and s.pos.is_adjacent(weakest.pos)
        )
        tail = f", with {others} more" if others else ""
        door = " at Death's Door" if weakest.health == 0 else f" (Health {weakest.health})"
        return f"{name(monster)} {verb} {name(weakest.id)}{door}{tail}: {gain:+.2f}"

    def close_in(self, obs: ViewLike, monster: str) -> Action:
        """No fight to pick this turn: an ability if it does any good (weighed in
        :meth:`move`, so none here), else close in on the nearest hero by walking, round
        walls and through open doors (``basic`` goes by squares as the crow flies, and a
        monster across a wall from a hero stays there: read in Court of the Ash King seed
        17, casters, the Ash King and Corvin 20 turns a wall apart until the turn cap).
        With no hero to be walked to, as ``basic``."""
        if not self.knobs.close or (
            not self.knobs.abilities and obs.legal_of(MonsterAbility, monster)
        ):
            action = self.basic_move(obs, monster)  # as basic's (its coin flip first)
            self.reason = f"{name(monster)} closes in: no hero in reach"
            return action
        codes, width = obs.board_codes()
        heroes = [h.pos for h in obs.heroes_seen() if h.pos is not None]
        walks = Search(
            codes.translate(WALK_COST), width, [p.y * width + p.x for p in heroes], most=1
        )
        best: tuple[Pos, int] | None = None
        least = (FAR_ENOUGH, 0, 0)
        for end, stamina, steps in obs.walk_ends(monster):
            beside = any(end.is_adjacent(p) for p in heroes)
            walk = 0 if beside else min(walks.distance(end.y * width + end.x), FAR_ENOUGH)
            if walk < FAR_ENOUGH and (best is None or (walk, stamina, steps) < least):
                best, least = (end, stamina), (walk, stamina, steps)
        if best is None:
            action = self.basic_move(obs, monster)
            self.reason = f"{name(monster)} closes in: no hero it can walk to"
            return action
        end, stamina = best
        self.reason = f"{name(monster)} closes in: no hero in reach"
        return MonsterMove(monster, obs.walk_to(monster, end), stamina)

    def basic_move(self, obs: ViewLike, monster: str) -> Action:
        """``basic``'s choice for ``monster``: an ability on a coin flip (knob
        ``abilities`` 0), else the walk that ends nearest a hero."""
        abilities = obs.legal_of(MonsterAbility, monster)
        if abilities and not self.knobs.abilities and self.rng.chance(0.5):
            self.reason = f"{name(monster)}: an ability, on a coin flip"
            return abilities[0]
        heroes = [(h.pos.x, h.pos.y) for h in obs.heroes_seen() if h.pos is not None]
        best: tuple[Pos, int, int] | None = None
        least = (0, 0, 0)
        for end, stamina, steps in obs.walk_ends(monster):
            gap = min(
                (abs(end.x - hx) + abs(end.y - hy) for hx, hy in heroes),
                default=-1,
            )
            close = 0 if gap == 1 else max(gap, 0) + 1
            if best is None or (close, stamina, steps) < least:
                best, least = (end, stamina, steps), (close, stamina, steps)
        if best is None:
            raise ValueError(f"{monster} has no walk, not even staying put")
        self.reason = f"{name(monster)}: toward the nearest hero"
        return MonsterMove(monster, obs.walk_to(monster, best[0]), best[1])

    def ability_gain(
        self,
        obs: ViewLike,
        table: Table,
        where: dict[str, Pos],
        base: float,
        ability: MonsterAbility,
    ) -> float:
        """What using ``ability`` (and so staying put) is worth over the board as it
        stands: each way it can hurt its target, and what that does to the fights."""
        hero = table.heroes.get(ability.target)
        if hero is None:
            return 0.0
        kind = next((m["kind"] for m in obs.monsters if m["id"] == ability.monster), None)
        if kind is None:
            return 0.0
        cards = cards_of(obs)
        profile = cards.monsters[kind]
        card = next((a for a in profile.abilities if a.name == ability.ability), None)
        if card is None:
            return 0.0
        magic = profile.magic  # its Magic left is not on the board; its card's at most
        hero_card = cards.hero(hero.id)
        hero_magic = next((int(h["magic"]) for h in obs.heroes if h["id"] == hero.id), 0)
        stay = table.worth(where)
        gain = stay - base
        for chance, damage in self.ability_blows(card.effects, hero_card.traits, magic, hero_magic):
            if damage <= 0 or chance <= 0:
                continue
            left = max(0, hero.health - damage)
            direct = hero_harm(hero, [(1.0, damage)])
            gain += chance * (direct + table.worth(where, {hero.id: left}) - stay)
        return gain

    def ability_blows(
        self,
        effects: tuple[Any, ...],
        traits: frozenset[Trait],
        magic: int,
        hero_magic: int,
    ) -> list[tuple[float, int]]:
        """(chance, damage to the target) of each way the ability's effects may go."""
        found: list[tuple[float, int]] = []
        for effect in effects:
            if isinstance(effect, fx.MentalCombat):
                spend = min(1, magic)
                against = min(1, hero_magic)
                margin = (1 if Trait.IRON_WILLED in traits else 0) + against
                margin -= effect.power + spend
                _win, tie, lose = mental_odds(margin)
                found.append((lose, damage_of(effect.on_lose)))
                found.append((tie, damage_of(effect.on_tie)))
            elif isinstance(effect, fx.TraitTest):
                if effect.target == 0:
                    fails = 0.0 if Trait(effect.trait) in traits else 1.0
                else:
                    bonus = 1 if Trait(effect.trait) in traits else 0
                    fails = sum(1 for n in range(1, 7) if n + bonus < effect.target) / 6
                found.append((fails, damage_of(effect.on_fail)))
            elif isinstance(effect, fx.Damage):
                found.append((1.0, effect.amount))
        return found

    # -- Stamina and Magic -------------------------------------------------------------

    def fight_stamina(self, obs: ViewLike) -> Action:
        most = max(a.points for a in obs.legal_of(FightStamina))
        fight = obs.context
        if fight is None or fight.get("kind") != "fight":
            self.reason = "at most 1 Stamina (no context)"
            return FightStamina(min(most, 1))
        if most == 0:
            self.reason = "no Stamina to spend"
            return FightStamina(0)
        answer = fight["side"] != fight["declares_first"]
        declared = int(fight.get("declared", 0))
        hero_stamina = declared if answer else self.hero_spend(obs, fight["hero"])
        margin = fight["hero_score"] - fight["monster_score"] + hero_stamina
        strong = bool(fight["strong_wins_ties"])
        win_worth, lose_cost = self.stakes(obs, fight)
        best, best_worth, odds = 0, -1e9, {}
        for points in range(most + 1):
            hero_wins, monster_wins = fight_odds(margin - points, strong)
            odds[points] = monster_wins
            worth = monster_wins * win_worth - hero_wins * lose_cost - STAMINA_POINT * points
            if worth > best_worth + 1e-9:
                best, best_worth = points, worth
        target = name(fight["hero"])
        self.reason = (
            f"Stamina {best}: {odds[0]:.2f} -> {odds[best]:.2f} to beat {target}"
            if best
            else f"no Stamina: {odds[0]:.2f} to beat {target}, more would not pay"
        )
        return FightStamina(best)

    def hero_spend(self, obs: ViewLike, hero: str) -> int:
        for h in obs.heroes:
            if h["id"] == hero:
                return 0 if h["exhausted"] else min(HERO_STAMINA, int(h["stamina"]))
        return 0

    def stakes(self, obs: ViewLike, fight: dict[str, Any]) -> tuple[float, float]:
        """(what beating the hero is worth, what losing to it costs) in this fight,
        counting the hero's other fights this step (all damage lands at once,
        C-FIGHT-05)."""
        table = self.table(obs)
        hero = table.heroes.get(fight["hero"])
        monster = table.monsters.get(fight["monster"])
        if hero is None or monster is None:
            return DOOR, SLAIN
        others: list[tuple[float, int]] = []
        foes: list[tuple[float, int]] = []
        where = {m.id: m.pos for m in table.monsters.values()}
        for h, m in table.pairs(where):
            if h.id == hero.id and m.id != monster.id:
                # the other fights of this hero, at the odds the board gives them
                margin = h.fighting + crowd(int(fight["fights_of_hero"])) + h.bonus - m.fighting
                others.append((fight_odds(margin, h.strong)[1], m.damage))
            if m.id == monster.id and h.id != hero.id:
                margin = h.fighting + h.bonus - m.fighting
                foes.append((fight_odds(margin, h.strong)[0], h.damage))
        win = hero_harm(hero, [*others, (1.0, monster.damage)]) - hero_harm(hero, others)
        lose = monster_loss(monster, [*foes, (1.0, hero.damage)]) - monster_loss(monster, foes)
        return win, lose

    def mental_spend(self, obs: ViewLike) -> Action:
        most = max(a.points for a in obs.legal_of(MentalSpend))
        contest = obs.context
        if contest is None or contest.get("kind") != "mental" or most == 0:
            self.reason = "no Magic to weigh"
            return MentalSpend(0)
        declared = int(contest.get("declared", 0))
        base = (1 if contest["hero_iron_willed"] else 0) - int(contest["power"]) + declared
        best, best_worth = 0, -1e9
        for points in range(most + 1):
            _win, tie, lose = mental_odds(base - points)
            worth = (lose + tie / 2) - MAGIC_POINT * points
            if worth > best_worth + 1e-9:
                best, best_worth = points, worth
        self.reason = f"Magic {best} in the Mental Combat with {name(contest['hero'])}"
        return MentalSpend(best)


def cards_of(obs: ViewLike) -> Cards:
    """The cards every player may read (a snapshot made without them has none)."""
    cards = obs.cards
    if cards is None:
        raise ValueError("the master DM needs the cards (observe() gives them)")
    return cards


def damage_of(effects: tuple[Any, ...]) -> int:
    """The damage a branch of effects does to its hero."""
    return sum(e.amount for e in effects if isinstance(e, fx.Damage))
