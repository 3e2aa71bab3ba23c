"""The rulesets a batch can play, by name (``undercroft batch crawl|keep ...``)."""

from __future__ import annotations

from undercroft.analysis.crawl_batch import CrawlBatch
from undercroft.analysis.keep_batch import KeepBatch
from undercroft.analysis.plugin import BatchRuleset

RULESETS: dict[str, type[BatchRuleset]] = {"crawl": CrawlBatch, "keep": KeepBatch}
"""Name -> batch interface (docs/analysis.md, "Adding a ruleset")."""


def ruleset_named(name: str) -> BatchRuleset:
    """The batch interface called ``name`` (``KeyError`` if there is none)."""
    return RULESETS[name]()
