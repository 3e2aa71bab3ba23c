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

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES
from undercroft.core.content import ContentError
from undercroft.core.dice import derive_seed
from undercroft.core.files import PathError, check_input, data_folder, write_failure
from undercroft.crawl.content import Pack, default_pack, load_pack
from undercroft.crawl.players import PartyError, check_party
from undercroft.crawl.runner import play as play_adventure

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
HERO_STATES = (PARTY, RESERVE, DEAD, FALLEN)
CAMPAIGN_STATES = ("active", "won", "lost")


class CampaignError(ValueError):
    """A campaign command that cannot be carried out (unknown name, campaign over, ...)."""


def default_db() -> Path:
    """``campaigns.sqlite`` in the user's data folder (``$UNDERCROFT_DATA`` if set)."""
    return data_folder() / "campaigns.sqlite"


LOCK_WAIT_SECONDS = 30.0
"""How long a ``campaign play`` waits for another one on the same database to finish."""

MAX_SEED = 2**63 - 1
"""The largest campaign seed (SQLite keeps it as a signed 64-bit integer)."""

_COLUMNS = {
    "campaign": ("name", "pack", "players", "seed", "next_index", "status"),
    "hero": ("campaign", "hero", "status", "items"),
    "adventure": ("campaign", "idx", "adventure", "seed", "party", "summary"),
}


def _check_schema(conn: sqlite3.Connection, db: Path) -> bool:
    """Whether the database already holds undercroft's tables; a database that holds
    other tables, or these with other columns, is not one of ours and is refused."""
    names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    ours = [n for n in names if n in _COLUMNS]
    if names and not ours:
        raise CampaignError(
            f"{db}: not an undercroft campaign database (it holds the tables "
            f"{', '.join(sorted(names))}); name another --db"
        )
    for table in ours:
        columns = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
        if columns != _COLUMNS[table]:
            raise CampaignError(
                f"{db}: not an undercroft campaign database (its table {table!r} has the "
                f"columns {', '.join(columns)}); name another --db"
            )
    return len(ours) == len(_COLUMNS)


@contextmanager
def connect(db: Path, *, create: bool = False) -> Iterator[sqlite3.Connection]:
    """Open the campaign database (``create``: making it if need be). A path that cannot
    hold one, a corrupt or foreign file, or a database error is a :class:`CampaignError`
    naming it; nothing is written to a file that is not a campaign database."""
    if not create and not db.exists():
        raise CampaignError(f"{db}: no campaign database there (`campaign new` makes one)")
    if db.exists():
        try:
            check_input(db)
        except PathError as exc:
            raise CampaignError(f"{db}: cannot hold a campaign database: {exc.reason}") from None
    conn: sqlite3.Connection | None = None
    existed = db.exists()
    try:
        if create:
            db.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(db, timeout=LOCK_WAIT_SECONDS)
        complete = _check_schema(conn, db)
        if create and not complete:
            conn.executescript(SCHEMA)
        elif not complete:
            raise CampaignError(f"{db}: holds no campaigns (`campaign new` makes one)")
    except (OSError, sqlite3.Error) as exc:
        if conn is not None:
            conn.close()
        if create and not existed:
            # A database this command began (a full disk stopped it) is not left half made.
            for made in (db, db.with_name(db.name + "-journal")):
                with contextlib.suppress(OSError):  # none made (its folder is no folder)
                    made.unlink()
        raise CampaignError(f"{db}: cannot open the campaign database: {_why(exc)}") from None
    except CampaignError:
        if conn is not None:
            conn.close()
        raise
    try:
        yield conn
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            raise CampaignError(
                f"{db}: another undercroft command is using the campaign database and did "
                f"not finish within {LOCK_WAIT_SECONDS:.0f} s; nothing was changed: try again"
            ) from None
        raise CampaignError(f"{db}: cannot use the campaign database: {_why(exc)}") from None
    except sqlite3.Error as exc:
        raise CampaignError(f"{db}: cannot use the campaign database: {_why(exc)}") from None
    finally:
        conn.close()


