"""The party's searches answer as a whole-board distance map does (undercroft.agents.plan).

The reference is what the party computed before its searches stopped early: tcod's
Dijkstra map over the same step costs, the nearest marked square by ``argmin`` (row, then
column, on a tie) and the way there by ``tcod.path.hillclimb2d``. Random boards of
walls, floor, unknown squares and shut doors, random blockers and marks.
"""

from __future__ import annotations

import numpy as np
import pytest
import tcod.path

from undercroft import native
from undercroft.agents.plan import (
    FAR,
    PLANNING_COST,
    PLANNING_MOST,
    WALK_COST,
    WALKABLE_CHARS,
    Memory,
    Search,
    either,
    mask_of,
)


def reference(
    costs: np.ndarray, origins: list[tuple[int, int]], blocked: set[tuple[int, int]]
) -> np.ndarray:
    cost = costs.astype(np.int32).copy()
    for y, x in blocked:
        cost[y, x] = 0
    dist = tcod.path.maxarray(cost.shape, np.int32)
    for y, x in origins:
        cost[y, x] = 1
        dist[y, x] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
    return dist


def random_board(rng: np.random.Generator, height: int, width: int) -> bytes:
    chars = rng.choice(np.frombuffer(b"..........?????#+", np.uint8), size=(height, width))
    return chars.astype(np.uint8).tobytes()


@pytest.mark.parametrize("seed", range(40))
def test_the_nearest_square_and_the_way_there_match_a_whole_board_map(seed: int) -> None:
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(3, 12)), int(rng.integers(3, 12))
    board = random_board(rng, height, width)
    costs = board.translate(PLANNING_COST)
    cost_array = np.frombuffer(costs, np.uint8).reshape(height, width)
    squares = height * width
    origins = [int(rng.integers(squares)) for _ in range(int(rng.integers(1, 3)))]
    blocked = {int(i) for i in rng.integers(squares, size=int(rng.integers(0, 6)))}
    wanted = {int(i) for i in rng.integers(squares, size=int(rng.integers(1, 8)))}
    dist = reference(
        cost_array,
        [divmod(i, width) for i in origins],
        {divmod(i, width) for i in blocked - set(origins)},
    )
    mask = np.zeros(squares, np.bool_)
    mask[list(wanted)] = True
    masked = np.where(mask & (dist.ravel() < FAR), dist.ravel(), FAR)
    expected = None if masked.min() == FAR else int(np.argmin(masked))
    for most in (None, PLANNING_MOST):  # told the largest cost, or finding it
        search = Search(costs, width, origins, blocked, most=most)
        found = search.nearest(mask_of(squares, wanted))
        assert found == expected, most
        for i in range(squares):
            assert search.distance(i) == int(dist.ravel()[i]), most
        if found is not None and len(origins) == 1 and found != origins[0]:
            steps = tcod.path.hillclimb2d(dist, divmod(found, width), True, False).tolist()
            want = [y * width + x for y, x in reversed(steps)][1:]
            assert search.path_to(found) == want, most


@pytest.mark.parametrize("seed", range(10))
def test_walking_distances_told_the_largest_cost_match_a_whole_board_map(seed: int) -> None:
    """Known floor only (``WALK_COST``, the walk to an exit), the search told its largest
    step cost is 1: its queues' ring is two levels long."""
    rng = np.random.default_rng(100 + seed)
    height, width = int(rng.integers(2, 12)), int(rng.integers(2, 12))
    costs = random_board(rng, height, width).translate(WALK_COST)
    cost_array = np.frombuffer(costs, np.uint8).reshape(height, width)
    squares = height * width
    origins = [int(rng.integers(squares)) for _ in range(int(rng.integers(1, 3)))]
    dist = reference(cost_array, [divmod(i, width) for i in origins], set())
    search = Search(costs, width, origins, most=1)
    assert [search.distance(i) for i in range(squares)] == [int(d) for d in dist.ravel()]


@pytest.mark.parametrize("seed", range(20))
def test_distances_match_a_whole_board_map_for_any_step_costs(seed: int) -> None:
    """Step costs up to 12 (planning's are at most 4): the queues' ring is sized by the
    largest cost, and every distance still matches tcod's Dijkstra map."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(2, 14)), int(rng.integers(2, 14))
    cost_array = rng.integers(0, 13, size=(height, width)).astype(np.uint8)
    cost_array[rng.random((height, width)) < 0.5] = 1  # enough floor to walk far
    costs = cost_array.tobytes()
    squares = height * width
    origins = [int(rng.integers(squares)) for _ in range(int(rng.integers(1, 3)))]
    dist = reference(cost_array, [divmod(i, width) for i in origins], set())
    search = Search(costs, width, origins)
    assert [search.distance(i) for i in range(squares)] == [int(d) for d in dist.ravel()]


def test_the_memory_keeps_what_was_seen_where_nothing_is_seen_now() -> None:
    memory = Memory(b"#.?.", 4)
    memory.see(b"??+.")
    assert memory.codes == b"#.+."
    assert memory.frontier() == bytes([0, 1, 0, 1])  # next to the shut door


@pytest.mark.parametrize("seed", range(20))
def test_the_memory_takes_every_square_a_board_shows(seed: int) -> None:
    """A run of boards seen one after another: the memory holds, square by square, what
    the last board that showed the square (not as ``?``) showed there (against numpy)."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    first = random_board(rng, height, width)
    memory, told = Memory(first, width), Memory(first, width)
    expected = np.frombuffer(first, np.uint8).copy()
    for _ in range(6):
        board = random_board(rng, height, width)
        now = np.frombuffer(board, np.uint8)
        np.copyto(expected, now, where=now != ord("?"))
        memory.see(board)
        assert memory.codes == expected.tobytes()
        # Handed the board read as an integer and the mask of what it shows (a View's
        # board_bits), the memory takes the same squares.
        shown = bytes(0 if c == ord("?") else 255 for c in board)
        told.see(board, (int.from_bytes(board, "little"), int.from_bytes(shown, "little")))
        assert told.codes == memory.codes


