"""Corpses (see :mod:`undercroft.agents.careful`): a fallen friend's corpse blocks movement
and, left alone in its area, is eaten (C-DEATH-01); a hero that starts its move next to
it may drag it along, the corpse following into each square the hero leaves (C-DEATH-02);
brought out, its gear is reused and its hero may be revived (C-DEATH-03). So the party
drags a corpse along (``drag=2``), fetches it on the way out (``drag``), and clears one
that lies in the only way, out or to the monsters (``clear``)."""

from __future__ import annotations

from undercroft.agents.careful_parts.common import name
from undercroft.agents.careful_parts.jumps import Jumps
from undercroft.agents.plan import PLANNING_COST, WALK_COST, Search
from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, Drag, Move
from undercroft.crawl.observe import HeroSeen, MonsterSeen, ViewLike

DRAG_REACH = 6
"""How far (squares of walking) a hero leaving the dungeon goes out of its way to fetch a
corpse (``drag``)."""
ASIDE_BEYOND = 4
"""How many squares past its movement left a hero dragging a corpse out of the way looks
for a walk that opens it (:meth:`Corpses.walk_aside`: begun this turn, ended the next)."""
CORPSE_STEP = 16
"""What a corpse's square costs a walk that would clear it (:meth:`Corpses.clear_way`):
a way round by up to 15 more squares is taken rather than one more corpse dragged."""


def short_of(path: tuple[Pos, ...], obs: ViewLike) -> tuple[Pos, ...]:
    """``path`` up to the first square a monster in sight stands on: the ways to clear
    are planned round corpses, not monsters (a monster moves, a corpse stays, and one
    may stand in the way out only for now), but no walk goes through one (a hero leaving
    with monsters on the board, ``clear=2``, planned its walk up to a corpse through a
    monster's square: an illegal move)."""
    monsters = {m.pos for m in obs.monsters_seen()}
    for i, square in enumerate(path):
        if square in monsters:
            return path[:i]
    return path


