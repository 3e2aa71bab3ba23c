"""What every ``undercroft`` command shares: how it refuses, warns, stops and shows progress.

* :func:`fail` - a user mistake: one paragraph on stderr naming the file, line and field
  or the option, and exit 2. Never a traceback.
* :func:`warn` - something the command ignores or doubts, said on stderr; it goes on.
* :func:`interrupted` and :func:`interruptible` - Ctrl-C: say so, leave no half-written
  file, exit 130.
* :func:`check_paths` - the files a command reads and writes, checked before it starts
  (:mod:`undercroft.core.files`); :func:`writing` - exit 2 if writing one fails anyway
  (a full disk: "no space left"); :func:`writing_folder` - the same for a folder of
  results, which appears only when complete.
* :func:`progress` - a progress bar for long runs, on stderr and only on a terminal, so
  an account piped from stdout stays clean.
* :func:`checkpoints` - Ctrl-C during a long loop stops it at the next step boundary.
* :class:`Output` - standard output for accounts and tables: as wide as the terminal, or
  wide enough when piped or redirected that a table keeps whole lines.
"""

from __future__ import annotations

import functools
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from undercroft.core.files import (
    Named,
    PathError,
    atomic_folder,
    check_input,
    check_outputs,
    write_failure,
)

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130

err = Console(stderr=True, emoji=False)  # user text: `a:b:c` is no emoji code

PIPED_WIDTH = 200
"""Columns of :class:`Output` when it is not a terminal and ``COLUMNS`` does not say."""


class Output(Console):
    """A console for standard output that, when piped or redirected, is wide enough
    (:data:`PIPED_WIDTH`) for a table to keep whole lines instead of rich's 80 columns;
    on a terminal, or with ``COLUMNS`` or an explicit ``width``, exactly as rich sizes it.
    Emoji codes are off: names and ids the user gave (``a:b:c``) print as typed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)  # type: ignore[attr-defined]
        assert isinstance(size, ConsoleDimensions)
        if self._width is None and not self.is_terminal and "COLUMNS" not in self._environ:
            return ConsoleDimensions(max(size.width, PIPED_WIDTH), size.height)
        return size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str) -> NoReturn:
    """Report a user mistake in one paragraph and exit 2."""
    # The message repeats what the user typed: printed as text, never as rich markup.
    err.print(f"[bold red]error:[/bold red] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_USER_ERROR)


def warn(message: str) -> None:
    """Say what the command ignores or doubts, and go on."""
    err.print(f"[yellow]warning:[/yellow] {escape(message)}", highlight=False, soft_wrap=True)


def interrupted(note: str = "nothing was written") -> NoReturn:
    """Ctrl-C: say what became of the outputs, exit 130."""
    err.print(f"interrupted: {escape(note)}.", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_INTERRUPTED)


def interruptible(command: Callable[P, R]) -> Callable[P, R]:
    """A command that answers Ctrl-C with a message and exit 130 (commands with files to
    clean up catch the interrupt themselves first and say what they removed)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            interrupted()

    return run


def check_paths(
    outputs: Named = (), inputs: Named = (), *, streamed: tuple[str, ...] = (), uses: Named = ()
) -> None:
    """Exit 2 unless every input is a readable file and every output can be written (not
    over an input or a file the command ``uses``, not one file for two outputs), before
    any work starts. ``uses``: paths the command opens itself (a database)."""
    try:
        for option, path in inputs:
            if path is not None:
                check_input(path, option)
        check_outputs(outputs, [*inputs, *uses], streamed=streamed)
    except PathError as exc:
        fail(str(exc))


def writing(option: str, path: Path, write: Callable[[], R]) -> R:
    """``write()``, or exit 2 naming ``option`` and ``path`` if the file cannot be written
    (a path checked before the run that changed since, a full disk)."""
    try:
        return write()
    except PathError as exc:
        fail(f"{option} {path}: {exc.reason}.")
    except OSError as exc:
        fail(f"{option} {path}: {write_failure(exc)}.")


