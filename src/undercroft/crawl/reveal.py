"""What the heroes come to see: revealed areas, placed monsters, and surprise.

An area (room or corridor) is revealed as soon as a hero can see any of its squares
(C-LOS-01); the monsters the adventure placed there appear with it. Monsters appearing
outside combat start an encounter: a Surprise roll for every hero (C-TURN-04, C-SURP-*).
Secret areas are revealed only by an effect (``reveal_secret``).
"""

from __future__ import annotations

from collections import deque
from typing import Final

import numpy as np

from undercroft.core.dice import Band, D6Table
from undercroft.core.grid import Pos
from undercroft.crawl.engine import Task, roll, task
from undercroft.crawl.figures import Monster
from undercroft.crawl.ruleset import Encounter
from undercroft.crawl.state import State

# C-SURP-01: 1-2 surprised, 3+ ready. Perceptive +1 (C-SURP-03), Light 0 -1 (C-LIGHT-02).
SURPRISE: Final = D6Table("C-SURP-01", (Band(1, 2, "surprised"), Band(3, 6, "ready")))
# C-SURP-04: against Ambushers only a 6 avoids surprise.
AMBUSH: Final = D6Table("C-SURP-04", (Band(1, 5, "surprised"), Band(6, 6, "ready")))


def update_view(state: State, *, encounter: bool = True, unsurprisable: bool = False) -> None:
    """Reveal areas the heroes now see, place their monsters, wake guards.

    Areas and placed monsters stay revealed and placed, so only a hero whose view changed
    since the last look (it moved, or the board changed) can show anything new: the
    others are skipped (``State.views``).
    """
    heroes = [h for h in state.active_heroes() if h.pos is not None]
    if not heroes:
        return
    version = state.grid.version
    fovs = []
    for hero in heroes:
        assert hero.pos is not None
        key = (version, hero.pos)
        if state.views.get(hero.id) != key:
            state.views[hero.id] = key
            fovs.append(hero.pos)
    placed: list[str] = []
    news = news_bits(state) if fovs else 0
    if news:
        sight = state.sight
        # Whether any new view shows news: one ``&`` a view (the board-sized integers
        # cost a pass each), stopping at the first that does.
        shows = False
        for p in fovs:
            if sight.fov_bits(p) & news:
                shows = True
                break
        if shows:
            views = [sight.fov(p) for p in fovs]
            seen = views[0]
            for more in views[1:]:
                seen = seen | more
            reveal_seen(state, seen)
            placed = place_monsters(state, seen)
    wake_guards(state)
    if placed:
        start_encounter(
            state,
            placed,
            ambush=any(is_ambusher(state, m) for m in placed),
            unsurprisable=unsurprisable,
            encounter=encounter,
        )


def news_bits(state: State) -> int:
    """:func:`news_squares` as one byte a square (1 news) read as a little-endian
    integer (``Sight.fov_bits``), 0 once there are none; cached until an area is
    revealed or a monster placed."""
    key = (len(state.revealed), len(state.placed))
    cached = state.derived.get("news_bits")
    if cached is not None and cached[0] == key:
        found: int = cached[1]
        return found
    # news_squares reads the areas, the adventure's placements and secret areas, and the
    # areas revealed and monsters placed: the same in many games of the adventure.
    adventure = state.ruleset.adventure
    shared = (
        "news_bits",
        adventure.placements,
        adventure.secret_areas,
        frozenset(state.revealed),
        frozenset(state.placed),
    )
    known: int | None = state.grid.kept_for_areas(shared)  # typed: compiled, None stays None
    if known is not None:
        found = known
    else:
        news = news_squares(state)
        found = 0 if news is None else int.from_bytes(news.tobytes(), "little")
        state.grid.keep_for_areas(shared, found)
    state.derived["news_bits"] = (key, found)
    return found


