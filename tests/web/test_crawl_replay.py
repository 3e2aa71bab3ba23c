"""The crawl replay's frames each show the board as it was after their own line."""

from __future__ import annotations

from typing import Any

from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.runner import play
from undercroft.web.replay import crawl_frames


def test_each_frame_shows_the_board_of_its_own_moment() -> None:
    """A hero who leaves is not shown as already gone in the frames before, and each move's
    frame has the mover where the line says (the frames used to share one set of figure
    objects, so every frame showed the end of the game)."""
    pack = default_pack()
    # The players named, so that a change of the default players' play keeps the game.
    result = play(
        pack.ruleset("bone-priest"), list(pack.heroes)[:4], seed=7, heroes="basic", dm="basic"
    )
    assert result.log is not None
    frames: list[dict[str, Any]] = crawl_frames(result.log, pack, Seat.DM)["frames"]
    lines = [f["entry"] for f in frames]
    left = [i for i, e in enumerate(lines) if e["type"] == "hero.left"]
    assert left, "no hero left in this game: pick another seed"
    first = left[0]
    who = lines[first]["hero"]

    def gone(frame: dict[str, Any]) -> bool:
        return any(h["id"] == who and h["left"] for h in frame["heroes"])

    assert not any(gone(f) for f in frames[:first])
    assert all(gone(f) for f in frames[first:])
    moves = [i for i, e in enumerate(lines) if e["type"] == "moved"]
    assert len(moves) > 20
    for i in moves:
        mover = lines[i]["actor"]
        where = [h["pos"] for h in frames[i]["heroes"] if h["id"] == mover]
        assert where == [lines[i]["to"]], (i, mover)
