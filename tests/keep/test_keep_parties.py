"""Who comes (K-SIZE-01..08): the party generator over thousands of invasions, as a function."""

from __future__ import annotations

import itertools

import pytest
from keep_kit import HALL, invaded, of

from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.keep.content.growth import FULL_GROUP, full_from
from undercroft.keep.content.ruleset import default_ruleset
from undercroft.keep.rules.parties import MIN_LATER, PartyDraw, as_warriors, draw_party

CONTENT = default_ruleset().adventurers


def draws(
    number: int,
    day: int,
    n: int,
    seed: int = 0,
    *,
    mob_allowed: bool = True,
    strength_allowed: bool = True,
) -> list[PartyDraw]:
    rng = DiceSampler(derive_seed(seed, number * 1000 + day))
    return [
        draw_party(
            rng,
            CONTENT,
            number,
            day,
            mob_allowed=mob_allowed,
            strength_allowed=strength_allowed,
        )
        for _ in range(n)
    ]


@pytest.mark.rule("K-SIZE-01", "K-SIZE-04")
def test_the_first_three_invasions_have_the_sizes_the_rules_give() -> None:
    for party in draws(1, 2, 500):
        assert [(m.klass, m.level) for m in party.members] == [("peasant", 0)]
        assert party.events == []
    second = draws(2, 3, 4000)
    sizes = [len(p.members) for p in second]
    assert set(sizes) == {1, 2}
    assert sizes.count(2) / len(sizes) == pytest.approx(0.5, abs=0.03)
    for party in second:
        (event,) = party.events
        assert event.fields["p"] == 0.5 and "K-SIZE-01" in event.rules
        assert event.fields["outcome"] == ("two" if len(party.members) == 2 else "one")
    for number in (3, 4, 9, 30):
        assert min(len(p.members) for p in draws(number, 4, 800)) >= 2


@pytest.mark.rule("K-SIZE-05")
def test_about_one_invasion_in_eight_from_the_third_is_a_peasant_mob() -> None:
    assert not any(p.strength == "mob" for p in draws(2, 20, 2000))
    parties = [p for number in range(3, 43) for p in draws(number, 8 + number, 200)]
    mobs = [p for p in parties if p.strength == "mob"]
    assert len(mobs) / len(parties) == pytest.approx(1 / 8, abs=0.01)
    assert all(m.klass == "peasant" and m.level == 0 for p in mobs for m in p.members)
    early = [len(p.members) for p in draws(3, 3, 4000) if p.strength == "mob"]
    assert set(early) <= {2, 3, 4} and early.count(4) < early.count(2) / 2  # "sometimes 4"
    late = [len(p.members) for p in draws(60, 70, 4000) if p.strength == "mob"]
    assert max(late) == 12 and min(late) >= 6  # "later up to about 12"


@pytest.mark.rule("K-SIZE-06", "R-K-SIZE-01")
def test_from_the_fourth_about_one_in_five_is_weaker_and_one_in_five_stronger() -> None:
    assert not any(p.strength in ("weaker", "stronger") for p in draws(3, 20, 3000))
    parties = [p for number in range(4, 44) for p in draws(number, 20, 200) if p.strength != "mob"]
    weaker = sum(p.strength == "weaker" for p in parties) / len(parties)
    stronger = sum(p.strength == "stronger" for p in parties) / len(parties)
    assert weaker == pytest.approx(0.2, abs=0.015) and stronger == pytest.approx(0.2, abs=0.015)
    # Weaker means fewer members or lower levels, stronger more of either (day 40: five members).
    normal = [p for p in draws(10, 40, 3000) if p.strength == "normal"]
    base_levels = sum(sum(m.level for m in p.members) for p in normal) / len(normal)
    for kind, more in (("weaker", False), ("stronger", True)):
        odd = [p for p in draws(10, 40, 6000) if p.strength == kind]
        members = [len(p.members) for p in odd]
        levels = [sum(m.level for m in p.members) for p in odd]
        if more:
            assert max(members) == 6 and min(members) == 5
            assert max(levels) > base_levels + 3
        else:
            assert min(members) == 4 and max(members) == 5
            assert min(levels) < base_levels - 3


