"""Test content and helpers for the crawl tests: small hand-drawn boards and cards."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from undercroft.core.dice import ChanceOutcome, DiceSampler
from undercroft.core.events import CrawlTime, EventLog, Header, LogEntry
from undercroft.core.grid import AreaInfo, Grid, Pos
from undercroft.crawl import State, new_game
from undercroft.crawl import effects as fx
from undercroft.crawl.actions import Action, Done, Explore, Roll
from undercroft.crawl.engine import Seat
from undercroft.crawl.ruleset import (
    Adventure,
    CastingTime,
    Encounter,
    Goal,
    HeroProfile,
    ItemCard,
    ItemKind,
    MonsterAbility,
    MonsterProfile,
    Options,
    Placement,
    RoomText,
    Ruleset,
    SpellCard,
    Targeting,
    Trait,
    TrapKind,
)


def hero(
    hid: str,
    *,
    movement: int = 4,
    fighting: int = 3,
    damage: int = 2,
    health: int = 6,
    stamina: int = 4,
    magic: int = 0,
    traits: Iterable[Trait] = (),
    spells: Sequence[str] = (),
    items: Sequence[str] = (),
) -> HeroProfile:
    return HeroProfile(
        hid, hid.title(), movement, fighting, damage, health, stamina, magic,
        frozenset(traits), tuple(spells), tuple(items),
    )  # fmt: skip


HEROES = {
    h.id: h
    for h in (
        hero("ana"),
        hero("bram", traits=[Trait.STRONG]),
        hero("cora", traits=[Trait.AGILE, Trait.PERCEPTIVE]),
        hero("dell", traits=[Trait.LEARNED], magic=3, spells=["bolt"]),
        hero("eryn", traits=[Trait.IRON_WILLED]),
    )
}

STARE = fx.MentalCombat(power=1, on_lose=(fx.Damage(amount=1, who="self"),))

MONSTERS = {
    m.id: m
    for m in (
        MonsterProfile("rat", "Rat", 4, 1, 1, 1, 1),
        MonsterProfile("orc", "Orc", 4, 3, 2, 3, 2),
        MonsterProfile("ogre", "Ogre", 3, 5, 3, 6, 3),
        MonsterProfile("lurker", "Lurker", 4, 3, 2, 3, 1, encounter=Encounter.AMBUSHER),
        MonsterProfile(
            "gazer", "Gazer", 2, 2, 1, 3, 0, 2,
            abilities=(MonsterAbility("stare", 5, (STARE,)),),
        ),
    )
}  # fmt: skip

SPELLS = {
    s.id: s
    for s in (
        SpellCard(
            "bolt", "Bolt", 1, CastingTime.COMBAT, Targeting.MONSTER, 6,
            (fx.SlayMonster(amount=2),), overcast=(fx.SlayMonster(amount=4),),
        ),
        SpellCard("mend", "Mend", 2, CastingTime.MOVEMENT, Targeting.HERO, 4, (fx.Heal(amount=3),)),
        SpellCard(
            "glow", "Glow", 1, CastingTime.EXPLORE, Targeting.SELF, 0,
            (fx.ChangeLight(amount=3),), ongoing_turns=3,
        ),
    )
}  # fmt: skip

ITEMS = {
    i.id: i
    for i in (
        ItemCard("tonic", "Tonic", ItemKind.POTION, (fx.Heal(amount=2, who="self"),)),
        ItemCard("bolt-scroll", "Scroll of Bolt", ItemKind.SCROLL, spell="bolt"),
        ItemCard("mend-scroll", "Scroll of Mend", ItemKind.SCROLL, spell="mend"),
        ItemCard("gem", "Gem", ItemKind.TREASURE, value=50),
        ItemCard("blade", "Rune Blade", ItemKind.MAGIC, fighting_bonus=1),
        ItemCard("torch", "Torch", ItemKind.GEAR, (fx.ChangeLight(amount=2),)),
    )
}

TRAPS = {
    "pit": TrapKind("pit", "Pit", (fx.Damage(amount=2, who="target"),)),
    "darts": TrapKind("darts", "Darts", (fx.Damage(amount=1, who="target"),), ends_movement=False),
}


def board(
    tiles: str, areas: str | None = None, legend: Mapping[str, AreaInfo] | None = None
) -> Grid:
    clean = "\n".join(line.strip() for line in tiles.strip().splitlines())
    clean_areas = None
    if areas is not None:
        clean_areas = "\n".join(line.strip() for line in areas.strip().splitlines())
    return Grid.from_text(clean, areas=clean_areas, area_info=legend or {})


def ruleset(
    grid: Grid,
    *,
    starts: Sequence[str] = ("a",),
    exits: Sequence[str] = (),
    placements: Sequence[tuple[str, str]] = (),
    traps: Mapping[str, str] | None = None,
    room_texts: Sequence[RoomText] = (),
    patrol: Sequence[str] = (),
    secret: Iterable[str] = (),
    goals: Sequence[Goal] = (),
    options: Options | None = None,
) -> Ruleset:
    """A ruleset on ``grid``: markers name start squares, exits, monsters and traps."""
    m = grid.markers
    adventure = Adventure(
        id="test",
        name="Test",
        board=grid,
        starts=tuple(m[s] for s in starts),
        exits=frozenset(m[e] for e in exits),
        placements=tuple(Placement(kind, m[at]) for kind, at in placements),
        traps={m[at]: kind for at, kind in (traps or {}).items()},
        room_texts=tuple(room_texts),
        patrol=tuple(patrol),
        secret_areas=frozenset(secret),
        goals=tuple(goals),
    )
    return Ruleset(HEROES, MONSTERS, SPELLS, ITEMS, TRAPS, adventure, options or Options())


def start(rules: Ruleset, party: Sequence[str], *, log: bool = True) -> tuple[State, EventLog]:
    state_log = EventLog(Header("crawl", "test", 0, "test"))
    state = new_game(rules, party, sink=state_log if log else None)
    return state, state_log


def roll(state: State, *naturals: int) -> None:
    """Apply one chance outcome (asserting the game is at a chance node)."""
    assert state.current_player() is Seat.CHANCE, state.pending
    state.apply(Roll(tuple(naturals)))


def play(state: State, *actions: Action) -> None:
    for action in actions:
        state.apply(action)


def done_until(state: State, kind: str) -> None:
    """Answer Done to every decision until the game waits for ``kind``."""
    while state.pending is not None and state.pending.kind != kind:
        assert state.current_player() is not Seat.CHANCE, f"unexpected roll {state.pending}"
        state.apply(Done())


def skip_to(state: State, kind: str, turn: int | None = None) -> None:
    """Answer every decision with nothing (stay put, explore nothing; every die a 5) until
    the game waits for ``kind`` (in ``turn`` if given): a player's test reaches its
    board's decision."""
    while state.pending is not None and (
        state.pending.kind != kind or (turn is not None and state.turn != turn)
    ):
        if state.current_player() is Seat.CHANCE:
            state.apply(Roll(tuple(5 for _ in range(state.pending.args["dice"]))))
        elif state.pending.kind == "explore_choice":
            state.apply(next(a for a in state.legal_actions() if isinstance(a, Explore)))
        else:
            state.apply(Done())


