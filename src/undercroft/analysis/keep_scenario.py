"""What a keep batch plays: the scenario every run rebuilds (below the batch and its
report, which both read it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from undercroft.core.settings import Setting
from undercroft.keep.scenario import build_world
from undercroft.keep.state.world import World


@dataclass(frozen=True)
class KeepScenario:
    """What every run of a keep batch plays (picklable, so workers can rebuild it)."""

    scenario: str
    """A shipped scenario name or a TOML path."""
    days: int
    settings: tuple[Setting, ...] = ()

    def world(self, seed: int) -> World:
        return build_world(self.scenario, seed=seed, settings=self.settings)

    @property
    def adventure(self) -> str:
        """The target's name, as the catalogue and folder names call it (a file's stem)."""
        return Path(self.scenario).stem if self.scenario.endswith(".toml") else self.scenario
