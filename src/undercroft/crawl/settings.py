"""Changing one content or option value for a run: ``--set key=value``.

A setting names one value of a crawl pack:

* a card's field, by deck and id: ``monsters.orc.fighting=3``, ``heroes.garrick.health=9``
  (decks ``heroes``, ``monsters``, ``spells``, ``items``, ``traps``);
* an adventure's field: ``adventures.greyhollow-cellars.light=12``;
* an option (a rulings switch or engine limit, :class:`undercroft.crawl.ruleset.Options`):
  ``options.ambusher_six=natural``;
* a knob of the built-in hero policy or DM: ``policy.gather=0``, ``dm.focus=0`` (not
  content: :data:`PLAYERS`).

The value is read as a TOML value (``3``, ``true``, ``"a text"``, ``["Strong", "Agile"]``);
a word that is not TOML is taken as a string, so ``natural`` needs no quotes. Settings are
applied to the parsed content files before they are validated (:func:`apply`), so a set
value passes every check a value written in the file passes. :func:`check` validates the
key and the value on their own first, so a mistake names the ``--set`` that made it, the
allowed keys or values, and never a content file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from pydantic import BaseModel, ValidationError, create_model

from undercroft.core.content import allowed_of
from undercroft.core.settings import (
    Setting,
    SettingError,
    describe,
    read_value,
    split,
    split_values,
)

DECKS = {
    "heroes": ("crawl-heroes", "hero"),
    "monsters": ("crawl-monsters", "monster"),
    "spells": ("crawl-spells", "spell"),
    "items": ("crawl-items", "item"),
    "traps": ("crawl-traps", "trap"),
}
"""Deck name in a key -> (the content kind of its files, the table holding its cards)."""
PLAYERS = ("policy", "dm")
"""Keys of the built-in players' knobs (``policy.gather=0``, ``dm.focus=0``): not content;
the front doors fold them into the policy names (``careful[gather=0]``,
docs/players.md), and :func:`check` and :func:`apply` pass them by."""
TABLES = (*DECKS, "adventures", "options", *PLAYERS)
FIXED = ("id", "kind")
"""Fields a setting may not change: they name the card rather than describe it."""


def parse(text: str) -> Setting:
    """``key=value`` as a :class:`Setting` (the shape of the key only; see :func:`check`)."""
    example = "monsters.orc.fighting=3 or options.ambusher_six=natural"
    parts, value = split(text, TABLES, example)
    want = 2 if parts[0] in ("options", *PLAYERS) else 3
    if len(parts) != want or not all(parts):
        shape = f"{parts[0]}.FIELD" if want == 2 else f"{parts[0]}.ID.FIELD"
        raise SettingError(f"--set {text}: the key must read {shape}")
    return Setting(".".join(parts), value, text)


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
        if s.table in PLAYERS:
            continue  # a player's knob: checked with the policy it goes to
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


__all__ = [
    "Setting",
    "SettingError",
    "apply",
    "check",
    "describe",
    "parse",
    "read_value",
    "split_values",
]
