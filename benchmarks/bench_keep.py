"""Time the keep world: simulated days per second with invasions on and off and the log on
and off, quiet days, a day with an invasion of five, and the workload scaling.

* the default scenarios (``tutorial``, ``mid``, ``late``) for ``--days`` days over
  ``--seeds`` seeds with invasions on (their fights included), the log on (kept in
  memory) and off: simulated days per second (median over seeds), queue items a day,
  invasions, deaths, captures and escapes; the goal is 30 days of ``mid`` in under 2 s
  with the log off;
* every other shipped scenario (``trapworks``, ``trapworks-40``, ``warrens``), invasions
  off and on;
* a quiet day against a day with an invasion, in ``mid``: days 10 and 11 with nothing
  coming against the same days with five level-3 adventurers arriving at midnight;
* quiet days: an empty dungeon (nothing due) and the trapworks map with one trap and one
  Traps-job minion for ten years (a rearm every 2 days), invasions off;
* a day with an invasion of five: trapworks on day 10 (its rearming is steady by then),
  five level-3 adventurers arriving at midnight and nothing else coming (a Rite of Storms
  holds the director), the time of that whole day against the same day without them;
* ``--against SRC``: the quiet-day figures of another checkout's ``src`` (for example a
  ``git worktree`` of main) measured in the same run, side by side;
* the K-DECAY-04 workload of the two trapworks scenarios with the 40/20 ratio.

    .venv/bin/python benchmarks/bench_keep.py [--days 30] [--seeds 5] [--against /tmp/main/src]
        [--profile mid]   (also: where the time of 30 days of that scenario goes)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from undercroft.keep.content import trapworks
from undercroft.keep.rules import invasions
from undercroft.keep.rules.parties import MemberDraw
from undercroft.keep.scenario import build_world, shipped, world_from_text

FIVE = ("warrior", "rogue", "ranger", "cleric", "warrior")
DEFAULTS = ("tutorial", "mid", "late")


def run(
    name: str, seed: int, days: int, on: bool, *, log: bool = True
) -> tuple[float, dict[str, Any], int]:
    world = build_world(name, seed=seed, options={"invasions": on})
    if log:
        world.open_log()
    start = time.process_time()
    world.run_days(days)
    elapsed = time.process_time() - start
    return elapsed, world.close_log(), world.queue.next_seq


def defaults(days: int, seeds: int) -> None:
    """The default scenarios, invasions on (log on and off) and off (log on)."""
    print(f"default scenarios, {days} days, median of {seeds} seeds (CPU time):")
    for name in DEFAULTS:
        quiet = [run(name, seed, days, False) for seed in range(seeds)]
        seconds = statistics.median(r[0] for r in quiet)
        items = statistics.median(r[2] for r in quiet) / days
        print(
            f"  {name:>9} invasions off, log on : {days / seconds:8.1f} days/s "
            f"({1000 * seconds / days:5.1f} ms a day, {items:.0f} queue items a day)"
        )
        for log in (True, False):
            runs = [run(name, seed, days, True, log=log) for seed in range(seeds)]
            seconds = statistics.median(r[0] for r in runs)
            items = statistics.median(r[2] for r in runs) / days
            fates = {
                k: statistics.median(r[1][k] for r in runs)
                for k in ("invasions", "dead", "captured", "escaped")
            }
            fallen = sum(r[1]["master"] == "dead" for r in runs)
            print(
                f"  {name:>9} invasions on,  log {'on ' if log else 'off'}: "
                f"{days / seconds:8.1f} days/s "
                f"({seconds:6.3f} s for {days} days, {items:.0f} queue items a day; "
                f"{fates['invasions']:.0f} invasions, {fates['dead']:.0f} dead, "
                f"{fates['captured']:.0f} captured, {fates['escaped']:.0f} escaped; "
                f"the Master fell in {fallen} of {seeds})"
            )


def _nine_days_then(
    scenario: str, seed: int, *, with_them: bool, days: int, log: bool = False, **options: Any
) -> tuple[float, Any]:
    """CPU seconds of ``days`` days of ``scenario`` after its first nine (the log on if
    ``log``), with nothing coming or with five level-3 adventurers arriving at the start;
    and their group."""
    world = build_world(scenario, seed=seed, options=options)
    if log:
        world.open_log()
    world.invasion.director.token += 1  # nothing comes but them:
    world.invasion.director.rite_until = 10**9  # a Rite of Storms holds the director
    world.run_days(9)
    start = time.process_time()
    group = None
    if with_them:
        members = tuple(MemberDraw(c, 3, ()) for c in FIVE)
        group = invasions.come(world, "normal", members=members)
    world.run_days(days)
    return time.process_time() - start, group


def mid_day(seed: int, *, with_them: bool) -> float:
    """CPU seconds a day of days 10 and 11 of mid (a wave of rearms falls on one of
    them) with nothing coming, or with five level-3 adventurers arriving at midnight."""
    elapsed, _ = _nine_days_then("mid", seed, with_them=with_them, days=2, invasions=True)
    return elapsed / 2


def profile(name: str) -> None:
    """Where the time of 30 days of ``name`` goes (log off)."""
    import cProfile
    import pstats

    world = build_world(name, seed=1)
    profiler = cProfile.Profile()
    profiler.enable()
    world.run_days(30)
    profiler.disable()
    print(f"\nwhere 30 days of {name} spend their time (cProfile, cumulative):")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


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


QUIET = """
import json, time
from undercroft.keep.scenario import build_world, world_from_text
text = QUIET_TEXT
options = OPTIONS
out = {}
empty = world_from_text(text[: text.index("[[minion]]")], options=options)
t = time.process_time(); empty.run_days(100_000); out["empty_100k_days_s"] = time.process_time() - t
one = world_from_text(text, seed=0, options=options); one.open_log()
t = time.process_time(); one.run_days(3650)
out["one_trap_days_per_s"] = 3650 / (time.process_time() - t)
per_day = []
for seed in range(SEEDS):
    w = build_world("trapworks", seed=seed, options=options); w.open_log()
    t = time.process_time(); w.run_days(30); per_day.append((time.process_time() - t) / 30)