def news_squares(state: State) -> np.ndarray | None:
    """The squares whose sight would show something new: those of areas still to be
    revealed (not secret ones) and of monsters still to be placed; ``None`` once there
    are none. Kept, as bits, by :func:`news_bits`."""
    grid = state.grid
    secret = state.ruleset.adventure.secret_areas
    hidden = np.zeros(len(grid.areas) + 1, np.bool_)  # by area index + 1 (0: no area)
    for i, info in enumerate(grid.areas):
        hidden[i + 1] = info.name not in state.revealed and info.name not in secret
    news = hidden[grid.area + 1]
    for index, placement in enumerate(state.ruleset.adventure.placements):
        if index not in state.placed:
            news[placement.at.y, placement.at.x] = True
    return news if news.any() else None


def reveal_seen(state: State, seen: np.ndarray) -> None:
    """C-TURN-04: every area with a square in ``seen`` is revealed (secret ones only by
    an effect), in board order of the areas."""
    secret = state.ruleset.adventure.secret_areas
    present = np.bincount(state.grid.area[seen] + 1, minlength=len(state.grid.areas) + 1)
    new_areas = []
    for index in np.flatnonzero(present[1:]).tolist():
        name = state.grid.areas[index].name
        if name not in state.revealed and name not in secret:
            state.revealed.add(name)
            new_areas.append(name)
    for name in new_areas:
        state.emit("area.revealed", ["C-TURN-04"], area=name, kind=state.area_kind(name))


@task("first_look")
def first_look(state: State, _: Task) -> None:
    """The adventure begins: the heroes see what they see from the start squares
    (C-TURN-04), with no Surprise rolls for what is there."""
    update_view(state, encounter=False)


def is_ambusher(state: State, monster_id: str) -> bool:
    """An Ambusher by the way it was placed or by its profile (C-MON-04); an encounter
    bringing in any Ambusher uses the Ambusher roll (ruling R-C-SURP-04)."""
    monster = state.monsters[monster_id]
    profile = state.ruleset.monster(monster.kind)
    return Encounter.AMBUSHER.value == monster.encounter or profile.encounter is Encounter.AMBUSHER


def place_monsters(state: State, seen: np.ndarray | None = None) -> list[str]:
    """Place the adventure's monsters that the heroes now see (C-TURN-04: movement
    reveals monsters), or, with no ``seen`` (a secret room opened by an effect), every
    monster of a revealed area. A guard placed on sight sees a hero at once, since sight
    is symmetric (R-CORE-LOS-01), so no placed guard waits unseen (ruling R-C-MON-01)."""
    placed = []
    for index, placement in enumerate(state.ruleset.adventure.placements):
        if index in state.placed:
            continue
        area = state.area_of(placement.at)
        if seen is not None:
            show = bool(seen[placement.at.y, placement.at.x])
        else:
            show = area is not None and area in state.revealed
        if show:
            state.placed.add(index)
            at = placement.at if state.free(placement.at) else free_square_near(state, placement.at)
            if at is not None:
                placed.append(spawn(state, placement.monster, at, None).id)
    return placed


def free_square_near(state: State, at: Pos) -> Pos | None:
    """Ruling R-C-MON-05: a monster whose square is taken (a monster that walked there
    unseen, a hero, a corpse) is put on the nearest free square, counted in steps over
    walkable squares, ties in the board's neighbour order; ``None`` if there is none."""
    queue, seen = deque([at]), {at}
    while queue:
        p = queue.popleft()
        if state.free(p):
            return p
        for q in state.grid.neighbours(p):
            if q not in seen and state.walkable(q):
                seen.add(q)
                queue.append(q)
    return None


def spawn(state: State, kind: str, at: Pos, encounter: Encounter | None) -> Monster:
    """Put a monster on the board; its id is ``monster:KIND-N``."""
    profile = state.ruleset.monster(kind)
    mid = state.new_id(f"monster:{kind}")
    role = (encounter or profile.encounter).value
    monster = Monster(
        id=mid,
        kind=kind,
        pos=at,
        health=profile.health,
        stamina=profile.stamina,
        magic=profile.magic,
        encounter=role,
        active=role != Encounter.GUARD.value,
    )
    state.monsters[mid] = monster
    state.emit(
        "monster.appeared",
        ["C-MON-01"],
        monster=mid,
        kind=kind,
        encounter=role,
        at=[at.x, at.y],
        profile={
            "name": profile.name,
            "movement": profile.movement,
            "fighting": profile.fighting,
            "damage": profile.damage,
            "health": profile.health,
            "stamina": profile.stamina,
        },
    )
    return monster


