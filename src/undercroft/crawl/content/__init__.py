"""crawl content files: heroes, monsters, spells, items, traps, boards and adventures.

A *pack* is a folder of TOML files, each naming its ``kind``:

=====================  ==================================================================
kind                   holds
=====================  ==================================================================
``crawl-heroes``       ``[[hero]]`` profiles (C-SETUP-05)
``crawl-monsters``     ``[[monster]]`` profiles with encounter type and abilities
``crawl-spells``       ``[[spell]]`` cards (C-SPELL-03)
``crawl-items``        ``[[item]]`` cards of the five decks (C-SETUP-02)
``crawl-traps``        ``[[trap]]`` kinds (C-TRAP-06)
``map``                a board (core map notation with named rooms and corridors)
``crawl-adventure``    an adventure: doors and blockages on a board, start squares, exits,
                       monsters, traps, room texts, patrol, goals
``crawl-options``      the options (rulings switches, engine limits) the pack plays with
=====================  ==================================================================

``load_pack(folder, settings)`` reads and cross-checks them all, after applying any
``--set`` settings (:mod:`undercroft.crawl.settings`) to the parsed files; every
mistake is reported with file, line and key (:class:`undercroft.core.content.ContentError`).
``docs/content.md`` is the designer's guide. The default pack ships in this
folder (:data:`DEFAULT_PACK`); :func:`default_pack` loads it once.
"""

from __future__ import annotations

from undercroft.crawl.content.loader import (
    DEFAULT_PACK,
    check_settings,
    default_pack,
    load_pack,
    pack_with,
)
from undercroft.crawl.content.pack import Pack

__all__ = ["DEFAULT_PACK", "Pack", "check_settings", "default_pack", "load_pack", "pack_with"]
