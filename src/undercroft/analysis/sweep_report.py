"""The sweep's report: its main finding in a sentence, every metric against the swept
values with 95% bands, and a table of every point that fits the page (a metric a row, a
point a column, scrolling inside its box when the points are many)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from undercroft.analysis import plots
from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.formats import FEW_RUNS, pct, shown
from undercroft.analysis.report import esc, figure, page, table
from undercroft.analysis.sweep import Point, axis
from undercroft.core.files import write_text_atomic


def headline(
    keys: Sequence[str],
    points: Sequence[Point],
    results: Sequence[Sequence[tuple[Metric, Estimate]]],
    idle: Sequence[tuple[str, str]],
) -> str:
    """The sweep in a sentence: how far the first metric moved, from which point to which."""
    metric = results[0][0][0]
    values = [(res[0][1], p) for res, p in zip(results, points, strict=True)]
    values = [(e, p) for e, p in values if math.isfinite(e.value)]
    runs = results[0][0][1].n
    text = pct if metric.kind == "rate" else (lambda v: f"{v:,.2f}")
    if not values:
        found = f"{metric.column} has no value at any point"
    else:
        low = min(values, key=lambda v: v[0].value)
        high = max(values, key=lambda v: v[0].value)
        if low[0].value == high[0].value:
            found = f"{metric.column} was {text(low[0].value)} at every point"
        else:
            found = (
                f"{metric.column} ran from {text(low[0].value)} at {low[1].label(keys)} to "
                f"{text(high[0].value)} at {high[1].label(keys)}"
            )
    sentence = f"Over {len(points)} points of {runs:,} runs each, {found}."
    if idle:
        sentence += " " + " ".join(
            f"{key} changed nothing these games play ({why})." for key, why in idle
        )
    return sentence


def points_table(
    keys: Sequence[str],
    points: Sequence[Point],
    results: Sequence[Sequence[tuple[Metric, Estimate]]],
) -> str:
    """A metric a row, a point a column (headed by its swept values), each cell the value
    over its interval; in a box that scrolls sideways rather than widen the page."""
    head = "".join(
        # A key may break after its dots (a header as narrow as its longest part).
        f"<th>{esc(p.name)}<br>"
        + "<br>".join(esc(f"{k}={v}").replace(".", ".<wbr>") for k, v in p.values)
        + "</th>"
        for p in points
    )
    rows = []
    for m_index, (metric, _) in enumerate(results[0]):
        cells = "".join(
            f'<td class="n">{esc(shown(metric, res[m_index][1])[0])}<br>'
            f'<span class="note">{esc(shown(metric, res[m_index][1])[1])}</span></td>'
            for res in results
        )
        rows.append(f"<tr><td>{esc(metric.column)}</td>{cells}</tr>")
    return f'<div class="scroll"><table><tr><th>metric</th>{head}</tr>{"".join(rows)}</table></div>'


def write_report(
    folder: Path,
    title: str,
    keys: Sequence[str],
    points: Sequence[Point],
    results: Sequence[Sequence[tuple[Metric, Estimate]]],
    meta_lines: Sequence[tuple[str, str]],
    *,
    idle: Sequence[tuple[str, str]] = (),
) -> Path:
    """``folder/report.html``: the finding, every metric against the swept values, then
    every point. ``idle``: (key, why) for the swept keys that change nothing played."""
    first = keys[0]
    xs_text = list(dict.fromkeys(dict(p.values)[first] for p in points))
    xs, labels = axis(xs_text)
    others = list(dict.fromkeys(p.label(keys[1:]) for p in points))
    figures, flat = [], []
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
        if plots.nothing([v for mean, _, _ in lines.values() for v in mean]):
            flat.append(metric.column)
            continue
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
    runs = results[0][0][1].n
    warnings = [
        f'<p class="flag">{esc(key)} changes nothing these games play: {esc(why)}.  Points '
        "that differ only in it play the same games.</p>"
        for key, why in idle
    ]
    if 0 < runs < FEW_RUNS:
        warnings.append(
            f'<p class="flag">Each point has only {runs} runs (fewer than {FEW_RUNS}): its '
            "intervals are rough.</p>"
        )
    parts = [
        f"<h1>Sweep: {esc(title)}</h1>",
        f'<p class="lead">{esc(headline(keys, points, results, idle))}</p>',
        *warnings,
        table(("", ""), meta_lines),
        '<p class="note">Every point is a batch played from the same batch seed (run i of '
        "each point starts from the same seed). Bands are 95% intervals of each point.</p>",
        "<h2>Metrics against the swept values</h2>",
        '<div class="grid">',
        *figures,
        "</div>",
        (
            f'<p class="note">Zero (or none) at every point, so not drawn: '
            f"{esc(', '.join(flat))}.</p>"
            if flat
            else ""
        ),
        "<h2>Every point</h2>",
        points_table(keys, points, results),
        '<p class="note">Each cell: the value over its 95% interval. Each point\'s own '
        "report: <code>point-NN/report.html</code>.</p>",
    ]
    path = folder / "report.html"
    write_text_atomic(path, page(f"sweep: {title}", parts))
    return path
