"""The crawl sections of a batch report: endings, the rules played, deaths, fights, the
board, the dice.

Each section is built from SQL aggregates over the batch's tables (``runs``, ``deaths``,
``fights``, ``rolls``, ``squares``, ``rules``; :mod:`.crawl_batch` describes their columns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from undercroft.analysis import exercise, plots
from undercroft.analysis.estimates import Estimate
from undercroft.analysis.formats import pct
from undercroft.analysis.plugin import Section
from undercroft.analysis.report import esc, figure, first_runs, heatmaps, table

if TYPE_CHECKING:
    from undercroft.analysis.crawl_scenario import CrawlScenario

Query = Callable[[str], list[tuple[Any, ...]]]
TOP_KILLERS = 6
NO_AREA = "a doorway or unnamed square"
"""Where a hero died on a square of no named area (the board names rooms and passages)."""


def sections(scenario: CrawlScenario, query: Query) -> list[Section]:
    (runs,) = query("SELECT count(*) FROM runs")[0]
    return [
        endings(query, runs),
        rules(query, runs),
        deaths(scenario, query, runs),
        fights(query),
        board(scenario, query, runs),
        dice(query),
    ]


def headline(scenario: CrawlScenario, query: Query, won: Estimate) -> str:
    """The batch in a sentence: how often the heroes won, and what killed most of them
    where (the first line of the report)."""
    (runs,) = query("SELECT count(*) FROM runs")[0]
    first = (
        f"Heroes won {pct(won.value)} ({pct(won.low)} – {pct(won.high)}) of {runs:,} runs "
        f"of {scenario.adventure}"
    )
    top = query(
        "SELECT killer, area, count(*) FROM deaths GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1"
    )
    if not top:
        return f"{first}; no hero died."
    (deaths,) = query("SELECT count(*) FROM deaths")[0]
    killer, area, n = top[0]
    monsters = scenario.load().monsters
    name = monsters[killer].name if killer in monsters else killer
    place = f"in the {area}" if area else f"in {NO_AREA}"
    return f"{first}; most deaths: {name} {place} ({n:,} of {deaths:,} deaths)."


def endings(query: Query, runs: int) -> Section:
    rows = query(
        "SELECT outcome, won, count(*) FROM runs GROUP BY outcome, won ORDER BY count(*) DESC"
    )
    words = {
        ("escaped", True): "won: out with every goal met",
        ("escaped", False): "escaped without every goal",
        ("perished", False): "perished: every hero died",
        ("perished", True): "perished, won (won_if_perished)",
        ("turn_cap", False): "stopped by the turn cap",
    }
    shown = [(words.get((o, w), f"{o}, won={w}"), n, pct(n / runs)) for o, w, n in rows]
    goals = query("SELECT goals_met, count(*) FROM runs GROUP BY 1 ORDER BY 1")
    html = table(("how the game ended", "runs", "share"), shown, {1, 2}) + figure(
        plots.counts_bars(goals, title="Goals met per run", xlabel="goals met")
    )
    return Section("How the games ended", html)


def rules(query: Query, runs: int) -> Section:
    """The rule-exercise table (:mod:`.exercise`): which rules the win rate was measured on."""
    title = "Rules exercised"
    if not query("SELECT 1 FROM information_schema.tables WHERE table_name = 'rules'"):
        return Section(title, "<p>This batch has no <code>rules</code> table.</p>")
    shown = exercise.tabulate(exercise.totals_from(query), runs, exercise.catalogue_titles())
    rows = [
        (r.rule, r.title, exercise.per_game_text(r.per_game), exercise.share_text(r.share))
        for r in shown.rows
    ]
    flag = shown.flag()
    if not shown.catalogue:
        flagged = f'<p class="note">{esc(exercise.NO_CATALOGUE)}.</p>'
    elif flag is None:
        flagged = '<p class="note">Every crawl rule of the catalogue was exercised.</p>'
    else:
        flagged = f'<p class="flag">{esc(flag[0].upper() + flag[1:])}.</p>'
    html = (
        flagged
        + table(("rule", "title", "events per game", "share of games"), rows, {2, 3})
        + '<p class="note">Per rule ID, the events whose <code>rules</code> name it '
        "(<code>docs/events.md</code>): their mean count per game (a game without one counts "
        "0) and the share of games with at least one. No event named a rule flagged above, "
        "so these results say nothing about it.</p>"
    )
    return Section(title, html)


def deaths(scenario: CrawlScenario, query: Query, runs: int) -> Section:
    pack = scenario.load()
    by_hero = query("SELECT hero, count(*) FROM deaths GROUP BY hero ORDER BY count(*) DESC, hero")
    if not by_hero:
        return Section("Deaths", "<p>No hero died in any run.</p>")
    killers = query(
        "SELECT killer, cause_rule, count(*) FROM deaths GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2"
    )
    total = sum(n for *_, n in killers)
    top = [
        k
        for k, *_ in query(
            f"SELECT killer FROM deaths GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT {TOP_KILLERS}"
        )
    ]
    heroes = list(scenario.party)
    split = query("SELECT hero, killer, count(*) FROM deaths GROUP BY 1, 2")
    counts: dict[str, list[int]] = {k: [0] * len(heroes) for k in [*top, "other"]}
    for hero, killer, n in split:
        if hero in heroes:
            counts[killer if killer in top else "other"][heroes.index(hero)] += n
    if not any(counts["other"]):
        del counts["other"]
    where = [
        (area or NO_AREA, n)
        for area, n in query(
            "SELECT area, count(*) FROM deaths GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10"
        )
    ]
    hero_rows = [
        (pack.heroes[h].name if h in pack.heroes else h, n, pct(n / runs)) for h, n in by_hero
    ]
    html = (
        figure(
            plots.stacked_bars(
                [pack.heroes[h].name for h in heroes],
                counts,
                title="Deaths of each hero, by what killed them",
                ylabel="deaths",
            )
        )
        + '<div class="grid">'
        + table(("hero", "deaths", "died in % of runs"), hero_rows, {1, 2})
        + table(
            ("killed by", "rule of the blow", "deaths", "share"),
            [(k, r or "–", n, pct(n / total)) for k, r, n in killers[:15]],
            {2, 3},
        )
        + table(("where (area)", "deaths"), where, {1})
        + '</div><p class="note">A killer is a monster kind, <code>trap:KIND</code>, '
        "<code>text:AREA</code> (a room text) or <code>hero:ID</code> (its own overcast); "
        "the rule is that of the last blow the hero took before its Death's Door roll "
        "came up <code>dies</code>.</p>"
    )
    return Section("Deaths: who, where, and what killed them", html)


def fights(query: Query) -> Section:
    rows = query(
        "SELECT hero, monster, count(*), sum(CASE WHEN winner = 'hero' THEN 1 ELSE 0 END), "
        "sum(CASE WHEN winner = 'monster' THEN 1 ELSE 0 END) FROM fights GROUP BY 1, 2"
    )
    if not rows:
        return Section("Fights", "<p>No fight in any run.</p>")
    heroes = sorted({r[0] for r in rows})
    monsters = sorted({r[1] for r in rows})
    cell = {(h, m): (n, w, lost) for h, m, n, w, lost in rows}
    values = [
        [cell[(h, m)][1] / cell[(h, m)][0] if (h, m) in cell else float("nan") for m in monsters]
        for h in heroes
    ]
    notes = [
        [
            f"{100 * cell[(h, m)][1] / cell[(h, m)][0]:.0f}" if (h, m) in cell else ""
            for m in monsters
        ]
        for h in heroes
    ]
    per_monster = query(
        "SELECT monster, count(*), avg(CASE WHEN winner = 'hero' THEN 1.0 ELSE 0 END), "
        "avg(CASE WHEN winner = 'monster' THEN 1.0 ELSE 0 END), "
        "avg(CASE WHEN winner = 'tie' THEN 1.0 ELSE 0 END) FROM fights GROUP BY 1 ORDER BY 2 DESC"
    )
    html = figure(
        plots.matrix(
            heroes, monsters, values, notes, title="Who beats whom: hero wins, % of fights"
        )
    ) + table(
        ("monster", "fights", "hero wins", "monster wins", "ties"),
        [(m, n, pct(h), pct(w), pct(t)) for m, n, h, w, t in per_monster],
        {1, 2, 3, 4},
    )
    return Section("Fights (C-FIGHT-04): who beats whom", html)


def board(scenario: CrawlScenario, query: Query, runs: int) -> Section:
    grid = scenario.load().adventures[scenario.adventure].board
    columns = (
        ("deaths", "Where heroes die", "hero died"),
        ("fights", "Where heroes fight", "fight"),
        ("traps", "Where traps are sprung", "trap was sprung"),
    )
    marks = [(p.x, p.y) for p in scenario.load().adventures[scenario.adventure].traps]
    note = "Counts per 100 runs; a fight is placed on the hero's square; × marks a trap."
    return Section("The board", heatmaps(grid, query, runs, columns, note, marks))


def dice(query: Query) -> Section:
    """Every roll by the rule whose table decided it and by its modifiers: each row's share
    is what ``undercroft odds rule RULE`` gives for a hero with those modifiers."""
    rows = query(
        "SELECT rule, modifiers, outcome, sum(count) FROM rolls GROUP BY ALL "
        "ORDER BY rule, modifiers, sum(count) DESC, outcome"
    )
    totals: dict[tuple[str, str], int] = {}
    for rule, modifiers, _, n in rows:
        totals[(rule, modifiers)] = totals.get((rule, modifiers), 0) + int(n)
    shown = [
        (rule, modifiers or "none", outcome, n, pct(n / totals[(rule, modifiers)]))
        for rule, modifiers, outcome, n in rows
    ]
    html = table(
        ("rule", "modifiers", "outcome", "rolls", "share of those rolls"), shown, {3, 4}
    ) + (
        '<p class="note">Every die roll of every run, by the rule whose table decided it '
        "(a roll against an Ambusher is C-SURP-04, though it cites C-SURP-01 too) and by its "
        "modifiers (Perceptive, Light 0, ...). <code>undercroft odds rule ID --hero H</code> "
        "(with <code>--light0</code> for a <code>light</code> modifier) gives the exact odds "
        "of one such roll.</p>"
    )
    return Section("The dice as rolled", html)


def notable(query: Query) -> list[tuple[str, int]]:
    """Runs worth replaying: the first, the first won and lost, the longest, the deadliest."""
    return first_runs(
        query,
        [
            ("the first run", "SELECT min(run) FROM runs"),
            ("the first won", "SELECT min(run) FROM runs WHERE won"),
            ("the first not won", "SELECT min(run) FROM runs WHERE NOT won"),
            ("the longest", "SELECT run FROM runs ORDER BY turns DESC, run LIMIT 1"),
            ("the most heroes dead",
             "SELECT run FROM runs ORDER BY heroes_dead DESC, run LIMIT 1"),
        ],
    )  # fmt: skip


__all__ = ["esc", "headline", "notable", "sections"]
