"""Dice: exact distributions, chance nodes, a seeded sampler, and roll/chance events.

crawl rolls only six-sided dice and treats every roll as a chance node with exact
``Fraction`` probabilities (the OpenSpiel model: the state holds no RNG, the runner picks
an outcome). keep draws from one seeded generator owned by its world. Both describe each
roll in the event log with :func:`roll_event` or :func:`chance_event`
(``ARCHITECTURE.md``, "The event log").

>>> p = opposed(nds(2, 6, modifier=3), nds(2, 6, modifier=1))
>>> p.first
Fraction(287, 432)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from undercroft.core.events import chance_event as chance_event  # re-exported
from undercroft.core.events import roll_event as roll_event  # re-exported
from undercroft.core.stream import WordStream

Distribution = dict[int, Fraction]
"""A discrete distribution: total -> exact probability (the probabilities sum to 1)."""


def die(sides: int = 6) -> Distribution:
    """One fair die."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, got {sides}")
    p = Fraction(1, sides)
    return {face: p for face in range(1, sides + 1)}


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    """The distribution of the sum of two independent totals."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def nds(n: int, sides: int = 6, *, modifier: int = 0) -> Distribution:
    """The total of ``n`` dice of ``sides`` sides plus ``modifier``."""
    if n < 0:
        raise ValueError(f"cannot roll a negative number of dice ({n})")
    dist: Distribution = {modifier: Fraction(1)}
    one = die(sides)
    for _ in range(n):
        dist = convolve(dist, one)
    return dist


def probability(dist: Mapping[int, Fraction], event: Callable[[int], bool]) -> Fraction:
    """P(event(total)) under ``dist``."""
    return sum((p for total, p in dist.items() if event(total)), Fraction(0))


@dataclass(frozen=True, slots=True)
class Opposed:
    """The three outcomes of comparing two independent totals."""

    first: Fraction
    """P(the first total is higher)."""
    tie: Fraction
    """P(the totals are equal)."""
    second: Fraction
    """P(the second total is higher)."""


def opposed(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Opposed:
    """Compare two independent totals exactly (fights, mental combat, keep checks)."""
    first = tie = second = Fraction(0)
    for x, px in a.items():
        for y, py in b.items():
            if x > y:
                first += px * py
            elif x == y:
                tie += px * py
            else:
                second += px * py
    return Opposed(first, tie, second)


# -- chance nodes (crawl) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """One outcome of a chance node: the naturals rolled and their exact probability."""

    natural: tuple[int, ...]
    probability: Fraction

    @property
    def total(self) -> int:
        return sum(self.natural)


def outcomes(n: int = 1, sides: int = 6) -> list[ChanceOutcome]:
    """Every ordered result of rolling ``n`` dice, each with probability ``sides**-n``.

    Ordered, because the log records each die's natural (``fight`` events keep both).
    """
    return list(_outcomes(n, sides))


@functools.cache
def _outcomes(n: int, sides: int) -> tuple[ChanceOutcome, ...]:
    p = Fraction(1, sides**n)
    faces = range(1, sides + 1)
    return tuple(ChanceOutcome(tuple(r), p) for r in itertools.product(faces, repeat=n))


@dataclass(frozen=True, slots=True)
class Band:
    """A range of totals that give one outcome word."""

    low: int
    high: int
    outcome: str


@dataclass(frozen=True)
class D6Table:
    """A d6 result table such as the crawl door roll's ``jammed`` / ``stuck`` / ``opened``.

    Totals below the first band count as the first band and above the last as the last
    (a +1 on a 6 is still the best result; a -1 on a 1 is still the worst).
    """

    rule: str
    bands: tuple[Band, ...]

    def __post_init__(self) -> None:
        expected = self.bands[0].low
        for band in self.bands:
            if band.low != expected or band.high < band.low:
                raise ValueError(f"{self.rule}: bands must cover consecutive totals")
            expected = band.high + 1

    def outcome(self, total: int) -> str:
        for band in self.bands:
            if total <= band.high:
                return band.outcome
        return self.bands[-1].outcome

    def words(self) -> list[str]:
        return [band.outcome for band in self.bands]

    def distribution(self, modifier: int = 0) -> dict[str, Fraction]:
        """The exact probability of each outcome word after ``modifier`` (enumerated)."""
        result = {word: Fraction(0) for word in self.words()}
        for o in outcomes(1, 6):
            result[self.outcome(o.total + modifier)] += o.probability
        return result


# -- seeded sampling (keep, and runners that sample crawl chance nodes) -----------------


def derive_seed(batch_seed: int, index: int) -> int:
    """The seed of run ``index`` in a batch seeded ``batch_seed``.

    Scheme (documented in docs/core.md): numpy ``SeedSequence(batch_seed,
    spawn_key=(index,))``, first 64-bit word of its state. Run ``i`` can be replayed alone.
    """
    words = np.random.SeedSequence(batch_seed, spawn_key=(index,)).generate_state(2, np.uint64)
    return int(words[0])


class DiceSampler(WordStream):
    """A seeded source of dice and percentage draws with a documented, stable stream.

    Raw 64-bit words come from numpy's PCG64 (whose raw stream numpy promises is fixed
    for a seed), drawn in blocks for speed. Dice use rejection sampling so every face is
    exactly equally likely; percentage draws take the top 53 bits as a float in [0, 1).
    Nothing here depends on numpy's distribution methods, which may change between builds.
    The draws themselves are :class:`~undercroft.core.stream.WordStream`'s (compiled with
    the engines); this class stays Python, so it can be subclassed and patched.
    """

    def sample(self, node: Sequence[ChanceOutcome]) -> ChanceOutcome:
        """Pick one outcome of a crawl chance node with its exact probability."""
        if not node:
            raise ValueError("a chance node needs at least one outcome")
        denominator = math.lcm(*(o.probability.denominator for o in node))
        draw = self._below(denominator)
        for o in node:
            draw -= int(o.probability * denominator)
            if draw < 0:
                return o
        raise ValueError("chance outcome probabilities do not sum to 1")

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot, so a saved world continues the same stream."""
        return {"bits": self._bits.state, "buffer": self._buffer[self._used :]}

    @classmethod
    def from_state(cls, seed: int, state: Mapping[str, Any]) -> DiceSampler:
        sampler = cls(seed)
        sampler._restore(state)
        return sampler

    def _restore(self, state: Mapping[str, Any]) -> None:
        """Go on from a :meth:`state` snapshot."""
        self._bits.state = state["bits"]
        self._buffer = [int(w) for w in state["buffer"]]
        self._used = 0

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) as its stream's state: compiled, the stream's fields
        # are not in the instance's ``__dict__``, which is all a default pickle keeps.
        return (_unpickled, (type(self), self.seed, self.state(), dict(self.__dict__)))


def _unpickled(
    kind: type[DiceSampler], seed: int, state: Mapping[str, Any], extra: dict[str, Any]
) -> DiceSampler:
    """A pickled sampler again (its own ``__init__`` is not run: a subclass may take other
    arguments; its attributes come back from ``extra``)."""
    sampler = kind.__new__(kind)
    WordStream.__init__(sampler, seed)
    sampler._restore(state)
    sampler.__dict__.update(extra)
    return sampler
