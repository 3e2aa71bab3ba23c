"""The combat sequence (C-CMB-*), fights (C-FIGHT-*) and Death's Door on damage (C-DD-03).

Fights are resolved one by one in board order; each side declares its Stamina, then
both roll 2d6; damage waits until every fight is resolved and is then dealt all at once.
"""

from __future__ import annotations

from typing import Any, Final

from undercroft.core.events import fight_event
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    DONE,
    FIGHT_STAMINA,
    Action,
    CastingChoice,
    Done,
    Evade,
    FightStamina,
)
from undercroft.crawl.damage import hurt_hero, hurt_monster
from undercroft.crawl.engine import Pending, Seat, Task, decision, listed, roll, task
from undercroft.crawl.figures import Hero, Monster
from undercroft.crawl.movement import step_hero
from undercroft.crawl.ruleset import Trait
from undercroft.crawl.spells import casting_fields
from undercroft.crawl.state import State
from undercroft.crawl.turn import spend_stamina

MAX_FIGHT_STAMINA: Final = 3
EVADE_COST: Final = 2  # C-CMB-01 step 3: 2 Stamina per square


@task("combat")
def combat(state: State, _: Task) -> None:
    """C-CMB-01: with monsters on the board, the five combat sub-steps follow movement."""
    if not state.in_combat():
        return
    state.emit("combat.turn", ["C-CMB-01"], monsters=sorted(state.monsters))
    state.push(
        Task("spell_selection"),
        Task("monster_movement"),
        Task("evasion"),
        Task("fighting"),
        Task("casting"),
        Task("combat_end"),
    )


@task("combat_end")
def combat_end(state: State, _: Task) -> None:
    """C-CMB-02: monsters left means on to Turn End; none means Explore follows."""
    state.emit("combat.step_over", ["C-CMB-02"], monsters_left=len(state.monsters))


# -- Evasion (C-CMB-01 step 3) -----------------------------------------------------------


def can_evade(hero: Hero) -> bool:
    """Not surprised (C-SURP-01), not resting (C-REST-01: a resting hero does not move),
    not Exhausted (C-EXH-01), 2 Stamina to pay."""
    return (
        hero.on_board
        and not hero.surprised
        and not hero.resting
        and not hero.exhausted
        and hero.stamina >= EVADE_COST
    )


@task("evasion")
def evasion(state: State, _: Task) -> None:
    state.step = "evasion"
    if state.in_combat() and any(can_evade(h) for h in state.active_heroes()):
        state.ask(Seat.HEROES, "evasion")


def legal_evasion(state: State, _: Pending) -> list[Action]:
    actions: list[Action] = []
    occupied = state.occupied()
    for hero in state.active_heroes():
        actions.extend(evasions(state, hero, occupied))
    actions.append(DONE)
    return actions


def evasions(state: State, hero: Hero, occupied: set[Pos]) -> list[Action]:
    """C-CMB-01 step 3: a hero who can evade steps to a free square next to it."""
    if not can_evade(hero):
        return []
    assert hero.pos is not None
    return [
        Evade(hero.id, to)
        for to in state.grid.neighbours(hero.pos)
        if state.walkable(to) and to not in occupied
    ]


def evasion_options(state: State, kind: type[Action], actor: str) -> list[Action] | None:
    """:func:`legal_evasion`'s actions of one kind for one hero (``None``: a kind that
    names no hero)."""
    if kind is not Evade:
        return None
    hero = state.heroes.get(actor)
    return [] if hero is None else evasions(state, hero, state.occupied())


def evasion_is_legal(state: State, _: Pending, action: Action) -> bool:
    """Done, or one of the hero's :func:`evasions`, without listing every hero's (the
    party says Done to most evasion steps)."""
    return type(action) is Done or listed(evasion_options, state, action)


