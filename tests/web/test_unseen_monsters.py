"""Monsters out of the heroes' sight (R-C-MON-06) on the web: the heroes' replay never
draws one, and the heroes' socket gets no frame for a DM move they cannot see."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from web_kit import bearer, game_of, make_client, start

from undercroft.core.events import EventLog
from undercroft.crawl.actions import Done, MonsterMove, to_json
from undercroft.crawl.content import default_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import known_squares, observe
from undercroft.crawl.runner import play
from undercroft.crawl.sightings import HIDDEN, SEEN
from undercroft.crawl.state import State
from undercroft.web.replay import crawl_frames

PACK = default_pack()
PARTY = list(PACK.heroes)[:4]
RAT = "monster:giant-rat-4"


def rat_game() -> EventLog:
    """Greyhollow, seed 2, random DM: in turn 3 a giant rat of a patrol runs into the Low
    East Passage before any hero has seen it (tests/crawl/test_hidden_monsters.py)."""
    result = play(PACK.ruleset("greyhollow-cellars"), PARTY, seed=2, dm="random")
    assert result.log is not None
    return result.log


@pytest.mark.rule("C-LOS-01", "C-TURN-04", "R-C-MON-06")
def test_the_heroes_replay_draws_no_monster_where_their_board_shows_nothing() -> None:
    replay = crawl_frames(rat_game(), PACK, Seat.HEROES)
    board: list[str] = []
    drawn = 0
    rat_hidden = False
    for frame in replay["frames"]:
        if "board" in frame:
            board = frame["board"].split("\n")
        for m in frame["monsters"]:
            x, y = m["pos"]
            assert board[y][x] != "?", f"{m['id']} drawn on a square the heroes do not know"
            drawn += 1
        entry = frame["entry"]
        assert not (entry["type"] == "monster.moved" and entry["monster"] == RAT and rat_hidden)
        if entry.get("monster") == RAT and entry["type"] in (HIDDEN, SEEN):
            rat_hidden = entry["type"] == HIDDEN
            assert (RAT in [m["id"] for m in frame["monsters"]]) is not rat_hidden
    assert drawn > 1000
    # The DM's replay follows the rat everywhere.
    dm = crawl_frames(rat_game(), PACK, Seat.DM)["frames"]
    ran = [f for f in dm if f["entry"]["type"] == "monster.moved" and f["entry"]["monster"] == RAT]
    assert [m["pos"] for m in ran[0]["monsters"] if m["id"] == RAT] == [[13, 18]]


def hidden_move(state: State) -> MonsterMove | None:
    """A legal move of a monster the heroes do not see to a square they do not know."""
    if state.pending is None or state.pending.kind != "monster_movement":
        return None
    shown = {m["id"] for m in observe(state, Seat.HEROES).monsters}
    known = known_squares(state)
    for action in state.legal_actions():
        if isinstance(action, MonsterMove) and action.monster not in shown and action.path:
            end = action.path[-1]
            if not known[end.y, end.x]:
                return action
    return None


@pytest.mark.rule("C-CMB-01", "R-C-MON-06")
def test_the_heroes_socket_gets_no_frame_for_a_move_they_cannot_see() -> None:
    client = make_client()
    data = start(client, adventure="greyhollow-cellars", seed=2, heroes="human", dm="human")
    game_id = data["id"]
    tokens = {seat: data["seats"][seat]["token"] for seat in ("heroes", "dm")}
    game = game_of(client, game_id)
    rng = random.Random(3)
    move = None
    for _ in range(5000):  # random play up to a DM move the heroes cannot see
        move = hidden_move(game.state)
        if move is not None:
            break
        game.table.apply(rng.choice(game.state.legal_actions()))
    assert move is not None, "no hidden move in this game: pick another seed"
    url = f"/api/crawl/games/{game_id}/actions"

    def dm_acts(action: Any) -> None:
        response = client.post(url, headers=bearer(tokens["dm"]), json=to_json(action))
        assert response.status_code == 200, response.text

    # Each frame the socket works out, before it decides whether to send it.
    made: list[int] = []
    frame = game.frame

    def counted(seat: Seat, since: int = 0) -> dict[str, Any]:
        found = frame(seat, since)
        made.append(found["version"])
        return found

    game.frame = counted  # type: ignore[method-assign]
    socket = f"/api/crawl/games/{game_id}/ws?token={tokens['heroes']}"
    with client.websocket_connect(socket) as ws:
        first: dict[str, Any] = ws.receive_json()
        dm_acts(move)
        # The test client runs the socket on an event loop of its own: a message from the
        # page wakes it to see the change (the server runs both on one loop).
        ws.send_text("{}")
        waited = 0.0
        while len(made) < 2 and waited < 10:  # the socket has looked at the change
            time.sleep(0.01)
            waited += 0.01
        assert made == [first["version"]] * 2  # it saw nothing new
        assert observe(game.state, Seat.HEROES).to_json() == first["observation"]
        dm_acts(Done())  # a change the heroes see: Monsters' Movement is over
        second: dict[str, Any] = ws.receive_json()
    # The next frame is the one after Done, numbered next: none came for the hidden move.
    assert second["version"] == first["version"] + 1
    assert second["observation"] == observe(game.state, Seat.HEROES).to_json()
    assert second["observation"] != first["observation"]
    assert move.monster not in [e["entry"].get("monster") for e in second["events"]]
