"""The sweep's report: every metric against the swept values, with 95% bands."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from undercroft.analysis import plots
from undercroft.analysis.formats import Estimate, shown
from undercroft.analysis.plugin import Metric
from undercroft.analysis.report import esc, figure, page, table
from undercroft.analysis.sweep import Point, axis
from undercroft.core.files import write_text_atomic


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
