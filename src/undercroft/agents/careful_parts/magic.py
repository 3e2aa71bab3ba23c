"""Spells and items (see :mod:`undercroft.agents.careful`): heals in Movement, Light items
and Witchlight as soon as nothing is wasted (C-LIGHT-01), combat spells only with a target
in range (C-CMB-01, C-SPELL-06), overcasts that pay (C-SPELL-04)."""

from __future__ import annotations

from typing import Any

import numpy as np
import tcod.map

from undercroft.agents.careful_parts.common import (
    amount,
    name,
)
from undercroft.agents.careful_parts.table import Table
from undercroft.agents.odds import damage_totals, fight_odds
from undercroft.core.grid import Pos
from undercroft.core.sight import FOV_ALGORITHM
from undercroft.crawl.actions import (
    DONE,
    Action,
    BeginCasting,
    Cast,
    CastingChoice,
    ChooseTarget,
    Move,
    UseItem,
)
from undercroft.crawl.observe import HeroSeen, MonsterSeen, ViewLike
from undercroft.crawl.ruleset import Encounter, Trait

OPAQUE = np.frombuffer(b"#+&X?", dtype=np.uint8)
"""The map characters that block sight as the party remembers the board (C-LOS-01)."""
HURT = 2
"""Health at or below which a hero drinks its healing (as ``basic`` does)."""
BLIND_WORTH = 3
"""The Health of a monster worth a face-down scroll read blind (``blind``)."""
SLAIN_IN_MELEE = 0.3
"""A monster the Fighting step slays this often or more is no target for a combat spell
begun now: the spell is cast after the fights (C-CMB-01) and fizzles with no target.
(0.5 left 14% of the casters' castings in the Cellars fizzling, 0.3 about 1%.)"""


