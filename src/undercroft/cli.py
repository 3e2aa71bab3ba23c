"""The ``undercroft`` command line (typer + rich).

Exit codes: 0 success; 1 the command ran and found problems it reports (none yet);
2 a user mistake (bad argument, bad content file, bad log, save or database, an output
path that cannot be written), explained in one paragraph that names the file, line and
field or the option, never with a traceback; 130 interrupted (Ctrl-C), with no
half-written file left behind. The shared helpers are in :mod:`undercroft.clikit`.

The commands live beside what they drive and are imported only when they run
(:mod:`undercroft.clilazy`): this module imports typer and nothing of the engines, so
``undercroft --version`` and ``undercroft --help`` answer at once.
"""

from __future__ import annotations

from typing import Annotated

import typer

from undercroft import __version__
from undercroft.clilazy import Lazy, LazyGroup, size_help_for_pipes


class RootGroup(LazyGroup):
    """``undercroft``'s commands, in the order its help lists them."""

    lazy = (
        Lazy(
            "demo",
            "undercroft.demo:show",
            "Show the engine at work: a map, line of sight, a path and exact dice odds.",
        ),
        Lazy(
            "check",
            "undercroft.cli_check:check",
            "Validate content files (TOML) against their schema; mistakes name file:line:key.",
        ),
        Lazy(
            "rules",
            "undercroft.cli_basics:rules",
            "List the rule catalogue, show one rule, or report rule coverage.",
        ),
        Lazy(
            "list",
            "undercroft.cli_basics:list_content",
            "List what the installed content holds, so you can see what to run.",
        ),
        Lazy("run", "undercroft.cli:run_app", "Play a ruleset to the end and print an account."),
        Lazy(
            "replay",
            "undercroft.crawl.app.cli:replay",
            "Print the account of a game from its saved log.",
        ),
        Lazy("play", "undercroft.crawl.app.terminal:play_app", "Play a ruleset yourself."),
        Lazy(
            "campaign",
            "undercroft.crawl.app.cli:campaign_app",
            "A crawl campaign: heroes, items, deaths and revivals kept between adventures.",
        ),
        Lazy(
            "serve",
            "undercroft.web.cli:serve",
            "Start the web app: the crawl lobby, play in the browser, replays (docs/web.md).",
        ),
        Lazy(
            "batch",
            "undercroft.analysis.cli:batch",
            "Play N seeded games and report the results with their 95% intervals.",
        ),
        Lazy(
            "sweep",
            "undercroft.analysis.cli:sweep",
            "A batch for every combination of the --set values, plotted against them.",
        ),
        Lazy(
            "compare",
            "undercroft.analysis.cli:compare",
            "Two batches side by side: is each metric's change real or noise?",
        ),
        Lazy(
            "odds",
            "undercroft.analysis.cli:odds",
            "Exact probabilities from the rules' own chance nodes, as fractions and percentages.",
            command_class="DiceCommand",
        ),
        Lazy(
            "results",
            "undercroft.analysis.cli:results_app",
            "The results catalogue: past batches, sweeps and comparisons (DuckDB).",
        ),
    )


class RunGroup(LazyGroup):
    """``undercroft run``: one game of a ruleset."""

    lazy = (
        Lazy(
            "crawl",
            "undercroft.crawl.app.cli:run_crawl",
            "Play one crawl adventure to the end and tell what happened.",
        ),
        Lazy(
            "keep",
            "undercroft.keep.cli:run_keep",
            "Run a keep scenario: a day-by-day account and a summary of the workload.",
        ),
    )


app = typer.Typer(
    name="undercroft",
    cls=RootGroup,
    help="A rules-exact simulation engine for dungeon games (crawl and keep).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

run_app = typer.Typer(
    cls=RunGroup, help="Play a ruleset to the end and print an account.", no_args_is_help=True
)


def _version(value: bool) -> None:
    if value:
        print(f"undercroft {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """undercroft runs the crawl and keep dungeon rulesets exactly as written."""
    size_help_for_pipes()  # before a subcommand reads its options (and maybe --help)


def main() -> None:
    """Entry point of the ``undercroft`` script."""
    size_help_for_pipes()
    app()


if __name__ == "__main__":
    main()
