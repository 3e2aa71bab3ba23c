"""Monsters (C-MON-*): patrols, the Monsters' Movement step, and abilities."""

from __future__ import annotations

from collections import deque
from typing import Final

from undercroft.core.dice import Band, D6Table
from undercroft.core.grid import Pos, square_table
from undercroft.crawl.actions import DONE, Action, Done, MonsterAbility, MonsterMove
from undercroft.crawl.distance import in_range, nearest_distances
from undercroft.crawl.engine import Pending, Seat, Task, decision, listed, roll, task
from undercroft.crawl.figures import Monster
from undercroft.crawl.reveal import is_ambusher, spawn, start_encounter
from undercroft.crawl.ruleset import Encounter
from undercroft.crawl.state import State
from undercroft.crawl.traps import spring

# C-MON-03: a patrol appears on a 1.
PATROL: Final = D6Table("C-MON-03", (Band(1, 1, "patrol"), Band(2, 6, "none")))
MAX_MONSTER_STAMINA: Final = 3


def note_patrol_corridors(state: State) -> None:
    """C-MON-03: remember the corridors that hold heroes as the turn ends (R-C-PATROL-01)."""
    corridors: list[str] = []
    for hero in state.active_heroes():
        assert hero.pos is not None
        area = state.area_of(hero.pos)
        if area is not None and state.area_kind(area) == "corridor" and area not in corridors:
            corridors.append(area)
    state.patrol_corridors = corridors


def patrols_stopped(state: State) -> bool:
    """C-MON-03: no more patrol rolls once every non-secret room is revealed.

    Rooms the adventure leaves with no way in (no door or opening reaches them from the
    start) are not part of its dungeon (ruling R-C-PATROL-03).
    """
    return rooms_in_play(state) <= state.revealed


def rooms_in_play(state: State) -> frozenset[str]:
    """Non-secret rooms reachable from the start squares through any door (R-C-PATROL-03;
    a fact of the adventure, worked out once per adventure)."""
    return state.ruleset.adventure.rooms_in_play


@task("patrols")
def patrols(state: State, _: Task) -> None:
    """C-MON-03, R-C-PATROL-01: one roll per corridor that held heroes at last Turn End."""
    if not state.ruleset.adventure.patrol or not state.patrol_corridors:
        return
    if patrols_stopped(state):
        state.emit("patrols.stopped", ["C-MON-03"])
        state.patrol_corridors = []
        return
    state.push(*(Task("patrol_roll", {"corridor": c}) for c in state.patrol_corridors))
    state.patrol_corridors = []


@task("patrol_roll")
def patrol_roll_task(state: State, t: Task) -> None:
    state.ask_roll("patrol", corridor=t.args["corridor"])


@roll("patrol")
def patrol_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    corridor = str(args["corridor"])
    outcome = PATROL.outcome(natural[0])
    state.emit_roll(["C-MON-03"], "dm", natural, outcome, corridor=corridor)
    if outcome != "patrol":
        return
    squares = patrol_squares(state, corridor, len(state.ruleset.adventure.patrol))
    placed = [
        spawn(state, kind, at, Encounter.PATROL).id
        for kind, at in zip(state.ruleset.adventure.patrol, squares, strict=False)
    ]
    if placed:
        state.emit("patrol.appeared", ["C-MON-03"], corridor=corridor, monsters=placed)
        # R-C-SURP-04: an Ambusher by profile ambushes even as part of a patrol.
        start_encounter(state, placed, ambush=any(is_ambusher(state, m) for m in placed))


def corners(state: State, corridor: str) -> list[Pos]:
    """Squares where the corridor turns or ends, in board order (ruling R-C-PATROL-02):
    a walkable corridor square with at most one walkable corridor neighbour (an end) or
    with exactly two that are not in line (a bend). Junctions and the inner squares of
    wide corridors are not corners. Kept until the board changes (a door opened)."""
    key = f"corners:{corridor}"
    cached = state.derived.get(key)
    if cached is not None and cached[0] == state.grid.version:
        kept: list[Pos] = cached[1]
        return list(kept)
    ordered = corridor_squares(state, corridor)  # board order already
    squares = set(ordered)
    rows = state.walk_rows()  # State.walkable, square by square (all on the map)
    found = []
    for p in ordered:
        if not rows[p.y][p.x]:
            continue
        n = [q for q in state.grid.neighbours(p) if q in squares and rows[q.y][q.x]]
        bend = len(n) == 2 and n[0].x != n[1].x and n[0].y != n[1].y
        if len(n) <= 1 or bend:
            found.append(p)
    state.derived[key] = (state.grid.version, found)
    return list(found)


