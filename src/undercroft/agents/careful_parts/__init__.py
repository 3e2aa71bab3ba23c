"""The parts of the careful party (:mod:`undercroft.agents.careful`), one concern a module,
each a layer over the one below (table, magic, fighting, moving: a single line of
inheritance, which the compiled build needs)."""

from undercroft.native import search_path

search_path("agents/careful_parts", __path__)  # the compiled build, if there is a current one
