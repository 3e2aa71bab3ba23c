"""The built-in players' knobs: one parameter object a player, per seat, with defaults
and ranges, set from the command line as ``--skill KEY=VALUE`` (run, play, serve) or
``--set heroes.KEY=VALUE`` / ``--set dm.KEY=VALUE`` (batch, sweep), so a designer can
quote a range ("a careless table wins X%, a careful one Y%") and sweep it.

A policy name may carry its knobs: ``careful[gather=0,retreat=1]``, the form the batch
rows and the log header record. :func:`parse_policy` splits such a name and checks every
knob; mistakes are a :class:`KnobError` naming the knob and what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Final, TypeVar


class KnobError(ValueError):
    """A knob that does not exist or a value outside its range; the message says which
    and what is allowed."""


@dataclass(frozen=True)
class CarefulKnobs:
    """How the ``careful`` party plays (docs/players.md)."""

    gather: int = 0
    """How far (in squares of walking) the others may be before the leading hero forces a
    door (it waits up to two turns for them); 0: no waiting at doors."""
    muster: int = 0
    """Before exploring an area, wait (up to two turns) for the heroes who can join: 0
    never; 1 in the area a visit goal names; 2 also in every area while a visit goal
    names an area not found yet (a secret room a text may reveal)."""
    together: int = 2
    """1: the area of an open visit goal is read with a friend when one can be there: a
    hero that can walk into such an area not yet explored, where a friend stands, this
    turn over known floor goes in (out of a fight), and a hero alone in one waits a turn
    (once an area) when a friend can walk in next turn (its text is read once and tests
    its first explorer in party order, C-EXPL-01); 2: also, while a visit goal names an
    area not found yet, a room the adventure's introduction names (where the tale says
    to look: a text there may test every explorer to find it); 0: whoever is there
    explores it."""
    order: int = 1
    """1: out of a fight, a hero who stands in the way into an unread goal's area (or a
    room the tale names, ``together=2``) makes room, and the friends who can walk in join,
    before the others move in party order (C-TURN-03: heroes move in any order); 0: in
    party order, each when its turn comes."""
    retreat: int = 0
    """A hero at this Health or less leaves a fight it may fall in, evades, and hangs back
    (0: never; measured against ``master``, 1 and 2 lose more games than they save)."""
    engage: int = 0
    """1: in a fight walk to the square scored best (nearest, next to one monster rather
    than several, a monster another hero fights, no stronger monster alone); 0: the
    nearest monster, as ``basic`` (measured better against ``master``)."""
    rally: int = 0
    """1: in a fight, a hero with no free square next to a monster to walk to does not go
    off alone to a goal or the edge of the known board: it walks over known floor to
    within two squares of a monster another hero fights, or holds there; 0: it heads
    for the goals or the unknown, as ``basic`` (paired, 1 won as many games: off)."""
    approach: int = 0
    """1: in a fight, a hero that can reach no free square next to a monster (they are
    all taken, or walled in) walks over known floor to within two squares of a monster
    another hero fights, to step in when a square frees; 0: it waits where it stands,
    as ``basic``."""
    hold: int = 0
    """1: in a fight, a hero with no monster to reach over known floor forces no door and
    walks into nothing unknown (it would wake more monsters and leave the others to fight
    alone): it holds its ground for the monsters to come, for at most ``HOLD_TURNS``
    turns without a fight; 0: it goes round by any way, as ``basic`` (measured: 1 wins
    more of the Court of the Ash King, fewer of the Cellars with the casters)."""
    follow: int = 0
    """Out of a fight, the heroes other than the leader keep within this many squares of
    walking of it (they go their own way only inside that reach, and force no door): the
    party meets each new room, and whatever guards it, together; 0: every hero goes its
    own way, as ``basic``."""
    team: int = 1
    """Play as a team when it pays, from what the heroes see: while it holds, the others
    keep within ``TEAM_FOLLOW`` (2) squares of the leader out of a fight (``follow``) and
    a hero in a fight holds its ground (``hold``). 0: never (``follow`` and ``hold`` as
    set); 1: while a slay goal is open (the foe is met by the whole party; with no slay
    goal the heroes search in parallel, which saves Light); 2: only while a slay goal
    names a monster that no hero on the board would beat alone more often than not (by
    its card and the exact odds). Measured against ``master`` and ``basic``: 1 wins more
    of the Court of the Ash King and changes nothing in the Cellars (docs/players.md)."""
    scrolls: int = 1
    """1: memorize a scroll's spell only when no hero knows it yet and nothing need be
    forgotten; keep a scroll of a known spell to cast it free (C-SPELL-01/02); 0:
    memorize every scroll, forgetting if need be, as ``basic``."""
    jump: int = 1
    """1: jump a detected trap rather than walk onto it (also on the way to a fight:
    walking first to the square before it), and jump an obstacle or trap
    the route goes round when the squares saved outweigh a failed jump's cost by the
    exact odds (C-JUMP-01/02), from where the hero stands or from a square further along
    this turn's walk (it walks there first); 0: jump only when boxed in, as ``basic``."""
    drag: int = 2
    """2: out of a fight a hero next to a fallen friend's corpse drags it along wherever
    it goes, so the corpse stays with the party (C-DEATH-01: left alone it is eaten),
    and on the way out the hero nearest a corpse (within six squares) fetches it and
    drags it out (C-DEATH-02/03); 1: only the fetching on the way out; 0: only a corpse
    already next to a leaving hero, as ``basic``."""
    seek: int = 3
    """1: while the monster a slay goal names has not been seen, look for it first: go
    where the board leads somewhere new (an unknown square, a shut door) before reading
    the texts of the rooms already in view; 2: as 1, but while a visit goal's area is
    hidden too, a room the adventure's introduction names (not read yet) is looked at as
    well: its text may reveal the hidden room, and the monster in it; 3: as 2, and such
    a room first, before the board's unknown squares and shut doors (where the tale
    says to look); 0: the nearest thing not looked at, as ``basic``. Measured
    (docs/players.md): 1 wins more of the Bone Priest and as many of the Court of the
    Ash King; 2 and then 3 more of the Bone Priest."""
    steady: int = 1
    """1: a hero does not walk back to the square it ended its movement on the turn
    before last after ending elsewhere last turn (it stays a turn instead), unless the
    move joins or leaves a fight: no A-B-A-B shuttles between two pulls; 0: it goes
    wherever this turn's plan says, as before (docs/players.md)."""
    stamina: str = "odds"
    """``odds``: Stamina a fight weighed with the exact odds; ``flat``: always 2, as
    ``basic``."""
    spells: int = 1
    """1: cast heals, Witchlight and combat spells when they pay; 0: as ``basic``."""
    rooms: int = 1
    """1: a hero whose Movement is a wait (holding in a fight, waiting for the others,
    resting) in an explored corridor walks into an explored room it can reach this turn
    and waits there: a turn that ends with heroes in a corridor brings a patrol roll
    there (C-MON-03), a room none; 2: also, in a fight nobody has joined yet, a hero
    whose walk would close in on a monster in a corridor waits in a room for it to come;
    0: it waits where it stands, as ``basic``."""
    aim: int = 2
    """1: in a fight, a caster keeping out of melee with no monster in reach of its combat
    spells walks (over known floor, this turn) to the nearest square next to no monster
    from which one is in range and in sight, and begins its spell from there (C-SPELL-03,
    C-LOS-01, C-CMB-01); 2: that, and a caster whose spell reaches a monster from where
    it stands in a corridor stays there rather than wait in a room (``rooms``); 0: it
    waits where it stands."""
    sure: int = 2
    """1: a combat spell (or a face-down scroll read blind) is begun only at a monster
    that will still be in reach when it is cast: a guard (roused, it attacks and fights to
    the death, C-MON-02) or a monster already in a fight with a hero; a patrol or
    ambusher on its own may walk out of range in Monsters' Movement, which comes between
    (C-CMB-01), and the spell fizzles; 2: those, and a monster that stands nearer the
    heroes than where the party saw it on an earlier turn (it comes on); 0: any monster
    in range."""
    blind: int = 1
    """1: a party with no Learned hero (a face-down scroll is never identified) reads one
    blind in Spell Selection, where a combat spell on it is cast at a monster in reach
    (R-C-IDENT-01), when a monster of Health 3 or more is within 4 squares and in sight,
    or a hero is at Health 2 or less; 0: never."""
    potions: int = 2
    """Who of the explorers takes a found potion (C-EXPL-01): 2 the one holding the fewest
    potions (the healthiest of those), so the draughts are spread over the party; 1 the
    one with the least Health; 0 the healthiest, as every other item and as ``basic``."""
    spread: int = 2
    """In Trade (C-TURN-06), after a fallen hero's gear and a heal for a hero that lacks 3
    Health or more: 2 a hero holding a healing potion (known, or a face-down potion) gives
    one to a hero in its room or corridor that holds none, when it holds two or more or
    the other has at least 3 Health less; 1 only from a hero holding two or more; 0
    neither. The least Health is served first."""
    clear: int = 2
    """1: a fallen friend's corpse in the only way (a doorway) is dragged out of it, in a
    fight when no hero can reach a monster but through it (the monsters cannot come out
    either, and nobody explores while they are on the board) and on the way out: the
    corpse in the way (walked up to if need be, not the one beside the hero), even when
    the walk that opens the way takes two turns (a hero dragging, at Light 0, has one
    square); 2: that, and a hero leaving clears a corpse out of its way out before
    anything else (before fetching one), also while monsters not next to it are on the
    board, and a hero dragging one corpse walks no way that only another corpse's moving
    would open (it stays next to that one and drags it the next turn): a corpse in the
    doorway square of a dead end (the Bone Priest's Ossuary) shut the hero in, and the
    monsters out, to the turn cap; 0: only a corpse next to the hero, on the way out,
    within the turn (the heroes waited, or stood behind it, until they gave up or the
    turn cap)."""
    rest: int = 1
    """1: a hero that waits out of combat rests to refill Stamina and Magic; 0: never."""
    haste: int = 0
    """1: out of combat, a hero at full Stamina whose walk takes every square it has buys
    one more with 1 Stamina (C-TURN-03, R-C-MOVE-01): Turn Start gives it back (C-TURN-02:
    +1 a turn, wasted at full), and a square a turn saves Light; 0: Stamina buys squares
    only to join a friend (``together``); 2: as 1, only for a walk over revealed areas
    (where no monster can come into view and meet the hero a point short)."""
    overcast: int = 1
    """1: overcast when the exact odds say it pays; 0: never."""
    light: int = 1
    """1: use Light items and Witchlight as soon as they are not wasted; 0: never."""
    give_up: int = 90
    """Leave from this turn on, whatever is left undone."""
    dying: int = 1
    """1: in a fight, once every hero on the board lies at Death's Door (Health 0) the
    party leaves: each rolls at every Turn End (C-DD-01) and again for every wound
    (C-DD-03), and a hero who has left the dungeon rolls no more (C-END-01); with no
    way out known, a hero at Death's Door with no healthier friend stands and fights
    (the monster's death is its only way out) rather than step out of the fight and
    back into it; 0: they stay in the fight, stepping out of it and back, as before."""
    standoff: int = 3
    """N: leave once a fight has stood still for N turns in a row (no hero next to a
    monster, none holding its ground by choice, and no hero nor monster in sight on
    another square than the turn before): nobody explores while monsters are on the
    board (C-CMB-01), so nothing is left to win, and the Light, the Death's Door rolls
    and the patrols go on; with no way out known, go round to the monsters by any way
    instead, until that fight ends; 0: wait (for ``give_up``)."""
    ward: int = 1
    """1: a hero at Death's Door whose Movement would be nothing, with no monster next to
    it, rests instead: a hero that rested makes no Death's Door roll at Turn End (C-DD-02;
    a fight breaks the rest, R-C-REST-01); 0: it only waits (and may begin a spell or
    evade)."""
    dark: int = 4
    """With the Light out (C-LIGHT-02: -1 to every Fighting Score, Surprise and Detect
    Traps roll and to Movement) while an open visit goal names an area the party has
    not found (a hidden room a text may reveal), the party leaves: 1 once every room the
    adventure's introduction names (where the tale says to look) has been read without
    revealing it; 2 also once such a room has been in view 10 turns without being read
    (the party cannot get to it: nobody explores while monsters are on the board,
    C-CMB-01); 3 that, the second case only once a hero has died; 4 that, and also once
    such a room has been found and half the party has died; 0: it searches on (to
    ``give_up``). The hunt would go on in the dark, where patrols keep coming
    (C-MON-03)."""


