"""Arrival, sighting and what groups come for (K-INV-01..03, K-ARR-01..06, K-AFTER-01)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from keep_kit import (
    CALM,
    HALL,
    adv,
    calm,
    ended,
    invade,
    invaded,
    member,
    minion,
    of,
    run_until,
    stand,
)

from undercroft.core.events import EventLog
from undercroft.core.grid import Pos
from undercroft.keep.commands import execute
from undercroft.keep.content.attributes import Attributes
from undercroft.keep.rules import director, goals, invasions, perception
from undercroft.keep.save import load_world, save_world
from undercroft.keep.state.actors import Condition, Job
from undercroft.keep.state.invaders import Whereabouts
from undercroft.keep.state.orders import Divine, WatchfulEye

# The Master's room behind a door, far from the portal: nobody sees the group come in.
HIDDEN = """
###########p###########
#.....................#
#.....................#
#.....................#
#.....................#
#.....................#
##########+############
#.........s...........#
#######################
"""

TREASURY = '[[treasure]]\nat = [3, 3]\namount = 4\nname = "hoard"\n'


@pytest.mark.rule("K-INV-01")
def test_most_groups_come_for_the_master_and_each_faction_has_its_goals() -> None:
    world, _ = invaded(HALL)
    counts: Counter[str] = Counter()
    for faction in world.ruleset.adventurers.factions:
        for _ in range(2000):
            counts[invasions._goal(world, faction)] += 1
    assert counts.most_common(1)[0][0] == "kill_master"
    assert counts["kill_master"] / sum(counts.values()) > 0.5
    assert set(counts) == {"kill_master", "steal_treasure", "rescue_prisoners", "wreck_altar"}


@pytest.mark.rule("K-INV-02")
def test_a_goal_gone_before_the_group_arrives_sends_it_for_the_master() -> None:
    world, log = invaded(HALL)
    group = invade(world, member(), goal="rescue_prisoners")  # there are no prisoners
    (arrived,) = of(log, "invasion.arrived")
    assert arrived["goal_drawn"] == "rescue_prisoners" and arrived["goal"] == "kill_master"
    assert "K-INV-02" in arrived["rules"] and group.goal == "kill_master"


@pytest.mark.rule("K-INV-01", "K-AFTER-01")
def test_a_group_that_came_for_treasure_takes_what_it_can_carry_and_leaves() -> None:
    world, log = invaded(HALL, TREASURY)
    group = invade(world, member("warrior", 1), member("rogue", 1), goal="steal_treasure")
    run_until(world, ended(world, group))
    taken = of(log, "treasure.taken")
    assert sum(t["amount"] for t in taken) == 4  # 3 for the warrior, then the last 1
    assert [g["outcome"] for g in of(log, "invasion.goal")] == ["met"]
    left = {e["adventurer"]: e["treasure"] for e in of(log, "adventurer.left")}
    assert sorted(left.values()) == [1, 3]
    assert world.invasion.features[world.labels["hoard"]].amount == 0
    assert of(log, "invasion.ended")[0]["treasure"] == 4


@pytest.mark.rule("K-AFTER-01", "R-K-AFTER-01", "R-K-AFTER-02", "K-KO-04")
def test_a_group_that_kills_the_master_has_met_its_goal_takes_treasure_and_leaves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world, log = invaded(HALL, TREASURY, seed=1)
    monkeypatch.setattr(world.streams["adventurers"], "chance", lambda p: True)
    master = world.beings["master"]
    master.attributes = Attributes()  # a Master with nothing to fight with
    group = invade(world, member("warrior", 5))
    run_until(world, ended(world, group))
    (died,) = [e for e in of(log, "being.died") if e["being"] == "master"]
    assert died["by"] == adv(world, group).id and "K-KO-04" in died["rules"]
    assert master.condition is Condition.DEAD and not goals.available(world, "kill_master")
    (goal,) = of(log, "invasion.goal")
    assert (goal["outcome"], goal["goal"]) == ("met", "kill_master")
    (choice,) = [e for e in of(log, "chance") if "K-AFTER-01" in e["rules"]]
    assert choice["p"] == 0.8 and choice["outcome"] == "takes"
    assert of(log, "adventurer.left")[0]["treasure"] == 3
    assert of(log, "invasion.ended")[0]["goal_met"] == "met"
    # With the Master dead nothing comes any more (R-K-AFTER-02).
    assert director.stopped_reason(world) == "master_dead"
    assert [e["reason"] for e in of(log, "invasions.stopped")] == ["master_dead"]


@pytest.mark.rule("K-AFTER-01")
def test_a_rescue_group_leaves_as_soon_as_the_prisoners_are_free() -> None:
    extra = TREASURY + '[[prisoner]]\nclass = "ranger"\nlevel = 2\nat = [8, 5]\nname = "held"\n'
    world, log = invaded(calm(HALL), extra + CALM)
    group = invade(world, member("warrior", 1), goal="rescue_prisoners")
    run_until(world, ended(world, group))
    (freed,) = of(log, "prisoner.freed")
    prisoner = world.departed[world.labels["held"]]  # it left with its rescuers
    assert freed["prisoner"] == prisoner.id and prisoner.id in group.members
    assert [g["outcome"] for g in of(log, "invasion.goal")] == ["met"]
    assert of(log, "treasure.taken") == []  # no treasure: they leave at once
    assert not [e for e in of(log, "chance") if "K-AFTER-01" in e["rules"]]
    assert {e["adventurer"] for e in of(log, "adventurer.left")} == {
        adv(world, group).id,
        prisoner.id,
    }


@pytest.mark.rule("K-INV-01")
def test_a_group_wrecks_an_altar() -> None:
    world, log = invaded(calm(HALL), '[[altar]]\nat = [8, 6]\nname = "altar"\n' + CALM)
    group = invade(world, member("cleric", 1), goal="wreck_altar")
    run_until(world, ended(world, group))
    (wrecked,) = of(log, "altar.wrecked")
    assert wrecked["altar"] == world.labels["altar"] and not goals.altars(world)
    assert [g["outcome"] for g in of(log, "invasion.goal")] == ["met"]


# p reaches the Master dry (down the right-hand side); q only across the water.
WATER_MAP = """
#####p#####
#.........#
#########.#
q~~~~~~~#.#
#~~~~~~~#.#
#~~~~~~~#.#
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-INV-03", "R-K-INV-01")
def test_most_groups_pick_a_portal_with_a_dry_way_some_one_across_water() -> None:
    world, log = invaded(WATER_MAP)
    world.portals = [Pos(5, 0), Pos(0, 3)]
    picks = [invasions._portal(world) for _ in range(2000)]
    wet_share = sum(w for _, w in picks) / len(picks)
    assert wet_share == pytest.approx(0.2, abs=0.03)
    assert {p for p, w in picks if w} == {Pos(0, 3)} and {p for p, w in picks if not w} == {
        Pos(5, 0)
    }
    draws = [e for e in of(log, "chance") if "K-INV-03" in e["rules"]]
    assert len(draws) == 2000 and {e["p"] for e in draws} == {0.2}
    # Only dry portals: no draw, never water.
    dry, dry_log = invaded(HALL)
    assert {invasions._portal(dry) for _ in range(50)} == {(Pos(5, 0), False)}
    assert not of(dry_log, "chance")


