"""When the careful party gives up a fight. A fight that stands still (knob ``standoff``):
the orc behind two rows of furniture (C-LOS-01: it blocks movement, not sight) can reach
nobody and nobody can reach it, so the fight never ends and nobody explores (C-CMB-01).
A whole game is played by the runner, both seats by the built-in players."""

from __future__ import annotations

import dataclasses

from crawl_kit import board, ruleset, skip_to, start

from undercroft.agents.careful import CarefulParty
from undercroft.agents.knobs import CarefulKnobs
from undercroft.core.dice import DiceSampler
from undercroft.core.events import CrawlTime
from undercroft.core.grid import AreaInfo, Pos
from undercroft.crawl.actions import DONE, Drag, Move, Rest
from undercroft.crawl.content import default_pack
from undercroft.crawl.death import kill_hero
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.crawl.ruleset import Goal
from undercroft.crawl.runner import play

# Ana and Bram on the west side of the hall, the way out (x) beside them; the orc on the
# east side, two rows of furniture between (one cannot be jumped, C-JUMP-01: the landing
# square must be free).
FENCED = board(
    """
    #########
    #x..TT..#
    #a..TTo.#
    #b..TT..#
    #########
    """,
    """
    #########
    #HHHHHHH#
    #HHHHHHH#
    #HHHHHHH#
    #########
    """,
    {"H": AreaInfo("Hall")},
)
SLAY = Goal("orc", "Slay the orc.", "slay", "orc")  # a goal: without one the party leaves


def careful(**knobs: object) -> CarefulParty:
    return CarefulParty(DiceSampler(0), knobs=CarefulKnobs(**knobs))  # type: ignore[arg-type]


def fenced_game(policy: str) -> tuple[list[tuple[int, str]], str]:
    """(turn, hero) of each ``hero.left``, and the reasons given."""
    rules = ruleset(
        FENCED, starts=("a", "b"), exits=("x",), placements=(("orc", "o"),), goals=(SLAY,)
    )
    result = play(rules, ["ana", "bram"], seed=3, heroes=policy, dm="master")
    assert result.log is not None
    left = [
        (e.time.turn, str(e.event.fields["hero"]))
        for e in result.log.entries
        if e.event.type == "hero.left" and isinstance(e.time, CrawlTime)
    ]
    reasons = " | ".join(
        str(e.event.fields.get("reason", ""))
        for e in result.log.entries
        if e.event.type == "reason"
    )
    return left, reasons


def test_the_party_leaves_a_fight_that_has_stood_still() -> None:
    """``standoff=3``: the fight stands still from the first turn; after three such
    turns the party heads out and both heroes leave, saying why. With ``standoff=0``
    they wait for ``give_up`` (here turn 20) and nobody leaves before it."""
    left, reasons = fenced_game("careful[standoff=3,give_up=20]")
    assert {hero for _, hero in left} == {"hero:ana", "hero:bram"}
    assert max(turn for turn, _ in left) <= 6
    assert "the fight has stood still 3 turns" in reasons
    waited, reasons = fenced_game("careful[standoff=0,give_up=20]")
    assert waited and min(turn for turn, _ in waited) >= 20
    assert "stood still" not in reasons


def test_holding_ground_or_stepping_in_and_out_of_a_fight_is_not_standing_still() -> None:
    """Bone Priest against the ``basic`` DM: in seed 473 the heroes hold their ground
    three turns for a ghoul to come (``hold``), and in seed 207 Brenna, at Death's Door,
    walks up to the wraith and back out of its reach every turn; in neither game does the
    fight stand still, and nobody leaves for it (a first version did, and seed 473 was
    lost)."""
    pack = default_pack()
    for seed in (473, 207):
        result = play(
            pack.ruleset("bone-priest"), ["brenna", "garrick", "durn", "sable"], seed=seed,
            heroes="careful", dm="basic",
        )  # fmt: skip
        assert result.log is not None
        reasons = [
            str(e.event.fields["reason"]) for e in result.log.entries if e.event.type == "reason"
        ]
        assert not any("stood still" in r for r in reasons), seed


