"""Win rates, and the rules they were played on, for every shipped adventure, two
parties, the hero policies and the Dungeon Masters.

A *cell* is an adventure, a party, a hero policy and a DM policy; every cell plays the
seeds 0 .. N-1 (``--seeds``, default 100). A game is played by
:func:`undercroft.crawl.runner.play` with an event sink
(:func:`undercroft.crawl.app.rates.play_watched` around an
:class:`undercroft.analysis.exercise.RuleCounter`), so no log is kept: the sink notes
whether the Light reached 0 and counts, per rule ID, the events whose ``rules`` name it.

Printed (markdown): one table with a row per cell: *won* (the summary's ``won``: the
adventure complete, C-END-01, and every goal met), *escaped* (every survivor out, goals
or not), the turn cap, deaths and turns per game, and the share of games that reach
Light 0 (a ``light.dropped`` or ``light.changed`` event to 0, C-LIGHT-01); then per cell
the crawl rules of the catalogue that no game exercised (``--rules``: the whole
rule-exercise table, events per game and share of games per rule).

The parties are the pack's first four heroes (``undercroft list heroes``) and Brenna,
Corvin, Ysolde, Mirela. ``--policies`` (default ``careful,basic,random``) and ``--dms``
(default ``master,basic``) name policies of
:data:`undercroft.agents.registry.POLICIES` (or an old name of one, ``heuristic``, or
one with knobs, ``careful[aim=0]``); a name that is none of these is skipped without a
word, so the defaults take in the careful party and the master DM once they are
registered. Games run on ``--workers`` processes
(default 2); the figures do not depend on the number. Progress goes to standard error.

    .venv/bin/python benchmarks/rates_crawl.py [--seeds 100] [--adventure ID ...]
        [--policies careful,basic,random] [--dms master,basic] [--workers 2] [--rules]
"""

from __future__ import annotations

import argparse
import datetime
import math
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TextIO

from undercroft.agents.registry import POLICIES, resolve
from undercroft.analysis import exercise
from undercroft.crawl.app.rates import Game, Rates, play_watched, rates_of
from undercroft.crawl.content import Pack, default_pack

SECOND_PARTY = ("brenna", "corvin", "ysolde", "mirela")
"""The second party: both casters, and the heroes the first four leave out."""
DEFAULT_POLICIES = "careful,basic,random"
DEFAULT_DMS = "master,basic"
CHUNK = 4
"""Games a worker takes at a time: small, so the two cores stay even to the end."""


@dataclass(frozen=True)
class Cell:
    """What a set of seeds plays."""

    adventure: str
    party: tuple[str, ...]
    policy: str
    dm: str


@dataclass(frozen=True)
class CellResult:
    cell: Cell
    rates: Rates
    exercised: exercise.ExerciseTable


Job = tuple[Cell, int]
Played = tuple[Game, dict[str, int]]


def play_one(job: Job) -> Played:
    """One game of a cell, in a worker: its outcome and its rule counts."""
    cell, seed = job
    counter = exercise.RuleCounter()
    game = play_watched(
        default_pack(), cell.adventure, cell.party, seed,
        heroes=cell.policy, dm=cell.dm, sink=counter,
    )  # fmt: skip
    return game, dict(counter.counts)


def registered(value: str) -> list[str]:
    """The names of ``value`` (comma-separated) that the registry knows (a policy, an
    alias, or a policy with knobs: ``careful[aim=0]``), in order."""
    names = [n.strip() for n in value.split(",") if n.strip()]
    return list(dict.fromkeys(n for n in names if makeable(n)))


def makeable(name: str) -> bool:
    """Whether ``name`` is a policy the registry can make."""
    try:
        resolve(name)
    except (KeyError, ValueError):
        return False
    return True


def parties(pack: Pack) -> list[tuple[str, ...]]:
    first = tuple(list(pack.heroes)[:4])
    return list(dict.fromkeys([first, SECOND_PARTY]))


