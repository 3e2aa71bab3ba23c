"""The built-in players of the crawl: policies that read one seat's view, never the state.

``careful``  the heroes as a careful table plays them (:mod:`undercroft.agents.careful`),
             the default hero policy
``master``   a Dungeon Master who plays to win within the rules
             (:mod:`undercroft.agents.master`), the default DM
``basic``    0.4's heuristic party and DM (:mod:`undercroft.agents.basic_party`,
             :mod:`undercroft.agents.basic_dm`), kept so every comparison can be rerun;
             ``heuristic`` is its old name, ``dm`` the old name of its DM
``random``   a uniformly random legal action, for either seat

The rule modules never import this package (ARCHITECTURE.md, "Layout"). Importing it
registers the names above (:mod:`undercroft.agents.registry`); knobs are documented in
docs/players.md.
"""

from __future__ import annotations

from undercroft.native import search_path

search_path("agents", __path__)  # the compiled build, if there is a current one

from undercroft.agents.builtin import register_builtins  # noqa: E402

register_builtins()
