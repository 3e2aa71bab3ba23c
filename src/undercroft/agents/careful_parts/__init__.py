"""The parts of the careful party (:mod:`undercroft.agents.careful`), one concern a module."""
