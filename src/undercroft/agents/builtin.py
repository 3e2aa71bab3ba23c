"""Registers the built-in policies under their names (see the package docstring)."""

from __future__ import annotations

from undercroft.agents.basic_dm import DungeonMaster
from undercroft.agents.basic_party import HeroParty
from undercroft.agents.randomly import RandomPolicy
from undercroft.agents.registry import ALIASES, register_policy
from undercroft.core.dice import DiceSampler
from undercroft.crawl.engine import Seat


def _basic(seat: Seat, rng: DiceSampler) -> HeroParty | DungeonMaster:
    return HeroParty(rng) if seat is Seat.HEROES else DungeonMaster(rng)


def register_builtins() -> None:
    register_policy("random", lambda seat, rng: RandomPolicy(rng))
    register_policy("basic", _basic)
    ALIASES["heuristic"] = "basic"
    ALIASES["dm"] = "basic"
