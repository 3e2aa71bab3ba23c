"""What a batch or sweep plays, from its command-line options, each checked before any run
(exit 2 naming the option): a crawl adventure with its party and policies, or a keep
scenario with its days; the ``--set`` values of either ruleset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES
from undercroft.analysis.crawl_scenario import CrawlScenario
from undercroft.analysis.keep_scenario import KeepScenario
from undercroft.analysis.plugin import BatchRuleset
from undercroft.analysis.rulesets import RULESETS, ruleset_named
from undercroft.clikit import fail
from undercroft.crawl.app.cli import load_set, party_of, policies, with_knobs
from undercroft.crawl.content import DEFAULT_PACK
from undercroft.keep.cli import open_world
from undercroft.keep.content import settings as keep_settings
from undercroft.keep.content.calendar import MAX_DAYS


def crawl_scenario(
    target: str,
    party: str | None,
    policy: str,
    dm: str,
    sets: list[str] | None,
    pack: Path | None,
) -> CrawlScenario:
    """The crawl scenario of the options, each checked (exit 2 naming the option)."""
    chosen, adventure_id, settings = load_set(target, pack, sets)
    policy, dm = policies(*with_knobs(policy, dm, settings))
    heroes = party_of(party, chosen, adventure_id)
    folder = None if chosen.folder.resolve() == DEFAULT_PACK.resolve() else str(chosen.folder)
    return CrawlScenario(adventure_id, tuple(heroes), policy, dm, settings, folder)


def check_ruleset(ruleset: str, days: int | None) -> BatchRuleset:
    if ruleset not in RULESETS:
        fail(f"unknown ruleset {ruleset!r}; allowed: {', '.join(sorted(RULESETS))}.")
    if days is not None and ruleset != "keep":
        fail("--days applies to keep batches; a crawl adventure runs to its end.")
    return ruleset_named(ruleset)


def keep_scenario(target: str, days: int | None, sets: list[str] | None) -> KeepScenario:
    """The keep scenario of the options: the scenario and every ``--set`` checked by
    building its world once (exit 2 naming the file, line and key, or the ``--set``)."""

    world = open_world(target, 0, None, None, sets or [])
    total = days if days is not None else world.scenario_days
    if not 1 <= total <= MAX_DAYS:
        fail(f"--days {total}: a keep run is 1 to {MAX_DAYS:,} days.")
    settings = tuple(keep_settings.parse(text) for text in sets or [])
    return KeepScenario(target, total, settings)


def scenario_for(
    ruleset: str,
    target: str,
    days: int | None,
    sets: list[str] | None,
    crawl: tuple[str | None, str, str, Path | None],
) -> Any:
    """What every run of the batch plays; ``crawl`` is (party, policy, dm, pack)."""
    party, policy, dm, pack = crawl
    if not target.strip():
        what = "scenario" if ruleset == "keep" else "adventure"
        fail(f"the {what} is empty: name one (`undercroft list {what}s` shows them).")
    if ruleset == "keep":
        given = [
            name
            for name, on in (
                ("--party", party is not None),
                ("--policy", policy != DEFAULT_HEROES),
                ("--dm", dm != DEFAULT_DM),
                ("--pack", pack is not None),
            )
            if on
        ]
        if given:
            fail(f"{', '.join(given)} belong to crawl batches; a keep scenario has its own.")
        return keep_scenario(target, days, sets)
    return crawl_scenario(target, party, policy, dm, sets, pack)


def scenario_words(ruleset: str, scenario: Any, pack: Path | None) -> list[tuple[str, Any]]:
    """The options that say what was played, for the command line to type again."""
    if isinstance(scenario, KeepScenario):
        return [("--days", scenario.days)]
    return [
        ("--party", ",".join(scenario.party)),
        ("--policy", scenario.policy),
        ("--dm", scenario.dm),
        ("--pack", pack),
    ]
