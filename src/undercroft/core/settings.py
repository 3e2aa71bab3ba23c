"""One ``--set key=value`` of a run, batch or sweep, whatever the ruleset.

The crawl (:mod:`undercroft.crawl.settings`) and the keep (:mod:`undercroft.keep.content.settings`)
say which keys exist and check the values against their content schemas; the shape of a
setting, reading its value as TOML and splitting a sweep's values are shared here.
"""

from __future__ import annotations

import shlex
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class SettingError(ValueError):
    """A ``--set`` that cannot be used; the message names it and what is allowed."""


@dataclass(frozen=True)
class Setting:
    """One ``key=value``, with the value read as TOML."""

    key: str
    value: Any = field(compare=False)
    """The value read as TOML (a list is not hashable: settings compare by their text)."""
    text: str = ""
    """As the user wrote it, for messages and commands to replay."""

    @property
    def parts(self) -> tuple[str, ...]:
        return tuple(self.key.split("."))

    @property
    def table(self) -> str:
        return self.parts[0]

    @property
    def field(self) -> str:
        return self.parts[-1]

    @property
    def card(self) -> str | None:
        """The card or adventure id (``None`` for an option)."""
        return None if self.table == "options" else self.parts[1]


def split(text: str, tables: Sequence[str], example: str) -> tuple[list[str], Any]:
    """``key=value``: the key's parts (its first part one of ``tables``) and the value read
    as TOML; ``example`` is shown when the text is not KEY=VALUE."""
    key, equals, value = text.partition("=")
    key = key.strip()
    if not equals or not key or not value.strip():
        raise SettingError(f"--set {text}: write KEY=VALUE, for example {example}")
    parts = key.split(".")
    if parts[0] not in tables:
        raise SettingError(f"--set {text}: unknown key {parts[0]!r} (allowed: {', '.join(tables)})")
    return parts, read_value(value.strip())


def read_value(text: str) -> Any:
    """A TOML value, or the text itself when it is not one (a bare word)."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def split_values(text: str) -> list[str]:
    """Split ``a,b,[c,d]`` on the commas outside brackets and quotes (sweep values)."""
    parts: list[str] = []
    depth, quote, start = 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def describe(settings: Sequence[Setting]) -> str:
    """The settings as command-line arguments (``--set k=v ...``)."""
    return " ".join(f"--set {shlex.quote(s.text)}" for s in settings)
