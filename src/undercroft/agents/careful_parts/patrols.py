"""Patrols (see :mod:`undercroft.agents.careful`): a hero that only waits does not wait
in a corridor. Every corridor that holds heroes when a turn ends brings a patrol roll,
1 in 6 (C-MON-03); a room brings none. So a hero whose turn is a wait (holding its
ground in a fight, waiting for the others, resting) steps out of the corridor into a
room it can reach this turn, and waits there."""

from __future__ import annotations

from undercroft.agents.careful_parts.common import (
    NO_AREA,
    name,
)
from undercroft.agents.careful_parts.fighting import Fighting
from undercroft.crawl.actions import Action, Move, Rest
from undercroft.crawl.observe import HeroSeen, ViewLike


class Patrols(Fighting):
    """Waits out of corridors (``rooms``)."""

    def wait_in_room(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], choice: Action | None
    ) -> Action | None:
        """``rooms=2``: in a fight nobody has joined yet, a hero whose walk (``choice``)
        would close in on a monster in a corridor waits for the monsters in a room
        instead: where it stands if that is in a room, else in a room it can reach this
        turn (:meth:`out_of_corridor`). The monsters move after the heroes and come to
        them (C-CMB-01); the fight is then fought where no patrol roll follows it
        (C-MON-03). Only while the heroes hold their ground (:meth:`holding`: a
        monster that never comes is gone after)."""
        here = hero.pos
        if not isinstance(choice, Move) or here is None or not self.holding(obs):
            return choice
        monsters = obs.monsters_seen()
        end = choice.path[-1]
        if not any(m.pos.is_adjacent(end) for m in monsters):
            return choice
        if any(h.pos is not None and h.pos.is_adjacent(m.pos) for h in heroes for m in monsters):
            return choice  # a friend fights already: not left alone
        corridors = obs.corridors
        revealed = obs.revealed
        ending = self.area_rank(obs, end)
        if ending == NO_AREA or revealed[ending] not in corridors:
            return choice
        rank = self.area_rank(obs, here)
        if rank != NO_AREA and revealed[rank] not in corridors:
            self.reason = (
                f"{name(hero.id)} waits in the {revealed[rank]} for the monsters to come: a "
                f"fight in the {revealed[ending]} would bring patrol rolls (C-MON-03)"
            )
            return None
        return self.out_of_corridor(obs, hero, heroes, None) or choice

    def out_of_corridor(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], choice: Action | None
    ) -> Action | None:
        """``choice`` is the hero's plan for this Movement step. When it is a wait (no
        action, or a rest) in an explored corridor, with no monster next to the hero,
        and a square of an explored room not next to a monster is within this turn's
        walk over known floor, walk there instead (C-MON-03). Anything else: ``choice``.
        A corridor not yet explored is left alone (the hero may be waiting to read its
        text with the others); so is a room not yet explored (walking in would bring
        its text into the party's plans)."""
        here = hero.pos
        if here is None or hero.health == 0 or hero.moves_left == 0:
            return choice
        if choice is not None and not isinstance(choice, Rest):
            return choice
        corridors = obs.corridors
        if not corridors:
            return choice
        revealed = obs.revealed
        rank = self.area_rank(obs, here)
        if rank == NO_AREA or revealed[rank] not in corridors:
            return choice
        corridor = revealed[rank]
        explored = self.explored
        if corridor not in explored:
            return choice
        monsters = obs.monsters_seen()
        if any(m.pos.is_adjacent(here) for m in monsters):
            return choice
        if self.knobs.aim >= 2 and monsters and self.knobs.spells:
            # A caster whose combat spell reaches a monster from here stays to begin it
            # (Spell Selection follows the heroes' Movement, C-CMB-01): walking into a
            # room undid the walk ``aim`` had just made (Court seed 11, casters: Corvin
            # took aim and walked back into the Cistern, turn after turn, casting nothing).
            reach = self.combat_reach(obs, hero)
            if reach and self.in_range(here, monsters, reach):
                return choice
        rooms = {i for i, a in enumerate(revealed) if a not in corridors and a in explored}
        if not rooms:
            return choice
        wanted = bytearray(self.in_areas(obs, rooms))
        walk = self.walk_clear_of(obs, hero, heroes, monsters, wanted)
        if walk is None:
            return choice
        end = walk[-1]
        room = revealed[obs.area_codes()[self.memory.index(end)]]
        why = self.reason
        self.reason = (
            f"{name(hero.id)} waits in the {room} at {end.x},{end.y}, not in the {corridor}: "
            "a turn ended in a corridor brings a patrol roll (C-MON-03)"
            + (f" ({why})" if why else "")
        )
        return Move(hero.id, walk)


__all__ = ["Patrols"]