class Corpses(Jumps):
    """Corpses dragged along, fetched on the way out, and cleared out of the way."""

    def unblock(self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]) -> Action | None:
        """On the way out, a corpse in the way (C-DEATH-01: a corpse blocks movement) is
        dragged out of it (:meth:`clear_way`). ``None``: no corpse is in the way."""
        if not obs.exits:
            return None
        memory = self.memory
        marks = bytearray(len(memory.codes))
        for x, y in obs.exits:
            marks[memory.index(Pos(x, y))] = 1
        return self.clear_way(obs, hero, heroes, bytes(marks), "the way out")

    def corpse_in_the_way(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        """In a fight, a hero that can reach no square next to a monster but through a
        fallen friend's corpse (:meth:`clear_way`): it lies in the only way (a doorway),
        the monsters cannot come out and the heroes cannot go in, and while monsters are
        on the board nobody explores (C-CMB-01): read in Bone Priest seed 97, 75 turns of
        waiting, or of walking round by a shut door to where no way led."""
        here = hero.pos
        if here is None or any(m.pos.is_adjacent(here) for m in monsters):
            return None
        memory = self.memory
        marks = bytearray(len(memory.codes))
        for m in monsters:
            for p in memory.shape.around[memory.index(m.pos)]:
                marks[p] = 1
        monster_squares = tuple(m.pos for m in monsters)
        return self.clear_way(
            obs, hero, heroes, bytes(marks), "the way to the monsters", monster_squares
        )

    def clear_way(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        targets: bytes,
        way: str,
        more: tuple[Pos, ...] = (),
    ) -> Action | None:
        """A hero that can reach none of ``targets`` over known floor (``more``: monsters
        in the way too) when it could with the corpses gone clears the way: next to the
        first corpse on that walk it drags it (C-DEATH-02: the corpse follows into the
        square the hero leaves) and walks on, the corpse in tow, until the way is open
        behind it (:meth:`walk_aside`); further off, it walks up to it. Two corpses, one
        behind the other, are cleared one by one (Bone Priest seed 184: a hero who had
        met both goals dragged the wrong one, the one next to it, to the turn cap). With
        ``clear=0``, only a corpse next to the hero, on the way out. ``None``: the way is
        open, or no corpse is in it."""
        here = hero.pos
        corpses = set(obs.corpse_squares())
        if here is None or not corpses:
            return None
        memory = self.memory
        bodies = self.blocked(obs, hero, heroes, *more)
        if self.known_floor_walk(here, bodies).nearest(targets) is not None:
            return None  # a way round the corpses
        held = {memory.index(c) for c in corpses}
        # The walk over the fewest corpses (each a turn's work to clear).
        costs = bytearray(memory.costs(WALK_COST))
        for square in held:
            costs[square] = CORPSE_STEP
        search = Search(bytes(costs), memory.width, [memory.index(here)], bodies - held)
        target = search.nearest(targets)
        route = search.path_to(target) if target is not None else []
        first = next((i for i, square in enumerate(route) if square in held), None)
        if first is None:
            return None
        corpse = memory.pos(route[first])
        where = f"{corpse.x},{corpse.y}"
        if first == 0:
            drag = Drag(hero.id, corpse)
            if drag in obs.legal_of(Drag, hero.id):
                self.reason = (
                    f"{name(hero.id)} drags the corpse at {where} out of {way} (C-DEATH-02)"
                )
                return drag
            if self.notes.get("drags", {}).get(hero.id) != obs.turn:
                return None  # it came next to the corpse this move: it drags from the next
            if self.knobs.clear >= 2 and self.notes.get("dragged", {}).get(hero.id) != corpse:
                # It drags another corpse this turn (one at a time, C-DEATH-02): a walk
                # would pull that one along and leave this one where it lies (Bone Priest
                # seed 84: a hero walked into a corner, a corpse on either side, to the
                # turn cap). It stays next to this one, to drag it from the next turn.
                self.reason = (
                    f"{name(hero.id)} stays next to the corpse at {where}, in {way}: it "
                    "drags another this turn, and drags this one from the next (C-DEATH-02)"
                )
                return self.end_movement(hero.id)
            # Dragging already: a walk after which the way is open, the corpse having
            # followed into the square the hero left before its last (C-DEATH-02).
            aside = self.walk_aside(hero, corpse, bodies - {route[0]}, targets)
            path = short_of(aside.path, obs) if aside is not None else ()
            if not path:
                return None
            aside = Move(hero.id, path)
            end = aside.path[-1]
            self.reason = (
                f"{name(hero.id)} steps aside to {end.x},{end.y}, the corpse in tow, to open {way}"
            )
            return aside
        if not self.knobs.clear:
            return None
        walk = short_of(tuple(memory.pos(i) for i in route[:first][: hero.moves_left]), obs)
        if not walk:
            return None
        self.reason = f"{name(hero.id)} walks up to the corpse at {where}: it lies in {way}"
        return Move(hero.id, walk)

    def walk_aside(
        self, hero: HeroSeen, corpse: Pos, blocked: set[int], targets: bytes
    ) -> Move | None:
        """The shortest walk for a hero dragging the corpse at ``corpse`` after which a way
        to ``targets`` (the exits, or squares next to monsters) is open: at each step the
        corpse follows into the square the hero left (C-DEATH-02), so the search is over
        (hero, corpse) squares. Of the ends found, the one nearest a target. With knob
        ``clear`` a walk longer than the hero's movement left is begun
        (its first squares, the corpse in tow): the rest is walked the next turn (in a
        dead end one square wide at its door, the corpse must go two squares in before
        the way is open, and a hero at Light 0 dragging has one square). ``blocked``:
        the squares nobody may walk through, the corpse's and the hero's own left out."""
        here = hero.pos
        assert here is not None
        if hero.moves_left <= 0:
            return None
        memory = self.memory
        around = memory.shape.around
        start = (memory.index(here), memory.index(corpse))
        paths: dict[tuple[int, int], tuple[int, ...]] = {start: ()}
        frontier = [start]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for _ in range(hero.moves_left + (ASIDE_BEYOND if self.knobs.clear else 0)):
            nxt: list[tuple[int, int]] = []
            for at, dragged in frontier:
                for to in around[at]:
                    if to == dragged or to in blocked or not memory.walkable(to):
                        continue
                    state = (to, at)
                    if state in paths:
                        continue
                    paths[state] = path = paths[(at, dragged)] + (to,)
                    nxt.append(state)
                    onward = self.search(
                        hero.id + ":aside", memory.costs(PLANNING_COST), [to], blocked | {at}
                    )
                    target = onward.nearest(targets)
                    if target is None:
                        continue
                    far = onward.distance(target)
                    if best is None or (far, len(path)) < best[:2]:
                        best = (far, len(path), path)
            if best is not None:
                break
            frontier = nxt
        if best is None:
            return None
        return Move(hero.id, tuple(memory.pos(i) for i in best[2][: hero.moves_left]))

    def first_of(self, obs: ViewLike, hero: HeroSeen, leaving: bool) -> Action | None:
        """``drag=2`` (C-DEATH-01/02/03): out of a fight, a hero starting its move next to
        a fallen friend's corpse drags it along, so the corpse is never left alone (and
        eaten) and can be brought out at the end; then as ``basic``."""
        if self.knobs.drag >= 2 and not leaving and hero.health > 0:
            drags = obs.legal_of(Drag, hero.id)
            if drags:
                corpse = drags[0].corpse
                self.reason = (
                    f"{name(hero.id)} drags the corpse at {corpse.x},{corpse.y} along "
                    "(C-DEATH-01: left alone it is eaten; brought out, its hero may be "
                    "revived, C-DEATH-03)"
                )
                return drags[0]
        return super().first_of(obs, hero, leaving)

    def fetch_corpse(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...]
    ) -> Action | None:
        """``drag`` (C-DEATH-02/03): on the way out, a fallen hero's corpse within
        :data:`DRAG_REACH` squares of walking is fetched by the hero nearest to it, who
        walks next to it (and drags it out from the next turn on, C-DEATH-02: the drag
        is chosen before moving): a corpse brought out lets its gear be reused and its
        hero be revived (C-DEATH-03), for one square of movement a turn. ``None``: no
        corpse to fetch, or another hero is nearer, or this one stands next to it."""
        here = hero.pos
        assert here is not None
        corpses = obs.corpse_squares()
        if not corpses or any(c.is_adjacent(here) for c in corpses):
            return None
        memory = self.memory
        best: tuple[int, Pos] | None = None
        for corpse in corpses:
            near = self.walk_from(corpse)
            mine = near.distance(memory.index(here)) - 1
            if mine > DRAG_REACH:
                continue
            others = [
                near.distance(memory.index(h.pos)) - 1
                for h in heroes
                if h.id != hero.id and h.pos is not None and h.health > 0
            ]
            if any(d < mine for d in others):
                continue
            if best is None or mine < best[0]:
                best = (mine, corpse)
        if best is None:
            return None
        corpse = best[1]
        blocked = self.blocked(obs, hero, heroes)
        search = self.search(hero.id, memory.costs(PLANNING_COST), [memory.index(here)], blocked)
        around = bytes(
            1 if memory.pos(i).is_adjacent(corpse) and memory.pos(i) != corpse else 0
            for i in range(len(memory.codes))
        )
        target = search.nearest(around)
        if target is None:
            return None
        walk = self.known_walk(search.path_to(target), hero.moves_left)
        if not walk:
            return None
        self.reason = (
            f"{name(hero.id)} fetches the corpse at {corpse.x},{corpse.y} on the way out "
            "(C-DEATH-02/03: brought out, its hero may be revived)"
        )
        return Move(hero.id, walk)


__all__ = ["Corpses"]
