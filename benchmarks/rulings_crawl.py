"""What each ruling's other reading does to the games: every crawl switch of
docs/rulings.md set to its other value, the same policies on the same seeds.

    python benchmarks/rulings_crawl.py --seeds 300
    python benchmarks/rulings_crawl.py --only text_test --adventure bone-priest

A designer reading a ruling wants to know whether it matters: for every option of
:class:`undercroft.crawl.options.Options` that is a rulings switch (a ``Literal`` or a
``bool``; ``surprise_turns`` is tried at 2; ``light``, ``max_light`` and ``max_turns`` are
engine limits, not readings), each other value is played on every shipped adventure (or
``--adventure``) and ``--party`` (default: the first four heroes, and the casters), with
the heroes' ``--policy`` (default ``careful``) against ``--dm`` (default ``master``): the
players who play the rules as a careful table does, so a change in the figures is the
rules', not the AI's. Each seed is played with the default options and with the other
reading: the games are paired, and the test is McNemar's exact test on the seeds won by
exactly one (:func:`undercroft.analysis.stats.paired_exact`). Prints one row per reading
and cell: the ruling (from docs/rulings.md), won by default and with the other reading,
the difference, the discordant seeds, the p-value and the mean turns; then per reading
its mean difference over the cells. ``--json FILE`` writes the rows. Progress on stderr;
games on ``--workers`` processes (default 2).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
import typing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

from paired_cells import add_cell_arguments, cells_and_policies, paired
from undercroft.core.catalogue import RULING_LINE
from undercroft.crawl.content import default_pack
from undercroft.crawl.options import Options
from undercroft.crawl.runner import play

LIMITS = ("light", "max_light", "max_turns")
"""Options that are engine limits, not readings of a rule."""
TRIED: dict[str, list[object]] = {"surprise_turns": [2]}
"""The other values of a switch that is neither a ``Literal`` nor a ``bool``."""
RULINGS = Path(__file__).resolve().parents[1] / "docs" / "rulings.md"
SWITCH_LINE = re.compile(r"^Switch: crawl\.options\.(?P<name>\w+)")


def readings(default: Options) -> list[tuple[str, object]]:
    """Every (switch, other value) of the crawl's rulings switches, other than in
    ``default`` (the pack's options), in the order :class:`Options` declares them."""
    hints = typing.get_type_hints(Options)
    found: list[tuple[str, object]] = []
    for field in dataclasses.fields(Options):
        if field.name in LIMITS:
            continue
        hint = hints[field.name]
        now = getattr(default, field.name)
        if typing.get_origin(hint) is typing.Literal:
            values: list[object] = [v for v in typing.get_args(hint) if v != now]
        elif hint is bool:
            values = [not now]
        else:
            values = TRIED.get(field.name, [])
        found.extend((field.name, v) for v in values)
    return found


def ruling_of_switch() -> dict[str, str]:
    """Switch name -> the ruling that offers it ("R-C-EXPL-02 — Who takes ..."), from
    docs/rulings.md ("Switch: crawl.options.NAME" closes each ruling's section)."""
    found: dict[str, str] = {}
    head = ""
    for line in RULINGS.read_text(encoding="utf-8").splitlines():
        ruling = RULING_LINE.match(line)  # the catalogue's reading of a ruling's heading
        if ruling is not None:
            head = f"{ruling['id']} — {ruling['text']}"
        switch = SWITCH_LINE.match(line)
        if switch is not None:
            found[switch["name"]] = head
    return found


def one(job: tuple[str, str, int, str, str, str | None, object]) -> tuple[bool, int]:
    """(won, turns) of one game, with the option ``switch`` set to ``value`` (``None``:
    the pack's options)."""
    adventure, party, seed, heroes, dm, switch, value = job
    pack = default_pack()
    change: dict[str, Any] = {} if switch is None else {switch: value}
    options = dataclasses.replace(pack.options, **change) if change else None
    state = play(
        pack.ruleset(adventure, options),
        party.split(","),
        seed=seed,
        heroes=heroes,
        dm=dm,
        log=False,
    ).state
    summary = state.summary()
    return bool(summary["won"]), int(summary["turns"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", default="careful", help="the heroes (default careful)")
    parser.add_argument("--dm", default="master", help="the Dungeon Master (default master)")
    parser.add_argument(
        "--only", action="append", help="only this switch (repeatable), e.g. text_test"
    )
    add_cell_arguments(parser, seeds=300)
    args = parser.parse_args(argv)
    pack = default_pack()
    found = cells_and_policies(args, pack, [args.policy, args.dm])
    if isinstance(found, str):
        print(f"error: {found}", file=sys.stderr)
        return 2
    cells, (heroes, dm) = found
    todo = readings(pack.options)
    if args.only:
        switches = {name for name, _ in todo}
        unknown = [s for s in args.only if s not in switches]
        if unknown:
            known = ", ".join(sorted(switches))
            print(f"error: --only {unknown[0]}: not a rulings switch ({known})", file=sys.stderr)
            return 2
        todo = [(name, value) for name, value in todo if name in args.only]
    named = ruling_of_switch()
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    print(f"# the other readings, {heroes} against {dm}, {cells.span}, {date.today()}")
    print()
    print(
        "| switch = other value | ruling | adventure | party | won (default) | won (other) "
        "| other - default | only other | only default | p (exact paired) | turns (default) "
        "| turns (other) |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    with ProcessPoolExecutor(args.workers) as pool:
        for adventure in cells.adventures:
            for party in cells.parties:
                base_jobs = [(adventure, party, s, heroes, dm, None, None) for s in cells.seeds]
                base = list(pool.map(one, base_jobs, chunksize=8))
                for switch, value in todo:
                    jobs = [(adventure, party, s, heroes, dm, switch, value) for s in cells.seeds]
                    other = list(pool.map(one, jobs, chunksize=8))
                    cell = paired(other, base)
                    only_other, only_base = cell.only_a, cell.only_b
                    row: dict[str, Any] = {
                        "switch": switch,
                        "value": value,
                        "ruling": named.get(switch, ""),
                        "adventure": adventure,
                        "party": party,
                        "seeds": cell.seeds,
                        "won_default": cell.won_b,
                        "won_other": cell.won_a,
                        "only_other": only_other,
                        "only_default": only_base,
                        "p": cell.p,
                        "turns_default": cell.turns_b,
                        "turns_other": cell.turns_a,
                    }
                    rows.append(row)
                    print(
                        f"| {switch} = {value} | {row['ruling'].split(' — ')[0]} | {adventure} "
                        f"| {party} | {row['won_default']:.1%} | {row['won_other']:.1%} | "
                        f"{row['won_other'] - row['won_default']:+.1%} | {only_other} | "
                        f"{only_base} | {row['p']:.2g} | {row['turns_default']:.1f} | "
                        f"{row['turns_other']:.1f} |",
                        flush=True,
                    )
                    print(
                        f"  {adventure} {party} {switch}={value}: "
                        f"{time.perf_counter() - started:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    print()
    print("| switch = other value | ruling | mean other - default | cells p < 0.01 |")
    print("|---|---|---:|---:|")
    for switch, value in todo:
        mine = [r for r in rows if r["switch"] == switch and r["value"] == value]
        mean = sum(r["won_other"] - r["won_default"] for r in mine) / len(mine)
        strong = sum(1 for r in mine if r["p"] < 0.01)
        print(f"| {switch} = {value} | {named.get(switch, '')} | {mean:+.1%} | {strong} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"policy": heroes, "dm": dm, "rows": rows}, out, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
