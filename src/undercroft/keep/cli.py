"""``undercroft run keep``: run a keep scenario day by day and report the workload.

Prints one line a day (rearms, fumbles, traps fired, Traps-job minion hours, ...) and a
summary (the same numbers as the log's last line, see docs/keep.md). Mistakes in the
arguments or the scenario exit 2 with a message naming the file, line and key.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from undercroft.clikit import (
    Output,
    check_paths,
    checkpoints,
    err,
    fail,
    interrupted,
    interruptible,
    progress,
    warn,
    writing,
)
from undercroft.core.content import ContentError
from undercroft.core.events import StreamingLog
from undercroft.core.files import write_failure
from undercroft.core.settings import SettingError
from undercroft.keep.content import settings
from undercroft.keep.content.calendar import MAX_DAYS
from undercroft.keep.rules import director, learning
from undercroft.keep.save import SaveError, load_world, save_world
from undercroft.keep.scenario import build_world
from undercroft.keep.state.invaders import Adventurer
from undercroft.render.keep_account import InvasionAccount, TeeLog

if TYPE_CHECKING:
    from undercroft.keep.state.world import World

out = Output()


@interruptible
def run_keep(
    scenario: Annotated[
        str | None,
        typer.Option(
            help="A shipped scenario name (undercroft list scenarios) or a TOML path "
            "(default: trapworks)."
        ),
    ] = None,
    days: Annotated[
        int | None,
        typer.Option(
            min=1, max=MAX_DAYS, help=f"Days to run, 1 to {MAX_DAYS:,} (default: the scenario's)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(min=0, max=2**64 - 1, help="The run seed (same seed, same log; default 0)."),
    ] = None,
    log: Annotated[
        Path | None, typer.Option(help="Write the event log (JSON Lines) to this file.")
    ] = None,
    invasions: Annotated[
        str | None,
        typer.Option(
            help="'on' or 'off' (default: the scenario's setting, on unless it says off)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the summary.")] = False,
    save: Annotated[
        Path | None, typer.Option(help="Save the world to this file when the run ends.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue a saved world instead of starting the scenario."),
    ] = None,
    inspect: Annotated[
        list[str] | None,
        typer.Option(help="At the end, show what this adventurer (adv:N-M) knows (repeatable)."),
    ] = None,
    explain: Annotated[
        bool, typer.Option(help="End every line of the invasion account with its rule IDs.")
    ] = False,
    sets: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Change a content or option value: options.trap_friendly_fire=false, "
            "mechanism.spinning_blades.power=7 (repeatable).",
        ),
    ] = None,
) -> None:
    """Run a keep scenario: a day-by-day account and a summary of the workload."""
    if quiet and explain:
        warn("--explain shows the rule IDs of the account, which --quiet leaves out: ignored.")
    options = _invasion_options(invasions, resume)
    if invasions is not None and any(
        item.split("=", 1)[0].strip() in ("options.invasions", "keep.options.invasions")
        for item in sets or []
    ):
        fail(
            "--invasions and --set options.invasions both say whether invasions come: give "
            "one of them."
        )
    _check_inspect(inspect or [])
    if resume is not None:
        given = [f"{name} {value}" for name, value in (("--scenario", scenario), ("--seed", seed),
                 ("--set", " ".join(sets or []) or None)) if value is not None]  # fmt: skip
        if given:
            fail(
                f"--resume {resume} continues the saved world, with the scenario and seed it "
                f"was started with; {' and '.join(given)} cannot change them: leave "
                f"{'them' if len(given) > 1 else 'it'} out."
            )
    scenario_file = Path(scenario) if scenario and scenario.endswith(".toml") else None
    check_paths(
        [("--log", log), ("--save", save)],
        [("--resume", resume), ("--scenario", scenario_file)],
        streamed=("--log",),
    )
    world = open_world(scenario or "trapworks", seed or 0, resume, options, sets or [])
    total = days if days is not None else world.scenario_days
    if not 1 <= total <= MAX_DAYS:
        fail(f"the scenario's days = {total}: a run is 1 to {MAX_DAYS:,} days.")
    sink: object = None
    written: list[str] = []
    try:
        sink = _open_log(world, log)
        account = _attach_account(world, explain)
        _run_days(world, total, quiet, account)
        missing = _not_came(world, inspect or [])
        if missing is not None:
            # Refused before a file is finished: a refused run leaves nothing behind.
            if isinstance(sink, StreamingLog):
                sink.discard()
            fail(
                f"--inspect {missing}: no adventurer with that id came in this run (of "
                "those who left, the last 100 invasions' are kept); nothing was written."
            )
        summary = world.close_log()
        if log is not None:
            written.append(f"the log {log}")
        if save is not None:
            writing("--save", save, lambda: save_world(world, save))
    except KeyboardInterrupt:
        if isinstance(sink, StreamingLog):
            sink.discard()
        done = f"{' and '.join(written)} was written" if written else "nothing was written"
        interrupted(f"stopped on day {(world.now // 1440) + 1}; {done}")
    except OSError as exc:
        # The log streams to LOG.partial during the run: a full disk stops it there.
        if isinstance(sink, StreamingLog):
            sink.discard()
        fail(f"--log {log}: {write_failure(exc)}; nothing was written.")
    _print_summary(summary)
    _print_invasions(world, account, inspect or [])
    if log is not None and not quiet:
        out.print(f"log written to {log}", highlight=False)


def _open_log(world: World, log: Path | None) -> object:
    if log is None:
        return world.open_log()
    return writing("--log", log, lambda: world.open_log(log))


def _run_days(world: World, total: int, quiet: bool, account: InvasionAccount | None) -> None:
    """Run ``total`` days, a line each (unless ``quiet``) and a progress bar on a terminal;
    with invasions on, what they did that day under its line."""
    if not quiet:
        out.print(
            f"[bold]{world.scenario}[/bold] - seed {world.seed}, {total} day(s), "
            f"invasions {'on' if world.options.invasions else 'off'}",
            highlight=False,
        )
        out.print(_DAY_HEADER, highlight=False)
    # The day lines show progress on a terminal; the bar is for --quiet, or for an account
    # sent to a file while stderr stays on the terminal.
    with (
        progress(total, "days", wanted=quiet or not out.is_terminal) as advance,
        checkpoints() as check,
    ):
        for _ in range(total):
            check()
            world.run_days(1)
            day = (world.now // 1440) + 1
            if not quiet:
                out.print(_day_line(day, world.workload.day(day)), highlight=False)
                _print_day_account(world, account, day)
            advance()


def _invasion_options(invasions: str | None, resume: Path | None) -> dict[str, Any]:
    """``--invasions on|off`` as an options override (none: the scenario decides)."""
    if invasions is None:
        return {}
    if invasions not in ("on", "off"):
        fail(f"--invasions must be 'on' or 'off', not {invasions!r}.")
    if resume is not None:
        fail("--invasions cannot change a saved world (it keeps the options it was run with).")
    return {"invasions": invasions == "on"}


def open_world(
    scenario: str,
    seed: int,
    resume: Path | None,
    options: dict[str, Any] | None = None,
    sets: list[str] | None = None,
) -> World:
    """The scenario's world, or the saved one; mistakes exit 2 naming file and line (or
    the ``--set``)."""
    try:
        if resume is not None:
            return load_world(resume)
        chosen = [settings.parse(text) for text in sets or []]
        return build_world(scenario, seed=seed, options=options, settings=chosen)
    except SettingError as exc:
        fail(str(exc))
    except ContentError as exc:
        for problem in exc.problems:
            err.print(str(problem), highlight=False, soft_wrap=True, markup=False)
        fail(
            f"{len(exc.problems)} problem(s) in the scenario; each line above names "
            "file:line: key: what is wrong (and the allowed values where there is a list)."
        )
    except SaveError as exc:
        fail(str(exc))


_COLUMNS = (
    ("day", 4),
    ("rearms", 7),
    ("decay", 6),
    ("used", 5),
    ("fumbles", 8),
    ("fired", 6),
    ("built", 6),
    ("doors", 6),
    ("Traps-h", 8),
    ("Chores-h", 9),
    ("wait", 6),
)
_DAY_HEADER = "".join(f"{name:>{width}}" for name, width in _COLUMNS)


def _day_line(day: int, s: Any) -> str:
    """One day's numbers: rearms (after decay, after use), fumbles, traps fired, structures
    built, door movements, Traps-job and Chores-job minion-hours, mean wait in minutes."""
    wait = f"{s.wait_minutes / s.rearms:.0f}" if s.rearms else "-"
    values = (
        day,
        s.rearms,
        s.rearms_decay,
        s.rearms_used,
        s.fumbles,
        s.traps_fired,
        s.built,
        s.door_moves,
        f"{s.traps_job_minutes / 60:.1f}",
        f"{s.chores_job_minutes / 60:.1f}",
        wait,
    )
    return "".join(f"{v!s:>{w}}" for v, (_, w) in zip(values, _COLUMNS, strict=True))


_LABELS = {
    "days": "days",
    "traps": "traps",
    "parts_that_decay": "trap parts that decay (levers never do)",
    "traps_minions": "Traps-job minions",
    "rearms": "rearms",
    "rearms_per_day": "rearms per day",
    "rearms_decay": "  after decay (every 2 days)",
    "rearms_used": "  after use",
    "traps_job_minion_hours": "Traps-job minion-hours",
    "traps_job_minion_hours_per_day": "Traps-job minion-hours per day",
    "traps_job_utilisation": "Traps-job utilisation (share of their time)",
    "mean_wait_minutes": "mean wait from a part stopping to its rearm (min)",
    "max_wait_minutes": "longest wait (min)",
    "parts_rearmed": "parts rearmed at least once",
    "max_rearm_gap_hours": "longest time between two rearms of a part (h)",
    "fumbles": "fumbled rearms",
    "fumble_fires": "  that fired the trap",
    "tampered": "  that tampered the trigger",
    "traps_fired": "traps fired",
    "structures_built": "structures built",
    "commands": "keeper commands",
    "commands_refused": "  refused",
    "visitors": "visitors",
    "metal_left": "metal left",
    "invasions": "invasions",
    "adventurers": "adventurers who came",
    "escaped": "  who walked out alive",
    "dead": "  who died",
    "captured": "  captures made",
    "prisoners": "  prisoners held at the end",
    "wounds": "wounds (both sides, traps included)",
    "knocked_out": "knocked out (both sides)",
    "minions_dead": "your minions who died",
    "creatures_dead": "creatures who died",
    "master": "the Master",
    "master_died_day": "  died on day",
    "treasure_taken": "treasure carried off",
    "doors_forced": "doors picked or bashed open",
    "traps_set_off_by_adventurers": "traps set off by adventurers",
    "triggers_discovered": "triggers discovered",
    "indicator": "invasion indicator at the end",
}


def _print_summary(summary: dict[str, Any]) -> None:
    table = Table(title="Summary", show_header=False, show_edge=False, pad_edge=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for key, label in _LABELS.items():
        if summary.get(key) is not None:
            table.add_row(label, str(summary[key]))
    out.print(table)


# -- invasions: the day-by-day account, the summary per invasion, one adventurer's view --------


def _check_inspect(inspect: list[str]) -> None:
    for adv_id in inspect:
        if not re.fullmatch(r"adv:\d+-\d+", adv_id):
            fail(f"--inspect {adv_id!r}: an adventurer is named adv:N-M (invasion N, member M).")


def _attach_account(world: World, explain: bool = False) -> InvasionAccount | None:
    """With invasions on, the account reads the events as they are logged."""
    if not world.options.invasions:
        return None
    account = InvasionAccount(explain=explain)
    world.attach_log(TeeLog(world.log, account))
    return account


def _print_day_account(world: World, account: InvasionAccount | None, day: int) -> None:
    if account is None:
        return
    for line in account.day_lines(day):
        out.print(f"      {line}", highlight=False, markup=False, soft_wrap=True)
    shown = director.indicator(world)
    if account.day_lines(day) or day == 1:
        out.print(f"      indicator: {shown.word} ({shown.percent:g}% this hour)", highlight=False)


def _print_invasions(world: World, account: InvasionAccount | None, inspect: list[str]) -> None:
    if account is not None and account.invasions:
        rows = account.summary_rows()
        table = Table(title="Invasions", show_edge=False, pad_edge=False, box=None)
        for key in rows[0]:
            table.add_column(key, justify="left" if key in ("kind", "goal", "outcome") else "right")
        for row in rows:
            table.add_row(*(str(v) for v in row.values()))
        out.print(table)
    for adv_id in inspect:
        found = _adventurer(world, adv_id)
        assert found is not None  # _not_came checked it before the files
        _print_view(learning.view(world, found))


def _adventurer(world: World, adv_id: str) -> Adventurer | None:
    """The adventurer ``adv_id`` of this run, on the map or gone, if one came."""
    found = world.beings.get(adv_id) or world.departed.get(adv_id)
    return found if isinstance(found, Adventurer) else None


def _not_came(world: World, inspect: list[str]) -> str | None:
    """The first ``--inspect`` id no adventurer of this run had, if any."""
    return next((a for a in inspect if _adventurer(world, a) is None), None)


def _print_view(view: dict[str, Any]) -> None:
    """K-LEARN-07: what one adventurer knows and its bonuses."""
    out.print(
        f"[bold]{view['id']}[/bold] {view['class']} level {view['level']} "
        f"({', '.join(view['traits']) or 'no traits'}), {view['where']} at {view['at']}",
        highlight=False,
    )
    for known in view["knows"]:
        out.print(
            f"  knows {known['trigger']} ({known['kind']}) at {known['at']}: {known['how']}",
            highlight=False,
        )
    detect = ", ".join(f"{k} +{v}" for k, v in view["detect"].items()) or "none"
    block = ", ".join(f"{k} +{v}" for k, v in view["block"].items()) or "none"
    out.print(
        f"  to discover: {detect}; Block: {block}; Caution: +{view['caution']}", highlight=False
    )
    if view["note"]:
        out.print(f"  {view['note']}", highlight=False)
