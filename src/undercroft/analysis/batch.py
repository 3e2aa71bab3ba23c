"""A batch: N seeded runs of one scenario on an executor, streamed to Parquet, summarised.

:func:`run_batch` sends chunks of consecutive runs to the executor, a bounded number at a
time, and writes their rows in run order as they come back (:class:`.store.ParquetStore`),
so memory stays flat whatever N and the files do not depend on the backend or the number
of workers. ``batch.json`` in the folder records what was
played, so ``compare``, ``sweep`` and the report can read a batch folder on its own.
The summary of a played batch is :mod:`.summary`'s.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from undercroft import __version__
from undercroft.analysis.backends import Backend
from undercroft.analysis.plugin import BatchRuleset
from undercroft.analysis.rulesets import ruleset_named
from undercroft.analysis.store import ParquetStore, table_path
from undercroft.analysis.worker import Chunk, ChunkResult, run_chunk

META = "batch.json"
MAX_CHUNK = 25


@dataclass(frozen=True)
class BatchSpec:
    """What to run and where to put it."""

    ruleset: str
    scenario: Any
    runs: int
    seed: int
    folder: Path
    command: str

    @property
    def plugin(self) -> BatchRuleset:
        return ruleset_named(self.ruleset)


def chunk_size(runs: int, slots: int) -> int:
    """Runs per chunk: small enough for an even load and a lively progress bar."""
    return max(1, min(MAX_CHUNK, runs // max(1, slots * 16)))


def chunks(spec: BatchSpec, size: int) -> Iterator[Chunk]:
    for start in range(0, spec.runs, size):
        yield Chunk(spec.ruleset, spec.scenario, spec.seed, start, min(spec.runs, start + size))


def results_in_order(
    spec: BatchSpec, backend: Backend, check: Callable[[], None] = lambda: None
) -> Iterator[ChunkResult]:
    """Every chunk's result, in run order, with at most 4 chunks per slot in flight."""
    todo = chunks(spec, chunk_size(spec.runs, backend.slots))
    window: deque[Future[ChunkResult]] = deque()
    try:
        for job in todo:
            window.append(backend.executor.submit(run_chunk, job))
            while len(window) >= 4 * backend.slots:
                check()
                yield _wait(window.popleft(), check)
        while window:
            check()
            yield _wait(window.popleft(), check)
    finally:
        for future in window:
            future.cancel()


def _wait(future: Future[ChunkResult], check: Callable[[], None]) -> ChunkResult:
    """The chunk's result, looking up now and then for Ctrl-C."""
    while True:
        try:
            return future.result(timeout=0.25)
        except TimeoutError:
            check()


def run_batch(
    spec: BatchSpec,
    backend: Backend,
    advance: Callable[[int], None] = lambda n: None,
    check: Callable[[], None] = lambda: None,
) -> float:
    """Play the batch into ``spec.folder`` (which must exist); returns the seconds taken.
    On any failure or interrupt the partial files are removed."""
    started = time.perf_counter()
    store = ParquetStore(spec.folder, spec.plugin.tables(spec.scenario))
    try:
        for result in results_in_order(spec, backend, check):
            store.write(result.tables)
            advance(result.stop - result.start)
    except BaseException:
        store.discard()
        raise
    store.close()
    return time.perf_counter() - started


def write_meta(spec: BatchSpec, elapsed: float, backend: str) -> None:
    """``batch.json``: what was played, by which undercroft, how fast."""
    meta = {
        "ruleset": spec.ruleset,
        "scenario": spec.plugin.to_json(spec.scenario),
        "runs": spec.runs,
        "seed": spec.seed,
        "command": spec.command,
        "version": __version__,
        "seconds": round(elapsed, 3),
        "backend": backend,
    }
    (spec.folder / META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def read_meta(folder: Path) -> dict[str, Any]:
    """The ``batch.json`` of a batch folder (``ValueError`` naming what is wrong)."""
    path = folder / META
    if not path.is_file() or not table_path(folder, "runs").is_file():
        raise ValueError(f"{folder}: not a batch folder (no {META} and runs.parquet in it)")
    try:
        meta: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # ValueError: JSON, UTF-8, digits
        raise ValueError(f"{path}: cannot be read: {exc}") from None
    if not isinstance(meta, dict) or meta.get("ruleset") not in ("crawl", "keep"):
        raise ValueError(f"{path}: not a batch description (field 'ruleset')")
    for field in ("runs", "seed"):
        value = meta.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or value < (field == "runs"):
            raise ValueError(f"{path}: field {field!r} is {value!r}, not a whole number")
    for table in REQUIRED[str(meta["ruleset"])]:
        file = table_path(folder, table)
        if not file.is_file():
            raise ValueError(f"{file}: missing; the batch folder is incomplete")
        try:
            rows = pq.read_metadata(file).num_rows
        except (OSError, pa.ArrowException) as exc:
            raise ValueError(f"{file}: not a Parquet file undercroft wrote ({exc})") from None
        if table == "runs" and rows != meta["runs"]:
            raise ValueError(f"{file}: {rows} rows where {META} says {meta['runs']} runs")
    return meta


REQUIRED = {
    "crawl": ("runs", "deaths", "fights", "rolls", "squares"),
    "keep": ("runs", "invasions", "traps", "doors", "days", "squares"),
}
"""The tables every batch folder holds (a crawl batch's ``rules`` came later: optional)."""