@decision("evasion", legal_evasion, check=evasion_is_legal, options=evasion_options)
def on_evasion(state: State, _: Pending, action: Action) -> None:
    if isinstance(action, Done):
        return
    assert isinstance(action, Evade)
    state.push(Task("evasion"))
    hero = state.heroes[action.hero]
    spend_stamina(state, hero, EVADE_COST, "evasion")
    if hero.casting is not None:
        # C-CMB-01 step 3, C-SPELL-07: evading while casting loses the spell.
        state.emit("spell.lost", ["C-SPELL-07", "C-CMB-01"], hero=hero.id, **casting_fields(hero))
        hero.casting = None
    step_hero(state, hero, action.to, cost=0, rules="C-CMB-01")


# -- Fighting (C-CMB-01 step 4, C-FIGHT-*) ---------------------------------------------


def fight_pairs(state: State) -> list[tuple[Hero, Monster]]:
    """C-FIGHT-01: every hero-monster pair on orthogonally adjacent squares, in board
    order (C-FIGHT-03, R-C-FIGHT-01): by the monster's square row by row from the DM's
    edge, then column; fights sharing a monster by the hero's square."""
    pairs = []
    for monster in state.monsters.values():
        for hero in state.active_heroes():
            if hero.pos is not None and hero.pos.is_adjacent(monster.pos):
                pairs.append((hero, monster))

    def by_monster(pair: tuple[Hero, Monster]) -> tuple[int, int, int, int]:
        h, m = pair
        assert h.pos is not None
        return (m.pos.y, m.pos.x, h.pos.y, h.pos.x)

    def by_hero(pair: tuple[Hero, Monster]) -> tuple[int, int, int, int]:
        h, m = pair
        assert h.pos is not None
        return (h.pos.y, h.pos.x, m.pos.y, m.pos.x)

    key = by_monster if state.options.fight_order == "monster_square" else by_hero
    return sorted(pairs, key=key)


def enemies_modifier(count: int) -> int:
    """C-FIGHT-02: -1 in 2 fights, -2 in 3, -3 in 4."""
    return -min(3, max(0, count - 1))


@task("fighting")
def fighting(state: State, _: Task) -> None:
    state.step = "fighting"
    pairs = fight_pairs(state)
    if not pairs:
        return
    counts: dict[str, int] = {}
    for hero, monster in pairs:
        counts[hero.id] = counts.get(hero.id, 0) + 1
        counts[monster.id] = counts.get(monster.id, 0) + 1
    state.fights = []
    for hero, monster in pairs:
        if hero.resting:
            hero.resting = False  # ruling R-C-REST-01: a fight breaks a rest
            state.emit("rest.broken", ["C-REST-01"], hero=hero.id)
        state.fights.append(
            {
                "hero": hero.id,
                "monster": monster.id,
                "hero_modifiers": hero_modifiers(state, hero, counts[hero.id]),
                "monster_modifiers": {"enemies": enemies_modifier(counts[monster.id])}
                if counts[monster.id] > 1
                else {},
            }
        )
    tasks = []
    chosen: set[str] = set()
    for index, record in enumerate(state.fights):
        # C-SPELL-06, R-C-FIGHT-01: a caster makes its choice when its first fight comes
        # up in board order, knowing how the fights before it went.
        hero_id = record["hero"]
        if hero_id not in chosen and state.heroes[hero_id].casting is not None:
            chosen.add(hero_id)
            tasks.append(Task("casting_choice", {"hero": hero_id}))
        tasks.append(Task("fight", {"index": index}))
    tasks.append(Task("damage"))
    state.push(*tasks)


def hero_modifiers(state: State, hero: Hero, fights: int) -> dict[str, int]:
    """C-FIGHT-02 enemies, surprise -1 (C-SURP-01), Light 0 -1 (C-LIGHT-02), items."""
    modifiers: dict[str, int] = {}
    if fights > 1:
        modifiers["enemies"] = enemies_modifier(fights)
    if hero.surprised:
        modifiers["surprised"] = -1
    if state.light_penalty():
        modifiers["light"] = state.light_penalty()
    bonus = sum(
        state.ruleset.items[state.items[i].card].fighting_bonus
        for i in hero.items
        if state.items[i].identified
    )
    if bonus:
        modifiers["items"] = bonus
    return modifiers


