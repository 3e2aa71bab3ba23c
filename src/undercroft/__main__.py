"""``python -m undercroft``: the same as the ``undercroft`` command."""

from undercroft.cli import main

main()