@dataclass(frozen=True)
class MasterKnobs:
    """How the ``master`` Dungeon Master plays (docs/players.md)."""

    focus: int = 2
    """How monsters pick their fights (the heroes move first, C-CMB-01): 2 weigh the
    fights each reachable square starts with the exact odds (C-FIGHT-02/05, C-DD-01/03)
    and each hero by its worth to the party (its card's strength, the goal item it
    holds, the last one standing); 1 the same with every hero worth alike (the weakest
    and the one at Death's Door first); 0: the nearest hero, as ``basic``."""
    stamina: str = "odds"
    """``odds``: Stamina weighed with the exact odds; ``all``: all a monster may spend,
    every fight (a monster's Stamina never comes back); ``flat``: at most 1, as
    ``basic``."""
    abilities: int = 1
    """1: an ability whenever it does more than moving would; 0: on a coin flip, as
    ``basic``."""
    close: int = 1
    """How a monster with no fight to pick this turn closes in: 1 by walking, round walls
    and through open doors, on the hero it can walk to soonest; 0 to the square nearest
    a hero as the crow flies, as ``basic`` (a monster a wall away from a hero stays
    there)."""
    stall: int = 0
    """1: a patrol or ambusher (not a guard, C-MON-02) that has no fight worth taking
    keeps just out of the heroes' reach instead of closing in: while a monster is on the
    board the heroes cannot explore (C-CMB-01, C-TURN-05) and the Light runs down;
    0: it closes in, as ``basic``. Off by default: it wins by kiting, which no built-in
    hero policy answers (docs/players.md), so the figures would measure that gap."""
    harry: int = 2
    """N (with ``stall=0``): ``stall``'s keeping away, but each monster on at most N turns
    of the game, after which it closes in: a DM that makes the heroes spend a few turns
    of Light on each patrol and ambusher without kiting for ever; 0: never, as
    ``basic``. Measured (docs/players.md): 2 makes ``master`` harder than the ``basic``
    DM on every adventure, and careful still beats basic against it."""


