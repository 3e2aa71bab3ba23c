"""Line of sight (C-LOS-01) and line of fire (K-RNG-02)."""

from __future__ import annotations

import numpy as np
import pytest

from undercroft.core.grid import DoorState, Grid, Pos, Terrain
from undercroft.core.sight import (
    Sight,
    can_see,
    field_of_view,
    line_of_fire,
    supercover,
)
from undercroft.crawl.content import default_pack
from undercroft.crawl.state import State


def drawn(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines())


def seen_picture(grid: Grid, origin: Pos) -> str:
    """The visible set as a drawing: ``*`` seen, ``-`` not."""
    fov = field_of_view(grid, origin)
    return "\n".join(
        "".join("*" if fov[y, x] else "-" for x in range(grid.width)) for y in range(grid.height)
    )


def walled(rng: np.random.Generator, width: int, height: int, share: float) -> Grid:
    """An open board with about ``share`` of its squares walled at random."""
    g = Grid.empty(width, height)
    for y, x in zip(*np.nonzero(rng.random((height, width)) < share), strict=True):
        g.set_terrain(Pos(int(x), int(y)), Terrain.WALL)
    return g


ROOMS = """
#########
#a..#...#
#.T.+...#
#...#...#
##'####X#
#.......#
#########
"""


@pytest.mark.rule("C-LOS-01", "R-CORE-LOS-01")
def test_walls_and_a_shut_door_bound_the_view() -> None:
    g = Grid.from_text(ROOMS)
    # The room, its walls and the shut door; through the open door at (2,4) a slice of
    # the corridor below. Nothing behind the shut door at (4,2).
    assert seen_picture(g, g.markers["a"]) == drawn(
        """
        *****----
        *****----
        *****----
        *****----
        *****----
        --**-----
        --**-----
        """
    )


@pytest.mark.rule("C-LOS-01")
def test_opening_the_door_opens_the_view() -> None:
    g = Grid.from_text(ROOMS)
    g.set_door(Pos(4, 2), DoorState.OPEN)
    assert seen_picture(g, g.markers["a"]) == drawn(
        """
        *****----
        *****----
        *********
        *********
        *****--**
        --**-----
        --**-----
        """
    )


@pytest.mark.rule("C-LOS-01")
def test_furniture_blocks_no_view_but_a_blockage_does() -> None:
    g = Grid.from_text(
        """
        .......
        a.T...b
        .......
        d..X..c
        """.replace(" ", "")
    )
    assert can_see(g, g.markers["a"], g.markers["b"])
    assert not can_see(g, g.markers["d"], g.markers["c"])


@pytest.mark.rule("C-LOS-01")
def test_closed_and_locked_doors_block_open_doors_do_not() -> None:
    for char, expected in (("+", False), ("&", False), ("'", True)):
        g = Grid.from_text(f"a.{char}.b")
        assert can_see(g, g.markers["a"], g.markers["b"]) is expected, char


@pytest.mark.rule("R-CORE-LOS-01")
def test_sight_is_symmetric_on_random_maps() -> None:
    rng = np.random.default_rng(7)
    for _ in range(5):
        g = walled(rng, 12, 10, 0.25)
        sight = Sight(g)
        floor = [p for p in g.positions() if not g.is_opaque(p)]
        for a in floor:
            for b in floor:
                assert sight.can_see(a, b) == sight.can_see(b, a), (a, b)


CORNER = """
.....
.a#..
.....
...b.
"""


@pytest.mark.rule("K-RNG-02", "R-CORE-LOF-01")
def test_a_wall_corner_stops_a_shot_that_sight_allows() -> None:
    g = Grid.from_text(CORNER)
    a, b = g.markers["a"], g.markers["b"]
    assert can_see(g, a, b)
    assert not line_of_fire(g, a, b)
    assert not line_of_fire(g, b, a)


@pytest.mark.rule("K-RNG-02")
def test_clear_shots() -> None:
    g = Grid.from_text(CORNER)
    a = g.markers["a"]
    assert line_of_fire(g, a, Pos(1, 3))  # straight down the column
    assert line_of_fire(g, a, Pos(0, 3))
    assert not line_of_fire(g, a, Pos(4, 1))  # straight through the wall


@pytest.mark.rule("K-RNG-02", "R-CORE-LOF-01")
def test_line_of_fire_never_exceeds_sight_on_random_maps() -> None:
    rng = np.random.default_rng(11)
    stricter = 0
    for _ in range(4):
        g = walled(rng, 10, 10, 0.2)
        sight = Sight(g)
        floor = [p for p in g.positions() if not g.is_opaque(p)]
        for a in floor:
            for b in floor:
                fire = sight.line_of_fire(a, b)
                assert not fire or sight.can_see(a, b), (a, b)
                if (a.x * 7 + b.y) % 13 == 0:  # the uncached function agrees (sampled)
                    assert fire == line_of_fire(g, a, b)
                stricter += sight.can_see(a, b) and not fire
    assert stricter > 0  # corners really do stop shots that sight allows


def test_supercover_includes_both_squares_at_a_corner() -> None:
    assert supercover(Pos(0, 0), Pos(2, 1)) == [Pos(0, 0), Pos(1, 0), Pos(1, 1), Pos(2, 1)]
    assert supercover(Pos(0, 0), Pos(1, 1)) == [Pos(0, 0), Pos(1, 0), Pos(0, 1), Pos(1, 1)]
    assert supercover(Pos(3, 0), Pos(0, 0)) == [Pos(3, 0), Pos(2, 0), Pos(1, 0), Pos(0, 0)]


