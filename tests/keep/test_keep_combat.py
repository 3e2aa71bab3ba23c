"""Fights: attacks and reach, perception, stances, crowding and ordered attacks (K-CMB-01,
K-RNG-01..03, K-PERC-01..03, K-STANCE-01, K-CROWD-01/02, K-LOCK-03; rulings R-K-CMB-01,
R-K-STANCE-02, R-K-PERC-01)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from keep_kit import (
    CALM,
    HALL,
    ScriptedDice,
    adv,
    calm,
    creature,
    invade,
    invaded,
    member,
    minion,
    of,
    stand,
)

from undercroft.core.checks import DiceModel
from undercroft.core.grid import Pos
from undercroft.keep.commands import execute
from undercroft.keep.rules import combat, fallen, fighters, perception, skirmish, stepping
from undercroft.keep.rules.stances import Act, Foe, Reach, Situation, decide
from undercroft.keep.state.actors import Condition, Job, Stance
from undercroft.keep.state.orders import OrderAttack
from undercroft.keep.state.world import World


def facing_off(tiles: str = HALL, extra: str = "", **kw: Any) -> tuple[World, Any, Any]:
    """An invaded world, a warrior standing still (its steps stale) and the log."""
    world, log = invaded(calm(tiles), CALM + extra, **kw)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    return world, log, warrior


@pytest.mark.rule("K-CMB-01", "R-K-CMB-01", "R-K-DICE-01")
def test_an_attack_is_an_opposed_roll_of_battle_and_weapon_against_block() -> None:
    world, log, warrior = facing_off()
    stand(world, warrior, 4, 4)
    kobold = minion(world, 5, 4, job=Job.NONE)
    world.streams["combat"] = ScriptedDice(dice=[15, 5, 3])  # 15 + 8 + 1 vs 5 + 4
    assert combat.attack(world, warrior, kobold)
    hit_roll, block_roll = [e for e in of(log, "roll") if "K-CMB-01" in e["rules"]]
    assert hit_roll["modifiers"] == {"battle": 8, "weapon": 1} and hit_roll["total"] == 24
    assert block_roll["modifiers"] == {"block": 4} and block_roll["total"] == 9
    assert (hit_roll["outcome"], block_roll["outcome"]) == ("win", "lose")
    (attack,) = of(log, "attack")
    assert attack["margin"] == 15 and attack["hit"] and not attack["ranged"]
    (wound,) = of(log, "wound")  # a margin of 10 or more: critical; a 3 on 1d8: torso
    assert (wound["level"], wound["location"], wound["source"]) == ("critical", "torso", warrior.id)
    # A tie goes to the defender (R-K-DICE-01): no wound.
    world.streams["combat"] = ScriptedDice(dice=[5, 14])  # 5 + 9 vs 14 + 4... 14 vs 18
    assert not combat.attack(world, warrior, kobold)


@pytest.mark.rule("K-CMB-01", "R-K-DICE-01")
def test_sampled_attacks_win_as_often_as_the_dice_model_says() -> None:
    world, log, warrior = facing_off(seed=4)
    stand(world, warrior, 4, 4)
    kobold = minion(world, 5, 4, job=Job.NONE)
    trials = 800
    for _ in range(trials):
        kobold.wound_points = 0  # fresh each time
        combat.attack(world, warrior, kobold)
    p = float(DiceModel().p_opposed(4, 2, {"weapon": 1}))
    wins = sum(a["hit"] for a in of(log, "attack")) / trials
    assert abs(wins - p) < 4 * (p * (1 - p) / trials) ** 0.5


@pytest.mark.rule("R-K-CMB-01")
def test_the_margin_sets_the_wound_and_a_critical_goes_one_up() -> None:
    world, _, _ = facing_off()
    levels = [combat.wound_level(world, m, False) for m in (1, 4, 5, 9, 10, 20)]
    assert levels == ["light", "light", "serious", "serious", "critical", "critical"]
    assert [combat.wound_level(world, m, True) for m in (1, 5, 10)] == [
        "serious",
        "critical",
        "critical",
    ]


@pytest.mark.rule("K-RNG-01", "R-K-CMB-01")
def test_melee_reaches_the_four_tiles_beside_and_the_attacker_turns_to_face() -> None:
    world, log, warrior = facing_off()
    stand(world, warrior, 4, 4)
    kobold = minion(world, 5, 5, job=Job.NONE)  # diagonal: not next to it
    assert not combat.in_reach(world, warrior, kobold)
    for x, y, facing in ((5, 4, "e"), (4, 5, "s"), (3, 4, "w"), (4, 3, "n")):
        kobold.pos = Pos(x, y)
        assert combat.in_reach(world, warrior, kobold)
        combat.attack(world, warrior, kobold)
        assert warrior.facing == facing and of(log, "attack")[-1]["facing"] == facing
        kobold.wound_points = 0
        kobold.condition = Condition.UP


# A pillar at (3, 2): from (2, 2) one sees (4, 4) past its corner, but cannot shoot there.
PILLAR = """
#####p#####
#.........#
#..#......#
#.........#
#.........#
#.........#
#.........#
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-RNG-02", "R-CORE-LOF-01")
def test_a_shot_needs_a_clear_line_of_fire_within_range_stricter_than_sight() -> None:
    world, log = invaded(calm(PILLAR), CALM)
    group = invade(world, member("ranger", 1))
    ranger = adv(world, group)
    stand(world, ranger, 2, 2)
    kobold = minion(world, 4, 4, job=Job.NONE)
    assert world.sight().can_see(Pos(2, 2), Pos(4, 4))
    assert not combat.in_reach(world, ranger, kobold)  # the pillar's corner stops it
    kobold.pos = Pos(2, 6)
    assert combat.in_reach(world, ranger, kobold)  # 4 tiles, clear
    kobold.pos = Pos(2, 8)  # 6 tiles: the bow's range (content)
    assert combat.in_reach(world, ranger, kobold)
    stand(world, ranger, 2, 1)
    assert not combat.in_reach(world, ranger, kobold)  # 7: out of range
    kobold.pos = Pos(2, 6)
    combat.attack(world, ranger, kobold)
    assert of(log, "attack")[-1]["ranged"] and "K-RNG-02" in of(log, "attack")[-1]["rules"]


