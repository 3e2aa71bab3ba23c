"""The ``search`` heroes against ``careful`` on paired seeds: win rates, an exact paired
test, and the time each takes a decision.

    python benchmarks/search_crawl.py --seeds 20 --budget 8 --depth 2

Each seed is played by both (against the same DM, ``master`` by default), on every
shipped adventure (or ``--adventure``) and for each ``--party`` (default: the first four
heroes, and brenna,corvin,ysolde,mirela). Games of a seed share their dice seed, so they
are paired: McNemar's exact test (:func:`undercroft.analysis.stats.paired_exact`). Win
rates carry 95% Wilson intervals. Time per decision is the heroes' policy's own time
over its decisions (``searched``: the decisions where the candidates differed and the
search ran, and their mean time). One Markdown row per adventure and party; ``--json
FILE`` writes the rows. Games on ``--workers`` processes (default 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date
from typing import Any

from paired_cells import add_cell_arguments, cells_and_policies, discordant
from undercroft.agents.registry import Policy
from undercroft.analysis.stats import paired_exact, wilson
from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Action
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation
from undercroft.crawl.runner import play_until, seat_policies
from undercroft.crawl.state import State


@dataclass
class Timed:
    """A policy with a stopwatch: the time of its decisions, and how many it searched."""

    inner: Policy
    seconds: float = 0.0
    decisions: int = 0
    searched: int = 0
    searched_seconds: float = 0.0
    reason: str = ""

    @property
    def reads_views(self) -> bool:
        return bool(getattr(self.inner, "reads_views", False))

    def act(self, observation: Observation) -> Action:
        started = time.perf_counter()
        action = self.inner.act(observation)
        spent = time.perf_counter() - started
        self.reason = str(getattr(self.inner, "reason", ""))
        self.seconds += spent
        self.decisions += 1
        if self.reason.startswith("search: "):
            self.searched += 1
            self.searched_seconds += spent
        return action


def one(job: tuple[str, str, int, str, str]) -> dict[str, Any]:
    """One game: won, turns, and the heroes' policy's decisions and time."""
    adventure, party, seed, heroes, dm = job
    state = State(default_pack().ruleset(adventure), party.split(","))
    state.start()
    policies = seat_policies(seed, heroes=heroes, dm=dm)
    timed = Timed(policies[Seat.HEROES])
    play_until(state, DiceSampler(seed), {Seat.HEROES: timed, Seat.DM: policies[Seat.DM]})
    return {
        "won": bool(state.summary()["won"]),
        "turns": state.turn,
        "decisions": timed.decisions,
        "seconds": timed.seconds,
        "searched": timed.searched,
        "searched_seconds": timed.searched_seconds,
    }


def ms(seconds: float, count: int) -> str:
    return f"{1000 * seconds / count:.1f}" if count else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=8, help="search budget (default 8)")
    parser.add_argument("--depth", type=int, default=2, help="rollout turns (default 2)")
    parser.add_argument("--dm", default="master")
    add_cell_arguments(parser, seeds=20)
    args = parser.parse_args(argv)
    pack = default_pack()
    search_name = f"search[budget={args.budget},depth={args.depth}]"
    found = cells_and_policies(args, pack, [search_name, "careful", args.dm])
    if isinstance(found, str):
        print(f"error: {found}", file=sys.stderr)
        return 2
    cells, (search, careful, dm) = found
    adventures, parties, seeds = cells.adventures, cells.parties, cells.seeds
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    print(f"# {search} against {careful} (DM {dm}), {cells.span}, {date.today()}")
    print()
    print(
        "| adventure | party | won search (95%) | won careful (95%) | only S | only C "
        "| p (exact paired) | ms/decision S | searched/game | ms/searched | ms/decision C |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with ProcessPoolExecutor(args.workers) as pool:
        for adventure in adventures:
            for party in parties:
                games_s = list(pool.map(one, [(adventure, party, s, search, dm) for s in seeds]))
                games_c = list(pool.map(one, [(adventure, party, s, careful, dm) for s in seeds]))
                only_s, only_c = discordant(
                    [g["won"] for g in games_s], [g["won"] for g in games_c]
                )
                n = len(games_s)
                ws = wilson(sum(g["won"] for g in games_s), n)
                wc = wilson(sum(g["won"] for g in games_c), n)

                def total(games: list[dict[str, Any]], key: str) -> Any:
                    return sum(g[key] for g in games)

                row: dict[str, Any] = {
                    "adventure": adventure,
                    "party": party,
                    "seeds": n,
                    "won_search": ws.value,
                    "won_search_ci": [ws.low, ws.high],
                    "won_careful": wc.value,
                    "won_careful_ci": [wc.low, wc.high],
                    "only_search": only_s,
                    "only_careful": only_c,
                    "p": paired_exact(only_s, only_c),
                    "ms_decision_search": ms(
                        total(games_s, "seconds"), total(games_s, "decisions")
                    ),
                    "searched_per_game": total(games_s, "searched") / n,
                    "ms_searched": ms(
                        total(games_s, "searched_seconds"), total(games_s, "searched")
                    ),
                    "ms_decision_careful": ms(
                        total(games_c, "seconds"), total(games_c, "decisions")
                    ),
                }
                rows.append(row)
                print(
                    f"| {adventure} | {party} | {ws.value:.0%} ({ws.low:.0%}-{ws.high:.0%}) | "
                    f"{wc.value:.0%} ({wc.low:.0%}-{wc.high:.0%}) | {only_s} | {only_c} | "
                    f"{row['p']:.2g} | {row['ms_decision_search']} | "
                    f"{row['searched_per_game']:.0f} | {row['ms_searched']} | "
                    f"{row['ms_decision_careful']} |",
                    flush=True,
                )
                print(
                    f"  {adventure} {party}: {time.perf_counter() - started:.0f} s", file=sys.stderr
                )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
