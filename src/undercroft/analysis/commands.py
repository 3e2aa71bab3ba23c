"""What ``undercroft batch``, ``sweep``, ``compare``, ``odds`` and ``results`` do (their
options are in :mod:`undercroft.analysis.cli`, which imports this module only when one
runs).

The summary, the report and the comparison load scipy and matplotlib: they are imported
where a batch is finished, after its worker processes are gone, so the batch process stays
small while they run (a batch's peak memory is the batch and its workers together).

Everything a command needs is checked before the first run (the ruleset and target, the
party, the policies, every ``--set``, the backend, the output folder, the catalogue), so a
mistake exits 2 at once with a message naming the option, and a long batch is never
wasted on an output it cannot write. A folder of results (a batch's, a sweep's, a
comparison's) is written as a hidden sibling and renamed into place only when complete
(:func:`undercroft.clikit.writing_folder`): Ctrl-C, a failed run or a full disk removes it,
leaves nothing behind and registers nothing (exit 130, or 2 naming the folder).
"""

from __future__ import annotations

import csv as csv_module
import dataclasses
import datetime
import math
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from undercroft import __version__
from undercroft.analysis import backends, exercise, reach
from undercroft.analysis import results as catalogue
from undercroft.analysis import sweep as sweep_grid
from undercroft.analysis.batch import BatchSpec, read_meta, run_batch, write_meta
from undercroft.analysis.estimates import Estimate, Metric
from undercroft.analysis.formats import REPORT, caution, shown
from undercroft.analysis.plugin import BatchRuleset
from undercroft.analysis.rulesets import ruleset_named
from undercroft.analysis.store import views
from undercroft.analysis.targets import check_ruleset, scenario_for, scenario_words
from undercroft.analysis.worker import RunFailedError, run_seed
from undercroft.clikit import checkpoints, fail, interrupted, progress, warn, writing_folder
from undercroft.core.files import PathError, data_folder, make_folder, same_file, write_failure
from undercroft.core.settings import SettingError
from undercroft.crawl import settings as crawl_settings
from undercroft.keep.content import settings as keep_settings


class _Out:
    """Standard output as a rich console, made when first printed to: on a terminal as
    wide as it is, elsewhere (a pipe, a file) wide enough that tables keep whole lines."""

    def __getattr__(self, name: str) -> Any:
        stream = sys.stdout
        width = None if stream.isatty() else 240
        return getattr(Console(file=stream, highlight=False, emoji=False, width=width), name)


out = _Out()


DISTRIBUTIONS = (
    *("turns", "light", "heroes_dead", "treasure", "fights", "patrols"),  # crawl
    *("invasions", "adventurers_dead", "master_died_day", "traps_fired", "door_minutes"),  # keep
)
"""The ``runs`` columns the report draws as histograms (those a ruleset's metrics have)."""

# -- where it goes --------------------------------------------------------------------------


def _catalogue(option: Path | None) -> Path:
    """The catalogue's file (``--catalogue``, the environment, or the data folder's), or
    exit 2 when the data folder cannot be made."""
    try:
        return catalogue.catalogue_path(option)
    except catalogue.CatalogueError as exc:
        fail(str(exc))


def new_folder(out_dir: Path | None, name: str) -> tuple[Path, str]:
    """The results folder: ``--out`` (new, or an empty folder), else a new folder under the
    data folder's ``batches``. Returns it and how a message names it."""
    if out_dir is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            base = make_folder(data_folder() / "batches", "the results folder")
        except PathError as exc:
            fail(str(exc))
        out_dir = base / f"{stamp}-{name}"
        n = 1
        while out_dir.exists():
            n += 1
            out_dir = base / f"{stamp}-{name}-{n}"
        return out_dir, "the results folder"
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        fail(f"--out {out_dir}: is not a folder; name a new folder for the results.")
    if out_dir.is_dir():
        if any(out_dir.iterdir()):
            fail(
                f"--out {out_dir}: the folder is not empty; a batch never writes over results: "
                "name a new folder."
            )
        if not os.access(out_dir, os.W_OK | os.X_OK):
            fail(f"--out {out_dir}: the folder cannot be written.")
        return out_dir, "--out"
    parent = out_dir.parent
    if not parent.is_dir():
        fail(f"--out {out_dir}: the folder {parent} does not exist.")
    if not os.access(parent, os.W_OK | os.X_OK):
        fail(f"--out {out_dir}: the folder {parent} cannot be written.")
    return out_dir, "--out"


