"""The options of ``undercroft batch``, ``sweep``, ``compare``, ``odds`` and ``results``.

Each command here only declares its options and hands them to
:mod:`undercroft.analysis.commands` (or :mod:`undercroft.analysis.odds_cli`), imported when
the command runs: the analysis libraries (pyarrow, DuckDB, scipy, matplotlib) take most of
a second to load, which every other ``undercroft`` command would otherwise pay.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from undercroft.clikit import fail, interruptible
from undercroft.defaults import DEFAULT_DM, DEFAULT_HEROES, MAX_SEED

MAX_RUNS = 10_000_000

RulesetArg = Annotated[str, typer.Argument(help="The ruleset: crawl or keep.")]
TargetArg = Annotated[
    str, typer.Argument(help="crawl: the adventure id or file; keep: a scenario name or file.")
]
RunsOption = Annotated[
    int, typer.Option("--runs", min=1, max=MAX_RUNS, help="How many games to play.")
]
WorkersOption = Annotated[
    int | None,
    typer.Option(min=1, max=256, help="Worker processes (local backend; default: the cores)."),
]
SeedOption = Annotated[
    int, typer.Option(min=0, max=MAX_SEED, help="Batch seed: run i plays derive_seed(S, i).")
]
PolicyOption = Annotated[str, typer.Option(help="Heroes' policy: a name, or MODULE:FACTORY.")]
DmOption = Annotated[str, typer.Option(help="Dungeon Master's policy: a name or MODULE:FACTORY.")]
PartyOption = Annotated[
    str | None, typer.Option(help="3 to 5 hero ids, comma-separated (default: the first four).")
]
DaysOption = Annotated[
    int | None, typer.Option(help="keep: days each run plays (default: the scenario's).")
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="A new (or empty) folder for the results (default: data folder)."),
]
BackendOption = Annotated[str, typer.Option(help="local (worker processes) or dask.")]
AddressOption = Annotated[
    str | None, typer.Option(help="The Dask scheduler, tcp://HOST:PORT (with --backend dask).")
]
CatalogueOption = Annotated[
    Path | None,
    typer.Option(
        "--catalogue", help="The results catalogue (default: $UNDERCROFT_CATALOGUE or data folder)."
    ),
]
PackOption = Annotated[Path | None, typer.Option(help="A crawl content pack folder.")]
QuietOption = Annotated[bool, typer.Option(help="Print only the summary table.")]
SetsOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Change a value: monsters.orc.fighting=3 (repeatable)."),
]


@interruptible
def batch(
    ruleset: RulesetArg,
    target: TargetArg,
    runs: RunsOption,
    workers: WorkersOption = None,
    seed: SeedOption = 1,
    policy: PolicyOption = DEFAULT_HEROES,
    dm: DmOption = DEFAULT_DM,
    party: PartyOption = None,
    days: DaysOption = None,
    sets: SetsOption = None,
    out_dir: OutOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    catalogue_file: CatalogueOption = None,
    pack: PackOption = None,
    quiet: QuietOption = False,
) -> None:
    """Play N seeded games and report the results with their 95% intervals.

    Streams one row per run to Parquet, prints the results table and writes
    DIR/report.html; run i is seeded derive_seed(SEED, i)."""
    from undercroft.analysis import commands  # when the command runs: start-up time

    commands.batch(
        ruleset,
        target,
        runs,
        workers,
        seed,
        policy,
        dm,
        party,
        days,
        sets,
        out_dir,
        backend,
        address,
        catalogue_file,
        pack,
        quiet,
    )


@interruptible
def sweep(
    ruleset: RulesetArg,
    target: TargetArg,
    runs: RunsOption,
    sets: SetsOption = None,
    workers: WorkersOption = None,
    seed: SeedOption = 1,
    policy: PolicyOption = DEFAULT_HEROES,
    dm: DmOption = DEFAULT_DM,
    party: PartyOption = None,
    out_dir: OutOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    catalogue_file: CatalogueOption = None,
    pack: PackOption = None,
    days: DaysOption = None,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes",
            help="Start a sweep of more than 100 points or 100,000 runs in all without asking.",
        ),
    ] = False,
) -> None:
    """A batch for every combination of the --set values, plotted against them.

    Example: --set monsters.orc.fighting=2,3,4. Every point plays the same seeds, and one
    report plots each metric against the values."""
    from undercroft.analysis import commands  # when the command runs: start-up time

    commands.sweep(
        ruleset,
        target,
        runs,
        workers,
        seed,
        policy,
        dm,
        party,
        sets,
        out_dir,
        backend,
        address,
        catalogue_file,
        pack,
        days,
        yes=yes,
    )


@interruptible
def compare(
    dir_a: Annotated[Path, typer.Argument(metavar="DIR_A", help="A batch folder.")],
    dir_b: Annotated[Path, typer.Argument(metavar="DIR_B", help="Another batch folder.")],
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Write DIR/report.html with the comparison.")
    ] = None,
    catalogue_file: CatalogueOption = None,
) -> None:
    """Two batches side by side: is each metric's change real or noise?

    A significance test per metric (paired when the batches share their seeds) and the
    runs per batch that would tell."""
    from undercroft.analysis import commands  # when the command runs: start-up time

    commands.compare(dir_a, dir_b, out_dir, catalogue_file)


NEGATIVE = re.compile(r"-[0-9]")
"""A word that starts like ``-2d6`` or ``-1``: no option of ``odds`` starts with a digit."""


class DiceCommand(TyperCommand):
    """``odds``: a dice expression that starts with '-' (``-2d6``) reads to the option
    parser as options (``-2``), which typer reports as "No such option: -2". Said plainly
    instead, with the way to write it: ``odds -- -2d6`` (after ``--`` every word is an
    argument). Accepting it silently would also turn a mistyped option into an expression.
    A negative value of an option (``--power -1``) is the option's, as before."""

    # ctx is typer's own (vendored) click Context, which typer does not export.
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        valued = {
            name
            for param in self.params
            if param.param_type_name == "option" and not getattr(param, "is_flag", False)
            for name in param.opts
        }
        after_option = False
        for word in args:
            if word == "--":
                break
            if after_option:
                after_option = False
            elif word in valued:
                after_option = True
            elif NEGATIVE.match(word):
                fail(
                    f"odds {word}: a dice expression cannot start with '-' (it reads as an "
                    f"option); write `undercroft odds -- {word}` (options go before the --; after "
                    "it every word is an argument)."
                )
        parsed: list[str] = super().parse_args(ctx, args)
        return parsed