def size(party: PartyDraw) -> tuple[int, int]:
    """A group's member count and level sum."""
    return len(party.members), sum(m.level for m in party.members)


def strength_draw(party: PartyDraw) -> dict[str, object]:
    """The fields of the K-SIZE-06 draw that made ``party`` weaker or stronger."""
    (event,) = [e for e in party.events if "K-SIZE-06" in e.rules and "strength" in e.fields]
    return dict(event.fields)


@pytest.mark.rule("K-SIZE-06", "R-K-SIZE-01")
def test_a_group_marked_weaker_is_weaker_than_the_days_normal_group_or_says_it_cannot_be() -> None:
    for day in (3, 4, 6, 9, 12, 20, 40):
        parties = [p for number in range(4, 24) for p in draws(number, day, 150)]
        normal = [size(p) for p in parties if p.strength == "normal"]
        mean_members = sum(m for m, _ in normal) / len(normal)
        mean_levels = sum(lv for _, lv in normal) / len(normal)
        weaker = [p for p in parties if p.strength == "weaker"]
        stronger = [p for p in parties if p.strength == "stronger"]
        assert len(weaker) > 300 and len(stronger) > 300
        for party, sign in [(p, -1) for p in weaker] + [(p, 1) for p in stronger]:
            draw = strength_draw(party)
            base = draw["normal"]
            assert isinstance(base, dict)
            members, levels = size(party)
            if draw["floored"]:
                # Neither way can change the day's draw: two peasants cannot be weaker.
                assert draw["by"] == "none" and sign < 0
                assert (members, levels) == (base["members"], base["levels"]) == (MIN_LATER, 0)
            else:
                # Exactly one thing changed, in the marked direction (K-SIZE-06).
                dm, dl = members - base["members"], levels - base["levels"]
                assert draw["by"] == ("members" if dm else "levels")
                assert (dm == sign and sign * dl >= 0) or (dm == 0 and sign * dl >= 1)
        # Over the day's groups: the weaker ones not flagged are weaker than the normal ones.
        shown = [size(p) for p in weaker if not strength_draw(p)["floored"]]
        assert shown
        assert sum(m for m, _ in shown) / len(shown) < mean_members
        assert sum(lv for _, lv in shown) / len(shown) < mean_levels
        drop = sum(m < mean_members or lv < mean_levels for m, lv in shown) / len(shown)
        assert drop > 0.9
        floored = sum(bool(strength_draw(p)["floored"]) for p in weaker) / len(weaker)
        # Day 3: half its groups have 2 members and half of those no levels: a quarter.
        assert floored == (pytest.approx(0.25, abs=0.05) if day == 3 else 0.0) or day == 4


@pytest.mark.rule("K-SIZE-03", "R-K-SIZE-01")
def test_the_shipped_curve_grows_groups_to_five_members_before_any_member_levels_up() -> None:
    # Day by day from the content: while a group has fewer than five members expected, no
    # member may be above level 1 (the cap) and the level sum fits within the members, so a
    # member beyond peasant is a first-level adventurer, none levelled up (K-SIZE-03).
    full = full_from(CONTENT)
    assert full is not None and 8 <= full <= 10  # "first grows to 5 members", about day 8-10
    last_members = last_levels = 0.0
    for day in range(1, 81):
        members, levels = CONTENT.members_at(day), CONTENT.levels_at(day)
        assert members >= last_members and levels >= last_levels
        last_members, last_levels = members, levels
        if day < full:
            assert members < FULL_GROUP
            assert CONTENT.level_cap(day) == 1 and levels <= members
        else:
            assert members == FULL_GROUP
    assert CONTENT.levels_at(full + 4) > FULL_GROUP  # then the members level up
    # And the draws agree: no normal group before that day has anyone above level 1.
    for day in range(2, full):
        for party in draws(5, day, 300):
            assert max(m.level for m in party.members) <= 1


