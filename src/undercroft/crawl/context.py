"""The decision's context: what a seat is asked, in the game's terms (docs/crawl.md,
"Observations").

A decision such as ``fight_stamina`` lists only its legal actions (spend 0 to 3); a
player at the table knows which fight it is for, both Fighting Scores and, when the
other side declared first, what it declared. :func:`decision_context` gives a seat that
context, from what that seat may see (ARCHITECTURE.md, "Hidden information"): the heroes
never learn a monster's Magic left, a scroll's spell before it is read (R-C-IDENT-01),
or a room's text before it is read (C-EXPL-01). Only the seat asked gets the context;
the DM, who sees everything, gets it for every decision.

Kinds (the ``kind`` key):

``fight``    ``fight_stamina`` (C-FIGHT-04): the fight, both sides' modified scores and
             modifiers, Health and Damage, who declares first and what the first side
             declared (``declared``: points, once the first side has declared)
``mental``   ``mental_spend`` (C-MENT-02): the contest, who the aggressor is, the power
             the effect adds, and the aggressor's spend once declared
``casting``  ``casting_choice`` (C-SPELL-06): the caster's spell (unless unread) and every
             fight it is in this Fighting step
``explore``  ``explore_choice`` (C-EXPL-01): each hero still to choose, its area, whether
             a visit goal names that area, and the party order that decides who takes a
             test the text gives its first explorer (``self``)
``choice``   ``choice`` (C-EXPL-01): the hero the text is about, the area, and each
             option's label with the trait tests it calls for
``text_test`` ``text_test`` (R-C-EXPL-02, option ``text_test = "chosen"``): the area,
             the text read out, who may take it up, and the trait tests and Mental
             Combats it calls for (a choice's options included), as for ``choice``
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import HeroProfile, ItemCard, MonsterProfile, SpellCard, Trait
from undercroft.crawl.state import State


@dataclass(frozen=True)
class Cards:
    """The cards every player may read (C-SETUP-02: a card per hero and monster, the
    spell and item decks), without the adventure (its rooms, texts and placements stay
    hidden). Which card a face-down item is stays hidden: that is in the observation's
    items, not here."""

    heroes: Mapping[str, HeroProfile]
    """By profile id (a hero ``hero:brenna`` plays the card ``brenna``)."""
    monsters: Mapping[str, MonsterProfile]
    spells: Mapping[str, SpellCard]
    items: Mapping[str, ItemCard]

    def hero(self, hero_id: str) -> HeroProfile:
        """The card of the hero ``hero:NAME``."""
        return self.heroes[hero_id.partition(":")[2] or hero_id]


def cards_of(state: State) -> Cards:
    """The public cards of the game's ruleset (made once a game)."""
    found: Cards | None = state.derived.get("cards")
    if found is None:
        rules = state.ruleset
        found = state.derived["cards"] = Cards(
            rules.heroes, rules.monsters, rules.spells, rules.items
        )
    return found


def decision_context(state: State, seat: Seat) -> dict[str, Any] | None:
    """The context of the decision ``state`` waits for, as ``seat`` may see it; ``None``
    when the seat is not the one asked (the DM is told of every decision) or the
    decision needs none."""
    pending = state.pending
    if pending is None or pending.seat is Seat.CHANCE:
        return None
    if seat is Seat.HEROES and pending.seat is not Seat.HEROES:
        return None
    full = seat is not Seat.HEROES
    kind = pending.kind
    if kind == "fight_stamina":
        return _fight(state, pending.args["index"], pending.args["side"])
    if kind == "mental_spend":
        return _mental(state, pending.args["context"], full)
    if kind == "casting_choice":
        return _casting(state, pending.args["hero"], full)
    if kind == "explore_choice":
        return _explore(state)
    if kind == "choice":
        return _choice(state, pending.args)
    if kind == "take_item":
        return _take_item(state, pending.args, full)
    if kind == "text_test":
        return _text_test(state, pending.args)
    return None


