"""What the paired benchmarks (``duel_crawl.py``, ``search_crawl.py``,
``rulings_crawl.py``) share: the cells they play (every shipped adventure, or
``--adventure``; each ``--party``: by default the first four heroes and the casters) and
the seeds each cell plays, from their common arguments; the policies they name; the seeds
won by one side only, and a cell's paired figures. A script in this folder imports it by
name (Python puts the script's folder first on the path)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from undercroft.agents.registry import resolve
from undercroft.analysis.stats import paired_exact
from undercroft.crawl.content import Pack

CASTERS = "brenna,corvin,ysolde,mirela"
"""The caster party: Brenna, Corvin, Ysolde, Mirela."""


@dataclass(frozen=True)
class Cells:
    """The adventures and parties to play, and the seeds of each cell."""

    adventures: list[str]
    parties: list[str]
    seeds: range

    @property
    def span(self) -> str:
        return f"seeds {self.seeds.start}-{self.seeds.stop - 1}"


def add_cell_arguments(parser: argparse.ArgumentParser, *, seeds: int) -> None:
    """``--seeds`` (default ``seeds``), ``--first-seed``, ``--adventure``, ``--party``,
    ``--workers`` and ``--json``."""
    parser.add_argument("--seeds", type=int, default=seeds)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--adventure", action="append", help="only these (repeatable)")
    parser.add_argument("--party", action="append", help="a,b,c (repeatable)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", default=None, help="write the rows to this file")


def cells_of(args: argparse.Namespace, pack: Pack) -> Cells | str:
    """The cells the arguments name, or what is wrong with them (for an exit code 2)."""
    if args.seeds < 1 or args.workers < 1 or args.first_seed < 0:
        return "--seeds and --workers must be at least 1, --first-seed at least 0"
    order = list(pack.campaign_order())
    adventures = args.adventure or order
    unknown = [x for x in adventures if x not in order]
    if unknown:
        return f"--adventure {unknown[0]}: not a shipped adventure"
    parties = args.party or [",".join(list(pack.heroes)[:4]), CASTERS]
    for party in parties:
        strangers = [h for h in party.split(",") if h not in pack.heroes]
        if strangers:
            return f"--party {party}: {strangers[0]!r} is not a hero of the pack"
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    return Cells(adventures, parties, seeds)


def policies_of(names: Sequence[str]) -> list[str] | str:
    """Each policy name resolved (a knob checked and sorted, ``agents.registry.resolve``),
    or what is wrong with the first bad one (for an exit code 2)."""
    try:
        return [resolve(n) for n in names]
    except (KeyError, ValueError) as exc:
        return str(exc).strip(chr(39) + chr(34))


def cells_and_policies(
    args: argparse.Namespace, pack: Pack, names: Sequence[str]
) -> tuple[Cells, list[str]] | str:
    """The cells the arguments name (:func:`cells_of`) and the policies ``names`` resolved
    (:func:`policies_of`), or what is wrong with the first bad one (for an exit code 2)."""
    cells = cells_of(args, pack)
    if isinstance(cells, str):
        return cells
    policies = policies_of(names)
    if isinstance(policies, str):
        return policies
    return cells, policies


@dataclass(frozen=True)
class Paired:
    """Two runs of a cell over the same seeds: the share each won, the seeds won by one
    side only, McNemar's exact p, and the turns a game each."""

    seeds: int
    won_a: float
    won_b: float
    only_a: int
    only_b: int
    p: float
    turns_a: float
    turns_b: float


def paired(games_a: Sequence[tuple[Any, ...]], games_b: Sequence[tuple[Any, ...]]) -> Paired:
    """The paired figures of two runs over the same seeds, (won, turns, ...) a game."""
    only_a, only_b = discordant([g[0] for g in games_a], [g[0] for g in games_b])
    n = len(games_a)
    return Paired(
        seeds=n,
        won_a=sum(g[0] for g in games_a) / n,
        won_b=sum(g[0] for g in games_b) / n,
        only_a=only_a,
        only_b=only_b,
        p=paired_exact(only_a, only_b),
        turns_a=sum(g[1] for g in games_a) / n,
        turns_b=sum(g[1] for g in games_b) / n,
    )


def discordant(won_a: Sequence[bool], won_b: Sequence[bool]) -> tuple[int, int]:
    """(seeds won by A only, seeds won by B only) of two runs over the same seeds: what
    McNemar's exact test (``analysis.stats.paired_exact``) counts."""
    pairs = list(zip(won_a, won_b, strict=True))
    return sum(1 for a, b in pairs if a and not b), sum(1 for a, b in pairs if b and not a)
