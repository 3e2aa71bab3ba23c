"""Commands imported only when they run, so ``undercroft --version`` and ``--help`` start fast.

Each part of undercroft keeps its commands beside its engine (``crawl.cli``,
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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer import _click as click  # typer's own click, whose classes its groups use
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class Lazy:
    """A command of a :class:`LazyGroup`: ``target`` is ``"module:attribute"``, a typer
    command function or a :class:`typer.Typer` of subcommands."""

    name: str
    target: str
    summary: str


def load(entry: Lazy) -> click.Command:
    """Import ``entry``'s module and build its click command (a group for a Typer)."""
    module_name, _, attribute = entry.target.partition(":")
    found = getattr(importlib.import_module(module_name), attribute)
    command: click.Command
    if isinstance(found, typer.Typer):
        command = typer.main.get_group(found)
    else:
        holder = typer.Typer()
        holder.command(entry.name)(found)
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
