"""Death and the end of the adventure: a hero dies (C-DD-01, C-DEATH-01), corpses left
alone are lost (C-DEATH-01), and the adventure ends when no hero is left inside
(C-END-01). Asked after anything that moves, kills or takes a hero off the board."""

from __future__ import annotations

from undercroft.crawl.figures import Corpse, Hero
from undercroft.crawl.state import State


def kill_hero(state: State, hero: Hero) -> None:
    """The hero dies and leaves a corpse holding its items (C-DEATH-01)."""
    assert hero.pos is not None
    hero.dead = True
    state.corpses[hero.pos] = Corpse(hero.id, list(hero.items))
    hero.items.clear()
    hero.casting = None
    state.emit("hero.died", ["C-DD-01", "C-DEATH-01"], hero=hero.id, at=[hero.pos.x, hero.pos.y])
    check_corpses(state)
    check_end(state)


def check_corpses(state: State) -> None:
    """C-DEATH-01: a corpse alone in its area, even for a moment, is looted and eaten.

    A corpse being dragged is never alone (ruling R-C-DEATH-01).
    """
    dragged = {h.dragging for h in state.heroes.values() if h.on_board}
    for pos in list(state.corpses):
        if pos in dragged:
            continue
        area = state.area_of(pos)
        if area is not None:
            company = state.heroes_in_area(area)
        else:
            company = [h for h in state.active_heroes() if h.pos and h.pos.is_adjacent(pos)]
        if not company:
            corpse = state.corpses.pop(pos)
            state.emit("corpse.eaten", ["C-DEATH-01"], corpse=corpse.hero, items=len(corpse.items))


def check_end(state: State) -> None:
    """C-END-01: the adventure is over when no hero is left in the dungeon."""
    if state.active_heroes():
        return
    if any(h.left for h in state.heroes.values()):
        state.finish("escaped")
    else:
        state.finish("perished")