@contextmanager
def writing_folder(option: str, path: Path) -> Iterator[Path]:
    """A hidden folder beside ``path`` to write a folder of results into; it becomes
    ``path`` when the block ends (:func:`undercroft.core.files.atomic_folder`). If writing
    fails (a full disk) it is removed and the command exits 2 naming ``option`` and
    ``path``; on any other failure or Ctrl-C it is removed too, and nothing is left."""
    try:
        with atomic_folder(path) as tmp:
            yield tmp
    except PathError as exc:
        fail(f"{option} {path}: {exc.reason}; nothing was written.")
    except OSError as exc:
        fail(f"{option} {path}: {write_failure(exc)}; nothing was written.")


class RateColumn(ProgressColumn):
    """Steps per second, e.g. ``52.3 runs/s`` (blank until there is a rate)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} {self.unit}/s", style="cyan")


@contextmanager
def progress(
    total: int, what: str, *, wanted: bool = True, rate: str | None = None
) -> Iterator[Callable[..., None]]:
    """A bar counting ``total`` steps of ``what``; yields the function that advances it
    (by one step, or by ``n``). ``rate`` names the steps to show their rate
    (``runs`` -> ``52.3 runs/s``).

    Shown on stderr when stderr is a terminal (and ``wanted``: a command whose own lines
    already show progress on the same terminal leaves it out), gone when done. When
    stderr is not a terminal (a log file, CI, a pipe), a plain line every 5% instead:
    ``runs: 150/3,000 (5%), 52.3/s, about 55 s left``.
    """
    if wanted and not err.is_terminal:
        with _plain_progress(total, what) as advance:
            yield advance
        return
    columns: list[ProgressColumn] = [TextColumn(what), BarColumn(), MofNCompleteColumn()]
    if rate is not None:
        columns.append(RateColumn(rate))
    bar = Progress(
        *columns,
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not (wanted and err.is_terminal),
    )
    task = bar.add_task(what, total=total)
    with bar:
        yield lambda n=1: bar.advance(task, n)


@contextmanager
def _plain_progress(total: int, what: str) -> Iterator[Callable[..., None]]:
    """:func:`progress` for a stderr that is not a terminal: a line each 5% of ``total``."""
    start = time.monotonic()
    done = [0, 0]  # steps done, the last twentieth reported

    def advance(n: int = 1) -> None:
        done[0] += n
        twentieth = done[0] * 20 // max(total, 1)
        if twentieth <= done[1]:
            return
        done[1] = twentieth
        elapsed = time.monotonic() - start
        rate = done[0] / elapsed if elapsed > 0 else 0.0
        left = (total - done[0]) / rate if rate > 0 else 0.0
        tail = f", about {left:,.0f} s left" if done[0] < total else f", in {elapsed:,.1f} s"
        print(
            f"{what}: {done[0]:,}/{total:,} ({100 * done[0] // max(total, 1)}%), "
            f"{rate:,.1f}/s{tail}",
            file=sys.stderr,
            flush=True,
        )

    yield advance


@contextmanager
def checkpoints() -> Iterator[Callable[[], None]]:
    """Ctrl-C in a long loop: yields ``check()``, which the loop calls between steps and
    which raises :class:`KeyboardInterrupt` once Ctrl-C was pressed (a second Ctrl-C
    raises at once).

    The first Ctrl-C only sets a flag: a :class:`KeyboardInterrupt` raised by Python's
    default handler in the middle of a write to a full pipe was seen to vanish, leaving
    the run going; a flag cannot be lost. Outside the main thread (no signal handlers
    there) ``check()`` does nothing and Ctrl-C behaves as usual.
    """
    pressed: list[bool] = []

    def check() -> None:
        if pressed:
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return

    def on_ctrl_c(signum: int, frame: object) -> None:
        if pressed:
            raise KeyboardInterrupt
        pressed.append(True)

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)
