"""What a crawl batch plays: the scenario every run rebuilds (below the batch and its
report, which both read it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from undercroft.agents.registry import DEFAULT_DM, DEFAULT_HEROES
from undercroft.crawl.content import Pack, pack_with
from undercroft.crawl.settings import Setting


@dataclass(frozen=True)
class CrawlScenario:
    """What every run of a crawl batch plays (picklable, so workers can rebuild it)."""

    adventure: str
    party: tuple[str, ...]
    policy: str = DEFAULT_HEROES
    dm: str = DEFAULT_DM
    settings: tuple[Setting, ...] = ()
    pack: str | None = None
    """A content pack folder; ``None`` is the shipped pack."""

    def load(self) -> Pack:
        return pack_with(None if self.pack is None else Path(self.pack), self.settings)

    @property
    def goals(self) -> list[str]:
        return [g.id for g in self.load().adventures[self.adventure].goals]
