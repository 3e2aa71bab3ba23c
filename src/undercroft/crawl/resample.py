"""A game the heroes' seat cannot tell from this one, with its hidden facts drawn afresh.

:func:`resample` is the determinization of information-set search (the ``search``
policy, and OpenSpiel's ``resample_from_infostate``): a new :class:`State` whose heroes'
observation equals the original's (:func:`undercroft.crawl.observe.observe`), with what
the heroes cannot see redrawn from a seeded sampler. It is a plain function over the
engine; the DM sees everything, so for the DM's seat it returns a copy.

The crawl has no shuffled deck: an adventure names every card a text gives, every trap
and every monster it places (its content), and nothing the heroes do not see was drawn by
chance except the hidden Detect Traps number. So what is redrawn is what the rules leave
to the DM's hidden play or to the order of face-down cards, and what the content fixes is
kept as it is. Fact by fact:

Redrawn
    *Face-down items* (C-IDENT-01, C-IDENT-03, R-C-IDENT-01): the heroes see only an
    item's deck. The face-down cards of one deck that heroes on the board or the corpses
    hold are dealt out again among those items in a seeded random order (``items="shuffle"``,
    the default: the cards in play are the content's, which of them is which is not
    seen), or each is drawn from its whole deck (``items="deck"``: a player who has not
    read the adventure). A scroll begun blind is cast as the card its item now is. Items
    carried out of the dungeon stay as they are (the goals judge them, C-END-01), as
    does one partly used.
    *Monsters out of the heroes' sight* (R-C-MON-06): each stands, in id order, on a
    square drawn from the free squares the heroes' board does not show that a figure
    could walk to from its square (the region it is in, through opened doors, is kept:
    a monster drawn into a sealed room would never come back to the fight). Monsters
    keep off armed traps (R-C-TRAP-01), so no such square is drawn.
Kept (fixed by the content, or seen)
    *Undetected traps* (C-TRAP-01, C-TRAP-06): where they are and their kinds are the
    adventure's. *Unrevealed rooms and what is in them* (C-TURN-04, C-EXPL-01): their
    placements and texts are the adventure's. *The Detect Traps number* (C-TRAP-01): a
    roll already made, whose only trace is which traps were found, which the heroes see.

A search that plays rollouts from these states therefore knows the adventure's content
(as a DM would), not what the DM did out of sight or which face-down card is which.
"""

from __future__ import annotations

from typing import Final, Literal

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos
from undercroft.crawl.engine import Seat
from undercroft.crawl.known import known_bits, monsters_in_sight, view_key
from undercroft.crawl.observe import View
from undercroft.crawl.state import State

ItemDraw = Literal["shuffle", "deck"]
NEIGHBOURS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))


def resample(state: State, seat: Seat, seed: int, *, items: ItemDraw = "shuffle") -> State:
    """A copy of ``state`` that ``seat`` cannot tell from it, with the hidden facts the
    module docstring lists drawn afresh from ``seed`` (the same seed, the same draw; the
    draw does not depend on the hidden facts it replaces, beyond what the module
    docstring says is kept)."""
    copy = state.clone()
    if seat is not Seat.HEROES:
        return copy  # the DM (and chance) see everything
    rng = DiceSampler(seed)
    redraw_items(copy, rng, items)
    redraw_hidden_monsters(copy, rng)
    return copy


def determinize(view: View, seed: int, *, items: ItemDraw = "shuffle") -> State:
    """:func:`resample` of the game ``view`` shows, for its seat: how a policy handed a
    lazy :class:`View` by the runner gets a game to search without reading the one being
    played (the view must be current: a :class:`StaleViewError` otherwise)."""
    return resample(view._game(), view.seat, seed, items=items)


def redraw_items(state: State, rng: DiceSampler, how: ItemDraw) -> None:
    """C-IDENT-01, R-C-IDENT-01: which face-down card each unseen item is."""
    cards = state.ruleset.items
    holders = [h.items for h in state.heroes.values() if h.on_board]
    holders += [c.items for c in state.corpses.values()]
    by_deck: dict[str, list[str]] = {}
    for held in holders:
        for uid in held:
            item = state.items[uid]
            card = cards[item.card]
            # Only a whole card: a partly used one has shown it has uses (kept as it is).
            if not item.identified and item.uses == card.uses:
                by_deck.setdefault(card.kind.value, []).append(uid)
    decks: dict[str, list[str]] = {}
    if how == "deck":
        for card_id in sorted(cards):
            decks.setdefault(cards[card_id].kind.value, []).append(card_id)
    new: dict[str, str] = {}
    for deck in sorted(by_deck):
        uids = sorted(by_deck[deck])
        if how == "deck":
            for uid in uids:
                new[uid] = rng.choose(decks[deck])
            continue
        # The cards in play, sorted, dealt to the items in uid order: which item held
        # which card before plays no part in the deal.
        pool = sorted(state.items[uid].card for uid in uids)
        for uid in uids:
            new[uid] = pool.pop(rng.choose(range(len(pool))) if len(pool) > 1 else 0)
    for uid, card_id in new.items():
        item = state.items[uid]
        item.card = card_id
        item.uses = cards[card_id].uses
    for hero in state.heroes.values():
        casting = hero.casting
        # A scroll begun blind is read in the casting step as the card it is then.
        if casting is not None and casting.get("blind") and casting.get("source") in new:
            spell = cards[new[casting["source"]]].spell
            if spell is not None:
                casting["spell"] = spell


def redraw_hidden_monsters(state: State, rng: DiceSampler) -> None:
    """R-C-MON-06: where each monster out of the heroes' sight stands."""
    seen = {m.id for m in monsters_in_sight(state, False)}
    hidden = sorted(m for m in state.monsters if m not in seen)
    if not hidden:
        return
    known = known_bits(state, view_key(state))
    width = state.grid.width
    rows = state.walk_rows()
    taken = {h.pos for h in state.active_heroes() if h.pos is not None}
    taken.update(m.pos for m in state.monsters.values() if m.id in seen)
    taken.update(state.corpses)
    taken.update(p for p, t in state.traps.items() if t.armed)  # R-C-TRAP-01

    def unseen(p: Pos) -> bool:
        return not known >> (8 * (p.y * width + p.x)) & 1

    for monster_id in hidden:
        monster = state.monsters[monster_id]
        region = walkable_region(rows, monster.pos)
        squares = [p for p in region if unseen(p) and p not in taken]
        if squares:
            monster.pos = rng.choose(squares)
        taken.add(monster.pos)


def walkable_region(rows: list[list[bool]], start: Pos) -> list[Pos]:
    """The squares a figure could walk to from ``start`` over floor and opened doors
    (figures aside), in board order (rows, then columns)."""
    found = {start}
    todo = [start]
    height = len(rows)
    while todo:
        p = todo.pop()
        for dx, dy in NEIGHBOURS:
            x, y = p.x + dx, p.y + dy
            if 0 <= y < height and 0 <= x < len(rows[y]) and rows[y][x]:
                q = Pos(x, y)
                if q not in found:
                    found.add(q)
                    todo.append(q)
    return sorted(found, key=lambda p: (p.y, p.x))
