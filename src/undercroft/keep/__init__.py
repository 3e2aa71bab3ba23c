"""keep: the dungeon-keeper ruleset (rules: docs/rules/keep.md, guide: docs/keep.md).

>>> from undercroft.keep import World
>>> world = World.from_scenario("trapworks", seed=1)
>>> world.run_days(3)
>>> world.summary()["traps"]
20
"""

from undercroft.keep.world import World

__all__ = ["World"]
