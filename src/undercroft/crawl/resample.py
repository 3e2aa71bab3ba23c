"""A game the heroes' seat cannot tell from this one, with its hidden facts drawn afresh.

:func:`resample` is the determinization of information-set search (the ``search``
policy, and OpenSpiel's ``resample_from_infostate``): a new :class:`State` whose heroes'
observation equals the original's (:func:`undercroft.crawl.observe.observe`), with what
the heroes cannot see redrawn from a seeded sampler. It is a plain function over the
engine; the DM sees everything, so for the DM's seat it returns a copy.

The draw is a function of what the heroes know: their view (the board they know, the
areas revealed, the figures, traps and corpses they see, their items' decks), the moves
they made (the state's ``history``: squares they walked have no trap), and a prior from
the adventure's content (its board, and how many traps and monsters of which kinds are
still unmet). Changing a hidden fact of the original (where an undetected trap is, which
unrevealed room a guard waits in, which card a face-down item is) leaves the resampled
game, seed for seed, exactly as it was. Fact by fact:

Redrawn (``layout="fresh"``, the default)
    *Face-down items* (C-IDENT-01, C-IDENT-03, R-C-IDENT-01): the heroes see only an
    item's deck. The face-down cards of one deck that heroes on the board or the corpses
    hold are dealt out again among those items in a seeded random order (``items="shuffle"``,
    the default: the cards in play are the content's, which of them is which is not
    seen), or each is drawn from its whole deck (``items="deck"``: a player who has not
    read the adventure). A scroll begun blind is cast as the card its item now is. Items
    carried out of the dungeon stay as they are (the goals judge them, C-END-01), as
    does one partly used.
    *Guards not yet met* (C-MON-01, C-MON-02, C-TURN-04): the adventure's placements
    not yet placed whose square the heroes do not know and that lie in a room of the
    dungeon not yet revealed (``rooms_in_play``, R-C-PATROL-03) are dealt afresh: their
    monster kinds, sorted, each on a square drawn uniformly from the free floor squares
    of those rooms the heroes do not know (a guard holds a square of a room until seen,
    C-MON-02; shipped adventures place every guard in a room). The number and kinds are
    kept (the content's), which room each waits in and where is not. A placement is
    placed when a hero sees its square (:func:`undercroft.crawl.reveal.place_monsters`),
    so a redrawn guard appears as the content's would. The placements are the
    adventure's, so the resampled game has its own :class:`Ruleset` (the same cards and
    options, the adventure with these placements); :meth:`State.to_json` does not hold
    them, so a resampled game saved and loaded has the content's placements again.
    *Monsters out of the heroes' sight* (R-C-MON-06): each one on the board stands, in
    id order, on a square drawn from the free squares the heroes' board does not show
    that a figure could walk to from its square (the region it is in, through opened
    doors, is kept: the heroes saw it last inside it, and a monster drawn into a sealed
    room would never come back to the fight). No such square is a known trap's
    (R-C-TRAP-01: monsters keep off armed traps) or a redrawn guard's.
    *Undetected traps* (C-TRAP-01, C-TRAP-06): the armed traps no hero has found,
    outside secret areas, are taken up and as many are put back, their kinds sorted and
    each on a square drawn uniformly from the squares a trap may be on as far as the
    heroes know: floor (no furniture) of a room or corridor that is not secret, reachable
    from the start squares through any door, that no hero has stood on or walked
    through (C-TRAP-06: a trap there would have sprung; :func:`walked_squares`), that is
    no start or exit, holds no trap the heroes know of, no figure, corpse or redrawn
    guard (R-C-TRAP-01). The count is kept: the adventure's traps less those found,
    sprung or disarmed, which the heroes can count.
Kept (fixed by the content, or seen)
    *The board and the room texts* (C-EXPL-01): which areas there are, their shapes and
    what their texts do are the adventure's; a text belongs to a named area, which the
    heroes learn only as it is revealed, and their view says nothing of texts not read.
    *Secret areas* and the traps and guards in them (the heroes' view does not show a
    secret area exists). *Guards whose square the heroes know* (in a revealed room, not
    yet seen). *The Detect Traps number* (C-TRAP-01): a roll already made, whose only
    trace is which traps were found, which the heroes see; a roll that found nothing
    is not read as evidence (it tells only that no trap lay within a number the heroes
    never learn).
    ``layout="content"`` keeps the undetected traps and guards not yet met where the
    adventure put them (the draw before this choice existed): a search that knows the
    adventure's content as a DM would, whose decisions then depend on where the hidden
    traps are.

What the draw does not know (a small bias, never a difference the heroes could see):
a monster's walk the heroes saw also tells that no trap was on its path (C-TRAP-05);
a :class:`Move` cut short (a trap sprang, a monster appeared) counts as walked whole,
and a jump's landing square is not counted; a game loaded from a save has no history,
so only the squares the heroes and corpses stand on count as walked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final, Literal

import numpy as np

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import FLOOR_CODE, Pos
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.crawl.actions import Move, Step
from undercroft.crawl.engine import Seat
from undercroft.crawl.figures import Trap
from undercroft.crawl.known import known_bits, monsters_in_sight, view_key
from undercroft.crawl.observe import View
from undercroft.crawl.ruleset import Adventure, Placement
from undercroft.crawl.state import State

ItemDraw = Literal["shuffle", "deck"]
Layout = Literal["fresh", "content"]
NEIGHBOURS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))


def resample(
    state: State,
    seat: Seat,
    seed: int,
    *,
    items: ItemDraw = "shuffle",
    layout: Layout = "fresh",
) -> State:
    """A copy of ``state`` that ``seat`` cannot tell from it, with the hidden facts the
    module docstring lists drawn afresh from ``seed`` (the same seed, the same draw; with
    ``layout="fresh"`` the draw depends on nothing the heroes cannot know)."""
    if seat is not Seat.HEROES:
        return state.clone()  # the DM (and chance) see everything
    rng = DiceSampler(seed)
    known = known_bits(state, view_key(state))
    walked = walked_squares(state) if layout == "fresh" else frozenset()
    copy = state.clone()
    redraw_items(copy, rng, items)
    if layout == "content":
        # R-C-TRAP-01: monsters keep off armed traps, here the content's (all kept).
        armed = {p for p, t in copy.traps.items() if t.armed}
        redraw_hidden_monsters(copy, rng, known, seen_taken(copy) | armed)
        return copy
    guards = redraw_guards(copy, rng, known)
    # The traps are redrawn after the monsters, off their squares (R-C-TRAP-01).
    redraw_hidden_monsters(copy, rng, known, seen_taken(copy) | guards)
    redraw_traps(copy, rng, walked, guards)
    return copy


def determinize(
    view: View, seed: int, *, items: ItemDraw = "shuffle", layout: Layout = "fresh"
) -> State:
    """:func:`resample` of the game ``view`` shows, for its seat: how a policy handed a
    lazy :class:`View` by the runner gets a game to search without reading the one being
    played (the view must be current: a :class:`StaleViewError` otherwise)."""
    return resample(view._game(), view.seat, seed, items=items, layout=layout)


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


def is_known(known: int, width: int, p: Pos) -> bool:
    """Whether the heroes' board shows ``p`` (``known``: :func:`known_bits`)."""
    return bool(known >> (8 * (p.y * width + p.x)) & 1)


