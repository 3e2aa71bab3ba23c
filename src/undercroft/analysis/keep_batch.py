"""keep in a batch: what a run plays, the rows it gives, and how to replay it alone.

A run builds the scenario's world from the run's seed (``derive_seed(batch_seed, i)``,
the same scheme as crawl), attaches a :class:`.keep_metrics.KeepMetrics` sink as its log
and runs it day by day for the batch's days, as ``undercroft run keep`` does. Its tables:

* ``runs``: one row a run: ``run``, ``seed``, ``scenario``, ``days``, one column per
  ``--set`` key, then the outcome: the Master alive at the end, invasions by outcome,
  adventurers who came (the world's own summary) and what became of them at the end:
  dead / captured / escaped / inside (:mod:`undercroft.keep.fates`), traps fired, wounds,
  rearms, fumbles, Traps-job minion-hours per day, minutes at locked doors;
* ``invasions``: one row per invasion: day, kind, size, levels, goal, outcome
  (``repelled``, ``goal met``, ``escaped``, ``under way``), its members dead, captured,
  escaped and inside at the end of the run (they add up to its size), treasure, minutes
  inside;
* ``traps``: per run and trap (``trap:N``): mechanism kind, tile, times fired, wounds,
  kills, rearms, fumbles;
* ``doors``: one row per locked door a group forced or gave up: the group, door, tile,
  method, attempts and the minutes it spent there;
* ``days``: per run and day: the world's own day counts (rearms, fumbles, traps fired,
  wounds, deaths, doors forced), the Traps-job minion-hours worked that day and the
  invasions that arrived;
* ``squares``: per run and tile: adventurers' deaths and wounds there, and the minutes
  they were slowed there (at a locked door, held by a web).
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from undercroft.analysis.crawl_batch import arrow_type, column_value
from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.keep_metrics import KeepMetrics
from undercroft.analysis.keep_scenario import KeepScenario
from undercroft.analysis.plugin import Query, Rows, Section
from undercroft.core.settings import Setting, describe
from undercroft.keep.content import settings as keep_settings
from undercroft.keep.content.calendar import day_of
from undercroft.keep.fates import FATES
from undercroft.keep.state.structures import Mechanism

RATES = (
    ("master_survived", "the Master alive at the end"),
    ("no_goal_met", "no invasion met its goal"),
)
MEANS = (
    ("invasions", "invasions"),
    ("repelled", "invasions repelled (every member dead or captured, goal not met)"),
    ("goal_met", "invasions that met their goal"),
    ("escaped", "invasions escaped (someone walked out alive, goal not met)"),
    ("adventurers", "adventurers who came"),
    ("adventurers_dead", "adventurers dead"),
    ("adventurers_captured", "adventurers captured"),
    ("adventurers_escaped", "adventurers who walked out alive"),
    ("adventurers_inside", "adventurers still inside, free, at the end"),
    ("master_died_day", "day the Master fell (runs where he did)"),
    ("traps_fired", "traps fired"),
    ("wounds", "wounds (both sides, traps included)"),
    ("trap_kills", "adventurers killed by traps"),
    ("rearms", "rearms"),
    ("fumbles", "fumbled rearms"),
    ("traps_job_hours_per_day", "Traps-job minion-hours per day"),
    ("door_minutes", "minutes groups spent at locked doors"),
    ("minions_dead", "your minions who died"),
    ("treasure_taken", "treasure carried off"),
)
DAY_COUNTS = ("rearms", "fumbles", "traps_fired", "wounds", "deaths", "doors_forced")
"""The keep's own per-day counts (``keep.stats.DayStats``) a ``days`` row holds."""
INTS = (
    "invasions",
    "repelled",
    "goal_met",
    "escaped",
    "under_way",
    "adventurers",
    "adventurers_dead",
    "adventurers_captured",
    "adventurers_escaped",
    "adventurers_inside",
    "master_died_day",
    "traps_fired",
    "wounds",
    "trap_kills",
    "rearms",
    "fumbles",
    "door_minutes",
    "minions_dead",
    "creatures_dead",
    "treasure_taken",
)


