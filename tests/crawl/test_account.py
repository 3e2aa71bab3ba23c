"""The account of a crawl game (``run``, ``replay``, ``--explain``, the browser's
narration): every event a reader needs is told, and bookkeeping is not."""

from __future__ import annotations

from undercroft.core.events import EventLog
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play
from undercroft.render.narrate import FORMATS, narrate

BOOKKEEPING = {
    "explore.choice",  # each hero's yes or no; the text read and its explorers' rolls tell
    "recovered",  # Turn Start's Stamina and Magic, every hero every turn (C-TURN-02)
    "turn.started",
    "light.dropped",  # every Turn End; a Light that changes otherwise is told
    "combat.turn",
    "combat.step_over",
    "magic.restored",
    "stamina.spent",
    "moved",  # gathered into one line a hero a turn
    "monster.moved",
}


def test_every_event_of_careful_games_is_told_or_bookkeeping() -> None:
    pack = default_pack()
    untold: set[str] = set()
    for adventure in pack.campaign_order():
        for party in (
            ["brenna", "garrick", "durn", "sable"],
            ["brenna", "corvin", "ysolde", "mirela"],
        ):
            result = play(pack.ruleset(adventure), party, seed=2, heroes="careful", dm="master")
            assert result.log is not None
            untold |= {e.event.type for e in result.log.entries} - set(FORMATS) - BOOKKEEPING
    assert untold == set()


def first_four_game(seed: int) -> EventLog:
    """The log of a Bone Priest game of the first four, careful against ``master`` as the
    games were read (before ``harry=2`` became the DM's default and ``seek=1`` and
    ``dark=1`` the party's)."""
    result = play(
        default_pack().ruleset("bone-priest"), ["brenna", "garrick", "durn", "sable"],
        seed=seed, heroes="careful[seek=0,dark=0]", dm="master[harry=0]",
    )  # fmt: skip
    assert result.log is not None
    return result.log


def test_the_account_tells_abilities_scrolls_and_tests() -> None:
    """Bone Priest seed 2, the first four: the cultists' curses and the Bone Priest's
    Grave Command (C-MON-01) were told only as the rolls they began; a scroll read blind
    (R-C-IDENT-01) and the Library's test of a trait (C-EXPL-01) not at all."""
    log = first_four_game(2)
    told = list(narrate(log))
    assert "  Ash Cultist 1 uses Whispered Curse on Sable." in told
    assert "  Bone Priest 1 uses Grave Command on Garrick." in told
    assert "  Durn reads the scroll: Thunderclap." in told
    assert "  Durn is not Learned: the test is failed." in told


def test_stopped_patrols_are_told_once_and_every_turn_with_explain() -> None:
    """Bone Priest seed 1: once every room is revealed no patrol roll is made (C-MON-03),
    and each Turn Start that would have rolled says so (25 times in that game): the
    account tells it once, ``--explain`` every time."""
    log = first_four_game(1)
    stopped = sum(1 for e in log.entries if e.event.type == "patrols.stopped")
    assert stopped >= 2
    line = "  No patrol roll: every room is revealed, and no more patrols come."
    assert list(narrate(log)).count(line) == 1
    told = [t for t in narrate(log, explain=True) if t.startswith(line)]
    assert len(told) == stopped
