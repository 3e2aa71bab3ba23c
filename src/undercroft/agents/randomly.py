"""``random``: a uniformly random legal action, for either seat (the floor every other
policy is measured against)."""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Action
from undercroft.crawl.observe import ViewLike


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class RandomPolicy:
    """A uniformly random legal action."""

    rng: DiceSampler
    reads_views = True
    """The runner may hand it a lazy :class:`~undercroft.crawl.observe.View`."""
    reason: str = "at random"
    """Why it chose (always the same: it does not weigh anything)."""

    def act(self, observation: ViewLike) -> Action:
        action: Action = self.rng.choose(list(observation.legal))
        return action
