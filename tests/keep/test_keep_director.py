"""When invasions come (K-TIME-01..07): the director's numbers, statistics, stops, hosts."""

from __future__ import annotations

import itertools
import statistics
from fractions import Fraction
from typing import Any

import pytest
from keep_kit import HALL, adv, invade, invaded, member, of, run_until

from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.core.events import EventLog
from undercroft.core.grid import Pos, Terrain
from undercroft.keep.commands import execute
from undercroft.keep.content.calendar import day_start
from undercroft.keep.content.ruleset import KeepOptions, default_ruleset
from undercroft.keep.rules import director, goals, invasions
from undercroft.keep.state.invasion_state import Group
from undercroft.keep.state.orders import AnswerFugitive, RiteOfStorms
from undercroft.keep.state.world import World

OPTIONS = default_ruleset().options


def gap_hours(rng: DiceSampler, options: KeepOptions, limit: int) -> tuple[int, list[float]]:
    """Draw hour after hour as the director does; the minutes to the hit and the p's."""
    hour, ps = 0, []
    while True:
        hour += 1
        hit, p, _ = director.hourly_draw(rng, options, hour, limit)
        ps.append(p)
        if hit:
            return director.draw_minute(0, hour, limit), ps


@pytest.mark.rule("K-TIME-03", "R-K-TIME-02")
def test_the_limit_is_48_hours_on_day_2_and_30_from_day_7_linear_between() -> None:
    minutes = [director.limit_minutes(OPTIONS, day) for day in range(1, 10)]
    assert minutes == [2880, 2880, 2664, 2448, 2232, 2016, 1800, 1800, 1800]
    for day in range(2, 8):  # an independent reading of the ruling: 48 - 3.6 x (day - 2) h
        assert Fraction(minutes[day - 1], 60) == 48 - Fraction(36, 10) * (day - 2)


@pytest.mark.rule("K-TIME-02", "R-K-TIME-01")
def test_the_hourly_chance_rises_from_its_start_to_100_percent_at_the_limit() -> None:
    limit = 2880
    ps = [director.ramp(OPTIONS, h, limit) for h in range(1, 49)]
    assert ps[0] == pytest.approx(0.02) and ps[-1] == 1.0
    assert all(a < b for a, b in itertools.pairwise(ps))  # rises every hour
    assert ps[23] == pytest.approx(0.02 + 0.98 * 23 / 47)  # straight line (k = 1)
    # The curve is a switch: k = 2 stays low for longer.
    steep = KeepOptions(invasion_ramp=(0.05, 2.0))
    assert director.ramp(steep, 1, limit) == pytest.approx(0.05)
    assert director.ramp(steep, 24, limit) == pytest.approx(0.05 + 0.95 * (23 / 47) ** 2)
    # A limit that is not a whole number of hours: the last draw is at the limit itself.
    assert director.draw_minute(100, 44, 2664) == 100 + 2640
    assert director.draw_minute(100, 45, 2664) == 100 + 2664
    assert director.ramp(OPTIONS, 45, 2664) == 1.0


@pytest.mark.rule("K-TIME-02", "K-TIME-03")
def test_over_thousands_of_invasions_no_gap_is_longer_than_its_limit() -> None:
    rng = DiceSampler(derive_seed(5, 1))
    gaps: dict[int, list[int]] = {}
    first_hour_hits = 0
    for i in range(6000):
        day = 2 + i % 8
        limit = director.limit_minutes(OPTIONS, day)
        gap, ps = gap_hours(rng, OPTIONS, limit)
        assert gap <= limit and ps[-1] <= 1.0
        gaps.setdefault(limit, []).append(gap)
        first_hour_hits += gap == 60
    assert first_hour_hits > 0  # "the next may come in the very first hour"
    # The chance of coming in the first hour is the ramp's start, 2%.
    assert first_hour_hits / 6000 == pytest.approx(0.02, abs=0.01)
    # A shorter limit means the next one comes sooner.
    assert statistics.mean(gaps[1800]) < statistics.mean(gaps[2880])


