"""``careful``: the heroes as a careful table plays them (the default hero policy).

It keeps the ``basic`` party's board memory, goals and searches
(:class:`~undercroft.agents.basic_party.HeroParty`) and changes how the heroes decide,
the way a table of careful players would (its knobs: :class:`CarefulKnobs`):

Moving as a team
    The first hero in party order still on the board leads; the others follow it, and
    move first so the leader knows where they are. The leader forces no door and walks
    into no unknown square or unexplored area while another hero is more than
    ``gather`` squares of walking behind, and never walks further ahead than that: it
    waits (and rests, if that refills something) for them to come up. While a slay goal
    is open (``team``), the others keep within two squares of the leader out of a fight
    and a hero in a fight holds its ground rather than open the way to more monsters.
    With ``steady`` a hero does not walk back to where it ended its movement two turns
    ago (no A-B-A-B shuttles) unless the move joins or leaves a fight.
Fighting
    Heroes gang up on one monster (the weakest within reach, C-FIGHT-02 gives a monster
    in two fights -1 too), choose squares next to one monster rather than several, and a
    hero at ``retreat`` Health or less that could die this Fighting step steps out of
    the fight in Movement or evades (C-CMB-01 step 3) if it has the Stamina. Stamina
    for a fight (C-FIGHT-04) and Magic for a Mental Combat (C-MENT-02) are weighed with
    the exact odds (:mod:`undercroft.agents.odds`): what winning is worth (a kill, a
    wound) against what losing costs (Death's Door) and what the points cost.
Spells and items
    A hero heals the hurt in Movement (Mend Wounds, Lay on Hands), lights Witchlight in
    Explore and uses the Lamp or the Torch as soon as none of the Light is wasted,
    begins a combat spell only with a monster in its range and no monster next to the
    caster (walking first, with ``aim``, to a square next to no monster from which one is
    in range and in sight), overcasts when the extra effect outweighs the expected cost
    (C-SPELL-04), identifies with Learned heroes, memorizes scrolls, and passes healing
    to the hero who needs it in Trade.
Resting
    Out of combat, a hero that would only wait rests (C-REST-01), for the Stamina and
    Magic of the next Turn Start (C-REST-02), if it is short of either.
Corpses
    A fallen friend's corpse is dragged along and fetched on the way out, to be brought
    out (C-DEATH-02/03); one that lies in the only way, out or to the monsters, is
    dragged out of it (``clear``: a corpse blocks movement, C-DEATH-01).

Every decision sets ``reason``: a short sentence the runner logs (the ``reason`` event).
"""

from __future__ import annotations

from dataclasses import dataclass

from undercroft.agents.careful_parts.moving import Moving


@dataclass
class CarefulParty(Moving):
    """The careful party (see the module docstring): its parts, over the basic party's
    memory and searches."""


__all__ = ["CarefulParty"]
