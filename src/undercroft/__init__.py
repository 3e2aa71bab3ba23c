"""undercroft: a rules-exact simulation engine for dungeon games.

Two rulesets share one core (:mod:`undercroft.core`): *crawl*, a turn-based tabletop
dungeon crawl, and *keep*, a dungeon-keeper simulation. See ``docs/`` and the README.
"""

# The one place the version is written (pyproject.toml reads it from here, hatch's
# dynamic version): asking importlib.metadata would cost every command a tenth of a second.
__version__ = "0.4.1"

__all__ = ["__version__"]
