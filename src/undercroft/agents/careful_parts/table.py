"""Explore actions, Trade and a text's choices (see :mod:`undercroft.agents.careful`):
identify, memorize, party heals (C-EXPL-01, C-IDENT-01, C-SPELL-02), healing passed to the
hero who needs it (C-TURN-06), and a choice taken by the odds of its tests."""

from __future__ import annotations

from typing import Any

from undercroft.agents.careful_parts.common import (
    CarefulBase,
    amount,
    name,
)
from undercroft.agents.odds import d6_at_least, mental_odds
from undercroft.crawl.actions import (
    DONE,
    Action,
    Cast,
    ChooseOption,
    Identify,
    Memorize,
    TakeItem,
    TakeTest,
    Trade,
    UseItem,
)
from undercroft.crawl.observe import HeroSeen, ViewLike


class Table(CarefulBase):
    """Explore and Trade: actions, passing healing, the choices a text offers."""

    def on_explore_actions(self, obs: ViewLike) -> Action | None:
        cards = self.cards(obs)
        if self.knobs.light:
            light = self.light_action(obs)
            if light is not None:
                return light
        kept: list[str] = []
        if self.knobs.scrolls:
            found = self.memorize_or_keep(obs, kept)
        else:
            found = super().on_explore_actions(obs)
        if found is not None and found != DONE:
            self.reason = self.say(obs, found)
            return found
        if self.knobs.spells:
            for cast in obs.legal_of(Cast):
                if not cast.spell:
                    continue
                spell = cards.spells[cast.spell]
                heal = amount(spell.effects, "heal")
                if heal and spell.target.value == "party":
                    hurt = sum(
                        1 for h in self.on_board(obs) if cards.hero(h.id).health - h.health >= heal
                    )
                    if hurt >= 2:
                        self.reason = f"{name(cast.hero)} casts {cast.spell}: {hurt} heroes hurt"
                        return cast
        self.reason = "nothing more to do in Explore" + (
            f"; scrolls kept to cast free ({', '.join(kept)}: a hero knows the spell)"
            if kept
            else ""
        )
        return DONE

    def memorize_or_keep(self, obs: ViewLike, kept: list[str]) -> Action | None:
        """``scrolls``: identify first (C-IDENT-01), then memorize a scroll's spell only
        when no hero on the board knows it yet and nothing need be forgotten
        (C-SPELL-02). A scroll of a spell the party already knows is kept (its spell
        added to ``kept``), to be cast from the scroll when it pays: a free cast, no
        Magic spent (C-SPELL-01), where a second copy in memory would only compete for
        the same Magic. Then, as ``basic``, a hero at Health 2 or less drinks. ``None``:
        nothing of these to do."""
        identify = obs.legal_of(Identify)
        if identify:
            return identify[0]
        cards = self.cards(obs)
        known = {spell for h in obs.heroes if h.get("pos") is not None for spell in h["spells"]}
        for action in obs.legal_of(Memorize):
            card = self.card_of(obs, action.hero, action.item)
            spell = cards.items[card].spell if card is not None else None
            if spell is None or action.forget:
                continue
            if spell in known:
                if spell not in kept:
                    kept.append(spell)
                continue
            return action
        hurt = {h.id for h in obs.heroes_seen() if h.health <= 2}
        for use in obs.legal_of(UseItem):
            if use.hero in hurt:
                return use
        return None

    def on_take_item(self, obs: ViewLike) -> Action | None:
        """Which explorer takes a found item (C-EXPL-01). As ``basic``, the healthiest
        (likeliest to carry it out); with ``potions=1`` a potion (most heal) goes to the
        explorer with the least Health, who may need it first; with ``potions=2`` to the
        one holding the fewest potions (the healthiest of those), so the draughts are
        spread over the party."""
        takes = obs.legal_of(TakeItem)
        context = obs.context or {}
        deck = context.get("deck")
        card = context.get("card")
        what = f"the {self.cards(obs).items[str(card)].name}" if card else f"a {deck or 'card'}"
        heroes = {h.id: h for h in obs.heroes_seen()}

        def health(action: TakeItem) -> int:
            hero = heroes.get(action.hero)
            return hero.health if hero is not None else 0

        if deck == "potion" and self.knobs.potions == 1:
            chosen = min(takes, key=health)
            why = "the least Health of the explorers: it may need it first"
        elif deck == "potion" and self.knobs.potions == 2:
            held = {
                a.hero: sum(1 for d in obs.item_decks(a.hero).values() if d == "potion")
                for a in takes
            }
            chosen = min(takes, key=lambda a: (held[a.hero], -health(a)))
            count = held[chosen.hero]
            why = f"it holds the fewest potions of the explorers ({count or 'none'})"
        else:
            chosen = max(takes, key=health)
            why = "the healthiest explorer, likeliest to carry it out"
        self.reason = f"{name(chosen.hero)} takes {what} (Health {health(chosen)}): {why}"
        return chosen

    def on_text_test(self, obs: ViewLike) -> Action | None:
        """Who takes up a room text, when the explorers choose (R-C-EXPL-02, option
        ``text_test = "chosen"``): the hero likeliest to pass every test and win every
        Mental Combat it asks of its hero (the Learned one for the Bone Priest's plan of
        the abbey, a Strong one for the pilgrim's chains); on a tie the one with most
        Health (a failed test often hurts), then most Magic (to spend in a Mental
        Combat, C-MENT-02), then the first in party order."""
        takes = obs.legal_of(TakeTest)
        context = obs.context or {}
        cards = self.cards(obs)
        heroes = {h.id: h for h in obs.heroes_seen()}

        def key(action: TakeTest) -> tuple[float, int, int]:
            hero = heroes.get(action.hero)
            traits = {t.value for t in cards.hero(action.hero).traits}
            return (
                pass_chance(traits, context),
                hero.health if hero is not None else 0,
                int(self.hero_info(obs, action.hero).get("magic") or 0),
            )

        keys = [key(a) for a in takes]
        best = max(keys)
        chosen = takes[keys.index(best)]  # the first of the best: party order on a tie
        asks = [t["trait"] for t in context.get("tests", [])] + [
            "a Mental Combat" for _ in context.get("contests", [])
        ]
        p = best[0]
        self.reason = (
            f"{name(chosen.hero)} takes up the text"
            + (f" ({', '.join(asks)}): passes {p:.2f}" if asks else "")
            + (f", the best of {len(takes)}" if p > min(k[0] for k in keys) else "")
        )
        return chosen

    def on_trade(self, obs: ViewLike) -> Action | None:
        """Take a fallen hero's gear (C-DEATH-01); then pass a healing item to the most
        hurt hero who has none (C-TURN-06)."""
        takes = obs.legal_of(Trade)
        dead = {h.id for h in obs.heroes_seen() if h.dead}
        for action in takes:
            if action.giver in dead:
                self.reason = f"{name(action.receiver)} takes {name(action.giver)}'s gear"
                return action
        cards = self.cards(obs)
        heroes = {h.id: h for h in self.on_board(obs)}
        known = {h: self.healing_items(obs, h, face_down=False) for h in heroes}
        best: tuple[int, Trade] | None = None
        for action in takes:
            giver, receiver = heroes.get(action.giver), heroes.get(action.receiver)
            if giver is None or receiver is None:
                continue
            card = self.card_of(obs, action.giver, action.item)
            if card is None or not amount(cards.items[card].effects, "heal"):
                continue
            need = cards.hero(receiver.id).health - receiver.health
            spare = cards.hero(giver.id).health - giver.health
            wanted = need >= 3 and not known[receiver.id] and need > spare
            if wanted and (best is None or need > best[0]):
                best = (need, action)
        if best is not None:
            action = best[1]
            self.reason = (
                f"{name(action.giver)} passes "
                f"{self.item_words(obs, action.giver, action.item)} to {name(action.receiver)}, "
                f"who lacks {best[0]} Health"
            )
            return action
        if self.knobs.spread:
            spread = self.spread_potions(obs, takes, heroes)
            if spread is not None:
                return spread
        self.reason = "nothing to trade"
        return DONE

    def spread_potions(
        self, obs: ViewLike, takes: list[Trade], heroes: dict[str, HeroSeen]
    ) -> Action | None:
        """Knob ``spread``: a hero holding two or more healing potions (or, ``spread=2``,
        one, when the other has at least 3 Health less) gives one to a hero that holds
        none (C-TURN-06), the least Health first: a hero drinks only its own (at Health
        2 or less, before a fight), and the fragile died holding nothing while the
        potions stayed with whoever explored (Cellars, casters: 62 of 64 heroes who died
        in games where a potion was carried out held none). A face-down potion counts
        (it may be drunk blind, C-IDENT-03)."""
        cards = self.cards(obs)
        held = {h: self.healing_items(obs, h, face_down=True) for h in heroes}
        best: tuple[tuple[int, int, int], Trade] | None = None
        for action in takes:
            giver, receiver = heroes.get(action.giver), heroes.get(action.receiver)
            if giver is None or receiver is None or action.item not in held[giver.id]:
                continue
            many = len(held[giver.id])
            frailer = self.knobs.spread == 2 and giver.health - receiver.health >= 3
            if held[receiver.id] or not (many >= 2 or frailer):
                continue
            key = (receiver.health, cards.hero(receiver.id).health, -many)
            if best is None or key < best[0]:
                best = (key, action)
        if best is None:
            return None
        action = best[1]
        what = self.item_words(obs, action.giver, action.item)
        self.reason = (
            f"{name(action.giver)} gives {what} to {name(action.receiver)} "
            f"(Health {heroes[action.receiver].health}), who holds no potion"
        )
        return action

    def healing_items(self, obs: ViewLike, hero: str, *, face_down: bool) -> list[str]:
        """The items ``hero`` holds whose card heals, as the seat knows them; with
        ``face_down`` its face-down potions too (one may be drunk blind, C-IDENT-03)."""
        cards = self.cards(obs)
        decks = obs.item_decks(hero) if face_down else {}
        return [
            item["uid"]
            for item in self.hero_info(obs, hero)["items"]
            if (
                amount(cards.items[item["card"]].effects, "heal")
                if item["card"] is not None
                else decks.get(item["uid"]) == "potion"
            )
        ]

    def on_choice(self, obs: ViewLike) -> Action | None:
        """In a goal's area take the deed the text offers; elsewhere the option whose tests
        the tested hero is likeliest to pass (or the one with no test)."""
        options = obs.legal_of(ChooseOption)
        in_goal = self.in_areas(obs, self.goal_areas(obs, explored_too=True))
        memory = self.memory
        if any(in_goal[memory.index(h.pos)] for h in obs.heroes_seen() if h.pos is not None):
            choice = min(options, key=lambda a: a.index)
            self.reason = f"the deed the goal asks for (option {choice.index + 1})"
            return choice
        context = obs.context or {}
        tested = str(context.get("hero") or "")
        traits = {t.value for t in self.cards(obs).hero(tested).traits} if tested else set()

        def risky(option: dict[str, Any]) -> bool:
            return bool(option.get("tests") or option.get("contests"))

        scored = [
            (pass_chance(traits, o), -len(o.get("tests", [])) - len(o.get("contests", [])), o)
            for o in context.get("options", [])
        ]
        likely = [x for x in scored if risky(x[2]) and x[0] >= 0.5]
        if likely:
            p, _n, option = max(likely, key=lambda x: (x[0], x[1]))
            choice = next((a for a in options if a.index == option["index"]), options[0])
            self.reason = f"{name(tested)} takes the test of {option['label']!r}: passes {p:.2f}"
            return choice
        safe = [o for o in context.get("options", []) if not risky(o)]
        if safe:
            index = safe[0]["index"]
            choice = next((a for a in options if a.index == index), options[-1])
            self.reason = f"no goal here and no test likely passed: {safe[0]['label']!r}"
            return choice
        choice = self.rng.choose(options)
        self.reason = "no goal here and every option tests: at random"
        return choice


def pass_chance(traits: set[str], asked: dict[str, Any]) -> float:
    """The chance a hero with ``traits`` passes every trait test in ``asked["tests"]``
    and wins every Mental Combat in ``asked["contests"]`` (with no Magic spent,
    Iron-Willed +1 against the text's power, C-MENT-01..03): a text rewards a test
    passed, and a careful table takes one it is likely to pass."""
    p = 1.0
    for contest in asked.get("contests", []):
        margin = (1 if "Iron-Willed" in traits else 0) - int(contest["power"])
        p *= mental_odds(margin)[0]
    for test in asked.get("tests", []):
        bonus = 1 if test["trait"] in traits else 0
        p *= (
            1.0
            if test["target"] == 0 and bonus
            else d6_at_least(test["target"], bonus)
            if test["target"]
            else 0.0
        )
    return p
