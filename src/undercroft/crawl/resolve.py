"""Applying effects (:mod:`undercroft.crawl.effects`) to the game.

A ``Task("effects", {...})`` carries a list of effects (as JSON) and its context:
``source`` (what caused them), ``hero`` (the hero concerned: caster, user, explorer),
``target`` (a chosen target id), ``area`` (for room texts) and ``rules`` (the rule IDs to
cite). Effects apply in order; one that needs a roll or a choice stops the list until it
is settled.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import TypeAdapter

from undercroft.core.grid import DoorState, Pos, Terrain
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Action, ChooseOption, MentalSpend, TakeItem
from undercroft.crawl.damage import hurt_hero, hurt_monster
from undercroft.crawl.engine import Pending, Seat, Task, decision, roll, task
from undercroft.crawl.figures import Door, Hero
from undercroft.crawl.reveal import free_square_near, place_monsters, spawn, start_encounter
from undercroft.crawl.ruleset import Encounter, Trait
from undercroft.crawl.state import State
from undercroft.crawl.traps import DETECT_BY_TEXT, detect_within

# C-MENT-01: each side rolls a d6; higher wins; the effect says what a tie does.
MAX_MENTAL_MAGIC: Final = 3


_ADAPTERS: Final[list[TypeAdapter[Any]]] = []
"""The effects' validator, made on first use (a list rather than ``functools.cache``:
compiled, a call through the cache costs more than the read)."""


def _adapter() -> TypeAdapter[Any]:
    if not _ADAPTERS:
        _ADAPTERS.append(TypeAdapter(fx.AnyEffect))
    return _ADAPTERS[0]


def parse(data: dict[str, Any]) -> fx.Effect:
    effect: fx.Effect = _adapter().validate_python(data)
    return effect


def effects_task(todo: tuple[fx.Effect, ...] | list[fx.Effect], /, **context: Any) -> Task:
    """A task applying the effects ``todo`` with ``context`` (the effects of the task the
    context came from dropped). (The list is not named ``effects``, which the context
    may hold: compiled code cannot take a keyword named like a positional parameter.)"""
    kept = {k: v for k, v in context.items() if k not in ("effects", "effect")}
    return Task("effects", {**kept, "effects": [e.model_dump() for e in todo]})


def affected_heroes(state: State, who: str, args: dict[str, Any]) -> list[Hero]:
    """The heroes an effect's ``who`` names (see :mod:`undercroft.crawl.effects`)."""
    if who in ("target", "self"):
        key = "target" if who == "target" and args.get("target") else "hero"
        hero = state.heroes.get(str(args.get(key)))
        return [hero] if hero is not None and hero.on_board else []
    if who == "party":
        return state.active_heroes()
    area = args.get("area")
    here = state.heroes_in_area(area) if area else state.active_heroes()
    if who == "explorers":
        return [h for h in here if h.exploring]
    return here


@task("effects")
def run_effects(state: State, t: Task) -> None:
    items = list(t.args["effects"])
    if not items:
        return
    first, rest = parse(items[0]), items[1:]
    if rest:
        state.push(Task("effects", {**t.args, "effects": rest}))
    apply_effect(state, first, t.args)