def groups_seen(log: EventLog) -> list[str]:
    return [e["how"] for e in of(log, "invasion.sighted")]


@pytest.mark.rule("K-ARR-02", "K-ARR-03")
def test_a_group_walks_in_hidden_until_someone_of_yours_sees_it() -> None:
    world, log = invaded(HIDDEN)
    group = invade(world, member("warrior", 1), member("warrior", 1))
    first, second = adv(world, group, 1), adv(world, group, 2)
    world.run(world.now)
    assert first.where is Whereabouts.IN and second.where is Whereabouts.OUTSIDE  # one a tile
    world.run(world.now + 3)
    second = second  # the run moved it in: mypy forgets the narrowing (mypy#17537)
    assert second.where is Whereabouts.IN
    assert groups_seen(log) == []  # fog: nobody of yours sees them yet
    run_until(world, lambda: bool(of(log, "invasion.sighted")))
    assert groups_seen(log) in (["master"], ["sanctum"])  # through the Master's door
    (opened, *_) = [e for e in of(log, "door.opened") if e["by"].startswith("adv:")]
    assert of(log, "invasion.sighted")[0]["time"]["minute"] >= opened["time"]["minute"]


@pytest.mark.rule("K-ARR-03", "K-PERC-01")
def test_a_minion_sights_a_member_within_3_plus_2_x_stalk_in_its_view() -> None:
    world, log = invaded(HIDDEN)
    kobold = minion(world, 11, 5, job=Job.NONE)  # Stalk 4: 11 tiles
    group = invade(world, member())
    walker = adv(world, group)
    stand(world, walker, 22 - 1, 1)  # 10 across, 4 up: Chebyshev 10, in view
    perception.after_step(world, walker, group)
    (seen,) = of(log, "invasion.sighted")
    assert seen["by"] == kobold.id and seen["how"] == "minion"
    assert perception.perception_range(kobold.attributes.stalk) == 11
    far_world, far_log = invaded(HIDDEN)
    minion(far_world, 1, 5, job=Job.NONE)
    far_group = invade(far_world, member())
    stand(far_world, adv(far_world, far_group), 13, 1)  # 12 tiles: out of range
    perception.after_step(far_world, adv(far_world, far_group), far_group)
    assert of(far_log, "invasion.sighted") == []


