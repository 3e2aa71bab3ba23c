"""What every part of the careful party shares: its knobs, its reason, who is where, waiting
and resting (see :mod:`undercroft.agents.careful`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from undercroft.agents.basic_party import HeroParty
from undercroft.agents.knobs import CarefulKnobs
from undercroft.agents.odds import duel_odds
from undercroft.agents.plan import PLANNING_COST, PLANNING_MOST, WALK_COST, Search
from undercroft.core.grid import Pos
from undercroft.crawl.actions import (
    Action,
    Cast,
    Drag,
    Identify,
    Jump,
    Leave,
    Memorize,
    Move,
    OpenDoor,
    Rest,
    UseItem,
)
from undercroft.crawl.context import Cards
from undercroft.crawl.observe import HeroSeen, MonsterSeen, ViewLike
from undercroft.crawl.ruleset import Trait

NO_AREA = 255
T = TypeVar("T")
KILL = 1.0
"""What a kill is worth to the heroes, the unit every other value is measured in."""
DEATHS_DOOR = 1.4
"""What a hero falling to Death's Door costs (a 1 in 2 chance of dying each turn)."""
STAMINA_POINT = 0.03
"""What a point of Stamina costs (it comes back at 1 a turn)."""
HURT_WEIGHT = 1.0
"""What a wound short of Death's Door costs, per share of the hero's Health it takes."""
EXHAUSTED_COST = 0.25
"""What Exhaustion costs (no Stamina to spend until it is full again, C-EXH-01)."""
RESERVE_COST = 0.15
"""What spending the last 2 Stamina a hurt hero keeps to evade with costs."""
MAGIC_POINT = 0.18
"""What a point of Magic costs (it comes back only by resting, C-SPELL-05)."""
TEAM_FOLLOW = 2
"""The ``follow`` reach of a party playing as a team (``team``)."""
ITEM_VERBS: dict[type[Action], str] = {
    UseItem: "uses",
    Identify: "identifies",
    Memorize: "memorizes",
}
"""How a reason tells an action on an item a hero holds (:meth:`CarefulBase.say`)."""
ALONE_ODDS = 0.5
"""With ``team=2`` a slay goal's monster calls for the whole party when no hero on the
board would beat it alone at least this often."""


def amount(effects: Any, kind: str) -> int:
    """The total of the effects of ``kind`` (``heal``, ``light``, ``stamina``, ...)."""
    return sum(int(getattr(e, "amount", 0)) for e in effects if getattr(e, "type", "") == kind)


def name(figure: str) -> str:
    """``hero:brenna`` -> ``Brenna``, ``monster:orc-2`` -> ``orc-2``."""
    bare = figure.partition(":")[2] or figure
    return bare.capitalize() if figure.startswith("hero:") else bare


DARK_STUCK = 10
"""Turns a room the tale names may stay in view unread before ``dark`` (2 to 4) counts
the party as unable to read it."""