@pytest.mark.parametrize("seed", range(30))
def test_the_frontier_is_the_walkable_squares_next_to_something_new(seed: int) -> None:
    """Known squares a figure may stand on next to (up, down, left or right of) an unknown
    square or a shut door, never across a row's end: against arrays shifted by numpy."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    board = random_board(rng, height, width)
    codes = np.frombuffer(board, np.uint8).reshape(height, width)
    new = (codes == ord("?")) | (codes == ord("+"))
    near = np.zeros_like(new)
    near[1:, :] |= new[:-1, :]
    near[:-1, :] |= new[1:, :]
    near[:, 1:] |= new[:, :-1]
    near[:, :-1] |= new[:, 1:]
    walkable = np.isin(codes, np.frombuffer(WALKABLE_CHARS, np.uint8))
    assert Memory(board, width).frontier() == (walkable & near).astype(np.uint8).tobytes()


def test_either_marks_the_squares_of_both_masks() -> None:
    a, b = bytes([0, 1, 0, 0, 1, 0]), bytes([1, 1, 0, 0, 0, 0])
    assert either(a, b) == bytes([1, 1, 0, 0, 1, 0])
    assert either(bytes(4), bytes(4)) == bytes(4)  # the unmarked end is kept


def settled(search: Search) -> tuple[list[int], list[int], list[int]]:
    """What a search has worked out: distances, the squares in the order settled, and
    where each level starts."""
    return list(search.dist), list(search._order), list(search._marks)


def test_a_search_kept_for_the_same_question_finds_what_a_new_one_finds() -> None:
    """A search that looked over everything it could reach says it would find the same
    as a new one (``finds_the_same``) only when the new one does find the same: the same
    distances, settled in the same order, the same nearest squares and ways. Blocked
    squares are toggled at random on random boards, some far from the squares reached,
    some among them; both answers come up many times."""
    same = differ = 0
    for seed in range(30):
        rng = np.random.default_rng(500 + seed)
        height, width = int(rng.integers(4, 12)), int(rng.integers(4, 12))
        squares = height * width
        costs = random_board(rng, height, width).translate(PLANNING_COST)
        origins = [int(rng.integers(squares))]
        blocked = {int(i) for i in rng.integers(squares, size=int(rng.integers(0, 8)))}
        for _ in range(12):
            kept = Search(costs, width, origins, blocked, most=PLANNING_MOST)
            assert not kept.finds_the_same(costs, origins, blocked)  # not looked over yet
            assert kept.nearest(bytes(squares)) is None  # nothing wanted: it settles all
            toggled = {int(i) for i in rng.integers(squares, size=int(rng.integers(1, 4)))}
            now = blocked ^ toggled
            fresh = Search(costs, width, origins, now, most=PLANNING_MOST)
            fresh.nearest(bytes(squares))
            if costs != costs[::-1]:
                assert not kept.finds_the_same(costs[::-1], origins, now)
            if kept.finds_the_same(costs, origins, now):
                same += 1
                assert settled(kept) == settled(fresh), seed
                assert kept.blocked == fresh.blocked
                for _ in range(4):
                    wanted = mask_of(squares, (int(i) for i in rng.integers(squares, size=4)))
                    found = kept.nearest(wanted)
                    assert found == fresh.nearest(wanted), seed
                    if found is not None:
                        assert kept.path_to(found) == fresh.path_to(found), seed
            else:
                differ += 1
            blocked = now
    assert same >= 20 and differ >= 20, (same, differ)


def test_finds_the_same_says_so_for_a_change_out_of_reach_and_not_for_one_in_reach() -> None:
    """Walls split the board: a blocked square beyond them changes nothing the search
    reached; one on a square it reached, or next to one, may."""
    board = b"...#....\n...#....\n...#....".replace(b"\n", b"")
    costs = board.translate(PLANNING_COST)
    kept = Search(costs, 8, [0], set(), most=PLANNING_MOST)
    assert kept.nearest(bytes(len(costs))) is None
    assert kept.finds_the_same(costs, [0], {6})  # beyond the wall
    assert not kept.finds_the_same(costs, [0], {6, 1})  # on a square reached
    assert not kept.finds_the_same(costs, [0], {3})  # the wall's own square: next to it
    assert not kept.finds_the_same(costs, [9], {6})  # another origin


def test_the_searches_keep_lists_as_python_and_packed_vecs_compiled() -> None:
    """``undercroft.crawl.vecs``: a vec indexed from plain Python is slower than a list,
    so the searches run as Python keep lists; compiled, librt's packed vecs."""
    search = Search(bytes([1, 1, 1, 1]), 2, [0])
    assert search.nearest(bytes([0, 0, 0, 1])) == 3
    kinds: list[object] = [type(search.dist), type(search._ring[0])]
    if native.in_use():
        assert list not in kinds
    else:
        assert kinds == [list, list]
