"""Heroes' Movement (C-TURN-03): steps, Stamina for squares, jumping, dragging, leaving.

Also the checks that follow any movement: corpses left alone (C-DEATH-01) and the end
of the adventure (C-END-01).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from undercroft.core.dice import Band, D6Table
from undercroft.core.grid import Pos
from undercroft.crawl import reveal
from undercroft.crawl.actions import (
    DONE,
    Action,
    Disarm,
    Done,
    Drag,
    EndMovement,
    Jump,
    Leave,
    Move,
    OpenDoor,
    Rest,
    SpendStamina,
    Step,
)
from undercroft.crawl.death import check_corpses, check_end
from undercroft.crawl.doors import door_actions
from undercroft.crawl.engine import Pending, Seat, Task, decision, listed, roll, task
from undercroft.crawl.figures import Hero
from undercroft.crawl.known import monsters_in_sight
from undercroft.crawl.ruleset import Trait
from undercroft.crawl.state import State
from undercroft.crawl.traps import disarm_actions, entered
from undercroft.crawl.turn import spend_stamina

# C-JUMP-01: 1-3 the jump fails, 4-6 it succeeds (Agile +1, C-JUMP-02).
JUMP: Final = D6Table("C-JUMP-01", (Band(1, 3, "fail"), Band(4, 6, "success")))
MAX_MOVE_STAMINA: Final = 3  # R-C-MOVE-01: 1 to 3 Stamina, +1 square each

HeroOptions = Callable[[State, Hero], list[Action]]
ActionHook = Callable[[State, Action], None]
# Other rule modules (spells, items) add kinds of actions to the Movement step: the
# rule code listing a hero's actions of the kind, and the handler of the chosen one.
EXTRA_OPTIONS: Final[dict[type[Action], HeroOptions]] = {}
EXTRA_HANDLERS: Final[dict[type[Action], ActionHook]] = {}


def stamina_squares(state: State, points: int) -> int:
    """Squares bought with ``points`` Stamina (C-TURN-03, ruling R-C-MOVE-01)."""
    per_point = 3 if state.options.move_stamina_cost == "three_squares_per_point" else 1
    return per_point * points


def stamina_choices(state: State, hero: Hero) -> range:
    """How many Stamina points the hero may spend on squares now: 1 to 3 a turn in all
    (ruling R-C-MOVE-01), or any number with the other reading; none when Exhausted
    (C-EXH-01)."""
    if hero.exhausted:
        return range(0)
    if state.options.move_stamina_cost == "three_squares_per_point":
        return range(1, hero.stamina + 1)
    # One square a point: the squares bought so far are the points spent so far.
    return range(1, min(hero.stamina, MAX_MOVE_STAMINA - hero.bought) + 1)


def allowance(state: State, hero: Hero) -> int:
    """Squares the hero may move this step: Movement, -1 at Light 0 (C-LIGHT-02), plus
    Stamina squares bought (C-TURN-03), less 1 while dragging a corpse (C-DEATH-02)."""
    total = state.hero_profile(hero).movement + state.light_penalty() + hero.bought
    if hero.dragging is not None:
        total -= 1
    return max(0, total)


def remaining(state: State, hero: Hero) -> int:
    """Squares left this step; never below 0, though the Light may drop to 0 mid-move
    (a trap, C-LIGHT-02) and take the allowance under the squares already moved."""
    return max(0, allowance(state, hero) - hero.moved)


def can_act(state: State, hero: Hero) -> bool:
    """A hero still taking its Movement step: on the board, not done, not resting, and
    not surprised (a surprised hero skips its movement, C-SURP-01)."""
    return hero.on_board and not hero.done and not hero.resting and not hero.surprised


@task("movement_start")
def movement_start(state: State, _: Task) -> None:
    state.step = "movement"
    for hero in state.heroes.values():
        hero.moved = hero.bought = 0
        hero.jumped = hero.done = False
        hero.dragging = None
    state.push(Task("movement"))


@task("movement")
def movement(state: State, _: Task) -> None:
    if any(can_act(state, h) for h in state.active_heroes()):
        state.ask(Seat.HEROES, "movement")


def step_options(state: State, hero: Hero) -> list[Action]:
    """C-TURN-03, C-DIST-01: one square orthogonally, to a free square, while the hero
    has squares left."""
    if remaining(state, hero) < 1:
        return []
    assert hero.pos is not None
    occupied = state.occupied()
    return [
        Step(hero.id, to)
        for to in state.grid.neighbours(hero.pos)
        if state.walkable(to) and to not in occupied
    ]


def stamina_options(state: State, hero: Hero) -> list[Action]:
    """C-TURN-03, R-C-MOVE-01: Stamina for extra squares."""
    return [SpendStamina(hero.id, points) for points in stamina_choices(state, hero)]


def jump_actions(state: State, hero: Hero) -> list[Action]:
    """C-JUMP-01: once per Movement step, over furniture or a detected trap, to a free
    landing square within the hero's movement; figures cannot be jumped. A jump takes
    2 squares, and a hero dragging a corpse cannot jump (ruling R-C-JUMP-01)."""
    if hero.jumped or hero.dragging is not None or remaining(state, hero) < 2:
        return []
    assert hero.pos is not None
    actions: list[Action] = []
    furniture = furniture_squares(state)
    occupied = state.occupied()
    for over in state.grid.neighbours(hero.pos):
        trap = state.traps.get(over)
        hurdle = over in furniture or (trap is not None and trap.detected and trap.armed)
        if not hurdle or over in occupied:
            continue
        landing = hero.pos.beyond(over)
        if state.walkable(landing) and landing not in occupied:
            actions.append(Jump(hero.id, over))
    return actions


def drag_options(state: State, hero: Hero) -> list[Action]:
    """C-DEATH-02: a corpse next to the hero, before it moves, that nobody drags yet."""
    if hero.moved != 0 or hero.dragging is not None or remaining(state, hero) < 1:
        return []
    assert hero.pos is not None
    return [
        Drag(hero.id, p)
        for p in state.grid.neighbours(hero.pos)
        if p in state.corpses and not any(h.dragging == p for h in state.heroes.values())
    ]


def leave_options(state: State, hero: Hero) -> list[Action]:
    """C-END-01: from an exit square."""
    return [Leave(hero.id)] if hero.pos in state.exits else []


def rest_options(state: State, hero: Hero) -> list[Action]:
    """C-REST-01: a hero that has done nothing yet this turn may rest."""
    return [] if hero.acted else [Rest(hero.id)]


def end_options(state: State, hero: Hero) -> list[Action]:
    return [EndMovement(hero.id)]


HERO_OPTIONS: Final[dict[type[Action], HeroOptions]] = {
    Step: step_options,
    SpendStamina: stamina_options,
    OpenDoor: door_actions,
    Jump: jump_actions,
    Disarm: disarm_actions,
    Drag: drag_options,
    Leave: leave_options,
    Rest: rest_options,
}
"""What a hero may do in its Movement step, kind by kind, in the order the legal actions
list them (then :data:`EXTRA_OPTIONS`, then ``EndMovement``)."""


def option_kinds() -> dict[type[Action], HeroOptions]:
    """Every kind of movement action a hero may take, with the rule code that lists them
    (built again only when another rule module has added a kind)."""
    if len(_KINDS) != len(HERO_OPTIONS) + len(EXTRA_OPTIONS) + 1:
        _KINDS.clear()
        _KINDS.update({**HERO_OPTIONS, **EXTRA_OPTIONS, EndMovement: end_options})
    return _KINDS


_KINDS: Final[dict[type[Action], HeroOptions]] = {}


def acting_heroes(state: State) -> list[Hero]:
    """The heroes still taking their Movement step, in party order."""
    return [h for h in state.active_heroes() if can_act(state, h)]


def legal_movement(state: State, _: Pending) -> list[Action]:
    actions: list[Action] = []
    kinds = option_kinds().values()
    for hero in acting_heroes(state):
        for options in kinds:
            actions.extend(options(state, hero))
    actions.append(DONE)
    return actions


def movement_options(state: State, kind: type[Action], actor: str) -> list[Action] | None:
    """The legal movement actions of one kind for one hero (the same rule code as
    :func:`legal_movement`, for that hero and kind only); ``None`` for a kind that names
    no hero."""
    options = option_kinds().get(kind)
    if options is None:
        return None
    hero = state.heroes.get(actor)
    if hero is None or not can_act(state, hero):
        return []
    return options(state, hero)


def movement_is_legal(state: State, _: Pending, action: Action) -> bool:
    """Whether ``action`` is one of :func:`legal_movement`'s, or a legal :class:`Move`,
    asking only the rule code of its kind and hero."""
    if isinstance(action, Done):
        return True
    if isinstance(action, Move):
        return move_is_legal(state, action)
    if type(action) is EndMovement:  # end_options: every hero still moving may end
        hero = state.heroes.get(action.hero)
        return hero is not None and can_act(state, hero)
    return listed(movement_options, state, action)


def furniture_squares(state: State) -> frozenset[Pos]:
    """The squares holding furniture (kept until the board changes)."""
    grid = state.grid
    cached = state.derived.get("furniture")
    if cached is None or cached[0] != grid.version:
        ys, xs = grid.furniture.nonzero()
        cached = (grid.version, frozenset(Pos(int(x), int(y)) for y, x in zip(ys, xs, strict=True)))
        state.derived["furniture"] = cached
    found: frozenset[Pos] = cached[1]
    return found


def move_is_legal(state: State, action: Move) -> bool:
    """A whole path: every square adjacent to the last, free, within the allowance."""
    hero = state.heroes.get(action.hero)
    if hero is None or not can_act(state, hero) or not action.path:
        return False
    if len(action.path) > remaining(state, hero):
        return False
    here = hero.pos
    assert here is not None
    occupied = state.occupied() - {here}  # a path may come back through its own start
    if len(state.monsters):
        # R-C-MON-06: a monster out of the heroes' sight does not make their path illegal
        # (the refusal would tell where it stands): the walk stops before it
        # (on_movement), where the hero has come to see it.
        occupied -= unseen_squares(state)
    corpse = hero.dragging  # a dragged corpse follows into the square just left
    for p in action.path:
        if not here.is_adjacent(p) or not state.walkable(p) or p in occupied or p == corpse:
            return False
        corpse = here if corpse is not None else None
        here = p
    return True


def unseen_squares(state: State) -> set[Pos]:
    """The squares of the monsters out of the heroes' sight (R-C-MON-06)."""
    seen = monsters_in_sight(state, False)
    if len(seen) == len(state.monsters):
        return set()
    return {m.pos for m in state.monsters.values()} - {m.pos for m in seen}


