"""Reading a pack: every TOML file of a folder validated by its kind, ``--set`` settings
applied, then cross-checked (:func:`load_pack`); the shipped pack (:data:`DEFAULT_PACK`,
this folder) loaded once (:func:`default_pack`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from undercroft.core.content import (
    ContentError,
    ContentProblem,
    MapSchema,
    key_lines,
    kinds,
    line_of,
    parse_toml,
    read_text,
    validate,
)
from undercroft.crawl import settings as setting
from undercroft.crawl.content.adventures import build_adventure
from undercroft.crawl.content.checks import (
    EffectSite,
    Problems,
    check_board,
    check_cards,
    check_refs,
)
from undercroft.crawl.content.pack import Pack
from undercroft.crawl.content.schemas import (
    SETTING_SCHEMAS,
    AdventureFile,
    HeroesFile,
    ItemsFile,
    MonstersFile,
    OptionsFile,
    SpellsFile,
    TrapsFile,
    effects_of,
    options_of,
)
from undercroft.crawl.players import MIN_PLAYERS
from undercroft.crawl.ruleset import (
    CastingTime,
    Encounter,
    HeroProfile,
    ItemCard,
    ItemKind,
    MonsterAbility,
    MonsterProfile,
    SpellCard,
    Targeting,
    Trait,
    TrapKind,
)

DEFAULT_PACK = Path(__file__).resolve().parent
"""The default pack shipped with undercroft: board, heroes, monsters, spells, the five
decks, traps and the campaign's adventures (docs/content.md describes every file)."""