def check_catalogue(path: Path) -> None:
    try:
        catalogue.check(path)
    except catalogue.CatalogueError as exc:
        fail(str(exc))


def check_backend(backend: str, address: str | None) -> None:
    """``--backend`` and ``--address`` as given, before anything is made (exit 2)."""
    if backend not in backends.BACKENDS:
        fail(f"--backend {backend!r}: allowed: {', '.join(backends.BACKENDS)}.")
    if backend != "dask":
        if address is not None:
            fail("--address is for --backend dask.")
        return
    if address is None:
        fail("--backend dask needs --address tcp://HOST:PORT (the Dask scheduler).")
    try:
        backends.check_address(address)
    except backends.BackendError as exc:
        fail(str(exc))


@contextmanager
def backend_for(
    backend: str, workers: int | None, address: str | None
) -> Iterator[backends.Backend]:
    """The executor of ``--backend`` (checked: exit 2 on a bad choice or address)."""
    check_backend(backend, address)
    if backend == "dask":
        assert address is not None
        if workers is not None:
            warn("--workers is for the local backend; the Dask cluster decides: ignored.")
        try:
            with backends.dask(address) as chosen:
                yield chosen
        except backends.BackendError as exc:
            fail(str(exc))
        return
    with backends.local(workers or os.cpu_count() or 1) as chosen:
        yield chosen


# -- running --------------------------------------------------------------------------------


SWEEP_POINTS = 100
SWEEP_RUNS = 100_000
"""Above either, a sweep needs ``--yes`` (docs/analysis.md): a typo in a range should not
start hours of work without a word."""


def play_batch(spec: BatchSpec, chosen: backends.Backend, *, quiet: bool = False) -> float:
    """Run one batch into its folder (made if missing; inside a folder of
    :func:`writing_folder`, which removes everything if this fails) with a progress bar and
    write ``batch.json``; returns the seconds taken. Ctrl-C: nothing is kept."""
    spec.folder.mkdir(exist_ok=True)
    try:
        with (
            checkpoints() as check,
            progress(spec.runs, "runs", rate="runs", wanted=not quiet) as advance,
        ):
            elapsed = run_batch(spec, chosen, advance, check)
    except KeyboardInterrupt:
        interrupted("the batch stopped; its partial results were removed and nothing registered")
    except RunFailedError as exc:
        fail(
            f"{exc}. The batch stopped; its partial results were removed and nothing "
            "registered. Replay that run alone with `undercroft run` and --seed "
            f"{exc.seed}."
        )
    write_meta(spec, elapsed, chosen.name)
    return elapsed


def finish_batch(
    spec: BatchSpec, elapsed: float, backend_name: str
) -> list[tuple[Metric, Estimate]]:
    """The summary of a played batch, and its report (after the workers are gone)."""
    # The report and summary libraries (matplotlib, scipy, DuckDB) load here, after the
    # workers are gone, so that no worker process carries them.
    from undercroft.analysis import report
    from undercroft.analysis.summary import summarise

    plugin = spec.plugin
    estimates = summarise(spec.folder, plugin.metrics(spec.scenario))
    meta = {
        "runs": spec.runs,
        "seed": spec.seed,
        "command": spec.command,
        "seconds": elapsed,
        "backend": backend_name,
        "version": __version__,
    }
    report.write(spec.folder, plugin, spec.scenario, meta, estimates, distributions=DISTRIBUTIONS)
    return estimates


