"""Two crawl players on the same seeds: paired win rates and an exact paired test.

    python benchmarks/duel_crawl.py --a careful --b basic --seeds 500
    python benchmarks/duel_crawl.py --a basic --b basic --dm-a master --dm-b basic

Each seed is played by both setups (A: hero policy ``--a`` against DM ``--dm-a``; B:
``--b`` against ``--dm-b``), on every shipped adventure (or ``--adventure``) and for each
``--party`` (default: the first four heroes, and brenna,corvin,ysolde,mirela). The games
of a seed share their dice seed, so they are paired: the test is McNemar's exact test
(a two-sided binomial test on the seeds won by exactly one of the two,
:func:`undercroft.analysis.stats.paired_exact`). Prints one row per adventure and party:
won A, won B, the difference, the discordant seeds and the p-value; ``--json FILE``
writes the same. Progress on stderr; games on ``--workers`` processes (default 2).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from typing import Any

from paired_cells import add_cell_arguments, cells_and_policies, paired
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play


def one(job: tuple[str, str, int, str, str]) -> tuple[bool, int, int]:
    """(won, turns, deaths) of one game."""
    adventure, party, seed, heroes, dm = job
    pack = default_pack()
    state = play(
        pack.ruleset(adventure), party.split(","), seed=seed, heroes=heroes, dm=dm, log=False
    ).state
    summary = state.summary()
    return bool(summary["won"]), int(summary["turns"]), len(summary.get("dead", []))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="careful", help="hero policy A (default careful)")
    parser.add_argument("--b", default="basic", help="hero policy B (default basic)")
    parser.add_argument("--dm-a", default="master", help="DM of A (default master)")
    parser.add_argument("--dm-b", default=None, help="DM of B (default: the DM of A)")
    add_cell_arguments(parser, seeds=200)
    args = parser.parse_args(argv)
    pack = default_pack()
    found = cells_and_policies(args, pack, [args.a, args.b, args.dm_a, args.dm_b or args.dm_a])
    if isinstance(found, str):
        print(f"error: {found}", file=sys.stderr)
        return 2
    cells, (a, b, dm_a, dm_b) = found
    adventures, parties, seeds = cells.adventures, cells.parties, cells.seeds
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    print(f"# {a} (DM {dm_a}) against {b} (DM {dm_b}), {cells.span}, {date.today()}")
    print()
    print(
        "| adventure | party | won A | won B | A - B | only A | only B | p (exact paired) "
        "| turns A | turns B |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    with ProcessPoolExecutor(args.workers) as pool:
        for adventure in adventures:
            for party in parties:
                jobs_a = [(adventure, party, s, a, dm_a) for s in seeds]
                jobs_b = [(adventure, party, s, b, dm_b) for s in seeds]
                games_a = list(pool.map(one, jobs_a, chunksize=8))
                games_b = list(pool.map(one, jobs_b, chunksize=8))
                cell = paired(games_a, games_b)
                row: dict[str, Any] = {"adventure": adventure, "party": party}
                row |= dataclasses.asdict(cell)
                rows.append(row)
                print(
                    f"| {adventure} | {party} | {row['won_a']:.1%} | {row['won_b']:.1%} | "
                    f"{row['won_a'] - row['won_b']:+.1%} | {cell.only_a} | {cell.only_b} | "
                    f"{row['p']:.2g} | {row['turns_a']:.1f} | {row['turns_b']:.1f} |",
                    flush=True,
                )
                print(
                    f"  {adventure} {party}: {time.perf_counter() - started:.0f} s", file=sys.stderr
                )
    mean = sum(r["won_a"] - r["won_b"] for r in rows) / len(rows)
    print()
    print(f"mean difference over {len(rows)} cells: {mean:+.1%}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"a": a, "b": b, "dm_a": dm_a, "dm_b": dm_b, "rows": rows}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