def seen_taken(state: State) -> set[Pos]:
    """Squares the heroes see taken: heroes on the board, monsters in their sight,
    corpses, and the traps they know of (found, sprung or disarmed; R-C-TRAP-01)."""
    seen = monsters_in_sight(state, False)
    taken = {h.pos for h in state.active_heroes() if h.pos is not None}
    taken.update(m.pos for m in seen)
    taken.update(state.corpses)
    taken.update(p for p, t in state.traps.items() if t.detected or not t.armed)
    return taken


def redraw_guards(state: State, rng: DiceSampler, known: int) -> frozenset[Pos]:
    """C-MON-01, C-MON-02, C-TURN-04: the guards not yet met that wait in rooms the
    heroes have not revealed, dealt afresh over those rooms' unknown free floor; the
    squares of every placement not yet placed, as they are now."""
    adventure = state.ruleset.adventure
    grid = state.grid
    width = grid.width
    rooms = adventure.rooms_in_play - state.revealed
    placements = list(adventure.placements)
    redrawn = [
        i
        for i, placement in enumerate(placements)
        if i not in state.placed
        and not is_known(known, width, placement.at)
        and state.area_of(placement.at) in rooms
    ]
    if redrawn:
        taken = seen_taken(state) | set(state.exits) | set(adventure.starts)
        waiting = set(range(len(placements))) - state.placed - set(redrawn)
        taken.update(placements[i].at for i in waiting)  # guards kept where they are
        rows = state.walk_rows()
        squares = [
            p
            for name in sorted(rooms)
            for p in grid.squares_of(name)
            if rows[p.y][p.x] and not is_known(known, width, p) and p not in taken
        ]
        squares.sort(key=lambda p: (p.y, p.x))
        kinds = sorted(placements[i].monster for i in redrawn)
        for index, kind in zip(redrawn, kinds, strict=True):
            if not squares:
                break  # no room left: the rest wait where the content put them
            at = squares.pop(rng.choose(range(len(squares))))
            placements[index] = Placement(kind, at)
        state.ruleset = replace(
            state.ruleset, adventure=with_placements(adventure, tuple(placements))
        )
    return frozenset(placements[i].at for i in range(len(placements)) if i not in state.placed)


