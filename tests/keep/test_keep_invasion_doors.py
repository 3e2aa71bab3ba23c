"""What groups do at doors: the way round (K-DOOR-01/02), picking and bashing (K-FORCE-01..04),
and what locks buy you (K-DEF-01, K-PATH-01)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from keep_kit import (
    CALM,
    PILE,
    ScriptedDice,
    adv,
    calm,
    ended,
    invade,
    invaded,
    member,
    of,
    record_steps,
    run_until,
)

from undercroft.core.grid import Pos
from undercroft.keep.rules import doors, forcing, goals
from undercroft.keep.state.invasion_state import Group, GroupJob
from undercroft.keep.state.structures import Door

# A door on the short way to the Master, an open gap on a longer one.
DOOR_OR_GAP = """
#####p#####
#.........#
#.........#
####+####.#
#.........#
#.........#
#.........#
#...s.....#
###########
"""
DOOR = Pos(4, 3)

# The only way down is a corridor of three locked doors.
LOCKED_CORRIDOR = """
#####p#####
#.........#
#.........#
#####&#####
#####.#####
#####&#####
#####.#####
#####&#####
#.........#
#....s....#
###########
"""


def way_round_runs(
    traits: tuple[str, ...], groups: int, seed: int = 0
) -> tuple[list[dict[str, Any]], list[bool]]:
    """Send ``groups`` groups one after another past the door; their K-DOOR-01 draws and
    whether each stepped through the door."""
    world, log = invaded(calm(DOOR_OR_GAP), CALM + PILE, seed=seed)
    through: list[bool] = []
    for _ in range(groups):
        group = invade(world, member("warrior", 1, *traits), goal="steal_treasure")
        walker = adv(world, group)
        stepped = False
        while group.phase != "ended":
            world.run(world.now + 1)
            stepped = stepped or walker.pos == DOOR
        through.append(stepped)
    draws = [e for e in of(log, "chance") if "K-DOOR-01" in e["rules"]]
    return draws, through


@pytest.mark.rule("K-DOOR-01", "R-K-DOOR-02")
@pytest.mark.parametrize(
    ("traits", "expected"), [((), Fraction(1, 2)), (("guide",), Fraction(1, 4))]
)
def test_the_way_round_a_closed_door_is_taken_half_the_time_a_quarter_with_a_guide(
    traits: tuple[str, ...], expected: Fraction
) -> None:
    draws, through = way_round_runs(traits, 240)
    # One draw per group on the way in (on the way out the door is already decided).
    assert len(draws) == 240
    assert {Fraction(d["p"]).limit_denominator(100) for d in draws} == {expected}
    assert all(d["guide"] == bool(traits) and d["door"] == "door:1" for d in draws)
    alternate = [d["outcome"] == "alternate" for d in draws]
    share = sum(alternate) / len(alternate)
    sigma = (float(expected) * (1 - float(expected)) / len(alternate)) ** 0.5
    assert abs(share - float(expected)) < 4 * sigma
    # Each group did what it drew: round by the gap, or through the door.
    assert [not a for a in alternate] == through


@pytest.mark.rule("K-DOOR-01")
def test_when_the_door_is_the_only_way_they_go_through_without_a_draw() -> None:
    world, log = invaded(DOOR_OR_GAP.replace("####+####.#", "####+######"))
    group = invade(world, member("warrior", 1))
    walker = adv(world, group)
    stepped = False
    while group.phase != "ended":
        world.run(world.now + 1)
        stepped = stepped or walker.pos == DOOR
    assert stepped and group.doors == {"door:1": "door"}
    assert not [e for e in of(log, "chance") if "K-DOOR-01" in e["rules"]]


@pytest.mark.rule("K-DOOR-02", "K-DOOR-01")
def test_a_cartographer_who_escapes_makes_his_factions_next_group_never_go_round() -> None:
    world, log = invaded(calm(DOOR_OR_GAP), CALM + PILE, seed=1)
    goal = "steal_treasure"
    first = invade(world, member("ranger", 1, "cartographer"), faction="dawn", goal=goal)
    run_until(world, ended(world, first))
    assert world.invasion.cartographers == ["dawn"]
    other = invade(world, member("warrior", 1), faction="millbrook", goal=goal)  # another
    run_until(world, ended(world, other))
    assert not other.never_alternate
    following = [invade(world, member("warrior", 1), faction="dawn", goal=goal)]
    run_until(world, ended(world, following[0]))
    after = invade(world, member("warrior", 1), faction="dawn", goal=goal)  # as usual
    run_until(world, ended(world, after))
    draws = {e["group"]: e for e in of(log, "chance") if "K-DOOR-01" in e["rules"]}
    assert following[0].never_alternate and not after.never_alternate
    assert draws[following[0].number]["p"] == 0.0 and draws[following[0].number]["cartographer"]
    assert draws[following[0].number]["outcome"] == "door"
    assert "K-DOOR-02" in draws[following[0].number]["rules"]
    assert draws[after.number]["p"] == 0.5 and draws[other.number]["p"] == 0.5
    assert [e["never_alternate"] for e in of(log, "invasion.arrived")] == [
        False,
        False,
        True,
        False,
    ]


def locked_door_runs(traits: tuple[str, ...], groups: int) -> list[dict[str, Any]]:
    world, log = invaded(
        calm(
            LOCKED_CORRIDOR.replace(
                "#####&#####\n#####.#####\n#####&", "#####.#####\n#####.#####\n#####."
            )
        ),
        CALM + PILE,
        seed=2,
    )
    for _ in range(groups):
        members = (member("rogue", 2, *traits), member("warrior", 2))
        group = invade(world, *members, goal="steal_treasure")
        run_until(world, ended(world, group))
        for door in world.of_type(Door):
            if door.breached:
                doors.restore(world, door, "test")  # as a Chores minion would (K-FORCE-05)
    return of(log, "chance", "door.forcing")


@pytest.mark.rule("K-FORCE-02", "K-FORCE-03")
def test_the_group_picks_seventy_percent_of_the_time_unless_a_locksmith_or_doorbreaker() -> None:
    events = locked_door_runs((), 150)
    draws = [e for e in events if e["type"] == "chance" and "K-FORCE-02" in e["rules"]]
    assert {Fraction(d["p"]).limit_denominator(100) for d in draws} == {Fraction(7, 10)}
    assert len(draws) >= 150
    picks = sum(d["outcome"] == "pick" for d in draws) / len(draws)
    assert abs(picks - 0.7) < 4 * (0.21 / len(draws)) ** 0.5
    announced = [e for e in events if e["type"] == "door.forcing" and e["reason"] == "chance"]
    assert [a["method"] for a in announced] == [d["outcome"] for d in draws]
    for trait, method in (("locksmith", "pick"), ("doorbreaker", "bash")):
        events = locked_door_runs((trait,), 3)
        assert not [e for e in events if e["type"] == "chance" and "K-FORCE-02" in e["rules"]]
        first = [e for e in events if e["type"] == "door.forcing"]
        assert {e["method"] for e in first if e["reason"] != "switched"} == {method}
        assert {e["reason"] for e in first if e["reason"] != "switched"} == {trait}


@pytest.mark.rule("K-FORCE-03")
def test_a_locksmith_beats_a_doorbreaker() -> None:
    world, log = invaded(LOCKED_CORRIDOR, seed=3)
    group = invade(world, member("rogue", 1, "locksmith"), member("warrior", 1, "doorbreaker"))
    run_until(world, lambda: bool(of(log, "door.forcing")))
    (announced,) = of(log, "door.forcing")
    assert announced["method"] == "pick" and announced["reason"] == "locksmith"
    assert announced["adventurer"] == adv(world, group, 1).id  # the better picker


@pytest.mark.rule("K-FORCE-01", "K-FORCE-02", "R-K-FORCE-01")
def test_the_best_member_works_faster_with_a_higher_attribute_and_bashing_takes_twice_as_long() -> (
    None
):
    world, _ = invaded(LOCKED_CORRIDOR)
    group = invade(world, member("rogue", 1), member("warrior", 3), member("peasant", 0))
    rogue, warrior, peasant = (adv(world, group, m) for m in (1, 2, 3))
    for m in (rogue, warrior, peasant):
        m.where = type(m.where).IN
    group.job = GroupJob("force", "door:1", Pos(5, 2), "pick")
    assert forcing.best(world, group, "craft") is rogue  # Craft 4
    assert forcing.best(world, group, "battle") is warrior  # Battle 6
    minute = 600
    # 12 minutes x 4 / (4 + attribute); bashing twice that.
    assert forcing._attempt_ticks(world, rogue, group.job) == 12 * minute * 4 // 8
    assert forcing._attempt_ticks(world, peasant, group.job) == 12 * minute * 4 // 5
    group.job.method = "bash"
    assert forcing._attempt_ticks(world, warrior, group.job) == 2 * (12 * minute * 4 // 10)


@pytest.mark.rule("K-FORCE-04", "K-FORCE-01")
def test_five_failures_then_the_other_method_then_the_group_gives_up_on_that_door() -> None:
    world, log = invaded(DOOR_OR_GAP.replace("####+####.#", "####&######"), seed=4)
    world.streams["adventurers"] = ScriptedDice(dice=[2] * 10, chances=[True])
    group = invade(world, member("warrior", 1), member("rogue", 1))
    run_until(world, ended(world, group))
    rolls = [e for e in of(log, "roll") if "K-FORCE-01" in e["rules"]]
    assert [r["method"] for r in rolls] == ["pick"] * 5 + ["bash"] * 5
    assert all(r["outcome"] == "fail" for r in rolls)
    assert [r["actor"] for r in rolls] == [adv(world, group, 2).id] * 5 + [
        adv(world, group, 1).id
    ] * 5
    announced = of(log, "door.forcing")
    assert [(a["method"], a["reason"]) for a in announced] == [
        ("pick", "chance"),
        ("bash", "switched"),
    ]
    (given_up,) = of(log, "door.given_up")
    assert given_up["door"] == "door:1" and given_up["attempts"] == 10
    # No other way: the Master is out of reach; they leave (K-AFTER-01, R-K-AFTER-01).
    assert [(g["outcome"], g["goal"]) for g in of(log, "invasion.goal")] == [
        ("out_of_reach", "kill_master")
    ]
    assert group.goal_met is None and not world.door("door:1").breached


@pytest.mark.rule("K-PATH-01", "K-FORCE-01", "K-FORCE-05")
@pytest.mark.parametrize("seed", range(6))
def test_a_fully_locked_corridor_is_picked_or_bashed_through_never_refused(seed: int) -> None:
    world, log = invaded(calm(LOCKED_CORRIDOR), CALM + PILE, seed=seed)
    group = invade(world, member("rogue", 2), member("warrior", 2), goal="steal_treasure")
    run_until(world, ended(world, group), minutes=3 * 1440)
    assert group.goal_met == "met"
    assert [e["door"] for e in of(log, "door.forced")] == ["door:1", "door:2", "door:3"]
    assert not of(log, "door.given_up") and not of(log, "adventurer.stuck")
    breached = [e for e in of(log, "door.opened") if "K-FORCE-05" in e["rules"]]
    assert len(breached) >= 3


@pytest.mark.rule("K-DEF-01")
def test_locked_doors_buy_time_not_safety() -> None:
    times = {}
    for name, tiles in (("open", LOCKED_CORRIDOR.replace("&", "+")), ("locked", LOCKED_CORRIDOR)):
        world, _ = invaded(calm(tiles), CALM + PILE, seed=5)
        group = invade(world, member("rogue", 2), member("warrior", 2), goal="steal_treasure")

        def judged(g: Group = group) -> bool:
            return g.goal_met is not None

        run_until(world, judged, minutes=3 * 1440)
        times[name] = world.now
        assert group.goal_met == "met" and goals.available(world, "steal_treasure")
    assert times["locked"] > times["open"] + 15


@pytest.mark.rule("K-DOOR-08", "K-FORCE-05")
def test_a_breached_door_stays_open_for_the_rest_and_a_closed_one_is_just_opened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steps = record_steps(monkeypatch)
    world, log = invaded(
        LOCKED_CORRIDOR.replace(
            "#####&#####\n#####.#####\n#####&", "#####+#####\n#####.#####\n#####+"
        ),
        seed=6,
    )
    group = invade(world, member("rogue", 2), member("warrior", 2))
    run_until(world, ended(world, group))
    # Only the last door is locked: forced once; the closed ones opened and closed by passers.
    assert len(of(log, "door.forced")) == 1
    passed = [
        e
        for e in of(log, "door.opened")
        if e["by"].startswith("adv:") and "K-FORCE-05" not in e["rules"]
    ]
    assert passed and all("K-DOOR-03" in e["rules"] for e in passed)
    assert Pos(5, 7) in steps[adv(world, group).id]


# A locked door 2 tiles from the portal down a corridor: the first two members fill the
# corridor and the rest are still beyond the map edge when the first reaches the door.
DOOR_BY_THE_PORTAL = """
#####p#####
#####.#####
#####&#####
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-FORCE-02", "R-K-FORCE-01")
@pytest.mark.parametrize("seed", range(3))
def test_the_best_member_is_sent_even_if_still_walking_in(seed: int) -> None:
    """Issue 31: the member sent to a locked door was chosen only among those already on
    the map, so with the door 2 tiles from the portal the best one, still walking in, was
    never sent. It comes in past its groupmates (one on the portal steps back out)."""
    world, log = invaded(calm(DOOR_BY_THE_PORTAL), CALM + PILE, seed=seed)
    group = invade(
        world,
        member("peasant", 0),
        member("peasant", 0),
        member("rogue", 2, "locksmith"),
        goal="steal_treasure",
    )
    rogue = adv(world, group, 3)
    run_until(world, lambda: bool(of(log, "door.forcing")))
    (announced,) = of(log, "door.forcing")
    assert announced["adventurer"] == rogue.id and announced["method"] == "pick"
    run_until(world, lambda: world.door("door:1").breached, minutes=6 * 60)
    picks = [e for e in of(log, "roll") if "K-FORCE-01" in e["rules"]]
    assert picks and {r["actor"] for r in picks} == {rogue.id}
    assert picks[-1]["outcome"] == "success"
    run_until(world, ended(world, group), minutes=2 * 1440)
    assert group.goal_met == "met"