def apply_effect(state: State, effect: fx.Effect, args: dict[str, Any]) -> None:
    rules = list(args.get("rules", []))
    if isinstance(effect, fx.Damage):
        target_id = str(args.get("target"))
        if effect.who == "target" and target_id in state.monsters:
            hurt_monster(
                state, state.monsters[target_id], [(str(args.get("source")), effect.amount)], rules
            )
            return
        rolls: list[Task] = []
        for hero in affected_heroes(state, effect.who, args):
            rolls.extend(hurt_hero(state, hero, [(str(args.get("source")), effect.amount)], rules))
        state.push(*rolls)
    elif isinstance(effect, fx.SlayMonster):
        monster = state.monsters.get(str(args.get("target")))
        if monster is not None:
            hurt_monster(
                state,
                monster,
                [(str(args.get("hero") or args.get("source")), effect.amount)],
                rules,
            )
    elif isinstance(effect, fx.Heal | fx.RestoreStamina | fx.RestoreMagic):
        for hero in affected_heroes(state, effect.who, args):
            restore(state, hero, effect, rules)
    elif isinstance(effect, fx.ChangeLight):
        state.light = max(0, min(state.options.max_light, state.light + effect.amount))
        state.emit("light.changed", ["C-LIGHT-01", *rules], light=state.light, by=effect.amount)
    elif isinstance(effect, fx.GiveItem):
        give_item(state, effect.item, args)
    elif isinstance(effect, fx.Spawn):
        spawn_ambushers(state, effect)
    elif isinstance(effect, fx.DetectTrapsRoll):
        heroes = affected_heroes(state, "self", args) or affected_heroes(state, "explorers", args)
        state.push(
            *(
                Task("text_detect", {**args, "hero": hero.id, "effect": effect.model_dump()})
                for hero in heroes
            )
        )
    elif isinstance(effect, fx.TraitTest):
        trait_test(state, effect, args)
    elif isinstance(effect, fx.MentalCombat):
        who = "target" if args.get("target") in state.heroes else "self"
        state.push(
            *(
                Task("mental", {**args, "hero": hero.id, "effect": effect.model_dump()})
                for hero in affected_heroes(state, who, args)
            )
        )
    elif isinstance(effect, fx.RevealSecret):
        reveal_secret(state, effect)
    elif isinstance(effect, fx.OpenExit):
        squares = [Pos(x, y) for x, y in effect.at]
        state.exits.update(squares)
        state.emit("exit.opened", ["C-END-01"], at=[[p.x, p.y] for p in squares])
    elif isinstance(effect, fx.DetectTraps):
        for hero in affected_heroes(state, "self", args):
            found = detect_within(state, hero, effect.radius)
            state.emit(
                "traps.detected",
                ["C-TRAP-01", *rules],
                hero=hero.id,
                found=bool(found),
                squares=[[p.x, p.y] for p in found],
            )
    elif isinstance(effect, fx.Goal):
        state.goals_met.add(effect.goal)
        state.emit("goal.met", ["C-END-01"], goal=effect.goal)
    elif isinstance(effect, fx.Choice):
        state.ask(
            Seat.HEROES, "choice", context=args, options=[o.model_dump() for o in effect.options]
        )


def restore(
    state: State,
    hero: Hero,
    effect: fx.Heal | fx.RestoreStamina | fx.RestoreMagic,
    rules: list[str],
) -> None:
    profile = state.hero_profile(hero)
    if isinstance(effect, fx.Heal):
        hero.health = min(profile.health, hero.health + effect.amount)
        state.emit("healed", rules, hero=hero.id, health=hero.health)
    elif isinstance(effect, fx.RestoreStamina):
        hero.stamina = min(profile.stamina, hero.stamina + effect.amount)
        if hero.stamina >= profile.stamina:
            hero.exhausted = False  # C-EXH-01
        state.emit("stamina.restored", rules, hero=hero.id, stamina=hero.stamina)
    else:
        hero.magic = min(profile.magic, hero.magic + effect.amount)
        state.emit("magic.restored", ["C-SPELL-05", *rules], hero=hero.id, magic=hero.magic)


def give_item(state: State, card: str, args: dict[str, Any]) -> None:
    """C-EXPL-01: an item a room text gives, without saying who takes it, goes to a hero
    who explored that area, of the party's choosing; if nobody explored there, nobody
    takes it (R-C-EXPL-01), not even a hero who stayed put or rested. An item given
    any other way (by a spell or an item) goes to the hero concerned."""
    who = "explorers" if args.get("area") else "self"
    takers = [h.id for h in affected_heroes(state, who, args)]
    if not takers:
        state.emit(
            "item.unclaimed",
            ["C-EXPL-01", "R-C-EXPL-01"],
            area=args.get("area"),
            card=card,
            blind=state.ruleset.items[card].kind.face_down,
        )
        return
    uid = state.new_item(card)
    if len(takers) == 1:
        hand_over(state, state.heroes[takers[0]], uid)
    else:
        state.ask(Seat.HEROES, "take_item", item=uid, takers=takers)


def hand_over(state: State, hero: Hero, uid: str) -> None:
    hero.items.append(uid)
    item = state.items[uid]
    state.emit(
        "item.found",
        ["C-EXPL-01"],
        hero=hero.id,
        item=uid,
        card=item.card,
        identified=item.identified,
    )


def legal_take_item(state: State, pending: Pending) -> list[Action]:
    return [TakeItem(h) for h in pending.args["takers"]]


@decision("take_item", legal_take_item)
def on_take_item(state: State, pending: Pending, action: Action) -> None:
    assert isinstance(action, TakeItem)
    hand_over(state, state.heroes[action.hero], pending.args["item"])


def legal_choice(state: State, pending: Pending) -> list[Action]:
    return [ChooseOption(i) for i in range(len(pending.args["options"]))]


