"""Conformance over random legal play on test content."""

from __future__ import annotations

from crawl_kit import board, play_random, ruleset, start

from undercroft.core.dice import DiceSampler
from undercroft.core.grid import AreaInfo

DUNGEON = board(
    """
    ##############
    #ab...#......#
    #cd...+..o...#
    #.....#......#
    ###'#####+####
    #e.....T.....#
    #.....p......#
    ##############
    """,
    """
    ##############
    #AAAAA#BBBBBB#
    #AAAAA.BBBBBB#
    #AAAAA#BBBBBB#
    ###.#####.####
    #cccccccccccc#
    #cccccccccccc#
    ##############
    """,
    {"A": AreaInfo("Hall"), "B": AreaInfo("Vault"), "c": AreaInfo("Passage", "corridor")},
)


def test_smoke() -> None:
    rules = ruleset(
        DUNGEON,
        starts=("a", "b", "c", "d"),
        exits=("a",),
        placements=[("orc", "o"), ("rat", "p")],
        traps={"e": "pit"},
        patrol=("rat", "rat"),
    )
    for seed in range(30):
        state, _ = start(rules, ["ana", "bram", "cora", "dell"])
        play_random(state, DiceSampler(seed))
        assert state.is_terminal(), (seed, state.pending, state.turn)
