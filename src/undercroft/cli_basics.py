"""``undercroft rules`` and ``undercroft list``, which belong to no one ruleset.

They are loaded by :mod:`undercroft.cli` only when one of them runs (:mod:`undercroft.clilazy`);
``list`` imports the ruleset it lists when it runs: ``undercroft list adventures`` need not
load the keep, nor ``rules`` either engine. ``check`` is :mod:`undercroft.cli_check`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from undercroft.clikit import Output, fail
from undercroft.core import catalogue
from undercroft.core.content import ContentError

out = Output()


def rules(
    rule_id: Annotated[
        str | None, typer.Argument(help="Show one rule or ruling by its ID.")
    ] = None,
    show_coverage: Annotated[
        bool,
        typer.Option("--coverage", help="List each rule with the code and tests citing it."),
    ] = False,
    ruleset: Annotated[str | None, typer.Option(help="Only 'crawl', 'keep' or 'rulings'.")] = None,
    root: Annotated[
        Path | None, typer.Option(help="The undercroft source folder (default: found upward).")
    ] = None,
) -> None:
    """List the rule catalogue, show one rule, or report rule coverage."""
    if ruleset not in (None, "crawl", "keep", "rulings"):
        fail(f"--ruleset must be 'crawl', 'keep' or 'rulings', not {ruleset!r}.")
    try:
        base = catalogue.find_root(root, exact=root is not None)
        report = catalogue.coverage(base) if show_coverage else None
        all_rules = report.rules if report else catalogue.load_rules(base)
    except catalogue.CatalogueError as exc:
        fail(str(exc))
    selected = {k: r for k, r in all_rules.items() if ruleset in (None, r.ruleset)}
    if rule_id is not None:
        rule = all_rules.get(rule_id.upper())
        if rule is None:
            fail(f"no rule {rule_id!r} in the catalogue; `undercroft rules` lists them all.")
        out.print(f"[bold]{rule.id}[/bold] ({rule.file}:{rule.line})\n{rule.text}")
        return
    if report is None:
        table = Table("rule", "title")
        for rule in selected.values():
            table.add_row(rule.id, rule.title)
        out.print(table)
        return
    _print_coverage(report, selected)


def _first_few(items: list[str], n: int = 3) -> str:
    more = f" (+{len(items) - n} more)" if len(items) > n else ""
    return ", ".join(items[:n]) + more


def _print_coverage(report: catalogue.Coverage, selected: dict[str, catalogue.Rule]) -> None:
    table = Table(title="Rule coverage", show_lines=False)
    table.add_column("rule", no_wrap=True)
    table.add_column("code", overflow="fold")
    table.add_column("tests", overflow="fold")
    for rid in selected:
        code = report.code.get(rid, [])
        tests = report.tests.get(rid, [])
        code_text = _first_few([str(c) for c in code])
        test_text = _first_few([f"{c.file}::{c.name}" for c in tests])
        table.add_row(rid, code_text or "[red]-[/red]", test_text or "[red]-[/red]")
    out.print(table)
    uncited = [rid for rid in report.uncited() if rid in selected]
    unknown = report.unknown()
    if unknown:
        out.print(
            f"[yellow]Cited but not in the catalogue:[/yellow] {', '.join(unknown)}",
            soft_wrap=True,
        )
    out.print(
        f"Uncited ({len(uncited)}): {', '.join(uncited) if uncited else 'none'}", soft_wrap=True
    )
    for name in ("crawl", "keep", "rulings"):
        ids = [rid for rid, r in selected.items() if r.ruleset == name]
        if ids:
            done = sum(report.covered(rid) for rid in ids)
            out.print(f"{name}: {done}/{len(ids)} cited by code and tests")


LISTABLE = ("adventures", "heroes", "monsters", "spells", "items", "scenarios")


def list_content(
    what: Annotated[str, typer.Argument(help="One of: " + ", ".join(LISTABLE) + ".")],
    plain: Annotated[bool, typer.Option(help="One name a line, nothing else.")] = False,
    pack: Annotated[
        Path | None, typer.Option(help="A crawl content pack folder (default: the shipped one).")
    ] = None,
) -> None:
    """List what the installed content holds, so you can see what to run."""
    if what not in LISTABLE:
        fail(f"cannot list {what!r}; choose one of: {', '.join(LISTABLE)}.")
    rows = _content_rows(what, pack)
    if plain:
        for row in rows:
            out.print(row[0], markup=False, highlight=False)
        return
    headers = {
        "adventures": ("id", "name", "order"),
        "heroes": ("id", "name", "traits", "spells"),
        "monsters": ("id", "name", "encounter", "abilities"),
        "spells": ("id", "name", "level", "casting"),
        "items": ("id", "name", "deck"),
        "scenarios": ("name",),
    }[what]
    table = Table(*headers, title=what)
    for row in rows:
        table.add_row(*row)
    out.print(table)


def _content_rows(what: str, pack: Path | None) -> list[tuple[str, ...]]:
    # Each ruleset's content is loaded only when it is listed (start-up time).
    if what == "scenarios":
        from undercroft.keep import scenario as keep_scenario

        return [(name,) for name in keep_scenario.shipped()]
    from undercroft.crawl import content as crawl_content  # start-up time: only for completion

    try:
        chosen = crawl_content.load_pack(pack) if pack else crawl_content.default_pack()
    except ContentError as exc:
        fail("the pack does not load:\n" + "\n".join(str(p) for p in exc.problems))
    if what == "adventures":
        return [
            (a, chosen.adventures[a].name, str(chosen.order.get(a, 0)))
            for a in chosen.campaign_order()
        ]
    if what == "heroes":
        return [
            (h.id, h.name, ", ".join(sorted(t.value for t in h.traits)), ", ".join(h.spells))
            for h in chosen.heroes.values()
        ]
    if what == "monsters":
        return [
            (m.id, m.name, m.encounter.value, ", ".join(a.name for a in m.abilities))
            for m in chosen.monsters.values()
        ]
    if what == "spells":
        return [(s.id, s.name, str(s.level), s.casting.value) for s in chosen.spells.values()]
    return [(i.id, i.name, i.kind.value) for i in chosen.items.values()]
