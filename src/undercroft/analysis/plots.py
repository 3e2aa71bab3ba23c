"""Plots for reports, drawn with matplotlib's Agg/SVG backend and inlined as SVG text.

Every function takes plain numbers (already aggregated, so a plot never holds a batch's
rows) and returns one ``<svg>`` element; the reports draw no plot of nothing (they say so
in words instead, :func:`nothing`), and axes that count (runs, deaths, days, goals) get
whole-number ticks only. Text is drawn as paths, so a report needs no
font and no network to show; ids are salted with a fixed string so the same numbers give
the same SVG.
"""

from __future__ import annotations

import io
import math
import re
import textwrap
from collections.abc import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from undercroft.core.grid import Grid, Terrain

plt.rcParams.update(
    {
        "svg.fonttype": "path",
        "svg.hashsalt": "undercroft",
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
)
BLUE, ORANGE, GREY = "#3a6ea5", "#d9822b", "#9aa5b1"


def svg(fig: Figure) -> str:
    """The figure as an inline ``<svg>`` element (closes the figure)."""
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = out.getvalue()
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.DOTALL)
    return text[text.index("<svg") :]


def whole(axis: Axis) -> None:
    """Ticks at whole numbers only (an axis of counts: no 0.5 of a run)."""
    axis.set_major_locator(MaxNLocator(integer=True))


def integral(values: Sequence[float]) -> bool:
    return all(float(v).is_integer() for v in values)


def nothing(values: Sequence[float]) -> bool:
    """Whether a plot of these values would show nothing: none, or every one 0 or nan."""
    return not any(math.isfinite(v) and v != 0 for v in values)


def interval_bars(
    labels: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    title: str,
    percent: bool = True,
) -> str:
    """Horizontal bars with their 95% intervals (rates of a batch)."""
    fig, ax = plt.subplots(figsize=(6.4, 0.35 * len(labels) + 0.9))
    ys = np.arange(len(labels))[::-1]
    scale = 100 if percent else 1
    vals = np.array(values, dtype=float) * scale
    err = np.array(
        [vals - np.array(lows, dtype=float) * scale, np.array(highs, dtype=float) * scale - vals]
    )
    ax.barh(
        ys, vals, color=BLUE, xerr=np.clip(np.nan_to_num(err), 0, None), capsize=3, ecolor="#222"
    )
    ax.set_yticks(ys, labels)
    ax.set_xlabel("% of runs (bars: 95% interval)" if percent else "value (bars: 95% interval)")
    if percent:
        ax.set_xlim(0, 100)
    ax.set_title(title)
    return svg(fig)


def counts_bars(
    pairs: Sequence[tuple[float, int]], *, title: str, xlabel: str, color: str = BLUE
) -> str:
    """A histogram from (value, runs) pairs (as SQL ``GROUP BY`` gives them)."""
    fig, ax = plt.subplots(figsize=(4.4, 2.5))
    if pairs:
        xs = [float(x) for x, _ in pairs]
        ns = [int(n) for _, n in pairs]
        width = 0.8 * (min(np.diff(sorted(set(xs)))) if len(set(xs)) > 1 else 1.0)
        ax.bar(xs, ns, width=width, color=color)
        if integral(xs):
            whole(ax.xaxis)
    whole(ax.yaxis)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("runs")
    ax.set_title(title)
    return svg(fig)


def values_bars(
    pairs: Sequence[tuple[float, float]], *, title: str, xlabel: str, ylabel: str
) -> str:
    """One bar per (x, value): a mean by day, say."""
    fig, ax = plt.subplots(figsize=(4.6, 2.5))
    if pairs:
        ax.bar([x for x, _ in pairs], [v for _, v in pairs], width=0.8, color=BLUE)
        if integral([x for x, _ in pairs]):
            whole(ax.xaxis)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return svg(fig)


