"""Policies from outside undercroft: ``--policy MODULE:FACTORY`` (and ``--dm``).

A policy name with a colon names a module and a factory in it, ``(seat, rng) -> Policy``
(:data:`undercroft.agents.registry.PolicyFactory`). :func:`resolve_policy` imports the module
(from the current folder too), checks that the factory gives an object with
``act(observation)``, and registers it under that name (:func:`register_policy`), so
the runner and campaigns use it like a built-in. Mistakes are a :class:`PolicyError`
saying what is missing; so is a plug-in that fails or plays an action that is not legal
during the game (:class:`Checked` holds it to the observation's legal actions).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from undercroft.agents.registry import ALIASES, POLICIES, Policy, register_policy, resolve
from undercroft.core.dice import DiceSampler
from undercroft.crawl.actions import Action
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation


class PolicyError(ValueError):
    """A policy name that names no policy (unknown, a module or factory not found), or a
    plug-in policy that broke during the game; ``policy`` is the name."""

    def __init__(self, policy: str, message: str) -> None:
        self.policy = policy
        super().__init__(message)

    def __reduce__(self) -> tuple[type[PolicyError], tuple[str, str]]:
        # Raised in a batch worker process and sent back to the batch: it must unpickle
        # (the default would call PolicyError(message) and break the process pool).
        return (PolicyError, (self.policy, str(self)))


class Checked:
    """A plug-in policy held to the rules: what it does wrong is a :class:`PolicyError`
    naming it, never a traceback from deep in the engine."""

    def __init__(self, name: str, inner: Any) -> None:
        self.name = name
        self.inner = inner

    @property
    def reason(self) -> str | None:
        """The plug-in's reason for its last decision, if it gives one (a ``reason``
        string attribute, as the built-in policies do)."""
        why = getattr(self.inner, "reason", None)
        return why if isinstance(why, str) else None

    def act(self, observation: Observation) -> Action:
        where = f"at the {observation.decision} decision of turn {observation.turn}"
        try:
            action: Action = self.inner.act(observation)
        except Exception as exc:  # the user's policy failed: say how
            raise PolicyError(
                self.name,
                f"{self.name!r} failed in act() {where}: {type(exc).__name__}: {exc}",
            ) from None
        if action not in observation.legal:
            shown = action.describe() if isinstance(action, Action) else repr(action)
            raise PolicyError(
                self.name, f"{self.name!r} chose {shown} {where}, which is not one of the "
                "observation's legal actions",
            )  # fmt: skip
        return action


def is_plugin(name: str) -> bool:
    """``name`` is ``MODULE:FACTORY`` rather than a registered name."""
    return ":" in name


def is_named(name: str) -> bool:
    """A built-in policy's own name: not ``MODULE:FACTORY``, and not a built-in with
    knobs (``careful[gather=0]``, registered when first named)."""
    return ":" not in name and "[" not in name


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
    if name in ALIASES:
        return ALIASES[name]
    if "[" in name or "]" in name:
        # A built-in with knobs, careful[gather=0] (docs/players.md).
        try:
            return resolve(name)
        except KeyError as exc:
            raise PolicyError(name, str(exc.args[0])) from None
        except ValueError as exc:  # a knob that is not one, or out of its range
            raise PolicyError(name, str(exc)) from None
    known = ", ".join(sorted(n for n in POLICIES if is_named(n)))
    if ":" not in name:
        raise PolicyError(
            name,
            f"{name!r} is not a policy; known: {known}; or give MODULE:FACTORY for a factory "
            "(seat, rng) -> Policy of your own",
        )
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise PolicyError(
            name, f"{name!r}: write MODULE:FACTORY, both parts (for example mypolicies:make)"
        )
    if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
        stem = os.path.splitext(os.path.basename(module_name))[0]
        folder = os.path.dirname(module_name) or "."
        raise PolicyError(
            name,
            f"{name!r}: MODULE is a module's name, not a file: write {stem}:{attribute} and "
            f"run from {folder} (the folder holding it), or put that folder on PYTHONPATH",
        )
    try:
        module = _import(module_name)
    except ModuleNotFoundError as exc:
        raise PolicyError(
            name,
            f"{name!r}: no module named {exc.name or module_name!r} (looked in the current folder "
            "and on PYTHONPATH)",
        ) from None
    except Exception as exc:  # the user's module failed while importing: say how
        raise PolicyError(
            name, f"{name!r}: importing {module_name} failed: {type(exc).__name__}: {exc}"
        ) from None
    factory: Any = module
    for part in attribute.split("."):
        if not hasattr(factory, part):
            raise PolicyError(
                name, f"{name!r}: the module {module_name} has no attribute {attribute!r}"
            )
        factory = getattr(factory, part)
    if not callable(factory):
        raise PolicyError(
            name, f"{name!r}: {attribute} is not callable; give a factory (seat, rng)"
        )

    def checked(seat: Seat, rng: DiceSampler) -> Policy:
        try:
            inner = factory(seat, rng)
        except Exception as exc:  # the user's factory failed: say how
            raise PolicyError(
                name,
                f"{name!r}: calling {attribute}(seat, rng) failed: {type(exc).__name__}: {exc}",
            ) from None
        if not callable(getattr(inner, "act", None)):
            raise PolicyError(
                name, f"{name!r}: {attribute}(seat, rng) gave {type(inner).__name__}, which has "
                "no act(observation) method",
            )  # fmt: skip
        return Checked(name, inner)

    checked(Seat.HEROES, DiceSampler(0))  # a factory that fails does so now, before any game
    register_policy(name, checked)
    return name