def _text_test(state: State, args: dict[str, Any]) -> dict[str, Any]:
    """R-C-EXPL-02: a room text just read out whose hero the explorers choose: what it
    asks of that hero, as the DM would say it (the tests and contests, not what comes
    of them)."""
    text = state.ruleset.adventure.room_texts[int(args["text"])]
    effects = [e.model_dump() for e in text.effects]
    return {
        "kind": "text_test",
        "area": text.area,
        "text": text.text,
        "takers": list(args["takers"]),
        "tests": [t for t in _tests(effects) if t["who"] == "self"],
        "contests": _contests(effects),
    }


def _take_item(state: State, args: dict[str, Any], full: bool) -> dict[str, Any]:
    """C-EXPL-01: a found item one of the explorers takes: its deck (a card's back shows
    it), its card only when it is face up or the seat is the DM's (C-IDENT-01), and who
    may take it."""
    item = state.items.get(str(args.get("item")))
    card = state.ruleset.items.get(item.card) if item is not None else None
    # An item not in play (a hand-made decision) tells nothing of itself.
    shown = (
        item is not None
        and card is not None
        and (full or item.identified or not card.kind.face_down)
    )
    return {
        "kind": "take_item",
        "deck": card.kind.value if card is not None else None,
        "card": item.card if shown and item is not None else None,
        "takers": list(args["takers"]),
    }


def _fight(state: State, index: int, side: str) -> dict[str, Any]:
    """C-FIGHT-04: the fight a Stamina decision is for."""
    record = state.fights[index]
    hero = state.heroes[record["hero"]]
    monster = state.monsters[record["monster"]]
    first = state.options.stamina_declared_first  # "dm" or "heroes"
    # The scores as combat.fight_result works them out: the card's plus every modifier.
    hero_score = state.hero_profile(hero).fighting + sum(record["hero_modifiers"].values())
    monster_score = state.ruleset.monster(monster.kind).fighting + sum(
        record["monster_modifiers"].values()
    )
    found: dict[str, Any] = {
        "kind": "fight",
        "fight": index,
        "side": side,
        "hero": hero.id,
        "monster": monster.id,
        "monster_kind": monster.kind,
        "hero_score": hero_score,
        "monster_score": monster_score,
        "hero_modifiers": dict(record["hero_modifiers"]),
        "monster_modifiers": dict(record["monster_modifiers"]),
        "hero_health": hero.health,
        "monster_health": monster.health,
        "hero_damage": state.hero_profile(hero).damage,
        "monster_damage": state.ruleset.monster(monster.kind).damage,
        "strong_wins_ties": state.has_trait(hero, Trait.STRONG),  # C-FIGHT-04
        "declares_first": first,
        "fights_of_hero": sum(1 for r in state.fights if r["hero"] == hero.id),
    }
    if side != first:
        other = "monster_stamina" if first == "dm" else "hero_stamina"
        found["declared"] = int(record.get(other, 0))
    return found


def _opponent(state: State, args: dict[str, Any]) -> str | None:
    for key in ("source", "target"):
        who = args.get(key)
        if isinstance(who, str) and who in state.monsters:
            return who
    return None


def _mental(state: State, args: dict[str, Any], full: bool) -> dict[str, Any]:
    """C-MENT-02: the contest a Magic decision is for; the aggressor declares first."""
    hero = state.heroes[args["hero"]]
    aggressor = "hero" if args.get("source") == hero.id else "opponent"
    effect = args.get("effect") or {}
    found: dict[str, Any] = {
        "kind": "mental",
        "side": "hero" if args["side"] == "hero" else "opponent",
        "hero": hero.id,
        "hero_magic": hero.magic,
        "opponent": _opponent(state, args) or args.get("source"),
        "aggressor": aggressor,
        "power": int(effect.get("power", 0)),
        "hero_iron_willed": state.has_trait(hero, Trait.IRON_WILLED),  # C-MENT-03
    }
    if full:
        monster = state.monsters.get(_opponent(state, args) or "")
        found["opponent_magic"] = 0 if monster is None else monster.magic
    if found["side"] != aggressor:
        # The aggressor's spend waits on the contest's roll task (resolve.on_mental_spend).
        key = "spent_hero" if aggressor == "hero" else "spent_other"
        roll = next((t for t in reversed(state.stack) if t.kind == "mental_roll"), None)
        found["declared"] = int(roll.args.get(key, 0)) if roll is not None else 0
    return found