def _why(exc: OSError | sqlite3.Error) -> str:
    """A database error in words: a full disk (SQLite's SQLITE_FULL) says so, and that
    SQLite rolled the change back."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_FULL:
        return "no space left on the disk (SQLITE_FULL); nothing was changed"
    if isinstance(exc, OSError):
        return write_failure(exc)
    return str(exc)


def _lock(conn: sqlite3.Connection) -> None:
    """Take the database's write lock now: a second command waits until this one has
    committed or rolled back (at most :data:`LOCK_WAIT_SECONDS`), so two plays never
    record the same adventure."""
    conn.execute("BEGIN IMMEDIATE")


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
    if not name.strip() or not name.isprintable():
        raise CampaignError(f"a campaign needs a name of printable characters, not {name!r}")
    if not 0 <= seed <= MAX_SEED:
        raise CampaignError(f"--seed {seed}: a campaign seed runs from 0 to {MAX_SEED}")
    chosen = _pack(pack)
    try:
        check_party(party, list(chosen.heroes))
    except PartyError as exc:
        raise CampaignError(f"--party: {exc}") from None
    with connect(db, create=True) as conn:
        _lock(conn)
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
        conn.commit()
    return status(db, name)


def status(db: Path, name: str) -> Status:
    with connect(db) as conn:
        return _status(conn, db, name)


def _status(conn: sqlite3.Connection, db: Path, name: str) -> Status:
    """The campaign as its rows say, every value checked: a damaged row (edited by hand,
    written by something else) is a :class:`CampaignError` naming the table, the row and
    the column, never a traceback or a status shown as valid."""
    row = conn.execute(
        "SELECT rowid, pack, players, next_index, status, seed FROM campaign WHERE name = ?",
        (name,),
    ).fetchone()
    if row is None:
        raise CampaignError(f"no campaign named {name!r} in {db}")
    rowid, pack_name, players, next_index, state, campaign_seed = row

    def bad(table: str, at: object, column: str, why: str) -> CampaignError:
        return CampaignError(f"{db}: table {table}, row {at}, column {column}: {why}")

    if state not in CAMPAIGN_STATES:
        raise bad("campaign", rowid, "status", f"{state!r} is not one of {CAMPAIGN_STATES}")
    if not isinstance(campaign_seed, int) or not 0 <= campaign_seed <= 2**64 - 1:
        # Each adventure's seed derives from it (derive_seed takes no negative number).
        why = f"{campaign_seed!r} is not a seed (0 to 2^64 - 1)"
        raise bad("campaign", rowid, "seed", why)
    if not isinstance(players, int) or not 3 <= players <= 5:
        raise bad("campaign", rowid, "players", f"{players!r} is not 3 to 5 (C-SETUP-03)")
    try:
        chosen = _pack(pack_name)
    except (ContentError, OSError, ValueError) as exc:
        raise bad("campaign", rowid, "pack", f"{pack_name!r} cannot be loaded: {exc}") from None
    order = chosen.campaign_order()
    if not isinstance(next_index, int) or not 0 <= next_index <= len(order):
        raise bad("campaign", rowid, "next_index", f"{next_index!r} is not 0 to {len(order)}")
    heroes = []
    for hid, hero, hero_state, items in conn.execute(
        "SELECT rowid, hero, status, items FROM hero WHERE campaign = ? ORDER BY rowid", (name,)
    ):
        if hero not in chosen.heroes:
            raise bad("hero", hid, "hero", f"{hero!r} is no hero of the pack")
        if hero_state not in HERO_STATES:
            raise bad("hero", hid, "status", f"{hero_state!r} is not one of {HERO_STATES}")
        held = _json_list(items)
        if held is None:
            raise bad("hero", hid, "items", "not a JSON list of item ids")
        unknown = [i for i in held if i not in chosen.items]
        if unknown:
            raise bad("hero", hid, "items", f"{unknown[0]!r} is no item of the pack")
        heroes.append(HeroRecord(hero, hero_state, tuple(held)))
    played = []
    for aid, adventure, seed, party, summary in conn.execute(
        "SELECT rowid, adventure, seed, party, summary FROM adventure WHERE campaign = ? "
        "ORDER BY idx",
        (name,),
    ):
        if adventure not in chosen.adventures:
            raise bad("adventure", aid, "adventure", f"{adventure!r} is no adventure of the pack")
        if not str(seed).isdigit() or int(seed) > 2**64 - 1:
            raise bad("adventure", aid, "seed", f"{seed!r} is not a seed (0 to 2^64 - 1)")
        members = _json_list(party)
        if members is None:
            raise bad("adventure", aid, "party", "not a JSON list of hero ids")
        try:
            results = json.loads(summary)
        except (ValueError, RecursionError, TypeError):
            raise bad("adventure", aid, "summary", "not a JSON object") from None
        if not isinstance(results, dict):
            raise bad("adventure", aid, "summary", "not a JSON object")
        played.append({"adventure": adventure, "seed": int(seed), "party": members, **results})
    upcoming = order[next_index] if state == "active" and next_index < len(order) else None
    return Status(name, pack_name, players, state, upcoming, tuple(heroes), tuple(played))


def _json_list(text: object) -> list[str] | None:
    """A column holding a JSON list of ids (items, a party), or ``None``."""
    try:
        value = json.loads(text) if isinstance(text, str | bytes) else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return value


def play(
    db: Path,
    name: str,
    *,
    heroes_policy: str = DEFAULT_HEROES,
    dm_policy: str = DEFAULT_DM,
    before_record: Callable[[Any], None] | None = None,
) -> tuple[Status, Any]:
    """Play the next adventure with the party and record what came of it.

    One play at a time per database: the write lock is held from reading the campaign to
    recording the result, so a second ``campaign play`` waits, then plays the adventure
    after. ``before_record(result)`` runs before the result is recorded (the command line
    writes the adventure's log there); if it raises, nothing is recorded.
    """
    with connect(db) as conn:
        _lock(conn)
        current = _status(conn, db, name)
        if current.status != "active" or current.next_adventure is None:
            raise CampaignError(f"the campaign {name!r} is over ({current.status})")
        chosen = _pack(current.pack)
        adventure = current.next_adventure
        index = len(current.played)
        seed_row = conn.execute("SELECT seed FROM campaign WHERE name = ?", (name,)).fetchone()
        seed = derive_seed(int(seed_row[0]), index)
        party = [h.hero for h in current.heroes if h.status == PARTY]
        gear = {h.hero: list(h.items) for h in current.heroes if h.status == PARTY}
        result = play_adventure(
            chosen.ruleset(adventure), party, seed=seed, heroes=heroes_policy, dm=dm_policy,
            scenario=adventure, gear=gear,
        )  # fmt: skip
        if before_record is not None:
            before_record(result)
        _record(conn, name, chosen, current, adventure, index, seed, party, result.state)
        conn.commit()
    return status(db, name), result


def _record(
    conn: sqlite3.Connection, name: str, pack: Pack, current: Status, adventure: str,
    index: int, seed: int, party: list[str], state: Any,
) -> None:  # fmt: skip
    """Write one adventure's results (in the caller's transaction)."""
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
    # C-CAMP-01, R-C-CAMP-01: the final adventure is completed if it was won (some hero
    # escaped and every goal was met, C-END-01), or if the heroes all perished destroying
    # its foe (every slay goal met).
    slay = {g.id for g in pack.adventures[adventure].goals if g.kind == "slay"}
    gave_their_lives = (
        final and summary["outcome"] == "perished" and bool(slay) and slay <= state.goals_met
    )
    completed = bool(summary["won"]) or gave_their_lives
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