class KeepBatch:
    """The keep ruleset's batch interface (:class:`undercroft.analysis.plugin.BatchRuleset`)."""

    name = "keep"

    def tables(self, scenario: KeepScenario) -> Mapping[str, pa.Schema]:
        params = [pa.field(s.key, arrow_type(s.value)) for s in scenario.settings]
        runs = pa.schema(
            [
                pa.field("run", pa.int64()),
                pa.field("seed", pa.uint64()),
                pa.field("scenario", pa.string()),
                pa.field("days", pa.int32()),
                *params,
                *(pa.field(name, pa.bool_()) for name, _ in RATES),
                *(pa.field(name, pa.int32()) for name in INTS),
                pa.field("traps_job_hours_per_day", pa.float64()),
            ]
        )
        return {
            "runs": runs,
            "invasions": pa.schema(
                [
                    ("run", pa.int64()),
                    ("number", pa.int32()),
                    ("day", pa.int32()),
                    ("kind", pa.string()),
                    ("size", pa.int32()),
                    ("levels", pa.int32()),
                    ("goal", pa.string()),
                    ("outcome", pa.string()),
                    ("dead", pa.int32()),
                    ("captured", pa.int32()),
                    ("escaped", pa.int32()),
                    ("inside", pa.int32()),
                    ("treasure", pa.int32()),
                    ("minutes", pa.int32()),
                ]
            ),
            "traps": pa.schema(
                [
                    ("run", pa.int64()),
                    ("trap", pa.string()),
                    ("mechanism", pa.string()),
                    ("x", pa.int32()),
                    ("y", pa.int32()),
                    ("fired", pa.int32()),
                    ("wounds", pa.int32()),
                    ("kills", pa.int32()),
                    ("rearms", pa.int32()),
                    ("fumbles", pa.int32()),
                ]
            ),
            "doors": pa.schema(
                [
                    ("run", pa.int64()),
                    ("day", pa.int32()),
                    ("group", pa.int32()),
                    ("door", pa.string()),
                    ("x", pa.int32()),
                    ("y", pa.int32()),
                    ("outcome", pa.string()),
                    ("method", pa.string()),
                    ("attempts", pa.int32()),
                    ("minutes", pa.int32()),
                ]
            ),
            "days": pa.schema(
                [
                    ("run", pa.int64()),
                    ("day", pa.int32()),
                    *((name, pa.int32()) for name in DAY_COUNTS),
                    ("traps_job_hours", pa.float64()),
                    ("invasions", pa.int32()),
                ]
            ),
            "squares": pa.schema(
                [
                    ("run", pa.int64()),
                    ("x", pa.int32()),
                    ("y", pa.int32()),
                    ("deaths", pa.int32()),
                    ("wounds", pa.int32()),
                    ("slowed", pa.int32()),
                ]
            ),
        }

    def metrics(self, scenario: KeepScenario) -> list[Metric]:
        return [
            *(Metric(c, "rate", label) for c, label in RATES),
            *(Metric(c, "mean", label) for c, label in MEANS),
        ]

    def play(self, scenario: KeepScenario, run: int, seed: int) -> Rows:
        world = scenario.world(seed)
        sink = KeepMetrics()
        world.attach_log(sink)
        first = day_of(world.now)
        for _ in range(scenario.days):  # day by day, as `undercroft run keep` runs
            world.run_days(1)
        for mech in world.of_type(Mechanism):  # every trap standing at the end, fired or not
            record = sink.trap(mech.id)
            record.mechanism, record.x, record.y = mech.kind, mech.pos.x, mech.pos.y
        rows = rows_of(scenario, run, seed, world.summary(), sink)
        arrived = Counter(i.day for i in sink.invasions.values())
        rows["days"] = [
            {
                "run": run,
                "day": day,
                **{name: getattr(stats, name) for name in DAY_COUNTS},
                "traps_job_hours": round(stats.traps_job_minutes / 60, 2),
                "invasions": arrived[day],
            }
            for day in range(first, first + scenario.days)
            for stats in (world.workload.day(day),)
        ]
        return rows

    def replay_command(self, scenario: KeepScenario, seed: int) -> str:
        words = [
            "undercroft run keep",
            f"--scenario {shlex.quote(scenario.scenario)}",
            f"--days {scenario.days}",
            f"--seed {seed}",
        ]
        if scenario.settings:
            words.append(describe(scenario.settings))
        return " ".join(words)

    def describe(self, scenario: KeepScenario) -> list[tuple[str, str]]:
        lines = [("scenario", scenario.scenario), ("days", str(scenario.days))]
        if scenario.settings:
            lines.append(("settings", ", ".join(s.text for s in scenario.settings)))
        return lines

    # The report modules (matplotlib, DuckDB) are imported only where a report is drawn.

    def sections(self, scenario: KeepScenario, query: Query) -> list[Section]:
        from undercroft.analysis import keep_report  # workers never load matplotlib/DuckDB

        return keep_report.sections(scenario, query)

    def notable(self, query: Query) -> list[tuple[str, int]]:
        from undercroft.analysis import keep_report  # workers never load matplotlib/DuckDB

        return keep_report.notable(query)

    def headline(
        self, scenario: KeepScenario, query: Query, estimates: Sequence[tuple[Metric, Estimate]]
    ) -> str:
        from undercroft.analysis import keep_report  # workers never load matplotlib/DuckDB

        first = dict((m.column, e) for m, e in estimates)["master_survived"]
        return keep_report.headline(scenario, query, first)

    def to_json(self, scenario: KeepScenario) -> dict[str, Any]:
        return {
            "scenario": scenario.scenario,
            "days": scenario.days,
            "settings": [s.text for s in scenario.settings],
        }

    def from_json(self, data: dict[str, Any]) -> KeepScenario:
        return KeepScenario(
            str(data["scenario"]),
            int(data["days"]),
            tuple(keep_settings.parse(t) for t in data["settings"]),
        )


