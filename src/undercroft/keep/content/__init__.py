"""The keep's content: the shipped TOML (rules, adventurers, scenarios) beside the
schemas and loaders that read it, the calendar the files write their times in, and the
``--set`` settings. It imports nothing else of the keep."""
