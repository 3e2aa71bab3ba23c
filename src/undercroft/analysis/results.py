"""The results catalogue: every batch, sweep and comparison, in one DuckDB file.

The catalogue holds one row per batch, sweep or comparison in the table ``batches``
(``id``, ``kind``, ``command``, ``created``, ``folder``, ``ruleset``, ``target``, ``runs``,
``seed``, ``parent`` (the sweep a batch belongs to), ``summary`` (JSON: the metrics with
their intervals, or a comparison's tests)). The rows of the batches stay in their
Parquet files; :func:`query` opens views over them all, one per ruleset and table, named
``RULESET_TABLE`` (``crawl_runs``, ``crawl_deaths``, ..., ``keep_runs``,
``keep_invasions``, ...; :data:`TABLES`), each row with the ``batch`` it came from, so one
SQL statement can read across past batches. A view holds one ruleset's rows only: crawl
and keep both have a ``runs`` and a ``squares`` table, with other columns and meanings.

Where the file is: ``--catalogue FILE``, else ``$UNDERCROFT_CATALOGUE``, else
``catalogue.duckdb`` in the user data folder (``$UNDERCROFT_DATA`` if set), beside the
campaigns. DuckDB lets one process write a file at a time, so the catalogue is opened
only for a moment (to check it before a batch, to register it after) and a second batch
waits its turn for a few seconds.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from undercroft.analysis.store import table_path
from undercroft.core.files import (
    PathError,
    atomic_path,
    check_output,
    data_folder,
    make_folder,
    same_file,
)

SCHEMA = """
CREATE SEQUENCE IF NOT EXISTS batch_id START 1;
CREATE TABLE IF NOT EXISTS batches (
    id INTEGER PRIMARY KEY DEFAULT nextval('batch_id'),
    kind VARCHAR NOT NULL,
    command VARCHAR NOT NULL,
    created VARCHAR NOT NULL,
    folder VARCHAR,
    ruleset VARCHAR,
    target VARCHAR,
    runs BIGINT,
    seed UBIGINT,
    parent INTEGER,
    summary VARCHAR
);
"""
COLUMNS = (
    "id",
    "kind",
    "command",
    "created",
    "folder",
    "ruleset",
    "target",
    "runs",
    "seed",
    "parent",
    "summary",
)
TABLES = {
    "crawl": ("runs", "deaths", "fights", "rolls", "squares", "rules"),
    "keep": ("runs", "invasions", "traps", "doors", "days", "squares"),
}
"""The tables of each ruleset's batches. The view ``RULESET_TABLE`` unites, by column
name, the files of that ruleset's batches that have the table (a batch played before
``rules``, the rules exercised, adds none)."""


def view_names() -> list[str]:
    """Every view :func:`query` can open, ``crawl_runs`` ... ``keep_squares``."""
    return [f"{ruleset}_{table}" for ruleset, tables in TABLES.items() for table in tables]


LOCK_WAIT_SECONDS = 15.0


class CatalogueError(ValueError):
    """A catalogue that cannot be used; the message names the file and what to do."""


@dataclass(frozen=True)
class Entry:
    """One registered batch, sweep or comparison."""

    id: int
    kind: str
    command: str
    created: str
    folder: str | None
    ruleset: str | None
    target: str | None
    runs: int | None
    seed: int | None
    parent: int | None
    summary: Any


def catalogue_path(option: Path | None = None) -> Path:
    """``--catalogue``, else ``$UNDERCROFT_CATALOGUE``, else the user data folder's."""
    if option is not None:
        return option
    env = os.environ.get("UNDERCROFT_CATALOGUE")
    if env:
        return Path(env)
    try:  # the default place is made on first use
        folder = make_folder(data_folder(), "the results catalogue")
    except PathError as exc:
        raise CatalogueError(str(exc)) from None
    return folder / "catalogue.duckdb"


