"""Exact odds: the engine's own chance nodes, checked against independent counts (icepool,
faces counted by hand) and against what a batch actually rolled."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import icepool
import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import Played, invoke
from undercroft.analysis.odds import OddsError, dice_odds, fight_odds, rule_odds
from undercroft.analysis.stats import wilson
from undercroft.crawl.content import DEFAULT_PACK, default_pack, load_pack
from undercroft.crawl.ruleset import Trait
from undercroft.crawl.settings import parse

PACK = default_pack()
HEROES = list(PACK.heroes)


def die_counts(word_of: Callable[[int], object], modifier: int = 0) -> dict[str, Fraction]:
    """Count the six faces by hand: the share of each word ``word_of(total)`` gives."""
    out: Counter[str] = Counter(str(word_of(face + modifier)) for face in range(1, 7))
    return {w: Fraction(n, 6) for w, n in out.items()}


def nz(outcomes: dict[str, Fraction]) -> dict[str, Fraction]:
    """The outcomes that can happen (the odds also list a table's words that cannot)."""
    return {w: p for w, p in outcomes.items() if p}


def mods(hero: str, trait: Trait, light0: bool = False, light: bool = False) -> int:
    bonus = 1 if PACK.heroes[hero].has(trait) else 0
    return bonus - (1 if light and light0 else 0)


@pytest.mark.parametrize(
    "text", ["2d6+3 vs 2d6+1", "2d6 vs 2d6", "1d6+1 vs 1d6", "3d6-2 vs 2d6+2", "d20 vs 2d8+1"]
)
def test_opposed_dice_are_what_icepool_says(text: str) -> None:
    left, right = (icepool_of(side) for side in text.split(" vs "))
    got = dice_odds(text).outcomes
    assert got == {
        "win": (left > right).probability(True),
        "lose": (left < right).probability(True),
        "tie": (left == right).probability(True),
    }


def test_the_readme_number() -> None:
    assert dice_odds("2d6+1 vs 2d6").outcomes["win"] == Fraction(721, 1296)


def icepool_of(text: str) -> icepool.Die:
    """The expression built with icepool's own dice (an independent reading)."""
    die = icepool.Die([0])
    for part in text.replace(" ", "").replace("-", "+-").split("+"):
        sign = -1 if part.startswith("-") else 1
        part = part.lstrip("-")
        if "d" in part:
            n, s = part.split("d")
            die = die + sign * (int(n or 1) @ icepool.d(int(s)))
        else:
            die = die + sign * int(part)
    return die


@pytest.mark.parametrize("text", ["2d6+1", "3d6", "d4+d6-1", "1d20"])
def test_a_plain_expression_gives_every_total(text: str) -> None:
    die = icepool_of(text)
    assert dice_odds(text).outcomes == {str(k): die.probability(k) for k in die.outcomes()}


@pytest.mark.parametrize("bad", ["", "2d6+", "2x6", "0d6", "2d6 vs 2d6 vs 2d6", "2d6 3"])
def test_an_expression_that_cannot_be_read_is_refused(bad: str) -> None:
    with pytest.raises(OddsError):
        dice_odds(bad)


def test_an_expression_starting_with_minus_follows_double_dash() -> None:
    code, stdout, stderr = invoke("odds", "--json", "--", "-2d6")
    assert code == 0, stderr
    die = -icepool.d6 - icepool.d6
    expected = {str(k): die.probability(k) for k in die.outcomes()}
    assert {k: Fraction(v) for k, v in json.loads(stdout)["outcomes"].items()} == expected
    # A negative value of an option is still the option's (C-MENT-01's other side).
    code, _, stderr = invoke("odds", "rule", "C-MENT-01", "--hero", HEROES[0], "--power", "-1")
    assert code == 0, stderr


def door(total: int) -> str:
    return "jammed" if total <= 2 else "stuck" if total <= 4 else "opened"


@pytest.mark.rule("C-DOOR-01", "C-DOOR-02")
@pytest.mark.parametrize("hero", HEROES)
def test_door_odds_for_every_hero(hero: str) -> None:
    assert nz(rule_odds(PACK, "C-DOOR-01", hero).outcomes) == die_counts(
        door, mods(hero, Trait.STRONG)
    )


@pytest.mark.rule("C-SURP-01", "C-SURP-03", "C-SURP-04", "C-LIGHT-02", "R-C-SURP-02")
@pytest.mark.parametrize("hero", ["durn", "garrick", "ysolde"])
@pytest.mark.parametrize("light0", [False, True])
def test_surprise_odds(hero: str, light0: bool) -> None:
    m = mods(hero, Trait.PERCEPTIVE, light0, light=True)
    got = nz(rule_odds(PACK, "C-SURP-01", hero, light0=light0).outcomes)
    assert got == die_counts(lambda t: "surprised" if t <= 2 else "ready", m)
    ambush = nz(rule_odds(PACK, "C-SURP-04", hero, light0=light0).outcomes)
    assert ambush == die_counts(lambda t: "ready" if t >= 6 else "surprised", m)
    natural = load_pack(DEFAULT_PACK, [parse("options.ambusher_six=natural")])
    assert rule_odds(natural, "C-SURP-04", hero, light0=light0).outcomes == {
        "surprised": Fraction(5, 6),
        "ready": Fraction(1, 6),
    }


@pytest.mark.rule("C-DD-01", "C-DD-04")
@pytest.mark.parametrize("hero", ["brenna", "garrick", "hale"])
def test_deaths_door_odds(hero: str) -> None:
    got = nz(rule_odds(PACK, "C-DD-01", hero).outcomes)
    assert got == die_counts(lambda t: "dies" if t <= 3 else "survives",
                             mods(hero, Trait.IRON_WILLED))  # fmt: skip


@pytest.mark.rule("C-TRAP-01", "C-TRAP-04", "C-TRAP-02", "C-TRAP-03", "C-LIGHT-02")
@pytest.mark.parametrize("hero", ["tamsin", "garrick"])
@pytest.mark.parametrize("light0", [False, True])
def test_trap_odds(hero: str, light0: bool) -> None:
    m = mods(hero, Trait.PERCEPTIVE, light0, light=True)
    radius = nz(rule_odds(PACK, "C-TRAP-01", hero, light0=light0).outcomes)
    assert radius == die_counts(lambda t: max(0, t), m)
    text = nz(rule_odds(PACK, "C-TRAP-02", hero, light0=light0).outcomes)
    assert text == die_counts(lambda t: "fail" if t <= 3 else "success", m)
    disarm = nz(rule_odds(PACK, "C-TRAP-03", hero, light0=light0).outcomes)
    assert disarm == die_counts(
        lambda t: "sprung" if t == 1 else "failed" if t <= 3 else "disarmed"
    )


@pytest.mark.rule("C-JUMP-01", "C-JUMP-02", "C-IDENT-01", "C-SPELL-04", "C-MON-03")
@pytest.mark.parametrize("hero", ["sable", "garrick", "mirela"])
def test_jump_identify_overcast_patrol_odds(hero: str) -> None:
    assert nz(rule_odds(PACK, "C-JUMP-02", hero).outcomes) == die_counts(
        lambda t: "fail" if t <= 3 else "success", mods(hero, Trait.AGILE)
    )
    assert nz(rule_odds(PACK, "C-IDENT-01", hero).outcomes) == die_counts(
        lambda t: "never" if t == 1 else "not_yet" if t <= 3 else "identified"
    )
    assert nz(rule_odds(PACK, "C-SPELL-04", hero).outcomes) == die_counts(
        lambda t: "forget" if t == 1 else "hurt" if t <= 5 else "unharmed"
    )
    assert nz(rule_odds(PACK, "C-MON-03", hero).outcomes) == die_counts(
        lambda t: "patrol" if t == 1 else "none"
    )


@pytest.mark.rule("C-MENT-01", "C-MENT-03")
@pytest.mark.parametrize(("hero", "power"), [("garrick", 0), ("hale", 1), ("ysolde", 2)])
def test_mental_combat_odds(hero: str, power: int) -> None:
    me = icepool.d6 + mods(hero, Trait.IRON_WILLED)
    other = icepool.d6 + power
    assert rule_odds(PACK, "C-MENT-01", hero, power=power).outcomes == {
        "win": (me > other).probability(True),
        "lose": (me < other).probability(True),
        "tie": (me == other).probability(True),
    }


def test_a_rule_without_a_d6_table_is_refused() -> None:
    with pytest.raises(OddsError, match="allowed: C-DOOR-01"):
        rule_odds(PACK, "C-FIGHT-04", "garrick")


ITEM_BONUS = {"brenna": 1}  # her Oaken Shield: +1 Fighting Score in every fight


@pytest.mark.rule("C-FIGHT-04", "C-FIGHT-02", "C-SETUP-05", "C-LIGHT-02", "C-SURP-01")
@pytest.mark.parametrize(
    ("hero", "monster", "stamina", "spent", "enemies", "light0", "surprised"),
    [
        ("garrick", "goblin", 0, 0, 1, False, False),
        ("sable", "orc", 2, 1, 1, False, False),
        ("brenna", "cave-troll", 3, 0, 2, True, False),
        ("hale", "skeleton", 1, 0, 3, False, True),
        ("durn", "ghoul", 0, 2, 4, True, True),
    ],
)
def test_fight_odds_are_what_icepool_says(
    hero: str, monster: str, stamina: int, spent: int, enemies: int, light0: bool, surprised: bool
) -> None:
    got = fight_odds(PACK, hero, monster, stamina=stamina, monster_stamina=spent,
                     enemies=enemies, light0=light0, surprised=surprised).outcomes  # fmt: skip
    score = (PACK.heroes[hero].fighting + ITEM_BONUS.get(hero, 0) - (enemies - 1)
             - light0 - surprised + stamina)  # fmt: skip
    mine = 2 @ icepool.d6 + score
    theirs = 2 @ icepool.d6 + PACK.monsters[monster].fighting + spent
    win, tie = (mine > theirs).probability(True), (mine == theirs).probability(True)
    if PACK.heroes[hero].has(Trait.STRONG):
        win, tie = win + tie, Fraction(0)
    assert got == {"win": win, "lose": (mine < theirs).probability(True), "tie": tie}


def test_odds_cli_prints_json_fractions() -> None:
    code, stdout, _ = invoke("odds", "2d6+1 vs 2d6", "--json")
    assert code == 0
    assert json.loads(stdout)["outcomes"]["win"] == "721/1296"
    code, stdout, _ = invoke("odds", "fight", "--hero", "garrick", "--monster", "goblin", "--json")
    assert json.loads(stdout)["outcomes"] == {"win": "493/648", "lose": "155/648", "tie": "0"}
    code, stdout, _ = invoke("odds", "rule", "C-DOOR-01", "--hero", "garrick")
    assert code == 0 and "1/2" in stdout and "50.00%" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rule", "C-DOOR-01"], "needs a rule ID and --hero"),
        (["rule", "C-DOOR-01", "--hero", "nobody"], "no such hero"),
        (["fight", "--hero", "garrick"], "needs --hero H and --monster M"),
        (["fight", "--hero", "garrick", "--monster", "dragon"], "no such monster"),
        (["fight", "--hero", "garrick", "--monster", "orc", "--enemies", "5"], "--enemies 5"),
        (["rule", "C-DOOR-01", "--hero", "garrick", "--monster", "orc"], "belong to `odds fight`"),
        (["2d6", "--hero", "garrick"], "dice expression"),
        (["keep-ko", "--hero", "garrick"], "belong to the crawl's odds"),
        (
            ["rule", "C-DOOR-01", "--hero", "garrick", "--set", "heroes.garrick.traits=[1]"],
            "--set heroes.garrick.traits",
        ),
    ],
)
def test_odds_bad_input_exits_2(args: list[str], message: str) -> None:
    code, stdout, stderr = invoke("odds", *args)
    assert code == 2, stdout
    assert message in stderr and "Traceback" not in stderr


