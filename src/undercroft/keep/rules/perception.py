"""Who sees whom during an invasion, and sighting the group (K-PERC-01, K-ARR-02..06).

K-PERC-01: a being detects an enemy when nothing blocks its view (symmetric shadowcasting,
ruling R-CORE-LOS-01) within 3 tiles + 2 per point of its Stalk (Chebyshev, R-K-DIST-01);
darkness does not shorten it. Perception is checked only where it matters: when an
adventurer of an active invasion steps, against the beings of your side (the Master,
your minions, the creatures of your lairs, the ghost eye), with the lines of sight cached
per grid version (:meth:`World.sight`).

What your side sees it knows (:attr:`Being.foes`, K-PERC-01): a being of your side that
sees an adventurer knows where it is, and its stance decides whether it joins the fight
(:func:`undercroft.keep.rules.fighters.consider`); one in a fight looks again at every turn
(:func:`defender_looks`). Anyone hit knows where the attacker is (K-PERC-02, in
:mod:`undercroft.keep.rules.combat`). A death, or an enemy failing to bash a door, is a noise:
your minions and creatures within 7 tiles of it learn where every enemy within those 7
tiles is (K-PERC-03, :func:`noise`; ruling R-K-PERC-01: a noise carries through walls
and doors, counted in Chebyshev tiles).

Sighting (K-ARR-03) raises the card: the group is hidden by fog until your Master, a
minion, a creature or the ghost eye sees a member, it sets off an alarm trap, a member
enters your sanctum, or you fight it (:mod:`undercroft.keep.rules.combat`). The card is the
``invasion.sighted`` event: the goal and each member's class, level and abilities
(K-ARR-05). A guard post's lit torch shows a group within 8 tiles with no card
(``invasion.shown``, K-ARR-04). Watchful Eye (K-ARR-06) sends a ghost eye round your guard
posts for 24 hours; it sees in the dark.

Ruling R-K-ARR-01: the sanctum is its named area on the map if the map draws areas, else
the tiles reached from the sanctum tile without passing a door; a torch shows a group by
distance alone; the ghost eye hovers at each guard post in turn for
:data:`EYE_MINUTES_PER_POST` minutes with a Stalk of :data:`EYE_STALK`. Darkness hides
nobody unless ``keep.options.darkness_hides`` (then adventurers on dark tiles are seen by
the ghost eye only, K-ARR-06's "sees in the dark").
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from undercroft.core.events import Event
from undercroft.core.grid import Pos, Terrain
from undercroft.keep.content.calendar import MINUTES_PER_HOUR
from undercroft.keep.rules import fray
from undercroft.keep.state.actors import Being, Condition, Creature, Master, Minion, Side
from undercroft.keep.state.invaders import Adventurer
from undercroft.keep.state.invasion_state import Feature, Group

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

TORCH_TILES = 8
"""K-ARR-04: a lit guard-post torch shows a group within 8 tiles."""
EYE_HOURS = 24
"""K-ARR-06: the ghost eye patrols for 24 hours."""
EYE_MINUTES_PER_POST = 30
EYE_STALK = 5
EYE_ID = "ghost_eye"
NOISE_TILES = 7
"""K-PERC-03: a noise tells your side within 7 tiles of it of every enemy within 7."""


def perception_range(stalk: int) -> int:
    """K-PERC-01: 3 tiles + 2 per point of Stalk."""
    return 3 + 2 * stalk


def sees(world: World, a: Pos, b: Pos, stalk: int) -> bool:
    """K-PERC-01: someone at ``a`` with ``stalk`` detects someone at ``b``."""
    return a.chebyshev(b) <= perception_range(stalk) and world.sight().can_see(a, b)


def posts(world: World) -> list[Feature]:
    return [f for f in world.invasion.features.values() if f.kind == "post"]


def eye_at(world: World) -> Pos | None:
    """Where the ghost eye hovers now (K-ARR-06), if it is out."""
    inv = world.invasion
    found = posts(world)
    if inv.eye_until <= world.now or not found:
        return None
    started = inv.eye_until - EYE_HOURS * MINUTES_PER_HOUR
    return found[((world.now - started) // EYE_MINUTES_PER_POST) % len(found)].pos


def viewers(world: World) -> list[Being]:
    """Your side's beings that see (K-ARR-03): the Master, minions, your lairs' creatures
    (and a spider trap's spiders), if they are up."""
    return [
        b
        for b in world.present()
        if isinstance(b, Master | Minion | Creature)
        and b.side() is Side.KEEP
        and b.condition is Condition.UP
        and b.carried_by is None
    ]


def sanctum_tiles(world: World) -> frozenset[Pos]:
    """Ruling R-K-ARR-01: the sanctum's area, or its room up to the doors."""
    cache = world.cached("sanctum", world.ground())
    found: frozenset[Pos] | None = cache.get("tiles")
    if found is not None:
        return found
    grid = world.grid
    area = int(grid.area[world.sanctum.y, world.sanctum.x])
    if area >= 0:
        tiles = frozenset(grid.squares_of(grid.areas[area].name))
    else:
        seen = {world.sanctum}
        todo = deque([world.sanctum])
        solid = world.solid()
        while todo:
            p = todo.popleft()
            for q in grid.neighbours(p):
                if q in seen or solid[q.y, q.x] or grid.terrain[q.y, q.x] == Terrain.DOOR:
                    continue
                seen.add(q)
                todo.append(q)
        tiles = frozenset(seen)
    cache["tiles"] = tiles
    return tiles


def watching(world: World) -> list[tuple[Being, Pos, int]]:
    """Your side's seeing beings, where they stand this minute, and their ranges (cached
    for the minute; a step in a fight empties it)."""
    cache = world.cached("viewers", world.now)
    found: list[tuple[Being, Pos, int]] | None = cache.get("viewers")
    if found is None:
        found = cache["viewers"] = [
            (b, b.pos_at(world.now), perception_range(b.attributes.stalk)) for b in viewers(world)
        ]
    return found


def after_step(world: World, adv: Adventurer, group: Group) -> None:
    """An adventurer stood on a new tile: who it notices, who sees it (and may fight it),
    who sights it, torches."""
    pos = adv.pos
    hidden = world.options.darkness_hides and bool(world.grid.dark[pos.y, pos.x])
    mine = perception_range(adv.attributes.stalk)
    seen_by: list[Being] = []
    for viewer, at, theirs in watching(world):
        far = max(abs(pos.x - at.x), abs(pos.y - at.y))
        if far > max(mine, theirs) or not world.sight().can_see(pos, at):
            continue
        if far <= mine and viewer.id not in adv.noticed:
            adv.noticed.append(viewer.id)  # K-PERC-01
        if far <= theirs and not hidden:
            if group.sighted is None:
                sight(world, group, viewer.id, viewer.kind, adv.id)
            _knows(world, viewer, adv, "seen")
            seen_by.append(viewer)
    for viewer in seen_by:
        if not viewer.fighting:
            fray.consider(world, viewer)
    eye = eye_at(world) if world.invasion.eye_until > world.now else None
    if group.sighted is None and eye is not None and sees(world, eye, pos, EYE_STALK):
        sight(world, group, EYE_ID, "ghost_eye", adv.id)
    if group.sighted is None and pos in sanctum_tiles(world):
        sight(world, group, "sanctum", "sanctum", adv.id)
    for post in posts(world) if world.invasion.features else ():
        if (
            post.torch
            and post.id not in group.shown_posts
            and pos.chebyshev(post.pos) <= TORCH_TILES
        ):
            group.shown_posts.append(post.id)
            world.emit(
                Event(
                    "invasion.shown",
                    ("K-ARR-04",),
                    {"number": group.number, "post": post.id, "adventurer": adv.id},
                )
            )


def _knows(world: World, being: Being, foe: Being, how: str) -> None:
    """K-PERC-01/03: ``being`` knows where ``foe`` is now."""
    at = foe.pos_at(world.now)
    if foe.id not in being.foes:
        world.emit(
            Event(
                "foe.known",
                ("K-PERC-01",) if how == "seen" else ("K-PERC-03",),
                {"being": being.id, "foe": foe.id, "at": [at.x, at.y], "how": how},
            )
        )
    being.foes[foe.id] = [at.x, at.y]


def defender_looks(world: World, being: Being) -> None:
    """A being of your side in a fight looks round (K-PERC-01): the adventurers it sees it
    knows where they are, and those who see it notice it; seeing a member sights its group
    (K-ARR-03)."""
    pos = being.pos
    theirs = perception_range(being.attributes.stalk)
    for adv in world.adventurers():
        if adv.condition is not Condition.UP:
            continue
        far = max(abs(pos.x - adv.pos.x), abs(pos.y - adv.pos.y))
        mine = perception_range(adv.attributes.stalk)
        if far > max(mine, theirs) or not world.sight().can_see(adv.pos, pos):
            continue
        if far <= mine and being.id not in adv.noticed:
            adv.noticed.append(being.id)
        hidden = world.options.darkness_hides and bool(world.grid.dark[adv.pos.y, adv.pos.x])
        if far <= theirs and not hidden:
            _knows(world, being, adv, "seen")
            group = world.invasion.groups.get(adv.invasion)
            if group is not None and group.sighted is None:
                sight(world, group, being.id, being.kind, adv.id)


def noise(world: World, at: Pos, cause: str, source: str) -> None:
    """K-PERC-03: a death or a failed bash: your minions and creatures within 7 tiles of it
    learn where every enemy within those 7 tiles is (ruling R-K-PERC-01)."""
    if not world.options.invasions:
        return
    enemies = [
        a
        for a in world.adventurers()
        if a.condition is Condition.UP and a.pos.chebyshev(at) <= NOISE_TILES
    ]
    hearers = [
        b
        for b in viewers(world)
        if isinstance(b, Minion | Creature) and b.pos_at(world.now).chebyshev(at) <= NOISE_TILES
    ]
    world.emit(
        Event(
            "noise",
            ("K-PERC-03", "R-K-PERC-01"),
            {
                "at": [at.x, at.y],
                "cause": cause,
                "source": source,
                "heard": [b.id for b in hearers],
                "enemies": [a.id for a in enemies],
            },
        )
    )
    for hearer in hearers:
        for enemy in enemies:
            _knows(world, hearer, enemy, "noise")
    for hearer in hearers:
        fray.consider(world, hearer)


def sight(world: World, group: Group, by: str, how: str, adventurer: str) -> None:
    """K-ARR-03/05: the group is sighted; the card arrives (once per invasion)."""
    if group.sighted is not None:
        return
    group.sighted = world.now
    members = [world.beings[m] for m in group.members]
    world.emit(
        Event(
            "invasion.sighted",
            ("K-ARR-03", "K-ARR-05", "K-PERC-01")
            if how not in ("alarm", "sanctum", "fight")
            else ("K-ARR-03", "K-ARR-05"),
            {
                "number": group.number,
                "by": by,
                "how": how,
                "adventurer": adventurer,
                "goal": group.goal,
                "members": [m.card() for m in members if isinstance(m, Adventurer)],
            },
        )
    )