# A passage: the way out (x) two squares west of Ana, an orc four squares east; and a hall
# with the orc next to her.
ROUT = board(
    """
    ##########
    #x.a...o.#
    ##########
    """
)


ARENA_OUT = board(
    """
    ##########
    #x.ao....#
    #........#
    ##########
    """
)


def test_a_party_all_at_deaths_door_leaves_the_fight() -> None:
    """Knob ``dying``: Ana, the only hero on the board, lies at Death's Door in a fight;
    she heads for the way out, saying why. With ``dying=0`` she walks up to the orc (no
    healthier friend to hang back behind)."""
    rules = ruleset(ROUT, starts=("a",), exits=("x",), placements=[("orc", "o")], goals=[SLAY])
    orc = Pos(7, 1)
    for knobs, out in (({}, True), ({"dying": 0}, False)):
        state, _ = start(rules, ["ana"])
        skip_to(state, "movement")
        assert state.monsters
        state.heroes["hero:ana"].health = 0
        policy = careful(**knobs)
        action = policy.act(observe(state, Seat.HEROES))
        assert isinstance(action, Move)
        if out:
            assert action.path[-1].x < 3  # toward the way out
            assert "every hero on the board lies at Death's Door" in policy.reason
        else:
            assert action.path[-1].manhattan(orc) < Pos(3, 1).manhattan(orc)  # toward the orc
            assert "closes in" in policy.reason


def test_a_hero_at_deaths_door_leaving_steps_out_of_the_fight_first() -> None:
    """Knob ``dying``: Ana at Death's Door next to the orc, the only hero on the board,
    leaves; she steps away from the orc first (a wound would bring another roll,
    C-DD-03) rather than stand in the fight, as a hero leaving otherwise does."""
    rules = ruleset(ARENA_OUT, starts=("a",), exits=("x",), placements=[("orc", "o")], goals=[SLAY])
    state, _ = start(rules, ["ana"])
    skip_to(state, "movement")
    state.heroes["hero:ana"].health = 0
    orc = next(iter(state.monsters.values())).pos
    policy = careful()
    action = policy.act(observe(state, Seat.HEROES))
    assert isinstance(action, Move) and not action.path[-1].is_adjacent(orc)
    assert "steps out of the fight, to leave" in policy.reason


def test_with_no_way_out_a_lone_hero_at_deaths_door_stands_and_fights() -> None:
    """Knob ``dying``, on a board with no way out (the Court of the Ash King has none until
    a text opens one): Ana at Death's Door, alone, next to the orc, cannot leave and has
    no friend to fight in her stead; she stands and fights (the orc's death is her only
    way out) rather than step out of the fight only to walk back into it, and does not
    evade. With ``dying=0`` she steps out of it."""
    rules = ruleset(ARENA_SHUT, starts=("a",), placements=[("orc", "o")], goals=[SLAY])
    for knobs, stands in (({}, True), ({"dying": 0}, False)):
        state, _ = start(rules, ["ana"])
        skip_to(state, "movement")
        state.heroes["hero:ana"].health = 0
        policy = careful(**knobs)
        action = policy.act(observe(state, Seat.HEROES))
        assert isinstance(action, Move) is not stands
        assert ("stands and fights" in policy.reason) is stands
        assert "way out" not in policy.reason
        if stands:
            state.apply(action)
            skip_to(state, "evasion")
            assert policy.act(observe(state, Seat.HEROES)) == DONE


ARENA_SHUT = board(
    """
    ##########
    #..ao....#
    #........#
    ##########
    """
)


