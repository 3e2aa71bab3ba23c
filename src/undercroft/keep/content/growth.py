"""The growth of invading groups by game day, read from the adventurer content (K-SIZE-03).

A table for people: for each day, the expected number of members, the expected sum of
their levels and the level cap, as the content's growth curve gives them (ruling
R-K-SIZE-01), and the first day the expected group has its five members. docs/keep.md
shows this table; regenerate it with

    python -m undercroft.keep.content.growth [DAY ...]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from undercroft.keep.content.invader_content import AdventurerContent
from undercroft.keep.content.ruleset import default_ruleset

FULL_GROUP = 5
"""K-SIZE-03: "a group first grows to 5 members, then its members level up"."""

TABLE_DAYS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 15, 20, 30, 40, 50, 60)
"""The days docs/keep.md shows."""


@dataclass(frozen=True, slots=True)
class GrowthRow:
    """One day of the growth curve: expected members and level sum, and the level cap."""

    day: int
    members: float
    levels: float
    cap: int


def growth_rows(content: AdventurerContent, days: Sequence[int]) -> list[GrowthRow]:
    """The content's curve (K-SIZE-03) on each of ``days``."""
    return [
        GrowthRow(day, content.members_at(day), content.levels_at(day), content.level_cap(day))
        for day in days
    ]


def full_from(content: AdventurerContent, last_day: int = 365) -> int | None:
    """The first day the expected group has five members (None if not by ``last_day``)."""
    for day in range(1, last_day + 1):
        if content.members_at(day) >= FULL_GROUP:
            return day
    return None


def markdown(rows: Sequence[GrowthRow]) -> str:
    """The rows as a Markdown table (members and levels to two decimals)."""
    lines = [
        "| day | members | level sum | level cap |",
        "|---:|---:|---:|---:|",
        *(f"| {r.day} | {r.members:.2f} | {r.levels:.2f} | {r.cap} |" for r in rows),
    ]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """Print the default content's growth table for the given days (or TABLE_DAYS)."""
    try:
        days = [int(a) for a in argv] or list(TABLE_DAYS)
    except ValueError:
        print(f"days are whole numbers, not {' '.join(argv)!r}", file=sys.stderr)
        return 2
    content = default_ruleset().adventurers
    print(markdown(growth_rows(content, days)))
    print(f"\nfive members from day {full_from(content)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
