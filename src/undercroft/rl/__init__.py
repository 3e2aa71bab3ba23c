"""The crawl for learning and search agents: Gymnasium, PettingZoo and OpenSpiel
adapters over the engine (docs/rl.md). An optional extra: ``pip install undercroft[rl]``.

Importing this package registers the Gymnasium environment ``undercroft/Crawl-v0`` if
Gymnasium is installed; importing :mod:`undercroft.rl.openspiel` registers the OpenSpiel
game ``undercroft_crawl``. The crawl never imports this package.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Final

GYM_ID: Final = "undercroft/Crawl-v0"

if find_spec("gymnasium") is not None:  # the extra may not be installed
    from gymnasium.envs.registration import register, registry

    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="undercroft.rl.gym_env:CrawlEnv")
