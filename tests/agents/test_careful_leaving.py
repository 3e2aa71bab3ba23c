"""When the careful party gives up a fight. A fight that stands still (knob ``standoff``):
the orc behind two rows of furniture (C-LOS-01: it blocks movement, not sight) can reach
nobody and nobody can reach it, so the fight never ends and nobody explores (C-CMB-01).
A whole game is played by the runner, both seats by the built-in players."""

from __future__ import annotations

from crawl_kit import board, ruleset

from undercroft.core.events import CrawlTime
from undercroft.core.grid import AreaInfo
from undercroft.crawl.content import default_pack
from undercroft.crawl.ruleset import Goal
from undercroft.crawl.runner import play

# Ana and Bram on the west side of the hall, the way out (x) beside them; the orc on the
# east side, two rows of furniture between (one cannot be jumped, C-JUMP-01: the landing
# square must be free).
FENCED = board(
    """
    #########
    #x..TT..#
    #a..TTo.#
    #b..TT..#
    #########
    """,
    """
    #########
    #HHHHHHH#
    #HHHHHHH#
    #HHHHHHH#
    #########
    """,
    {"H": AreaInfo("Hall")},
)
SLAY = Goal("orc", "Slay the orc.", "slay", "orc")  # a goal: without one the party leaves


def fenced_game(policy: str) -> tuple[list[tuple[int, str]], str]:
    """(turn, hero) of each ``hero.left``, and the reasons given."""
    rules = ruleset(
        FENCED, starts=("a", "b"), exits=("x",), placements=(("orc", "o"),), goals=(SLAY,)
    )
    result = play(rules, ["ana", "bram"], seed=3, heroes=policy, dm="master")
    assert result.log is not None
    left = [
        (e.time.turn, str(e.event.fields["hero"]))
        for e in result.log.entries
        if e.event.type == "hero.left" and isinstance(e.time, CrawlTime)
    ]
    reasons = " | ".join(
        str(e.event.fields.get("reason", ""))
        for e in result.log.entries
        if e.event.type == "reason"
    )
    return left, reasons


def test_the_party_leaves_a_fight_that_has_stood_still() -> None:
    """``standoff=3``: the fight stands still from the first turn; after three such
    turns the party heads out and both heroes leave, saying why. With ``standoff=0``
    they wait for ``give_up`` (here turn 20) and nobody leaves before it."""
    left, reasons = fenced_game("careful[standoff=3,give_up=20]")
    assert {hero for _, hero in left} == {"hero:ana", "hero:bram"}
    assert max(turn for turn, _ in left) <= 6
    assert "the fight has stood still 3 turns" in reasons
    waited, reasons = fenced_game("careful[standoff=0,give_up=20]")
    assert waited and min(turn for turn, _ in waited) >= 20
    assert "stood still" not in reasons


def test_holding_ground_or_stepping_in_and_out_of_a_fight_is_not_standing_still() -> None:
    """Bone Priest against the ``basic`` DM: in seed 473 the heroes hold their ground
    three turns for a ghoul to come (``hold``), and in seed 207 Brenna, at Death's Door,
    walks up to the wraith and back out of its reach every turn; in neither game does the
    fight stand still, and nobody leaves for it (a first version did, and seed 473 was
    lost)."""
    pack = default_pack()
    for seed in (473, 207):
        result = play(
            pack.ruleset("bone-priest"), ["brenna", "garrick", "durn", "sable"], seed=seed,
            heroes="careful", dm="basic",
        )  # fmt: skip
        assert result.log is not None
        reasons = [
            str(e.event.fields["reason"]) for e in result.log.entries if e.event.type == "reason"
        ]
        assert not any("stood still" in r for r in reasons), seed