def print_summary(
    plugin: BatchRuleset,
    spec: BatchSpec,
    elapsed: float,
    estimates: Sequence[tuple[Metric, Estimate]],
    ident: int,
    exercised: exercise.ExerciseTable | None = None,
) -> None:
    for label, value in plugin.describe(spec.scenario):
        out.print(f"{label:12} {value}", markup=False)
    rate = spec.runs / elapsed if elapsed else math.inf
    out.print(f"{spec.runs:,} runs, seed {spec.seed}, {elapsed:,.1f} s ({rate:,.1f} runs/s)")
    out.print(estimates_table(estimates, "Results"))
    if exercised is not None:
        print_exercise(exercised)
    out.print(f"Report:  {spec.folder / REPORT}", markup=False)
    out.print(f"Results: {spec.folder}/*.parquet (catalogue id {ident})", markup=False)
    out.print(
        f"Replay run 0 alone: {plugin.replay_command(spec.scenario, run_seed(spec.seed, 0))}",
        markup=False,
        soft_wrap=True,
    )


def rule_exercise(spec: BatchSpec) -> exercise.ExerciseTable | None:
    """The rule-exercise table of a played batch, if its ruleset writes a ``rules`` table
    (crawl does)."""
    prefix = exercise.PREFIXES.get(spec.ruleset)
    if prefix is None or "rules" not in spec.plugin.tables(spec.scenario):
        return None
    with views(spec.folder, ["rules"]) as query:
        totals = exercise.totals_from(query)
    return exercise.tabulate(totals, spec.runs, exercise.catalogue_titles(), prefix)


def print_exercise(exercised: exercise.ExerciseTable) -> None:
    """Which rules the runs played, and the rules of the catalogue none of them did."""
    table = Table("rule", "title", "events/game", "share of games", title="Rules exercised")
    for row in exercised.rows:
        table.add_row(
            row.rule,
            row.title,
            exercise.per_game_text(row.per_game),
            exercise.share_text(row.share),
        )
    out.print(table)
    flag = exercised.flag()
    if not exercised.catalogue:
        out.print(exercise.NO_CATALOGUE, markup=False)
    elif flag is not None:
        out.print(flag, style="bold yellow", markup=False, soft_wrap=True)


def command_line(words: Sequence[tuple[str, Any]], head: str) -> str:
    """The command as it would be typed again (options with their values)."""
    parts = [head]
    for option, value in words:
        if value is None or value is False or value == []:
            continue
        if isinstance(value, list):
            parts.extend(f"{option} {shlex.quote(str(v))}" for v in value)
        elif value is True:
            parts.append(option)
        else:
            parts.append(f"{option} {shlex.quote(str(value))}")
    return " ".join(parts)


def batch(
    ruleset: str,
    target: str,
    runs: int,
    workers: int | None,
    seed: int,
    policy: str,
    dm: str,
    party: str | None,
    days: int | None,
    sets: list[str] | None,
    out_dir: Path | None,
    backend: str,
    address: str | None,
    catalogue_file: Path | None,
    pack: Path | None,
    quiet: bool,
) -> None:
    """Play N seeded games, stream one row per run to Parquet, print the results with 95%
    intervals and write DIR/report.html."""
    plugin = check_ruleset(ruleset, days)
    check_backend(backend, address)
    scenario = scenario_for(ruleset, target, days, sets, (party, policy, dm, pack))
    where = _catalogue(catalogue_file)
    check_catalogue(where)
    folder, named = new_folder(out_dir, f"{ruleset}-{scenario.adventure}")
    command = command_line(
        [
            ("--runs", runs),
            ("--seed", seed),
            *scenario_words(ruleset, scenario, pack),
            ("--set", [s.text for s in scenario.settings]),
        ],
        f"undercroft batch {ruleset} {shlex.quote(target)}",
    )
    # The batch grows in a hidden sibling of its folder, renamed into place when its
    # tables, batch.json and report are all written (a full disk leaves nothing: exit 2).
    with writing_folder(named, folder) as building:
        spec = BatchSpec(ruleset, scenario, runs, seed, building, command)
        with backend_for(backend, workers, address) as chosen:
            elapsed = play_batch(spec, chosen, quiet=quiet)
            name = chosen.name
        estimates = finish_batch(spec, elapsed, name)
    spec = dataclasses.replace(spec, folder=folder)
    try:
        ident = register_batch(where, spec, estimates)
    except catalogue.CatalogueError as exc:
        warn(f"the results are in {folder}, but the catalogue could not register them: {exc}")
        ident = -1
    if quiet:
        out.print(estimates_table(estimates))
        return
    print_summary(plugin, spec, elapsed, estimates, ident, rule_exercise(spec))