def odds(
    what: Annotated[
        str,
        typer.Argument(
            metavar="EXPR|rule|fight|keep-ko|keep-head",
            help="A dice expression ('2d6+3 vs 2d6+1', '3d6'), or 'rule', 'fight', "
            "'keep-ko' or 'keep-head'.",
        ),
    ],
    rule: Annotated[
        str | None, typer.Argument(metavar="[RULE]", help="With 'rule': a rule ID (C-DOOR-01).")
    ] = None,
    hero: Annotated[str | None, typer.Option(help="The hero (its traits and items).")] = None,
    monster: Annotated[str | None, typer.Option(help="fight: the monster kind.")] = None,
    stamina: Annotated[int, typer.Option(help="fight: Stamina the hero spends (0-3).")] = 0,
    monster_stamina: Annotated[
        int, typer.Option(help="fight: Stamina the monster spends (0-3).")
    ] = 0,
    enemies: Annotated[
        int, typer.Option(help="fight: monsters the hero fights at once (C-FIGHT-02).")
    ] = 1,
    light0: Annotated[bool, typer.Option("--light0", help="At Light 0 (C-LIGHT-02).")] = False,
    surprised: Annotated[bool, typer.Option(help="fight: the hero is surprised.")] = False,
    power: Annotated[int, typer.Option(help="rule C-MENT-01: the other side's power.")] = 0,
    sets: SetsOption = None,
    pack: PackOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: outcome -> fraction.")
    ] = False,
    wound: Annotated[
        str | None, typer.Option(help="keep: the wound, light|serious|critical (K-KO-01).")
    ] = None,
    weapon: Annotated[str | None, typer.Option(help="keep: blunt (or fists) or edged.")] = None,
    armour: Annotated[
        str | None, typer.Option(help="keep-ko: none|cloth|leather|chain|plate (K-KO-03).")
    ] = None,
    helmet: Annotated[
        int | None, typer.Option(help="keep-head: the helmet's number, 0-100 (K-HEAD-01).")
    ] = None,
) -> None:
    """Exact probabilities from the rules' own chance nodes, as fractions and percentages.

    odds '2d6+3 vs 2d6+1' | odds rule C-DOOR-01 --hero garrick [--light0] |
    odds fight --hero H --monster M [--stamina K] [--enemies N] [--light0] [--surprised] |
    odds keep-ko --wound W --weapon blunt|edged [--armour A] |
    odds keep-head --weapon blunt|edged [--helmet N] [--wound serious|critical].
    An expression that starts with '-' follows --: odds -- -2d6."""
    from undercroft.analysis import odds_cli  # when the command runs: start-up time

    ask = odds_cli.CrawlAsk(
        hero, monster, stamina, monster_stamina, enemies, light0, surprised, power, sets, pack
    )
    keep = odds_cli.KeepWound(wound, weapon, armour, helmet)
    odds_cli.odds(what, rule, ask, as_json, keep)