@task("casting_choice")
def casting_choice_task(state: State, t: Task) -> None:
    if state.heroes[t.args["hero"]].casting is not None:
        state.ask(Seat.HEROES, "casting_choice", hero=t.args["hero"])


def legal_casting_choice(state: State, pending: Pending) -> list[Action]:
    return [CastingChoice(pending.args["hero"], False), CastingChoice(pending.args["hero"], True)]


@decision("casting_choice", legal_casting_choice)
def on_casting_choice(state: State, pending: Pending, action: Action) -> None:
    """C-SPELL-06: let the spell fail, or count as rolling double ones in every fight."""
    assert isinstance(action, CastingChoice)
    hero = state.heroes[action.hero]
    assert hero.casting is not None
    if action.double_ones:
        hero.casting["double_ones"] = True
        state.emit("casting.kept", ["C-SPELL-06"], hero=hero.id, **casting_fields(hero))
    else:
        state.emit("spell.failed", ["C-SPELL-06"], hero=hero.id, **casting_fields(hero))
        hero.casting = None


def can_spend(who: Hero | Monster) -> int:
    """The most Stamina this combatant may spend on one fight (C-FIGHT-04, C-EXH-01)."""
    return 0 if who.exhausted else min(MAX_FIGHT_STAMINA, who.stamina)


@task("fight")
def fight(state: State, t: Task) -> None:
    index = t.args["index"]
    record = state.fights[index]
    hero = state.heroes[record["hero"]]
    monster = state.monsters.get(record["monster"])
    if monster is None or not hero.on_board:
        record["skipped"] = True
        return
    order = ["dm", "heroes"] if state.options.stamina_declared_first == "dm" else ["heroes", "dm"]
    state.push(
        *(Task("fight_stamina", {"index": index, "side": side}) for side in order),
        Task("fight_roll", {"index": index, "side": "hero"}),
        Task("fight_roll", {"index": index, "side": "monster"}),
        Task("fight_result", {"index": index}),
    )


@task("fight_stamina")
def fight_stamina_task(state: State, t: Task) -> None:
    record = state.fights[t.args["index"]]
    who: Hero | Monster = (
        state.heroes[record["hero"]]
        if t.args["side"] == "heroes"
        else state.monsters[record["monster"]]
    )
    key = "hero_stamina" if t.args["side"] == "heroes" else "monster_stamina"
    record[key] = 0
    if can_spend(who):
        seat = Seat.HEROES if t.args["side"] == "heroes" else Seat.DM
        state.ask(seat, "fight_stamina", index=t.args["index"], side=t.args["side"])


def legal_fight_stamina(state: State, pending: Pending) -> list[Action]:
    record = state.fights[pending.args["index"]]
    who: Hero | Monster = (
        state.heroes[record["hero"]]
        if pending.args["side"] == "heroes"
        else state.monsters[record["monster"]]
    )
    return list(FIGHT_STAMINA[: can_spend(who) + 1])  # can_spend: at most 3


@decision("fight_stamina", legal_fight_stamina)
def on_fight_stamina(state: State, pending: Pending, action: Action) -> None:
    assert isinstance(action, FightStamina)
    record = state.fights[pending.args["index"]]
    if pending.args["side"] == "heroes":
        hero = state.heroes[record["hero"]]
        record["hero_stamina"] = action.points
        if action.points:
            spend_stamina(state, hero, action.points, "fight")
    else:
        monster = state.monsters[record["monster"]]
        record["monster_stamina"] = action.points
        if action.points:
            monster.stamina -= action.points
            if monster.stamina <= 0:
                monster.stamina = 0
                monster.exhausted = True


