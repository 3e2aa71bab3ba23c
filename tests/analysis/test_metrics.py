"""The metrics sink counts what the event log says happened."""

from __future__ import annotations

import pytest

from undercroft.analysis.crawl_batch import CrawlBatch, rows_of, scenario_of
from undercroft.analysis.crawl_metrics import CrawlMetrics
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play

PARTY = ("brenna", "garrick", "durn", "sable")


@pytest.mark.parametrize(("adventure", "seed"), [("greyhollow-cellars", 5), ("ash-king", 2)])
def test_the_sink_agrees_with_the_log_of_the_same_game(adventure: str, seed: int) -> None:
    scenario = scenario_of(adventure, PARTY)
    ruleset = default_pack().ruleset(adventure)
    result = play(ruleset, PARTY, seed=seed)
    log = result.log
    assert log is not None and log.summary is not None
    rows = CrawlBatch().play(scenario, 0, seed)
    # The same events fed from the saved log give the same rows: the sink reads events only.
    fed = CrawlMetrics.for_game(ruleset.adventure.board, ruleset.adventure.starts, PARTY)
    for entry in log.entries:
        fed.emit(entry.time, entry.event)
    assert rows_of(scenario, 0, seed, log.summary.results, fed) == rows
    run = rows["runs"][0]
    types = [e.event.type for e in log.entries]
    assert run["fights"] == types.count("fight") == len(rows["fights"])
    assert run["traps_sprung"] == types.count("trap.sprung")
    assert run["patrols"] == types.count("patrol.appeared")
    assert run["spells_cast"] == types.count("spell.cast")
    assert run["monsters_slain"] == types.count("monster.slain")
    assert sum(r["count"] for r in rows["rolls"]) == types.count("roll")
    # What killed each dead hero: the last blow it took before it died, read off the log.
    for death in rows["deaths"]:
        hero = f"hero:{death['hero']}"
        died = next(i for i, e in enumerate(log.entries)
                    if e.event.type == "hero.died" and e.event.fields["hero"] == hero)  # fmt: skip
        blow = [e.event for e in log.entries[:died]
                if e.event.type == "damage" and e.event.fields["target"] == hero][-1]  # fmt: skip
        by = blow.fields["by"][-1]
        if by.startswith("monster:"):
            appeared = next(e.event for e in log.entries if e.event.type == "monster.appeared"
                            and e.event.fields["monster"] == by)  # fmt: skip
            assert death["killer"] == appeared.fields["kind"]
        if blow.rules:
            assert death["cause_rule"] == blow.rules[0]
        else:  # a trap's or a room text's damage cites no rule (see SOURCE_RULES)
            assert death["cause_rule"] in ("C-TRAP-06", "C-EXPL-01", "C-MON-01")
    assert len(rows["deaths"]) == len(log.summary.results["dead"])
