"""The core both rulesets share: grid, sight, paths, dice, events, content checks."""

from undercroft.native import search_path

search_path("core", __path__)  # the compiled build, if there is a current one