@pytest.mark.rule("K-ARR-03")
def test_an_alarm_trap_sights_the_group_that_set_it_off() -> None:
    from keep_kit import put, wire

    from undercroft.keep.rules import traps

    world, log = invaded(HIDDEN)
    wire_ = put(world, "tripwire", 5, 3)
    put(world, "alarm", 7, 3)
    wire(world, (5, 3), (7, 3))
    group = invade(world, member())
    stand(world, adv(world, group), 5, 3)
    traps.walker_enters(world, wire_.id, adv(world, group))
    (seen,) = of(log, "invasion.sighted")
    assert seen["how"] == "alarm" and seen["by"] == "trap:1"


@pytest.mark.rule("K-ARR-05", "K-TIME-04")
def test_the_sighting_card_shows_the_goal_and_each_members_class_level_and_abilities() -> None:
    world, log = invaded(HALL)
    world.invasion.director.phase = "waiting"
    invade(world, member("rogue", 2, "locksmith"), member("peasant", 0), goal="kill_master")
    world.run(world.now + 2)
    (card,) = of(log, "invasion.sighted")
    assert card["goal"] == "kill_master"
    assert card["members"] == [
        {"id": "adv:1-1", "class": "rogue", "level": 2, "abilities": ["detect_traps", "locksmith"]},
        {"id": "adv:1-2", "class": "peasant", "level": 0, "abilities": []},
    ]
    assert director.indicator(world).word == "In progress"


@pytest.mark.rule("K-ARR-04", "R-K-ARR-01")
def test_a_lit_guard_post_shows_a_group_within_8_tiles_with_no_card() -> None:
    posts = (
        '[[guard_post]]\nat = [2, 3]\nname = "lit"\n[[guard_post]]\nat = [20, 3]\ntorch = false\n'
    )
    world, log = invaded(HIDDEN, posts)
    group = invade(world, member())
    walker = adv(world, group)
    stand(world, walker, 11, 3)  # 9 from the lit post, 9 from the dark one
    perception.after_step(world, walker, group)
    assert of(log, "invasion.shown") == []
    stand(world, walker, 10, 3)  # 8 from the lit post
    perception.after_step(world, walker, group)
    perception.after_step(world, walker, group)
    (shown,) = of(log, "invasion.shown")
    assert shown["post"] == world.labels["lit"] and shown["rules"] == ["K-ARR-04"]
    assert of(log, "invasion.sighted") == []  # no card


