"""Changing one keep content or option value for a run: ``--set key=value``.

A key is a dotted path into the keep ruleset's content (``keep-rules``, docs/keep.md), as
the ruleset holds it with every default filled in:

* an option (a rulings switch or pacing number): ``options.trap_friendly_fire=false``,
  ``options.fallen_adventurers=kill``;
* a kind's field: ``mechanism.spinning_blades.power=7``, ``minion.kobold.armour=leather``,
  ``creature.troll.attributes.battle=5``, ``weapon.club.blunt=false``;
* the combat numbers: ``combat.mend_minutes=60``;
* the adventurers' content: ``adventurer_content.class.warrior.level_max=...``.

The value is read as TOML (a bare word is a string). :func:`check` refuses a key that is
not in the content (naming the keys allowed where it goes wrong) and then validates the
ruleset with the values laid over it, as the content files are validated, so a bad value
is refused with the allowed values, naming the ``--set``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from undercroft.core.content import ContentError
from undercroft.core.settings import Setting, SettingError, split
from undercroft.keep.content.ruleset import Ruleset

TABLES = (
    "options",
    "trigger",
    "mechanism",
    "structure",
    "minion",
    "master",
    "creature",
    "merchant",
    "weapon",
    "combat",
    "adventurer_content",
)
"""The tables of the keep content a ``--set`` may change (not ``kind`` or ``name``)."""
FILE = "--set"


def parse(text: str) -> Setting:
    """``key=value`` as a :class:`Setting` (the key's table checked; see :func:`check`)."""
    example = "options.trap_friendly_fire=false or mechanism.spinning_blades.power=7"
    parts, value = split(text, TABLES, example)
    if len(parts) < 2 or not all(parts):
        raise SettingError(f"--set {text}: the key must read TABLE.FIELD or TABLE.ID.FIELD")
    return Setting(".".join(parts), value, text)


def overrides(settings: Sequence[Setting]) -> dict[str, Any]:
    """The settings as nested tables to lay over the content."""
    out: dict[str, Any] = {}
    for s in settings:
        *path, last = s.parts
        table = out
        for part in path:
            table = table.setdefault(part, {})
        table[last] = s.value
    return out


def check(ruleset: Ruleset, settings: Sequence[Setting]) -> Ruleset:
    """Every key names a value of ``ruleset``'s content and every value fits its schema;
    returns the ruleset with them applied (:class:`SettingError` naming the ``--set``)."""
    seen: dict[str, str] = {}
    for s in settings:
        if s.key in seen:
            raise SettingError(f"--set {s.text}: {s.key} is already set by --set {seen[s.key]}")
        seen[s.key] = s.text
        _check_key(ruleset.source, s)
    for s in settings:
        try:
            ruleset = ruleset.with_content(overrides([s]), file=FILE)
        except ContentError as exc:
            problem = exc.problems[0]
            hint = f" (allowed: {', '.join(problem.allowed)})" if problem.allowed else ""
            raise SettingError(f"--set {s.text}: {problem.message}{hint}") from None
    return ruleset


def _check_key(source: Mapping[str, Any], s: Setting) -> None:
    table: Any = source
    for depth, part in enumerate(s.parts):
        if not isinstance(table, Mapping):
            where = ".".join(s.parts[:depth])
            raise SettingError(f"--set {s.text}: {where} is a value, not a table")
        if part not in table:
            where = ".".join(s.parts[:depth]) or "the content"
            allowed = [k for k in table if depth or k in TABLES]
            raise SettingError(
                f"--set {s.text}: no {part!r} in {where} (allowed: {', '.join(allowed)})"
            )
        table = table[part]
    if isinstance(table, Mapping) and table:
        raise SettingError(
            f"--set {s.text}: {s.key} is a table; set one of its values "
            f"(allowed: {', '.join(f'{s.key}.{k}' for k in table)})"
        )


__all__ = ["TABLES", "Setting", "SettingError", "check", "overrides", "parse"]
