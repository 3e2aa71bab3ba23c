"""The crawl's front doors: the commands (``run crawl``, ``replay``, ``campaign``), terminal
play, the table that seats players and saves a game, campaigns, win-rate runs and the
golden playthroughs. They sit above the rules and the runner and import them; no rule
module imports them (docs/architecture.md)."""