@dataclass
class CarefulBase(HeroParty):
    """The careful party's state and shared helpers; its decisions are in the parts."""

    knobs: CarefulKnobs = field(default_factory=CarefulKnobs)
    reason: str = ""
    patience: int = 2
    """Turns in a row the leader waits for the others ("join within a turn or two")."""

    def __post_init__(self) -> None:
        self.give_up_turn = self.knobs.give_up

    def act(self, obs: ViewLike) -> Action:
        self.reason = ""
        action = super().act(obs)
        if not self.reason:
            self.reason = f"{obs.decision}: nothing to weigh"
        return action

    # -- who is where ------------------------------------------------------------------
    def cards(self, obs: ViewLike) -> Cards:
        """The public cards (C-SETUP-02), which every view carries."""
        found = obs.cards
        assert found is not None, "an observation without its cards"
        return found

    def on_board(self, obs: ViewLike) -> list[HeroSeen]:
        return [h for h in obs.heroes_seen() if h.pos is not None]

    def leader(self, obs: ViewLike) -> HeroSeen | None:
        """The first hero in party order still on the board and not at Death's Door (one
        there rests or crawls out, C-DD-01: the others do not wait on it), else the first
        on the board."""
        found = self.on_board(obs)
        standing = [h for h in found if h.health > 0] or found
        return standing[0] if standing else None

    # -- playing as a team (the ``team`` knob) ------------------------------------------
    def teaming(self, obs: ViewLike) -> bool:
        """Whether the party plays as a team now (``team``): while a slay goal is open
        (1), or while a slay goal's monster is one no hero on the board beats alone more
        often than not (2); decided from the goals and the public cards (C-SETUP-02)."""
        if not self.knobs.team:
            return False
        kept: tuple[int, bool] | None = self.notes.get("teaming")
        if kept is not None and kept[0] == obs.turn:
            return kept[1]
        slay = [g.target for g in self.open_goals(obs) if g.kind == "slay"]
        if self.knobs.team >= 2:
            slay = [kind for kind in slay if self.outmatched(obs, kind)]
        found = bool(slay)
        self.notes["teaming"] = (obs.turn, found)
        return found

    def outmatched(self, obs: ViewLike, kind: str) -> bool:
        """Whether every hero on the board, fighting the monster ``kind`` alone (fresh,
        no Stamina), would bring it to 0 Health first less than ``ALONE_ODDS`` of the
        time (C-FIGHT-04, C-FIGHT-05, C-FIGHT-06)."""
        cards = self.cards(obs)
        monster = cards.monsters.get(kind)
        if monster is None:
            return False
        for hero in self.on_board(obs):
            card = cards.hero(hero.id)
            odds = duel_odds(
                card.fighting - monster.fighting,
                card.has(Trait.STRONG),
                -(-monster.health // max(1, card.damage)),
                -(-card.health // max(1, monster.damage)),
            )
            if odds >= ALONE_ODDS:
                return False
        return True

    def follow_reach(self, obs: ViewLike) -> int:
        """How close the others keep to the leader out of a fight (``follow``, or
        :data:`TEAM_FOLLOW` while the party plays as a team; 0: they go their own way)."""
        reach = self.knobs.follow
        if self.teaming(obs):
            reach = max(reach, TEAM_FOLLOW)
        return reach

    # -- a fight that stands still (the ``standoff`` knob) -------------------------------
    def should_leave(self, obs: ViewLike) -> bool:
        """As ``basic`` (the goals, ``give_up``), once a fight has stood still for
        ``standoff`` turns (:meth:`note_standoff`), and in a fight with every hero at
        Death's Door (:meth:`all_dying`); never while no way out is known (the Court of
        the Ash King has none until a text opens one, C-END-01: a party "leaving" there
        only wandered, saying it headed for the way out)."""
        why = self.leave_why(obs)
        self.notes["leave_why"] = why  # for the reason of this decision (``why_move``)
        return why is not None

    def leave_why(self, obs: ViewLike) -> str | None:
        """Why the party leaves (:meth:`should_leave`), as a reason's ending: ``""`` for the
        goals or the turn (``basic``'s reasons), the fight that sent it out otherwise;
        ``None`` when it stays."""
        if not obs.exits:
            return None
        if super().should_leave(obs):
            return ""
        if self.all_dying(obs):
            return ": every hero on the board lies at Death's Door, in a fight"
        if self.notes.get("stood_off"):
            turns = self.knobs.standoff
            return f": the fight has stood still {turns} turns, and nobody explores in one"
        if self.lost_in_the_dark(obs):
            half = self.knobs.dark >= 4 and self.half_fallen(obs)
            fallen = ", half the party has fallen," if half else ","
            return f": the Light is out{fallen} and a goal's room is still to be found"
        return None

    def named_rooms(self, obs: ViewLike) -> frozenset[str]:
        """The revealed rooms (not corridors) whose names the adventure's introduction
        tells (as written, in any case, as whole words: "Shrine" is not in "shrines"),
        kept while the revealed areas are the same."""
        kept: tuple[tuple[str, ...], frozenset[str]] | None = self.notes.get("named_rooms")
        if kept is None or kept[0] != obs.revealed:
            told = obs.intro.casefold()
            corridors = obs.corridors
            named = frozenset(
                a
                for a in obs.revealed
                if a not in corridors and re.search(rf"\b{re.escape(a.casefold())}\b", told)
            )
            kept = (obs.revealed, named)
            self.notes["named_rooms"] = kept
        return kept[1]

    def unread_named_ranks(self, obs: ViewLike) -> set[int]:
        """The ranks of the rooms the tale names (:meth:`named_rooms`) whose text nobody
        has read yet (C-EXPL-01)."""
        named = self.named_rooms(obs)
        return {
            r for r, area in enumerate(obs.revealed) if area in named and area not in self.explored
        }

    def goal_area_hidden(self, obs: ViewLike) -> bool:
        """Whether an open visit goal names an area not revealed yet (a secret room, which
        a text may reveal: ``muster=2``, ``together=2``, ``dark``)."""
        revealed = obs.revealed
        return any(g.kind == "visit" and g.target not in revealed for g in self.open_goals(obs))

    def lost_in_the_dark(self, obs: ViewLike) -> bool:
        """Knob ``dark``: the Light is out (C-LIGHT-01/02), an open visit goal names an
        area not revealed (:meth:`goal_area_hidden`), and the rooms the adventure's
        introduction names (where the tale says to look) have all been read, and did not
        reveal it; with ``dark=2``, or one of them has been in view for
        :data:`DARK_STUCK` turns without being read (the party cannot get to read it:
        nobody explores while monsters are on the board, C-CMB-01); with ``dark=3`` that
        second case only once a hero has died; with ``dark=4`` (the default) as 3, and
        also, a room the tale names found, once half the party has died (Bone Priest,
        200 seeds against ``master``: of the casters' games that came to the Light out,
        the Ossuary hidden and two heroes dead, none was won; of the first four's, none
        of 28). Read in the Bone
        Priest (casters, ``master``, 200 seeds): 80% of the party's fights at Light 0
        came before the Ossuary was found, and of 80 games won one found it after the
        Light went out. A goal's room merely not seen yet is no such sign: in the
        Greyhollow Cellars the Cells are often first seen after the Light is out, and
        most games are won."""
        if not self.knobs.dark or obs.light > 0 or not self.goal_area_hidden(obs):
            return False
        if not self.named_rooms(obs):
            return False
        if self.knobs.dark >= 4 and self.half_fallen(obs):
            return True
        unread = [obs.revealed[r] for r in self.unread_named_ranks(obs)]
        if not unread:
            return True
        seen: dict[str, int] = self.notes.get("seen_at", {})
        stuck = self.knobs.dark >= 2 and all(
            obs.turn - seen.get(area, obs.turn) >= DARK_STUCK for area in unread
        )
        return stuck and (self.knobs.dark == 2 or self.fallen(obs) > 0)

    def fallen(self, obs: ViewLike) -> int:
        """How many of the party have died (C-DD-01)."""
        return sum(1 for h in obs.heroes_seen() if h.dead)

    def half_fallen(self, obs: ViewLike) -> bool:
        """Whether half the party or more has died."""
        return 2 * self.fallen(obs) >= len(obs.heroes)

    def note_seen(self, obs: ViewLike) -> None:
        """The turn each area was first in view (``dark`` 2 to 4), noted at each
        Movement."""
        seen: dict[str, int] = self.notes.setdefault("seen_at", {})
        if len(seen) != len(obs.revealed):
            for area in obs.revealed:
                seen.setdefault(area, obs.turn)

    def all_dying(self, obs: ViewLike) -> bool:
        """Knob ``dying``: monsters are on the board and every hero on it lies at Death's
        Door (Health 0, C-FIGHT-06). None of them can hang back behind a healthier
        friend, each rolls at every Turn End (C-DD-01) and again for each wound
        (C-DD-03), and out of the dungeon none rolls again (C-END-01): they leave. Read
        in the Bone Priest (first four, ``master``): in 8 games of 100 the last hero
        standing, at Death's Door, stepped out of a fight and back into it in one
        Movement, turn after turn (where no way out is known, :meth:`desperate`)."""
        if not self.knobs.dying or not obs.monsters:
            return False
        board = self.on_board(obs)
        return bool(board) and all(h.health == 0 for h in board)

    def note_standoff(self, obs: ViewLike) -> None:
        """Knob ``standoff``, noted at the first Movement decision of each turn, before
        any hero moves: the turn before stood still when every hero and every monster in
        sight stands where it stood at the same moment of it, no hero stands next to a
        monster, and in it no hero came next to one nor held its ground by choice
        (``hold``, for the monsters to come): no fight and no step, corpses or a shut
        door keeping the two sides apart, or a caster waiting for a monster that never
        comes. Explore is skipped while monsters are on the board (C-CMB-01), so such a fight
        wins nothing, while the Light burns (C-LIGHT-01), the hurt roll at Death's Door
        (C-DD-01) and patrols come (C-MON-03): after ``standoff`` such turns in a row
        the party leaves, for the rest of the game; with no way out known it goes round
        to the monsters by any way it can, for the rest of that fight (:meth:`rove`).
        Read in the Court of the Ash King (casters, the ``basic`` DM, seed 36): Corvin,
        the last hero standing, waited 55 turns for the Ash King, who could not reach
        him, until he died."""
        if not self.knobs.standoff:
            return
        kept: tuple[int, object, int] | None = self.notes.get("standoff")
        if kept is not None and kept[0] == obs.turn:
            return
        heroes = tuple((h.id, h.pos) for h in obs.heroes_seen() if h.pos is not None)
        monsters = obs.monsters_seen()
        board = (heroes, tuple((m.id, m.pos) for m in monsters))
        still = (
            bool(monsters)
            and kept is not None
            and kept[0] == obs.turn - 1
            and kept[1] == board
            and self.notes.get("held") != obs.turn - 1
            and self.notes.get("contact", {}).get("last") != obs.turn - 1
            and not any(m.pos.is_adjacent(at) for m in monsters for _, at in heroes)
        )
        turns = kept[2] + 1 if still and kept is not None else 0
        self.notes["standoff"] = (obs.turn, board, turns)
        if not monsters:
            self.notes.pop("roving", None)  # that fight is over
        if turns >= self.knobs.standoff:
            # With no way out known (the Court of the Ash King until a text opens one)
            # the party cannot leave: it goes round to the monsters instead, by doors
            # and unknown squares too, until the fight ends (``roving``).
            self.notes["stood_off" if obs.exits else "roving"] = True

    def holds(self, obs: ViewLike) -> bool:
        """Whether a hero in a fight holds its ground rather than go round by doors and
        unknown squares (``hold``, or while the party plays as a team)."""
        return bool(self.knobs.hold) or self.teaming(obs)

    def hero_info(self, obs: ViewLike, hero: str) -> dict[str, Any]:
        """The view's record of ``hero`` (an index of the view's records is kept while
        the view hands out the same ones: a decision asks this many times)."""
        heroes = obs.heroes
        kept: tuple[object, dict[str, dict[str, Any]]] | None = self.notes.get("hero_index")
        if kept is None or kept[0] is not heroes:
            kept = (heroes, {h["id"]: h for h in heroes})
            self.notes["hero_index"] = kept
        return kept[1][hero]

    def kept(self, note: str, at: Pos, most: int, make: Callable[[], T]) -> T:
        """What ``make`` works out for ``at`` on the remembered board, kept in the notes
        under ``note`` while the memory is the same (at most ``most`` squares' worth)."""
        kept: dict[tuple[Pos, bytes], T] = self.notes.setdefault(note, {})
        key = (at, self.memory.codes)
        found = kept.get(key)
        if found is None:
            if len(kept) >= most:
                kept.clear()
            found = kept[key] = make()
        return found

    def walk_from(self, pos: Pos) -> Search:
        """Walking distances from ``pos`` over the remembered board, figures ignored
        (kept: the leader asks them of every other hero)."""
        memory = self.memory

        def search() -> Search:
            costs = memory.costs(PLANNING_COST)
            return Search(costs, memory.width, [memory.index(pos)], most=PLANNING_MOST)

        return self.kept("walks", pos, 65, search)

    def known_floor_walk(self, at: Pos, blocked: set[int] | frozenset[int] = frozenset()) -> Search:
        """Walking distances from ``at`` over known floor only (no unknown square, no shut
        door), through no square of ``blocked``."""
        memory = self.memory
        return Search(memory.costs(WALK_COST), memory.width, [memory.index(at)], blocked)

    def blocked(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], *more: Pos
    ) -> set[int]:
        """The squares (board indices) ``hero`` cannot walk through: the other heroes,
        corpses, detected traps (C-DEATH-01, C-TRAP-05) and ``more`` (monsters)."""
        bodies = {h.pos for h in heroes if h.pos is not None} - {hero.pos}
        bodies |= set(obs.corpse_squares()) | set(obs.trap_squares()) | set(more)
        return {self.memory.index(p) for p in bodies}

    def walk_clear_of(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
        wanted: bytearray,
        fits: Callable[[Pos], bool] | None = None,
        tries: int = 1,
    ) -> tuple[Pos, ...] | None:
        """This turn's walk over known floor (the other heroes, corpses, detected traps
        and monsters in the way) to the nearest square marked in ``wanted`` that is
        next to no monster, and that ``fits`` (if given): the nearest ``tries`` squares
        are tried in turn. ``None``: none within the hero's movement left. ``wanted``
        is changed (the squares tried and those by the monsters are unmarked)."""
        here = hero.pos
        assert here is not None
        memory = self.memory
        around = memory.shape.around
        for m in monsters:
            i = memory.index(m.pos)
            wanted[i] = 0
            for j in around[i]:
                wanted[j] = 0
        blocked = self.blocked(obs, hero, heroes, *(m.pos for m in monsters))
        search = self.known_floor_walk(here, blocked)
        for _ in range(tries):
            target = search.nearest(bytes(wanted))
            if target is None or search.dist[target] > hero.moves_left:
                return None
            wanted[target] = 0
            end = memory.pos(target)
            walk = self.known_walk(search.path_to(target), hero.moves_left)
            if walk and walk[-1] == end and (fits is None or fits(end)):
                return walk
        return None

    def known_walk(self, route: list[int], moves: int) -> tuple[Pos, ...]:
        """The first ``moves`` squares of ``route`` up to the first not known to be floor
        (an unknown square or a shut door is not walked into blind)."""
        memory = self.memory
        walk: list[Pos] = []
        for i in route[:moves]:
            if not memory.walkable(i):
                break
            walk.append(memory.pos(i))
        return tuple(walk)

    def item_words(self, obs: ViewLike, hero: str, uid: str) -> str:
        """An item a hero holds, as the table names it: the card's name, or a face-down
        card of its deck (C-IDENT-01)."""
        card = self.card_of(obs, hero, uid)
        if card is not None:
            return f"the {self.cards(obs).items[card].name}"
        deck = obs.item_decks(hero).get(uid)
        return f"a face-down {deck}" if deck else "a face-down card"

    def say(self, obs: ViewLike, action: Action) -> str:
        """What a hero's action does, in the game's words (a reason never shows an
        action's fields)."""
        who = name(str(getattr(action, "hero", "")))
        if isinstance(action, Leave):
            return f"{who} leaves the dungeon (C-END-01)"
        if isinstance(action, (UseItem, Identify, Memorize)):
            verb = ITEM_VERBS[type(action)]
            return f"{who} {verb} {self.item_words(obs, action.hero, action.item)}"
        if isinstance(action, Cast):
            return f"{who} casts {action.spell or 'a face-down scroll'}"
        if isinstance(action, Move):
            return f"{who} walks to {action.path[-1].x},{action.path[-1].y}"
        if isinstance(action, OpenDoor):
            return f"{who} forces the door at {action.door.x},{action.door.y}"
        if isinstance(action, Jump):
            return f"{who} jumps over {action.over.x},{action.over.y}"
        if isinstance(action, Drag):
            return f"{who} drags the corpse at {action.corpse.x},{action.corpse.y}"
        if isinstance(action, Rest):
            return f"{who} rests"
        return f"{who}: {type(action).__name__}"

    def card_of(self, obs: ViewLike, hero: str, uid: str) -> str | None:
        """The card of an item the hero holds, if the seat knows it."""
        for item in self.hero_info(obs, hero)["items"]:
            if item["uid"] == uid:
                card: str | None = item["card"]
                return card
        return None

    def monster_record(self, obs: ViewLike, monster: str) -> dict[str, Any]:
        """The view's record of ``monster`` (its kind, Health, how it was met, ...)."""
        for m in obs.monsters:
            if m["id"] == monster:
                return m
        raise KeyError(monster)

    def kind_of(self, obs: ViewLike, monster: str) -> str:
        kind: str = self.monster_record(obs, monster)["kind"]
        return kind

    def encounter_of(self, obs: ViewLike, monster: str) -> str:
        """How ``monster`` was met: guard, patrol or ambusher (C-MON-01)."""
        encounter: str = self.monster_record(obs, monster)["encounter"]
        return encounter

    # -- Explore and Trade ---------------------------------------------------------------
    def area_rank(self, obs: ViewLike, pos: Pos) -> int:
        codes = obs.area_codes()
        if not codes:
            return NO_AREA
        rank: int = codes[self.memory.index(pos)]
        return rank

    def wait(self, obs: ViewLike, hero: HeroSeen, why: str) -> Action | None:
        """Wait this turn: rest if that refills something (C-REST-01/02) and nothing
        needs this hero's Explore, else simply end the movement."""
        if self.knobs.rest and not obs.monsters and self.worth_resting(obs, hero):
            rest = obs.legal_of(Rest, hero.id)
            if rest:
                self.reason = f"{why}; rests meanwhile (C-REST-02)"
                return rest[0]
        self.reason = why
        return None

    def worth_resting(self, obs: ViewLike, hero: HeroSeen) -> bool:
        info = self.hero_info(obs, hero.id)
        card = self.cards(obs).hero(hero.id)
        short = info["stamina"] < card.stamina or (card.magic and info["magic"] < card.magic)
        if not short or hero.moves_left < card.movement:
            return False  # moved already this turn, or nothing to refill
        # A resting hero does not explore (C-REST-01): not in an area still to explore.
        codes = obs.area_codes()
        if hero.pos is not None and codes:
            rank = codes[self.memory.index(hero.pos)]
            if rank != NO_AREA and obs.revealed[rank] not in self.explored:
                return False
        return True

    # -- what the other parts give (see undercroft.agents.careful) -------------------------

    def first_aid(
        self, obs: ViewLike, hero: HeroSeen, heroes: tuple[HeroSeen, ...], fighting: bool
    ) -> Action | None:
        raise NotImplementedError  # careful_parts.magic

    def fight_move(
        self,
        obs: ViewLike,
        hero: HeroSeen,
        heroes: tuple[HeroSeen, ...],
        monsters: tuple[MonsterSeen, ...],
    ) -> Action | None:
        raise NotImplementedError  # careful_parts.fighting

    def light_action(self, obs: ViewLike) -> Action | None:
        raise NotImplementedError  # careful_parts.magic
