"""Who may play (C-SETUP-03): 3 to 5 players, each with a different hero of the pack.

Used by ``run crawl --party`` and ``campaign new --party``; a party that breaks the rule
is a :class:`PartyError` giving the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_PLAYERS = 3
MAX_PLAYERS = 5


class PartyError(ValueError):
    """A party the rules do not allow; the message says why and what is allowed."""


def check_party(party: Sequence[str], heroes: Sequence[str], starts: int | None = None) -> None:
    """C-SETUP-03: 3 to 5 players, each picking one of the pack's ``heroes``; no hero twice.

    ``starts``: the adventure's starting squares, one a hero (C-SETUP-03: the heroes start
    on them), so a larger party cannot be placed.
    """
    if any(not name for name in party):
        raise PartyError("an empty hero name (write the ids separated by commas)")
    unknown = [h for h in party if h not in heroes]
    if unknown:
        raise PartyError(f"unknown hero(es) {', '.join(unknown)}; known: {', '.join(heroes)}")
    twice = sorted({h for h in party if party.count(h) > 1})
    if twice:
        raise PartyError(
            f"{', '.join(twice)} picked more than once; each player picks a different hero "
            "(C-SETUP-03)"
        )
    if not MIN_PLAYERS <= len(party) <= MAX_PLAYERS:
        raise PartyError(
            f"{len(party)} hero(es); the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            "one hero each (C-SETUP-03)"
        )
    if starts is not None and len(party) > starts:
        raise PartyError(f"{len(party)} heroes, but the adventure has {starts} start squares")