class Magic(Table):
    """Spells and items: heals, Light, combat spells in range, overcasts that pay."""

    # -- healing and first aid -----------------------------------------------------------
    def first_aid(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], fighting: bool
    ) -> Action | None:
        """Heal the hurt before moving: a heal spell on the most hurt hero it helps fully,
        a healing item on a hero at :data:`HURT` Health or less."""
        cards = self.cards(obs)
        if self.knobs.spells:
            best: tuple[int, Cast] | None = None
            for cast in obs.legal_of(Cast, hero.id):
                if not cast.spell or cast.target is None:
                    continue
                spell = cards.spells[cast.spell]
                effects = spell.overcast if cast.overcast and spell.overcast else spell.effects
                heal = amount(effects, "heal")
                if not heal:
                    continue
                target = next((h for h in heroes if h.id == cast.target), None)
                if target is None:
                    continue
                missing = cards.hero(target.id).health - target.health
                if cast.overcast and not self.overcast_pays(
                    obs, hero, spell.level, missing, heal, amount(spell.effects, "heal")
                ):
                    continue
                if missing < min(heal, 3) and target.health > HURT:
                    continue
                gain = min(heal, missing) * 10 + (5 if target.health == 0 else 0)
                if best is None or gain > best[0]:
                    best = (gain, cast)
            if best is not None:
                cast = best[1]
                assert cast.target is not None
                health = next(h.health for h in heroes if h.id == cast.target)
                over = " overcast" if cast.overcast else ""
                self.reason = (
                    f"{name(hero.id)} casts {cast.spell}{over} on {name(cast.target)} "
                    f"(Health {health})"
                )
                return cast
        if hero.health <= HURT:
            for use in obs.legal_of(UseItem, hero.id):
                card = self.card_of(obs, hero.id, use.item)
                if card is not None and amount(cards.items[card].effects, "heal"):
                    self.reason = f"{name(hero.id)} at Health {hero.health} uses {card}"
                    return use
            if hero.health <= 1:
                blind = [
                    u for u in obs.legal_of(UseItem, hero.id)
                    if obs.item_decks(hero.id).get(u.item) == "potion"
                    and self.card_of(obs, hero.id, u.item) is None
                ]  # fmt: skip
                if blind:
                    self.reason = f"{name(hero.id)} at Health {hero.health} drinks a potion blind"
                    return blind[0]
        return None

    def overcast_pays(
        self, obs: ViewLike, hero: HeroSeen, level: int, need: int, strong: int, plain: int
    ) -> bool:
        """C-SPELL-04: after an overcast roll 1 the spell is forgotten, 2-5 the caster
        loses Health equal to the level, 6 nothing. It pays when the extra effect that is
        needed is more than the expected Health lost, and the caster can afford it."""
        if not self.knobs.overcast:
            return False
        extra = min(strong, need) - min(plain, need)
        expected_loss = level * 4 / 6
        return extra > expected_loss + 0.5 and hero.health > level + 1

    # -- spells in combat ----------------------------------------------------------------
    def on_spell_selection(self, obs: ViewLike) -> Action | None:
        """A combat spell only with a monster in its range and no monster next to the
        caster (a caster in a fight must fail its spell or fight on double ones,
        C-SPELL-06); a face-down scroll only as a last resort."""
        if not obs.monsters or not self.knobs.spells:
            self.reason = "no spell to begin"
            return (
                DONE
                if not self.knobs.spells or not obs.monsters
                else super().on_spell_selection(obs)
            )
        monsters = obs.monsters_seen()
        cards = self.cards(obs)
        heroes = {h.id: h for h in self.on_board(obs)}
        self.note_monsters(obs, monsters)
        chosen = self.notes.setdefault("selection", {})
        if chosen.get("turn") != obs.turn:
            chosen.clear()
            chosen["turn"] = obs.turn
        best: tuple[float, BeginCasting] | None = None
        for begin in obs.legal_of(BeginCasting):
            hero = heroes.get(begin.hero)
            if hero is None or hero.pos is None or begin.hero in chosen or not begin.spell:
                continue
            if any(m.pos.is_adjacent(hero.pos) for m in monsters):
                continue
            spell = cards.spells[begin.spell]
            reach = [
                m
                for m in self.in_range(hero.pos, monsters, spell.range)
                if self.stays_for_the_spell(obs, m, heroes) and self.outlives_melee(obs, m, heroes)
            ]
            if not reach:
                continue  # none that will still be in range and alive: a fizzle
            plain = amount(spell.effects, "hurt_monster")
            strong = amount(spell.overcast or (), "hurt_monster")
            weakest = min(m.health for m in reach)
            if begin.overcast and not (
                plain < weakest <= strong
                and self.overcast_pays(obs, hero, spell.level, weakest, strong, plain)
            ):
                continue
            hit = strong if begin.overcast else plain
            worth = (
                (2.0 if hit >= weakest else 1.0)
                * max(1, hit)
                * (len(reach) if spell.target.value == "all_monsters" else 1)
            )
            if best is None or worth > best[0]:
                best = (worth, begin)
        if best is None:
            blind = self.read_blind(obs, monsters, heroes, chosen) if self.knobs.blind else None
            if blind is not None:
                return blind
            self.reason = "no caster has a monster in range and a free hand"
            return DONE
        begin = best[1]
        chosen[begin.hero] = True
        self.reason = (
            f"{name(begin.hero)} begins {begin.spell}{' overcast' if begin.overcast else ''}: "
            "a monster in range and none next to the caster"
        )
        return begin

    def read_blind(
        self,
        obs: ViewLike,
        monsters: tuple[MonsterSeen, ...],
        heroes: dict[str, HeroSeen],
        chosen: dict[str, Any],
    ) -> BeginCasting | None:
        """``blind``: a party with no Learned hero can never identify a face-down scroll
        (C-IDENT-01), so it reads one blind (C-IDENT-03, R-C-IDENT-01) where it is likeliest
        to work: begun in Spell Selection, it is read in the casting step, and a combat
        spell on it (half the default pack's scroll cards) is then cast at a monster in
        reach. Only by a hero next to no monster (C-SPELL-06), with a monster in sight
        within the shortest range of any combat spell on a scroll card (the public cards,
        C-SETUP-02) that outlives the fights, and only when it matters: that monster has
        Health :data:`BLIND_WORTH` or more, or a hero on the board is at Health
        :data:`HURT` or less."""
        cards = self.cards(obs)
        if any(Trait.LEARNED in cards.hero(h.id).traits for h in heroes.values() if h.health > 0):
            return None  # a Learned hero identifies scrolls: it is read knowing what it holds
        on_scrolls = [cards.spells.get(item.spell or "") for item in cards.items.values()]
        ranges = [s.range for s in on_scrolls if s is not None and s.casting.value == "combat"]
        if not ranges:
            return None  # no scroll card holds a combat spell
        shortest = min(ranges)
        hurt = any(h.health <= HURT for h in heroes.values())
        for begin in obs.legal_of(BeginCasting):
            hero = heroes.get(begin.hero)
            if begin.spell or hero is None or hero.pos is None or begin.hero in chosen:
                continue
            if any(m.pos.is_adjacent(hero.pos) for m in monsters):
                continue
            reach = [
                m
                for m in self.in_range(hero.pos, monsters, shortest)
                if self.stays_for_the_spell(obs, m, heroes) and self.outlives_melee(obs, m, heroes)
            ]
            if not reach or not (hurt or max(m.health for m in reach) >= BLIND_WORTH):
                continue
            chosen[begin.hero] = True
            strongest = max(reach, key=lambda m: m.health)
            self.reason = (
                f"{name(begin.hero)} reads a face-down scroll blind: {name(strongest.id)} "
                f"(Health {strongest.health}) in reach of any combat spell, and no Learned "
                "hero to identify it"
            )
            return begin
        return None

    def stays_for_the_spell(
        self, obs: ViewLike, monster: MonsterSeen, heroes: dict[str, HeroSeen]
    ) -> bool:
        """``sure``: whether ``monster`` will still be where a spell begun now can reach it
        when spells are cast. Monsters' Movement comes between (C-CMB-01, steps 2 and 5),
        and a patrol or ambusher with no fight it wants may walk out of range or sight
        (the DM's to choose; a spell with nobody in reach fizzles): so only a guard,
        which once roused attacks and fights to the death (C-MON-02), a monster already
        in a fight with a hero, or (``sure=2``) one that came nearer the heroes since an
        earlier turn (:meth:`came_closer`)."""
        if not self.knobs.sure or self.encounter_of(obs, monster.id) == Encounter.GUARD.value:
            return True
        if any(h.pos is not None and h.pos.is_adjacent(monster.pos) for h in heroes.values()):
            return True
        return self.knobs.sure >= 2 and self.came_closer(obs, monster, heroes)

    def note_monsters(self, obs: ViewLike, monsters: tuple[MonsterSeen, ...]) -> None:
        """Notes where each monster stands this turn, keeping where the party last saw it
        on an earlier turn (:meth:`came_closer`): its last two sightings, on two turns."""
        seen: dict[str, tuple[tuple[int, Pos], ...]] = self.notes.setdefault("monsters_at", {})
        for m in monsters:
            kept = seen.get(m.id, ())
            if not kept or kept[-1][0] != obs.turn:
                seen[m.id] = (*kept[-1:], (obs.turn, m.pos))

    def came_closer(self, obs: ViewLike, monster: MonsterSeen, heroes: dict[str, HeroSeen]) -> bool:
        """Whether ``monster`` stands nearer the heroes (as they stand now) than where the
        party saw it on an earlier turn: one that closes in comes on (``sure=2``)."""
        seen: dict[str, tuple[tuple[int, Pos], ...]] = self.notes.get("monsters_at", {})
        earlier = [pos for turn, pos in seen.get(monster.id, ()) if turn < obs.turn]
        memory = self.memory
        spots = [memory.index(h.pos) for h in heroes.values() if h.pos is not None]
        if not earlier or not spots:
            return False
        now, was = self.walk_from(monster.pos), self.walk_from(earlier[-1])
        return min(now.distance(i) for i in spots) < min(was.distance(i) for i in spots)

    def outlives_melee(
        self, obs: ViewLike, monster: MonsterSeen, heroes: dict[str, HeroSeen]
    ) -> bool:
        """Whether ``monster`` is likely still there when spells are cast, after the
        Fighting step (C-CMB-01: step 5 comes after step 4): the fights it is in, or
        the one with the hero it can reach first if it is in none yet (it moves before
        the Fighting step), slay it less often than ``SLAIN_IN_MELEE``, by the exact odds
        of each (C-FIGHT-02 crowding on both sides, C-LIGHT-02, C-FIGHT-04 with no
        Stamina; damage lands at once, C-FIGHT-05). A spell begun at a monster the fights
        slay fizzles for lack of a target."""
        cards = self.cards(obs)
        fighting = [
            h for h in heroes.values() if h.pos is not None and h.pos.is_adjacent(monster.pos)
        ]
        card = cards.monsters[self.kind_of(obs, monster.id)]
        if not fighting:
            # It moves before the Fighting step (C-CMB-01): the hero it can reach first
            # (its allowance and 3 squares of Stamina) is likely the one it fights.
            ways = self.walk_from(monster.pos)
            memory = self.memory
            near = [
                (ways.distance(memory.index(h.pos)), i, h)
                for i, h in enumerate(heroes.values())
                if h.pos is not None and h.health > 0
            ]
            reach = [x for x in near if x[0] <= card.movement + 3 + 1]
            if not reach:
                return True
            fighting = [min(reach, key=lambda x: (x[0], x[1]))[2]]
        monster_score = card.fighting - (len(fighting) - 1)
        others = [m.pos for m in obs.monsters_seen()]
        blows: list[tuple[float, int]] = []  # each hero's chance to land its damage
        for h in fighting:
            assert h.pos is not None
            hero = cards.hero(h.id)
            fights = sum(1 for p in others if p.is_adjacent(h.pos))
            score = hero.fighting - (fights - 1) - (1 if obs.light <= 0 else 0)
            win = fight_odds(score - monster_score, Trait.STRONG in hero.traits)[0]
            blows.append((win, hero.damage))
        totals = damage_totals(blows)
        slain = sum(chance for damage, chance in totals.items() if damage >= monster.health)
        return slain < SLAIN_IN_MELEE

    def in_range(self, at: Pos, monsters: tuple[MonsterSeen, ...], reach: int) -> list[MonsterSeen]:
        """Monsters within ``reach`` squares of walking (C-DIST-01) of ``at`` and in its
        line of sight (C-LOS-01) on the board as the party remembers it: a spell's reach
        (a spell that reaches nobody fizzles)."""
        memory = self.memory
        search = self.walk_from(at)
        seen = self.sight_from(at)
        return [
            m
            for m in monsters
            if search.distance(memory.index(m.pos)) <= reach and seen[m.pos.y, m.pos.x]
        ]

    def combat_reach(self, obs: ViewLike, hero: HeroSeen) -> int | None:
        """The longest range of the combat spells that hurt a monster which ``hero``
        knows and has the Magic for (C-SPELL-03); ``None`` if it knows none."""
        info = self.hero_info(obs, hero.id)
        cards = self.cards(obs)
        reach: int | None = None
        for spell_id in info["spells"]:
            spell = cards.spells.get(spell_id)
            if (
                spell is not None
                and spell.casting.value == "combat"
                and amount(spell.effects, "hurt_monster")
                and info["magic"] >= spell.level
            ):
                reach = spell.range if reach is None else max(reach, spell.range)
        return reach

    def take_aim(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        """``aim``: a caster keeping out of melee with no monster in reach of its combat
        spells walks, over known floor this turn, to the nearest square next to no
        monster from which one is in range and in sight (C-SPELL-03, C-LOS-01, C-DIST-01):
        it begins its spell after the heroes' Movement (C-CMB-01). ``None``: it can cast
        from where it stands, or no such square is in reach."""
        here = hero.pos
        assert here is not None
        reach = self.combat_reach(obs, hero)
        if not reach or hero.moves_left == 0 or self.in_range(here, monsters, reach):
            return None
        memory = self.memory
        size = len(memory.codes)
        width = memory.width
        wanted = bytearray(size)
        # From where would a monster be in reach? Walking distance is the same both
        # ways; sight is checked again from the square chosen (in_range, below).
        for m in monsters:
            ways = self.walk_from(m.pos)
            seen = self.sight_from(m.pos)
            for i in range(size):
                if (
                    not wanted[i]
                    and memory.walkable(i)
                    and ways.distance(i) <= reach
                    and seen[i // width, i % width]
                ):
                    wanted[i] = 1

        def in_reach(end: Pos) -> bool:
            return bool(self.in_range(end, monsters, reach))

        walk = self.walk_clear_of(obs, hero, heroes, monsters, wanted, in_reach, 3)
        if walk is None:
            return None
        end = walk[-1]
        self.reason = (
            f"{name(hero.id)} takes aim from {end.x},{end.y}: a monster in range and in "
            "sight, none next to it"
        )
        return Move(hero.id, walk)

    def sight_from(self, at: Pos) -> Any:
        """What ``at`` sees on the remembered board (C-LOS-01: walls, blockages and shut
        doors block sight; a square never seen is taken to block it too), by the field of
        view the rules use (:data:`undercroft.core.sight.FOV_ALGORITHM`); kept while the
        memory is the same."""
        memory = self.memory

        def field() -> Any:
            codes = np.frombuffer(memory.codes, dtype=np.uint8)
            clear = ~np.isin(codes, OPAQUE).reshape(-1, memory.width)
            return tcod.map.compute_fov(
                clear, (at.y, at.x), radius=0, light_walls=True, algorithm=FOV_ALGORITHM
            )

        return self.kept("sight", at, 33, field)

    def on_casting_choice(self, obs: ViewLike) -> Action | None:
        """C-SPELL-06: keep the spell (fighting on double ones) only if losing every fight
        this step cannot bring the caster to Death's Door."""
        first = obs.legal_of(CastingChoice)[0]
        context = obs.context or {}
        hero = next((h for h in self.on_board(obs) if h.id == first.hero), None)
        fights = context.get("fights", [])
        damage = 0
        for fight in fights:
            kind = (
                self.kind_of(obs, fight["monster"])
                if any(m["id"] == fight["monster"] for m in obs.monsters)
                else None
            )
            damage += self.cards(obs).monsters[kind].damage if kind else 0
        if hero is not None and hero.health > damage and self.knobs.spells:
            self.reason = (
                f"{name(first.hero)} keeps the spell: {damage} damage at most, Health {hero.health}"
            )
            return CastingChoice(first.hero, True)
        self.reason = f"{name(first.hero)} lets the spell fail rather than fight on double ones"
        return CastingChoice(first.hero, False)

    def on_cast_target(self, obs: ViewLike) -> Action | None:
        """The monster the spell kills, the most dangerous first; else the weakest."""
        targets = obs.legal_of(ChooseTarget)
        health = {m.id: m.health for m in obs.monsters_seen()}
        hero = targets[0].hero
        casting = self.hero_info(obs, hero).get("casting") or {}
        spell = self.cards(obs).spells.get(str(casting.get("spell")))
        hit = 0
        if spell is not None:
            effects = (
                spell.overcast if casting.get("overcast") and spell.overcast else spell.effects
            )
            hit = amount(effects, "hurt_monster")

        def key(a: ChooseTarget) -> tuple[int, int, str]:
            h = health.get(str(a.target), 99)
            kills = 0 if hit >= h else 1
            dmg = 0
            if a.target in health:
                dmg = -self.cards(obs).monsters[self.kind_of(obs, str(a.target))].damage
            return (kills, dmg if not kills else h, str(a.target))

        choice = min(targets, key=key)
        left = health.get(str(choice.target), "?")
        self.reason = f"{name(hero)} aims at {name(str(choice.target))} (Health {left})"
        return choice

    def light_action(self, obs: ViewLike) -> Action | None:
        """A Light item or Witchlight as soon as none of its Light is wasted (C-LIGHT-01:
        never above 20): every turn of Light bought is a turn more to reach the goals."""
        cards = self.cards(obs)
        best: tuple[int, Action, str] | None = None
        for use in obs.legal_of(UseItem):
            card = self.card_of(obs, use.hero, use.item)
            if card is None:
                continue
            gain = amount(cards.items[card].effects, "light")
            if gain and obs.light + gain <= 20 and (best is None or gain > best[0]):
                light = f"Light {obs.light} -> {obs.light + gain}"
                best = (gain, use, f"{name(use.hero)} uses the {cards.items[card].name}: {light}")
        if self.knobs.spells:
            heroes = {h.id: h for h in self.on_board(obs)}
            for cast in obs.legal_of(Cast):
                if not cast.spell:
                    continue
                spell = cards.spells[cast.spell]
                effects = spell.overcast if cast.overcast and spell.overcast else spell.effects
                gain = amount(effects, "light")
                if not gain or obs.light + gain > 20:
                    continue
                hero = heroes.get(cast.hero)
                if hero is None:
                    continue
                if cast.overcast and not self.overcast_pays(
                    obs, hero, spell.level, 20 - obs.light, gain, amount(spell.effects, "light")
                ):
                    continue
                if best is None or gain > best[0]:
                    over = " overcast" if cast.overcast else ""
                    light = f"Light {obs.light} -> {obs.light + gain}"
                    best = (gain, cast, f"{name(cast.hero)} casts {spell.name}{over}: {light}")
        if best is None:
            return None
        self.reason = best[2]
        return best[1]
