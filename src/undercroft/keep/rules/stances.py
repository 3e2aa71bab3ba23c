"""Combat stances: what a being of your side does about the enemies it knows of (K-STANCE-01).

K-STANCE-01: each minion has a stance, from Flee to Aggressive (ruling R-K-STANCE-01: Flee,
Avoid, Defensive, Normal, Aggressive), which decides whether it fights the enemies it
knows of, keeps its distance, regroups with allies or flees; stance never rolls dice: the
same situation always gives the same decision. :func:`decide` is that decision, a pure
function of a :class:`Situation` (what it knows, how far, what it can reach), with no
random draw; the world builds the situation (:mod:`undercroft.keep.rules.fighters`) and carries
the decision out.

Ruling R-K-STANCE-02 gives the distances (content, ``[combat]``, Chebyshev tiles to where
it knows the enemy to be) and the order of the checks:

* an enemy the keeper ordered it to attack (K-LOCK-03) comes first, whatever the stance:
  attack it in reach, else close in;
* Flee: an enemy within ``flee_tiles``: flee (cornered and struck at: fight back);
  otherwise carry on;
* Avoid: an enemy within ``avoid_tiles``: keep away (cornered: fight back); else carry on;
* Defensive: attack an enemy in reach; close in on one within ``defend_tiles`` or one
  that struck at it in the last minute (it came to it, if only with arrows); else regroup
  with the nearest ally more than a tile away, or hold its ground;
* Normal: attack an enemy in reach; close in on one within ``engage_tiles``; else carry on;
* Aggressive: attack an enemy in reach; close in on any it knows of, wherever (it pursues).

Closing in needs a free tile next to the enemy (K-CROWD-01): with none, it waits for one.
Ties go to the nearest enemy, then the lowest id.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from undercroft.keep.state.actors import Stance


class Act(enum.Enum):
    """What a being in a fight does this turn."""

    ATTACK = "attack"
    """Strike (or shoot) the target."""
    CLOSE_IN = "close_in"
    """Step towards the target."""
    WAIT = "wait"
    """Wants to close in, but no tile next to the target is free (K-CROWD-01)."""
    KEEP_AWAY = "keep_away"
    """Step away from the nearest enemy (Avoid)."""
    FLEE = "flee"
    """Step away from the enemies (Flee)."""
    REGROUP = "regroup"
    """Step towards the nearest ally (Defensive)."""
    HOLD = "hold"
    """Stand its ground (Defensive, nothing in reach)."""
    CARRY_ON = "carry_on"
    """No reaction: back to its work, its lair, its place."""


@dataclass(frozen=True, slots=True)
class Foe:
    """An enemy it knows of, as seen from where it stands."""

    id: str
    distance: int
    """Chebyshev tiles to where it knows the enemy to be."""
    in_reach: bool
    """It can strike or shoot it now (K-RNG-01/02)."""
    room: bool
    """A free tile next to the enemy exists (K-CROWD-01), or it is in reach."""
    struck: bool = False
    """It attacked this being in the last minute (K-PERC-02: it knows where it is)."""


@dataclass(frozen=True, slots=True)
class Reach:
    """The stance distances (content ``[combat]``)."""

    flee: int = 8
    avoid: int = 4
    defend: int = 3
    engage: int = 12


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything a stance decides on."""

    stance: Stance
    foes: tuple[Foe, ...]
    ordered: frozenset[str] = frozenset()
    ally: int | None = None
    """Chebyshev tiles to the nearest ally in the fight (None: none)."""
    cornered: bool = False
    """No free tile farther from the enemies to step to."""
    reach: Reach = Reach()


@dataclass(frozen=True, slots=True)
class Decision:
    act: Act
    target: str | None = None
    why: str = ""


def _order(foes: tuple[Foe, ...]) -> list[Foe]:
    return sorted(foes, key=lambda f: (f.distance, f.id))


def _strike_or_close(foes: list[Foe], why: str) -> Decision:
    for f in foes:
        if f.in_reach:
            return Decision(Act.ATTACK, f.id, why)
    for f in foes:
        if f.room:
            return Decision(Act.CLOSE_IN, f.id, why)
    return Decision(Act.WAIT, foes[0].id, "no free tile next to it (K-CROWD-01)")


def decide(s: Situation) -> Decision:
    """K-STANCE-01, ruling R-K-STANCE-02: the decision, with no dice."""
    foes = _order(s.foes)
    if not foes:
        return Decision(Act.CARRY_ON, None, "no enemy known")
    ordered = [f for f in foes if f.id in s.ordered]
    if ordered:
        return _strike_or_close(ordered, "ordered to attack (K-LOCK-03)")
    nearest = foes[0]
    reach = s.reach
    in_reach = [f for f in foes if f.in_reach]
    if s.stance in (Stance.FLEE, Stance.AVOID):
        limit = reach.flee if s.stance is Stance.FLEE else reach.avoid
        if nearest.distance > limit:
            return Decision(Act.CARRY_ON, None, f"no enemy within {limit} tiles")
        if s.cornered and in_reach:
            return Decision(Act.ATTACK, in_reach[0].id, "cornered")
        act = Act.FLEE if s.stance is Stance.FLEE else Act.KEEP_AWAY
        return Decision(act, nearest.id, f"an enemy within {limit} tiles")
    if in_reach:
        return Decision(Act.ATTACK, in_reach[0].id, "in reach")
    if s.stance is Stance.DEFENSIVE:
        near = [f for f in foes if f.distance <= reach.defend or f.struck]
        if near:
            return _strike_or_close(near, f"an enemy within {reach.defend} tiles or striking")
        if s.ally is not None and s.ally > 1:
            return Decision(Act.REGROUP, None, "regroups with its allies")
        return Decision(Act.HOLD, None, "holds its ground")
    if s.stance is Stance.NORMAL:
        near = [f for f in foes if f.distance <= reach.engage]
        if not near:
            return Decision(Act.CARRY_ON, None, f"no enemy within {reach.engage} tiles")
        return _strike_or_close(near, "fights the enemies it knows of")
    return _strike_or_close(foes, "pursues the enemies it knows of")


__all__ = ["Act", "Decision", "Foe", "Reach", "Situation", "decide"]