def register_batch(
    where: Path,
    spec: BatchSpec,
    estimates: Sequence[tuple[Metric, Estimate]],
    parent: int | None = None,
) -> int:
    """Put a played batch in the catalogue; returns its id."""
    # DuckDB loads only in the process that registers (see finish_batch).
    from undercroft.analysis.summary import summary_json

    return catalogue.register(
        where,
        kind="batch",
        command=spec.command,
        folder=spec.folder,
        ruleset=spec.ruleset,
        target=getattr(spec.scenario, "adventure", None),
        runs=spec.runs,
        seed=spec.seed,
        parent=parent,
        summary=summary_json(estimates),
    )


def estimates_table(estimates: Sequence[tuple[Metric, Estimate]], title: str = "") -> Table:
    table = Table("metric", "value", "95% interval", "caution", title=title or None)
    for metric, est in estimates:
        table.add_row(metric.label, *shown(metric, est), caution(metric, est))
    return table


def sweep(
    ruleset: str,
    target: str,
    runs: int,
    workers: int | None,
    seed: int,
    policy: str,
    dm: str,
    party: str | None,
    sets: list[str] | None,
    out_dir: Path | None,
    backend: str,
    address: str | None,
    catalogue_file: Path | None,
    pack: Path | None,
    days: int | None = None,
    *,
    yes: bool = False,
) -> None:
    """The grid of batches over the values of ``--set`` keys, and one report."""
    plugin = check_ruleset(ruleset, days)
    check_backend(backend, address)
    parse = keep_settings.parse if ruleset == "keep" else crawl_settings.parse
    try:
        fixed, keys, points = sweep_grid.grid(sets or [], parse)
    except SettingError as exc:
        fail(str(exc))
    total = len(points) * runs
    if (len(points) > SWEEP_POINTS or total > SWEEP_RUNS) and not yes:
        fail(
            f"this sweep is {len(points):,} points of {runs:,} runs: {total:,} runs in all, "
            f"over the {SWEEP_POINTS} points or {SWEEP_RUNS:,} runs a sweep starts without "
            "asking; add --yes to start it, or sweep fewer values."
        )
    print(f"sweep: {len(points):,} points of {runs:,} runs, {total:,} runs in all", file=sys.stderr)
    # Every point is checked (each value, and the content it makes) before any run.
    crawl = (party, policy, dm, pack)
    scenarios = [scenario_for(ruleset, target, days, fixed + p.sets, crawl) for p in points]
    idle = reach.idle_keys(scenarios, keys)
    for key, why in idle:
        warn(f"--set {key}: changes nothing these games play ({why}); points that "
             "differ only in it play the same games.")  # fmt: skip
    where = _catalogue(catalogue_file)
    check_catalogue(where)
    folder, named = new_folder(out_dir, f"sweep-{scenarios[0].adventure}")
    command = command_line(
        [
            ("--runs", runs),
            ("--seed", seed),
            *scenario_words(ruleset, scenarios[0], pack),
            ("--set", list(sets or [])),
        ],
        f"undercroft sweep {ruleset} {shlex.quote(target)}",
    )
    # The whole sweep grows in a hidden sibling of its folder and is renamed into place
    # when every point and the report are written: Ctrl-C, a run that failed or a full
    # disk removes the points already played too, and nothing is registered.
    with writing_folder(named, folder) as building:
        specs = [
            BatchSpec(ruleset, sc, runs, seed, building / p.name, f"{command}  # {p.label(keys)}")
            for p, sc in zip(points, scenarios, strict=True)
        ]
        times = []
        with backend_for(backend, workers, address) as chosen:
            for p, spec in zip(points, specs, strict=True):
                # With the progress on stderr: stdout holds the sweep's results only, so
                # a sweep that fails (a full disk, a policy's bug) has printed none.
                print(f"{p.name}: {p.label(keys)}", file=sys.stderr)
                times.append(play_batch(spec, chosen))
            name = chosen.name
        results = [finish_batch(spec, t, name) for spec, t in zip(specs, times, strict=True)]
        # matplotlib loads only once every batch of the sweep is played (see finish_batch).
        from undercroft.analysis import sweep_report

        lines = [
            *plugin.describe(scenarios[0])[:-1],
            ("swept", ", ".join(keys)),
            ("fixed", ", ".join(fixed) or "–"),
            ("runs per point", f"{runs:,}"),
            ("batch seed", str(seed)),
            ("command", command),
        ]
        sweep_report.write_report(
            building, scenarios[0].adventure, keys, points, results, lines, idle=idle
        )
    path = folder / REPORT
    specs = [dataclasses.replace(spec, folder=folder / spec.folder.name) for spec in specs]
    try:
        parent = catalogue.register(
            where,
            kind="sweep",
            command=command,
            folder=folder,
            ruleset=ruleset,
            target=scenarios[0].adventure,
            runs=runs * len(points),
            seed=seed,
            summary={p.name: p.label(keys) for p in points},
        )
        for spec, estimates in zip(specs, results, strict=True):
            register_batch(where, spec, estimates, parent)
    except catalogue.CatalogueError as exc:
        warn(f"the results are in {folder}, but the catalogue could not register them: {exc}")
        parent = -1
    table = Table("point", *keys, *(m.column for m, _ in results[0][:4]), title="Sweep")
    for p, estimates in zip(points, results, strict=True):
        table.add_row(
            p.name, *(v for _, v in p.values), *(shown(m, e)[0] for m, e in estimates[:4])
        )
    out.print(table)
    out.print(f"Report:  {path}  (catalogue id {parent})", markup=False)


