"""The work a batch sends to its executor: a chunk of consecutive runs.

:func:`run_chunk` is what a worker process (or Dask worker) executes. It needs only the
chunk: the ruleset's name, the scenario, the batch seed and the run indices; it loads
the content once per process and returns each table's rows as an Arrow table.

Seeding scheme (``docs/analysis.md``): run ``i`` of a batch seeded ``S`` is played with
the seed ``derive_seed(S, i)`` (:func:`undercroft.core.dice.derive_seed`: numpy
``SeedSequence(S, spawn_key=(i,))``), so any run can be replayed alone with the command
the report prints, whatever the backend and the number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from undercroft.agents.plugins import PolicyError
from undercroft.analysis.rulesets import ruleset_named
from undercroft.core.dice import derive_seed


@dataclass(frozen=True)
class Chunk:
    """Runs ``start`` .. ``stop - 1`` of a batch."""

    ruleset: str
    scenario: Any
    batch_seed: int
    start: int
    stop: int


@dataclass(frozen=True)
class ChunkResult:
    start: int
    stop: int
    tables: dict[str, pa.Table]


def run_seed(batch_seed: int, run: int) -> int:
    """The seed of run ``run`` of a batch seeded ``batch_seed``."""
    return derive_seed(batch_seed, run)


class RunFailedError(Exception):
    """A run stopped by the user's own code (a plug-in policy that raised or broke the
    rules): which run, its seed, and what went wrong. Picklable, so it comes back from a
    worker process as itself."""

    def __init__(self, run: int, seed: int, message: str) -> None:
        self.run = run
        self.seed = seed
        self.message = message
        super().__init__(f"run {run} (seed {seed}): {message}")

    def __reduce__(self) -> tuple[type[RunFailedError], tuple[int, int, str]]:
        return (RunFailedError, (self.run, self.seed, self.message))


def run_chunk(chunk: Chunk) -> ChunkResult:
    """Play the chunk's runs in order and return their rows, table by table."""
    plugin = ruleset_named(chunk.ruleset)
    schemas = plugin.tables(chunk.scenario)
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in schemas}
    for run in range(chunk.start, chunk.stop):
        seed = run_seed(chunk.batch_seed, run)
        try:
            played = plugin.play(chunk.scenario, run, seed)
        except PolicyError as exc:
            raise RunFailedError(run, seed, str(exc)) from None
        for name, more in played.items():
            rows[name].extend(more)
    tables = {name: pa.Table.from_pylist(rows[name], schema) for name, schema in schemas.items()}
    return ChunkResult(chunk.start, chunk.stop, tables)