@decision("choice", legal_choice)
def on_choice(state: State, pending: Pending, action: Action) -> None:
    assert isinstance(action, ChooseOption)
    option = pending.args["options"][action.index]
    state.emit("choice.made", ["C-EXPL-01"], label=option["label"])
    state.push(Task("effects", {**pending.args["context"], "effects": option["effects"]}))


def spawn_ambushers(state: State, effect: fx.Spawn) -> None:
    """C-MON-04: monsters placed by text or events arrive as Ambushers (C-SURP-04)."""
    placed = []
    for kind, (x, y) in zip(effect.monsters, effect.at, strict=False):
        at: Pos | None = Pos(x, y)
        if not state.free(Pos(x, y)):
            at = free_square_near(state, Pos(x, y))  # R-C-MON-05
        if at is None:
            continue
        placed.append(spawn(state, kind, at, Encounter.AMBUSHER).id)
    if placed:
        start_encounter(state, placed, ambush=True)


def reveal_secret(state: State, effect: fx.RevealSecret) -> None:
    """C-EXPL-01: a text shows a secret area and its doors (once: a second hero who finds
    it too finds nothing new)."""
    if effect.area in state.revealed:
        return
    for x, y in effect.doors:
        p = Pos(x, y)
        state.grid.set_terrain(p, Terrain.DOOR, DoorState.OPEN)
        state.opened_squares.append(p)
        state.doors[p] = Door(opened=True)
    state.revealed.add(effect.area)
    state.emit(
        "secret.revealed", ["C-EXPL-01"], area=effect.area, doors=[list(d) for d in effect.doors]
    )
    placed = place_monsters(state)
    if placed:
        start_encounter(state, placed, ambush=False)


# -- tests of traits and detection called for by text ------------------------------------

TRAIT_TEST_RULES: Final = ["C-EXPL-01"]


def trait_test(state: State, effect: fx.TraitTest, args: dict[str, Any]) -> None:
    """C-EXPL-01: each hero ``who`` names is tested on its own roll."""
    heroes = affected_heroes(state, effect.who, args) or affected_heroes(state, "explorers", args)
    tasks = []  # one after the other, in party order
    for hero in heroes:
        if effect.target == 0:
            passed = state.has_trait(hero, Trait(effect.trait))
            state.emit(
                "trait.tested", TRAIT_TEST_RULES, hero=hero.id, trait=effect.trait, passed=passed
            )
            branch = effect.on_pass if passed else effect.on_fail
            tasks.append(effects_task(branch, **{**args, "hero": hero.id}))
        else:
            tasks.append(
                Task("trait_roll", {**args, "hero": hero.id, "effect": effect.model_dump()})
            )
    state.push(*tasks)


@task("trait_roll")
def trait_roll_task(state: State, t: Task) -> None:
    state.ask_roll("trait_test", context=t.args)


@roll("trait_test")
def trait_test_roll(state: State, args: dict[str, Any], natural: tuple[int, ...]) -> None:
    context = args["context"]
    effect = parse(context["effect"])
    assert isinstance(effect, fx.TraitTest)
    hero = state.heroes[context["hero"]]
    modifiers = state.trait_bonus(hero, Trait(effect.trait))
    total = natural[0] + sum(modifiers.values())
    passed = total >= effect.target
    state.emit_roll(
        TRAIT_TEST_RULES,
        hero.id,
        natural,
        "pass" if passed else "fail",
        modifiers=modifiers,
        target=effect.target,
        trait=effect.trait,
    )
    rest = {k: v for k, v in context.items() if k != "effect"}
    state.push(effects_task(effect.on_pass if passed else effect.on_fail, **rest))


@task("text_detect")
def text_detect_task(state: State, t: Task) -> None:
    state.ask_roll("text_detect", context=t.args)


@roll("text_detect")
def text_detect_roll(state: State, args: dict[str, Any], natural: tuple[int, ...]) -> None:
    """C-TRAP-02: 1-3 fails, 4-6 succeeds (Perceptive and Light apply, C-TRAP-04)."""

    context = args["context"]
    effect = parse(context["effect"])
    assert isinstance(effect, fx.DetectTrapsRoll)
    hero = state.heroes[context["hero"]]
    modifiers = state.perception_modifiers(hero)
    outcome = DETECT_BY_TEXT.outcome(natural[0] + sum(modifiers.values()))
    state.emit_roll(["C-TRAP-02"], hero.id, natural, outcome, modifiers=modifiers)
    rest = {k: v for k, v in context.items() if k != "effect"}
    branch = effect.on_success if outcome == "success" else effect.on_fail
    state.push(effects_task(branch, **rest))


