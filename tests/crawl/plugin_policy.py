"""A policy of one's own, loaded with ``--policy plugin_policy:make`` (test_run_cli.py).

It plays as the built-in ``random`` policy does (and gives its reasons) and counts its
decisions per seat, so a test can tell that the command line really used it.
"""

from __future__ import annotations

from collections import Counter

from undercroft.agents.randomly import RandomPolicy
from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Action
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation

CALLS: Counter[Seat] = Counter()


class Counting:
    def __init__(self, seat: Seat, rng: DiceSampler) -> None:
        self.seat = seat
        self.inner = RandomPolicy(rng)

    @property
    def reason(self) -> str:
        """The inner policy's reason, passed on as a plug-in may (docs/crawl.md)."""
        return self.inner.reason

    def act(self, observation: Observation) -> Action:
        CALLS[self.seat] += 1
        return self.inner.act(observation)


def make(seat: Seat, rng: DiceSampler) -> Counting:
    return Counting(seat, rng)
