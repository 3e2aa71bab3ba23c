"""The grid and its map notation."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from undercroft.core.grid import (
    AREA_KEPT_MOST,
    AreaInfo,
    DoorState,
    Grid,
    MapError,
    Pos,
    Terrain,
    neighbour_table,
    square_table,
)

ROOM = """
#######
#a..T.#
#.~.:.+
#..X..'
###&###
"""


def test_notation_reads_every_tile_kind() -> None:
    g = Grid.from_text(ROOM)
    assert (g.width, g.height) == (7, 5)
    assert g.markers == {"a": Pos(1, 1)}
    assert g.terrain_at(Pos(0, 0)) is Terrain.WALL
    assert g.terrain_at(Pos(3, 3)) is Terrain.BLOCKAGE
    assert g.door_at(Pos(6, 2)) is DoorState.CLOSED
    assert g.door_at(Pos(6, 3)) is DoorState.OPEN
    assert g.door_at(Pos(3, 4)) is DoorState.LOCKED
    assert bool(g.furniture[1, 4]) and bool(g.water[2, 2]) and bool(g.dark[2, 4])


def test_every_terrain_and_door_state_is_read_back_from_its_code() -> None:
    # terrain_at/door_at index TERRAINS/DOOR_STATES by the code stored in the arrays
    g = Grid.from_text(ROOM)
    for t in Terrain:
        g.terrain[0, 0] = t.value
        assert g.terrain_at(Pos(0, 0)) is t
    for d in DoorState:
        g.door[0, 0] = d.value
        assert g.door_at(Pos(0, 0)) is d


def test_notation_round_trips() -> None:
    g = Grid.from_text(ROOM)
    assert g.to_text() == ROOM.lstrip("\n")
    assert Grid.from_text(g.to_text()).same_layout(g)


def test_ragged_rows_are_refused_naming_the_row() -> None:
    with pytest.raises(MapError, match="map row 2: every row must be 3 characters"):
        Grid.from_text("###\n##\n")


def test_unknown_character_names_row_and_column() -> None:
    with pytest.raises(MapError, match=r"map row 1, column 2: unknown map character '\?'"):
        Grid.from_text("#?#")


def test_marker_twice_is_refused() -> None:
    with pytest.raises(MapError, match="marker 'a' is used twice"):
        Grid.from_text("a.a")


def test_neighbours_are_orthogonal_and_inside_the_map() -> None:
    g = Grid.empty(3, 3)
    assert sorted(g.neighbours(Pos(0, 0))) == [Pos(0, 1), Pos(1, 0)]
    assert sorted(g.neighbours(Pos(1, 1))) == [Pos(0, 1), Pos(1, 0), Pos(1, 2), Pos(2, 1)]


def test_distances_on_positions() -> None:
    assert Pos(0, 0).manhattan(Pos(3, 4)) == 7
    assert Pos(0, 0).chebyshev(Pos(3, 4)) == 4
    assert Pos(2, 2).is_adjacent(Pos(2, 3))
    assert not Pos(2, 2).is_adjacent(Pos(3, 3))


@pytest.mark.rule("C-LOS-01")
def test_opaque_squares_are_walls_blockages_and_shut_doors() -> None:
    g = Grid.from_text(ROOM)
    opaque = {p for p in g.positions() if g.is_opaque(p)}
    assert Pos(3, 3) in opaque  # blockage
    assert Pos(6, 2) in opaque and Pos(3, 4) in opaque  # closed and locked doors
    assert Pos(6, 3) not in opaque  # open door
    assert Pos(4, 1) not in opaque  # furniture
    assert {p for p in g.positions() if bool(g.opaque()[p.y, p.x])} == opaque


def test_named_areas() -> None:
    g = Grid.from_text(
        """
        #####
        #...#
        #.+.#
        """.replace(" ", ""),
        areas="""
        #####
        #AAc#
        #A.c#
        """.replace(" ", ""),
        area_info={"A": AreaInfo("Hall"), "c": AreaInfo("Passage", "corridor")},
    )
    assert g.squares_of("Hall") == [Pos(1, 1), Pos(2, 1), Pos(1, 2)]
    assert g.area_at(Pos(3, 2)) == AreaInfo("Passage", "corridor")
    assert g.area_at(Pos(2, 2)) is None
    with pytest.raises(KeyError, match="known areas: Hall, Passage"):
        g.squares_of("Cellar")


def test_changes_bump_the_version() -> None:
    g = Grid.from_text(ROOM)
    before = g.version
    g.set_door(Pos(6, 2), DoorState.OPEN)
    assert g.version == before + 1
    with pytest.raises(MapError, match="no door"):
        g.set_door(Pos(1, 1), DoorState.OPEN)


def test_char_array_after_a_change_is_the_array_drawn_afresh() -> None:
    """A door opening, a wall dug or furniture moved redraws one square of the cached
    map-notation array; it must equal the array drawn from scratch, and an array handed
    out before the change must stay as it was."""
    grid = Grid.from_text("#####\n#.+.#\n#:~T#\n#####")
    before = grid.char_array()
    drawn = before.copy()
    changes: list[Callable[[], None]] = [
        lambda: grid.set_door(Pos(2, 1), DoorState.OPEN),
        lambda: grid.set_door(Pos(2, 1), DoorState.LOCKED),
        lambda: grid.set_terrain(Pos(1, 1), Terrain.WALL),
        lambda: grid.set_terrain(Pos(3, 1), Terrain.DOOR, DoorState.CLOSED),
        lambda: grid.set_furniture(Pos(3, 2), False),
        lambda: grid.set_furniture(Pos(1, 2), True),
    ]
    for change in changes:
        grid.char_array()  # cached at this version: the next change patches both
        grid.transparency()
        change()
        patched = grid.char_array()
        afresh = Grid.from_text(grid.to_text(markers=False))
        assert patched.tobytes() == afresh.char_array().tobytes()
        assert (grid.transparency() == afresh.transparency()).all()
    assert before.tobytes() == drawn.tobytes()
    assert grid.char_array().tobytes() == b"#####" + b"##&+#" + b"#T~.#" + b"#####"


@pytest.mark.parametrize(("width", "height"), [(1, 1), (3, 2), (24, 28)])
def test_square_table_is_the_neighbour_table_by_index(width: int, height: int) -> None:
    """``square_table`` holds each square at ``y * width + x`` and its neighbours' indices
    in ``neighbour_table``'s order (monster reach relies on the same order)."""
    table = square_table(width, height)
    neighbours = neighbour_table(width, height)
    assert table.squares == tuple(Pos(x, y) for y in range(height) for x in range(width))
    for i, p in enumerate(table.squares):
        assert [table.squares[j] for j in table.around[i]] == list(neighbours[p])
    assert square_table(width, height) is table