def corridor_squares(state: State, corridor: str) -> list[Pos]:
    """The squares of a corridor in board order (areas never change in a game)."""
    key = f"squares:{corridor}"
    found: list[Pos] | None = state.derived.get(key)
    if found is None:
        found = state.derived[key] = state.grid.squares_of(corridor)
    return list(found)


def patrol_squares(state: State, corridor: str, count: int) -> list[Pos]:
    """C-MON-03, ruling R-C-PATROL-02: the free corner furthest from the nearest hero,
    then the free corridor squares nearest to it. Distance as C-DIST-01 counts it; ties
    go in board order. Monsters know the traps, so no patrol is put on an armed trap
    (C-TRAP-05, R-C-TRAP-01)."""
    taken = state.occupied()
    if not state.options.monsters_enter_traps:
        taken |= {p for p, t in state.traps.items() if t.armed}
    heroes = [h.pos for h in state.active_heroes() if h.pos is not None]
    corner_squares = [p for p in corners(state, corridor) if p not in taken]
    # ``taken`` holds every figure (State.free without building the set again).
    other_squares = [
        p for p in corridor_squares(state, corridor) if state.walkable(p) and p not in taken
    ]
    # R-C-PATROL-02: a square no hero can walk to (cut off by rubble or a shut door)
    # would start a fight that can never be fought.
    nearest_hero = nearest_distances(state, heroes, corner_squares + other_squares)
    options = [p for p in corner_squares if p in nearest_hero] or [
        p for p in other_squares if p in nearest_hero
    ]
    if not options:
        return []
    start = max(options, key=lambda p: (nearest_hero[p], -p.y, -p.x))
    squares = set(corridor_squares(state, corridor))
    chosen: list[Pos] = []
    queue, seen = deque([start]), {start}
    while queue and len(chosen) < count:
        p = queue.popleft()
        if state.walkable(p) and p not in taken:
            chosen.append(p)
        for q in state.grid.neighbours(p):
            if q in squares and q not in seen and state.walkable(q):
                seen.add(q)
                queue.append(q)
    return chosen


# -- Monsters' Movement (C-CMB-01 step 2) -------------------------------------------------


def can_move(monster: Monster) -> bool:
    """Not surprised (C-SURP-02), not yet moved, and a guard only once roused (C-MON-02)."""
    return not monster.surprised and not monster.moved and monster.active


def forbidden_squares(state: State, monster: Monster) -> set[Pos]:
    """Squares a monster may not walk through: figures, corpses, and (C-MON-05,
    C-TRAP-05, R-C-TRAP-01) every armed trap, which monsters know."""
    blocked = state.occupied() - {monster.pos}
    if not state.options.monsters_enter_traps:
        blocked |= {p for p, t in state.traps.items() if t.armed}
    return blocked


def reach_tree(state: State, monster: Monster) -> dict[Pos, tuple[Pos | None, int]]:
    """Every square the monster can reach this step (in the order it is found), with the
    square before it on a shortest path found and that path's length: :func:`reach`
    without building every path."""
    profile = state.ruleset.monster(monster.kind)
    extra = 0 if monster.exhausted else min(MAX_MONSTER_STAMINA, monster.stamina)
    limit = profile.movement + extra
    blocked = forbidden_squares(state, monster)
    rows = state.walk_rows()  # State.walkable, square by square (neighbours are on the map)
    grid = state.grid
    width, height = grid.width, grid.height
    table = square_table(width, height)
    squares, around = table.squares, table.around
    # Breadth first over square indices (a list read from the front), each square found
    # or blocked marked in ``closed``: the squares are found in the order a search over
    # positions finds them, without hashing a position a step.
    closed = [False] * len(squares)
    for b in blocked:
        if 0 <= b.x < width and 0 <= b.y < height:
            closed[b.y * width + b.x] = True
    start = monster.pos
    first = start.y * width + start.x
    closed[first] = True
    tree: dict[Pos, tuple[Pos | None, int]] = {start: (None, 0)}
    queue = [first]
    depth = [0]
    head = 0
    while head < len(queue):
        i = queue[head]
        steps = depth[head]
        head += 1
        if steps >= limit:
            continue
        p = squares[i]
        for j in around[i]:
            if not closed[j]:
                q = squares[j]
                if rows[q.y][q.x]:
                    closed[j] = True
                    tree[q] = (p, steps + 1)
                    queue.append(j)
                    depth.append(steps + 1)
    return tree