CHOICES: Final[dict[str, tuple[str, ...]]] = {"stamina": ("odds", "flat", "all")}
RANGES: Final[dict[str, tuple[int, int]]] = {
    "gather": (0, 20),
    "muster": (0, 2),
    "together": (0, 2),
    "order": (0, 1),
    "retreat": (0, 10),
    "engage": (0, 1),
    "rally": (0, 1),
    "approach": (0, 1),
    "hold": (0, 1),
    "follow": (0, 20),
    "team": (0, 2),
    "scrolls": (0, 1),
    "jump": (0, 1),
    "drag": (0, 2),
    "seek": (0, 3),
    "steady": (0, 1),
    "spells": (0, 1),
    "rooms": (0, 2),
    "aim": (0, 2),
    "sure": (0, 2),
    "blind": (0, 1),
    "potions": (0, 2),
    "spread": (0, 2),
    "clear": (0, 2),
    "rest": (0, 1),
    "haste": (0, 2),
    "overcast": (0, 1),
    "light": (0, 1),
    "give_up": (1, 100),
    "dying": (0, 1),
    "standoff": (0, 20),
    "dark": (0, 4),
    "ward": (0, 1),
    "focus": (0, 2),
    "abilities": (0, 1),
    "close": (0, 1),
    "stall": (0, 1),
    "harry": (0, 20),
}
K = TypeVar("K", CarefulKnobs, MasterKnobs)


