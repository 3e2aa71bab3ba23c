"""Spells, scrolls and items (C-SPELL-*, C-IDENT-03).

Combat spells are begun in Spell Selection and take effect in the casting step, where
the caster only then picks targets and pays Magic (C-CMB-01). Spells with another
casting time, potions, gear and magic items are used with a :class:`Cast` or
:class:`UseItem` action during the Movement or Explore step.

A face-down scroll (C-IDENT-01) may be read blind (C-IDENT-03); nothing the heroes see
may tell two face-down scrolls apart until the scroll is read (R-C-IDENT-01). So every
face-down scroll is offered alike, with no spell named and no target, wherever a scroll
can be read: begun in Spell Selection, or read in the Movement or Explore step. It is
read when its spell would take effect (the casting step, or at once): only then is its
spell shown, and cast if it suits that moment (the caster then picks the target);
otherwise it fizzles.
"""

from __future__ import annotations

from typing import Any, Final

from undercroft.core.dice import Band, D6Table
from undercroft.core.grid import Pos
from undercroft.crawl.actions import DONE, Action, BeginCasting, Cast, ChooseTarget, Done, UseItem
from undercroft.crawl.damage import hurt_hero
from undercroft.crawl.distance import in_range
from undercroft.crawl.engine import Pending, Seat, Task, decision, roll, task
from undercroft.crawl.figures import Hero
from undercroft.crawl.movement import EXTRA_HANDLERS, EXTRA_OPTIONS
from undercroft.crawl.resolve import effects_task
from undercroft.crawl.ruleset import CastingTime, ItemKind, SpellCard, Targeting
from undercroft.crawl.state import State

# C-SPELL-04: 1 forget, 2-5 lose Health equal to the level, 6 no ill effect.
OVERCAST: Final = D6Table(
    "C-SPELL-04", (Band(1, 1, "forget"), Band(2, 5, "hurt"), Band(6, 6, "unharmed"))
)


def scroll_spell(state: State, uid: str) -> str | None:
    card = state.ruleset.items[state.items[uid].card]
    return card.spell if card.kind is ItemKind.SCROLL else None


def locked(state: State, hero: Hero, spell_id: str) -> bool:
    """C-SPELL-03: a spell whose ongoing effect lasts cannot be cast again. The effect is
    one thing in play whoever cast it, so nobody may cast the spell while it lasts
    (R-C-SPELL-02); ``Options.ongoing_lock = "caster"`` bars only its caster."""
    if state.options.ongoing_lock == "caster":
        return spell_id in hero.ongoing
    return any(spell_id in h.ongoing for h in state.heroes.values())


def castable(
    state: State, hero: Hero, times: tuple[CastingTime, ...]
) -> list[tuple[str, str | None, bool]]:
    """(spell, source, overcast) a hero may cast now.

    From memory it needs Magic equal to the level (C-SPELL-03); from a scroll nothing
    (C-SPELL-01). A face-down scroll may be read blind (C-IDENT-03): it is offered with
    no spell named (``""``), whatever it holds, and never overcast (R-C-IDENT-01). A
    surprised hero casts nothing (C-SURP-01, C-SPELL-07), nor does a resting one
    (C-REST-01); a spell whose ongoing effect lasts cannot be cast again (C-SPELL-03).
    """
    if hero.surprised or hero.resting or not hero.on_board:
        return []
    options: list[tuple[str, str | None, bool]] = []
    for spell_id in hero.spells:
        spell = state.ruleset.spells[spell_id]
        if (
            spell.casting in times
            and hero.magic >= spell.level
            and not locked(state, hero, spell_id)
        ):
            options.append((spell_id, None, False))
            if spell.overcast is not None:
                options.append((spell_id, None, True))
    for uid in hero.items:
        scroll = scroll_spell(state, uid)
        if scroll is None:
            continue
        if not state.items[uid].identified:
            options.append(("", uid, False))  # R-C-IDENT-01: every face-down scroll alike
            continue
        spell = state.ruleset.spells[scroll]
        if spell.casting in times and not locked(state, hero, scroll):
            options.append((scroll, uid, False))
            if spell.overcast is not None:
                options.append((scroll, uid, True))
    return options


