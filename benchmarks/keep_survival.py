"""The Master's survival over a keep batch: the fraction of runs with the Master alive after
each of a few days of play, from the ``runs.parquet`` that ``undercroft batch keep`` writes.

    undercroft batch keep mid --runs 40 --days 60 --workers 1 --out /tmp/mid60
    .venv/bin/python benchmarks/keep_survival.py /tmp/mid60 [/tmp/late60 ...]

A day of play counts from the scenario's first day (``late`` starts on day 40, so its day
of play 10 is game day 49). Prints one Markdown row a folder: scenario, runs, the fraction
alive after days 10, 20, 30, 45 and 60 of play (a day past the batch's ``--days`` is "-"),
and the median day of play the Master fell on (in the runs where he did).
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import pyarrow.parquet as pq

from undercroft.keep.scenario import load

DAYS = (10, 20, 30, 45, 60)


def row(folder: Path) -> str:
    """One folder's Markdown row."""
    batch = json.loads((folder / "batch.json").read_text())
    scenario = str(batch["scenario"]["scenario"])
    played = int(batch["scenario"]["days"])
    start = load(scenario)[0].start_day
    runs = pq.read_table(folder / "runs.parquet", columns=["master_died_day"]).to_pylist()
    fell = [int(r["master_died_day"]) - start + 1 for r in runs if r["master_died_day"]]
    cells = [
        f"{sum(d > day for d in fell) + len(runs) - len(fell)}/{len(runs)}"
        if day <= played
        else "-"
        for day in DAYS
    ]
    median = f"{statistics.median(fell):g}" if fell else "-"
    return f"| `{scenario}` | {len(runs)} | " + " | ".join(cells) + f" | {median} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="batch output folders")
    args = parser.parse_args()
    print("| scenario | runs | " + " | ".join(f"alive day {d}" for d in DAYS) + " | median fall |")
    print("|---|---:|" + "---:|" * (len(DAYS) + 1))
    for folder in args.folders:
        print(row(folder))


if __name__ == "__main__":
    main()