@pytest.mark.rule("K-RNG-03", "R-CORE-LOF-01", "R-K-CMB-01")
def test_bodies_in_between_do_not_block_a_shot_but_may_take_it() -> None:
    world, log = invaded(calm(HALL), CALM)
    group = invade(world, member("ranger", 1), member("warrior", 1))
    ranger, friend = adv(world, group, 1), adv(world, group, 2)
    stand(world, ranger, 2, 4)
    stand(world, friend, 4, 4)  # on the line, between
    kobold = minion(world, 6, 4, job=Job.NONE)
    assert combat.in_reach(world, ranger, kobold)  # a body does not block
    world.streams["combat"] = ScriptedDice(dice=[20, 1, 2], chances=[True])
    combat.attack(world, ranger, kobold)
    (takes,) = [e for e in of(log, "chance") if "K-RNG-03" in e["rules"]]
    assert takes["p"] == 0.25 and takes["body"] == friend.id and takes["outcome"] == "takes"
    assert of(log, "attack")[-1]["target"] == friend.id  # the friend took it
    world.streams["combat"] = ScriptedDice(dice=[20, 1, 2], chances=[False])
    combat.attack(world, ranger, kobold)
    assert of(log, "attack")[-1]["target"] == kobold.id  # it passed


@pytest.mark.rule("K-PERC-01", "K-ARR-03")
def test_your_side_knows_an_adventurer_it_sees_within_3_plus_2_x_stalk() -> None:
    world, log, warrior = facing_off()
    near = minion(world, 1, 8, job=Job.NONE)  # Stalk 4: 11 tiles
    stand(world, warrior, 9, 1)  # Chebyshev 8 from it, in view
    group = world.invasion.groups[warrior.invasion]
    perception.after_step(world, warrior, group)
    (known,) = of(log, "foe.known")
    assert (known["being"], known["foe"], known["how"]) == (near.id, warrior.id, "seen")
    assert near.foes[warrior.id] == [9, 1]
    orc = minion(world, 9, 8, job=Job.NONE, breed="orc")  # Stalk 2: 7 tiles; 7 away
    world.forget("viewers")
    stand(world, warrior, 9, 0)
    perception.after_step(world, warrior, group)
    assert warrior.id not in orc.foes  # 8 tiles: out of its range
    assert perception.perception_range(orc.attributes.stalk) == 7


