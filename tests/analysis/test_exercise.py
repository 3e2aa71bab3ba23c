"""Which rules a batch played: the ``rules`` table, the printed and reported rule-exercise
table, its flagged line, and ``benchmarks/rates_crawl.py``.

These tests check the counting of rule IDs, not any rule's outcome, so they carry no
``rule`` mark (``undercroft rules --coverage`` does not count them).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import ADVENTURE, RUNS, SEED, Played, invoke
from undercroft.analysis import exercise
from undercroft.analysis.crawl_metrics import CrawlMetrics
from undercroft.core.catalogue import find_root, load_rules
from undercroft.core.dice import derive_seed
from undercroft.core.events import Event, roll_event
from undercroft.crawl.app.rates import LIGHT_CHANGES, play_watched
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play

PARTY = ("brenna", "garrick", "durn", "sable")
CRAWL_IDS = [rid for rid in load_rules(find_root()) if rid.startswith("C-")]


def recount_text(lines: list[str]) -> Counter[str]:
    """Per rule ID, the events of a saved log (its JSON lines) whose ``rules`` name it."""
    counts: Counter[str] = Counter()
    for line in lines:
        entry = json.loads(line)
        if entry["type"] not in ("header", "summary"):
            counts.update(set(entry["rules"]))
    return counts


def rules_rows(folder: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(folder / "rules.parquet").to_pylist()
    return rows


def per_run(rows: list[dict[str, Any]]) -> dict[int, dict[str, int]]:
    found: dict[int, dict[str, int]] = {}
    for r in rows:
        found.setdefault(r["run"], {})[r["rule"]] = r["events"]
    return found


def test_the_catalogue_has_the_71_crawl_rules() -> None:
    assert len(CRAWL_IDS) == 71 and CRAWL_IDS[0] == "C-SETUP-01"


def test_the_rules_table_is_a_recount_of_the_full_log_of_the_same_seeds(played: Played) -> None:
    counted = per_run(rules_rows(played.two))
    ruleset = default_pack().ruleset(ADVENTURE)
    for run in range(3):
        result = play(ruleset, PARTY, seed=derive_seed(SEED, run))
        assert result.log is not None
        assert counted[run] == dict(recount_text(list(result.log.lines())))


@pytest.mark.parametrize(("adventure", "seed"), [("bone-priest", 3), ("ash-king", 1)])
def test_the_sinks_count_what_the_log_says(adventure: str, seed: int) -> None:
    ruleset = default_pack().ruleset(adventure)
    logged = play(ruleset, PARTY, seed=seed, heroes="random", dm="basic").log
    assert logged is not None
    by_hand = recount_text(list(logged.lines()))
    counter = exercise.RuleCounter()
    play(ruleset, PARTY, seed=seed, heroes="random", dm="basic", sink=counter)
    metrics = CrawlMetrics.for_game(ruleset.adventure.board, ruleset.adventure.starts, PARTY)
    play(ruleset, PARTY, seed=seed, heroes="random", dm="basic", sink=metrics)
    assert counter.counts == metrics.rules == by_hand
    assert exercise.recount(e.event for e in logged.entries) == by_hand
    # The Light-0 watch of the rates says what the log says.
    game = play_watched(default_pack(), adventure, PARTY, seed, heroes="random", dm="basic")
    reached = any(
        e.event.type in LIGHT_CHANGES and e.event.fields["light"] == 0 for e in logged.entries
    )
    assert game.light0 is reached


def test_an_event_counts_once_for_a_rule_it_names_twice() -> None:
    counts: Counter[str] = Counter()
    exercise.count_rules(counts, ("C-DOOR-01", "C-DOOR-02", "C-DOOR-01"))
    exercise.count_rules(counts, ("C-DOOR-01",))
    exercise.count_rules(counts, ())
    assert counts == {"C-DOOR-01": 2, "C-DOOR-02": 1}
    event = roll_event(["C-DD-01", "C-DD-01"], "hero:durn", [4], "survives")
    assert exercise.recount([event, Event("reason", ())]) == {"C-DD-01": 1}


def test_the_rules_table_does_not_depend_on_the_number_of_workers(played: Played) -> None:
    two = pq.read_table(played.two / "rules.parquet")
    one = pq.read_table(played.one / "rules.parquet")
    assert two.equals(one)
    assert two.schema.names == ["run", "rule", "events"]
    keys = [(r["run"], r["rule"]) for r in two.to_pylist()]
    assert keys == sorted(set(keys))  # sorted, one row a run and rule
    assert {k[0] for k in keys} == set(range(RUNS))
    assert all(r["events"] > 0 for r in two.to_pylist())


def test_the_flagged_rules_are_the_crawl_rules_no_event_named(played: Played) -> None:
    rows = rules_rows(played.two)
    seen = {r["rule"] for r in rows}
    expected = [rid for rid in CRAWL_IDS if rid not in seen]
    totals = exercise.totals_of(per_run(rows).values())
    table = exercise.tabulate(totals, RUNS, exercise.catalogue_titles())
    assert table.unexercised == expected
    assert expected, "a 16-run batch of one adventure leaves some crawl rule out"
    # Printed after the metrics, and in the report.
    found = re.search(rf"not exercised in {RUNS} runs: (.*)", played.printed)
    assert found, played.printed
    assert found.group(1).strip().split(", ") == expected
    assert played.printed.index("Results") < played.printed.index("Rules exercised")
    page = (played.two / "report.html").read_text()
    assert f"Not exercised in {RUNS} runs: {', '.join(expected)}." in page
    # Every exercised rule is a row, with its events per game and share of games.
    for row in table.rows:
        events = sum(r["events"] for r in rows if r["rule"] == row.rule)
        games = sum(1 for r in rows if r["rule"] == row.rule)
        assert (row.events, row.games) == (events, games)
        shown = f'{exercise.per_game_text(events / RUNS)}</td><td class="n">'
        assert f"<td>{row.rule}</td>" in page and shown in page
    assert {row.rule for row in table.rows} == seen


def test_the_table_orders_rules_as_the_catalogue_and_flags_by_prefix() -> None:
    titles = {"C-A-01": "First", "C-A-02": "Second", "R-C-A-01": "A ruling", "K-B-01": "Keep"}
    totals = {"X-Z-01": (4, 2), "C-A-02": (3, 3), "R-C-A-01": (1, 1)}
    table = exercise.tabulate(totals, 4, titles)
    assert [(r.rule, r.title, r.per_game, r.share) for r in table.rows] == [
        ("C-A-02", "Second", 0.75, 0.75),
        ("R-C-A-01", "A ruling", 0.25, 0.25),
        ("X-Z-01", "", 1.0, 0.5),
    ]
    assert table.unexercised == ["C-A-01"]
    assert table.flag() == "not exercised in 4 runs: C-A-01"
    assert exercise.tabulate(totals, 4, titles, "K-").unexercised == ["K-B-01"]
    blind = exercise.tabulate(totals, 4, None)
    assert blind.unexercised == [] and not blind.catalogue
    with pytest.raises(ValueError, match="at least one game"):
        exercise.tabulate(totals, 0, titles)


def test_the_catalogue_has_a_view_of_the_rules(played: Played) -> None:
    code, stdout, stderr = invoke(
        "results", "sql",
        "SELECT batch, count(*), sum(events) FROM crawl_rules GROUP BY 1 ORDER BY 1",
        "--csv", "--catalogue", str(played.catalogue),
    )  # fmt: skip
    assert code == 0, stderr
    lines = stdout.strip().splitlines()[1:]
    rows = len(rules_rows(played.two))
    assert len(lines) == 2 and all(line.split(",")[1] == str(rows) for line in lines)


# -- benchmarks/rates_crawl.py ------------------------------------------------------------


@pytest.fixture(scope="module")
def rates_crawl() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "rates_crawl.py"
    spec = importlib.util.spec_from_file_location("rates_crawl", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rates_crawl"] = module  # so that its worker processes find play_one
    spec.loader.exec_module(module)
    return module


def test_rates_crawl_plays_two_seeds_of_one_adventure(
    rates_crawl: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    # The built-in basic and random policies only: the tests do not wait on the others.
    args = ["--seeds", "2", "--adventure", ADVENTURE, "--policies", "basic,nonesuch,random",
            "--dms", "nonesuch,basic"]  # fmt: skip
    rates_crawl.main([*args, "--workers", "1"])
    printed, progress = capsys.readouterr()
    rows = [line for line in printed.splitlines() if line.startswith("| The Cellars")]
    assert len(rows) == 2 * 2 * 1  # two parties x two hero policies x one DM
    assert "nonesuch" not in printed
    assert any("| brenna,corvin,ysolde,mirela | basic | basic |" in row for row in rows)
    assert all(len(row.split("|")) == 12 for row in rows)  # ten columns
    summaries = [line for line in printed.splitlines() if line.startswith("- The Cellars")]
    assert len(summaries) == len(rows) and all("never: C-" in s for s in summaries)
    assert "games in" in progress
    # The same figures with two processes.
    rates_crawl.main([*args, "--workers", "2"])
    assert capsys.readouterr().out == printed


def test_rates_crawl_rules_mode_prints_the_whole_table(
    rates_crawl: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    rates_crawl.main(["--seeds", "2", "--adventure", "bone-priest", "--policies", "basic",
                      "--dms", "basic", "--workers", "1", "--rules"])  # fmt: skip
    printed = capsys.readouterr().out
    assert printed.count("| rule | title | events per game | share of games |") == 2
    assert re.search(r"\| C-END-01 \| Completing an adventure \| \d+\.\d\d \| 100\.0% \|", printed)
    assert "**not exercised in 2 runs: C-" in printed


def test_rates_crawl_skips_the_policies_not_registered(rates_crawl: ModuleType) -> None:
    registry = rates_crawl.POLICIES
    for default in (rates_crawl.DEFAULT_POLICIES, rates_crawl.DEFAULT_DMS):
        names = default.split(",")
        assert rates_crawl.registered(default) == [n for n in names if n in registry]
    assert rates_crawl.registered(" random, ,nonesuch,random,heuristic") == [
        "random",
        "heuristic",
    ]
    # A registered policy with knobs is a policy too; one with a knob it lacks is not.
    assert rates_crawl.registered("careful[aim=0],careful[zzz=1],basic") == [
        "careful[aim=0]",
        "basic",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seeds", "0"], "--seeds 0"),
        (["--seeds", "many"], "invalid int value"),
        (["--adventure", "nowhere"], "not a shipped adventure"),
        (["--policies", "nonesuch,careless"], "names no registered policy"),
        (["--dms", ""], "--dms"),
        (["--workers", "0"], "--workers 0"),
    ],
)
def test_rates_crawl_refuses_bad_input_with_exit_2(
    rates_crawl: ModuleType, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        rates_crawl.main(args)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