class Progress:
    """Games done, on standard error: a live line on a terminal, else a line a cell."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        self.live = self.stream.isatty()
        self.started = time.perf_counter()
        self.shown = 0.0

    def rate(self) -> float:
        elapsed = time.perf_counter() - self.started
        return self.done / elapsed if elapsed > 0 else math.inf

    def step(self) -> None:
        self.done += 1
        now = time.perf_counter()
        if self.live and (now - self.shown >= 0.25 or self.done == self.total):
            self.shown = now
            left = (self.total - self.done) / self.rate() if self.done else math.inf
            self.stream.write(
                f"\r{self.done:,}/{self.total:,} games, {self.rate():.1f}/s, {left:.0f} s left "
            )
            self.stream.flush()

    def cell(self, index: int, cells: int, label: str) -> None:
        if not self.live:
            print(
                f"[{index}/{cells}] {label}: {self.done:,}/{self.total:,} games", file=self.stream
            )

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
        elapsed = time.perf_counter() - self.started
        print(f"{self.done:,} games in {elapsed:.1f} s ({self.rate():.1f}/s)", file=self.stream)


def label(pack: Pack, cell: Cell) -> str:
    name = pack.adventures[cell.adventure].name
    return f"{name} ({','.join(cell.party)}), {cell.policy} against the {cell.dm} DM"


def results(
    played: Iterable[Played],
    cells: Sequence[Cell],
    seeds: int,
    titles: dict[str, str] | None,
    progress: Progress,
    pack: Pack,
) -> Iterator[CellResult]:
    """The games in job order (cell by cell, seeds in order) gathered per cell."""
    games: list[Game] = []
    counts: list[dict[str, int]] = []
    stream = iter(played)
    for index, cell in enumerate(cells, 1):
        games.clear()
        counts.clear()
        for _ in range(seeds):
            game, rules = next(stream)
            games.append(game)
            counts.append(rules)
            progress.step()
        progress.cell(index, len(cells), label(pack, cell))
        totals = exercise.totals_of(counts)
        yield CellResult(cell, rates_of(games), exercise.tabulate(totals, seeds, titles))


def pct(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{100 * value:.1f}%"


def print_tables(
    pack: Pack, found: Sequence[CellResult], show_rules: bool, titles: dict[str, str] | None
) -> None:
    print(
        "| adventure | party | hero policy | DM | won | escaped | turn cap "
        "| deaths per game | turns per game | reach Light 0 |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    for r in found:
        c, x = r.cell, r.rates
        print(
            f"| {pack.adventures[c.adventure].name} | {','.join(c.party)} | {c.policy} | {c.dm} "
            f"| {pct(x.won)} | {pct(x.escaped)} | {pct(x.turn_cap)} | {x.deaths:.2f} "
            f"| {x.turns:.1f} | {pct(x.light0)} |"
        )
    print("\n### Rules exercised\n")
    if titles is None:
        print(f"({exercise.NO_CATALOGUE}.)\n")
    crawl = sum(1 for rid in titles or {} if rid.startswith(exercise.CRAWL_PREFIX))
    for r in found:
        table = r.exercised
        used = sum(1 for row in table.rows if row.rule.startswith(exercise.CRAWL_PREFIX))
        head = f"{label(pack, r.cell)}: {used} of {crawl} crawl rules exercised"
        if not show_rules:
            never = ", ".join(table.unexercised) or "none"
            print(f"- {head}; never: {never}" if titles is not None else f"- {head}")
            continue
        print(f"#### {head}\n")
        if table.unexercised:
            print(f"**{table.flag()}**\n")
        print("| rule | title | events per game | share of games |")
        print("|---|---|---:|---:|")
        for row in table.rows:
            print(
                f"| {row.rule} | {row.title} | {exercise.per_game_text(row.per_game)} "
                f"| {exercise.share_text(row.share)} |"
            )
        print()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="rates_crawl.py", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--seeds", type=int, default=100, help="games per cell (seeds 0..N-1)")
    parser.add_argument(
        "--adventure", action="append", default=None, help="only this adventure (repeatable)"
    )
    parser.add_argument(
        "--policies", default=DEFAULT_POLICIES,
        help="hero policies, comma-separated; names not registered are skipped",
    )  # fmt: skip
    parser.add_argument(
        "--dms", default=DEFAULT_DMS,
        help="DM policies, comma-separated; names not registered are skipped",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--rules", action="store_true", help="the whole rule-exercise table of every cell"
    )
    args = parser.parse_args(argv)
    pack = default_pack()
    adventures = list(dict.fromkeys(args.adventure or pack.campaign_order()))
    if args.seeds < 1:
        parser.error(f"--seeds {args.seeds}: give at least 1")
    if args.workers < 1:
        parser.error(f"--workers {args.workers}: give at least 1")
    unknown = [a for a in adventures if a not in pack.adventures]
    if unknown:
        parser.error(
            f"--adventure {unknown[0]!r}: not a shipped adventure; "
            f"known: {', '.join(pack.campaign_order())}"
        )
    known = ", ".join(sorted(POLICIES))
    policies, dms = registered(args.policies), registered(args.dms)
    for option, value, names in (("--policies", args.policies, policies),
                                 ("--dms", args.dms, dms)):  # fmt: skip
        if not names:
            parser.error(f"{option} {value!r}: names no registered policy; registered: {known}")
    teams = parties(pack)
    for party in teams:
        missing = [h for h in party if h not in pack.heroes]
        if missing:
            parser.error(f"the pack has no hero {missing[0]!r} for the party {','.join(party)}")
    cells = [
        Cell(a, party, p, d) for a in adventures for party in teams for p in policies for d in dms
    ]
    titles = exercise.catalogue_titles()
    jobs = [(cell, seed) for cell in cells for seed in range(args.seeds)]
    progress = Progress(len(jobs))
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        played = map(play_one, jobs) if pool is None else pool.map(play_one, jobs, chunksize=CHUNK)
        found = list(results(played, cells, args.seeds, titles, progress, pack))
    except KeyboardInterrupt:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        print("\ninterrupted", file=sys.stderr)
        sys.exit(130)
    if pool is not None:
        pool.shutdown()
    progress.close()
    who = "; ".join(", ".join(pack.heroes[h].name for h in party) for party in teams)
    print(
        f"## Win rates and the rules they played ({args.seeds} seeds a cell, 0..{args.seeds - 1}, "
        f"`benchmarks/rates_crawl.py`, {datetime.date.today().isoformat()})\n"
    )
    print(f"Parties: {who}. Hero policies: {', '.join(policies)}. DMs: {', '.join(dms)}.\n")
    print_tables(pack, found, args.rules, titles)


if __name__ == "__main__":
    main()