def path_in(tree: dict[Pos, tuple[Pos | None, int]], end: Pos) -> tuple[Pos, ...]:
    """The path of :func:`reach_tree` to ``end`` (its start left out)."""
    way: list[Pos] = []
    here: Pos | None = end
    while here is not None:
        before = tree[here][0]
        if before is not None:
            way.append(here)
        here = before
    way.reverse()
    return tuple(way)


def reach(state: State, monster: Monster) -> dict[Pos, tuple[Pos, ...]]:
    """Every square the monster can reach this step, with a shortest path to it."""
    tree = reach_tree(state, monster)
    paths: dict[Pos, tuple[Pos, ...]] = {}
    for q, (before, _) in tree.items():
        paths[q] = () if before is None else (*paths[before], q)
    return paths


@task("monster_movement")
def monster_movement(state: State, _: Task) -> None:
    state.step = "monster_movement"
    if any(can_move(m) for m in state.monsters.values()):
        state.ask(Seat.DM, "monster_movement")


def walk_ends(
    state: State, monster: Monster, tree: dict[Pos, tuple[Pos | None, int]]
) -> list[tuple[Pos, int, int]]:
    """Where each of :func:`walks` ends, its Stamina and its length, in the same order,
    from the monster's :func:`reach_tree` (the DM weighs the walks by these and builds
    only the one it picks, with :func:`path_in`)."""
    movement = state.ruleset.monster(monster.kind).movement
    return [(end, max(0, steps - movement), steps) for end, (_, steps) in tree.items()]


def walks(state: State, monster: Monster) -> list[tuple[tuple[Pos, ...], int]]:
    """C-CMB-01: a shortest walk to every square the monster can reach this step, with
    the Stamina it needs (the squares past its Movement), in the order
    :func:`move_options` lists them."""
    movement = state.ruleset.monster(monster.kind).movement
    return [(path, max(0, len(path) - movement)) for path in reach(state, monster).values()]


def move_options(state: State, monster: Monster) -> list[Action]:
    """C-CMB-01: a shortest walk to every square the monster can reach this step."""
    return [MonsterMove(monster.id, path, stamina) for path, stamina in walks(state, monster)]


def ability_options(state: State, monster: Monster) -> list[Action]:
    """C-MON-01: an ability on a hero within its range (C-DIST-01, R-CORE-DIST-01) and
    in sight, instead of moving."""
    profile = state.ruleset.monster(monster.kind)
    if not profile.abilities:
        return []
    heroes = [h for h in state.active_heroes() if h.pos is not None]
    actions: list[Action] = []
    for ability in profile.abilities:
        near = set(in_range(state, monster.pos, [h.pos for h in heroes if h.pos], ability.range))
        for hero in heroes:
            if hero.pos in near and state.sight.can_see(monster.pos, hero.pos):
                actions.append(MonsterAbility(monster.id, ability.name, hero.id))
    return actions


MONSTER_OPTIONS: Final = {MonsterMove: move_options, MonsterAbility: ability_options}
"""What the DM may do with one monster in Monsters' Movement, kind by kind, in the order
the legal actions list them."""


def legal_monster_movement(state: State, _: Pending) -> list[Action]:
    actions: list[Action] = []
    for monster in state.monsters.values():
        if can_move(monster):
            actions.extend(move_options(state, monster))
            actions.extend(ability_options(state, monster))
    actions.append(DONE)
    return actions


def monster_options(state: State, kind: type[Action], actor: str) -> list[Action] | None:
    """One monster's legal actions of one kind (``None`` for a kind naming no monster)."""
    options = MONSTER_OPTIONS.get(kind)
    if options is None:
        return None
    monster = state.monsters.get(actor)
    if monster is None or not can_move(monster):
        return []
    found: list[Action] = options(state, monster)
    return found


