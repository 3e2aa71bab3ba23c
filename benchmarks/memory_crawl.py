"""Memory over a long run: thousands of adventures in one process must not grow it.

Plays ``--games`` seeds (default 5,000) of an adventure (default the first) with the
heuristic party and DM in one process, cycling through the shipped adventures with
``--all``, and prints the resident memory after every ``--every`` games, its peak, and
its growth per 1,000 adventures after the first block (the first games fill caches and
the allocator's pools).

    .venv/bin/python benchmarks/memory_crawl.py [--games 5000] [--every 500]
        [--adventure ID] [--all] [--log]
"""

from __future__ import annotations

import argparse
import gc
import resource
import time

from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play


def rss_mib() -> float:
    """The resident set size now, in MiB (Linux: /proc/self/statm)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--adventure", default=None)
    parser.add_argument("--all", action="store_true", help="cycle through every adventure")
    parser.add_argument("--log", action="store_true", help="keep each game's event log")
    args = parser.parse_args()
    pack = default_pack()
    order = pack.campaign_order()
    adventures = order if args.all else [args.adventure or order[0]]
    rulesets = [pack.ruleset(a) for a in adventures]
    party = list(pack.heroes)[:4]
    print(f"{args.games} adventures of {', '.join(adventures)}, log {'on' if args.log else 'off'}")
    start = time.perf_counter()
    marks: list[tuple[int, float]] = [(0, rss_mib())]
    for seed in range(args.games):
        play(rulesets[seed % len(rulesets)], party, seed=seed, log=args.log)
        if (seed + 1) % args.every == 0 or seed + 1 == args.games:
            gc.collect()
            marks.append((seed + 1, rss_mib()))
            print(f"{seed + 1:6} adventures  RSS {marks[-1][1]:7.1f} MiB", flush=True)
    (n0, first), (n1, last) = marks[1 if len(marks) > 2 else 0], marks[-1]
    growth = (last - first) / max(1, n1 - n0) * 1000
    print(
        f"peak RSS {peak_mib():.1f} MiB; growth after the first {n0} adventures: "
        f"{growth:+.2f} MiB per 1,000 adventures ({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
