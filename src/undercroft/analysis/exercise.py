"""Which rules a set of games played: per rule ID, the events that name it.

Every event of a log names the rules that decided it (its ``rules`` list,
``docs/events.md``). A rule is *exercised* in a game when at least one of the game's
events names it. Over a set of games each rule gets two figures:

* events per game: the events naming it, summed over the games, divided by the games
  (games where it never came up count, as 0);
* share of games: the fraction of games with at least one such event.

The crawl rules no game exercised (every ``C-*`` ID of the catalogue,
``docs/rules/crawl.md``, with no event at all) are *flagged*: a win rate measured on games
that never reach a rule says nothing about that rule.

:class:`RuleCounter` is an :class:`undercroft.core.events.EventSink` that keeps one
:class:`~collections.Counter` a game and nothing else, so a batch (and
``benchmarks/rates_crawl.py``) counts without keeping a log; :func:`recount` counts a
saved log the same way. This module imports no heavy library: batch workers load it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.catalogue import CatalogueError, find_root, load_rules
from undercroft.core.events import Event, Time

Query = Callable[[str], list[tuple[Any, ...]]]
"""Runs one SQL statement over a batch's tables (:data:`undercroft.analysis.plugin.Query`)."""

CRAWL_PREFIX = "C-"
"""The IDs of the crawl rules in the catalogue (``docs/rules/crawl.md``)."""
PREFIXES = {"crawl": CRAWL_PREFIX, "keep": "K-"}
"""Each ruleset's rule IDs in the catalogue (only crawl batches count them so far)."""


def count_rules(counts: Counter[str], rules: Sequence[str]) -> None:
    """Add one event: each rule ID it names counts once, however often it is named."""
    if len(rules) == 1:  # the usual case, without building a set
        counts[rules[0]] += 1
    elif rules:
        counts.update(set(rules))


@dataclass
class RuleCounter:
    """An event sink counting, per rule ID, the events of one game that name it."""

    enabled: bool = True
    counts: Counter[str] = field(default_factory=Counter)

    def emit(self, time: Time, event: Event) -> None:
        count_rules(self.counts, event.rules)


def recount(events: Iterable[Event]) -> Counter[str]:
    """The counts of a game from its events (a saved log's, say), as the sink keeps them."""
    counts: Counter[str] = Counter()
    for event in events:
        count_rules(counts, event.rules)
    return counts


def rows_of(run: int, counts: Mapping[str, int]) -> list[dict[str, Any]]:
    """The ``rules`` table rows of one run, sorted by rule ID (deterministic files)."""
    return [{"run": run, "rule": r, "events": n} for r, n in sorted(counts.items()) if n]


Totals = dict[str, tuple[int, int]]
"""Rule ID -> (events over every game, games with at least one)."""


def totals_of(games: Iterable[Mapping[str, int]]) -> Totals:
    """The totals over games, each given by its counts."""
    events: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    for counts in games:
        for rule, n in counts.items():
            if n:
                events[rule] += n
                games_with[rule] += 1
    return {rule: (events[rule], games_with[rule]) for rule in sorted(events)}


def totals_from(query: Query) -> Totals:
    """The totals of a batch, read from its ``rules`` table (one row a run and rule)."""
    rows = query("SELECT rule, sum(events), count(DISTINCT run) FROM rules GROUP BY 1 ORDER BY 1")
    return {str(rule): (int(n), int(games)) for rule, n, games in rows}


@dataclass(frozen=True)
class Exercise:
    """One rule over a set of games."""

    rule: str
    title: str
    """Its title in the catalogue (empty if the catalogue does not have it)."""
    events: int
    games: int
    """Games with at least one event naming it."""
    runs: int
    """Games in the set."""

    @property
    def per_game(self) -> float:
        return self.events / self.runs

    @property
    def share(self) -> float:
        return self.games / self.runs


@dataclass(frozen=True)
class ExerciseTable:
    """The rule-exercise table of a set of games."""

    runs: int
    rows: list[Exercise]
    """Every rule some event named: catalogue order, then IDs it lacks, sorted."""
    unexercised: list[str]
    """The catalogue's rules of the ruleset that no event named, in catalogue order."""
    catalogue: bool
    """Whether the catalogue was read (without it nothing can be flagged)."""

    def flag(self) -> str | None:
        """The flagged line (``None`` when every rule was exercised)."""
        if not self.unexercised:
            return None
        return f"not exercised in {self.runs:,} runs: {', '.join(self.unexercised)}"


def catalogue_titles() -> dict[str, str] | None:
    """Every rule and ruling ID of the project's catalogue with its title, in catalogue
    order; ``None`` where no catalogue can be found (an install without ``docs/``)."""
    try:
        return {rid: rule.title for rid, rule in load_rules(find_root()).items()}
    except CatalogueError:
        return None


def tabulate(
    totals: Mapping[str, tuple[int, int]],
    runs: int,
    titles: Mapping[str, str] | None,
    prefix: str = CRAWL_PREFIX,
) -> ExerciseTable:
    """The table of ``runs`` games from their totals; with the catalogue's ``titles``,
    the rules whose ID starts with ``prefix`` that no game exercised are flagged."""
    if runs < 1:
        raise ValueError("a rule-exercise table needs at least one game")
    known = dict(titles or {})
    order = {rid: i for i, rid in enumerate(known)}
    used = [r for r, (n, _) in totals.items() if n]
    used.sort(key=lambda r: (r not in order, order.get(r, 0), r))
    rows = [Exercise(r, known.get(r, ""), totals[r][0], totals[r][1], runs) for r in used]
    unexercised = [r for r in known if r.startswith(prefix) and not totals.get(r, (0, 0))[0]]
    return ExerciseTable(runs, rows, unexercised, titles is not None)


def per_game_text(value: float) -> str:
    return f"{value:,.2f}"


def share_text(value: float) -> str:
    return f"{100 * value:.1f}%"


NO_CATALOGUE = (
    "the rule catalogue (docs/rules/crawl.md) was not found, so the rules never exercised "
    "cannot be listed"
)