def casting_fields(hero: Hero) -> dict[str, Any]:
    """How an event names the spell a hero is casting: the truth (for the DM's log),
    marked ``blind`` while it comes from a scroll not yet read, so the heroes' view of
    the log drops it (R-C-IDENT-01, :func:`undercroft.crawl.observe.observe_entry`)."""
    assert hero.casting is not None
    fields: dict[str, Any] = {"spell": hero.casting["spell"]}
    if hero.casting.get("blind"):
        fields["blind"] = True
    return fields


def spell_of(state: State, spell: str, source: str | None) -> SpellCard:
    if source is not None:
        spell_id = scroll_spell(state, source)
        assert spell_id is not None
        return state.ruleset.spells[spell_id]
    return state.ruleset.spells[spell]


# -- Spell Selection (C-CMB-01 step 1) ---------------------------------------------------


@task("spell_selection")
def spell_selection(state: State, _: Task) -> None:
    state.step = "spell_selection"
    if any(
        h.casting is None and castable(state, h, (CastingTime.COMBAT,))
        for h in state.active_heroes()
    ):
        state.ask(Seat.HEROES, "spell_selection")


def legal_spell_selection(state: State, _: Pending) -> list[Action]:
    actions: list[Action] = []
    for hero in state.active_heroes():
        if hero.casting is None:
            for spell, source, overcast in castable(state, hero, (CastingTime.COMBAT,)):
                actions.append(BeginCasting(hero.id, spell, source, overcast))
    actions.append(DONE)
    return actions


@decision("spell_selection", legal_spell_selection)
def on_spell_selection(state: State, _: Pending, action: Action) -> None:
    if isinstance(action, Done):
        return
    assert isinstance(action, BeginCasting)
    hero = state.heroes[action.hero]
    card = spell_of(state, action.spell, action.source)
    hero.casting = {"spell": card.id, "source": action.source, "overcast": action.overcast}
    rules = ["C-CMB-01", "C-SPELL-03"]
    if not action.spell:
        hero.casting["blind"] = True  # R-C-IDENT-01: read only in the casting step
        rules += ["C-IDENT-03", "R-C-IDENT-01"]
    state.emit(
        "casting.begun", rules, hero=hero.id, overcast=action.overcast, **casting_fields(hero)
    )
    state.push(Task("spell_selection"))


# -- the casting step (C-CMB-01 step 5) --------------------------------------------------


@task("casting")
def casting(state: State, _: Task) -> None:
    state.step = "casting"
    tasks = [
        Task("cast_target", {"hero": h.id}) for h in state.active_heroes() if h.casting is not None
    ]
    state.push(*tasks)


def in_reach(state: State, hero: Hero, spell: SpellCard) -> list[str]:
    """The figures the spell can reach: heroes for a spell aimed at heroes, monsters
    otherwise, within its range and in line of sight (C-LOS-01).

    The range is counted square by square as for movement (C-DIST-01): a walking
    distance through squares a figure could walk, figures ignored (R-CORE-DIST-01).
    """
    here = hero.pos
    assert here is not None
    pool: list[tuple[str, Pos | None]] = []
    if spell.target is Targeting.HERO:
        pool = [(h.id, h.pos) for h in state.active_heroes()]
    else:
        pool = [(m.id, m.pos) for m in state.monsters.values()]
    seen = [(fid, pos) for fid, pos in pool if pos is not None and state.sight.can_see(here, pos)]
    near = set(in_range(state, here, [pos for _, pos in seen], spell.range))
    return [fid for fid, pos in seen if pos in near]


def targets(state: State, hero: Hero, spell: SpellCard) -> list[str | None]:
    """The targets the caster may choose: one figure in reach, or ``None`` for a spell
    with no chosen target. A spell on every monster needs at least one in reach."""
    if spell.target in (Targeting.SELF, Targeting.PARTY):
        return [None]
    reach = in_reach(state, hero, spell)
    if spell.target is Targeting.ALL_MONSTERS:
        return [None] if reach else []
    return list(reach)


