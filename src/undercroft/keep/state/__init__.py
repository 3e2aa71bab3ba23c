"""The keep's state: what a game holds, as data (the world, its clock and queue, the
beings, the structures and their wiring, the work posted, the invasions' bookkeeping, the
keeper's commands as data). It imports :mod:`undercroft.keep.content` and no rule module:
the rules register what the world calls (queue handlers, who takes open work, the
summary, the scenario builder and the command executor)."""

from undercroft.native import search_path

search_path("keep/state", __path__)  # the compiled build, if there is a current one
