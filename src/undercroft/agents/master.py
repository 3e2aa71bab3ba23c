"""``master``: a Dungeon Master who plays to win within the rules (the default DM).

It keeps the ``basic`` DM's walks (:class:`~undercroft.agents.basic_dm.DungeonMaster`)
and decides as a DM who wants the heroes dead would (its knobs: :class:`MasterKnobs`):

Focus
    Each monster goes for the hero it hurts most: one it can reach this turn, the
    weakest first (least Health, then a hero already in a fight, so the hero fights
    several at -1 and worse, C-FIGHT-02), rather than simply the nearest.
Abilities
    A monster uses an ability (instead of moving) whenever it cannot reach a hero this
    turn or already stands next to one, on the weakest hero in its reach.
Stamina and Magic
    Weighed with the exact odds (:mod:`undercroft.agents.odds`): a fight that could put
    a hero at Death's Door or save a monster's life gets what it takes.

The rules keep guards, patrols and ambushers to their encounter types and monsters off
traps (C-MON-02..04, C-TRAP-05). Every decision sets ``reason`` (the ``reason`` event,
which the heroes' view never shows).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from undercroft.agents.basic_dm import DungeonMaster
from undercroft.agents.knobs import MasterKnobs
from undercroft.agents.odds import fight_odds, mental_odds
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    FightStamina,
    MentalSpend,
    MonsterAbility,
    MonsterMove,
)
from undercroft.crawl.observe import HeroSeen, ViewLike

STAMINA_POINT = 0.06
"""What a monster's point of Stamina costs the DM (it does not come back)."""
MAGIC_POINT = 0.15


def name(figure: str) -> str:
    bare = figure.partition(":")[2] or figure
    return bare.capitalize() if figure.startswith("hero:") else bare


@dataclass
class Master(DungeonMaster):
    """The DM that plays to win (see the module docstring)."""

    knobs: MasterKnobs = field(default_factory=MasterKnobs)

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

    def move(self, obs: ViewLike) -> Action:
        acting = obs.actors()
        if not acting:
            self.reason = "no monster left to move"
            return DONE
        if not self.knobs.focus:
            return super().move(obs)
        monster = acting[0]
        heroes = [h for h in obs.heroes_seen() if h.pos is not None]
        engaged = self.engaged(obs, heroes)
        next_to = [
            h
            for h in heroes
            if h.pos is not None and self.square_of(obs, monster).is_adjacent(h.pos)
        ]
        walks = obs.walk_ends(monster)
        reach = [
            (end, stamina, steps)
            for end, stamina, steps in walks
            if any(h.pos is not None and end.is_adjacent(h.pos) for h in heroes)
        ]
        abilities = obs.legal_of(MonsterAbility, monster)
        if abilities and self.knobs.abilities and (next_to or not reach):
            health = {h.id: h.health for h in heroes}
            ability = min(abilities, key=lambda a: (health.get(a.target, 99), a.target))
            self.reason = f"{name(monster)} uses {ability.ability} on {name(ability.target)}: " + (
                "already in a fight" if next_to else "no hero in reach this turn"
            )
            return ability
        if abilities and not self.knobs.abilities and self.rng.chance(0.5):
            self.reason = f"{name(monster)}: an ability, on a coin flip"
            return abilities[0]
        if next_to:
            self.reason = f"{name(monster)} stays in its fight with {name(next_to[0].id)}"
            here = self.square_of(obs, monster)
            stay = next((w for w in walks if w[0] == here and w[1] == 0), None)
            if stay is not None:
                return MonsterMove(monster, obs.walk_to(monster, here), 0)
        if reach:
            best: tuple[tuple[int, int, int, int], Pos, int, str] | None = None
            for end, stamina, steps in reach:
                for h in heroes:
                    if h.pos is None or not end.is_adjacent(h.pos):
                        continue
                    key = (h.health, 0 if h.id in engaged else 1, stamina, steps)
                    if best is None or key < best[0]:
                        best = (key, end, stamina, h.id)
            assert best is not None
            _key, end, stamina, target = best
            self.reason = f"{name(monster)} goes for {name(target)} (Health {_key[0]})" + (
                ", who is already fighting" if target in engaged else ""
            )
            return MonsterMove(monster, obs.walk_to(monster, end), stamina)
        return super().move(obs)

    def square_of(self, obs: ViewLike, monster: str) -> Pos:
        for m in obs.monsters_seen():
            if m.id == monster:
                return m.pos
        raise KeyError(monster)

    def engaged(self, obs: ViewLike, heroes: list[HeroSeen]) -> set[str]:
        """Heroes next to a monster already."""
        monsters = [m.pos for m in obs.monsters_seen()]
        return {
            h.id
            for h in heroes
            if h.pos is not None and any(p.is_adjacent(h.pos) for p in monsters)
        }

    def fight_stamina(self, obs: ViewLike) -> Action:
        most = max(a.points for a in obs.legal_of(FightStamina))
        fight = obs.context
        if fight is None or fight.get("kind") != "fight":
            self.reason = "at most 1 Stamina (no context)"
            return FightStamina(min(most, 1))
        declared = int(fight.get("declared", 0))
        margin = fight["hero_score"] - fight["monster_score"] + declared
        strong = bool(fight["strong_wins_ties"])
        fells = fight["monster_damage"] >= fight["hero_health"]
        win_worth = 1.4 if fells else 0.6 * fight["monster_damage"] / max(1, fight["hero_health"])
        dies = fight["hero_damage"] >= fight["monster_health"]
        lose_cost = 1.0 if dies else 0.5 * fight["hero_damage"] / max(1, fight["monster_health"])
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