@task("fight_roll")
def fight_roll_task(state: State, t: Task) -> None:
    record = state.fights[t.args["index"]]
    if t.args["side"] == "hero":
        hero = state.heroes[record["hero"]]
        if hero.casting is not None and hero.casting.get("double_ones"):
            record["hero_dice"] = [1, 1]  # C-SPELL-06: counts as double ones
            record["casting"] = True
            return
    state.ask_roll("fight", 2, index=t.args["index"], side=t.args["side"])


@roll("fight")
def fight_roll(state: State, args: dict[str, Any], natural: tuple[int, ...]) -> None:
    state.fights[args["index"]][f"{args['side']}_dice"] = list(natural)


@task("fight_result")
def fight_result(state: State, t: Task) -> None:
    """C-FIGHT-04: 2d6 + modified score + Stamina; higher wins; a Strong hero wins ties."""
    record = state.fights[t.args["index"]]
    hero = state.heroes[record["hero"]]
    monster = state.monsters[record["monster"]]
    hero_score = state.hero_profile(hero).fighting + sum(record["hero_modifiers"].values())
    monster_score = state.ruleset.monster(monster.kind).fighting + sum(
        record["monster_modifiers"].values()
    )
    hero_total = hero_score + sum(record["hero_dice"]) + record["hero_stamina"]
    monster_total = monster_score + sum(record["monster_dice"]) + record["monster_stamina"]
    rules = ["C-FIGHT-04"]
    if record["hero_modifiers"].get("enemies") or record["monster_modifiers"].get("enemies"):
        rules.append("C-FIGHT-02")
    winner: str | None
    if hero_total > monster_total:
        winner = "hero"
    elif monster_total > hero_total:
        winner = "monster"
    elif state.has_trait(hero, Trait.STRONG):
        winner = "hero"
        rules.append("C-SETUP-05")
    else:
        winner = None
    if record.get("casting"):
        rules.append("C-SPELL-06")
    record["winner"] = winner
    if not state.sink.enabled:
        return  # the log is off: no event is built
    state.emit_event(
        fight_event(
            rules=rules,
            hero=hero.id,
            monster=monster.id,
            hero_score=hero_score,
            monster_score=monster_score,
            hero_modifiers=record["hero_modifiers"],
            monster_modifiers=record["monster_modifiers"],
            hero_dice=(record["hero_dice"][0], record["hero_dice"][1]),
            monster_dice=(record["monster_dice"][0], record["monster_dice"][1]),
            hero_stamina=record["hero_stamina"],
            monster_stamina=record["monster_stamina"],
            winner=winner,  # type: ignore[arg-type]
            casting=bool(record.get("casting")),
        )
    )


@task("damage")
def damage(state: State, _: Task) -> None:
    """C-FIGHT-05: all fight damage at once; C-FIGHT-06 slain monsters and Death's Door;
    C-DD-03 an extra Death's Door roll for each blow to a hero already at 0."""
    to_monsters: dict[str, list[tuple[str, int]]] = {}
    to_heroes: dict[str, list[tuple[str, int]]] = {}
    for record in state.fights:
        if record.get("skipped") or record.get("winner") is None:
            continue
        if record["winner"] == "hero":
            dealt = state.hero_profile(state.heroes[record["hero"]]).damage
            to_monsters.setdefault(record["monster"], []).append((record["hero"], dealt))
        else:
            kind = state.monsters[record["monster"]].kind
            dealt = state.ruleset.monster(kind).damage
            to_heroes.setdefault(record["hero"], []).append((record["monster"], dealt))
    state.fights = []
    for mid, blows in to_monsters.items():
        hurt_monster(state, state.monsters[mid], blows, ["C-FIGHT-05"])
    rolls: list[Task] = []
    for hid, blows in to_heroes.items():
        rolls.extend(hurt_hero(state, state.heroes[hid], blows, ["C-FIGHT-05"]))
    state.push(*rolls)
