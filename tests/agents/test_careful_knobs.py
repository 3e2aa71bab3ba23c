"""Every knob of the careful party at both ends of its range plays whole games to their end
with only legal actions: a knob's code runs in states the defaults rarely reach (the walk
up to a corpse in the way out planned through a monster was found so, with a knob since
dropped). One game a value, the adventures and parties in turn, against ``master``."""

from __future__ import annotations

from dataclasses import fields

import pytest

from undercroft.agents.knobs import CHOICES, RANGES, CarefulKnobs
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play

ADVENTURES = ("greyhollow-cellars", "bone-priest", "ash-king")
PARTIES = (("brenna", "garrick", "durn", "sable"), ("brenna", "corvin", "ysolde", "mirela"))
KNOBS = [f.name for f in fields(CarefulKnobs)]


def ends(knob: str) -> tuple[str, ...]:
    """The two ends of a knob's range (each choice, for a knob of named choices)."""
    if knob in CHOICES:
        return CHOICES[knob]
    low, high = RANGES[knob]
    return (str(low), str(high))


@pytest.mark.parametrize("knob", KNOBS)
def test_every_careful_knob_at_its_ends_plays_a_whole_game(knob: str) -> None:
    pack = default_pack()
    index = KNOBS.index(knob)
    for turn, value in enumerate(ends(knob)):
        adventure = ADVENTURES[(index + turn) % len(ADVENTURES)]
        party = PARTIES[(index // len(ADVENTURES) + turn) % len(PARTIES)]
        result = play(
            pack.ruleset(adventure), party, seed=index + turn,
            heroes=f"careful[{knob}={value}]", dm="master", log=False,
        )  # fmt: skip
        summary = result.state.summary()
        assert summary["outcome"] in {"escaped", "perished", "turn_cap"}, (knob, value)