def acting_ids(state: State) -> list[str]:
    return [h.id for h in acting_heroes(state)]


@decision(
    "movement",
    legal_movement,
    check=movement_is_legal,
    options=movement_options,
    actors=acting_ids,
)
def on_movement(state: State, _: Pending, action: Action) -> None:
    if isinstance(action, Done):
        for everyone in state.active_heroes():
            everyone.done = True
        state.emit("movement.ended", ["C-TURN-03"])
        return
    state.push(Task("movement"))
    hero = state.heroes.get(str(getattr(action, "hero", "")))
    if isinstance(action, Step):
        assert hero is not None
        step_hero(state, hero, action.to)
    elif isinstance(action, Move):
        assert hero is not None
        for p in action.path:
            if not state.free(p):
                break  # C-TURN-03: never into an occupied square (a monster placed there)
            depth, met = len(state.stack), len(state.monsters)
            step_hero(state, hero, p)
            if len(state.stack) != depth or len(state.monsters) != met:
                # Something happened on the way (a monster appeared, even in a fight
                # already going on): the rest of the path, planned without it, is dropped
                # and the player decides again.
                break
            if hero.done or not hero.on_board:
                break
    elif isinstance(action, SpendStamina):
        assert hero is not None
        squares = stamina_squares(state, action.points)
        hero.bought += squares
        hero.acted = True
        spend_stamina(state, hero, action.points, "movement")
        state.emit(
            "stamina.spent",
            ["C-TURN-03", "R-C-MOVE-01"],
            actor=hero.id,
            points=action.points,
            squares=squares,
            stamina=hero.stamina,
        )
    elif isinstance(action, OpenDoor):
        assert hero is not None
        hero.acted = True
        state.push(Task("door_roll", {"hero": hero.id, "door": [action.door.x, action.door.y]}))
    elif isinstance(action, Jump):
        assert hero is not None
        hero.jumped = hero.acted = True
        state.ask_roll("jump", hero=hero.id, over=[action.over.x, action.over.y])
    elif isinstance(action, Disarm):
        assert hero is not None
        hero.done = hero.acted = True  # C-TRAP-03: disarming ends the hero's movement
        state.push(Task("disarm_roll", {"hero": hero.id, "trap": [action.trap.x, action.trap.y]}))
    elif isinstance(action, Drag):
        assert hero is not None
        hero.dragging = action.corpse
        hero.acted = True
        state.emit(
            "corpse.dragged", ["C-DEATH-02"], hero=hero.id, corpse=state.corpses[action.corpse].hero
        )
    elif isinstance(action, Leave):
        assert hero is not None
        leave(state, hero)
    elif isinstance(action, Rest):
        assert hero is not None
        hero.resting = hero.done = True
        state.emit("rest.started", ["C-REST-01"], hero=hero.id)
    elif isinstance(action, EndMovement):
        assert hero is not None
        hero.done = True
    elif type(action) in EXTRA_HANDLERS:
        EXTRA_HANDLERS[type(action)](state, action)
    else:  # pragma: no cover - legal_movement offers nothing else
        raise AssertionError(f"unhandled movement action {action}")


