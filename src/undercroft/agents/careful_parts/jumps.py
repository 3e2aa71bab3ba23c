"""Jumps (see :mod:`undercroft.agents.careful`): a hero jumps an obstacle or a detected
trap when the squares saved outweigh a failed jump's cost by the exact odds (C-JUMP-01/02:
half the time, two thirds for the Agile, the jump fails, the movement ends and over a
trap the hero lands on it), from where it stands or from a square further along this
turn's walk; and a detected trap on its walk rather than walk onto it (``jump``)."""

from __future__ import annotations

from undercroft.agents.careful_parts.common import name
from undercroft.agents.careful_parts.together import Together
from undercroft.agents.plan import FAR, FURNITURE_CODE
from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, Jump, Move
from undercroft.crawl.observe import HeroSeen, ViewLike
from undercroft.crawl.ruleset import Trait

TRAP_BITE = 3.0
"""What springing a trap costs, in squares of walking, when a jump over it fails and the
hero lands on it (C-JUMP-01): its Health or Light, and its turn ends there."""


class Jumps(Together):
    """Short cuts and traps jumped (``jump``)."""

    def shortcut(self, obs: ViewLike, hero: HeroSeen, action: Move) -> Action:
        """``jump`` (C-JUMP-01/02): jump an obstacle or a detected trap on the way when the
        squares saved on the way to where the hero's route ends outweigh what a failed
        jump costs, by the jump's exact odds (4-6; Agile 3-6): a failed jump over an
        obstacle ends the movement on the take-off square, one over a trap lands on it
        (its bite, and the movement ends there). The take-off may be any square of this
        turn's walk (a jump may come after some walking, C-JUMP-01): the hero then walks
        to it first, and jumps at its next decision. A walk onto a detected trap is
        jumped instead (a jump that fails lands on it, one that succeeds does not)."""
        jumps = obs.legal_of(Jump, hero.id)
        traps = set(obs.trap_squares())
        for jump in jumps:
            if jump.over in action.path and jump.over in traps:
                self.reason = (
                    f"{name(hero.id)} jumps the trap at {jump.over.x},{jump.over.y} "
                    "rather than walk onto it"
                )
                return jump
        memory = self.memory
        route: list[int] = self.notes.get("routes", {}).get(hero.id, [])
        if not route or [memory.pos(i) for i in route[: len(action.path)]] != list(action.path):
            return action  # not the walk of this hero's route (a fight, a muster...)
        agile = self.cards(obs).hero(hero.id).has(Trait.AGILE)
        p = 4 / 6 if agile else 3 / 6
        best: tuple[float, int, Pos] | None = None
        for take_off, over, land in self.hurdles(obs, hero, action, jumps, traps):
            # A failed jump loses the rest of this turn's walk from the take-off square.
            lost = len(action.path) - take_off
            bite = TRAP_BITE if over in traps else 0.0
            gain = self.jump_gain(route, take_off, land, p, lost + bite)
            if gain is not None and (best is None or gain > best[0]):
                best = (gain, take_off, over)
        if best is None:
            return action
        gain, take_off, over = best
        if take_off > 0:
            at = action.path[take_off - 1]
            self.reason = (
                f"{name(hero.id)} walks to {at.x},{at.y} to jump at {over.x},{over.y}: a "
                f"short cut worth {gain:+.1f} squares at {p:.2f} to land (C-JUMP-01)"
            )
            return Move(hero.id, action.path[:take_off])
        self.reason = (
            f"{name(hero.id)} jumps at {over.x},{over.y}: a short cut worth "
            f"{gain:+.1f} squares at {p:.2f} to land (C-JUMP-01)"
        )
        return Jump(hero.id, over)

    def spare_trap(self, obs: ViewLike, hero: HeroSeen, action: Move) -> Action:
        """``jump``: a walk to a fight over a detected trap (a monster only the trap
        leads to: monsters keep off traps, C-TRAP-05, and none is disarmed in a fight,
        C-TRAP-03) jumps it instead of walking onto it: a jump that fails lands on it
        (its bite, and the turn ends there, as walking onto it would), one that succeeds
        (4-6; Agile 3-6, C-JUMP-01/02) lands beyond and walks on. From the square before
        the trap, if the hero is not there yet: it walks there first, when it will still
        have the jump's 2 squares of movement and the square beyond is free floor."""
        traps = set(obs.trap_squares())
        at = next((k for k, square in enumerate(action.path) if square in traps), None)
        if at is None:
            return action
        over = action.path[at]
        if at == 0:
            jump = Jump(hero.id, over)
            if jump in obs.legal_of(Jump, hero.id):
                self.reason = (
                    f"{name(hero.id)} jumps the trap at {over.x},{over.y} on its way to the "
                    "fight rather than walk onto it (C-JUMP-01)"
                )
                return jump
            return action
        take_off = action.path[at - 1]
        if (
            hero.moves_left - at < 2
            or self.hero_info(obs, hero.id)["jumped"]
            or self.notes.get("drags", {}).get(hero.id) == obs.turn
            or not self.free_landing(take_off.beyond(over), self.figures(obs), traps)
        ):
            return action
        self.reason = (
            f"{name(hero.id)} walks to {take_off.x},{take_off.y} to jump the trap at "
            f"{over.x},{over.y} on its way to the fight rather than walk onto it"
        )
        return Move(hero.id, action.path[:at])

    def hurdles(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        action: Move,
        jumps: list[Jump],
        traps: set[Pos],
    ) -> list[tuple[int, Pos, Pos]]:
        """The jumps the hero could make on this turn's walk: (squares walked first, the
        square jumped, the landing square beyond it). From where it stands, the jumps the
        rules offer now; further on, furniture or a detected trap next to a square of the
        walk with a free square of known floor beyond it, while at least the jump's 2
        squares of movement are left (C-JUMP-01: once a Movement step, never by a hero
        dragging a corpse, R-C-JUMP-01)."""
        here = hero.pos
        assert here is not None
        found = [(0, j.over, here.beyond(j.over)) for j in jumps]
        walk = action.path
        if (
            len(walk) < 3
            or self.hero_info(obs, hero.id)["jumped"]
            or self.notes.get("drags", {}).get(hero.id) == obs.turn
        ):
            return found
        memory = self.memory
        figures = self.figures(obs)
        for take_off in range(1, len(walk) - 1):
            at = walk[take_off - 1]
            for over in at.orthogonal():
                land = at.beyond(over)
                if (
                    over in figures
                    or not self.free_landing(land, figures, traps)
                    or not (over in traps or memory.codes[memory.index(over)] == FURNITURE_CODE)
                ):
                    continue
                found.append((take_off, over, land))
        return found

    @staticmethod
    def figures(obs: ViewLike) -> set[Pos]:
        """The squares no jump passes over or lands on: heroes, monsters and corpses
        (C-JUMP-01: figures cannot be jumped; C-DEATH-01: a corpse blocks)."""
        found = {h.pos for h in obs.heroes_seen() if h.pos is not None}
        return found | {m.pos for m in obs.monsters_seen()} | set(obs.corpse_squares())

    def free_landing(self, land: Pos, figures: set[Pos], traps: set[Pos]) -> bool:
        """Whether a jump may land on ``land`` (C-JUMP-01: an empty square; a detected
        trap is not landed on by choice): on the board, known floor, no figure, no trap."""
        memory = self.memory
        return (
            0 <= land.x < memory.width
            and 0 <= land.y < memory.height
            and land not in figures
            and land not in traps
            and memory.walkable(memory.index(land))
        )

    def jump_gain(
        self, route: list[int], take_off: int, land: Pos, p: float, lost: float
    ) -> float | None:
        """What a jump from ``take_off`` squares along ``route`` to ``land`` is worth in
        squares by its odds ``p``: the squares saved on the way to the route's end if it
        lands, less ``lost`` (the squares and bite a failure costs) if it fails; ``None``
        if it is worth nothing."""
        memory = self.memory
        end = route[-1]
        ahead = len(route) - take_off  # the squares still to walk from the take-off
        # A jump pays only if it saves more than ``lost * (1 - p) / p`` squares; the walk
        # from the landing square is at least its distance counted square by square
        # (C-DIST-01), so most landings are ruled out without a search.
        goal = memory.pos(end)
        if ahead - 2 - (abs(goal.x - land.x) + abs(goal.y - land.y)) <= lost * (1 - p) / p:
            return None
        after = self.walk_from(land).distance(end)
        if after == FAR:
            return None
        saved = ahead - (2 + after)  # walking there, or over (2 squares) and on
        gain = p * saved - (1 - p) * lost
        return gain if gain > 0 else None


__all__ = ["TRAP_BITE", "Jumps"]
