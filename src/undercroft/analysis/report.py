"""The batch report: one self-contained HTML page, ``DIR/report.html``.

Everything is in the page: the styles, and the plots as inline SVG (:mod:`.plots`); it
loads nothing, so it opens offline, from an e-mail or an archive. It reads the batch's
Parquet files through DuckDB views (aggregates only: memory stays flat however many runs
there were) and holds, in order: what was played and how to replay any run, the metrics
with their 95% intervals (a table and a chart), the distributions of the counted
metrics, then the ruleset's own sections (crawl: how games ended, the rules exercised,
deaths and killers, fights by hero and monster, heatmaps of the board, the dice as
rolled).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from undercroft.analysis import plots
from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.formats import FEW_RUNS, REPORT, caution, shown
from undercroft.analysis.plugin import BatchRuleset, Section
from undercroft.analysis.store import views
from undercroft.core.dice import derive_seed as run_seed
from undercroft.core.files import write_text_atomic
from undercroft.core.grid import Grid

Query = Callable[[str], list[tuple[Any, ...]]]

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 62em; color: #1d2733;
       padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid
#d5dce3; } table { border-collapse: collapse; margin: .6em 0; } td, th { padding: .2em .7em;
text-align: left; border-bottom: 1px solid #eef1f4; } td.n { text-align: right;
font-variant-numeric: tabular-nums; } code, pre { background: #f3f5f7; padding: .1em .3em;
border-radius: 3px; } pre { padding: .6em; overflow-x: auto; white-space: pre-wrap; }
.figure { margin: .8em 0; } .figure svg { max-width: 100%; height: auto; }
.note { color: #5b6875; }
.lead { font-size: 1.15em; font-weight: 600; margin: .4em 0 .8em; }
.scroll { max-width: 100%; overflow-x: auto; }
.scroll th { vertical-align: bottom; } td.n { white-space: nowrap; }
.flag { color: #9a3412; font-weight: 600; }
.grid { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
"""


def esc(value: object) -> str:
    return html.escape(str(value))


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    numeric: frozenset[int] | set[int] = frozenset(),
) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{esc(v)}</td>' if i in numeric else f"<td>{esc(v)}</td>"
            for i, v in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def figure(svg_text: str) -> str:
    return f'<div class="figure">{svg_text}</div>'


def heatmaps(
    board: Grid,
    query: Query,
    runs: int,
    columns: Sequence[tuple[str, str, str]],
    note: str,
    marks: Sequence[tuple[int, int]] = (),
) -> str:
    """One heatmap of the board per (column of ``squares``, title, what it counts), per 100
    runs, with the areas named and ``marks`` (traps) crossed; a column with nothing in
    any run is said in words, not drawn."""
    figures, none = [], []
    for column, title, what in columns:
        counts = {
            (int(x), int(y)): 100 * float(n) / runs
            for x, y, n in query(f"SELECT x, y, sum({column}) FROM squares GROUP BY 1, 2")
        }
        if plots.nothing(list(counts.values())):
            none.append(what)
            continue
        figures.append(figure(plots.board_heatmap(board, counts, title=title, marks=marks)))
    said = "".join(f'<p class="note">No {esc(what)} in these runs.</p>' for what in none)
    return (
        '<div class="grid">'
        + "".join(figures)
        + f"</div>{said}"
        + (
            f'<p class="note">{note} Numbers on the edges are the squares\' columns (x) and '
            "rows (y).</p>"
        )
    )