def stacked_bars(
    groups: Sequence[str], parts: Mapping[str, Sequence[int]], *, title: str, ylabel: str
) -> str:
    """One bar per group split into named parts (deaths of each hero by killer)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    bottom = np.zeros(len(groups))
    colours = plt.get_cmap("tab10")
    for i, (name, counts) in enumerate(parts.items()):
        ax.bar(groups, counts, bottom=bottom, label=name, color=colours(i % 10))
        bottom += np.array(counts, dtype=float)
    whole(ax.yaxis)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if parts:
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    return svg(fig)


def board_heatmap(
    board: Grid,
    counts: Mapping[tuple[int, int], float],
    *,
    title: str,
    marks: Sequence[tuple[int, int]] = (),
    mark_label: str = "trap",
) -> str:
    """The board (walls dark, floor light) with ``counts`` per square in colour, each named
    area's name at its middle, column and row numbers every 5 squares, and ``marks``
    (traps) as black crosses."""
    fig, ax = plt.subplots(figsize=(0.16 * board.width + 1.6, 0.16 * board.height + 0.8))
    walls = (board.terrain != Terrain.FLOOR) & (board.terrain != Terrain.DOOR)
    ax.imshow(np.where(walls, 0.25, 0.95), cmap="gray", vmin=0, vmax=1, interpolation="nearest")
    grid = np.full((board.height, board.width), np.nan)
    for (x, y), n in counts.items():
        if 0 <= y < board.height and 0 <= x < board.width and n:
            grid[y, x] = n
    if np.isfinite(grid).any():
        shown = ax.imshow(grid, cmap="YlOrRd", interpolation="nearest", alpha=0.9)
        fig.colorbar(shown, ax=ax, fraction=0.04, pad=0.02, label="per 100 runs")
    for index, info in enumerate(board.areas):
        ys, xs = np.nonzero(board.area == index)
        if len(xs):
            ax.text(
                float(xs.mean()), float(ys.mean()), info.name, ha="center", va="center",
                fontsize=5, color="#1d2733", alpha=0.85,
            )  # fmt: skip
    if marks:
        ax.scatter(
            [x for x, _ in marks], [y for _, y in marks], marker="x", s=14, linewidths=1,
            color="black", label=mark_label,
        )  # fmt: skip
        ax.legend(fontsize=6, frameon=False, loc="upper left", bbox_to_anchor=(0, -0.06))
    ax.set_xticks(range(0, board.width, 5))
    ax.set_yticks(range(0, board.height, 5))
    ax.tick_params(labelsize=6, length=2)
    ax.set_title(title)
    return svg(fig)


def matrix(
    rows: Sequence[str],
    columns: Sequence[str],
    values: Sequence[Sequence[float]],
    notes: Sequence[Sequence[str]],
    *,
    title: str,
) -> str:
    """A table of shares in colour (hero win rate for each hero and monster)."""
    fig, ax = plt.subplots(figsize=(0.55 * len(columns) + 2.2, 0.4 * len(rows) + 1.4))
    data = np.array(values, dtype=float) * 100
    shown = ax.imshow(data, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(columns)):
            if notes[i][j]:
                ax.text(j, i, notes[i][j], ha="center", va="center", fontsize=6.5)
    ax.set_xticks(range(len(columns)), columns, rotation=40, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    fig.colorbar(shown, ax=ax, fraction=0.04, pad=0.02, label="hero wins, % of fights")
    ax.set_title(title)
    return svg(fig)


def band(
    xs: Sequence[float],
    lines: Mapping[str, tuple[Sequence[float], Sequence[float], Sequence[float]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    percent: bool,
    ticks: Sequence[str] | None = None,
) -> str:
    """Metric against a parameter: one line per series, shaded 95% band; ``ticks`` names
    the x positions of a parameter that is not a number."""
    fig, ax = plt.subplots(figsize=(4.6, 2.8))
    scale = 100 if percent else 1
    for i, (name, (mean, low, high)) in enumerate(lines.items()):
        colour = plt.get_cmap("tab10")(i % 10)
        m = np.array(mean, dtype=float) * scale
        lo = np.array(low, dtype=float) * scale
        hi = np.array(high, dtype=float) * scale
        ax.plot(xs, m, marker="o", color=colour, label=name if len(lines) > 1 else None)
        ax.fill_between(
            xs,
            np.where(np.isnan(lo), m, lo),
            np.where(np.isnan(hi), m, hi),
            color=colour,
            alpha=0.2,
        )
    labels = list(ticks) if ticks is not None else [f"{x:g}" for x in xs]
    ax.set_xticks(list(xs), labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel + (" (%)" if percent else ""))
    ax.set_title(textwrap.fill(title, 48))
    if len(lines) > 1:
        ax.legend(fontsize=7, frameon=False)
    return svg(fig)


def paired_bars(
    labels: Sequence[str],
    a: Sequence[tuple[float, float, float]],
    b: Sequence[tuple[float, float, float]],
    *,
    title: str,
) -> str:
    """Rates of two batches side by side, (value, low, high) each, as percentages."""
    fig, ax = plt.subplots(figsize=(6.4, 0.5 * len(labels) + 1.0))
    ys = np.arange(len(labels))[::-1]
    for shift, data, colour, name in ((0.2, a, BLUE, "A"), (-0.2, b, ORANGE, "B")):
        vals = np.array([v for v, _, _ in data], dtype=float) * 100
        lows = np.array([lo for _, lo, _ in data], dtype=float) * 100
        highs = np.array([hi for _, _, hi in data], dtype=float) * 100
        err = np.clip(np.nan_to_num(np.array([vals - lows, highs - vals])), 0, None)
        ax.barh(ys + shift, vals, height=0.38, color=colour, xerr=err, capsize=2, label=name)
    ax.set_yticks(ys, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of runs (bars: 95% interval)")
    ax.set_title(title)
    ax.legend(fontsize=7, frameon=False)
    return svg(fig)


def finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if math.isfinite(v)]