results_app = typer.Typer(
    help="The results catalogue: past batches, sweeps and comparisons (DuckDB).",
    no_args_is_help=True,
)


@results_app.command("list")
def results_list(catalogue_file: CatalogueOption = None) -> None:
    """Every batch, sweep and comparison: id, kind, time, runs, folder and command."""
    from undercroft.analysis import commands  # when the command runs: start-up time

    commands.results_list(catalogue_file)


@results_app.command("show")
def results_show(
    ident: Annotated[int, typer.Argument(metavar="ID", help="An id from `results list`.")],
    catalogue_file: CatalogueOption = None,
) -> None:
    """One entry: its command, folder and summary (metrics with intervals, or tests)."""
    from undercroft.analysis import commands  # when the command runs: start-up time

    commands.results_show(ident, catalogue_file)


@results_app.command("sql")
def results_sql(
    sql: Annotated[
        str,
        typer.Argument(
            help="A query; one view per ruleset and table holds that ruleset's batches' "
            "rows (column batch = its id): crawl_runs, crawl_deaths, crawl_fights, "
            "crawl_rolls, crawl_squares, crawl_rules; keep_runs, keep_invasions, keep_traps, "
            "keep_doors, keep_days, keep_squares; the table batches is the catalogue. "
            'Example: undercroft results sql "SELECT batch, avg(won::INT) FROM crawl_runs '
            'GROUP BY 1".'
        ),
    ],
    csv: Annotated[bool, typer.Option(help="Print CSV instead of a table.")] = False,
    limit: Annotated[
        int,
        typer.Option(min=1, help="Print at most this many rows (the rest are not fetched)."),
    ] = 1000,
    out: Annotated[
        Path | None,
        typer.Option(help="Write every row to this .parquet or .csv file instead of printing."),
    ] = None,
    catalogue_file: CatalogueOption = None,
) -> None:
    """Query past batches across their Parquet files with SQL. The query runs in a
    sandbox: it reads the catalogue and its batches' Parquet files only, and writes,
    fetches and installs nothing (use --out to save rows)."""
    from undercroft.analysis import commands  # when the command runs: start-up time

    commands.results_sql(sql, catalogue_file, csv, limit=limit, out_file=out)