@task("cast_target")
def cast_target(state: State, t: Task) -> None:
    hero = state.heroes[t.args["hero"]]
    if hero.casting is None or not hero.on_board:
        return
    if hero.casting.get("blind"):
        source = hero.casting["source"]
        hero.casting = None
        read_scroll(state, hero, source, CastingTime.COMBAT)
        return
    spell = state.ruleset.spells[hero.casting["spell"]]
    options = targets(state, hero, spell)
    if not options:
        fizzle(state, hero, spell, "no target", ["C-CMB-01"])
        return
    state.ask(Seat.HEROES, "cast_target", hero=hero.id)


def read_scroll(state: State, hero: Hero, uid: str, time: CastingTime) -> None:
    """R-C-IDENT-01: a face-down scroll is read at the moment its spell would take
    effect (``time``: the casting step for one begun in Spell Selection, the Movement or
    Explore step for one read there). It is now face up for all to see; its spell is
    cast if its casting time is ``time`` and no ongoing effect bars it (C-SPELL-03), the
    caster choosing the target now; otherwise it fizzles. A scroll read blind is used
    up whatever comes of it (C-SPELL-01), unless the option keeps a scroll whose spell
    did not take effect (``Options.blind_scroll``)."""
    item = state.items[uid]
    spell = state.ruleset.spells[str(scroll_spell(state, uid))]
    item.identified = True
    state.emit(
        "scroll.read",
        ["C-IDENT-03", "R-C-IDENT-01"],
        hero=hero.id,
        item=uid,
        card=item.card,
        spell=spell.id,
    )
    hero.casting = {"spell": spell.id, "source": uid, "overcast": False, "read": True}
    if spell.casting is not time:
        fizzle(state, hero, spell, "casting time", ["R-C-IDENT-01"])
    elif locked(state, hero, spell.id):
        fizzle(state, hero, spell, "ongoing", ["C-SPELL-03", "R-C-IDENT-01"])
    else:
        state.push(Task("cast_target", {"hero": hero.id}))


def fizzle(state: State, hero: Hero, spell: SpellCard, reason: str, rules: list[str]) -> None:
    """The spell being cast comes to nothing; a scroll read blind for it is used up
    (R-C-IDENT-01) unless ``Options.blind_scroll`` keeps it, face up."""
    job = hero.casting
    hero.casting = None
    fields: dict[str, Any] = {}
    if job is not None and job.get("read") and state.options.blind_scroll == "spent":
        hero.items.remove(job["source"])
        fields["scroll_spent"] = True
    state.emit("spell.fizzled", rules, hero=hero.id, spell=spell.id, reason=reason, **fields)


def legal_cast_target(state: State, pending: Pending) -> list[Action]:
    hero = state.heroes[pending.args["hero"]]
    assert hero.casting is not None
    spell = state.ruleset.spells[hero.casting["spell"]]
    return [ChooseTarget(hero.id, target) for target in targets(state, hero, spell)]


@decision("cast_target", legal_cast_target)
def on_cast_target(state: State, _: Pending, action: Action) -> None:
    assert isinstance(action, ChooseTarget)
    hero = state.heroes[action.hero]
    assert hero.casting is not None
    job = hero.casting
    hero.casting = None
    resolve_spell(state, hero, job["spell"], job["source"], job["overcast"], action.target)


def resolve_spell(
    state: State, hero: Hero, spell_id: str, source: str | None, overcast: bool, target: str | None
) -> None:
    """Pay (Magic or the scroll), apply the effects, then the overcast roll (C-SPELL-04)."""
    spell = state.ruleset.spells[spell_id]
    rules = ["C-SPELL-03"]
    if source is None and hero.magic < spell.level:
        fizzle(state, hero, spell, "magic", ["C-SPELL-03"])
        return
    if source is not None:
        hero.items.remove(source)  # C-SPELL-01: casting from a scroll destroys it
        rules.append("C-SPELL-01")
    else:
        hero.magic -= spell.level
    if spell.ongoing_turns:
        hero.ongoing[spell.id] = spell.ongoing_turns
    state.emit(
        "spell.cast",
        rules,
        hero=hero.id,
        spell=spell.id,
        overcast=overcast,
        target=target,
        magic=hero.magic,
    )
    chosen = spell.overcast if overcast and spell.overcast is not None else spell.effects
    # A spell on every monster works on each one in reach in turn, as its target.
    victims = in_reach(state, hero, spell) if spell.target is Targeting.ALL_MONSTERS else [target]
    tasks = [
        effects_task(chosen, source=hero.id, hero=hero.id, target=victim, rules=["C-SPELL-03"])
        for victim in victims
    ]
    if overcast:
        tasks.append(
            Task("overcast", {"hero": hero.id, "spell": spell.id, "memorized": source is None})
        )
    state.push(*tasks)


