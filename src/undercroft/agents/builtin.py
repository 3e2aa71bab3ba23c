"""Registers the built-in policies under their names (see the package docstring).

``careful``, ``master`` and ``search`` take knobs in their name (``careful[gather=0]``,
:mod:`undercroft.agents.knobs`): :func:`factory` makes the policy a name with knobs
stands for, and registers it under that name, so the runner, batches and campaigns use
it like any other.
"""

from __future__ import annotations

from undercroft.agents.basic_dm import DungeonMaster
from undercroft.agents.basic_party import HeroParty
from undercroft.agents.careful import CarefulParty
from undercroft.agents.knobs import (
    CarefulKnobs,
    KnobError,
    MasterKnobs,
    parse_policy,
    policy_name,
    with_knobs,
)
from undercroft.agents.master import Master
from undercroft.agents.randomly import RandomPolicy
from undercroft.agents.registry import (
    ALIASES,
    POLICIES,
    RESOLVERS,
    Policy,
    PolicyFactory,
    register_policy,
)
from undercroft.agents.search import SearchKnobs, SearchParty, search_knobs, search_name
from undercroft.core.dice import DiceSampler
from undercroft.crawl.engine import Seat


def _basic(seat: Seat, rng: DiceSampler) -> HeroParty | DungeonMaster:
    return HeroParty(rng) if seat is Seat.HEROES else DungeonMaster(rng)


def _tuned(careful: CarefulKnobs, master: MasterKnobs) -> PolicyFactory:
    def make(seat: Seat, rng: DiceSampler) -> Policy:
        if seat is Seat.HEROES:
            return CarefulParty(rng, knobs=careful)
        return Master(rng, knobs=master)

    return make


def _search(knobs: SearchKnobs) -> PolicyFactory:
    def make(seat: Seat, rng: DiceSampler) -> Policy:
        if seat is Seat.HEROES:
            return SearchParty(rng, knobs=knobs)
        return Master(rng, knobs=MasterKnobs())

    return make


def tuned(name: str) -> str:
    """The registered name of ``careful[...]``, ``master[...]`` or ``search[...]`` (knobs
    checked and sorted), registering it first; a :class:`KnobError` for a bad knob."""
    base, settings = parse_policy(name)
    base = ALIASES.get(base, base)
    if base == "search":
        registered = search_name(settings)
        if registered not in POLICIES:
            register_policy(registered, _search(search_knobs(settings)))
        return registered
    if base not in ("careful", "master"):
        if settings:
            raise KnobError(
                f"{base} has no knobs (only careful, master and search do: --set policy.KNOB=V and "
                "--set dm.KNOB=V go to them)"
            )
        return base
    # Both names stand for the pair; each seat reads the knobs of its own policy.
    careful = with_knobs(CarefulKnobs(), settings, base) if base == "careful" else CarefulKnobs()
    master = with_knobs(MasterKnobs(), settings, base) if base == "master" else MasterKnobs()
    registered = policy_name(base, settings)
    if registered not in POLICIES:
        register_policy(registered, _tuned(careful, master))
    return registered


def register_builtins() -> None:
    register_policy("random", lambda seat, rng: RandomPolicy(rng))
    register_policy("basic", _basic)
    register_policy("careful", _tuned(CarefulKnobs(), MasterKnobs()))
    register_policy("master", _tuned(CarefulKnobs(), MasterKnobs()))
    register_policy("search", _search(SearchKnobs()))
    ALIASES["heuristic"] = "basic"
    ALIASES["dm"] = "basic"
    RESOLVERS.append(tuned)
