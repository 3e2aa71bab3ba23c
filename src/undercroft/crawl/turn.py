"""The general turn sequence: Turn Start, the step order, Turn End, Light, rest.

C-TURN-01 gives the five steps; the combat sequence (``combat``) slots in after the
Heroes' Movement and makes Explore and Trade skip themselves while monsters are on the
board.
"""

from __future__ import annotations

from typing import Final

from undercroft.core.dice import Band, D6Table
from undercroft.crawl.death import kill_hero
from undercroft.crawl.engine import Task, roll, task
from undercroft.crawl.figures import Hero
from undercroft.crawl.monsters import note_patrol_corridors
from undercroft.crawl.ruleset import Trait
from undercroft.crawl.state import State

# C-DD-01: 1-3 the hero dies, 4-6 it survives (Iron-Willed +1, C-DD-04).
DEATHS_DOOR: Final = D6Table("C-DD-01", (Band(1, 3, "dies"), Band(4, 6, "survives")))


@task("turn_start")
def turn_start(state: State, _: Task) -> None:
    """C-TURN-01, C-TURN-02: Turn Start, then the rest of the turn in order."""
    state.step = "turn_start"
    state.emit("turn.started", ["C-TURN-01"], light=state.light)
    # R-C-PATROL-01: the Patrol rolls open Turn Start (or close the turn before).
    patrols = [Task("patrols")] if state.options.patrol_roll_step == "turn_start" else []
    state.push(
        *patrols,
        Task("recovery"),
        Task("movement_start"),
        Task("combat"),
        Task("explore"),
        Task("trade"),
        Task("turn_end"),
    )


@task("recovery")
def recovery(state: State, _: Task) -> None:
    """C-TURN-02, C-REST-02: +1 Stamina, or +2 Stamina and +1 Magic (Learned +2) after rest."""
    for hero in state.active_heroes():
        profile = state.hero_profile(hero)
        stamina = 2 if hero.rested_last_turn else 1
        magic = 0
        if hero.rested_last_turn:
            magic = 2 if profile.has(Trait.LEARNED) else 1
        before = (hero.stamina, hero.magic)
        hero.stamina = min(profile.stamina, hero.stamina + stamina)
        hero.magic = min(profile.magic, hero.magic + magic)
        if hero.exhausted and hero.stamina >= profile.stamina:
            hero.exhausted = False  # C-EXH-01: only a full Stamina ends Exhaustion
        if (hero.stamina, hero.magic) != before or hero.rested_last_turn:
            rules = ["C-TURN-02"] + (["C-REST-02"] if hero.rested_last_turn else [])
            state.emit(
                "recovered",
                rules,
                hero=hero.id,
                stamina=hero.stamina,
                magic=hero.magic,
                rested=hero.rested_last_turn,
                exhausted=hero.exhausted,
            )


def spend_stamina(state: State, who: Hero, points: int, why: str) -> None:
    """Take Stamina; at 0 the hero is Exhausted until full again (C-EXH-01)."""
    who.stamina -= points
    if who.stamina <= 0:
        who.stamina = 0
        if not who.exhausted:
            who.exhausted = True
            state.emit("exhausted", ["C-EXH-01"], actor=who.id, reason=why)


@task("turn_end")
def turn_end(state: State, _: Task) -> None:
    """C-TURN-07: Death's Door rolls for heroes at 0 Health that did not rest, then Light."""
    state.step = "turn_end"
    tasks = []
    for hero in state.active_heroes():
        if not hero.at_deaths_door:
            continue
        if hero.resting:
            state.emit("deaths_door.skipped", ["C-DD-02", "C-REST-03"], hero=hero.id)
            continue
        tasks.append(Task("deaths_door", {"hero": hero.id, "reason": "turn_end"}))
    state.push(*tasks, Task("light"))


@task("deaths_door")
def deaths_door(state: State, t: Task) -> None:
    hero = state.heroes[t.args["hero"]]
    if hero.on_board and hero.at_deaths_door:
        state.ask_roll("deaths_door", hero=hero.id, reason=t.args["reason"])


@roll("deaths_door")
def deaths_door_roll(state: State, args: dict[str, object], natural: tuple[int, ...]) -> None:
    """C-DD-01 (C-DD-03 for the extra roll on damage), Iron-Willed +1 (C-DD-04)."""
    hero = state.heroes[str(args["hero"])]
    modifiers = state.trait_bonus(hero, Trait.IRON_WILLED)
    rules = ["C-DD-01"] + (["C-DD-04"] if modifiers else [])
    if args["reason"] == "damage":
        rules.append("C-DD-03")
    outcome = DEATHS_DOOR.outcome(natural[0] + sum(modifiers.values()))
    state.emit_roll(rules, hero.id, natural, outcome, modifiers=modifiers, reason=args["reason"])
    if outcome == "dies":
        kill_hero(state, hero)


@task("light")
def light(state: State, _: Task) -> None:
    """C-LIGHT-01: the Light drops by 1; then the next turn (or the turn cap)."""
    state.light = max(0, state.light - 1)
    state.emit("light.dropped", ["C-LIGHT-01", "C-TURN-07"], light=state.light)
    note_patrol_corridors(state)
    for hero in state.heroes.values():
        hero.rested_last_turn = hero.resting and hero.on_board
        hero.resting = False
        hero.acted = False
        hero.failed_doors.clear()
        hero.failed_disarms.clear()
        if state.turn >= hero.surprise_ends or not state.in_combat():
            hero.surprised = False  # R-C-SURP-01: surprise lasts one combat turn
        hero.exploring = None
        hero.identified = hero.memorized = False
        hero.gave = hero.received = False
        for spell in list(hero.ongoing):
            hero.ongoing[spell] -= 1
            if hero.ongoing[spell] <= 0:
                del hero.ongoing[spell]
    for monster in state.monsters.values():
        if state.turn >= monster.surprise_ends:
            monster.surprised = False
        monster.moved = False
    if state.turn >= state.options.max_turns:
        state.finish("turn_cap")
        return
    if state.options.patrol_roll_step == "turn_end":
        state.push(Task("patrols"), Task("next_turn"))  # R-C-PATROL-01, other reading
    else:
        state.push(Task("next_turn"))


@task("next_turn")
def next_turn(state: State, _: Task) -> None:
    state.turn += 1
    state.push(Task("turn_start"))