def load_pack(folder: str | Path, settings: Sequence[setting.Setting] = ()) -> Pack:
    """Read every TOML file of a pack folder, apply ``settings`` to them, validate each,
    then cross-check them. Check the settings first with :func:`check_settings` so that
    a mistake in one names the ``--set``."""
    root = Path(folder)
    if not root.is_dir():
        raise ContentError([ContentProblem(str(root), 0, "", "no such content folder")])
    pack = Pack(root, settings=tuple(settings))
    parsed: list[tuple[Path, str, dict[str, Any]]] = []
    options_file: str | None = None
    problems = Problems()
    adventures: list[tuple[Path, str, AdventureFile]] = []
    sites: list[EffectSite] = []
    errors: list[ContentProblem] = []
    for path in sorted(root.rglob("*.toml")):
        text = read_text(path)
        file = str(path)
        try:
            data = parse_toml(text, file)
            setting.apply(data, settings)
            parsed.append((path, text, data))
            kind = data.get("kind")
            if kind == "crawl-options":
                if options_file is not None:
                    errors.append(
                        ContentProblem(
                            file, 1, "kind", f"a second options file (the first is {options_file})"
                        )
                    )
                options_file = file
                pack.options = options_of(validate(data, OptionsFile, text, file))
            elif kind == "crawl-heroes":
                for h in validate(data, HeroesFile, text, file).hero:
                    pack.heroes[h.id] = HeroProfile(
                        h.id, h.name, h.movement, h.fighting, h.damage, h.health, h.stamina,
                        h.magic, frozenset(Trait(t) for t in h.traits), h.spells, h.items,
                        h.abilities,
                    )  # fmt: skip
            elif kind == "crawl-monsters":
                for i, m in enumerate(validate(data, MonstersFile, text, file).monster):
                    abilities = tuple(
                        MonsterAbility(a.name, a.range, effects_of(a.effects)) for a in m.ability
                    )
                    for k, a in enumerate(m.ability):
                        sites.append(
                            EffectSite(
                                file, text, ("monster", i, "ability", k, "effects"), a.effects
                            )
                        )
                    pack.monsters[m.id] = MonsterProfile(
                        m.id, m.name, m.movement, m.fighting, m.damage, m.health, m.stamina,
                        m.magic, Encounter(m.encounter), abilities,
                    )  # fmt: skip
            elif kind == "crawl-spells":
                for i, s in enumerate(validate(data, SpellsFile, text, file).spell):
                    sites.append(EffectSite(file, text, ("spell", i, "effects"), s.effects))
                    if s.overcast is not None:
                        sites.append(EffectSite(file, text, ("spell", i, "overcast"), s.overcast))
                    pack.spells[s.id] = SpellCard(
                        s.id, s.name, s.level, CastingTime(s.casting), Targeting(s.target), s.range,
                        effects_of(s.effects),
                        None if s.overcast is None else effects_of(s.overcast),
                        s.ongoing_turns, s.description,
                    )  # fmt: skip
            elif kind == "crawl-items":
                for i, it in enumerate(validate(data, ItemsFile, text, file).item):
                    sites.append(EffectSite(file, text, ("item", i, "effects"), it.effects))
                    pack.items[it.id] = ItemCard(
                        it.id, it.name, ItemKind(it.deck), effects_of(it.effects), it.spell,
                        it.value, it.fighting_bonus, it.uses, it.revives,
                    )  # fmt: skip
            elif kind == "crawl-traps":
                for i, t in enumerate(validate(data, TrapsFile, text, file).trap):
                    sites.append(EffectSite(file, text, ("trap", i, "effects"), t.effects))
                    pack.traps[t.id] = TrapKind(
                        t.id, t.name, effects_of(t.effects), t.ends_movement
                    )
            elif kind == "map":
                board = validate(data, MapSchema, text, file)
                grid = board.grid()
                check_board(grid, board, file, text, problems)
                pack.boards[board.name] = grid
                pack.boards[path.stem] = grid
            elif kind == "crawl-adventure":
                adventures.append((path, text, validate(data, AdventureFile, text, file)))
            elif kind not in kinds():
                # Known kinds of other rulesets are checked on their own; anything else is
                # a mistake, not a file to skip in silence.
                message = "missing the top-level key 'kind'" if kind is None else (
                    f"unknown kind {kind!r}"
                )  # fmt: skip
                line = line_of(key_lines(text), ("kind",))
                errors.append(ContentProblem(file, line, "kind", message, tuple(sorted(kinds()))))
        except ContentError as exc:
            errors.extend(exc.problems)
    if options_file is None and any(s.table == "options" for s in settings):
        data = {"kind": "crawl-options"}
        setting.apply(data, settings)
        pack.options = options_of(validate(data, OptionsFile, "", "--set options"))
    if errors:
        raise ContentError(errors)
    check_cards(pack, parsed, problems)
    for site in sites:
        check_refs(pack, site.file, site.text, site.path, site.effects, problems)
    seen_adventures: dict[str, str] = {}
    for path, text, adv in adventures:
        if adv.id in seen_adventures:
            problems.add(
                str(path), text, ("id",), f"adventure id {adv.id!r} is already used by "
                f"{seen_adventures[adv.id]}"
            )  # fmt: skip
        seen_adventures[adv.id] = str(path)
        built = build_adventure(pack, path, text, adv, problems)
        if built is not None:
            pack.adventures[adv.id] = built
            pack.order[adv.id] = adv.order
    if adventures and len(pack.heroes) < MIN_PLAYERS:
        problems.items.append(
            ContentProblem(
                str(root), 0, "hero", f"the pack has {len(pack.heroes)} hero(es): its "
                f"adventures need at least {MIN_PLAYERS} (C-SETUP-03: 3 to 5 players, a "
                "different hero each); add [[hero]] cards in a kind = \"crawl-heroes\" file",
            )
        )  # fmt: skip
    if problems.items:
        raise ContentError(problems.items)
    return pack


@cache
def default_pack() -> Pack:
    """The default pack (:data:`DEFAULT_PACK`), loaded and cross-checked once."""
    return load_pack(DEFAULT_PACK)


@cache
def pack_with(folder: Path | None, settings: tuple[setting.Setting, ...] = ()) -> Pack:
    """The pack in ``folder`` (``None``: the default pack) with ``settings`` applied,
    loaded once per process (batch workers play many games of one pack)."""
    if folder is None and not settings:
        return default_pack()
    return load_pack(folder or DEFAULT_PACK, settings)


def check_settings(pack: Pack, settings: Sequence[setting.Setting]) -> None:
    """Each setting names a card, adventure or option of ``pack`` and a value its schema
    accepts (:class:`undercroft.crawl.settings.SettingError` otherwise)."""
    ids = {
        "heroes": list(pack.heroes),
        "monsters": list(pack.monsters),
        "spells": list(pack.spells),
        "items": list(pack.items),
        "traps": list(pack.traps),
        "adventures": pack.campaign_order(),
    }
    setting.check(settings, ids, SETTING_SCHEMAS)