@pytest.mark.rule("K-TIME-01", "R-K-TIME-03")
def test_the_first_invasion_comes_on_day_2_at_a_random_hour() -> None:
    rng = DiceSampler(7)
    hours = [director.first_hour(rng)[0] for _ in range(4800)]
    assert set(hours) == set(range(24))
    assert max(hours.count(h) for h in range(24)) < 1.3 * 4800 / 24
    hour, event = director.first_hour(DiceSampler(1))
    assert event.type == "roll" and event.fields["dice"] == "1d24"
    assert event.fields["outcome"] == hour and "K-TIME-01" in event.rules


@pytest.mark.rule("K-TIME-01", "K-SIZE-01")
@pytest.mark.parametrize("seed", range(6))
def test_in_a_world_the_first_invasion_is_one_peasant_on_day_2(seed: int) -> None:
    world, log = invaded(HALL, seed=seed, director=True)
    world.run(day_start(3) - 1)
    (roll,) = [e for e in of(log, "roll") if "K-TIME-01" in e["rules"]]
    (first, *_) = of(log, "invasion.arrived")
    assert first["time"]["day"] == 2 and first["hour"] == roll["outcome"]
    assert first["time"]["minute"] == day_start(2) + 60 * roll["outcome"]
    assert [(m["class"], m["level"]) for m in first["members"]] == [("peasant", 0)]


@pytest.mark.rule("K-TIME-02", "K-TIME-03")
def test_after_an_invasion_every_hour_is_a_logged_draw_until_one_arrives() -> None:
    world, log = invaded(HALL, seed=3, director=True)
    run_until(world, lambda: len(of(log, "invasion.arrived")) >= 2, minutes=6 * 1440)
    ended, second = of(log, "invasion.ended")[0], of(log, "invasion.arrived")[1]
    draws = [e for e in of(log, "chance") if "K-TIME-02" in e["rules"]]
    assert draws and draws[-1]["outcome"] == "arrives" and draws[-1]["hit"]
    assert all(d["outcome"] == "waits" and not d["hit"] for d in draws[:-1])
    assert [d["hour"] for d in draws] == list(range(1, len(draws) + 1))
    start = ended["time"]["minute"]
    assert [d["time"]["minute"] for d in draws] == [start + 60 * d["hour"] for d in draws]
    limit = director.limit_minutes(world.options, ended["time"]["day"])
    assert ended["limit_hours"] == limit / 60
    for d in draws:
        assert d["p"] == pytest.approx(director.ramp(world.options, d["hour"], limit))
    assert second["time"]["minute"] == draws[-1]["time"]["minute"]


@pytest.mark.rule("K-TIME-04", "R-K-TIME-04")
def test_the_indicator_word_and_exact_chance() -> None:
    assert [director.word_for(p) for p in (0, 0.02, 0.25, 0.5, 0.74, 0.75, 1)] == [
        "No risk",
        "Unlikely",
        "Possible",
        "Likely",
        "Likely",
        "Imminent",
        "Imminent",
    ]
    world, log = invaded(HALL, seed=2, director=True)
    world.run(100)
    assert director.indicator(world) == director.Indicator("No risk", 0.0)  # day 1
    world.run(day_start(2) + 30)
    first = world.invasion.director.first_minute
    assert first is not None
    if first > world.now:  # not yet come: 1 in 24 this hour
        assert director.indicator(world).percent == pytest.approx(100 / 24, abs=0.01)
    run_until(world, lambda: bool(of(log, "invasion.sighted")), minutes=3 * 1440)
    assert director.indicator(world).word == "In progress"
    run_until(world, lambda: bool(of(log, "invasion.ended")))
    shown = director.indicator(world)
    p = director.ramp(world.options, 1, world.invasion.director.limit_minutes)
    assert shown == director.Indicator(director.word_for(p), round(100 * p, 2))


