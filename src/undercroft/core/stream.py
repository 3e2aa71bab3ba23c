"""The seeded word stream behind :class:`~undercroft.core.dice.DiceSampler`, compiled with
the engines (``undercroft.native``): a crawl game rolls hundreds of dice, each a call from
the compiled rules into this code.

The sampler itself is a Python subclass of :class:`WordStream` (``core.dice``), so a test
or a runner can still subclass it or set an attribute on one sampler (a percentage draw
that always passes), as on any Python object: compiled code calls the methods of a class
that allows interpreted subclasses by name, so an override is the method that runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr

T = TypeVar("T")

LIMIT6: Final = (1 << 64) - ((1 << 64) % 6)
"""Words at or above this are redrawn for a d6 (rejection sampling keeps faces equal)."""

BLOCK: Final = 256
"""Words drawn at a time (the stream is the same whatever the block: a game's dice take a
few hundred words, and its policies' samplers few or none)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class WordStream:
    """Raw 64-bit words from numpy's PCG64 (whose raw stream numpy promises is fixed for a
    seed), drawn in blocks of :data:`BLOCK`, and the draws made of them: dice by rejection
    sampling (every face exactly equally likely), percentage draws from the top 53 bits.
    Nothing here depends on numpy's distribution methods, which may change between
    builds."""

    def __init__(self, seed: int) -> None:
        if seed < 0:
            raise ValueError(f"a seed must be 0 or more, got {seed}")
        self.seed = seed
        self._made: np.random.PCG64 | None = None
        self._buffer: list[int] = []
        self._used = 0

    @property
    def _bits(self) -> np.random.PCG64:
        """The generator, made on the first draw (making one costs more than many dice;
        a policy's sampler may never draw)."""
        if self._made is None:
            self._made = np.random.PCG64(self.seed)
        return self._made

    def _word(self) -> int:
        if self._used >= len(self._buffer):
            self._buffer = self._bits.random_raw(BLOCK).tolist()
            self._used = 0
        word = self._buffer[self._used]
        self._used += 1
        return int(word)

    def die(self, sides: int = 6) -> int:
        """One die: 1..sides, exactly uniform."""
        limit = LIMIT6 if sides == 6 else (1 << 64) - ((1 << 64) % sides)
        while True:
            # ``_word`` inlined: a method call of a class open to Python subclasses goes
            # by name, and a game rolls hundreds of dice (the same words, in order).
            if self._used >= len(self._buffer):
                self._buffer = self._bits.random_raw(BLOCK).tolist()
                self._used = 0
            word: int = self._buffer[self._used]
            self._used += 1
            if word < limit:
                return word % sides + 1

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        """``n`` dice, each natural kept."""
        if n == 1:  # most rolls
            return (self.die(sides),)
        return tuple([self.die(sides) for _ in range(n)])

    def uniform(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self._word() >> 11) * (1.0 / (1 << 53))

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (a percentage draw)."""
        return self.uniform() < p

    def choose(self, options: Sequence[T]) -> T:
        """One of ``options``, each equally likely."""
        if not options:
            raise ValueError("cannot choose from nothing")
        return options[self.die(len(options)) - 1]

    def _below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n