def monster_movement_is_legal(state: State, _: Pending, action: Action) -> bool:
    """Whether ``action`` is legal in Monsters' Movement: any walk
    :func:`monster_move_is_legal` allows (not only the shortest ones listed), an ability
    listed for that monster, or Done."""
    if isinstance(action, Done):
        return True
    if isinstance(action, MonsterMove):
        return monster_move_is_legal(state, action)
    return listed(monster_options, state, action)


def monster_move_is_legal(state: State, action: MonsterMove) -> bool:
    monster = state.monsters.get(action.monster)
    if monster is None or not can_move(monster):
        return False
    profile = state.ruleset.monster(monster.kind)
    if action.stamina < 0 or action.stamina > MAX_MONSTER_STAMINA:
        return False
    if action.stamina and (monster.exhausted or action.stamina > monster.stamina):
        return False
    if len(action.path) > profile.movement + action.stamina:
        return False
    blocked = forbidden_squares(state, monster)
    here = monster.pos
    for p in action.path:
        if not here.is_adjacent(p) or p in blocked or not state.walkable(p):
            return False
        here = p
    return True


def walk_monster(state: State, monster: Monster, action: MonsterMove) -> None:
    """Move along the path. Monsters avoid armed traps (R-C-TRAP-01); with
    ``monsters_enter_traps`` one that steps on an armed trap springs it (C-TRAP-05) and,
    if the trap ends movement, stops there."""
    walked = 0
    sprung: Pos | None = None
    for p in action.path:
        monster.pos = p
        walked += 1
        trap = state.traps.get(p)
        if trap is not None and trap.armed:
            sprung = p
            break
    state.emit(
        "monster.moved",
        ["C-CMB-01"],
        monster=monster.id,
        to=[monster.pos.x, monster.pos.y],
        squares=walked,
        stamina=action.stamina,
    )
    if sprung is None:
        return
    rest = [[p.x, p.y] for p in action.path[walked:]]
    if rest and not state.ruleset.traps[state.traps[sprung].kind].ends_movement:
        state.push(Task("monster_walk_on", {"monster": monster.id, "path": rest}))
    spring(state, sprung, monster.id, ("C-TRAP-05", "R-C-TRAP-01"))  # traps hit monsters too


@task("monster_walk_on")
def monster_walk_on(state: State, t: Task) -> None:
    """A monster that sprang a trap that does not end movement walks on (C-TRAP-05)."""
    monster = state.monsters.get(t.args["monster"])
    if monster is None:
        return
    path = tuple(Pos(x, y) for x, y in t.args["path"])
    if any(p in state.occupied() or not state.walkable(p) for p in path):
        return
    walk_monster(state, monster, MonsterMove(monster.id, path))


def movable_ids(state: State) -> list[str]:
    """The monsters that may still move (each has at least its empty walk)."""
    return [m.id for m in state.monsters.values() if can_move(m)]


@decision(
    "monster_movement",
    legal_monster_movement,
    check=monster_movement_is_legal,
    options=monster_options,
    actors=movable_ids,
)
def on_monster_movement(state: State, _: Pending, action: Action) -> None:
    if isinstance(action, Done):
        for monster in state.monsters.values():
            monster.moved = True
        return
    state.push(Task("monster_movement"))
    if isinstance(action, MonsterMove):
        monster = state.monsters[action.monster]
        monster.moved = True
        if action.stamina:
            monster.stamina -= action.stamina
            if monster.stamina <= 0:
                monster.stamina = 0
                monster.exhausted = True  # C-EXH-01 holds for monsters too
        if action.path:
            walk_monster(state, monster, action)
    elif isinstance(action, MonsterAbility):
        monster = state.monsters[action.monster]
        monster.moved = True
        profile = state.ruleset.monster(monster.kind)
        ability = next(a for a in profile.abilities if a.name == action.ability)
        state.emit(
            "monster.ability",
            ["C-MON-01"],
            monster=monster.id,
            ability=ability.name,
            target=action.target,
        )
        state.push(
            Task(
                "effects",
                {
                    "effects": [e.model_dump() for e in ability.effects],
                    "source": monster.id,
                    "target": action.target,
                    "hero": action.target,
                },
            )
        )
