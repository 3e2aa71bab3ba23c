"""The keep sections of a batch report: invasions, the Master, traps, locked doors, the map.

Each section is built from SQL aggregates over the batch's tables (``runs``,
``invasions``, ``traps``, ``doors``, ``squares``; :mod:`.keep_batch` describes their
columns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from undercroft.analysis import plots
from undercroft.analysis.estimates import Estimate
from undercroft.analysis.formats import pct
from undercroft.analysis.plugin import Query, Section
from undercroft.analysis.report import figure, first_runs, heatmaps, table
from undercroft.core.events import MINUTES_PER_DAY
from undercroft.keep.state.structures import Trigger

if TYPE_CHECKING:
    from undercroft.analysis.keep_scenario import KeepScenario

OUTCOMES = ("repelled", "goal met", "escaped", "under way")


def sections(scenario: KeepScenario, query: Query) -> list[Section]:
    (runs,) = query("SELECT count(*) FROM runs")[0]
    return [
        invasions(query),
        master(scenario, query, runs),
        workload(query),
        traps(query, runs),
        doors(query, runs),
        the_map(scenario, query, runs),
    ]


def headline(scenario: KeepScenario, query: Query, survived: Estimate) -> str:
    """The batch in a sentence: how often the Master lived, and how invasions ended."""
    (runs,) = query("SELECT count(*) FROM runs")[0]
    first = (
        f"The Master survived {pct(survived.value)} ({pct(survived.low)} – "
        f"{pct(survived.high)}) of {runs:,} runs of {scenario.adventure} "
        f"({scenario.days} days each)"
    )
    rows = query("SELECT outcome, count(*) FROM invasions GROUP BY 1 ORDER BY 2 DESC, 1")
    total = sum(int(n) for _, n in rows)
    if not total:
        return f"{first}; no invasion came."
    outcome, n = rows[0]
    return f"{first}; most invasions ended {outcome} ({int(n):,} of {total:,})."


def invasions(query: Query) -> Section:
    rows = query(
        "SELECT outcome, count(*), avg(size), avg(dead), avg(captured), avg(escaped), "
        "avg(inside) FROM invasions GROUP BY 1 ORDER BY 2 DESC"
    )
    total = sum(int(r[1]) for r in rows)
    if not total:
        return Section("Invasions", "<p>No invasion came in any run.</p>")
    shown = [(o, n, pct(n / total), *(f"{x:.2f}" for x in means)) for o, n, *means in rows]
    by_day = query(
        "SELECT day, " + ", ".join(
            f"sum(CASE WHEN outcome = '{o}' THEN 1 ELSE 0 END)" for o in OUTCOMES
        ) + " FROM invasions GROUP BY 1 ORDER BY 1"
    )  # fmt: skip
    days = [str(r[0]) for r in by_day]
    parts = {o: [int(r[i + 1]) for r in by_day] for i, o in enumerate(OUTCOMES)}
    parts = {o: v for o, v in parts.items() if any(v)}
    kinds = query(
        "SELECT kind, goal, count(*), avg(CASE WHEN outcome = 'repelled' THEN 1.0 ELSE 0 END), "
        "avg(CASE WHEN outcome = 'goal met' THEN 1.0 ELSE 0 END) FROM invasions "
        "GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2"
    )
    html = (
        figure(plots.stacked_bars(days, parts, title="Invasions by the day they came", ylabel=""))
        + table(
            ("outcome", "invasions", "share", "members", "dead", "captured", "escaped", "inside"),
            shown,
            {1, 2, 3, 4, 5, 6, 7},
        )
        + table(
            ("kind", "goal", "invasions", "repelled", "goal met"),
            [(k, g, n, pct(r), pct(m)) for k, g, n, r, m in kinds],
            {2, 3, 4},
        )
        + '<p class="note">Repelled: every member dead or captured and the goal not met; '
        "escaped: someone walked out alive without the goal; under way: the run ended "
        "first. Members are means per invasion; what became of them (dead, captured, "
        "escaped, still inside) is as the run ended, so they add up to the members.</p>"
    )
    return Section("Invasions: how they ended", html)


def master(scenario: KeepScenario, query: Query, runs: int) -> Section:
    fell = query(
        "SELECT master_died_day, count(*) FROM runs WHERE master_died_day IS NOT NULL "
        "GROUP BY 1 ORDER BY 1"
    )
    alive = runs - sum(int(n) for _, n in fell)
    # The Master's survival by day: the share of runs he is still alive at each day's end.
    standing = runs
    curve = []
    by_day = dict((int(d), int(n)) for d, n in fell)
    first = scenario.world(0).now // MINUTES_PER_DAY + 1  # a scenario may start later on
    for day in range(first, first + scenario.days):
        standing -= by_day.get(day, 0)
        curve.append((float(day), standing))
    html = figure(
        plots.counts_bars(curve, title="Runs with the Master alive at each day's end", xlabel="day")
    ) + (
        f"<p>The Master was alive at the end of {alive:,} of {runs:,} runs "
        f"({pct(alive / runs if runs else float('nan'))}).</p>"
    )
    return Section("The Master's survival by day", html)


def workload(query: Query) -> Section:
    rows = query(
        "SELECT day, avg(traps_job_hours), avg(rearms), avg(fumbles), avg(traps_fired) "
        "FROM days GROUP BY 1 ORDER BY 1"
    )
    hours = [(float(d), float(h)) for d, h, *_ in rows]
    chart = (
        figure(
            plots.values_bars(
                hours,
                title="Traps-job minion-hours by day (mean of runs)",
                xlabel="day",
                ylabel="minion-hours",
            )
        )
        if not plots.nothing([h for _, h in hours])
        else '<p class="note">No Traps-job work was finished in these runs.</p>'
    )
    html = (
        chart
        + table(
            ("day", "Traps-job minion-hours", "rearms", "fumbles", "traps fired"),
            [(d, f"{h:.2f}", f"{r:.2f}", f"{f:.2f}", f"{t:.2f}") for d, h, r, f, t in rows],
            {0, 1, 2, 3, 4},
        )
        + '<p class="note">Means over the runs; minion-hours count finished work.</p>'
    )
    return Section("The Traps job's workload by day", html)


def traps(query: Query, runs: int) -> Section:
    rows = query(
        "SELECT trap, mechanism, x, y, sum(fired), sum(wounds), sum(kills), sum(rearms), "
        "sum(fumbles) FROM traps GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC, 1"
    )
    if not rows:
        return Section("Traps", "<p>No trap fired or was rearmed in any run.</p>")
    shown = [
        (t, m or "–", f"{x},{y}" if x is not None else "–",
         *(f"{int(v) / runs:.2f}" for v in vals))
        for t, m, x, y, *vals in rows
    ]  # fmt: skip
    html = (
        table(
            ("trap", "mechanism", "tile", "fired", "wounds", "kills", "rearms", "fumbles"),
            shown,
            {3, 4, 5, 6, 7},
        )
        + '<p class="note">Per run (means). Kills: beings a trap took out dead.</p>'
    )
    return Section("Traps: fired, wounds, kills, rearms, fumbles", html)


def doors(query: Query, runs: int) -> Section:
    rows = query(
        "SELECT door, x, y, count(*), sum(CASE WHEN outcome = 'forced' THEN 1 ELSE 0 END), "
        "avg(minutes), sum(minutes) FROM doors GROUP BY 1, 2, 3 ORDER BY 7 DESC, 1"
    )
    if not rows:
        return Section("Locked doors", "<p>No group stopped at a locked door in any run.</p>")
    shown = [
        (d, f"{x},{y}", n, f2, f"{avg:.0f}", f"{int(total) / runs:.1f}")
        for d, x, y, n, f2, avg, total in rows
    ]
    html = table(
        ("door", "tile", "groups stopped", "forced", "minutes each", "minutes per run"),
        shown,
        {2, 3, 4, 5},
    )
    return Section("Time spent at each locked door", html)


def the_map(scenario: KeepScenario, query: Query, runs: int) -> Section:
    columns = (
        ("deaths", "Where adventurers die", "adventurer died"),
        ("slowed", "Where adventurers are slowed (minutes)", "adventurer was slowed"),
        ("wounds", "Where adventurers are wounded", "adventurer was wounded"),
    )
    world = scenario.world(0)
    marks = [(t.pos.x, t.pos.y) for t in world.of_type(Trigger)]
    note = (
        "Per 100 runs. Slowed: minutes at a locked door (picking, bashing) and held by a web. "
        "× marks a trap's trigger."
    )
    return Section("The map", heatmaps(world.grid, query, runs, columns, note, marks))


def notable(query: Query) -> list[tuple[str, int]]:
    """Runs worth replaying: the first, the first the Master fell, the most invasions."""
    return first_runs(
        query,
        [
            ("the first run", "SELECT min(run) FROM runs"),
            ("the first the Master fell", "SELECT min(run) FROM runs WHERE NOT master_survived"),
            ("the first with a goal met", "SELECT min(run) FROM runs WHERE NOT no_goal_met"),
            ("the most adventurers dead",
             "SELECT run FROM runs ORDER BY adventurers_dead DESC, run LIMIT 1"),
        ],
    )  # fmt: skip