def play_to(
    state: State, kind: str, *naturals: int | tuple[int, ...], turn: int | None = None
) -> None:
    """Play on until the game waits for ``kind`` (a decision kind, or the kind of roll
    such as ``"surprise"``), in ``turn`` if given. Decisions are answered Done where
    Done is legal (heroes stay put in Explore), else with the first legal action (no
    Stamina or Magic spent); every roll takes the next of ``naturals`` (a tuple for a
    roll of several dice), which must all be used."""
    from undercroft.crawl.actions import Explore

    dice = list(naturals)
    while state.pending is not None:
        waiting = state.pending.args.get("roll", state.pending.kind)
        if waiting == kind and (turn is None or state.turn == turn):
            break
        if state.current_player() is Seat.CHANCE:
            assert dice, f"no die scripted for {state.pending}"
            natural = dice.pop(0)
            roll(state, *((natural,) if isinstance(natural, int) else natural))
            continue
        legal = state.legal_actions()
        if state.pending.kind == "explore_choice":
            stay = [a for a in legal if isinstance(a, Explore) and not a.explore]
            state.apply(stay[0])
        elif Done() in legal:
            state.apply(Done())
        else:
            state.apply(legal[0])
    assert not dice, f"dice left over: {dice}"


def next_turn(state: State, *naturals: int | tuple[int, ...]) -> None:
    """Finish this turn (see :func:`play_to`) and stop at the next turn's Movement step."""
    play_to(state, "movement", *naturals, turn=state.turn + 1)


def branches(state: State, judge: Callable[[State, EventLog], Hashable]) -> dict[Any, Fraction]:
    """Enumerate the pending chance node through the real game: apply every outcome to
    its own copy of ``state`` (each with a fresh log) and add up the probability of
    each value of ``judge(copy, log)``."""
    assert state.current_player() is Seat.CHANCE, state.pending
    saved = json.dumps(state.to_json())
    totals: dict[Any, Fraction] = {}
    for action, p in state.chance_outcomes():
        log = EventLog(Header("crawl", "test", 0, "test"))
        copy = State.from_json(state.ruleset, json.loads(saved), sink=log)
        copy.apply(action)
        key = judge(copy, log)
        totals[key] = totals.get(key, Fraction(0)) + p
    return totals


def outcome_word(state: State, log: EventLog) -> Hashable:
    """A :func:`branches` judge: the ``outcome`` of the first roll event in the log."""
    rolls: list[Hashable] = [
        e.event.fields["outcome"] for e in log.entries if e.event.type == "roll"
    ]
    return rolls[0]


def play_random(state: State, sampler: DiceSampler, max_actions: int = 5000) -> int:
    """Play to the end with uniformly random legal actions and sampled dice."""
    count = 0
    while not state.is_terminal() and count < max_actions:
        if state.current_player() is Seat.CHANCE:
            outcome = sampler.sample([_co(a, p) for a, p in state.chance_outcomes()])
            state.apply(Roll(outcome.natural))
        else:
            state.apply(sampler.choose(state.legal_actions()))
        count += 1
    return count


def _co(action: Roll, p: Fraction) -> ChanceOutcome:
    return ChanceOutcome(action.natural, p)


def crawl_time(entry: LogEntry) -> CrawlTime:
    """A crawl log entry's time (a crawl game stamps its events with turn and step)."""
    assert isinstance(entry.time, CrawlTime), entry
    return entry.time


def types(log: EventLog) -> list[str]:
    return [e.event.type for e in log.entries]


def events(log: EventLog, kind: str) -> list[dict[str, Any]]:
    """The fields (JSON values, as ``Event.fields``) and rules of every ``kind`` event."""
    return [
        dict(e.event.fields) | {"rules": list(e.event.rules)}
        for e in log.entries
        if e.event.type == kind
    ]


def at(state: State, hero_id: str) -> Pos | None:
    return state.heroes[hero_id].pos
