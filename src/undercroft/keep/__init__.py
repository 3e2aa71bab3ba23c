"""keep: the dungeon-keeper ruleset (rules: docs/rules/keep.md, guide: docs/keep.md).

>>> from undercroft.keep import World
>>> world = World.from_scenario("trapworks", seed=1)
>>> world.run_days(3)
>>> world.summary()["traps"]
20
"""

from undercroft.native import search_path

search_path("keep", __path__)  # the compiled build, if there is a current one

# Importing the rule modules registers what carries out each queue item, who takes open
# work, how walks end, the summary, and what is behind World.from_scenario and
# World.command (the world, the state, imports none of them); the front doors (commands,
# scenario, script) register the last two and the scripted items.
from undercroft.keep import commands, scenario, script  # noqa: E402, F401
from undercroft.keep.rules import (  # noqa: E402, F401
    adventuring,
    fallen,
    fighters,
    invasions,
    jobs,
    movement,
    summary,
    trap_effects,
    traps,
    visitors,
)
from undercroft.keep.state.world import World  # noqa: E402

__all__ = ["World"]
