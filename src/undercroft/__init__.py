"""undercroft: a rules-exact simulation engine for dungeon games.

Two rulesets share one core (:mod:`undercroft.core`): *crawl*, a turn-based tabletop
dungeon crawl, and *keep*, a dungeon-keeper simulation. See ``docs/`` and the README.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("undercroft")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
