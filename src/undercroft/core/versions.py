"""Which undercroft wrote a file: a log's header and a saved game name the version, and a
file from a newer undercroft than this one is refused (it may hold what this version
cannot know), never read as if it were this version's."""

from __future__ import annotations

import re
from typing import Final

from undercroft import __version__

_RELEASE: Final = re.compile(r"(\d+)\.(\d+)\.(\d+)(?!\d|\.\d)")


def release(version: str) -> tuple[int, int, int] | None:
    """``"0.4.1"`` (or ``"0.4.1.dev3+g1234"``) -> ``(0, 4, 1)``; ``None`` if not a version."""
    found = _RELEASE.match(version)
    return None if found is None else (int(found[1]), int(found[2]), int(found[3]))


def version_problem(version: str, *, this: str = __version__) -> str | None:
    """What is wrong with a file written by undercroft ``version``, read by ``this``: not
    a version at all, or a newer one; ``None`` when this undercroft may read it. An
    undercroft that does not know its own version (run from a bare source tree) refuses
    only what is not a version."""
    theirs = release(version)
    if theirs is None:
        return f"{version!r} is not an undercroft version (like '0.4.1')"
    ours = release(this)
    if ours is not None and ours != (0, 0, 0) and theirs > ours:
        return (
            f"written by undercroft {version}, newer than this one ({this}): "
            "update undercroft to read it"
        )
    return None
