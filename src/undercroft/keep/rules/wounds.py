"""Wounds and being taken out of the fight (K-KO-01..04, K-HEAD-01/02).

K-KO-01: a wound is light (1 wound point), serious (2) or critical (4); someone whose
wounds total 10 points is out of the fight, unconscious or dead. K-KO-02: the chance they
are unconscious (alive) rather than dead depends on the wound that did it: light 75%,
serious 50%, critical 25%; with a blunt weapon (a hammer) or fists 100%, 75%, 50%.
K-KO-03: body armour adds to that chance: leather or cloth +10%, chain mail +20%, plate
+30%. K-KO-04: creatures and the Master always die; the troll always goes unconscious.

K-HEAD-01: a serious or critical wound to the head takes someone out with 25% whatever
their wound points, 50% with a blunt weapon or fists; a helmet lowers this by its number;
the Master is never subject to it. K-HEAD-02: someone taken out that way is unconscious
100% of the time for a serious wound and 50% for a critical one, whatever the weapon; but
if that wound also brings their points to 10 or more, K-KO-02's chances apply.

The chances are pure functions returning exact :class:`~fractions.Fraction` values
(:func:`unconscious_chance`, :func:`head_out_chance`, :func:`head_unconscious_chance`):
the rule is the function, and the ``chance`` events the world logs carry its value as
``p``. Ruling R-K-KO-01 settles what the text leaves open: a chance above 100% is 100%
(a blunt light wound in armour), below 0% is 0% (a helmet of 30 or more against an edged
head wound); the 10-point count is checked first, so a head wound that reaches 10 points
draws K-KO-02 only; a creature taken out by a head wound dies (K-KO-04 wins over
K-HEAD-02), the troll going unconscious.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from undercroft.core.events import Event, chance_event
from undercroft.keep.rules import fallen
from undercroft.keep.state.actors import Being, Creature, Master

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

LEVELS = ("light", "serious", "critical")
"""K-KO-01: the wound levels, least first."""
POINTS = {"light": 1, "serious": 2, "critical": 4}
"""K-KO-01: wound points of each level."""
OUT_AT = 10
"""K-KO-01: someone is out when their wounds total 10 points."""
UNCONSCIOUS = {
    False: {"light": Fraction(3, 4), "serious": Fraction(1, 2), "critical": Fraction(1, 4)},
    True: {"light": Fraction(1), "serious": Fraction(3, 4), "critical": Fraction(1, 2)},
}
"""K-KO-02: the chance of unconscious (not dead), by blunt (a hammer, fists) and wound."""
ARMOUR = {
    "none": Fraction(0),
    "cloth": Fraction(1, 10),
    "leather": Fraction(1, 10),
    "chain": Fraction(2, 10),
    "plate": Fraction(3, 10),
}
"""K-KO-03: what body armour adds to the unconscious chance."""
HEAD_OUT = {False: Fraction(1, 4), True: Fraction(1, 2)}
"""K-HEAD-01: a serious or critical head wound's chance to take someone out, by blunt."""
HEAD_UNCONSCIOUS = {"serious": Fraction(1), "critical": Fraction(1, 2)}
"""K-HEAD-02: the chance someone a head wound took out is unconscious, by wound."""
HEAD = "head"
"""The location K-HEAD-01 is about (content's locations must include it)."""
KEPT_WOUNDS = 20
"""A being's last wounds kept for the viewer (the points are what the rules read)."""


# -- the chances (pure functions: the rules themselves) ---------------------------------------


def points(level: str) -> int:
    """K-KO-01: the wound points of a light, serious or critical wound."""
    return POINTS[level]


def unconscious_chance(wound: str, *, blunt: bool, armour: str = "none") -> Fraction:
    """K-KO-02 + K-KO-03: the chance someone taken out by this wound is unconscious.

    >>> unconscious_chance("serious", blunt=False, armour="chain")
    Fraction(7, 10)
    >>> unconscious_chance("light", blunt=True, armour="plate")  # capped (R-K-KO-01)
    Fraction(1, 1)
    """
    return min(Fraction(1), UNCONSCIOUS[blunt][wound] + ARMOUR[armour])


def head_out_chance(*, blunt: bool, helmet: int = 0) -> Fraction:
    """K-HEAD-01: a serious or critical head wound's chance to take someone out, less the
    helmet's number (in percentage points), never below 0 (R-K-KO-01).

    >>> head_out_chance(blunt=True, helmet=10)
    Fraction(2, 5)
    """
    return max(Fraction(0), HEAD_OUT[blunt] - Fraction(helmet, 100))


def head_unconscious_chance(wound: str) -> Fraction:
    """K-HEAD-02: the chance someone taken out by a head wound is unconscious (the weapon
    does not matter)."""
    return HEAD_UNCONSCIOUS[wound]


def is_head_wound(level: str, location: str) -> bool:
    """K-HEAD-01 is about serious and critical wounds to the head."""
    return location == HEAD and level in HEAD_UNCONSCIOUS


