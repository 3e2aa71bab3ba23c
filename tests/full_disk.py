"""A full disk, simulated in-process for the tests of every output (``tests/test_full_disk.py``
and the bad-input corpus's ``full_disk`` cases).

undercroft writes through four kinds of call: its atomic files sync before their rename
(``os.fsync``: logs, saves, reports, ``results sql --out``), Parquet tables
(``ParquetWriter.write_table``, which ``write_batch`` goes through), and small files
written whole (``Path.write_text``: ``batch.json``). :func:`fill` makes each of them
fail with ``OSError(ENOSPC)``, as a full disk does, once ``room`` of them have
succeeded: ``room=0`` is a disk full from the start, a larger ``room`` one that fills up
halfway through a folder of results.

``tests/test_full_disk.py`` also runs one batch on a real full disk (a tiny tmpfs in a
user namespace) where the machine allows it, so this simulation is checked against the
kernel's own ENOSPC.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest


class FullDisk:
    """Counts writes; every one past ``room`` fails with ENOSPC."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.refused = 0

    def spend(self) -> None:
        if self.room > 0:
            self.room -= 1
            return
        self.refused += 1
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def fill(monkeypatch: pytest.MonkeyPatch, room: int = 0) -> FullDisk:
    """From now until the test ends, the disk has room for ``room`` more writes."""
    disk = FullDisk(room)
    real_fsync = os.fsync
    real_write_table = pq.ParquetWriter.write_table
    real_write_text = Path.write_text

    def fsync(fd: int) -> None:
        disk.spend()
        real_fsync(fd)

    def write_table(self: pq.ParquetWriter, *args: Any, **kwargs: Any) -> None:
        disk.spend()
        real_write_table(self, *args, **kwargs)

    def write_text(self: Path, *args: Any, **kwargs: Any) -> int:
        disk.spend()
        return real_write_text(self, *args, **kwargs)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
    monkeypatch.setattr(Path, "write_text", write_text)
    return disk
