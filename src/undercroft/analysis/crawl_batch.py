"""crawl in a batch: what a run plays, the rows it gives, and how to replay it alone.

A run plays the adventure with :func:`undercroft.crawl.runner.play` (the seed of run
``i`` is ``derive_seed(batch_seed, i)``) and a :class:`.crawl_metrics.CrawlMetrics` sink.
Its tables:

* ``runs``: one row a run: ``run``, ``seed``, the parameters (adventure, party, policies,
  one column per ``--set`` key), the summary's outcome (``won``, ``escaped``, ...) and
  the counts of the game (fights, traps sprung, patrols, spells cast, ...);
* ``deaths``: one row per hero who died: where, on which turn, what killed it (a monster
  kind, ``trap:KIND``, ``text:AREA``, or the hero itself), the rule of that blow and the
  Death's Door rule of the roll that killed (C-DD-01 at Turn End, C-DD-03 for a blow);
* ``fights``: one row per fight (C-FIGHT-04): hero, monster kind, scores, Stamina, dice
  totals, winner (``hero``, ``monster``, ``tie``) and the hero's square;
* ``rolls``: per run, how many rolls of each kind: ``rule``, the rule whose d6 table
  decided the outcome (C-SURP-04 for a roll against an Ambusher, though the roll cites
  C-SURP-01 first), ``rules``, every rule the roll cites (a list), ``actor``, the
  ``modifier`` total and the named ``modifiers`` (``Perceptive +1, light -1``), ``outcome``;
* ``squares``: per run and square of the board, the deaths, fights and traps sprung there;
* ``rules``: per run and rule ID, the events whose ``rules`` name it (:mod:`.exercise`):
  which rules the run played, so a win rate says what it was measured on.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from undercroft.agents.plugins import resolve_policy
from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES
from undercroft.analysis import exercise
from undercroft.analysis.crawl_metrics import CrawlMetrics
from undercroft.analysis.crawl_scenario import CrawlScenario
from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.plugin import Query, Rows, Section
from undercroft.crawl.runner import play
from undercroft.crawl.settings import Setting, describe, parse

RATES = (
    ("won", "won: the adventure complete (C-END-01) and every goal met"),
    ("escaped", "escaped: every surviving hero left the dungeon, goals met or not"),
    ("perished", "perished: no hero left alive in the dungeon"),
    ("turn_cap", "stopped by the turn cap (Options.max_turns)"),
)
MEANS = (
    ("turns", "turns played"),
    ("light", "Light left at the end"),
    ("heroes_dead", "heroes dead"),
    ("heroes_escaped", "heroes out alive"),
    ("goals_met", "goals met"),
    ("treasure", "treasure carried out (value)"),
    ("fights", "fights (C-FIGHT-04)"),
    ("fights_won", "fights won by the hero"),
    ("monsters_slain", "monsters slain"),
    ("spells_cast", "spells cast"),
    ("traps_sprung", "traps sprung"),
    ("patrols", "patrols met (C-MON-03)"),
    ("doors_opened", "doors forced open"),
)
COUNTS = (
    "fights",
    "fights_won",
    "fights_lost",
    "fights_tied",
    "monsters_slain",
    "spells_cast",
    "traps_sprung",
    "patrols",
    "doors_opened",
    "items_found",
)


def arrow_type(value: Any) -> pa.DataType:
    """The column type of a ``--set`` value: its own scalar type, else JSON text."""
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    return pa.string()


def column_value(value: Any) -> Any:
    if isinstance(value, bool | int | float | str):
        return value
    return json.dumps(value, sort_keys=True)


def goal_column(goal: str) -> str:
    return f"goal:{goal}"


class CrawlBatch:
    """The crawl ruleset's batch interface (:class:`undercroft.analysis.plugin.BatchRuleset`)."""

    name = "crawl"

    def tables(self, scenario: CrawlScenario) -> Mapping[str, pa.Schema]:
        params = [pa.field(s.key, arrow_type(s.value)) for s in scenario.settings]
        runs = pa.schema(
            [
                pa.field("run", pa.int64()),
                pa.field("seed", pa.uint64()),
                pa.field("adventure", pa.string()),
                pa.field("party", pa.string()),
                pa.field("policy", pa.string()),
                pa.field("dm", pa.string()),
                *params,
                pa.field("outcome", pa.string()),
                *(pa.field(name, pa.bool_()) for name, _ in RATES),
                *(pa.field(goal_column(g), pa.bool_()) for g in scenario.goals),
                pa.field("turns", pa.int32()),
                pa.field("light", pa.int32()),
                pa.field("heroes_dead", pa.int32()),
                pa.field("heroes_escaped", pa.int32()),
                pa.field("goals_met", pa.int32()),
                pa.field("goals_failed", pa.int32()),
                pa.field("treasure", pa.int32()),
                *(pa.field(c, pa.int32()) for c in COUNTS),
                pa.field("dead", pa.string()),
            ]
        )
        return {
            "runs": runs,
            "deaths": pa.schema(
                [
                    ("run", pa.int64()),
                    ("hero", pa.string()),
                    ("turn", pa.int32()),
                    ("x", pa.int32()),
                    ("y", pa.int32()),
                    ("area", pa.string()),
                    ("killer", pa.string()),
                    ("cause_rule", pa.string()),
                    ("death_rule", pa.string()),
                ]
            ),
            "fights": pa.schema(
                [
                    ("run", pa.int64()),
                    ("turn", pa.int32()),
                    ("hero", pa.string()),
                    ("monster", pa.string()),
                    ("hero_score", pa.int32()),
                    ("monster_score", pa.int32()),
                    ("hero_stamina", pa.int32()),
                    ("monster_stamina", pa.int32()),
                    ("hero_dice", pa.int32()),
                    ("monster_dice", pa.int32()),
                    ("winner", pa.string()),
                    ("x", pa.int32()),
                    ("y", pa.int32()),
                ]
            ),
            "rolls": pa.schema(
                [
                    ("run", pa.int64()),
                    ("rule", pa.string()),
                    ("rules", pa.list_(pa.string())),
                    ("actor", pa.string()),
                    ("modifier", pa.int32()),
                    ("modifiers", pa.string()),
                    ("outcome", pa.string()),
                    ("count", pa.int32()),
                ]
            ),
            "squares": pa.schema(
                [
                    ("run", pa.int64()),
                    ("x", pa.int32()),
                    ("y", pa.int32()),
                    ("deaths", pa.int32()),
                    ("fights", pa.int32()),
                    ("traps", pa.int32()),
                ]
            ),
            "rules": pa.schema(
                [
                    ("run", pa.int64()),
                    ("rule", pa.string()),
                    ("events", pa.int32()),
                ]
            ),
        }

    def metrics(self, scenario: CrawlScenario) -> list[Metric]:
        goals = [
            Metric(goal_column(g.id), "rate", f"goal {g.id} met: {g.text}")
            for g in scenario.load().adventures[scenario.adventure].goals
        ]
        return [
            *(Metric(c, "rate", label) for c, label in RATES),
            *goals,
            *(Metric(c, "mean", label) for c, label in MEANS),
        ]

    def play(self, scenario: CrawlScenario, run: int, seed: int) -> Rows:
        pack = scenario.load()
        ruleset = pack.ruleset(scenario.adventure)
        adventure = ruleset.adventure
        sink = CrawlMetrics.for_game(adventure.board, adventure.starts, scenario.party)
        result = play(
            ruleset,
            scenario.party,
            seed=seed,
            heroes=resolve_policy(scenario.policy),
            dm=resolve_policy(scenario.dm),
            sink=sink,
        )
        summary = result.state.summary()
        return rows_of(scenario, run, seed, summary, sink)

    def replay_command(self, scenario: CrawlScenario, seed: int) -> str:
        words = [
            "undercroft run crawl",
            f"--adventure {shlex.quote(scenario.adventure)}",
            f"--party {','.join(scenario.party)}",
            f"--policy {shlex.quote(scenario.policy)}",
            f"--dm {shlex.quote(scenario.dm)}",
            f"--seed {seed}",
        ]
        if scenario.pack is not None:
            words.append(f"--pack {shlex.quote(scenario.pack)}")
        if scenario.settings:
            words.append(describe(scenario.settings))
        return " ".join(words)

    def describe(self, scenario: CrawlScenario) -> list[tuple[str, str]]:
        pack = scenario.load()
        names = ", ".join(f"{pack.heroes[h].name} ({h})" for h in scenario.party)
        lines = [
            ("adventure", f"{pack.adventures[scenario.adventure].name} ({scenario.adventure})"),
            ("party", names),
            ("hero policy", scenario.policy),
            ("DM policy", scenario.dm),
            ("pack", scenario.pack or "the shipped pack"),
        ]
        if scenario.settings:
            lines.append(("settings", ", ".join(s.text for s in scenario.settings)))
        return lines

    # The report modules (matplotlib, DuckDB) are imported only where a report is drawn:
    # the worker processes, which play the runs, never load them.

    def sections(self, scenario: CrawlScenario, query: Query) -> list[Section]:
        from undercroft.analysis import crawl_report  # workers never load matplotlib/DuckDB

        return crawl_report.sections(scenario, query)

    def notable(self, query: Query) -> list[tuple[str, int]]:
        from undercroft.analysis import crawl_report  # workers never load matplotlib/DuckDB

        return crawl_report.notable(query)

    def headline(
        self, scenario: CrawlScenario, query: Query, estimates: Sequence[tuple[Metric, Estimate]]
    ) -> str:
        from undercroft.analysis import crawl_report  # workers never load matplotlib/DuckDB

        first = dict((m.column, e) for m, e in estimates)["won"]
        return crawl_report.headline(scenario, query, first)

    def to_json(self, scenario: CrawlScenario) -> dict[str, Any]:
        return {
            "adventure": scenario.adventure,
            "party": list(scenario.party),
            "policy": scenario.policy,
            "dm": scenario.dm,
            "settings": [s.text for s in scenario.settings],
            "pack": scenario.pack,
        }

    def from_json(self, data: dict[str, Any]) -> CrawlScenario:
        return CrawlScenario(
            str(data["adventure"]),
            tuple(str(h) for h in data["party"]),
            str(data["policy"]),
            str(data["dm"]),
            tuple(parse(t) for t in data["settings"]),
            None if data.get("pack") is None else str(data["pack"]),
        )