def compare(a: Path, b: Path, out_dir: Path | None, catalogue_file: Path | None) -> None:
    """Two batch folders side by side, a test per metric."""
    # scipy and matplotlib load only when a comparison is asked for.
    from undercroft.analysis import compare as comparing

    if same_file(a, b):
        fail(f"DIR_A {a} and DIR_B {b} are one folder: compare two different batches.")
    metas = []
    for option, given in (("DIR_A", a), ("DIR_B", b)):
        try:
            metas.append(read_meta(given))
        except ValueError as exc:
            fail(f"{option} {exc}; give two folders written by `undercroft batch`.")
    if metas[0]["ruleset"] != metas[1]["ruleset"]:
        fail(f"{a} is a {metas[0]['ruleset']} batch and {b} a {metas[1]['ruleset']} one.")
    plugin = ruleset_named(str(metas[0]["ruleset"]))
    try:
        scenario_a = plugin.from_json(metas[0]["scenario"])
        scenario_b = plugin.from_json(metas[1]["scenario"])
        metrics_b = {m.column for m in plugin.metrics(scenario_b)}
        metrics = [m for m in plugin.metrics(scenario_a) if m.column in metrics_b]
    except (KeyError, TypeError, ValueError) as exc:
        fail(f"{a} or {b}: batch.json does not describe a batch this undercroft reads ({exc}).")
    where = _catalogue(catalogue_file)
    check_catalogue(where)
    target: Path | None = None
    if out_dir is not None:
        target, _ = new_folder(out_dir, "compare")
    rows = comparing.compare(a, b, metrics)
    diff = comparing.differences(
        {**plugin.to_json(scenario_a), "runs": metas[0]["runs"], "seed": metas[0]["seed"]},
        {**plugin.to_json(scenario_b), "runs": metas[1]["runs"], "seed": metas[1]["seed"]},
    )
    runs = (int(metas[0]["runs"]), int(metas[1]["runs"]))
    report: Path | None = None
    if target is not None:
        # The report is written before anything is printed, so that a refusal (a full disk:
        # exit 2) prints no half answer; its folder appears only once the report is whole.
        with writing_folder("--out", target) as building:
            report = target / comparing.write_report(building, a, b, rows, diff, runs).name
    out.print(
        f"A: {a} ({metas[0]['runs']:,} runs)\nB: {b} ({metas[1]['runs']:,} runs)", markup=False
    )
    for field, va, vb in diff:
        out.print(f"  {field}: A {va}  B {vb}", markup=False)
    table = Table(*comparing.HEADERS, title="B against A")
    for row in rows:
        table.add_row(*comparing.cells(row))
    out.print(table)
    out.print(comparing.pairing_note(rows), markup=False, soft_wrap=True)
    out.print(comparing.headline(rows, runs), markup=False, soft_wrap=True)
    if report is not None:
        out.print(f"Report: {report}", markup=False)
    command = command_line(
        [("--out", out_dir)], f"undercroft compare {shlex.quote(str(a))} {shlex.quote(str(b))}"
    )
    try:
        ident = catalogue.register(
            where,
            kind="compare",
            command=command,
            folder=target,
            ruleset=str(metas[0]["ruleset"]),
            summary=comparing.summary_json(rows),
        )
        out.print(f"Registered as catalogue id {ident}.")
    except catalogue.CatalogueError as exc:
        warn(f"the comparison could not be registered: {exc}")