def always(being_kind: str, *, troll: bool) -> Fraction | None:
    """K-KO-04: creatures and the Master always die (0), the troll always goes unconscious
    (1); None for everyone else (the tables decide)."""
    if being_kind == "creature":
        return Fraction(1) if troll else Fraction(0)
    if being_kind == "master":
        return Fraction(0)
    return None


# -- a wound landing -----------------------------------------------------------------------


def mend(world: World, being: Being) -> int:
    """Ruling R-K-WAKE-01: a being that is up mends one wound point per content period
    since its last wound (or waking); returns its points now (worked out when needed)."""
    period = world.ruleset.combat.mend_minutes
    if period and being.wound_points and being.up:
        mended = (world.now - being.mended_at) // period
        if mended > 0:
            being.wound_points = max(0, being.wound_points - mended)
            being.mended_at += mended * period
    return being.wound_points


def _fixed(world: World, being: Being) -> Fraction | None:
    troll = isinstance(being, Creature) and (
        being.breed in world.ruleset.creatures
        and world.ruleset.creatures[being.breed].always_unconscious
    )
    return always(being.kind, troll=troll)


def _draw(
    world: World,
    rules: tuple[str, ...],
    actor: str,
    p: Fraction,
    words: tuple[str, str],
    **inputs: Any,
) -> bool:
    """One percentage draw (a ``chance`` event with ``p`` after every modifier); a
    certainty draws nothing from the stream."""
    if p >= 1:
        hit = True
    elif p <= 0:
        hit = False
    else:
        hit = world.streams["combat"].chance(float(p))
    world.emit(chance_event(rules, actor, float(p), hit, words[0] if hit else words[1], **inputs))
    return hit


def inflict(
    world: World,
    target: Being,
    *,
    source: str,
    weapon: str,
    blunt: bool,
    level: str,
    location: str,
    rules: tuple[str, ...] = (),
) -> str | None:
    """A wound lands on ``target`` (K-KO-01); returns ``unconscious`` or ``dead`` if it took
    it out of the fight, else None. ``source`` is a being id or ``trap:N``."""
    gained = POINTS[level]
    if not target.wound_points:
        target.mended_at = world.now
    mend(world, target)
    target.wound_points += gained
    total = target.wound_points
    target.wounds.append(
        {
            "level": level,
            "location": location,
            "points": gained,
            "source": source,
            "weapon": weapon,
            "minute": world.now,
        }
    )
    del target.wounds[:-KEPT_WOUNDS]
    at = target.pos_at(world.now)
    world.emit(
        Event(
            "wound",
            ("K-KO-01", *rules),
            {
                "target": target.id,
                "source": source,
                "weapon": weapon,
                "level": level,
                "location": location,
                "points": gained,
                "total": total,
                "at": [at.x, at.y],
            },
        )
    )
    if total >= OUT_AT:
        return _out_by_points(world, target, source, weapon, blunt, level)
    if is_head_wound(level, location) and not isinstance(target, Master):
        return _head(world, target, source, weapon, blunt, level)
    return None


def _out_by_points(
    world: World, target: Being, source: str, weapon: str, blunt: bool, level: str
) -> str:
    """K-KO-01/02/03/04: 10 points or more: unconscious or dead."""
    fixed = _fixed(world, target)
    rules: tuple[str, ...]
    if fixed is not None:
        p, rules = fixed, ("K-KO-01", "K-KO-02", "K-KO-04")
    else:
        p, rules = (
            unconscious_chance(level, blunt=blunt, armour=target.armour),
            (
                "K-KO-01",
                "K-KO-02",
                "K-KO-03",
            ),
        )
    alive = _draw(
        world,
        rules,
        target.id,
        p,
        ("unconscious", "dead"),
        wound=level,
        weapon=weapon,
        blunt=blunt,
        armour=target.armour,
        source=source,
        total=target.wound_points,
    )
    outcome = "unconscious" if alive else "dead"
    fallen.take_out(world, target, outcome, by=source, cause="wounds", blunt=blunt, level=level)
    return outcome


def _head(
    world: World, target: Being, source: str, weapon: str, blunt: bool, level: str
) -> str | None:
    """K-HEAD-01/02: a serious or critical head wound below 10 points."""
    p = head_out_chance(blunt=blunt, helmet=target.helmet)
    out = _draw(
        world,
        ("K-HEAD-01",),
        target.id,
        p,
        ("out", "stays"),
        blunt=blunt,
        helmet=target.helmet,
        wound=level,
        weapon=weapon,
        source=source,
    )
    if not out:
        return None
    fixed = _fixed(world, target)
    rules: tuple[str, ...]
    if fixed is not None:
        p2, rules = fixed, ("K-HEAD-02", "K-KO-04", "R-K-KO-01")
    else:
        p2, rules = head_unconscious_chance(level), ("K-HEAD-02",)
    alive = _draw(world, rules, target.id, p2, ("unconscious", "dead"), wound=level, source=source)
    outcome = "unconscious" if alive else "dead"
    fallen.take_out(world, target, outcome, by=source, cause="head", blunt=blunt, level=level)
    return outcome