@pytest.mark.rule("K-SIZE-03", "K-SIZE-04")
def test_no_member_is_ever_above_the_days_level_cap() -> None:
    caps = {1: 1, 5: 1, 8: 1, 9: 2, 10: 3, 14: 3, 15: 4, 29: 4, 30: 5, 80: 5}
    for day, cap in caps.items():
        assert CONTENT.level_cap(day) == cap
    rng = DiceSampler(11)
    top: dict[int, int] = {}
    for i in range(6000):
        day = 1 + i % 80
        party = draw_party(rng, CONTENT, 3 + i % 40, day)
        assert all(m.level <= CONTENT.level_cap(day) for m in party.members)
        top[day] = max(top.get(day, 0), *(m.level for m in party.members))
    assert top[12] == 3 and top[20] == 4 and top[40] == 5  # the caps are reached


@pytest.mark.rule("K-SIZE-03", "K-SIZE-04")
def test_groups_grow_to_five_members_then_level_up_and_early_ones_are_mostly_peasants() -> None:
    def mean(number: int, day: int, what: str) -> float:
        parties = [p for p in draws(number, day, 1500) if p.strength == "normal"]
        if what == "members":
            return sum(len(p.members) for p in parties) / len(parties)
        if what == "peasants":
            total = sum(len(p.members) for p in parties)
            return sum(m.klass == "peasant" for p in parties for m in p.members) / total
        return sum(sum(m.level for m in p.members) for p in parties) / len(parties)

    assert mean(3, 4, "peasants") > 0.6
    assert mean(8, 13, "members") == pytest.approx(5.0)
    assert mean(8, 13, "levels") < mean(8, 30, "levels") < mean(8, 60, "levels")
    fives = [
        p
        for p in draws(20, 50, 3000)
        if len(p.members) == 5 and all(m.level == 5 for m in p.members)
    ]
    assert fives  # "from about day 50 a group can be 5 level-5 adventurers"
    assert not [p for p in draws(20, 25, 3000) if all(m.level == 5 for m in p.members)]


@pytest.mark.rule("K-SIZE-02")
def test_pursuers_are_never_a_mob_nor_weaker_nor_stronger() -> None:
    parties = [
        p
        for number in range(3, 30)
        for p in draws(number, 20, 100, mob_allowed=False, strength_allowed=False)
    ]
    assert {p.strength for p in parties} == {"normal"}
    assert all(len(p.members) >= 2 for p in parties)


@pytest.mark.rule("K-SIZE-07")
def test_a_camps_warriors_are_one_warrior_per_member_of_that_invasion_none_below_1() -> None:
    for seed in range(200):
        normal = draw_party(DiceSampler(seed), CONTENT, 6, 8, mob_allowed=False)
        camp = as_warriors(
            CONTENT, draw_party(DiceSampler(seed), CONTENT, 6, 8, mob_allowed=False), DiceSampler(1)
        )
        assert len(camp.members) == len(normal.members)
        assert [max(1, m.level) for m in normal.members] == [m.level for m in camp.members]
        assert all(m.klass == "warrior" for m in camp.members)


@pytest.mark.rule("K-SIZE-08")
def test_treasure_and_rooms_change_nothing_about_who_comes() -> None:
    rich = "[[treasure]]\nat = [3, 3]\namount = 500\n[[altar]]\nat = [7, 3]\n"
    arrivals = []
    for extra in ("", rich):
        world, log = invaded(HALL, extra, seed=9, director=True)
        world.run(6 * 1440)
        arrivals.append(
            {
                e["number"]: (e["time"]["day"], [(m["class"], m["level"]) for m in e["members"]])
                for e in of(log, "invasion.arrived")
            }
        )
    plain, treasure = arrivals
    # The groups are drawn from one stream in turn, so once an invasion comes on another
    # day (a treasure group leaves sooner) the later draws differ: compare up to there.
    same_day = list(itertools.takewhile(lambda n: plain[n][0] == treasure.get(n, (0,))[0], plain))
    assert len(same_day) >= 3
    assert all(plain[n] == treasure[n] for n in same_day)
