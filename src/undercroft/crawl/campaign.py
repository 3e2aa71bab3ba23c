"""Campaigns (C-SETUP-03, C-SETUP-04, C-CAMP-01, C-DEATH-03), kept in SQLite.

A campaign plays a pack's adventures in order with a fixed number of players. Each
player has a hero; heroes keep the items they carry out (C-SETUP-04). A hero who dies
is gone, unless the party brought the corpse out (C-DEATH-03): then its gear comes back
to the party and the hero can be revived with an item that revives (the Elixir of Life,
the Holy Talisman), which is used up. A player whose hero died picks a new, unused hero
(C-CAMP-01; heroes are finite). If after an adventure there are fewer living heroes than
players the campaign is lost, unless the heroes died completing the final adventure:
some hero escaped it, or they all perished destroying its foe (R-C-CAMP-01).

Everything lives in one SQLite database (default: ``campaigns.sqlite`` in the user's
data folder; ``--db`` or ``UNDERCROFT_DATA`` move it). An adventure's results are written
in one transaction when it ends, so a process stopped mid-adventure loses nothing: the
campaign is as it was before that adventure, and playing again replays it from the same
seed.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from undercroft.core.dice import derive_seed
from undercroft.crawl.content import Pack, default_pack, load_pack

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaign (
    name TEXT PRIMARY KEY,
    pack TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    next_index INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active'
);
CREATE TABLE IF NOT EXISTS hero (
    campaign TEXT NOT NULL REFERENCES campaign(name),
    hero TEXT NOT NULL,
    status TEXT NOT NULL,
    items TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (campaign, hero)
);
CREATE TABLE IF NOT EXISTS adventure (
    campaign TEXT NOT NULL REFERENCES campaign(name),
    idx INTEGER NOT NULL,
    adventure TEXT NOT NULL,
    seed TEXT NOT NULL, -- 64-bit unsigned run seeds do not fit SQLite's INTEGER
    party TEXT NOT NULL,
    summary TEXT NOT NULL,
    PRIMARY KEY (campaign, idx)
);
"""

# Hero status: 'party' (a player's hero), 'reserve' (unused), 'dead' (lost for good),
# 'fallen' (dead, corpse brought out: may be revived, C-DEATH-03).
PARTY, RESERVE, DEAD, FALLEN = "party", "reserve", "dead", "fallen"


class CampaignError(ValueError):
    """A campaign command that cannot be carried out (unknown name, campaign over, ...)."""


def default_db() -> Path:
    """``$UNDERCROFT_DATA/campaigns.sqlite``, else the user's data folder."""
    env = os.environ.get("UNDERCROFT_DATA")
    if env:
        return Path(env) / "campaigns.sqlite"
    from platformdirs import user_data_dir

    return Path(user_data_dir("undercroft")) / "campaigns.sqlite"


@contextmanager
def connect(db: Path) -> Iterator[sqlite3.Connection]:
    """Open (and create if need be) the campaign database; a path that cannot hold one is
    a :class:`CampaignError` naming it."""
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(db)
        conn.executescript(SCHEMA)
    except (OSError, sqlite3.Error) as exc:
        raise CampaignError(f"{db}: cannot open the campaign database: {exc}") from None
    try:
        yield conn
    finally:
        conn.close()


@dataclass(frozen=True)
class HeroRecord:
    hero: str
    status: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class Status:
    """What ``campaign status`` shows."""

    name: str
    pack: str
    players: int
    status: str
    next_adventure: str | None
    heroes: tuple[HeroRecord, ...]
    played: tuple[dict[str, Any], ...]


def _pack(path: str) -> Pack:
    return default_pack() if path == "default" else load_pack(path)


def new(
    db: Path, name: str, party: Sequence[str], *, pack: str = "default", seed: int = 1
) -> Status:
    """C-SETUP-03: start a campaign; each player picks one hero (3 to 5 players)."""
    chosen = _pack(pack)
    if not 3 <= len(party) <= 5:
        raise CampaignError(f"a campaign has 3 to 5 players, not {len(party)} (C-SETUP-03)")
    unknown = [h for h in party if h not in chosen.heroes]
    if unknown:
        raise CampaignError(
            f"unknown hero(es) {', '.join(unknown)}; known: {', '.join(chosen.heroes)}"
        )
    if len(set(party)) != len(party):
        raise CampaignError("each player needs a different hero")
    with connect(db) as conn, conn:
        if conn.execute("SELECT 1 FROM campaign WHERE name = ?", (name,)).fetchone():
            raise CampaignError(f"a campaign named {name!r} already exists in {db}")
        conn.execute(
            "INSERT INTO campaign (name, pack, players, seed) VALUES (?, ?, ?, ?)",
            (name, pack, len(party), seed),
        )
        for hero in chosen.heroes.values():
            role = PARTY if hero.id in party else RESERVE
            conn.execute(
                "INSERT INTO hero (campaign, hero, status, items) VALUES (?, ?, ?, ?)",
                (name, hero.id, role, json.dumps(list(hero.items))),
            )
    return status(db, name)