def results_list(catalogue_file: Path | None) -> None:
    try:
        found = catalogue.entries(_catalogue(catalogue_file))
    except catalogue.CatalogueError as exc:
        fail(str(exc))
    table = Table("id", "kind", "created", "runs", "folder", "command", title="Results")
    for e in found:
        runs = "" if e.runs is None else f"{e.runs:,}"
        table.add_row(str(e.id), e.kind, e.created, runs, e.folder or "–", e.command)
    out.print(table)


def results_show(ident: int, catalogue_file: Path | None) -> None:
    where = _catalogue(catalogue_file)
    try:
        e = catalogue.entry(where, ident)
        points = [x for x in catalogue.entries(where) if x.parent == ident]
    except catalogue.CatalogueError as exc:
        fail(str(exc))
    out.print(f"[bold]{e.kind} {e.id}[/bold] {e.created}", highlight=False)
    out.print(f"command: {e.command}", markup=False, soft_wrap=True)
    out.print(f"folder:  {e.folder or '–'}", markup=False)
    if e.kind == "batch" and isinstance(e.summary, dict):
        table = Table("metric", "value", "95% interval")
        for column, s in e.summary.items():
            metric = Metric(column, s["kind"], column)
            est = Estimate(_num(s["value"]), _num(s["low"]), _num(s["high"]), int(s["n"]))
            table.add_row(column, *shown(metric, est))
        out.print(table)
    elif e.kind == "compare" and isinstance(e.summary, dict):
        table = Table("metric", "A", "B", "B - A", "p", "p (Holm)", "runs needed")
        for column, s in e.summary.items():
            table.add_row(
                column,
                *(f"{_num(s[k]):.4g}" for k in ("a", "b", "difference", "p", "p_holm")),
                "no difference" if s["needed"] is None else f"{int(s['needed']):,}",
            )
        out.print(table)
    for p in points:
        out.print(f"  batch {p.id}: {p.command.split('# ')[-1]}  {p.folder}", markup=False)
    if e.folder:
        out.print(f"report:  {Path(e.folder) / REPORT}", markup=False)


def _num(value: Any) -> float:
    return math.nan if value is None else float(value)


def results_sql(
    sql: str, catalogue_file: Path | None, csv: bool, *, limit: int, out_file: Path | None
) -> None:
    where = _catalogue(catalogue_file)
    try:
        if out_file is not None:
            count = catalogue.export(where, sql, out_file)
            print(f"wrote {count} rows to {out_file}", file=sys.stderr)
            return
        answer = catalogue.query(where, sql, limit)
    except catalogue.CatalogueError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"--out {out_file}: {write_failure(exc)}; nothing was written.")
    more = f"(the first {limit} rows; more not shown: --limit N, or --out FILE.parquet|csv)"
    if csv:
        writer = csv_module.writer(sys.stdout)
        writer.writerow(answer.columns)
        writer.writerows(answer.rows)
        if answer.more:
            print(more, file=sys.stderr)
        return
    table = Table(*answer.columns)
    for row in answer.rows:
        table.add_row(*("NULL" if v is None else escape(str(v)) for v in row))
    out.print(table)
    if answer.more:
        print(more, file=sys.stderr)
