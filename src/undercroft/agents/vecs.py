"""The integer vectors of the party's searches (:mod:`undercroft.agents.plan`).

Compiled, the searches keep their numbers in ``librt.vecs.vec[i64]``: packed machine
integers that mypyc reads and writes as C arrays. Run as plain Python, a vec is slower
than a list (every index goes through the vec's own type), so there the same names stand
for lists: ``vec[T](items)`` makes a list and ``append(v, x)`` appends in place and hands
``v`` back, as ``librt.vecs.append`` does. The searches do the same steps either way and
give the same answers (the suite compares the logs of both builds).

This module is never compiled: it picks at import, by whether the compiled build is in
use (``undercroft.native``). Type checkers and mypyc see only librt's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft import native

if TYPE_CHECKING or native.in_use():
    from librt.vecs import append, vec
else:

    class _Lists:
        """``vec[T]``: the list type, for any ``T``."""

        def __getitem__(self, _: Any) -> type[list[Any]]:
            return list

    vec = _Lists()

    def append(items: list[Any], item: Any) -> list[Any]:
        """``librt.vecs.append`` for a list: appended in place, and handed back."""
        items.append(item)
        return items


__all__ = ["append", "vec"]
