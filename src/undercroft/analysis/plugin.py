"""What a ruleset gives the batch runner: the small interface a ruleset plugs in with.

A batch plays one *scenario* (a picklable, hashable description of what to play: the
content, the policies, the settings) ``N`` times; run ``i`` gets the seed
``derive_seed(batch_seed, i)`` (:func:`undercroft.core.dice.derive_seed`). For each run
the ruleset returns rows for its tables: the first table is ``runs`` (one row a run:
``run``, ``seed``, the parameters, the outcome metrics); others hold what happens many
times in a run (fights, deaths, rolls, squares of the board). The runner streams every
table to its own Parquet file, sorted by run, so the rows do not depend on the backend or
the number of workers.

To add a ruleset (keep invasions, for instance), write a :class:`BatchRuleset` and add
it to :data:`undercroft.analysis.rulesets.RULESETS`; the CLI, backends, Parquet files,
catalogue, summary, sweep, compare and the generic parts of the report then work for it
unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pyarrow as pa

from undercroft.analysis.estimates import Estimate, Metric

Rows = dict[str, list[dict[str, Any]]]
"""Table name -> the rows one run adds to it."""
Query = Callable[[str], list[tuple[Any, ...]]]
"""Runs one SQL statement over a batch's tables and returns its rows."""


@dataclass(frozen=True)
class Section:
    """A part of the HTML report that only the ruleset knows how to draw."""

    title: str
    html: str


class BatchRuleset(Protocol):
    """The batch interface of one ruleset (crawl: :class:`.crawl_batch.CrawlBatch`)."""

    name: str
    """``crawl`` or ``keep``: the first argument of ``undercroft batch``."""

    def tables(self, scenario: Any) -> Mapping[str, pa.Schema]:
        """The Arrow schema of each table, ``runs`` first."""
        ...

    def metrics(self, scenario: Any) -> Sequence[Metric]:
        """The ``runs`` columns to summarise, in the order to print them."""
        ...

    def play(self, scenario: Any, run: int, seed: int) -> Rows:
        """Play run ``run`` with ``seed`` (in a worker process) and return its rows."""
        ...

    def replay_command(self, scenario: Any, seed: int) -> str:
        """The ``undercroft run ...`` command that plays that seed alone."""
        ...

    def describe(self, scenario: Any) -> list[tuple[str, str]]:
        """What was played, as (label, value) lines for the summary and report."""
        ...

    def sections(self, scenario: Any, query: Query) -> list[Section]:
        """The ruleset's own report sections; ``query`` runs SQL over the batch's tables
        (views named after them)."""
        ...

    def notable(self, query: Query) -> list[tuple[str, int]]:
        """Runs worth replaying, as (what they are, run index)."""
        ...

    def headline(
        self, scenario: Any, query: Query, estimates: Sequence[tuple[Metric, Estimate]]
    ) -> str:
        """The batch's main finding in one sentence, computed from its tables and metrics
        (the report's first line)."""
        ...

    def to_json(self, scenario: Any) -> dict[str, Any]:
        """The scenario as JSON (``batch.json``), read back by :meth:`from_json`."""
        ...

    def from_json(self, data: dict[str, Any]) -> Any: ...