@pytest.mark.rule("K-PERC-02")
def test_anyone_hit_knows_where_the_attacker_is_even_unseen() -> None:
    world, log = invaded(calm(HALL), CALM)
    group = invade(world, member("ranger", 1))
    ranger = adv(world, group)
    stand(world, ranger, 1, 1)
    orc = minion(world, 6, 5, job=Job.NONE, breed="orc")  # Stalk 2: 7 tiles; ranger 5 away
    orc.attributes = type(orc.attributes)(battle=6, block=5, craft=1, stalk=0)  # sees 3
    assert not perception.sees(world, orc.pos, ranger.pos, orc.attributes.stalk)
    world.streams["combat"] = ScriptedDice(dice=[2, 20])
    combat.attack(world, ranger, orc)
    assert orc.foes[ranger.id] == [1, 1]
    (known,) = [e for e in of(log, "foe.known") if e["being"] == orc.id]
    assert known["how"] == "hit" and "K-PERC-02" in known["rules"]
    assert orc.fighting  # and its stance sends it at the shooter


@pytest.mark.rule("K-PERC-03", "R-K-PERC-01")
def test_a_death_is_a_noise_telling_your_side_within_7_tiles_of_enemies_within_7() -> None:
    world, log = invaded(calm(HALL), CALM)
    group = invade(world, member("warrior", 1), member("warrior", 1))
    near_adv, far_adv = adv(world, group, 1), adv(world, group, 2)
    stand(world, near_adv, 2, 2)
    stand(world, far_adv, 9, 7)  # 8 tiles from the noise at (1, 1)
    hearer = minion(world, 4, 6, job=Job.NONE)  # 5 tiles from it
    deaf = minion(world, 9, 8, job=Job.NONE)  # 8 tiles from it
    victim = minion(world, 1, 1, job=Job.NONE)
    fallen.die(world, victim, by=near_adv.id, cause="wounds")
    (noise,) = of(log, "noise")
    assert noise["at"] == [1, 1] and noise["cause"] == "death" and noise["source"] == victim.id
    assert hearer.id in noise["heard"] and deaf.id not in noise["heard"]
    assert noise["enemies"] == [near_adv.id]  # far_adv is beyond the 7 tiles
    assert hearer.foes.get(near_adv.id) == [2, 2] and far_adv.id not in hearer.foes
    assert near_adv.id not in deaf.foes
    heard = [e for e in of(log, "foe.known") if e["how"] == "noise"]
    assert heard and all("K-PERC-03" in e["rules"] for e in heard)


@pytest.mark.rule("K-PERC-03", "K-FORCE-01")
def test_a_failed_bash_is_a_noise_too() -> None:
    tiles = """
    #####p#####
    #.........#
    #.........#
    #####&#####
    #.........#
    #....s....#
    ###########
    """
    world, log = invaded(tiles, seed=2)
    minion(world, 5, 5, job=Job.NONE)  # within 7 of the door
    world.streams["adventurers"] = ScriptedDice(dice=[2] * 3, chances=[False])  # bash, fail
    invade(world, member("warrior", 1, "doorbreaker"))
    world.run(world.now + 60)
    bashes = [e for e in of(log, "noise") if e["cause"] == "bash"]
    assert bashes and bashes[0]["at"] == [5, 3]


def situation(stance: Stance, *foes: Foe, **kw: Any) -> Situation:
    return Situation(stance, foes, reach=Reach(8, 4, 1, 12), **kw)


