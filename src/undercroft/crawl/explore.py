"""Explore (C-EXPL-01, C-TURN-05), identifying (C-IDENT-*), memorizing (C-SPELL-02),
trap detection at the end of Explore (C-TRAP-01), and Trade Items (C-TURN-06)."""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from undercroft.core.dice import Band, D6Table
from undercroft.crawl.actions import (
    DONE,
    Action,
    Done,
    Explore,
    Identify,
    Memorize,
    TakeTest,
    Trade,
    UseItem,
)
from undercroft.crawl.effects import Effect
from undercroft.crawl.engine import Pending, Seat, Task, decision, roll, task
from undercroft.crawl.figures import Hero
from undercroft.crawl.resolve import effects_task
from undercroft.crawl.ruleset import CastingTime, ItemKind, RoomText, Trait
from undercroft.crawl.spells import cast_actions, cast_now, usable_items, use_item
from undercroft.crawl.state import State

# C-IDENT-01: 1 never, 2-3 not yet, 4-6 identified.
IDENTIFY: Final = D6Table(
    "C-IDENT-01", (Band(1, 1, "never"), Band(2, 3, "not_yet"), Band(4, 6, "identified"))
)


def explorers_pending(state: State) -> list[Hero]:
    """Heroes that still have to say whether they explore. Resting heroes stay put
    (C-REST-01)."""
    return [h for h in state.active_heroes() if h.exploring is None and not h.resting]


@task("explore")
def explore(state: State, _: Task) -> None:
    """C-TURN-05: skipped while monsters are on the board (C-CMB-01)."""
    if state.in_combat() or state.outcome is not None:
        return
    state.step = "explore"
    for hero in state.active_heroes():
        if hero.resting:
            hero.exploring = False
    state.push(
        Task("explore_choice"), Task("room_texts"), Task("explore_actions"), Task("trap_detection")
    )


@task("explore_choice")
def explore_choice(state: State, _: Task) -> None:
    if explorers_pending(state):
        state.ask(Seat.HEROES, "explore_choice")


def legal_explore_choice(state: State, _: Pending) -> list[Action]:
    actions: list[Action] = []
    for hero in explorers_pending(state):
        actions.extend(explore_pair(state, hero.id))
    return actions


def explore_pair(state: State, hero: str) -> tuple[Explore, Explore]:
    """``Explore(hero, True)`` and ``Explore(hero, False)``, made once a game: actions
    are frozen, and each Explore step lists them again for every hero still to choose
    (a frozen dataclass is slow to make, even compiled)."""
    key = "explore:" + hero
    pair: tuple[Explore, Explore] | None = state.derived.get(key)
    if pair is None:
        pair = state.derived[key] = (Explore(hero, True), Explore(hero, False))
    return pair


@decision("explore_choice", legal_explore_choice)
def on_explore_choice(state: State, _: Pending, action: Action) -> None:
    assert isinstance(action, Explore)
    state.heroes[action.hero].exploring = action.explore
    state.emit("explore.choice", ["C-EXPL-01"], hero=action.hero, explore=action.explore)
    state.push(Task("explore_choice"))


@task("room_texts")
def room_texts(state: State, _: Task) -> None:
    """C-EXPL-01: the DM reads the text of every area holding heroes; a text for
    explorers only waits until someone explores there."""
    areas: list[str] = []
    for hero in state.active_heroes():
        assert hero.pos is not None
        area = state.area_of(hero.pos)
        if area is not None and area not in areas:
            areas.append(area)
    tasks = []
    for index, text in enumerate(state.ruleset.adventure.room_texts):
        if text.area not in areas or index in state.texts_done:
            continue
        here = state.heroes_in_area(text.area)
        explorers = [h for h in here if h.exploring]
        if text.explorers_only and not explorers:
            continue
        if text.once:
            state.texts_done.add(index)
        state.emit("text.read", ["C-EXPL-01"], area=text.area, text=text.text)
        first = (explorers or here)[0]  # R-C-EXPL-02: its own test is the first explorer's
        if (
            state.options.text_test == "chosen"
            and len(explorers or here) > 1
            and about_self(text.effects)
        ):
            tasks.append(Task("text_test", {"text": index, "first": first.id}))
        else:
            tasks.append(text_effects(text, first.id))
    state.push(*tasks)


def text_effects(text: RoomText, hero: str) -> Task:
    """The task applying a room text's effects, ``hero`` the hero it is about (its
    ``self``)."""
    return effects_task(
        text.effects, area=text.area, hero=hero, source=f"area:{text.area}", rules=["C-EXPL-01"]
    )


SELF_EFFECTS: Final = frozenset(
    {"trait_test", "mental_combat", "detect_traps_roll", "detect_traps"}
)
"""Effect types that, in a room text, befall the hero the text is about unless their
``who`` names others (:mod:`undercroft.crawl.resolve`)."""


