"""A crawl batch with 1 and 2 workers: the speed-up, identical rows, and peak memory.

Runs ``undercroft batch crawl ADVENTURE --runs N --workers K`` as a subprocess for each
``K`` of ``--workers`` (default 2 then 1), in a scratch folder with its own catalogue;
prints for each the wall time, runs per second, the peak RSS of the largest single
process and the peak memory of the whole process tree (the batch and its workers, as the
sum of their PSS, sampled every 0.5 s),
then the speed-up of the most workers over 1 and whether every table's Parquet rows are
identical between them.

    .venv/bin/python benchmarks/bench_batch.py [--runs 10000] [--workers 2,1]
        [--adventure greyhollow-cellars] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq

TABLES = ("runs", "deaths", "fights", "rolls", "squares")


def tree_memory(proc: psutil.Process) -> tuple[int, int]:
    """(largest single RSS, sum of PSS) over ``proc`` and its descendants, in bytes.

    PSS (proportional set size) counts a page shared by k processes as 1/k in each: the
    workers are forked from one server and share most of their pages, so a sum of RSS
    would count those pages again for every worker.
    """
    rss, pss = [], []
    for p in [proc, *proc.children(recursive=True)]:
        try:
            info = p.memory_full_info()
        except psutil.Error:
            continue
        rss.append(info.rss)
        pss.append(info.pss)
    return max(rss, default=0), sum(pss)


def run(adventure: str, runs: int, workers: int, folder: Path) -> tuple[float, int, int]:
    undercroft = Path(sys.executable).with_name("undercroft")
    command = [
        str(undercroft),
        "batch",
        "crawl",
        adventure,
        "--runs",
        str(runs),
        "--workers",
        str(workers),
        "--out",
        str(folder / f"w{workers}"),
        "--catalogue",
        str(folder / "catalogue.duckdb"),
        "--quiet",
    ]
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    watched = psutil.Process(child.pid)
    peak_one = peak_sum = 0
    while child.poll() is None:
        one, total = tree_memory(watched)
        peak_one, peak_sum = max(peak_one, one), max(peak_sum, total)
        time.sleep(0.5)
    elapsed = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"the batch failed (exit {child.returncode}): {' '.join(command)}")
    return elapsed, peak_one, peak_sum


def same_rows(a: Path, b: Path) -> dict[str, bool]:
    return {
        t: pq.read_table(a / f"{t}.parquet").equals(pq.read_table(b / f"{t}.parquet"))
        for t in TABLES
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--workers", default="2,1", help="worker counts, comma-separated")
    parser.add_argument("--adventure", default="greyhollow-cellars")
    parser.add_argument("--keep", type=Path, default=None, help="keep the results here")
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-batch-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{args.adventure}: {args.runs:,} runs per batch, {os.cpu_count()} cores", flush=True)
    times: dict[int, float] = {}
    try:
        for workers in counts:
            elapsed, one, total = run(args.adventure, args.runs, workers, folder)
            times[workers] = elapsed
            print(
                f"workers {workers}: {elapsed:8.1f} s  {args.runs / elapsed:7.1f} runs/s  "
                f"peak RSS {one / 2**20:6.0f} MB (largest process), "
                f"{total / 2**20:6.0f} MB (all processes, PSS)",
                flush=True,
            )
        if 1 in times and len(times) > 1:
            most = max(times)
            print(f"speed-up of {most} workers over 1: {times[1] / times[most]:.2f}x")
            same = same_rows(folder / "w1", folder / f"w{most}")
            print(
                "identical rows: "
                + ", ".join(f"{t} {'yes' if ok else 'NO'}" for t, ok in same.items())
            )
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
