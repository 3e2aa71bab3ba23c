"""The reports read for a designer: a finding up top, named boards, no empty plots, whole
ticks on counts, a sweep table that fits (issue 31)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

from analysis.analysis_kit import ADVENTURE, RUNS, Played, invoke
from undercroft.analysis import crawl_report, plots
from undercroft.analysis.crawl_scenario import CrawlScenario
from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.report import distributions_part

PARTY = ("brenna", "garrick", "durn", "sable")


def texts(svg: str) -> list[str]:
    """The words and numbers drawn in an SVG (matplotlib notes each as a comment)."""
    return re.findall(r"<!-- (.*?) -->", svg)


def tables(
    rows: dict[str, list[tuple[Any, ...]]], columns: dict[str, str]
) -> Callable[[str], list[tuple[Any, ...]]]:
    """A query over in-memory tables (``columns``: table -> its SQL column list)."""
    conn = duckdb.connect()
    for name, cols in columns.items():
        conn.execute(f"CREATE TABLE {name} ({cols})")
        for row in rows.get(name, []):
            conn.execute(f"INSERT INTO {name} VALUES ({', '.join('?' * len(row))})", list(row))
    return lambda sql: conn.execute(sql).fetchall()


def test_the_batch_report_opens_with_its_finding(played: Played) -> None:
    page = (played.two / "report.html").read_text()
    lead = re.search(r'<p class="lead">(.*?)</p>', page)
    assert lead is not None and page.index('class="lead"') < page.index("<h2>")
    assert re.fullmatch(
        rf"Heroes won \d+\.\d% \(\d+\.\d% – \d+\.\d%\) of {RUNS} runs of {ADVENTURE}; "
        r"(no hero died|most deaths: .+ in .+ \(\d+ of \d+ deaths\))\.",
        lead.group(1),
    ), lead.group(1)


def test_the_keep_report_opens_with_its_finding(keep_played: Played) -> None:
    page = (keep_played.two / "report.html").read_text()
    assert re.search(r'<p class="lead">The Master survived \d+\.\d% .* of 6 runs of mid', page)


def test_the_board_names_its_rooms_marks_its_traps_and_numbers_its_squares() -> None:
    scenario = CrawlScenario(ADVENTURE, PARTY)
    query = tables(
        {"squares": [(0, 5, 18, 2, 3, 1), (1, 12, 19, 0, 1, 0)]},
        {"squares": "run INT, x INT, y INT, deaths INT, fights INT, traps INT"},
    )
    html = crawl_report.board(scenario, query, 2).html
    drawn = texts(html)
    assert {"Ossuary", "Treasury", "Throne Room"} <= set(drawn)
    assert "trap" in drawn  # the legend of the trap crosses
    assert {"0", "5", "10", "15", "20", "25"} <= set(drawn)  # rows and columns numbered


def test_a_board_of_nothing_is_said_not_drawn() -> None:
    scenario = CrawlScenario(ADVENTURE, PARTY)
    query = tables(
        {"squares": [(0, 5, 18, 0, 3, 0)]},
        {"squares": "run INT, x INT, y INT, deaths INT, fights INT, traps INT"},
    )
    html = crawl_report.board(scenario, query, 1).html
    assert html.count("<svg") == 1  # the fights only
    assert "No hero died in these runs." in html and "No trap was sprung in these runs." in html


def test_no_histogram_of_nothing() -> None:
    query = tables(
        {"runs": [(0, 0, 3), (1, 0, 5)]}, {"runs": "run INT, spells_cast INT, turns INT"}
    )
    metrics = [
        (Metric("spells_cast", "mean", "spells cast"), Estimate(0, 0, 0, 2)),
        (Metric("turns", "mean", "turns played"), Estimate(4, 0, 9, 2)),
    ]
    html = "".join(distributions_part(metrics, query, ["spells_cast", "turns"]))
    assert html.count("<svg") == 1 and "None in any run, so not drawn: spells cast." in html


def test_a_death_on_an_unnamed_square_says_so_and_leads_the_finding() -> None:
    scenario = CrawlScenario(ADVENTURE, PARTY)
    query = tables(
        {
            "runs": [(0,), (1,)],
            "deaths": [
                ("brenna", "skeleton", "C-FIGHT-05", "Ossuary"),
                ("garrick", "skeleton", "C-FIGHT-05", "Ossuary"),
                ("durn", "goblin", "C-FIGHT-05", ""),
            ],
        },
        {"runs": "run INT", "deaths": "hero TEXT, killer TEXT, cause_rule TEXT, area TEXT"},
    )
    html = crawl_report.deaths(scenario, query, 2).html
    assert "<tr><td></td>" not in html
    assert f"<tr><td>{crawl_report.NO_AREA}</td>" in html
    won = Estimate(0.5, 0.1, 0.9, 2)
    assert crawl_report.headline(scenario, query, won) == (
        f"Heroes won 50.0% (10.0% – 90.0%) of 2 runs of {ADVENTURE}; most deaths: Skeleton "
        "in the Ossuary (2 of 3 deaths)."
    )


def test_counts_get_whole_ticks() -> None:
    drawn = texts(plots.counts_bars([(0, 3), (1, 5), (2, 1)], title="Goals", xlabel="goals"))
    ticks = [t for t in drawn if re.fullmatch(r"[−-]?\d+(\.\d+)?", t)]
    assert ticks and all("." not in t for t in ticks), ticks
    stacked = plots.stacked_bars(["a", "b"], {"x": [1, 2]}, title="Deaths", ylabel="deaths")
    ticks = [t for t in texts(stacked) if re.fullmatch(r"[−-]?\d+(\.\d+)?", t)]
    assert ticks and all("." not in t for t in ticks), ticks


def test_the_sweep_report_leads_with_its_finding_and_scrolls_its_table(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, stdout, stderr = invoke(
        "sweep", "crawl", ADVENTURE, "--runs", "2", "--workers", "1",
        "--set", "monsters.goblin.fighting=1,5", "--out", str(out),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    page = (out / "report.html").read_text()
    assert re.search(r'<p class="lead">Over 2 points of 2 runs each, won ', page)
    assert '<div class="scroll"><table>' in page
    assert "Each point has only 2 runs" in page
    code, stdout, stderr = invoke(
        "compare", str(out / "point-01"), str(out / "point-02"), "--out", str(tmp_path / "cmp"),
        "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    compared = (tmp_path / "cmp" / "report.html").read_text()
    assert re.search(r'<p class="lead">(No metric differs|B differs from A on)', compared)
    assert "paired tests" in compared and "Wilcoxon signed-rank (paired)" in compared