def _casting(state: State, hero_id: str, full: bool) -> dict[str, Any]:
    """C-SPELL-06: the spell and the fights its caster is in this Fighting step."""
    hero = state.heroes[hero_id]
    casting = hero.casting or {}
    blind = bool(casting.get("blind")) and not full  # R-C-IDENT-01
    return {
        "kind": "casting",
        "hero": hero_id,
        "spell": None if blind else casting.get("spell"),
        "fights": [
            {
                "monster": r["monster"],
                "hero_score": state.hero_profile(hero).fighting + sum(r["hero_modifiers"].values()),
                "monster_score": _monster_score(state, r),
                "hero_modifiers": dict(r["hero_modifiers"]),
            }
            for r in state.fights
            if r["hero"] == hero_id
        ],
    }


def _monster_score(state: State, record: dict[str, Any]) -> int | None:
    monster = state.monsters.get(record["monster"])
    if monster is None:
        return None  # slain earlier this step: the fight is skipped
    modifiers: dict[str, int] = record["monster_modifiers"]
    return state.ruleset.monster(monster.kind).fighting + sum(modifiers.values())


def _explore(state: State) -> dict[str, Any]:
    """C-EXPL-01: who still chooses, where, and the order that picks a text's ``self``
    (the first explorer in party order, ``explore.room_texts``)."""
    visits = {g.target: g.id for g in state.ruleset.adventure.goals if g.kind == "visit"}
    heroes = []
    for hero in state.active_heroes():
        if hero.exploring is not None or hero.resting or hero.pos is None:
            continue
        area = state.area_of(hero.pos)
        heroes.append(
            {
                "hero": hero.id,
                "area": area,
                "goal": visits.get(area) if area is not None else None,
                "traits": sorted(t.value for t in state.hero_profile(hero).traits),
            }
        )
    exploring = [h.id for h in state.active_heroes() if h.exploring]
    return {
        "kind": "explore",
        "heroes": heroes,
        "exploring": exploring,
        "order": [h.id for h in state.active_heroes()],
    }


def _nested(effects: Any, kind: str) -> Iterator[dict[str, Any]]:
    """The effects of type ``kind`` in ``effects``, however deep (branches too), in
    order."""
    stack = list(effects) if isinstance(effects, list | tuple) else []
    while stack:
        effect = stack.pop(0)
        if not isinstance(effect, dict):
            continue
        if effect.get("type") == kind:
            yield effect
        for value in effect.values():
            if isinstance(value, list | tuple):
                stack.extend(value)


def _tests(effects: Any) -> list[dict[str, Any]]:
    """The trait tests an option's effects call for, however deep (its branches too)."""
    return [
        {"trait": e["trait"], "target": e["target"], "who": e["who"]}
        for e in _nested(effects, "trait_test")
    ]


def _contests(effects: Any) -> list[dict[str, Any]]:
    """The Mental Combats an option's effects call for (C-MENT-01), however deep: the
    ``power`` the text adds to its own roll."""
    return [
        {"kind": "mental", "power": int(e.get("power", 0))}
        for e in _nested(effects, "mental_combat")
    ]


def _choice(state: State, args: dict[str, Any]) -> dict[str, Any]:
    """C-EXPL-01: a text's choice, read out to the heroes: the options, the trait tests
    and the Mental Combats (C-MENT-01) each calls for."""
    context = args.get("context") or {}
    return {
        "kind": "choice",
        "hero": context.get("hero"),
        "area": context.get("area"),
        "options": [
            {
                "index": i,
                "label": o.get("label", ""),
                "tests": _tests(o.get("effects", ())),
                "contests": _contests(o.get("effects", ())),
            }
            for i, o in enumerate(args.get("options") or ())
        ],
    }