def test_with_no_way_out_a_fight_that_stands_still_sends_the_party_round() -> None:
    """``standoff`` on a board with no way out (the Court of the Ash King until the Throne
    Room's text opens one): the party cannot leave, so after three still turns it makes
    for the orc by any way it can ("goes round", or stands when there is none, as here),
    and never says it heads for a way out."""
    rules = ruleset(FENCED, starts=("a", "b"), placements=(("orc", "o"),), goals=(SLAY,))
    result = play(rules, ["ana", "bram"], seed=3, heroes="careful[give_up=30]", dm="master")
    assert result.log is not None
    reasons = [
        str(e.event.fields["reason"]) for e in result.log.entries if e.event.type == "reason"
    ]
    assert any("no way to the monsters this turn, and no way out" in r for r in reasons)
    assert not any("way out (" in r or "stood still 3 turns, and nobody" in r for r in reasons)
    assert result.state.summary()["outcome"] == "turn_cap"


# The way out (x) at the end of a passage one square wide, Bram's corpse (b) in it, the
# orc (o) standing in it too; Ana (a) in the room below.
CORKED = board(
    """
    #########
    #xb..o..#
    #######.#
    #......a#
    #########
    """,
    """
    #########
    #HHHHHHH#
    #######H#
    #HHHHHHH#
    #########
    """,
    {"H": AreaInfo("Hall")},
)


def test_a_hero_clearing_its_way_out_does_not_walk_through_a_monster() -> None:
    """``clear=2``: Ana, leaving (``give_up=1``), would drag Bram's corpse out of the way out,
    but the orc stands in the passage too; the walk up to the corpse stops short of it (a
    first version walked through the orc: an illegal move, found in the Cellars with the
    casters while the party left with monsters on the board)."""
    rules = ruleset(
        CORKED, starts=("a", "b"), exits=("x",), placements=[("orc", "o")], goals=[SLAY]
    )
    state, _ = start(rules, ["ana", "bram"])
    kill_hero(state, state.heroes["hero:bram"])  # his corpse in the Hall with Ana: kept
    skip_to(state, "movement")
    assert state.monsters and state.corpses
    orc = next(iter(state.monsters.values())).pos
    action = careful(give_up=1).act(observe(state, Seat.HEROES))
    assert not (isinstance(action, Move) and orc in action.path)
    state.apply(action)  # legal


# A hall with the way out (x) at its west end, Ana and Bram at its east end, and a crypt
# beyond the east wall that nobody has found (a secret area a text may reveal).
DARK_HALL = board(
    """
    ###########
    #x.....ab##
    #........#.
    ###########
    """,
    """
    ###########
    #HHHHHHHH#C
    #HHHHHHHH#C
    ###########
    """,
    {"H": AreaInfo("Hall"), "C": AreaInfo("Crypt")},
)
FIND = Goal("crypt", "Find the crypt.", "visit", "Crypt")