@pytest.mark.rule("K-STANCE-01", "R-K-STANCE-01", "R-K-STANCE-02")
def test_each_stance_decides_without_dice() -> None:
    far = Foe("adv:1-1", 10, False, True)
    mid_ = Foe("adv:1-2", 3, False, True)
    adjacent = Foe("adv:1-3", 1, True, True)
    cases = [
        (situation(Stance.FLEE, Foe("adv:1-1", 8, False, True)), Act.FLEE),
        (situation(Stance.FLEE, Foe("adv:1-1", 9, False, True)), Act.CARRY_ON),
        (situation(Stance.AVOID, mid_), Act.KEEP_AWAY),
        (situation(Stance.AVOID, far), Act.CARRY_ON),
        (situation(Stance.AVOID, adjacent, cornered=True), Act.ATTACK),
        (situation(Stance.DEFENSIVE, far), Act.HOLD),
        (situation(Stance.DEFENSIVE, far, ally=4), Act.REGROUP),
        (situation(Stance.DEFENSIVE, adjacent), Act.ATTACK),
        (situation(Stance.DEFENSIVE, Foe("adv:1-1", 6, False, True, struck=True)), Act.CLOSE_IN),
        (situation(Stance.NORMAL, mid_), Act.CLOSE_IN),
        (situation(Stance.NORMAL, Foe("adv:1-1", 13, False, True)), Act.CARRY_ON),
        (situation(Stance.NORMAL, Foe("adv:1-1", 2, False, False)), Act.WAIT),
        (situation(Stance.AGGRESSIVE, Foe("adv:1-1", 40, False, True)), Act.CLOSE_IN),
        (situation(Stance.AGGRESSIVE, mid_, adjacent), Act.ATTACK),
        (situation(Stance.FLEE, far, ordered=frozenset({"adv:1-1"})), Act.CLOSE_IN),
        (situation(Stance.NORMAL), Act.CARRY_ON),
    ]
    for case, expected in cases:
        assert decide(case).act is expected, (case, decide(case))
    # The same situation always gives the same decision (no random draw in it).
    rng = random.Random(3)
    for _ in range(300):
        stance = rng.choice(list(Stance))
        foes = tuple(
            Foe(f"adv:1-{i}", rng.randint(1, 20), rng.random() < 0.3, rng.random() < 0.7)
            for i in range(rng.randint(0, 4))
        )
        s = situation(stance, *foes, ally=rng.choice([None, 1, 5]), cornered=rng.random() < 0.2)
        assert decide(s) == decide(s)


@pytest.mark.rule("K-STANCE-01", "R-K-STANCE-02")
def test_an_avoid_stance_minion_keeps_away_and_a_normal_one_closes_in() -> None:
    world, log, warrior = facing_off()
    stand(world, warrior, 5, 4)
    shy = minion(world, 5, 6, job=Job.NONE)
    shy.stance = Stance.AVOID
    bold = minion(world, 2, 6, job=Job.NONE, breed="orc")
    for being in (shy, bold):
        being.foes[warrior.id] = [5, 4]
        fighters.consider(world, being)
    world.run(world.now + 3)
    assert shy.pos.chebyshev(warrior.pos) > 2  # it stepped away
    assert bold.pos.manhattan(warrior.pos) <= 1 or of(log, "attack")  # it came to fight
    acts = {(e["being"], e["act"]) for e in of(log, "fighter.decision")}
    assert (shy.id, "keep_away") in acts and (bold.id, "close_in") in acts