def test_what_is_kept_for_the_areas_is_shared_by_copies_and_bounded() -> None:
    """Areas never change once drawn: what is read of them (``squares_of``, answers kept
    with ``keep_for_areas``) holds for the grid's copies too, and at most
    ``AREA_KEPT_MOST`` answers are kept."""
    grid = Grid.from_text("#####\n#...#\n#...#\n#####", areas="#####\n#aab#\n#aab#\n#####")
    first = grid.copy()
    assert first.squares_of("a") == [Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2)]
    first.squares_of("a").clear()  # a caller's list is its own
    second = grid.copy()
    assert second.squares_of("a") == [Pos(1, 1), Pos(2, 1), Pos(1, 2), Pos(2, 2)]
    assert second.area_at(Pos(3, 2)) == second.areas[1]
    first.keep_for_areas(("answer", 1), 42)
    assert grid.kept_for_areas(("answer", 1)) == second.kept_for_areas(("answer", 1)) == 42
    assert second.copy().kept_for_areas(("answer", 2)) is None
    for n in range(AREA_KEPT_MOST + 10):
        grid.keep_for_areas(("many", n), n)
    assert 0 < len(grid._area_kept) <= AREA_KEPT_MOST
    assert grid.kept_for_areas(("many", AREA_KEPT_MOST + 9)) == AREA_KEPT_MOST + 9
