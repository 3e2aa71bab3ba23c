"""Time the keep world: simulated days per second, quiet days, and the workload scaling.

Runs the shipped ``trapworks`` (20 traps) and ``trapworks-40`` (40 traps) scenarios for 30
days over a few seeds, an empty dungeon (the trapworks map, nothing built, nobody working)
for many days, and the trapworks map with one trap and one Traps-job minion for ten years
(quiet days: a rearm every 2 days), printing simulated days per second (median over seeds),
queue items per simulated day, and the K-DECAY-04 workload of both scenarios with the
40/20 ratio.

    .venv/bin/python benchmarks/bench_keep.py [--days 30] [--seeds 5] [--quiet-days 100000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from undercroft.keep import trapworks
from undercroft.keep.scenario import build_world, world_from_text


def run(name: str, seed: int, days: int) -> tuple[float, dict[str, Any], int]:
    world = build_world(name, seed=seed)
    world.open_log()
    start = time.perf_counter()
    world.run_days(days)
    elapsed = time.perf_counter() - start
    return elapsed, world.close_log(), world.queue.next_seq


def quiet_world_text() -> str:
    """The trapworks map with one trap and one Traps-job minion: quiet most of the time."""
    text = trapworks.render()
    head = text[: text.index("[[minion]]")]
    return (
        head
        + """
[[minion]]
breed = "kobold"
job = "traps"
at = "k"

[[structure]]
kind = "pressure_plate"
at = [18, 3]
name = "plate"

[[structure]]
kind = "spinning_blades"
at = [20, 3]
name = "blades"

[[wire]]
path = ["plate", "blades"]
"""
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--quiet-days", type=int, default=100_000)
    args = parser.parse_args()

    results: dict[str, list[tuple[float, dict[str, Any], int]]] = {}
    for name in ("trapworks", "trapworks-40"):
        results[name] = [run(name, seed, args.days) for seed in range(args.seeds)]
        times = [r[0] for r in results[name]]
        items = statistics.median(r[2] for r in results[name]) / args.days
        print(
            f"{name:>13}: {args.days / statistics.median(times):8.1f} simulated days/s "
            f"({statistics.median(times) * 1000:.0f} ms for {args.days} days, "
            f"{items:.0f} queue items a day, median of {args.seeds} seeds)"
        )

    empty = world_from_text(quiet_world_text()[: quiet_world_text().index("[[minion]]")])
    start = time.perf_counter()
    empty.run_days(args.quiet_days)
    elapsed = time.perf_counter() - start
    print(
        f"{'empty':>13}: {args.quiet_days} days with nothing due in {elapsed * 1e6:.0f} us "
        f"({empty.queue.next_seq} queue items: the clock jumps, it does not tick)"
    )
    quiet = world_from_text(quiet_world_text(), seed=0)
    quiet.open_log()
    years = 10
    start = time.perf_counter()
    quiet.run_days(365 * years)
    elapsed = time.perf_counter() - start
    print(
        f"{'one trap':>13}: {365 * years / elapsed:8.0f} simulated days/s "
        f"({years} years, {quiet.queue.next_seq / (365 * years):.1f} queue items a day, "
        f"{quiet.events_emitted} events)"
    )

    print("\nK-DECAY-04 workload over", args.days, "days (mean over seeds):")
    keys = (
        "rearms_per_day",
        "traps_job_minion_hours_per_day",
        "traps_job_utilisation",
        "mean_wait_minutes",
        "max_rearm_gap_hours",
    )
    print(f"{'':>32}{'20 traps':>10}{'40 traps':>10}{'ratio':>8}")
    for key in keys:
        a = statistics.mean(r[1][key] for r in results["trapworks"])
        b = statistics.mean(r[1][key] for r in results["trapworks-40"])
        print(f"{key:>32}{a:10.2f}{b:10.2f}{b / a if a else 0:8.2f}")


if __name__ == "__main__":
    main()