@contextmanager
def connect(path: Path, *, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """The catalogue, created if missing (unless ``read_only``); waits a little for
    another process that holds it."""
    if read_only and not path.exists():
        raise CatalogueError(
            f"{path}: no results catalogue there yet; run a batch first (undercroft batch ...)"
        )
    if path.is_dir():
        raise CatalogueError(
            f"{path}: is a folder, not a results catalogue; name the catalogue's file with "
            "--catalogue or UNDERCROFT_CATALOGUE"
        )
    if not read_only:
        try:
            check_output(path, "--catalogue")
        except PathError as exc:
            raise CatalogueError(str(exc)) from None
    if path.is_file() and path.stat().st_size > 0 and not _is_duckdb(path):
        # Checked before DuckDB opens it: given a SQLite file, DuckDB would try to fetch
        # and load its sqlite extension.
        raise CatalogueError(
            f"{path}: not a results catalogue (not a DuckDB file); name another file "
            "with --catalogue or UNDERCROFT_CATALOGUE"
        )
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            conn = duckdb.connect(str(path), read_only=read_only, config=dict(SAFE))
            break
        except duckdb.IOException as exc:
            if "lock" in str(exc).lower() and time.monotonic() < deadline:
                time.sleep(0.2)
                continue
            if "not a valid DuckDB database" not in str(exc):
                raise CatalogueError(f"{path}: cannot open the results catalogue: {exc}") from None
            raise CatalogueError(
                f"{path}: not a results catalogue (not a DuckDB file); name another file "
                "with --catalogue or UNDERCROFT_CATALOGUE"
            ) from None
        except duckdb.Error as exc:
            raise CatalogueError(
                f"{path}: not a results catalogue (a DuckDB file): {exc}; name another "
                "file with --catalogue or UNDERCROFT_CATALOGUE"
            ) from None
    try:
        if not read_only:
            conn.execute(SCHEMA)
        _check_schema(conn, path)
        yield conn
    finally:
        conn.close()


def _is_duckdb(path: Path) -> bool:
    """A DuckDB database file: its header has the magic bytes ``DUCK`` at offset 8."""
    try:
        with path.open("rb") as file:
            return file.read(12)[8:12] == b"DUCK"
    except OSError:
        return True  # unreadable: DuckDB's own error will name the trouble


def _check_schema(conn: duckdb.DuckDBPyConnection, path: Path) -> None:
    found = conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'batches' "
        "ORDER BY ordinal_position"
    ).fetchall()
    if tuple(c for (c,) in found) != COLUMNS:
        raise CatalogueError(
            f"{path}: a DuckDB file that is not an undercroft results catalogue (its table "
            "'batches' is missing or has other columns); name another file"
        )


def check(path: Path) -> None:
    """The catalogue can be opened and written (before a long run). A missing one is not
    made here but by the first :func:`register`: a command refused after this check (or a
    batch that fails) leaves no empty catalogue behind."""
    if not path.exists() and not path.is_symlink():
        try:
            check_output(path, "--catalogue")
        except PathError as exc:
            raise CatalogueError(str(exc)) from None
        return
    with connect(path):
        pass


def register(
    path: Path,
    *,
    kind: str,
    command: str,
    folder: Path | None,
    ruleset: str | None = None,
    target: str | None = None,
    runs: int | None = None,
    seed: int | None = None,
    parent: int | None = None,
    summary: Any = None,
) -> int:
    """Add a batch, sweep or comparison; returns its id."""
    created = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    with connect(path) as conn:
        row = conn.execute(
            "INSERT INTO batches (kind, command, created, folder, ruleset, target, runs, seed, "
            "parent, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                kind,
                command,
                created,
                None if folder is None else str(folder.resolve()),
                ruleset,
                target,
                runs,
                seed,
                parent,
                json.dumps(summary),
            ],
        ).fetchone()
    assert row is not None
    return int(row[0])


def entries(path: Path) -> list[Entry]:
    with connect(path, read_only=True) as conn:
        rows = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM batches ORDER BY id").fetchall()
    return [_entry(r) for r in rows]


def entry(path: Path, ident: int) -> Entry:
    with connect(path, read_only=True) as conn:
        row = conn.execute(
            f"SELECT {', '.join(COLUMNS)} FROM batches WHERE id = ?", [ident]
        ).fetchone()
    if row is None:
        raise CatalogueError(f"no batch {ident} in {path}; `undercroft results list` shows them")
    return _entry(row)


def _entry(row: Sequence[Any]) -> Entry:
    values = list(row)
    values[-1] = json.loads(values[-1]) if values[-1] else None
    return Entry(*values)


SAFE = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
"""Every connection: DuckDB never fetches or loads an extension by itself (a SQLite file
given as the catalogue would otherwise make it download one and create ``~/.duckdb``)."""

SHOWN_ROWS = 1000
"""The rows ``results sql`` prints unless ``--limit`` says otherwise."""