# -- Mental Combat (C-MENT-*) --------------------------------------------------------------


@task("mental")
def mental(state: State, t: Task) -> None:
    """C-MENT-02: the aggressor declares its Magic first, then the defender."""
    hero = state.heroes[t.args["hero"]]
    if not hero.on_board:
        return
    aggressor = "hero" if t.args.get("source") == hero.id else "other"
    order = ["hero", "other"] if aggressor == "hero" else ["other", "hero"]
    state.push(
        *(Task("mental_spend", {**t.args, "side": side}) for side in order),
        Task("mental_roll", t.args),
    )


def _opponent_magic(state: State, args: dict[str, Any]) -> int:
    monster = state.monsters.get(str(args.get("source"))) or state.monsters.get(
        str(args.get("target"))
    )
    return 0 if monster is None else monster.magic


@task("mental_spend")
def mental_spend_task(state: State, t: Task) -> None:
    hero = state.heroes[t.args["hero"]]
    key = "spent_" + t.args["side"]
    t.args[key] = 0
    if t.args["side"] == "hero":
        if hero.magic > 0:
            state.ask(Seat.HEROES, "mental_spend", context=t.args)
    elif _opponent_magic(state, t.args) > 0:
        state.ask(Seat.DM, "mental_spend", context=t.args)


def legal_mental_spend(state: State, pending: Pending) -> list[Action]:
    context = pending.args["context"]
    if context["side"] == "hero":
        most = state.heroes[context["hero"]].magic
    else:
        most = _opponent_magic(state, context)
    return [MentalSpend(p) for p in range(min(MAX_MENTAL_MAGIC, most) + 1)]


@decision("mental_spend", legal_mental_spend)
def on_mental_spend(state: State, pending: Pending, action: Action) -> None:
    assert isinstance(action, MentalSpend)
    context = pending.args["context"]
    if context["side"] == "hero":
        state.heroes[context["hero"]].magic -= action.points
    else:
        monster = state.monsters.get(str(context.get("source"))) or state.monsters.get(
            str(context.get("target"))
        )
        if monster is not None:
            monster.magic -= action.points
    # The spend is remembered on the roll task still waiting on the stack.
    for queued in reversed(state.stack):
        if queued.kind == "mental_roll":
            queued.args["spent_" + context["side"]] = action.points
            break


@task("mental_roll")
def mental_roll_task(state: State, t: Task) -> None:
    state.ask_roll("mental", 2, context=t.args)


@roll("mental")
def mental_roll(state: State, args: dict[str, Any], natural: tuple[int, ...]) -> None:
    """C-MENT-01: hero die first, opponent second; Iron-Willed +1 (C-MENT-03)."""
    context = args["context"]
    effect = parse(context["effect"])
    assert isinstance(effect, fx.MentalCombat)
    hero = state.heroes[context["hero"]]
    hero_mods: dict[str, int] = {}
    other_mods: dict[str, int] = {}
    # The effect's power belongs to its source: the monster or room that calls for the
    # Mental Combat, or the hero when its own spell does.
    if effect.power:
        (hero_mods if context.get("source") == hero.id else other_mods)["power"] = effect.power
    if context.get("spent_hero"):
        hero_mods["magic"] = context["spent_hero"]
    if state.has_trait(hero, Trait.IRON_WILLED):
        hero_mods["Iron-Willed"] = 1
    if context.get("spent_other"):
        other_mods["magic"] = context["spent_other"]
    hero_total = natural[0] + sum(hero_mods.values())
    other_total = natural[1] + sum(other_mods.values())
    outcome = "win" if hero_total > other_total else "lose" if hero_total < other_total else "tie"
    rules = ["C-MENT-01"] + (["C-MENT-02"] if "magic" in hero_mods or "magic" in other_mods else [])
    if "Iron-Willed" in hero_mods:
        rules.append("C-MENT-03")
    opponent = str(
        context.get("target") if context.get("source") == hero.id else context.get("source")
    )
    state.emit_roll(rules, hero.id, natural[:1], outcome, modifiers=hero_mods, opponent=opponent)
    state.emit_roll(
        rules,
        opponent,
        natural[1:],
        {"win": "lose", "lose": "win", "tie": "tie"}[outcome],
        modifiers=other_mods,
        opponent=hero.id,
    )
    branch = {"win": effect.on_win, "lose": effect.on_lose, "tie": effect.on_tie}[outcome]
    rest = {
        k: v for k, v in context.items() if k not in ("effect", "side", "spent_hero", "spent_other")
    }
    state.push(effects_task(branch, **rest))