def status(db: Path, name: str) -> Status:
    with connect(db) as conn:
        row = conn.execute(
            "SELECT pack, players, next_index, status FROM campaign WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            raise CampaignError(f"no campaign named {name!r} in {db}")
        pack, players, next_index, state = row
        heroes = tuple(
            HeroRecord(h, s, tuple(json.loads(i)))
            for h, s, i in conn.execute(
                "SELECT hero, status, items FROM hero WHERE campaign = ? ORDER BY rowid", (name,)
            )
        )
        played = tuple(
            {"adventure": a, "seed": int(s), "party": json.loads(p), **json.loads(m)}
            for a, s, p, m in conn.execute(
                "SELECT adventure, seed, party, summary FROM adventure"
                " WHERE campaign = ? ORDER BY idx",
                (name,),
            )
        )
    order = _pack(pack).campaign_order()
    upcoming = order[next_index] if state == "active" and next_index < len(order) else None
    return Status(name, pack, players, state, upcoming, heroes, played)


def play(
    db: Path, name: str, *, heroes_policy: str = "heuristic", dm_policy: str = "heuristic"
) -> tuple[Status, Any]:
    """Play the next adventure with the party and record what came of it."""
    from undercroft.crawl.runner import play as play_adventure

    current = status(db, name)
    if current.status != "active" or current.next_adventure is None:
        raise CampaignError(f"the campaign {name!r} is over ({current.status})")
    chosen = _pack(current.pack)
    adventure = current.next_adventure
    index = len(current.played)
    with connect(db) as conn:
        seed_row = conn.execute("SELECT seed FROM campaign WHERE name = ?", (name,)).fetchone()
    seed = derive_seed(int(seed_row[0]), index)
    party = [h.hero for h in current.heroes if h.status == PARTY]
    gear = {h.hero: list(h.items) for h in current.heroes if h.status == PARTY}
    result = play_adventure(
        chosen.ruleset(adventure), party, seed=seed, heroes=heroes_policy, dm=dm_policy,
        scenario=adventure, gear=gear,
    )  # fmt: skip
    _record(db, name, chosen, current, adventure, index, seed, party, result.state)
    return status(db, name), result


def _record(
    db: Path, name: str, pack: Pack, current: Status, adventure: str, index: int, seed: int,
    party: list[str], state: Any,
) -> None:  # fmt: skip
    """Write one adventure's results in a single transaction."""
    summary = state.summary()
    updates: dict[str, tuple[str, list[str]]] = {
        h.hero: (h.status, list(h.items)) for h in current.heroes
    }
    for hero in state.heroes.values():
        hid = hero.profile
        if hero.left:
            # C-SETUP-04: what a hero carries out is kept (identified at the end, C-IDENT-02).
            updates[hid] = (PARTY, [state.items[i].card for i in hero.items])
        elif hero.id in state.rescued:
            updates[hid] = (FALLEN, [])  # C-DEATH-03: gear returned to the party below
        else:
            updates[hid] = (DEAD, [])
    # Gear of rescued corpses went to their rescuers during play (movement.leave).
    final = pack.adventures[adventure].final
    # C-CAMP-01, R-C-CAMP-01: the final adventure is completed if some hero escaped, or
    # if the heroes all perished destroying its foe (every slay goal met).
    slay = {g.id for g in pack.adventures[adventure].goals if g.kind == "slay"}
    gave_their_lives = (
        final and summary["outcome"] == "perished" and bool(slay) and slay <= state.goals_met
    )
    completed = summary["outcome"] == "escaped" or gave_their_lives
    # C-DEATH-03: revive fallen heroes with items that revive, if the party holds any.
    for hid, (hero_status, _items) in list(updates.items()):
        if hero_status != FALLEN:
            continue
        for holder_status, items in updates.values():
            if holder_status != PARTY:
                continue
            reviver = next((c for c in items if pack.items[c].revives), None)
            if reviver is not None:
                items.remove(reviver)
                updates[hid] = (PARTY, [])
                break
    # C-CAMP-01: players of dead heroes pick new, unused heroes (in card order).
    living = [h for h, (st, _) in updates.items() if st == PARTY]
    reserve = [h for h in pack.heroes if updates.get(h, (RESERVE, []))[0] == RESERVE]
    while len(living) < current.players and reserve:
        pick = reserve.pop(0)
        updates[pick] = (PARTY, list(pack.heroes[pick].items))
        living.append(pick)
    if len(living) > current.players:
        for extra in living[current.players :]:
            updates[extra] = (RESERVE, updates[extra][1])
    order = pack.campaign_order()
    if len(living) < current.players and not (final and completed):
        outcome = "lost"
    elif index + 1 >= len(order) or final:
        outcome = "won" if completed else "lost"
    else:
        outcome = "active"
    with connect(db) as conn, conn:
        for hid, (hero_status, items) in updates.items():
            conn.execute(
                "UPDATE hero SET status = ?, items = ? WHERE campaign = ? AND hero = ?",
                (hero_status, json.dumps(items), name, hid),
            )
        conn.execute(
            "INSERT INTO adventure (campaign, idx, adventure, seed, party, summary)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (name, index, adventure, str(seed), json.dumps(party), json.dumps(summary)),
        )
        conn.execute(
            "UPDATE campaign SET next_index = ?, status = ? WHERE name = ?",
            (index + 1, outcome, name),
        )
