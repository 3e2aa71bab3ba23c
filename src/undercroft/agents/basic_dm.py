"""``basic`` for the Dungeon Master (0.4's heuristic DM, kept so every comparison can be
rerun): monsters close in on the nearest hero by their encounter type (guards wait until
roused, the rules enforce that), avoid traps (the rules enforce that too, C-TRAP-05), use
an ability half the time they can, and spend at most 1 Stamina (or Magic) a contest.
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    Action,
    FightStamina,
    MentalSpend,
    MonsterAbility,
    MonsterMove,
)
from undercroft.crawl.observe import ViewLike


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class DungeonMaster:
    """The heuristic DM (see the module docstring)."""

    rng: DiceSampler
    reads_views = True
    """The runner may hand it a lazy :class:`~undercroft.crawl.observe.View`."""
    reason: str = ""
    """Why it made its last decision (registry: the ``reason`` event)."""

    def act(self, obs: ViewLike) -> Action:
        if obs.decision == "monster_movement":
            return self.move(obs)
        if obs.decision == "fight_stamina":
            most = max(a.points for a in obs.legal_of(FightStamina))
            self.reason = "basic: at most 1 Stamina a fight"
            return FightStamina(min(most, 1))
        if obs.decision == "mental_spend":
            most = max(a.points for a in obs.legal_of(MentalSpend))
            self.reason = "basic: at most 1 Magic a contest"
            return MentalSpend(min(most, 1))
        legal = obs.legal
        self.reason = "basic: the default choice"
        return legal[-1] if DONE in legal else legal[0]

    def move(self, obs: ViewLike) -> Action:
        """The first monster that may move closes in on the nearest hero, or (half the
        time) uses an ability it can."""
        acting = obs.actors()
        if not acting:
            self.reason = "no monster left to move"
            return DONE
        monster = acting[0]
        abilities = obs.legal_of(MonsterAbility, monster)
        if abilities and self.rng.chance(0.5):
            self.reason = f"{monster}: an ability, on a coin flip"
            return abilities[0]
        heroes = [(h.pos.x, h.pos.y) for h in obs.heroes_seen() if h.pos is not None]
        # The walks are weighed by where they end (only the one picked is built): the
        # first walk with the least (closeness, Stamina, steps), where closeness is 0
        # next to a hero, else the distance (C-DIST-01) to the nearest hero + 1 (1 with
        # none). Compared field by field in the loop: no key function or tuple a walk.
        best: tuple[Pos, int, int] | None = None
        least, least_stamina, least_steps = 0, 0, 0
        for walk in obs.walk_ends(monster):
            end, stamina, steps = walk
            x, y = end
            gap = -1
            for hx, hy in heroes:
                dx, dy = x - hx, y - hy
                # ``abs`` written out: the compiled build calls Python's on an int.
                d = (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy)
                if gap < 0 or d < gap:
                    gap = d
            close = 0 if gap == 1 else max(gap, 0) + 1
            if (
                best is None
                or close < least
                or (close == least and stamina < least_stamina)
                or (close == least and stamina == least_stamina and steps < least_steps)
            ):
                best, least, least_stamina, least_steps = walk, close, stamina, steps
        if best is None:
            raise ValueError(f"{monster} has no walk, not even staying put")
        self.reason = f"{monster}: toward the nearest hero"
        return MonsterMove(monster, obs.walk_to(monster, best[0]), best[1])
