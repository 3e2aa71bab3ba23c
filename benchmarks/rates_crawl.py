"""Win rates of the built-in hero policies on every shipped adventure (heuristic DM).

*Won* is the summary's ``won``: the adventure complete (C-END-01, every surviving hero out)
and every goal met. Also reported: escaped (outcome ``escaped``, goals or not), the turn
cap, mean deaths and turns per game. The party is the pack's first four heroes; seeds are
0 .. N-1 for every adventure and policy. Runs on a process pool (results do not depend on
the number of workers). ``--markdown`` prints the README table.

    .venv/bin/python benchmarks/rates_crawl.py [--seeds 300] [--adventure ID ...]
        [--workers 2] [--markdown]
"""

from __future__ import annotations

import argparse
import datetime
import time
from concurrent.futures import ProcessPoolExecutor

from undercroft.crawl.content import default_pack
from undercroft.crawl.rates import Game, Rates, play_game, rates_of

POLICIES = ("heuristic", "random")


def one(job: tuple[str, str, int]) -> Game:
    adventure, policy, seed = job
    return play_game(default_pack(), adventure, policy, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=300, help="games per adventure and policy")
    parser.add_argument(
        "--adventure", action="append", default=None, help="only this adventure (repeatable)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markdown", action="store_true", help="print the README table")
    args = parser.parse_args()
    pack = default_pack()
    adventures = args.adventure or pack.campaign_order()
    unknown = [a for a in adventures if a not in pack.adventures]
    if args.seeds < 1 or unknown:
        parser.error(
            f"unknown adventure {unknown[0]!r}; known: {', '.join(pack.campaign_order())}"
            if unknown
            else "--seeds must be at least 1"
        )
    party = ", ".join(pack.heroes[h].name for h in list(pack.heroes)[:4])
    print(f"{args.seeds} seeds per adventure and policy, party {party}, heuristic DM")
    started = time.perf_counter()
    table: list[tuple[str, str, Rates]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for adventure in adventures:
            for policy in POLICIES:
                jobs = [(adventure, policy, seed) for seed in range(args.seeds)]
                rates = rates_of(pool.map(one, jobs, chunksize=8))
                table.append((adventure, policy, rates))
                print(
                    f"{adventure:20} {policy:9}  won {rates.won:6.1%}  escaped "
                    f"{rates.escaped:6.1%}  turn cap {rates.turn_cap:5.1%}  deaths/game "
                    f"{rates.deaths:4.2f}  turns/game {rates.turns:5.1f}",
                    flush=True,
                )
    print(f"{time.perf_counter() - started:.0f} s")
    if args.markdown:
        print(
            f"\n{args.seeds} seeds per adventure and policy, party {party}, heuristic DM "
            f"(`benchmarks/rates_crawl.py`, {datetime.date.today().isoformat()}):\n"
        )
        print(
            "| adventure | hero policy | won | escaped | turn cap | deaths per game "
            "| turns per game |"
        )
        print("|---|---|---:|---:|---:|---:|---:|")
        for adventure, policy, r in table:
            print(
                f"| {pack.adventures[adventure].name} | {policy} | {r.won:.1%} | "
                f"{r.escaped:.1%} | {r.turn_cap:.1%} | {r.deaths:.2f} | {r.turns:.1f} |"
            )


if __name__ == "__main__":
    main()
