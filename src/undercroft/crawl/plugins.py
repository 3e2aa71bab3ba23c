"""Policies from outside undercroft: ``--policy MODULE:FACTORY`` (and ``--dm``).

A policy name with a colon names a module and a factory in it, ``(seat, rng) -> Policy``
(:data:`undercroft.crawl.ai.PolicyFactory`). :func:`resolve_policy` imports the module
(from the current folder too), checks that the factory gives an object with
``act(observation)``, and registers it under that name (:func:`register_policy`), so
the runner and campaigns use it like a built-in. Mistakes are a :class:`PolicyError`
saying what is missing.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from undercroft.core.dice import DiceSampler
from undercroft.crawl.ai import POLICIES, register_policy
from undercroft.crawl.engine import Seat


class PolicyError(ValueError):
    """A policy name that names no policy: unknown, or a module or factory not found."""


def is_plugin(name: str) -> bool:
    """``name`` is ``MODULE:FACTORY`` rather than a registered name."""
    return ":" in name


def _import(module_name: str) -> Any:
    here = os.getcwd()
    added = here not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    finally:
        if added:
            sys.path.remove(here)


def resolve_policy(name: str) -> str:
    """The registered name of the policy ``name``: a known name as it is, or
    ``MODULE:FACTORY`` imported and registered under that name."""
    if name in POLICIES:
        return name
    known = ", ".join(sorted(n for n in POLICIES if not is_plugin(n)))
    if ":" not in name:
        raise PolicyError(
            f"{name!r} is not a policy; known: {known}; or give MODULE:FACTORY for a factory "
            "(seat, rng) -> Policy of your own"
        )
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise PolicyError(
            f"{name!r}: write MODULE:FACTORY, both parts (for example mypolicies:make)"
        )
    try:
        module = _import(module_name)
    except ModuleNotFoundError as exc:
        raise PolicyError(
            f"{name!r}: no module named {exc.name or module_name!r} (looked in the current folder "
            "and on PYTHONPATH)"
        ) from None
    except Exception as exc:  # the user's module failed while importing: say how
        raise PolicyError(
            f"{name!r}: importing {module_name} failed: {type(exc).__name__}: {exc}"
        ) from None
    factory: Any = module
    for part in attribute.split("."):
        if not hasattr(factory, part):
            raise PolicyError(f"{name!r}: the module {module_name} has no attribute {attribute!r}")
        factory = getattr(factory, part)
    if not callable(factory):
        raise PolicyError(f"{name!r}: {attribute} is not callable; give a factory (seat, rng)")
    try:
        sample = factory(Seat.HEROES, DiceSampler(0))
    except Exception as exc:  # the user's factory failed: say how
        raise PolicyError(
            f"{name!r}: calling {attribute}(seat, rng) failed: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(getattr(sample, "act", None)):
        raise PolicyError(
            f"{name!r}: {attribute}(seat, rng) gave {type(sample).__name__}, which has no "
            "act(observation) method"
        )
    register_policy(name, factory)
    return name