@task("overcast")
def overcast_task(state: State, t: Task) -> None:
    if state.heroes[t.args["hero"]].on_board:
        state.ask_roll("overcast", **t.args)


@roll("overcast")
def overcast_roll(state: State, args: dict[str, Any], natural: tuple[int, ...]) -> None:
    hero = state.heroes[str(args["hero"])]
    spell = state.ruleset.spells[str(args["spell"])]
    outcome = OVERCAST.outcome(natural[0])
    state.emit_roll(["C-SPELL-04"], hero.id, natural, outcome, spell=spell.id)
    if outcome == "forget":
        if spell.id in hero.spells and args.get("memorized"):
            hero.spells.remove(spell.id)
            state.emit("spell.forgotten", ["C-SPELL-04"], hero=hero.id, spell=spell.id)
    elif outcome == "hurt":
        state.push(*hurt_hero(state, hero, [(hero.id, spell.level)], ["C-SPELL-04"]))


# -- spells and items used outside the combat sub-steps ----------------------------------


def usable_items(state: State, hero: Hero) -> list[Action]:
    """Potions (even blind), gear and identified magic items with effects (C-IDENT-03).
    Every face-down potion is offered, whatever it holds, so the offer tells nothing
    (R-C-IDENT-01)."""
    if hero.surprised or not hero.on_board:
        return []
    actions: list[Action] = []
    for uid in hero.items:
        item = state.items[uid]
        card = state.ruleset.items[item.card]
        if card.kind is ItemKind.SCROLL:
            continue
        if card.kind is ItemKind.MAGIC and not item.identified:
            continue
        if not card.effects and not (card.kind is ItemKind.POTION and not item.identified):
            continue
        actions.append(UseItem(hero.id, uid))
    return actions


def cast_actions(state: State, hero: Hero, time: CastingTime) -> list[Action]:
    """The casts a hero may make now, one per target; a face-down scroll is one read with
    no target, which is chosen once the scroll is read (R-C-IDENT-01)."""
    actions: list[Action] = []
    for spell, source, overcast in castable(state, hero, (time,)):
        if not spell:
            actions.append(Cast(hero.id, spell, source))
            continue
        card = spell_of(state, spell, source)
        for target in targets(state, hero, card):
            actions.append(Cast(hero.id, spell, source, overcast, target))
    return actions


def movement_casts(state: State, hero: Hero) -> list[Action]:
    return cast_actions(state, hero, CastingTime.MOVEMENT)


def use_item(state: State, action: Action) -> None:
    assert isinstance(action, UseItem)
    hero = state.heroes[action.hero]
    hero.acted = True
    item = state.items[action.item]
    card = state.ruleset.items[item.card]
    item.uses -= 1
    if item.uses <= 0:
        hero.items.remove(item.uid)
    rules = ["C-IDENT-03"] if not item.identified else []
    state.emit(
        "item.used", rules, hero=hero.id, item=item.uid, card=item.card, blind=not item.identified
    )
    state.push(
        effects_task(card.effects, source=hero.id, hero=hero.id, target=action.target or hero.id)
    )


def cast_now(state: State, action: Action, time: CastingTime) -> None:
    """A cast in the Movement or Explore step (``time``); a face-down scroll is read."""
    assert isinstance(action, Cast)
    hero = state.heroes[action.hero]
    hero.acted = True
    if not action.spell:
        assert action.source is not None
        read_scroll(state, hero, action.source, time)
        return
    card = spell_of(state, action.spell, action.source)
    resolve_spell(state, hero, card.id, action.source, action.overcast, action.target)


def cast_in_movement(state: State, action: Action) -> None:
    cast_now(state, action, CastingTime.MOVEMENT)


EXTRA_OPTIONS[UseItem] = usable_items
EXTRA_OPTIONS[Cast] = movement_casts
EXTRA_HANDLERS[UseItem] = use_item
EXTRA_HANDLERS[Cast] = cast_in_movement
