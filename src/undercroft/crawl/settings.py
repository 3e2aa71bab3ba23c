"""Changing one content or option value for a run: ``--set key=value``.

A setting names one value of a crawl pack:

* a card's field, by deck and id: ``monsters.orc.fighting=3``, ``heroes.garrick.health=9``
  (decks ``heroes``, ``monsters``, ``spells``, ``items``, ``traps``);
* an adventure's field: ``adventures.greyhollow-cellars.light=12``;
* an option (a rulings switch or engine limit, :class:`undercroft.crawl.ruleset.Options`):
  ``options.ambusher_six=natural``.

The value is read as a TOML value (``3``, ``true``, ``"a text"``, ``["Strong", "Agile"]``);
a word that is not TOML is taken as a string, so ``natural`` needs no quotes. Settings are
applied to the parsed content files before they are validated (:func:`apply`), so a set
value passes every check a value written in the file passes. :func:`check` validates the
key and the value on their own first, so a mistake names the ``--set`` that made it, the
allowed keys or values, and never a content file.
"""

from __future__ import annotations

import json
import shlex
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import BaseModel, ValidationError, create_model

from undercroft.core.content import allowed_of

DECKS = {
    "heroes": ("crawl-heroes", "hero"),
    "monsters": ("crawl-monsters", "monster"),
    "spells": ("crawl-spells", "spell"),
    "items": ("crawl-items", "item"),
    "traps": ("crawl-traps", "trap"),
}
"""Deck name in a key -> (the content kind of its files, the table holding its cards)."""
TABLES = (*DECKS, "adventures", "options")
FIXED = ("id", "kind")
"""Fields a setting may not change: they name the card rather than describe it."""


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


def parse(text: str) -> Setting:
    """``key=value`` as a :class:`Setting` (the shape of the key only; see :func:`check`)."""
    key, equals, value = text.partition("=")
    key = key.strip()
    if not equals or not key or not value.strip():
        raise SettingError(
            f"--set {text}: write KEY=VALUE, for example monsters.orc.fighting=3 or "
            "options.ambusher_six=natural"
        )
    parts = key.split(".")
    if parts[0] not in TABLES:
        raise SettingError(f"--set {text}: unknown key {parts[0]!r} (allowed: {', '.join(TABLES)})")
    want = 2 if parts[0] == "options" else 3
    if len(parts) != want or not all(parts):
        shape = "options.FIELD" if parts[0] == "options" else f"{parts[0]}.ID.FIELD"
        raise SettingError(f"--set {text}: the key must read {shape}")
    return Setting(key, read_value(value.strip()), text)


def check(
    settings: Sequence[Setting],
    ids: Mapping[str, Sequence[str]],
    schemas: Mapping[str, type[BaseModel]],
) -> None:
    """Every setting names a known card or adventure and field, and its value fits the
    field's schema (type, bounds, allowed words). ``ids``: table -> the ids in the pack;
    ``schemas``: table -> the schema of one of its entries (``options``: the options)."""
    seen: dict[str, str] = {}
    for s in settings:
        if s.key in seen:
            raise SettingError(f"--set {s.text}: {s.key} is already set by --set {seen[s.key]}")
        seen[s.key] = s.text
        known = ids.get(s.table)
        if s.card is not None and known is not None and s.card not in known:
            what = "adventure" if s.table == "adventures" else s.table.rstrip("s")
            raise SettingError(
                f"--set {s.text}: no {what} {s.card!r} in the pack (allowed: {', '.join(known)})"
            )
        schema = schemas[s.table]
        fields = [f for f in schema.model_fields if f not in FIXED]
        if s.field not in fields:
            raise SettingError(
                f"--set {s.text}: unknown field {s.field!r} (allowed: {', '.join(fields)})"
            )
        _check_value(s, schema)


def _check_value(setting: Setting, schema: type[BaseModel]) -> None:
    info = schema.model_fields[setting.field]
    annotation = cast(Any, info.annotation)
    probe = create_model("Probe", __config__=schema.model_config, value=(annotation, info))
    try:
        # The JSON form, as content files are validated (a TOML array may fill a tuple).
        probe.model_validate_json(json.dumps({"value": setting.value}, default=str))
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "".join(f"[{p}]" for p in error["loc"][1:] if isinstance(p, int))
        allowed = allowed_of(error, probe)
        hint = f" (allowed: {', '.join(allowed)})" if allowed else ""
        at = f"{setting.field}{where}: " if where else ""
        got = error.get("input", setting.value)
        raise SettingError(
            f"--set {setting.text}: {at}{error['msg']} (got {got!r}){hint}"
        ) from None


def apply(data: dict[str, Any], settings: Sequence[Setting]) -> list[Setting]:
    """Write the settings that concern one parsed content file into it; returns those
    applied. Card settings go to the card of their id, adventure settings to the
    adventure of their id, option settings to an options file."""
    kind = data.get("kind")
    used = []
    for s in settings:
        if s.table in DECKS and DECKS[s.table][0] == kind:
            for card in data.get(DECKS[s.table][1], []):
                if isinstance(card, dict) and card.get("id") == s.card:
                    card[s.field] = s.value
                    used.append(s)
        elif (
            s.table == "adventures" and kind == "crawl-adventure" and data.get("id") == s.card
        ) or (s.table == "options" and kind == "crawl-options"):
            data[s.field] = s.value
            used.append(s)
    return used


def describe(settings: Sequence[Setting]) -> str:
    """The settings as command-line arguments (``--set k=v ...``)."""
    return " ".join(f"--set {shlex.quote(s.text)}" for s in settings)