def about_self(effects: tuple[Effect, ...]) -> bool:
    """Whether a room text, however deep (a choice's options, a test's branches), asks
    something of the hero it is about: its own trait test, a Mental Combat, a Detect
    Traps roll, or an effect on ``self`` (or on ``target``, which in a text with no
    target is the same hero, :func:`undercroft.crawl.resolve.affected_heroes`). The
    branches of a test of every explorer are about each hero tested, not this one."""
    stack: list[Any] = [e.model_dump() for e in effects]
    while stack:
        effect = stack.pop()
        if not isinstance(effect, dict):
            continue
        who = effect.get("who", "self")
        if who in ("self", "target") and (effect.get("type") in SELF_EFFECTS or "who" in effect):
            return True
        if effect.get("type") == "trait_test":
            continue  # a test of others: its branches are about each hero it tests
        for value in effect.values():
            if isinstance(value, list | tuple):
                stack.extend(value)
    return False


@task("text_test")
def text_test(state: State, t: Task) -> None:
    """R-C-EXPL-02 with ``text_test = "chosen"``: the heroes a room text may be about
    (its explorers, or with none the heroes there; a text for explorers only, only its
    explorers) choose which of them takes it up, the heroes there now (an earlier text
    may have felled one)."""
    text = state.ruleset.adventure.room_texts[t.args["text"]]
    here = state.heroes_in_area(text.area)
    explorers = [h for h in here if h.exploring]
    takers = [h.id for h in (explorers if text.explorers_only else explorers or here)]
    if len(takers) > 1:
        state.ask(Seat.HEROES, "text_test", text=t.args["text"], area=text.area, takers=takers)
    else:
        state.push(text_effects(text, takers[0] if takers else t.args["first"]))


def legal_text_test(state: State, pending: Pending) -> list[Action]:
    return [TakeTest(h) for h in pending.args["takers"]]


@decision("text_test", legal_text_test)
def on_text_test(state: State, pending: Pending, action: Action) -> None:
    assert isinstance(action, TakeTest)
    text = state.ruleset.adventure.room_texts[pending.args["text"]]
    state.emit("text.hero", ["C-EXPL-01", "R-C-EXPL-02"], area=text.area, hero=action.hero)
    state.push(text_effects(text, action.hero))


@task("explore_actions")
def explore_actions(state: State, _: Task) -> None:
    if state.outcome is not None:
        return
    legal = legal_explore_actions(state, Pending(Seat.HEROES, "explore_actions"))
    if legal != [DONE]:
        state.ask(Seat.HEROES, "explore_actions")
        state.offer(legal)


def legal_explore_actions(state: State, _: Pending) -> list[Action]:
    actions: list[Action] = []
    if state.in_combat():
        return [DONE]  # monsters arrived during Explore: straight on
    for hero in state.active_heroes():
        if hero.resting:
            continue
        if not hero.memorized:
            for uid in hero.items:
                actions.extend(memorize_options(state, hero, uid))
        if not hero.identified and state.has_trait(hero, Trait.LEARNED):
            for uid in hero.items:
                item = state.items[uid]
                card = state.ruleset.items[item.card]
                if not item.identified and not item.never and card.kind.face_down:
                    actions.append(Identify(hero.id, uid))
        actions.extend(usable_items(state, hero))
        actions.extend(cast_actions(state, hero, CastingTime.EXPLORE))
    actions.append(DONE)
    return actions


def memorize_options(state: State, hero: Hero, uid: str) -> list[Action]:
    """C-SPELL-02: an identified scroll (C-IDENT-03); the memorized levels may not pass
    the hero's base Magic (its profile's, whatever it has left now), so the hero forgets
    spells to make room: every smallest set of known spells that makes enough room is
    offered (R-C-SPELL-01: spells known from the start count as memorized)."""
    item = state.items[uid]
    card = state.ruleset.items[item.card]
    if card.kind is not ItemKind.SCROLL or not item.identified or card.spell is None:
        return []
    if card.spell in hero.spells:
        return []
    budget = state.hero_profile(hero).magic
    level = state.ruleset.spells[card.spell].level
    if level > budget:
        return []
    known = list(hero.spells)
    used = sum(state.ruleset.spells[s].level for s in known)
    if used + level <= budget:
        return [Memorize(hero.id, uid)]
    options: list[Action] = []
    freeing: list[set[str]] = []
    for size in range(1, len(known) + 1):
        for forget in combinations(known, size):
            if any(smaller <= set(forget) for smaller in freeing):
                continue  # forgetting more than needed is never required
            freed = sum(state.ruleset.spells[s].level for s in forget)
            if used - freed + level <= budget:
                freeing.append(set(forget))
                options.append(Memorize(hero.id, uid, forget))
    return options


