"""Adventures per second per core with the heuristic policies, log on and log off.

Plays the default pack's first adventure (or ``--adventure``) with the default party for
``--games`` seeds in one process (one core), and prints games per second and the mean
number of decisions and turns; ``--profile`` adds the top functions by own time.

    .venv/bin/python benchmarks/bench_crawl.py [--games N] [--adventure ID] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play


def bench(adventure: str, games: int, log: bool) -> tuple[float, float, float, dict[str, int]]:
    pack = default_pack()
    ruleset = pack.ruleset(adventure)
    party = list(pack.heroes)[:4]
    outcomes: dict[str, int] = {}
    decisions = turns = 0
    start = time.perf_counter()
    for seed in range(games):
        result = play(ruleset, party, seed=seed, log=log)
        decisions += result.decisions
        turns += result.state.turn
        outcome = str(result.state.outcome)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games, turns / games, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--adventure", default=None)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    adventure = args.adventure or default_pack().campaign_order()[0]
    print(f"adventure {adventure}, {args.games} games per line, one process")
    for log in (False, True):
        rate, decisions, turns, outcomes = bench(adventure, args.games, log)
        print(
            f"log {'on ' if log else 'off'}: {rate:7.1f} adventures/s/core   "
            f"{decisions:6.0f} decisions  {turns:5.1f} turns per game   {outcomes}"
        )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        bench(adventure, max(10, args.games // 5), False)
        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(15)
        print(text.getvalue())


if __name__ == "__main__":
    main()