def allowed(knobs: type[CarefulKnobs] | type[MasterKnobs]) -> str:
    """The knobs of a policy with their allowed values, for messages and docs."""
    parts = []
    for f in fields(knobs):
        if f.name in CHOICES:
            parts.append(f"{f.name}={'|'.join(CHOICES[f.name])}")
        else:
            low, high = RANGES[f.name]
            parts.append(f"{f.name}={low}..{high}")
    return ", ".join(parts)


def with_knobs(base: K, settings: dict[str, str], policy: str) -> K:
    """``base`` with ``settings`` (knob -> text) applied, each checked."""
    known = {f.name: f for f in fields(base)}
    changes: dict[str, Any] = {}
    for key, text in settings.items():
        if key not in known:
            raise KnobError(f"{policy}: no knob {key!r}; knobs: {allowed(type(base))}")
        if key in CHOICES:
            if text not in CHOICES[key]:
                raise KnobError(f"{policy}: {key}={text!r}; allowed: {', '.join(CHOICES[key])}")
            changes[key] = text
            continue
        low, high = RANGES[key]
        try:
            value = int(text)
        except ValueError:
            raise KnobError(f"{policy}: {key}={text!r} is not a whole number") from None
        if not low <= value <= high:
            raise KnobError(f"{policy}: {key}={value} is out of range {low}..{high}")
        changes[key] = value
    return replace(base, **changes)


def parse_policy(name: str) -> tuple[str, dict[str, str]]:
    """``careful[gather=0,retreat=1]`` -> ``("careful", {"gather": "0", "retreat": "1"})``;
    a plain name has no settings."""
    if not name.endswith("]") or "[" not in name:
        if "[" in name or "]" in name:
            raise KnobError(f"{name!r}: write knobs as NAME[key=value,...]")
        return name, {}
    base, _, inner = name[:-1].partition("[")
    settings: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in inner.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise KnobError(f"{name!r}: {part!r} is not key=value")
        settings[key.strip()] = value.strip()
    return base, settings


def fold(name: str, knobs: dict[str, str]) -> str:
    """``name`` with ``knobs`` added (over any it names already): ``careful`` and
    ``{"gather": "0"}`` give ``careful[gather=0]``. Checked when the name is resolved."""
    if not knobs:
        return name
    base, settings = parse_policy(name)
    return policy_name(base, {**settings, **knobs})


def policy_name(base: str, settings: dict[str, str]) -> str:
    """The name a policy with knobs is recorded under (knobs sorted, so equal settings
    give equal names)."""
    if not settings:
        return base
    inner = ",".join(f"{k}={settings[k]}" for k in sorted(settings))
    return f"{base}[{inner}]"