@pytest.mark.rule("K-ARR-06", "R-K-ARR-01")
def test_watchful_eye_sends_a_ghost_eye_round_the_guard_posts_for_24_hours() -> None:
    posts = (
        "[[guard_post]]\nat = [2, 3]\n[[guard_post]]\nat = [20, 3]\n[keeper]\nwatchful_eye = 1\n"
    )
    world, log = invaded(
        HIDDEN.replace("#.....................#", "#:::::::::::::::::::::#", 3),
        posts,
        options={"darkness_hides": True},
    )
    assert not execute(invaded(HIDDEN)[0], WatchfulEye()).accepted  # no posts, no blessing
    kobold = minion(world, 11, 5, job=Job.NONE)
    group = invade(world, member())
    walker = adv(world, group)
    stand(world, walker, 12, 3)  # on a dark tile, in the kobold's view and range
    perception.after_step(world, walker, group)
    assert of(log, "invasion.sighted") == []  # darkness hides it from the kobold
    assert execute(world, WatchfulEye()).accepted
    assert not execute(world, WatchfulEye()).accepted  # one blessing only
    assert perception.eye_at(world) == Pos(2, 3)
    world.run(world.now + 30)
    assert perception.eye_at(world) == Pos(20, 3)  # it moves on to the next post
    perception.after_step(world, walker, group)
    (seen,) = of(log, "invasion.sighted")
    assert seen["how"] == "ghost_eye" and kobold.id != seen["by"]
    world.run(world.now + 24 * 60)
    assert perception.eye_at(world) is None


@pytest.mark.rule("K-ARR-01", "R-K-ARR-02")
def test_a_divination_reveals_the_next_group_which_then_comes() -> None:
    world, log = invaded(HALL, "[keeper]\ndivination = 1\n", seed=5, director=True)
    refused = execute(invaded(HALL)[0], Divine())
    assert not refused.accepted and "K-ARR-01" in refused.rules
    result = execute(world, Divine())
    assert result.accepted
    card = result.effect["card"]
    assert not execute(world, Divine()).accepted  # no charge left
    run_until(world, lambda: bool(of(log, "invasion.arrived")), minutes=3 * 1440)
    (arrived,) = of(log, "invasion.arrived")
    assert [(m["class"], m["level"]) for m in arrived["members"]] == [
        (m["class"], m["level"]) for m in card["members"]
    ]
    assert arrived["divined"] and arrived["faction"] == card["faction"]
    assert arrived["from"] == card["from"] and of(log, "invasion.divined")


def test_saving_in_the_middle_of_an_invasion_continues_identically(tmp_path: Path) -> None:
    straight, whole = invaded(HIDDEN, TREASURY.replace("[3, 3]", "[3, 7]"), seed=8)
    group = invade(straight, member("rogue", 2), member("warrior", 1), member("peasant", 0))
    straight.run(straight.now + 6)
    save_world(straight, tmp_path / "mid.json")
    resumed = load_world(tmp_path / "mid.json")
    rest = resumed.open_log()
    assert isinstance(rest, EventLog)
    start = len(whole.entries)
    run_until(straight, ended(straight, group))
    resumed.run(straight.now)
    expected = [(e.time, e.event) for e in whole.entries[start:]]
    assert [(e.time, e.event) for e in rest.entries] == expected and expected


def test_a_long_run_keeps_only_the_last_invasions_and_its_summary_counts_them_all() -> None:
    # The Master out of reach: groups come for him, scatter for treasure, leave.
    world, log = invaded(calm(HALL), TREASURY + CALM, seed=2, director=True)
    world.run(50 * 1440)
    summary = world.close_log()
    arrived = of(log, "invasion.arrived")
    assert len(arrived) > invasions.KEPT + 10
    assert summary["invasions"] == len(arrived)
    assert summary["adventurers"] == sum(len(e["members"]) for e in arrived)
    assert summary["escaped"] == len(of(log, "adventurer.left"))
    kinds: Counter[str] = Counter(e["kind"] for e in arrived)
    assert summary["invasions_by_kind"] == dict(sorted(kinds.items()))
    assert len(world.invasion.groups) <= invasions.KEPT + 1  # memory stays bounded
    kept = {m for g in world.invasion.groups.values() for m in g.members}
    assert set(world.departed) <= kept
    left = [b for b in world.beings.values() if getattr(b, "where", None) is Whereabouts.LEFT]
    assert left == []  # those who left are not among the dungeon's beings