def first_runs(query: Query, picks: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
    """(label, run) for each (label, SQL giving a run) that finds one."""
    found = []
    for label, sql in picks:
        rows = query(sql)
        if rows and rows[0][0] is not None:
            found.append((label, int(rows[0][0])))
    return found


def page(title: str, parts: Sequence[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )


def metrics_part(estimates: Sequence[tuple[Metric, Estimate]]) -> list[str]:
    rows = [(m.label, *shown(m, e), caution(m, e)) for m, e in estimates]
    rates = [(m, e) for m, e in estimates if m.kind == "rate"]
    parts = [
        "<h2>Results</h2>",
        table(("metric", "value", "95% interval", "caution"), rows, {1, 2}),
        '<p class="note">Intervals of shares are Wilson score intervals; of means, Student '
        "t intervals cut at 0 (no count goes below), or the exact Poisson interval when "
        f"every run gave the same count. <i>Caution</i> marks an interval from fewer than "
        f"{FEW_RUNS} runs or from runs that all gave the same value: it is rougher than it "
        "looks.</p>",
    ]
    if rates:
        parts.append(
            figure(
                plots.interval_bars(
                    [m.column for m, _ in rates],
                    [e.value for _, e in rates],
                    [e.low for _, e in rates],
                    [e.high for _, e in rates],
                    title="Rates with their 95% intervals",
                )
            )
        )
    return parts


def distributions_part(
    estimates: Sequence[tuple[Metric, Estimate]], query: Query, wanted: Sequence[str]
) -> list[str]:
    """A histogram of each counted metric named in ``wanted`` (in words when every run
    had none)."""
    figures, none = [], []
    for m, _ in estimates:
        if m.kind != "mean" or m.column not in wanted:
            continue
        col = '"' + m.column + '"'
        pairs = query(f"SELECT {col}, count(*) FROM runs GROUP BY 1 ORDER BY 1")
        pairs = [(x, n) for x, n in pairs if x is not None]
        if plots.nothing([float(x) for x, _ in pairs]):
            none.append(m.label)
            continue
        figures.append(figure(plots.counts_bars(pairs, title=m.label, xlabel=m.column)))
    said = (
        [f'<p class="note">None in any run, so not drawn: {esc("; ".join(none))}.</p>']
        if none
        else []
    )
    if not figures and not said:
        return []
    return ["<h2>Distributions</h2>", '<div class="grid">', *figures, "</div>", *said]


def replay_part(
    plugin: BatchRuleset, scenario: Any, seed: int, notable: Sequence[tuple[str, int]]
) -> list[str]:
    rows = [
        (label, run, run_seed(seed, run), plugin.replay_command(scenario, run_seed(seed, run)))
        for label, run in notable
    ]
    return [
        "<h2>Replaying a run</h2>",
        "<p>Run <i>i</i> of a batch seeded <i>S</i> plays with the seed "
        "<code>derive_seed(S, i)</code> (numpy <code>SeedSequence(S, spawn_key=(i,))</code>, "
        "first 64-bit word), whatever the backend and the number of workers. The seed of "
        "every run is the <code>seed</code> column of <code>runs.parquet</code>; this command "
        "plays one alone and tells it as it goes (add <code>--log FILE</code> for its event "
        "log):</p>",
        table(("run", "#", "seed", "command"), rows, {1, 2}),
    ]


def write(
    folder: Path,
    plugin: BatchRuleset,
    scenario: Any,
    meta: dict[str, Any],
    estimates: Sequence[tuple[Metric, Estimate]],
    *,
    distributions: Sequence[str] = (),
) -> Path:
    """Write ``folder/report.html`` and return its path."""
    with views(folder, list(plugin.tables(scenario))) as query:
        described = plugin.describe(scenario)
        seconds = float(meta.get("seconds", 0))
        rate = f", {meta['runs'] / seconds:,.1f} runs/s" if seconds else ""
        head = [
            f"<h1>{esc(plugin.name)} batch: {esc(described[0][1] if described else '')}</h1>",
            f'<p class="lead">{esc(plugin.headline(scenario, query, estimates))}</p>',
            f'<p class="note">{meta["runs"]:,} runs, batch seed {meta["seed"]}, undercroft '
            f"{esc(meta.get('version', ''))}, {seconds:,.1f} s on {esc(meta.get('backend', ''))}"
            f"{rate}.</p>",
            table(("", ""), [*described, ("command", meta.get("command", ""))]),
        ]
        sections: list[Section] = plugin.sections(scenario, query)
        notable = plugin.notable(query)
        parts = [
            *head,
            *metrics_part(estimates),
            *replay_part(plugin, scenario, int(meta["seed"]), notable),
            *distributions_part(estimates, query, distributions),
            *(f"<h2>{esc(s.title)}</h2>\n{s.html}" for s in sections),
        ]
    path = folder / REPORT
    write_text_atomic(path, page(f"{plugin.name} batch report", parts))
    return path
