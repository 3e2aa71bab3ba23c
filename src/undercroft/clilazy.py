"""Commands imported only when they run, so ``undercroft --version`` and ``--help`` start fast.

Each part of undercroft keeps its commands beside its engine (``crawl.app.cli``,
``keep.cli``, ``analysis.cli``, ``web.cli``...), and those modules import the engine,
its content schemas and its libraries at the top: loading every one of them costs most
of a second, which ``undercroft --version`` would pay for nothing. A :class:`LazyGroup`
lists its commands from a table of :class:`Lazy` entries (name, where the command lives,
a one-line summary for the group's help) and imports a command's module only when that
command runs or its own ``--help`` is asked for. ``tests/test_cli_startup.py`` checks
that every summary still opens its command's own help, so the two cannot drift apart.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer import _click as click  # typer's own click, whose classes its groups use
from typer.core import TyperCommand, TyperGroup

HELP_WIDTH = 120
"""Columns of typer's help (and usage errors) when standard output is not a terminal and
neither ``TERMINAL_WIDTH`` (typer's) nor ``COLUMNS`` says: at rich's default of 80 the
option table cut ``[0<=x<=18446744073709551615]`` in two, and at 100 it cropped the
examples of ``run keep --set``."""


def size_help_for_pipes() -> None:
    """Lay typer's help out :data:`HELP_WIDTH` wide when it goes to a pipe or a file.
    typer reads ``TERMINAL_WIDTH`` when it first formats help (its rich_utils loads then,
    not at start), so the variable is set; if it is loaded already, its width is set too."""
    stdout = sys.stdout
    if stdout is None or stdout.isatty() or {"TERMINAL_WIDTH", "COLUMNS"} & set(os.environ):
        return
    os.environ["TERMINAL_WIDTH"] = str(HELP_WIDTH)
    loaded = sys.modules.get("typer.rich_utils")
    if loaded is not None and getattr(loaded, "MAX_WIDTH", None) is None:
        setattr(loaded, "MAX_WIDTH", HELP_WIDTH)  # noqa: B010 (typer's module global)


@dataclass(frozen=True)
class Lazy:
    """A command of a :class:`LazyGroup`: ``target`` is ``"module:attribute"``, a typer
    command function or a :class:`typer.Typer` of subcommands."""

    name: str
    target: str
    summary: str
    command_class: str = ""
    """The command's class, an attribute of the target's module (default: typer's)."""


def load(entry: Lazy) -> click.Command:
    """Import ``entry``'s module and build its click command (a group for a Typer)."""
    module_name, _, attribute = entry.target.partition(":")
    module = importlib.import_module(module_name)
    found = getattr(module, attribute)
    command: click.Command
    if isinstance(found, typer.Typer):
        command = typer.main.get_group(found)
    else:
        holder = typer.Typer()
        kind = getattr(module, entry.command_class) if entry.command_class else None
        holder.command(entry.name, cls=kind)(found)
        command = typer.main.get_command(holder)
    command.name = entry.name
    return command


class LazyGroup(TyperGroup):
    """A typer group whose commands are :class:`Lazy` entries of :attr:`lazy`."""

    lazy: ClassVar[Sequence[Lazy]] = ()

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        # While the group prints its own help it lists summaries, importing nothing.
        self._listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = [entry.name for entry in self.lazy]
        return names + [name for name in self.commands if name not in names]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = self.commands.get(cmd_name)
        if found is not None:
            return found
        entry = next((e for e in self.lazy if e.name == cmd_name), None)
        if entry is None:
            return None
        if self._listing:
            return TyperCommand(entry.name, help=entry.summary, short_help=entry.summary)
        command = load(entry)
        self.commands[cmd_name] = command
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        # typer suggests only among the commands already loaded: suggest among all.
        name = args[0] if args else ""
        quiet = ctx.resilient_parsing or name.startswith("-")
        if name and not quiet and self.get_command(ctx, name) is None:
            close = difflib.get_close_matches(name, self.list_commands(ctx))
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint}")
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
