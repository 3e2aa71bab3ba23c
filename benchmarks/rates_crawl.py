"""Win rates of the built-in hero policies over many seeds (heuristic DM for both).

A *win* is an adventure that ends ``escaped`` (every surviving hero got out) with no hero
dead. Also reported: escaped at all, mean deaths, mean turns, turn caps. Runs on a
process pool (results do not depend on the number of workers).

    .venv/bin/python benchmarks/rates_crawl.py [--seeds 500] [--adventure ID] [--workers 2]
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play


def one(job: tuple[str, str, int]) -> tuple[str, int, int, str]:
    adventure, policy, seed = job
    pack = default_pack()
    result = play(
        pack.ruleset(adventure), list(pack.heroes)[:4], seed=seed, heroes=policy, log=False
    )
    summary = result.state.summary()
    return str(summary["outcome"]), len(summary["dead"]), int(summary["turns"]), policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=500)
    parser.add_argument("--adventure", default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    adventure = args.adventure or default_pack().campaign_order()[0]
    print(f"adventure {adventure}, {args.seeds} seeds per policy, party: first four heroes")
    for policy in ("heuristic", "random"):
        jobs = [(adventure, policy, seed) for seed in range(args.seeds)]
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(one, jobs, chunksize=8))
        n = len(rows)
        wins = sum(1 for o, d, _, _ in rows if o == "escaped" and d == 0)
        escaped = sum(1 for o, _, _, _ in rows if o == "escaped")
        caps = sum(1 for o, _, _, _ in rows if o == "turn_cap")
        deaths = sum(d for _, d, _, _ in rows) / n
        turns = sum(t for _, _, t, _ in rows) / n
        print(
            f"{policy:9}  win {wins / n:6.1%}  escaped {escaped / n:6.1%}  "
            f"turn cap {caps / n:5.1%}  deaths/game {deaths:4.2f}  turns/game {turns:5.1f}"
        )


if __name__ == "__main__":
    main()
