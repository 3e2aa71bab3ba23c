"""A batch's results on disk: one Parquet file per table, streamed in row groups.

Rows arrive in run order, a chunk of runs at a time; :class:`ParquetStore` keeps at most
:data:`ROW_GROUP` rows of a table in memory before writing them as a row group, so memory
stays flat whatever the number of runs. Each file grows as ``NAME.parquet.partial`` and is
renamed into place by :meth:`ParquetStore.close`; :meth:`ParquetStore.discard` (an
interrupted batch) removes them, so a folder never holds half a table under its real name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from undercroft.core.files import partial_path

ROW_GROUP = 65_536
"""Rows a table buffers before it writes a row group (bounded memory, few groups)."""
MERGE_EVERY = 128
"""Chunks of rows a table holds apart before it merges them into one."""


def table_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.parquet"


class ParquetStore:
    """Streaming writers for every table of a batch, in ``folder``."""

    def __init__(self, folder: Path, schemas: Mapping[str, pa.Schema]) -> None:
        self.folder = folder
        self.schemas = dict(schemas)
        self._buffers: dict[str, list[pa.Table]] = {name: [] for name in schemas}
        self._buffered: dict[str, int] = dict.fromkeys(schemas, 0)
        self.rows: dict[str, int] = dict.fromkeys(schemas, 0)
        self._writers: dict[str, pq.ParquetWriter] = {}
        for name, schema in self.schemas.items():
            partial = partial_path(table_path(folder, name))
            partial.unlink(missing_ok=True)
            self._writers[name] = pq.ParquetWriter(partial, schema, compression="zstd")

    def write(self, tables: Mapping[str, pa.Table]) -> None:
        """Add the rows of one chunk of runs (tables in run order)."""
        for name, table in tables.items():
            if table.num_rows == 0:
                continue
            self._buffers[name].append(table)
            self._buffered[name] += table.num_rows
            self.rows[name] += table.num_rows
            if self._buffered[name] >= ROW_GROUP:
                self._flush(name)
            elif len(self._buffers[name]) >= MERGE_EVERY:
                # Many small tables (one per chunk) cost more than their rows: merge them.
                merged = pa.concat_tables(self._buffers[name]).combine_chunks()
                self._buffers[name] = [merged]

    def _flush(self, name: str) -> None:
        if self._buffered[name]:
            whole = pa.concat_tables(self._buffers[name])
            self._writers[name].write_table(whole, row_group_size=ROW_GROUP)
            self._buffers[name] = []
            self._buffered[name] = 0

    def close(self) -> None:
        """Write what is buffered and move every file into place."""
        for name, writer in self._writers.items():
            self._flush(name)
            writer.close()
            os.replace(partial_path(table_path(self.folder, name)), table_path(self.folder, name))

    def discard(self) -> None:
        """Drop everything written (an interrupted or failed batch)."""
        for name, writer in self._writers.items():
            try:
                writer.close()
            finally:
                partial_path(table_path(self.folder, name)).unlink(missing_ok=True)


@contextmanager
def views(folder: Path, names: Sequence[str]) -> Iterator[Callable[[str], list[tuple[Any, ...]]]]:
    """A query function over the batch's tables, each a view named after it (the
    report and the command's own tables read the Parquet files through it)."""
    with duckdb.connect() as conn:
        for name in names:
            path = table_path(folder, name)
            if path.exists():
                literal = "'" + str(path).replace("'", "''") + "'"
                conn.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({literal})")

        def query(sql: str) -> list[tuple[Any, ...]]:
            return conn.execute(sql).fetchall()

        yield query