# A corridor 1 tile wide: only one attacker at a time can stand next to the adventurer.
CORRIDOR = """
#####p#####
#.........#
#####.#####
#####.#####
#####.#####
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-CROWD-01")
def test_one_body_a_tile_extra_attackers_wait_for_a_tile() -> None:
    world, log = invaded(calm(CORRIDOR), CALM)
    group = invade(world, member("warrior", 3), member("peasant", 0))
    warrior, mate = adv(world, group, 1), adv(world, group, 2)
    stand(world, warrior, 5, 3)  # in the corridor, its mate above it:
    stand(world, mate, 5, 2)  # only (5, 4) is free next to the warrior
    orcs = [minion(world, x, 5, job=Job.NONE, breed="orc") for x in (4, 5, 6)]
    for orc in orcs:
        orc.foes[warrior.id] = [5, 2]
        fighters.consider(world, orc)
    for _ in range(8):
        world.run(world.now + 1)
        fighters_at = [o.pos for o in orcs if o.fighting]
        assert len(fighters_at) == len(set(fighters_at))  # never two on a tile
    assert any(e["act"] == "wait" for e in of(log, "fighter.decision"))
    assert any("K-CROWD-01" in e["why"] for e in of(log, "fighter.decision"))


@pytest.mark.rule("K-CROWD-02", "K-CROWD-01")
def test_two_kobolds_can_fight_from_one_tile() -> None:
    world, _, warrior = facing_off()
    stand(world, warrior, 5, 4)
    a = minion(world, 5, 5, job=Job.NONE)
    orc = minion(world, 4, 5, job=Job.NONE, breed="orc")
    fighters.engage(world, a)
    b = minion(world, 5, 5, job=Job.NONE)  # each comes to the tile as the one before fights
    assert stepping.room_for(world, b, Pos(5, 5))  # a second kobold: yes
    assert not stepping.room_for(world, orc, Pos(5, 5))  # an orc: no
    fighters.engage(world, b)
    assert a.pos == b.pos == Pos(5, 5)
    assert sorted(stepping.occupants(world, Pos(5, 5))) == sorted([a.id, b.id])
    c = minion(world, 5, 5, job=Job.NONE)
    assert not stepping.room_for(world, c, Pos(5, 5))  # a third: no
    fighters.engage(world, c)
    assert c.pos != Pos(5, 5)
    assert combat.in_reach(world, a, warrior) and combat.in_reach(world, b, warrior)


# A wall between the warrior (above) and the minions (below), a closed door in it.
DOOR_BETWEEN = """
#####p#####
#.........#
#.........#
#####+#####
#.........#
#....s....#
###########
"""


@pytest.mark.rule("K-LOCK-03", "K-LOCK-02")
def test_only_an_ordered_minion_opens_a_door_to_reach_an_enemy() -> None:
    outcome = {}
    for ordered in (False, True):
        world, log = invaded(calm(DOOR_BETWEEN), CALM)
        group = invade(world, member("warrior", 1))
        warrior = adv(world, group)
        stand(world, warrior, 5, 1)
        orc = minion(world, 5, 5, job=Job.FIGHTING, breed="orc")
        orc.stance = Stance.AGGRESSIVE
        if ordered:
            assert execute(world, OrderAttack(orc.id, warrior.id)).accepted
        else:
            orc.foes[warrior.id] = [5, 1]
            fighters.consider(world, orc)
        world.run(world.now + 10)
        outcome[ordered] = orc.pos.y < 3 or bool(of(log, "attack"))
    assert outcome == {False: False, True: True}


@pytest.mark.rule("K-LOCK-03")
def test_a_lair_creature_never_opens_a_door_to_reach_an_enemy_the_master_always_may() -> None:
    world, _ = invaded(calm(DOOR_BETWEEN), '[[lair]]\nname = "den"\nat = [2, 5]\n' + CALM)
    group = invade(world, member("warrior", 1))
    warrior = adv(world, group)
    stand(world, warrior, 5, 2)
    troll = creature(world, "troll", 5, 4, lair="den")
    assert fighters._close_in(world, troll, warrior) is None  # no way it may take
    master = world.beings["master"]
    stepping.vacate(world, troll)
    troll.present = False
    master.pos = Pos(5, 4)
    master.fighting = True
    stepping.occupy(world, master, master.pos)
    assert fighters._close_in(world, master, warrior) is True  # into the doorway
    door = world.door_at(Pos(5, 3))
    assert master.pos == Pos(5, 3) and door is not None and door.open


@pytest.mark.rule("K-CROWD-01", "K-RNG-02")
def test_no_shot_at_someone_on_ones_own_tile() -> None:
    """Issue 31: a ranger shot a minion standing on its own tile (distance 0)."""
    world, _ = invaded(calm(HALL), CALM)
    group = invade(world, member("ranger", 2))
    ranger = adv(world, group)
    stand(world, ranger, 3, 3)
    kobold = minion(world, 3, 3, job=Job.NONE)
    assert combat.weapon_of(world, ranger).ranged
    assert not combat.in_reach(world, ranger, kobold)
    assert skirmish.target(world, ranger) is None
    kobold.pos = Pos(3, 6)
    assert combat.in_reach(world, ranger, kobold)