def wake_guards(state: State) -> None:
    """C-MON-02: a guard holds its square until a hero comes into its line of sight."""
    for monster in state.monsters.values():
        if monster.active:
            continue
        for hero in state.active_heroes():
            assert hero.pos is not None
            if state.sight.can_see(monster.pos, hero.pos):
                monster.active = True
                state.emit("guard.roused", ["C-MON-02"], monster=monster.id, by=hero.id)
                break


def start_encounter(
    state: State,
    monsters: list[str],
    *,
    ambush: bool,
    unsurprisable: bool = False,
    encounter: bool = True,
) -> None:
    """C-TURN-04: surprise is determined when monsters are met outside combat.

    Monsters that join a fight already going on bring no new Surprise rolls (ruling
    R-C-SURP-03). ``encounter`` False (the adventure's first look) also skips them.
    """
    already = any(m not in monsters for m in state.monsters)
    if unsurprisable:
        for mid in monsters:
            state.monsters[mid].unsurprisable = True
    if already or not encounter:
        return
    heroes = [h.id for h in state.active_heroes()]
    tasks = [Task("surprise_roll", {"hero": h, "ambush": ambush}) for h in heroes]
    state.push(*tasks, Task("surprise_done", {"monsters": monsters, "heroes": heroes}))


@task("surprise_roll")
def surprise_roll_task(state: State, t: Task) -> None:
    if state.heroes[t.args["hero"]].on_board:
        state.ask_roll("surprise", hero=t.args["hero"], ambush=t.args["ambush"])


def surprise_end_turn(state: State) -> int:
    """The turn at whose Turn End a surprise rolled now ends (ruling R-C-SURP-01): it
    covers the first combat turn of the encounter (``surprise_turns`` combat turns in
    all), which is this turn if its combat steps are still to come, else the next."""
    first = state.turn if state.step in ("turn_start", "movement") else state.turn + 1
    return first + max(1, state.options.surprise_turns) - 1


@roll("surprise")
def surprise_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    """C-SURP-01/03/04 and C-LIGHT-02."""
    hero = state.heroes[str(args["hero"])]
    modifiers = state.perception_modifiers(hero)
    rules = ["C-SURP-01"]
    if "Perceptive" in modifiers:
        rules.append("C-SURP-03")
    if "light" in modifiers:
        rules.append("C-LIGHT-02")
    if args["ambush"]:
        rules.extend(["C-SURP-04", "R-C-SURP-02"])
        # R-C-SURP-02: by default the modified total must reach 6.
        total = (
            natural[0]
            if state.options.ambusher_six == "natural"
            else natural[0] + sum(modifiers.values())
        )
        outcome = AMBUSH.outcome(total)
    else:
        outcome = SURPRISE.outcome(natural[0] + sum(modifiers.values()))
    state.emit_roll(rules, hero.id, natural, outcome, modifiers=modifiers)
    # A new encounter: whatever surprise an earlier, finished one left is replaced.
    hero.surprised = outcome == "surprised"
    if hero.surprised:
        hero.surprise_ends = surprise_end_turn(state)
        hero.done = True  # C-SURP-01: skips (the rest of) its movement
        if hero.casting is not None:
            hero.casting = None


@task("surprise_done")
def surprise_done(state: State, t: Task) -> None:
    """C-SURP-02: if no hero is surprised, the monsters are (C-SURP-05 exempts some)."""
    rolled = [state.heroes[h] for h in t.args["heroes"]]
    if any(h.surprised for h in rolled):
        return
    surprised = []
    for mid in t.args["monsters"]:
        monster = state.monsters.get(mid)
        if monster is None:
            continue
        if monster.unsurprisable:
            state.emit("surprise.denied", ["C-SURP-05"], monster=mid)
            continue
        monster.surprised = True
        monster.surprise_ends = surprise_end_turn(state)
        surprised.append(mid)
    if surprised:
        state.emit("monsters.surprised", ["C-SURP-02"], monsters=surprised)