def test_odds_follow_set_content() -> None:
    code, stdout, _ = invoke("odds", "fight", "--hero", "garrick", "--monster", "goblin",
                             "--set", "monsters.goblin.fighting=4", "--json")  # fmt: skip
    assert code == 0
    same = dice_odds("2d6+4 vs 2d6+4").outcomes
    assert json.loads(stdout)["outcomes"]["win"] == str(same["win"] + same["tie"])


# -- the odds against what a batch rolled ----------------------------------------------------


def inside(observed: int, n: int, p: Fraction) -> bool:
    """``p`` lies in the 99.9% Wilson interval of ``observed / n``."""
    est = wilson(observed, n, level=0.999)
    return est.low <= float(p) <= est.high


# The rolls of a batch against these odds, rule by rule and modifier by modifier:
# tests/analysis/test_roll_odds.py.


@pytest.mark.rule("C-FIGHT-04")
def test_batch_fights_agree_with_the_exact_odds(played: Played) -> None:
    fights = pq.read_table(played.two / "fights.parquet").to_pylist()
    groups: dict[tuple[int, int, bool], list[str]] = {}
    for f in fights:
        strong = PACK.heroes[f["hero"]].has(Trait.STRONG)
        mine = f["hero_score"] + f["hero_stamina"]
        key = (mine, f["monster_score"] + f["monster_stamina"], strong)
        groups.setdefault(key, []).append(f["winner"])
    checked = 0
    for (mine, theirs, strong), winners in groups.items():
        if len(winners) < 40:
            continue
        o = dice_odds(f"2d6+{mine} vs 2d6+{theirs}").outcomes
        p = o["win"] + (o["tie"] if strong else 0)
        assert inside(winners.count("hero"), len(winners), p), (mine, theirs, strong)
        checked += 1
    assert checked >= 3
