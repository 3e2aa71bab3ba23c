"""Defaults every front door shares, in a module that imports nothing.

The CLI's option declarations read them before any engine is loaded
(:mod:`undercroft.clilazy`), so they cannot live beside the players or the engine.
"""

from __future__ import annotations

from typing import Final

DEFAULT_HEROES: Final = "careful"
"""The hero policy of ``run``, ``batch``, ``sweep``, ``play``, ``campaign`` and the lobby."""
DEFAULT_DM: Final = "master"
"""The DM policy of the same commands."""
MAX_SEED: Final = 2**64 - 1
"""Run seeds are 64-bit unsigned (the seeds a campaign derives for its adventures)."""
