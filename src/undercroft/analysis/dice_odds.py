"""Exact odds of dice expressions (``undercroft odds '2d6+3 vs 2d6+1'``), and the
:class:`Odds` answer every ``odds`` question gives.

Kept apart from :mod:`undercroft.analysis.odds`, whose rule and fight odds need the crawl
engine, so that ``undercroft odds 2d6`` starts without loading it. The sums are exact
convolutions (:mod:`undercroft.core.dice`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from undercroft.core.dice import Distribution, convolve, nds, opposed


class OddsError(ValueError):
    """A question ``odds`` cannot answer; the message says what is allowed."""


@dataclass(frozen=True)
class Odds:
    """Exact probabilities of outcome words (or totals), with what they are of."""

    question: str
    outcomes: dict[str, Fraction]
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "outcomes": {word: str(p) for word, p in self.outcomes.items()},
            "notes": self.notes,
        }


_TERM = re.compile(r"\s*([+-])?\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))\s*")
MAX_DICE = 50
MAX_SIDES = 1000


def expression(text: str) -> Distribution:
    """The exact distribution of a sum such as ``2d6+3``, ``d20-1``, ``3d6+1d4``."""
    dist: Distribution = {0: Fraction(1)}
    pos = 0
    if not text.strip():
        raise OddsError("an empty dice expression; write e.g. 2d6+3 or '2d6+3 vs 2d6+1'")
    while pos < len(text):
        found = _TERM.match(text, pos)
        if found is None or found.end() == pos:
            raise OddsError(
                f"cannot read the dice expression {text!r} at {text[pos:]!r}: write terms "
                "like 2d6, d20, 3 joined by + or -"
            )
        sign, count, sides, number = found.groups()
        if pos > 0 and sign is None:
            raise OddsError(f"{text!r}: terms must be joined by + or - (at {text[pos:]!r})")
        negative = sign == "-"
        if number is not None:
            term: Distribution = {int(number): Fraction(1)}
        else:
            n, s = int(count or 1), int(sides)
            if not (1 <= n <= MAX_DICE and 1 <= s <= MAX_SIDES):
                raise OddsError(
                    f"{text!r}: {n}d{s} is out of range (1 to {MAX_DICE} dice of 1 to "
                    f"{MAX_SIDES} sides)"
                )
            term = nds(n, s)
        if negative:
            term = {-k: p for k, p in term.items()}
        dist = convolve(dist, term)
        pos = found.end()
    return dist


def dice_odds(text: str) -> Odds:
    """``A vs B``: win/lose/tie for the left side; a single expression: its totals."""
    sides = re.split(r"\s+vs\.?\s+", text.strip(), flags=re.IGNORECASE)
    if len(sides) > 2:
        raise OddsError(f"{text!r}: compare two expressions at most (A vs B)")
    if len(sides) == 2:
        left, right = expression(sides[0]), expression(sides[1])
        o = opposed(left, right)
        return Odds(text.strip(), {"win": o.first, "lose": o.second, "tie": o.tie})
    dist = expression(sides[0])
    return Odds(text.strip(), {str(total): p for total, p in sorted(dist.items())})