def test_sight_cache_follows_door_changes() -> None:
    g = Grid.from_text("a.+.b")
    sight = Sight(g)
    assert not sight.can_see(g.markers["a"], g.markers["b"])
    g.set_door(Pos(2, 0), DoorState.OPEN)
    assert sight.can_see(g.markers["a"], g.markers["b"])


@pytest.mark.rule("C-LOS-01")
def test_cached_sight_is_tcods_field_of_view_on_random_maps() -> None:
    """``Sight`` keeps libtcod's map between questions (rebuilt at each board change):
    every field of view it gives is the one ``tcod.map.compute_fov`` gives."""
    rng = np.random.default_rng(3)
    for _ in range(4):
        g = walled(rng, 13, 9, 0.3)
        sight = Sight(g)
        for turn in range(2):
            if turn:
                g.set_terrain(Pos(6, 4), Terrain.WALL)  # a new board: a fresh map
            for p in g.positions():
                got = sight.fov(p)
                assert got.flags.c_contiguous
                assert np.array_equal(got, field_of_view(g, p)), p


def test_sight_after_a_door_changes_is_sight_drawn_afresh() -> None:
    """A door opening or closing patches the one square of libtcod's map a Sight keeps:
    every field of view after it must be the one a fresh Sight of the same board gives."""
    text = "#########\n#...#...#\n#...+...#\n#...#...#\n#########"
    grid = Grid.from_text(text)
    sight = Sight(grid)
    door = Pos(4, 2)
    origins = [Pos(1, 1), Pos(3, 2), Pos(6, 3), Pos(7, 1)]
    for state in (DoorState.OPEN, DoorState.CLOSED, DoorState.LOCKED, DoorState.OPEN):
        for p in origins:
            sight.fov(p)  # the board and its fields of view in use before the change
        grid.set_door(door, state)
        fresh = Sight(Grid.from_text(grid.to_text(markers=False)))
        for p in origins:
            assert (sight.fov(p) == fresh.fov(p)).all(), (state, p)
    assert sight.can_see(Pos(1, 1), Pos(7, 3))  # the door open at the end: through it


def _every_view(sight: Sight, grid: Grid) -> None:
    for p in grid.positions():
        sight.fov(p)
        sight.fov_bits(p)


def _assert_as_drawn_afresh(sight: Sight, grid: Grid, why: object) -> None:
    # Against tcod itself, not another Sight (which could share a mistake).
    for p in grid.positions():
        fresh = field_of_view(grid, p)
        assert np.array_equal(sight.fov(p), fresh), (why, p)
        assert sight.fov_bits(p) == int.from_bytes(fresh.tobytes(), "little"), (why, p)


@pytest.mark.rule("C-LOS-01")
def test_views_kept_when_a_square_clears_are_sight_drawn_afresh_on_random_maps() -> None:
    """A Sight keeps the fields of view that did not reach a square that turned clear (a
    door opened, a wall dug): each must be the one a fresh Sight draws, for every wall
    of random boards cleared in turn and every origin, the others kept from before."""
    rng = np.random.default_rng(11)
    for _ in range(3):
        grid = walled(rng, 11, 8, 0.3)
        sight = Sight(grid)
        walls = [p for p in grid.positions() if grid.is_opaque(p)]
        for wall in rng.permutation(len(walls))[:12].tolist():
            _every_view(sight, grid)
            grid.set_terrain(walls[wall], Terrain.FLOOR)
            _assert_as_drawn_afresh(sight, grid, walls[wall])


@pytest.mark.rule("C-LOS-01")
def test_views_kept_when_a_door_opens_are_sight_drawn_afresh_on_every_shipped_board() -> None:
    """Every door of every shipped adventure opened, one at a time, after every field of
    view was looked at: each is the one a fresh Sight of the board draws."""
    pack = default_pack()
    for adventure in pack.campaign_order():
        grid = State(pack.ruleset(adventure), list(pack.heroes)[:4]).grid
        doors = [p for p in grid.positions() if grid.is_door(p) and grid.is_opaque(p)]
        assert doors, adventure
        sight = Sight(grid)
        for door in doors:
            _every_view(sight, grid)
            grid.set_door(door, DoorState.OPEN)
            _assert_as_drawn_afresh(sight, grid, (adventure, door))


def test_a_door_opening_keeps_the_views_it_did_not_reach_and_redraws_the_rest() -> None:
    """The cache itself: a view from beyond the wall that never saw the door is the same
    array after it opens; the view that saw the door is drawn again, and a door that
    closes empties the cache (a new shadow can fall anywhere)."""
    grid = Grid.from_text("#######\n#..+..#\n###.###\n#.....#\n#######")
    sight = Sight(grid)
    door, near, far = Pos(3, 1), Pos(1, 1), Pos(1, 3)
    near_view, far_view = sight.fov(near), sight.fov(far)
    assert near_view[door.y, door.x] and not far_view[door.y, door.x]
    grid.set_door(door, DoorState.OPEN)
    assert sight.fov(far) is far_view
    assert sight.fov(near) is not near_view and sight.fov(near)[1, 5]
    grid.set_door(door, DoorState.CLOSED)
    assert sight.fov(far) is not far_view
