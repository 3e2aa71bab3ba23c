"""A sweep: the grid of batches over some ``--set`` values, and its report.

``--set monsters.orc.fighting=2,3,4,5 --set options.ambusher_six=total,natural`` makes the
4 x 2 grid; a ``--set`` with one value holds for every point. Every point is a full batch
(its own folder ``point-NN``, Parquet files, report), played with the same batch seed:
run ``i`` of every point starts from the same seed, so the points differ by the values
swept and not by luck in their first rolls (common random numbers: the differences
between points are steadier than the points themselves). The sweep's ``report.html``
plots every metric against the first swept key, one line per value of the others, with
95% bands, and tables every point.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from undercroft.analysis import plots
from undercroft.analysis.plugin import Metric
from undercroft.analysis.report import esc, figure, page, shown, table
from undercroft.analysis.stats import Estimate
from undercroft.core.files import write_text_atomic
from undercroft.crawl.settings import SettingError, parse, read_value, split_values


@dataclass(frozen=True)
class Point:
    """One batch of the grid: the value of every swept key (and its folder)."""

    index: int
    values: tuple[tuple[str, str], ...]
    """(key, value as written), in the order the keys were given."""

    @property
    def sets(self) -> list[str]:
        return [f"{k}={v}" for k, v in self.values]

    @property
    def name(self) -> str:
        return f"point-{self.index:02d}"

    def label(self, keys: Sequence[str]) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values if k in keys)


def grid(sets: Sequence[str]) -> tuple[list[str], list[str], list[Point]]:
    """The fixed settings, the swept keys and the points of ``--set`` texts."""
    fixed: list[str] = []
    swept: list[tuple[str, list[str]]] = []
    for text in sets:
        key = parse(text).key
        values = split_values(text.partition("=")[2])
        if any(not v for v in values):
            raise SettingError(f"--set {text}: an empty value between commas")
        if len(values) == 1:
            fixed.append(text)
        else:
            swept.append((key, values))
    if not swept:
        raise SettingError(
            "a sweep needs at least one --set with several values, comma-separated "
            "(for example --set monsters.orc.fighting=2,3,4,5)"
        )
    keys = [k for k, _ in swept]
    points = [
        Point(i + 1, tuple(zip(keys, combo, strict=True)))
        for i, combo in enumerate(itertools.product(*(v for _, v in swept)))
    ]
    return fixed, keys, points


def axis(values: Sequence[str]) -> tuple[list[float], list[str] | None]:
    """Positions on the x axis: the numbers themselves, else 0, 1, 2 with labels."""
    read = [read_value(v) for v in values]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in read):
        return [float(v) for v in read], None
    return [float(i) for i in range(len(values))], list(values)


def write_report(
    folder: Path,
    title: str,
    keys: Sequence[str],
    points: Sequence[Point],
    results: Sequence[Sequence[tuple[Metric, Estimate]]],
    meta_lines: Sequence[tuple[str, str]],
) -> Path:
    """``folder/report.html``: every metric against the swept values, then every point."""
    first = keys[0]
    xs_text = list(dict.fromkeys(dict(p.values)[first] for p in points))
    xs, labels = axis(xs_text)
    others = list(dict.fromkeys(p.label(keys[1:]) for p in points))
    figures = []
    for m_index, (metric, _) in enumerate(results[0]):
        lines: dict[str, tuple[list[float], list[float], list[float]]] = {}
        for series in others:
            mean, low, high = [], [], []
            for x in xs_text:
                found = [
                    results[i][m_index][1]
                    for i, p in enumerate(points)
                    if dict(p.values)[first] == x and p.label(keys[1:]) == series
                ]
                e = found[0] if found else Estimate(math.nan, math.nan, math.nan, 0)
                mean.append(e.value)
                low.append(e.low)
                high.append(e.high)
            lines[series or metric.column] = (mean, low, high)
        figures.append(
            figure(
                plots.band(
                    xs,
                    lines,
                    title=metric.label,
                    xlabel=first,
                    ylabel=metric.column,
                    percent=metric.kind == "rate",
                    ticks=labels,
                )
            )
        )
    headers = ["point", *keys, *(m.column for m, _ in results[0])]
    rows = []
    for p, res in zip(points, results, strict=True):
        cells = [f"{shown(m, e)[0]} [{shown(m, e)[1]}]" for m, e in res]
        rows.append([p.name, *(v for _, v in p.values), *cells])
    parts = [
        f"<h1>Sweep: {esc(title)}</h1>",
        table(("", ""), meta_lines),
        '<p class="note">Every point is a batch played from the same batch seed (run i of '
        "each point starts from the same seed). Bands are 95% intervals of each point.</p>",
        "<h2>Metrics against the swept values</h2>",
        '<div class="grid">',
        *figures,
        "</div>",
        "<h2>Every point</h2>",
        table(headers, rows),
        '<p class="note">Each point\'s own report: <code>point-NN/report.html</code>.</p>',
    ]
    path = folder / "report.html"
    write_text_atomic(path, page(f"sweep: {title}", parts))
    return path