@decision("explore_actions", legal_explore_actions)
def on_explore_action(state: State, _: Pending, action: Action) -> None:
    if isinstance(action, Done):
        return
    state.push(Task("explore_actions"))
    if isinstance(action, Memorize):
        hero = state.heroes[action.hero]
        card = state.ruleset.items[state.items[action.item].card]
        assert card.spell is not None
        for spell in action.forget:
            hero.spells.remove(spell)
        hero.spells.append(card.spell)
        hero.items.remove(action.item)  # C-SPELL-01: memorizing destroys the scroll
        hero.memorized = True
        state.emit(
            "spell.memorized",
            ["C-SPELL-02", "C-SPELL-01"],
            hero=hero.id,
            spell=card.spell,
            forgot=list(action.forget),
        )
    elif isinstance(action, Identify):
        hero = state.heroes[action.hero]
        hero.identified = True
        state.ask_roll("identify", hero=hero.id, item=action.item)
    elif isinstance(action, UseItem):
        use_item(state, action)
    else:
        cast_now(state, action, CastingTime.EXPLORE)


@roll("identify")
def identify_roll(state: State, args: dict[str, Any], natural: tuple[int, ...]) -> None:
    hero = state.heroes[str(args["hero"])]
    item = state.items[str(args["item"])]
    outcome = IDENTIFY.outcome(natural[0])
    # The card is named only once identified; the heroes' view never sees it before.
    fields: dict[str, Any] = {"item": item.uid}
    if outcome == "identified":
        item.identified = True
        fields["card"] = item.card
    elif outcome == "never":
        item.never = True
    state.emit_roll(["C-IDENT-01"], hero.id, natural, outcome, **fields)


def identify_at_end(state: State) -> None:
    """C-IDENT-02: when the adventure ends every item still face down is identified,
    whether a hero, a rescued corpse or a corpse in the dungeon holds it."""
    held = [(h.id, uid) for h in state.heroes.values() for uid in h.items]
    held += [(c.hero, uid) for c in state.corpses.values() for uid in c.items]
    revealed = []
    for holder, uid in held:
        item = state.items[uid]
        if not item.identified:
            item.identified = True
            revealed.append({"item": uid, "card": item.card, "holder": holder})
    if revealed:
        state.emit("items.identified", ["C-IDENT-02"], items=revealed)


@task("trap_detection")
def trap_detection(state: State, _: Task) -> None:
    """C-TRAP-01: last in Explore, one hidden Detect Traps roll per hero on the board.
    The roll is the DM's, not something the hero does, so a resting hero gets one too
    (C-REST-01 stops only the hero's own actions)."""
    if state.in_combat():
        return
    state.push(*(Task("detect_traps", {"hero": h.id}) for h in state.active_heroes()))


# -- Trade Items (C-TURN-06) -------------------------------------------------------------


@task("trade")
def trade(state: State, _: Task) -> None:
    """C-TURN-06: skipped during combat (C-CMB-01)."""
    if state.in_combat() or state.outcome is not None:
        return
    state.step = "trade"
    legal = legal_trade(state, Pending(Seat.HEROES, "trade"))
    if legal != [DONE]:
        state.ask(Seat.HEROES, "trade")
        state.offer(legal)


def legal_trade(state: State, _: Pending) -> list[Action]:
    """Give one item to, and take one from, heroes in the same area; a corpse's items
    can be taken too (C-DEATH-01)."""
    actions: list[Action] = []
    heroes = state.active_heroes()
    for receiver in heroes:
        if receiver.received:
            continue
        assert receiver.pos is not None
        area = state.area_of(receiver.pos)
        for giver in heroes:
            if giver is receiver or giver.gave or giver.pos is None:
                continue
            if area is None or state.area_of(giver.pos) != area:
                continue
            actions.extend(Trade(giver.id, receiver.id, uid) for uid in giver.items)
    for receiver in heroes:
        # R-C-TRADE-01: taking from a corpse counts as the hero's one item received,
        # unless the option lets a hero take any number of a corpse's items.
        if receiver.received and state.options.corpse_items == "one":
            continue
        assert receiver.pos is not None
        area = state.area_of(receiver.pos)
        for at, corpse in state.corpses.items():
            if (area is not None and state.area_of(at) == area) or at.is_adjacent(receiver.pos):
                actions.extend(Trade(corpse.hero, receiver.id, uid) for uid in corpse.items)
    actions.append(DONE)
    return actions


@decision("trade", legal_trade)
def on_trade(state: State, _: Pending, action: Action) -> None:
    if isinstance(action, Done):
        return
    assert isinstance(action, Trade)
    receiver = state.heroes[action.receiver]
    giver = state.heroes[action.giver]
    if giver.dead:
        corpse = next(c for c in state.corpses.values() if c.hero == giver.id)
        corpse.items.remove(action.item)
        rules = ["C-TURN-06", "C-DEATH-01", "R-C-TRADE-01"]
    else:
        giver.items.remove(action.item)
        giver.gave = True
        rules = ["C-TURN-06"]
    receiver.items.append(action.item)
    if not giver.dead or state.options.corpse_items == "one":
        receiver.received = True
    state.emit("item.traded", rules, giver=giver.id, receiver=receiver.id, item=action.item)
    state.push(Task("trade"))