def with_placements(adventure: Adventure, placements: tuple[Placement, ...]) -> Adventure:
    """``adventure`` with other placements; what it worked out from its board is kept
    (placements play no part in it)."""
    found = replace(adventure, placements=placements)
    found._worked_out.update(adventure._worked_out)
    return found


def redraw_hidden_monsters(state: State, rng: DiceSampler, known: int, taken: set[Pos]) -> None:
    """R-C-MON-06: where each monster out of the heroes' sight stands, off the squares
    ``taken`` (and those drawn before it)."""
    width = state.grid.width
    hidden = sorted(m.id for m in state.monsters.values() if not is_known(known, width, m.pos))
    if not hidden:
        return
    rows = state.walk_rows()
    taken = set(taken)
    for monster_id in hidden:
        monster = state.monsters[monster_id]
        region = walkable_region(rows, monster.pos)
        squares = [p for p in region if not is_known(known, width, p) and p not in taken]
        if squares:
            monster.pos = rng.choose(squares)
        taken.add(monster.pos)


def redraw_traps(
    state: State, rng: DiceSampler, walked: frozenset[Pos], guards: frozenset[Pos]
) -> None:
    """C-TRAP-01, C-TRAP-06: the undetected armed traps outside secret areas, put back
    as many, of the same kinds, on squares the heroes' knowledge leaves open."""
    adventure = state.ruleset.adventure
    secret = adventure.secret_areas
    redrawn = sorted(
        p
        for p, t in state.traps.items()
        if t.armed and not t.detected and state.area_of(p) not in secret
    )
    if not redrawn:
        return
    kinds = sorted(state.traps[p].kind for p in redrawn)
    kept = {p: t for p, t in state.traps.items() if p not in set(redrawn)}
    taken = set(kept) | walked | guards | set(state.exits) | set(adventure.starts)
    taken |= state.occupied()  # every figure, the redrawn monsters too (R-C-TRAP-01)
    squares = [p for p in trap_floor(state) if p not in taken]
    for kind in kinds:
        if not squares:
            break  # nowhere left: fewer traps (no shipped adventure comes near)
        at = squares.pop(rng.choose(range(len(squares))))
        kept[at] = Trap(kind)
    # Board order: the traps' order in the dict tells nothing of which were redrawn.
    state.traps = dict(sorted(kept.items(), key=lambda item: (item[0].y, item[0].x)))


def trap_floor(state: State) -> list[Pos]:
    """The squares an adventure could hold a trap on, in board order: floor without
    furniture in a room or corridor that is not secret, reachable from a start square
    through any door (the adventure's board; worked out once per adventure)."""
    adventure = state.ruleset.adventure
    key = ("resample.trap_floor", adventure.id, adventure.starts, adventure.secret_areas)
    kept: list[Pos] | None = state.grid.kept_for_areas(key)
    if kept is not None:
        return kept
    board = adventure.board
    finder = Pathfinder(board, DoorPassage.ALL)
    reach = np.zeros(board.terrain.shape, np.bool_)
    for start in adventure.starts:
        reach |= finder.distances_from(start) >= 0
    open_area = np.zeros(len(board.areas) + 1, np.bool_)  # by area index + 1 (0: no area)
    for i, info in enumerate(board.areas):
        open_area[i + 1] = info.name not in adventure.secret_areas
    floor = (board.terrain == FLOOR_CODE) & ~board.furniture & open_area[board.area + 1] & reach
    ys, xs = np.nonzero(floor)  # row by row: board order
    found = [Pos(int(x), int(y)) for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]
    state.grid.keep_for_areas(key, found)
    return found


def walked_squares(state: State) -> frozenset[Pos]:
    """Squares a hero has stood on or walked through, as far as the heroes' own moves
    (``state.history``) tell: the start squares, every square of a :class:`Move` or
    :class:`Step`, and where heroes and corpses are now. Worked out over the history
    once and kept on the state as it grows."""
    history = state.history
    cached = state.derived.get("walked")
    done, found = (0, set()) if cached is None else cached
    if done > len(history):
        done, found = 0, set()  # not this game's history (never grows shorter)
    found = set(found)
    for action in history[done:]:
        if isinstance(action, Move):
            found.update(action.path)
        elif isinstance(action, Step):
            found.add(action.to)
    state.derived["walked"] = (len(history), frozenset(found))
    found.update(state.ruleset.adventure.starts)
    found.update(h.pos for h in state.active_heroes() if h.pos is not None)
    found.update(state.corpses)
    return frozenset(found)


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
