"""The keep's rules: one module per rule area, functions over the state that register
what they carry out (:func:`undercroft.keep.state.clock.handles`, ...). A rule module
imports the state, the content and the rule modules below it, never one above it and
never a front door (docs/architecture.md, "The keep", draws the order)."""

from undercroft.native import search_path

search_path("keep/rules", __path__)  # the compiled build, if there is a current one
