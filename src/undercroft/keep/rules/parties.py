"""Who comes: drawing an invasion's group by game day (K-SIZE-01..08).

A pure function of the parties' random stream, the adventurer content, the invasion's
number and the game day (:func:`draw_party`), so the statistics of thousands of groups can
be tested without a dungeon. The rule-level draws are returned as ``chance`` events to log:
the second invasion's 50% (K-SIZE-01), the peasant mob (K-SIZE-05), weaker or stronger and
whether that means members or levels (K-SIZE-06). The composition under them (members from
the growth curve's fraction, levels shared out, classes, traits) comes from the same stream
and is shown member by member when the group arrives (ruling R-K-SIZE-01).

Ruling R-K-SIZE-01, in short: peasants are level 0 (K-SIZE-07's "none below level 1"
makes the others level 1 and up); a group's member count and its level total follow the
content's growth curve (K-SIZE-03), a fraction being a chance of one more; the levels are
shared out one at a time among members still below the day's cap (K-SIZE-03), so members
differ in level and early groups are mostly peasants (K-SIZE-04); a member with no level
is a peasant, any other a class drawn by weight. Treasure, rooms and raids play no part
(K-SIZE-08): nothing here reads the dungeon.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from undercroft.core.dice import DiceSampler
from undercroft.core.events import Event, chance_event
from undercroft.keep.content.invader_content import AdventurerContent

T = TypeVar("T")

SECOND_TWO = 0.5
"""K-SIZE-01: the second invasion has 1 or 2 members, 50% each."""
MIN_LATER = 2
"""K-SIZE-01: every invasion after the second has at least 2 members."""


@dataclass(frozen=True, slots=True)
class MemberDraw:
    """One member as drawn: class, level (peasants 0), traits."""

    klass: str
    level: int
    traits: tuple[str, ...] = ()


@dataclass(frozen=True)
class PartyDraw:
    """A drawn group: its strength word, its members, and the draws to log."""

    strength: str
    """``normal``, ``mob``, ``weaker`` or ``stronger``."""
    members: tuple[MemberDraw, ...]
    events: list[Event] = field(default_factory=list)


def weighted(rng: DiceSampler, options: Sequence[tuple[T, int]]) -> T:
    """One of ``options`` with probability weight / total (weights are whole numbers)."""
    total = sum(w for _, w in options)
    if total <= 0:
        raise ValueError("nothing to choose from: every weight is 0")
    draw = rng.die(total)
    for value, w in options:
        draw -= w
        if draw <= 0:
            return value
    raise AssertionError("unreachable")


def round_by_chance(rng: DiceSampler, value: float) -> int:
    """``value`` rounded down, plus one with the chance of its fraction."""
    whole = math.floor(value)
    frac = value - whole
    return whole + (1 if frac > 0 and rng.chance(frac) else 0)


def draw_party(
    rng: DiceSampler,
    content: AdventurerContent,
    number: int,
    day: int,
    *,
    mob_allowed: bool = True,
    strength_allowed: bool = True,
    actor: str = "director",
) -> PartyDraw:
    """The group of invasion ``number`` arriving on ``day`` (K-SIZE-01..08).

    ``mob_allowed`` / ``strength_allowed`` False for pursuers (K-SIZE-02) and, for the mob,
    a camp's warriors (K-SIZE-07).
    """
    events: list[Event] = []
    if number <= 1:
        # K-SIZE-01: the first invasion is one peasant.
        return PartyDraw("normal", (MemberDraw(content.peasant.key, 0),), events)
    if number == 2:
        two = rng.chance(SECOND_TWO)
        events.append(
            chance_event(
                ("K-SIZE-01",), actor, SECOND_TWO, two, "two" if two else "one", invasion=number
            )
        )
        return PartyDraw("normal", _members(rng, content, day, 2 if two else 1), events)
    if mob_allowed and number >= content.mob_from:
        mob = rng.chance(content.mob_chance)
        events.append(
            chance_event(
                ("K-SIZE-05",),
                actor,
                content.mob_chance,
                mob,
                "mob" if mob else "group",
                invasion=number,
            )
        )
        if mob:
            size = weighted(rng, content.mob_weights(day))
            return PartyDraw(
                "mob", tuple(MemberDraw(content.peasant.key, 0) for _ in range(size)), events
            )
    strength = "normal"
    if strength_allowed and number >= content.strength_from:
        strength = _strength(rng, content, number, actor, events)
    members = max(MIN_LATER, round_by_chance(rng, content.members_at(day)))
    levels = round_by_chance(rng, content.levels_at(day))
    if strength != "normal":
        by_members = rng.chance(0.5)
        normal = {"members": members, "levels": levels}
        members, levels, by = _changed(rng, content, day, strength, by_members, members, levels)
        events.append(
            chance_event(
                ("K-SIZE-06",),
                actor,
                0.5,
                by_members,
                "members" if by_members else "levels",
                invasion=number,
                strength=strength,
                normal=normal,
                by=by,
                floored=by == "none",
            )
        )
    drawn = _share_levels(rng, content, day, members, levels)
    return PartyDraw(strength, drawn, events)


def _strength(
    rng: DiceSampler, content: AdventurerContent, number: int, actor: str, events: list[Event]
) -> str:
    """K-SIZE-06: weaker with its chance, else stronger with its share of what is left."""
    weaker = rng.chance(content.weaker)
    events.append(
        chance_event(
            ("K-SIZE-06",),
            actor,
            content.weaker,
            weaker,
            "weaker" if weaker else "not_weaker",
            invasion=number,
        )
    )
    if weaker:
        return "weaker"
    rest = 1.0 - content.weaker
    p = content.stronger / rest if rest > 0 else 0.0
    stronger = rng.chance(p)
    events.append(
        chance_event(
            ("K-SIZE-06",),
            actor,
            p,
            stronger,
            "stronger" if stronger else "normal",
            invasion=number,
        )
    )
    return "stronger" if stronger else "normal"


def _changed(
    rng: DiceSampler,
    content: AdventurerContent,
    day: int,
    strength: str,
    by_members: bool,
    members: int,
    levels: int,
) -> tuple[int, int, str]:
    """K-SIZE-06 (ruling R-K-SIZE-01): the day's normal draw made weaker or stronger.

    The 50% draw picks the way (``by_members``): one member fewer (never below 2) or more
    (up to the content's maximum), or the level sum times the content's share, at least
    one level lower or higher (never below 0 nor above what the members can hold under
    the day's cap). If that way cannot change the group, the other way is taken; if
    neither can (day 3's two peasants cannot be weaker), the group stays as drawn and the
    way is ``none``: the draw says the group could not be weaker (or stronger).
    """
    cap = content.level_cap(day)
    weaker = strength == "weaker"
    ways = ("members", "levels") if by_members else ("levels", "members")
    for way in ways:
        if way == "members" and weaker and members > MIN_LATER:
            return members - 1, min(levels, cap * (members - 1)), way
        if way == "members" and not weaker and members < content.stronger_max_members:
            return members + 1, levels, way
        if way == "levels" and weaker and levels > 0:
            lower = round_by_chance(rng, levels * content.weaker_levels)
            return members, max(0, min(levels - 1, lower)), way
        if way == "levels" and not weaker and levels < cap * members:
            higher = round_by_chance(rng, levels * content.stronger_levels)
            return members, min(cap * members, max(levels + 1, higher)), way
    return members, levels, "none"


def _members(
    rng: DiceSampler, content: AdventurerContent, day: int, count: int
) -> tuple[MemberDraw, ...]:
    return _share_levels(rng, content, day, count, round_by_chance(rng, content.levels_at(day)))


def _share_levels(
    rng: DiceSampler, content: AdventurerContent, day: int, count: int, levels: int
) -> tuple[MemberDraw, ...]:
    """K-SIZE-03/04: share ``levels`` out one at a time among members below the day's cap."""
    cap = content.level_cap(day)
    got = [0] * count
    for _ in range(min(levels, cap * count)):
        below = [i for i in range(count) if got[i] < cap]
        got[rng.choose(below)] += 1
    classes = [(c.key, c.weight) for c in content.classes.values() if not c.peasant and c.weight]
    out = []
    for level in got:
        klass = content.peasant.key if level == 0 else weighted(rng, classes)
        out.append(MemberDraw(klass, level, draw_traits(rng, content, klass)))
    return tuple(out)


def draw_traits(rng: DiceSampler, content: AdventurerContent, klass: str) -> tuple[str, ...]:
    """Each trait its member's class may have, with its chance (content)."""
    peasant = content.classes[klass].peasant
    traits = []
    for trait in content.traits.values():
        allowed = klass in trait.classes if trait.classes else not peasant
        if allowed and trait.chance > 0 and rng.chance(trait.chance):
            traits.append(trait.key)
    return tuple(traits)


def as_warriors(content: AdventurerContent, party: PartyDraw, rng: DiceSampler) -> PartyDraw:
    """K-SIZE-07: a camp sends one warrior per member of that invasion, none below level 1."""
    klass = content.warriors_class
    members = tuple(
        MemberDraw(klass, max(1, m.level), draw_traits(rng, content, klass)) for m in party.members
    )
    return PartyDraw(party.strength, members, party.events)
