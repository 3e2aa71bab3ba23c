"""Traps (C-TRAP-*): springing, detecting, disarming."""

from __future__ import annotations

from typing import Final

from undercroft.core.dice import Band, D6Table
from undercroft.core.grid import Pos
from undercroft.crawl.actions import Action, Disarm
from undercroft.crawl.distance import in_range
from undercroft.crawl.engine import Task, roll, task
from undercroft.crawl.figures import Hero
from undercroft.crawl.state import State

# C-TRAP-02: a Detect Traps roll called for by text: 1-3 fail, 4-6 success.
DETECT_BY_TEXT = D6Table("C-TRAP-02", (Band(1, 3, "fail"), Band(4, 6, "success")))
# C-TRAP-03: 1 sprung, 2-3 failed, 4-6 disarmed (no Perceptive bonus, C-TRAP-04).
DISARM: Final = D6Table(
    "C-TRAP-03", (Band(1, 1, "sprung"), Band(2, 3, "failed"), Band(4, 6, "disarmed"))
)


def entered(state: State, hero: Hero, at: Pos) -> None:
    """C-TRAP-06: entering an armed trapped square springs it; a hero may walk onto a
    trap it has detected, and springs it too (ruling R-C-TRAP-02)."""
    trap = state.traps.get(at)
    if trap is not None and trap.armed:
        spring(
            state, at, hero.id, ("C-TRAP-06", "R-C-TRAP-02") if trap.detected else ("C-TRAP-06",)
        )


def spring(state: State, at: Pos, victim: str, rules: tuple[str, ...] = ("C-TRAP-06",)) -> None:
    """The trap at ``at`` goes off on ``victim``; once sprung it is spent (R-C-TRAP-02)."""
    trap = state.traps[at]
    kind = state.ruleset.traps[trap.kind]
    trap.sprung = True
    state.emit(
        "trap.sprung",
        list(rules),
        trap=trap.kind,
        at=[at.x, at.y],
        victim=victim,
        detected=trap.detected,
    )
    hero = state.heroes.get(victim)
    if hero is not None and kind.ends_movement:
        hero.done = True
    state.push(
        Task(
            "effects",
            {
                "effects": [e.model_dump() for e in kind.effects],
                "source": f"trap:{at.x},{at.y}",
                "target": victim,
                "hero": victim,
            },
        )
    )


def disarm_actions(state: State, hero: Hero) -> list[Action]:
    """C-TRAP-03: next to a detected, armed trap, not during combat; a hero that failed
    may not try that trap again this turn, others may (ruling R-C-TRAP-03)."""
    if state.in_combat():
        return []
    assert hero.pos is not None
    return [
        Disarm(hero.id, p)
        for p in state.grid.neighbours(hero.pos)
        if p in state.traps
        and state.traps[p].detected
        and state.traps[p].armed
        and p not in hero.failed_disarms
    ]


@task("disarm_roll")
def disarm_roll_task(state: State, t: Task) -> None:
    state.ask_roll("disarm", hero=t.args["hero"], trap=t.args["trap"])


@roll("disarm")
def disarm_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    hero = state.heroes[str(args["hero"])]
    at = Pos(*args["trap"])  # type: ignore[misc]
    outcome = DISARM.outcome(natural[0])
    state.emit_roll(["C-TRAP-03"], hero.id, natural, outcome, trap=[at.x, at.y])
    if outcome == "disarmed":
        state.traps[at].disarmed = True
    elif outcome == "failed":
        hero.failed_disarms.append(at)
    else:
        spring(state, at, hero.id, ("C-TRAP-03",))  # 1: the hero springs it and suffers it


@task("detect_traps")
def detect_traps_task(state: State, t: Task) -> None:
    hero = state.heroes[t.args["hero"]]
    if hero.on_board:
        state.ask_roll("detect_traps", hero=hero.id)


@roll("detect_traps")
def detect_traps_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    """C-TRAP-01: the hero detects every trap within the rolled number of squares
    (walking distance, R-CORE-DIST-01) that it can see. Heroes learn only whether
    something was found; the roll event is for the DM's eyes (the observer hides it)."""
    hero = state.heroes[str(args["hero"])]
    modifiers = state.perception_modifiers(hero)
    radius = max(0, natural[0] + sum(modifiers.values()))
    rules = ["C-TRAP-01"] + (
        ["C-TRAP-04"] if "Perceptive" in modifiers or "light" in modifiers else []
    )
    if "light" in modifiers:
        rules.append("C-LIGHT-02")
    state.emit_roll(rules, hero.id, natural, radius, modifiers=modifiers, hidden=True)
    found = detect_within(state, hero, radius)
    state.emit(
        "traps.detected",
        ["C-TRAP-01"],
        hero=hero.id,
        found=bool(found),
        squares=[[p.x, p.y] for p in found],
    )


def detect_within(state: State, hero: Hero, radius: int) -> list[Pos]:
    """Detect every armed, undetected trap within ``radius`` squares (C-DIST-01,
    R-CORE-DIST-01) that the hero can see (C-LOS-01): both must hold."""
    assert hero.pos is not None
    hidden = [at for at, t in sorted(state.traps.items()) if t.armed and not t.detected]
    if not hidden:
        return []
    fov = state.sight.fov(hero.pos)
    found = in_range(state, hero.pos, [at for at in hidden if fov[at.y, at.x]], radius)
    for at in found:
        state.traps[at].detected = True
    return found
