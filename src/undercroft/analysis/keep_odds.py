"""Exact odds of the keep's knock-out and head-wound draws (``odds keep-ko``, ``keep-head``).

The keep engine draws these chances in :mod:`undercroft.keep.wounds`, whose pure
functions (:func:`~undercroft.keep.wounds.unconscious_chance`,
:func:`~undercroft.keep.wounds.head_out_chance`,
:func:`~undercroft.keep.wounds.head_unconscious_chance`) return the exact ``p`` that
``_draw`` samples and logs on its ``chance`` event. The odds here are those functions'
values, with the outcome words the engine logs (``unconscious`` / ``dead`` for K-KO-02,
``out`` / ``stays`` for K-HEAD-01), so they change with the code and never restate it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import get_args

from undercroft.analysis.odds import Odds, OddsError
from undercroft.keep.content.equipment import Armour
from undercroft.keep.rules import wounds

WEAPONS = ("blunt", "edged")
"""K-KO-02 / K-HEAD-01 tell a blunt weapon (a hammer) or fists from every other weapon."""
ARMOURS: tuple[str, ...] = get_args(Armour)
HEAD_WOUNDS = tuple(wounds.HEAD_UNCONSCIOUS)
"""K-HEAD-01 is about serious and critical wounds."""
MAX_HELMET = 100


def _choice(option: str, value: str | None, allowed: tuple[str, ...]) -> str:
    if value is None:
        raise OddsError(f"{option} is needed (allowed: {', '.join(allowed)})")
    if value not in allowed:
        raise OddsError(f"{option} {value!r}: allowed: {', '.join(allowed)}")
    return value


def ko_odds(wound: str | None, weapon: str | None, armour: str | None) -> Odds:
    """K-KO-02 + K-KO-03 (ruling R-K-KO-01): someone this wound takes out is
    ``unconscious`` or ``dead``."""
    level = _choice("--wound", wound, wounds.LEVELS)
    arm = _choice("--weapon", weapon, WEAPONS)
    worn = _choice("--armour", armour or "none", ARMOURS)
    p = wounds.unconscious_chance(level, blunt=arm == "blunt", armour=worn)
    return Odds(
        f"taken out by a {level} wound ({arm}, armour {worn})",
        {"unconscious": p, "dead": 1 - p},
        [
            "K-KO-02: light 75%, serious 50%, critical 25% unconscious; blunt or fists "
            "100%, 75%, 50%",
            "K-KO-03: leather or cloth +10%, chain +20%, plate +30%; above 100% is 100% "
            "(R-K-KO-01)",
            "K-KO-04: creatures and the Master always die, the troll always goes unconscious",
        ],
    )


def head_odds(weapon: str | None, helmet: int, wound: str | None = None) -> Odds:
    """K-HEAD-01: a serious or critical head wound takes someone ``out`` or they ``stay``
    up; with ``wound`` also K-HEAD-02: ``stays``, ``unconscious`` or ``dead``."""
    arm = _choice("--weapon", weapon, WEAPONS)
    if not 0 <= helmet <= MAX_HELMET:
        raise OddsError(f"--helmet {helmet}: a helmet's number is 0 to {MAX_HELMET}")
    p_out = wounds.head_out_chance(blunt=arm == "blunt", helmet=helmet)
    notes = [
        "K-HEAD-01: 25% out, 50% with a blunt weapon or fists, less the helmet's number "
        "(never below 0, R-K-KO-01); the Master is never subject to it",
        "a head wound that brings someone to 10 points draws K-KO-02 instead (odds keep-ko)",
    ]
    if wound is None:
        return Odds(
            f"a serious or critical head wound ({arm}, helmet {helmet})",
            {"out": p_out, "stays": 1 - p_out},
            notes,
        )
    level = _choice("--wound", wound, HEAD_WOUNDS)
    p_alive = wounds.head_unconscious_chance(level)
    outcomes: dict[str, Fraction] = {
        "stays": 1 - p_out,
        "unconscious": p_out * p_alive,
        "dead": p_out * (1 - p_alive),
    }
    notes.append("K-HEAD-02: out by a serious head wound 100% unconscious, critical 50%")
    return Odds(f"a {level} head wound ({arm}, helmet {helmet})", outcomes, notes)