def rows_of(
    scenario: CrawlScenario,
    run: int,
    seed: int,
    summary: Mapping[str, Any],
    sink: CrawlMetrics,
) -> Rows:
    """The rows of one finished game."""
    outcome = str(summary["outcome"])
    met = set(summary["goals_met"])
    row: dict[str, Any] = {
        "run": run,
        "seed": seed,
        "adventure": scenario.adventure,
        "party": ",".join(scenario.party),
        "policy": scenario.policy,
        "dm": scenario.dm,
        **{s.key: column_value(s.value) for s in scenario.settings},
        "outcome": outcome,
        "won": bool(summary["won"]),
        "escaped": outcome == "escaped",
        "perished": outcome == "perished",
        "turn_cap": outcome == "turn_cap",
        **{goal_column(g): g in met for g in scenario.goals},
        "turns": int(summary["turns"]),
        "light": int(summary["light"]),
        "heroes_dead": len(summary["dead"]),
        "heroes_escaped": len(summary["escaped"]),
        "goals_met": len(summary["goals_met"]),
        "goals_failed": len(summary["goals_failed"]),
        "treasure": int(summary["treasure"]),
        **{c: sink.counts.get(c, 0) for c in COUNTS},
        "dead": ",".join(str(h).removeprefix("hero:") for h in summary["dead"]),
    }
    return {
        "runs": [row],
        "deaths": [{"run": run, **d} for d in sink.deaths],
        "fights": [{"run": run, **f} for f in sink.fights],
        "rolls": [
            {"run": run, **key._asdict(), "rules": list(key.rules), "count": n}
            for key, n in sorted(sink.rolls.items())
        ],
        "squares": [
            {
                "run": run,
                "x": x,
                "y": y,
                "deaths": c.get("deaths", 0),
                "fights": c.get("fights", 0),
                "traps": c.get("traps", 0),
            }
            for (x, y), c in sorted(sink.squares.items())
        ],
        "rules": exercise.rows_of(run, sink.rules),
    }


def scenario_of(
    adventure: str,
    party: Sequence[str],
    *,
    policy: str = DEFAULT_HEROES,
    dm: str = DEFAULT_DM,
    settings: Sequence[Setting] = (),
    pack: str | None = None,
) -> CrawlScenario:
    return CrawlScenario(adventure, tuple(party), policy, dm, tuple(settings), pack)
