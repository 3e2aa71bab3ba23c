"""A sweep: the grid of batches over some ``--set`` values, and its report.

``--set monsters.orc.fighting=2,3,4,5 --set options.ambusher_six=total,natural`` makes the
4 x 2 grid; a ``--set`` with one value holds for every point. Every point is a full batch
(its own folder ``point-NN``, Parquet files, report), played with the same batch seed:
run ``i`` of every point starts from the same seed, so the points differ by the values
swept and not by luck in their first rolls (common random numbers: the differences
between points are steadier than the points themselves). The sweep's ``report.html``
(:mod:`.sweep_report`) plots every metric against the first swept key, one line per value
of the others, with 95% bands, and tables every point.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from undercroft.core.settings import Setting, SettingError, read_value, split_values
from undercroft.crawl.settings import parse as crawl_parse


@dataclass(frozen=True)
class Point:
    """One batch of the grid: the value of every swept key (and its folder)."""

    index: int
    values: tuple[tuple[str, str], ...]
    """(key, value as written), in the order the keys were given."""

    @property
    def sets(self) -> list[str]:
        return [f"{k}={v}" for k, v in self.values]

    @property
    def name(self) -> str:
        return f"point-{self.index:02d}"

    def label(self, keys: Sequence[str]) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values if k in keys)


def grid(
    sets: Sequence[str], parse: Callable[[str], Setting] = crawl_parse
) -> tuple[list[str], list[str], list[Point]]:
    """The fixed settings, the swept keys and the points of ``--set`` texts (``parse``
    reads a key of the ruleset: the crawl's or the keep's)."""
    fixed: list[str] = []
    swept: list[tuple[str, list[str]]] = []
    for text in sets:
        key = parse(text).key
        values = split_values(text.partition("=")[2])
        if any(not v for v in values):
            raise SettingError(f"--set {text}: an empty value between commas")
        if len(values) == 1:
            fixed.append(text)
        else:
            swept.append((key, values))
    if not swept:
        raise SettingError(
            "a sweep needs at least one --set with several values, comma-separated "
            "(for example --set monsters.orc.fighting=2,3,4,5)"
        )
    keys = [k for k, _ in swept]
    points = [
        Point(i + 1, tuple(zip(keys, combo, strict=True)))
        for i, combo in enumerate(itertools.product(*(v for _, v in swept)))
    ]
    return fixed, keys, points


def axis(values: Sequence[str]) -> tuple[list[float], list[str] | None]:
    """Positions on the x axis: the numbers themselves, else 0, 1, 2 with labels."""
    read = [read_value(v) for v in values]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in read):
        return [float(v) for v in read], None
    return [float(i) for i in range(len(values))], list(values)