def step_hero(
    state: State, hero: Hero, to: Pos, *, cost: int = 1, rules: str = "C-TURN-03"
) -> None:
    """Move a hero one square, then spring traps, reveal, and check corpses."""
    assert hero.pos is not None
    before = hero.pos
    hero.pos = to
    hero.moved += cost
    hero.acted = True
    if hero.dragging is not None:
        corpse = state.corpses.pop(hero.dragging)
        state.corpses[before] = corpse
        hero.dragging = before
    state.emit("moved", [rules], actor=hero.id, to=[to.x, to.y])
    entered(state, hero, to)
    if hero.on_board:
        reveal.update_view(state)
    check_corpses(state)


@roll("jump")
def jump_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    """C-JUMP-01, Agile +1 (C-JUMP-02)."""
    hero = state.heroes[str(args["hero"])]
    over = Pos(*args["over"])  # type: ignore[misc]
    assert hero.pos is not None
    landing = hero.pos.beyond(over)
    modifiers = state.trait_bonus(hero, Trait.AGILE)
    rules = ["C-JUMP-01"] + (["C-JUMP-02"] if modifiers else [])
    outcome = JUMP.outcome(natural[0] + sum(modifiers.values()))
    state.emit_roll(rules, hero.id, natural, outcome, modifiers=modifiers, over=[over.x, over.y])
    if outcome == "success":
        hero.pos = landing
        hero.moved += 2
        state.emit("moved", ["C-JUMP-01"], actor=hero.id, to=[landing.x, landing.y], jump=True)
        entered(state, hero, landing)
        if hero.on_board:
            reveal.update_view(state)
    elif over in state.traps and over not in furniture_squares(state):
        # Over a trap: the hero lands on it, suffers it, and its turn ends there.
        hero.pos = over
        hero.moved += 1
        hero.done = True
        state.emit("moved", ["C-JUMP-01"], actor=hero.id, to=[over.x, over.y], jump=True)
        entered(state, hero, over)
        if hero.on_board:
            reveal.update_view(state)
    else:
        hero.done = True  # over an obstacle: movement ends on the take-off square
    check_corpses(state)


def leave(state: State, hero: Hero) -> None:
    """C-END-01: the hero leaves by an exit; a corpse it drags comes out too (C-DEATH-03)."""
    hero.left = True
    hero.done = True
    if hero.dragging is not None and hero.dragging in state.corpses:
        corpse = state.corpses.pop(hero.dragging)
        state.rescued.append(corpse.hero)
        hero.items.extend(corpse.items)
        state.emit("corpse.rescued", ["C-DEATH-03"], hero=hero.id, corpse=corpse.hero)
    hero.dragging = None
    state.emit("hero.left", ["C-END-01"], hero=hero.id)
    check_corpses(state)
    check_end(state)