@dataclass(frozen=True)
class Answer:
    """A query's first rows: ``more`` says whether it had rows past them."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    more: bool


def batch_folders(path: Path) -> list[tuple[int, str, str]]:
    """(id, ruleset, folder) of every batch the catalogue at ``path`` reads tables from."""
    with connect(path, read_only=True) as catalogue:
        rows: list[tuple[int, str, str]] = catalogue.execute(
            "SELECT id, ruleset, folder FROM batches WHERE kind = 'batch' "
            "AND folder IS NOT NULL ORDER BY id"
        ).fetchall()
    return rows


@contextmanager
def sandbox(
    path: Path, folders: list[tuple[int, str, str]] | None = None
) -> Iterator[duckdb.DuckDBPyConnection]:
    """The catalogue read-only, with a view per ruleset and table over every batch of that
    ruleset (``crawl_runs``, ``keep_invasions``, ...), and nothing else reachable: no file
    but those batches' Parquet files may be read, none written, no extension installed or
    loaded, no database attached; the configuration is locked so a query cannot undo it.
    ``folders``: the batches as :func:`batch_folders` read them (read now if ``None``)."""
    if folders is None:
        folders = batch_folders(path)
    # A database of its own (in memory, the catalogue attached read-only): DuckDB shares
    # one instance among the connections of a process to a file, and the locked
    # configuration of one query would refuse the settings of the next.
    conn = duckdb.connect(":memory:", config=dict(SAFE))
    try:
        try:
            conn.execute(f"ATTACH {_literal(path)} AS catalogue (READ_ONLY)")
            conn.execute("USE catalogue")
        except duckdb.Error as exc:
            raise CatalogueError(f"{path}: cannot open the results catalogue: {exc}") from None
        readable: list[str] = []
        for ruleset, tables in TABLES.items():
            for table in tables:
                files = [(i, table_path(Path(f), table)) for i, r, f in folders if r == ruleset]
                present = [(ident, file) for ident, file in files if file.is_file()]
                readable.extend(str(file) for _, file in present)
                parts = [
                    f"SELECT {ident} AS batch, * FROM read_parquet({_literal(file)})"
                    for ident, file in present
                ]
                if parts:
                    try:
                        conn.execute(
                            f"CREATE TEMP VIEW {ruleset}_{table} AS "
                            + " UNION ALL BY NAME ".join(parts)
                        )
                    except duckdb.Error as exc:
                        raise CatalogueError(
                            f"a batch's {table} file cannot be read: {exc}"
                        ) from None
        conn.execute("SET allowed_paths = ?", [readable])
        conn.execute("SET enable_external_access = false")
        conn.execute("SET lock_configuration = true")
        yield conn
    finally:
        conn.close()


def query(path: Path, sql: str, limit: int | None = SHOWN_ROWS) -> Answer:
    """Run ``sql`` in the :func:`sandbox`: its first ``limit`` rows (all with ``None``),
    fetched as they come, so a query of millions of rows costs only what is shown."""
    if not sql.strip():
        raise CatalogueError("the query is empty: give a SELECT statement")
    with sandbox(path) as conn:
        try:
            result = conn.execute(sql)
            columns = [d[0] for d in result.description or []]
            if limit is None:
                return Answer(columns, result.fetchall(), False)
            rows = result.fetchmany(limit + 1)
        except duckdb.Error as exc:
            raise CatalogueError(f"the SQL did not run: {exc}{_hint(str(exc))}") from None
    return Answer(columns, rows[:limit], len(rows) > limit)


def export(path: Path, sql: str, out: Path) -> int:
    """Every row of ``sql`` into ``out`` (``.parquet`` or ``.csv``), written by undercroft
    (the sandbox writes nothing) through a new file beside it and a rename; returns the
    number of rows."""
    if not sql.strip():
        raise CatalogueError("the query is empty: give a SELECT statement")
    kind = out.suffix.lower()
    if kind not in (".parquet", ".csv"):
        raise CatalogueError(f"--out {out}: the file must end in .parquet or .csv")
    try:
        check_output(out, "--out")
    except PathError as exc:
        raise CatalogueError(str(exc)) from None
    # The batches are read once: the folders refused for --out are those the query reads.
    folders = batch_folders(path)
    refuse_catalogued(path, out, folders)
    with sandbox(path, folders) as conn:
        try:
            relation = conn.sql(sql)
            if relation is None:
                raise CatalogueError("the statement gives no rows to write: give a SELECT")
            reader = relation.to_arrow_reader()
        except duckdb.Error as exc:
            raise CatalogueError(f"the SQL did not run: {exc}{_hint(str(exc))}") from None
        return write_rows(reader, out)


def refuse_catalogued(path: Path, out: Path, folders: list[tuple[int, str, str]]) -> None:
    """``out`` is neither the catalogue nor in a folder whose files it reads (``folders``,
    :func:`batch_folders`): the rows of a query must not replace the data they come from
    (or any file of a catalogued batch)."""
    if same_file(out, path):
        raise CatalogueError(
            f"--out {out}: is the results catalogue itself; write the rows to another file"
        )
    where = out.resolve()
    for ident, _, folder in folders:
        if where.is_relative_to(Path(folder).resolve()):
            raise CatalogueError(
                f"--out {out}: is in the folder of catalogued batch {ident} ({folder}), "
                "whose files the catalogue reads; write the rows to a file elsewhere"
            )


def write_rows(reader: pa.RecordBatchReader, out: Path) -> int:
    """The batches of ``reader`` into ``out``, Parquet or CSV by its suffix, atomically."""
    count = 0
    with atomic_path(out) as tmp:
        if out.suffix.lower() == ".parquet":
            with pq.ParquetWriter(tmp, reader.schema) as parquet:
                for batch in reader:
                    parquet.write_batch(batch)
                    count += batch.num_rows
        else:
            with pa_csv.CSVWriter(tmp, reader.schema) as text:
                for batch in reader:
                    text.write_batch(batch)
                    count += batch.num_rows
    return count


def _hint(error: str) -> str:
    """Name the views when the SQL asked for a table that is not one (``runs`` is
    ``crawl_runs`` or ``keep_runs``), or for one no batch of the catalogue has yet."""
    missing = re.search(r"Table with name (\w+) does not exist", error)
    if missing is None:
        return ""
    name = missing.group(1).lower()
    choices = [v for v in view_names() if v.endswith(f"_{name}")]
    if name in view_names():
        return f"\nNo batch in the catalogue has {name} yet."
    if choices:
        return f"\nThe views are named by ruleset: {' or '.join(choices)}."
    return f"\nThe views: {', '.join(view_names())}; and the table batches."


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"