out["trapworks_ms_per_day"] = 1000 * sorted(per_day)[len(per_day) // 2]
print(json.dumps(out))
"""


def quiet_days(src: str | None, seeds: int) -> dict[str, float]:
    """The quiet-day figures, measured in a fresh process with ``src`` first on the path."""
    code = (
        QUIET.replace("QUIET_TEXT", repr(quiet_world_text()))
        .replace("OPTIONS", '{"invasions": False}')
        .replace("SEEDS", str(seeds))
    )
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    found = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(found.stdout.strip().splitlines()[-1])
    return figures


def day_with_five(seed: int, *, with_them: bool) -> float:
    """CPU seconds of day 10 of trapworks with (or without) five level-3 adventurers."""
    elapsed, group = _nine_days_then("trapworks", seed, with_them=with_them, days=1, log=True)
    if with_them:
        assert group.phase == "ended", "the five did not finish within the day"
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--against", help="another checkout's src folder (quiet days)")
    parser.add_argument("--profile", help="profile 30 days of this scenario too")
    args = parser.parse_args()

    defaults(args.days, args.seeds)
    quiet = [mid_day(seed, with_them=False) for seed in range(args.seeds * 2)]
    busy = [mid_day(seed, with_them=True) for seed in range(args.seeds * 2)]
    print(
        f"\na day of mid (days 10-11): quiet {1000 * statistics.median(quiet):.1f} ms "
        f"(median), with an "
        f"invasion of five level-3 adventurers {1000 * statistics.median(busy):.1f} ms "
        f"(min {1000 * min(busy):.1f}, max {1000 * max(busy):.1f})"
    )

    print(f"\nother scenarios, {args.days} days, median of {args.seeds} seeds (CPU time):")
    results: dict[tuple[str, bool], list[tuple[float, dict[str, Any], int]]] = {}
    for name in [n for n in shipped() if n not in DEFAULTS]:
        for on in (False, True):
            runs = [run(name, seed, args.days, on) for seed in range(args.seeds)]
            results[(name, on)] = runs
            seconds = statistics.median(r[0] for r in runs)
            items = statistics.median(r[2] for r in runs) / args.days
            extra = ""
            if on:
                came = statistics.median(r[1]["invasions"] for r in runs)
                people = statistics.median(r[1]["adventurers"] for r in runs)
                extra = f", {came:.0f} invasions, {people:.0f} adventurers"
            print(
                f"  {name:>13} invasions {'on ' if on else 'off'}: "
                f"{args.days / seconds:8.1f} days/s ({1000 * seconds / args.days:5.1f} ms a day, "
                f"{items:.0f} queue items a day{extra})"
            )

    five = [day_with_five(seed, with_them=True) for seed in range(args.seeds * 2)]
    alone = [day_with_five(seed, with_them=False) for seed in range(args.seeds * 2)]
    print(
        f"\na day of trapworks with an invasion of five: {1000 * statistics.median(five):.1f} ms "
        f"(min {1000 * min(five):.1f}); the same day without them: "
        f"{1000 * statistics.median(alone):.1f} ms"
    )

    print("\nquiet days (invasions off):")
    mine = quiet_days(None, args.seeds)
    other = quiet_days(args.against, args.seeds) if args.against else None
    for key, label in (
        ("trapworks_ms_per_day", "trapworks, ms a day"),
        ("one_trap_days_per_s", "one trap, one minion: days/s"),
        ("empty_100k_days_s", "empty dungeon, 100,000 days: s"),
    ):
        line = f"  {label:>34}: {mine[key]:10.4g}"
        if other is not None:
            line += f"   (against {args.against}: {other[key]:.4g})"
        print(line)
    text = quiet_world_text()
    empty = world_from_text(text[: text.index("[[minion]]")], options={"invasions": False})
    empty.run_days(1000)
    print(f"  {'queue items, 1000 empty days':>34}: {empty.queue.next_seq:10d}")

    print("\nK-DECAY-04 workload over", args.days, "days, invasions off (mean over seeds):")
    keys = (
        "rearms_per_day",
        "traps_job_minion_hours_per_day",
        "traps_job_utilisation",
        "mean_wait_minutes",
        "max_rearm_gap_hours",
    )
    print(f"{'':>32}{'20 traps':>10}{'40 traps':>10}{'ratio':>8}")
    for key in keys:
        a = statistics.mean(r[1][key] for r in results[("trapworks", False)])
        b = statistics.mean(r[1][key] for r in results[("trapworks-40", False)])
        print(f"{key:>32}{a:10.2f}{b:10.2f}{b / a if a else 0:8.2f}")
    if args.profile:
        profile(args.profile)


if __name__ == "__main__":
    main()