def test_with_the_light_out_and_a_goals_room_unfound_the_party_leaves() -> None:
    """Knob ``dark``: the Light is out (C-LIGHT-02), the crypt a goal names is still to be
    found, and the hall the tale names has been read: ``dark=1`` sends Ana to the way
    out, saying why. With Light left, the crypt found, the hall not read yet, a tale that
    names no room, or ``dark=0`` she does not leave for it; ``dark=2``-``4`` leave in
    more cases (below)."""
    told = "Somewhere behind the hall lies a crypt."
    rules = ruleset(DARK_HALL, starts=("a", "b"), exits=("x",), goals=[FIND], secret=["Crypt"])
    named = dataclasses.replace(rules, adventure=dataclasses.replace(rules.adventure, intro=told))

    def first_move(
        knobs: dict[str, int], light: int = 0, *, found: bool = False, dead: bool = False,
        read: bool = True, tale: bool = True, seen: int = 0,
    ) -> str:  # fmt: skip
        """Why Ana leaves, when her first move heads for the way out (or drags a corpse
        there), else ""."""
        state, _ = start(named if tale else rules, ["ana", "bram"])
        skip_to(state, "movement")
        state.light = light
        if found:
            state.revealed.add("Crypt")
        if dead:
            kill_hero(state, state.heroes["hero:bram"])
        policy = careful(**knobs)
        if read:
            policy.explored.add("Hall")
        policy.notes["seen_at"] = {"Hall": state.turn - seen}  # in view for ``seen`` turns
        action = policy.act(observe(state, Seat.HEROES))
        if isinstance(action, Drag):  # a corpse taken along on the way out (C-DEATH-03)
            return str(policy.notes.get("leave_why") or "")
        leaving = isinstance(action, Move) and "heads for the way out" in policy.reason
        return policy.reason if leaving else ""

    said = "the Light is out, and a goal's room is still to be found"
    assert said in first_move({"dark": 1})
    assert first_move({"dark": 1}, 3) == ""
    assert first_move({"dark": 1}, found=True) == ""
    assert first_move({"dark": 1}, read=False) == ""
    assert first_move({"dark": 1}, tale=False) == ""
    assert first_move({"dark": 0}) == ""
    # ``dark=2``: the hall in view 10 turns and still unread counts as read (the party
    # cannot get to it); ``dark=3`` the same once a hero has died.
    assert first_move({"dark": 2}, read=False, seen=9) == ""
    assert said in first_move({"dark": 2}, read=False, seen=10)
    assert first_move({"dark": 3}, read=False, seen=10) == ""
    assert said in first_move({"dark": 3}, read=False, seen=10, dead=True)
    # ``dark=4``: with half the party dead (Bram, of two), the hall the tale names found,
    # she leaves though it is neither read nor long in view; not with both alive, nor
    # where the tale names no room, nor at ``dark=3``.
    fell = "the Light is out, half the party has fallen, and a goal's room is still to be found"
    assert fell in first_move({"dark": 4}, read=False, dead=True)
    assert first_move({"dark": 4}, read=False) == ""
    assert first_move({"dark": 4}, read=False, dead=True, tale=False) == ""
    assert first_move({"dark": 3}, read=False, dead=True) == ""
    assert first_move({"dark": 4}, 1, read=False, dead=True) == ""


# A passage: Ana and Bram, the orc at its far end.
HANG_BACK = board(
    """
    ##########
    #x.ab...o#
    ##########
    """
)


def test_a_hero_at_deaths_door_that_only_waits_rests() -> None:
    """Knob ``ward``: Ana at Death's Door hangs back behind Bram while the orc comes; she
    rests rather than only wait, so she makes no Death's Door roll at Turn End (C-DD-02)
    unless a fight breaks the rest (R-C-REST-01). With ``ward=0`` she only waits; with
    the orc next to her she does not rest."""
    rules = ruleset(HANG_BACK, starts=("a", "b"), exits=("x",), placements=[("orc", "o")],
                    goals=[SLAY])  # fmt: skip
    for knobs, rests in (({}, True), ({"ward": 0}, False)):
        state, log = start(rules, ["ana", "bram"])
        skip_to(state, "movement")
        state.heroes["hero:ana"].health = 0
        policy = careful(**knobs)
        action = policy.act(observe(state, Seat.HEROES))
        assert isinstance(action, Rest) is rests, action
        if rests:
            assert "at Death's Door rests: no Death's Door roll at Turn End" in policy.reason
        state.apply(action)
        skip_to(state, "movement", turn=2)  # the rest of turn 1: the orc comes to Bram
        first_turn = [
            e.event for e in log.entries if isinstance(e.time, CrawlTime) and e.time.turn == 1
        ]
        rolled = any(e.type == "roll" and e.fields.get("reason") == "turn_end" for e in first_turn)
        skipped = any(e.type == "deaths_door.skipped" for e in first_turn)
        assert (rolled, skipped) == (not rests, rests)
    state, _ = start(rules, ["ana", "bram"])
    skip_to(state, "movement")
    state.heroes["hero:ana"].health = 0
    orc = next(iter(state.monsters.values()))
    orc.pos = Pos(4, 1)  # next to Ana
    state.sync_board()
    assert not isinstance(careful().act(observe(state, Seat.HEROES)), Rest)