@pytest.mark.rule("K-TIME-05", "K-TIME-06", "R-K-TIME-05")
def test_no_invasion_during_a_rite_of_storms_and_the_limit_restarts() -> None:
    world, log = invaded(HALL, seed=4, director=True)
    run_until(world, lambda: bool(of(log, "invasion.ended")), minutes=3 * 1440)
    # The rite outlasts the limit: no draw, no invasion, the same limit again.
    limit = world.invasion.director.limit_minutes
    started = world.now
    assert execute(world, RiteOfStorms(hours=limit // 60 + 5)).accepted
    assert director.indicator(world).word == "No risk"
    before = len(of(log, "chance"))
    world.run(started + limit + 60)
    draws = [e for e in of(log, "chance")[before:] if "K-TIME-02" in e["rules"]]
    assert draws == [] and len(of(log, "invasion.arrived")) == 1
    (restart,) = of(log, "invasion.limit")
    assert restart["limit_hours"] == limit / 60 and "K-TIME-06" in restart["rules"]
    assert of(log, "invasions.stopped")[0]["reason"] == "rite_of_storms"
    refused = execute(world, RiteOfStorms())
    assert not refused.accepted and "already under way" in refused.reason
    run_until(world, lambda: bool(of(log, "rite.ended")), minutes=600)
    run_until(world, lambda: len(of(log, "invasion.arrived")) == 2, minutes=3 * 1440)
    assert of(log, "invasions.resumed")[0]["after"] == "rite_of_storms"


@pytest.mark.rule("K-TIME-05")
def test_no_invasion_while_the_dungeon_cannot_be_reached() -> None:
    world, log = invaded(HALL, seed=1, director=True)
    world.grid.set_terrain(Pos(5, 1), Terrain.BLOCKAGE)  # a collapse (K-PATH-01 aside)
    assert director.stopped_reason(world) == "unreachable"
    world.run(day_start(4))
    assert of(log, "invasion.arrived") == []
    world.grid.set_terrain(Pos(5, 1), Terrain.FLOOR)
    invasions.cut_off(world, True)
    assert director.stopped_reason(world) == "cut_off"


@pytest.mark.rule("K-TIME-07", "K-SIZE-07")
def test_a_host_waits_for_the_invasion_under_way_then_comes_without_a_draw() -> None:
    extra = '[[settlement]]\nname = "Millbrook"\nfaction = "millbrook"\n'
    world, log = invaded(HALL, extra, seed=6)
    group = invade(world, member("warrior", 1))
    invasions.host(world, "Millbrook")
    assert len(of(log, "invasion.arrived")) == 1  # it waits for this one to end
    run_until(world, lambda: len(of(log, "invasion.arrived")) == 2)
    ended, host = of(log, "invasion.ended")[0], of(log, "invasion.arrived")[1]
    assert host["kind"] == "host" and host["from"] == "Millbrook"
    assert host["time"]["minute"] == ended["time"]["minute"] and ended["limit_hours"] is None
    assert not [e for e in of(log, "chance") if "K-TIME-02" in e["rules"]]
    # The host counts as that invasion: number 2, drawn as the second invasion is.
    assert host["number"] == 2 and 1 <= len(host["members"]) <= 2
    run_until(world, lambda: len(of(log, "invasion.ended")) == 2)
    assert of(log, "invasion.ended")[1]["limit_hours"] is not None  # a limit starts now
    assert group.phase == "ended"


@pytest.mark.rule("K-TIME-07", "K-SIZE-07")
def test_only_a_hostile_camp_sends_warriors_one_per_member_none_below_level_1() -> None:
    extra = '[[camp]]\nname = "Gorefang"\nrelation = "neutral"\n'
    world, log = invaded(HALL, extra, seed=2)
    with pytest.raises(ValueError, match="not Hostile"):
        invasions.warriors(world, "Gorefang")
    invasions.camp_relation(world, "Gorefang", "hostile")
    invasions.warriors(world, "Gorefang")
    (arrived,) = of(log, "invasion.arrived")
    assert arrived["kind"] == "warriors"
    assert all(m["class"] == "warrior" and m["level"] >= 1 for m in arrived["members"])
    assert len(arrived["members"]) == 1  # the first invasion would have been one peasant


@pytest.mark.rule("K-SIZE-02", "R-K-SIZE-02")
@pytest.mark.parametrize("when", ["at_once", "next_invasion"])
def test_a_fugitives_pursuers_count_as_an_invasion(when: str) -> None:
    extra = '[[script]]\nwhen = "day 1 01:00"\ndo = "fugitive"\nfugitive = "Sela"\n'
    world, log = invaded(HALL, extra, seed=3, director=True, options={"fugitive_pursuers": when})
    world.run(61)
    assert of(log, "fugitive.asked")[0]["fugitive"] == "Sela"
    assert not execute(world, AnswerFugitive("Nobody")).accepted
    assert execute(world, AnswerFugitive("Sela")).accepted
    assert not execute(world, AnswerFugitive("Sela", accept=False)).accepted  # answered
    run_until(world, lambda: bool(of(log, "invasion.arrived")), minutes=3 * 1440)
    (pursuers,) = of(log, "invasion.arrived")
    assert pursuers["kind"] == "pursuers" and pursuers["strength"] == "normal"
    if when == "at_once":
        assert pursuers["time"]["minute"] == 61
    else:  # they are the next invasion: the first, on day 2
        assert pursuers["time"]["day"] == 2
    assert adv(world, world.invasion.groups[1]).invasion == 1


def _send_home(world: World, group: Group) -> None:
    """Every member of ``group`` walks out now (its invasion ends)."""
    for member_id in list(group.members):
        goals.leave(world, adv(world, group, group.members.index(member_id) + 1), group)
    world.run(world.now)


def draws(log: EventLog) -> list[dict[str, Any]]:
    """The director's hourly draws (K-TIME-02)."""
    return [e for e in of(log, "chance") if "K-TIME-02" in e["rules"]]


SCRIPTED_AT_DAWN = """
[[script]]
when = "day 1 00:00"
do = "invade"
members = [{ class = "peasant", level = 0 }]
"""


@pytest.mark.rule("K-TIME-01", "K-TIME-04", "R-K-TIME-02", "R-K-TIME-03")
@pytest.mark.parametrize("seed", range(10))
def test_no_regular_invasion_comes_on_day_1_whatever_scripted_ones_do(seed: int) -> None:
    """Issue 31: a scripted invasion on day 1 started the 48-hour limit when it ended, and
    the hourly draws brought a regular invasion on day 1 (one came at 09:51)."""
    # One scripted at 02:00 (after the first's hour was rolled): the first still comes at
    # its hour of day 2.
    world, log = invaded(HALL, seed=seed, director=True)
    world.run(120)
    group = invade(world, member("peasant", 0))
    _send_home(world, group)
    assert director.indicator(world).word == "No risk"
    world.run(day_start(3) - 1)
    (roll,) = [e for e in of(log, "roll") if "K-TIME-01" in e["rules"]]
    arrived = of(log, "invasion.arrived")
    assert arrived[0]["time"]["minute"] == 120
    assert arrived[1]["time"]["minute"] == day_start(2) + 60 * roll["outcome"]
    assert not [e for e in draws(log) if e["time"]["day"] < 2]
    # One scripted at 00:00, before the director rolled the first's hour: the limit its
    # end starts begins on day 2, and nothing comes on day 1.
    world, log = invaded(HALL, SCRIPTED_AT_DAWN, seed=seed, director=True)
    world.run(30)
    (scripted,) = world.invasion.groups.values()
    _send_home(world, scripted)
    world.run(day_start(2) - 1)
    assert len(of(log, "invasion.arrived")) == 1 and not draws(log)
    (ended,) = of(log, "invasion.ended")
    assert ended["limit_hours"] == 48 and "K-TIME-01" in ended["rules"]
    world.run(day_start(2) + 60)
    (draw,) = draws(log)
    assert draw["time"]["minute"] == day_start(2) + 60 and draw["hour"] == 1