def rows_of(
    scenario: KeepScenario, run: int, seed: int, summary: Mapping[str, Any], sink: KeepMetrics
) -> Rows:
    """The rows of one finished run: the world's summary and the sink's records."""
    outcomes = sink.outcomes()
    # Every adventurer who came under one fate at the end of the run (keep.fates), so
    # the invasions' rows add up to the run's: a death in an invasion still under way
    # counts, a captive who later bled to death counts once, as dead.
    fates = sink.fates.by_invasion()
    totals = sink.fates.totals()
    died_day = summary.get("master_died_day")
    row: dict[str, Any] = {
        "run": run,
        "seed": seed,
        "scenario": scenario.scenario,
        "days": scenario.days,
        **{s.key: column_value(s.value) for s in scenario.settings},
        "master_survived": summary.get("master", "alive") == "alive",
        "no_goal_met": outcomes["goal met"] == 0,
        "invasions": int(summary.get("invasions", 0)),
        "repelled": outcomes["repelled"],
        "goal_met": outcomes["goal met"],
        "escaped": outcomes["escaped"],
        "under_way": outcomes["under way"],
        "adventurers": int(summary.get("adventurers", 0)),
        "adventurers_dead": totals["dead"],
        "adventurers_captured": totals["captured"],
        "adventurers_escaped": totals["escaped"],
        "adventurers_inside": totals["inside"],
        "master_died_day": None if died_day is None else int(died_day),
        "traps_fired": int(summary["traps_fired"]),
        "wounds": int(summary.get("wounds", 0)),
        "trap_kills": sink.counts["trap_kills"],
        "rearms": int(summary["rearms"]),
        "fumbles": int(summary["fumbles"]),
        "door_minutes": sum(int(d["minutes"]) for d in sink.doors),
        "minions_dead": int(summary.get("minions_dead", 0)),
        "creatures_dead": int(summary.get("creatures_dead", 0)),
        "treasure_taken": int(summary.get("treasure_taken", 0)),
        "traps_job_hours_per_day": float(summary["traps_job_minion_hours_per_day"]),
    }
    return {
        "runs": [row],
        "invasions": [
            {
                "run": run,
                "number": i.number,
                "day": i.day,
                "kind": i.kind,
                "size": i.size,
                "levels": i.levels,
                "goal": i.goal,
                "outcome": i.outcome,
                **{fate: fates.get(i.number, Counter())[fate] for fate in FATES},
                "treasure": i.treasure,
                "minutes": i.minutes,
            }
            for _, i in sorted(sink.invasions.items())
        ],
        "traps": [
            {"run": run, "trap": t, **vars(r)}
            for t, r in sorted(sink.traps.items(), key=lambda kv: _number(kv[0]))
        ],
        "doors": [{"run": run, **d} for d in sink.doors],
        "squares": [
            {
                "run": run,
                "x": x,
                "y": y,
                "deaths": c.get("deaths", 0),
                "wounds": c.get("wounds", 0),
                "slowed": c.get("slowed", 0),
            }
            for (x, y), c in sorted(sink.squares.items())
        ],
    }


def _number(ident: str) -> tuple[int, str]:
    """``trap:12`` sorts after ``trap:9``."""
    tail = ident.rpartition(":")[2]
    return (int(tail), ident) if tail.isdigit() else (-1, ident)


def scenario_of(scenario: str, days: int, settings: Sequence[Setting] = ()) -> KeepScenario:
    return KeepScenario(scenario, days, tuple(settings))
