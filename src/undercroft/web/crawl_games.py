"""crawl games hosted by the web server: seats, secret tokens, and what each seat is sent.

A :class:`CrawlGame` holds one :class:`~undercroft.crawl.state.State` and its event log.
The server plays every seat a policy plays and rolls every die, seeded from the game's
seed exactly as :func:`undercroft.crawl.runner.play` seeds them, so a game with a seed is
reproducible and its log replays. A person reaches a seat with its secret token; the
heroes' seat also has one token per hero, for the player of that hero, who may act only
for it (several people can share the heroes' seat, each moving their own hero).

Everything a seat is sent is built from ``observe(state, seat)`` and the log filtered by
``observe_entry(..., seat)`` (ARCHITECTURE.md, "Hidden information"); a refusal says
only what the seat already knows. A refused request changes nothing.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from undercroft.agents.plugins import is_named
from undercroft.agents.registry import ALIASES, POLICIES
from undercroft.core.events import EventLog, LogEntry
from undercroft.crawl.actions import Action, from_json
from undercroft.crawl.app.table import HUMAN, PLAYED_SEATS, Table
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe, observe_entries
from undercroft.crawl.players import PartyError, check_party
from undercroft.crawl.sightings import Sightings
from undercroft.crawl.state import IllegalActionError
from undercroft.render.narrate import describe
from undercroft.web.hub import RefusalError

MAX_SEED = 2**64 - 1
TOKEN_BYTES = 32
"""A token is 32 random bytes (256 bits), URL-safe base64: never guessed, never reused."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def policy_names() -> list[str]:
    """The built-in policies a seat may be played by (never MODULE:FACTORY over HTTP: the
    server imports no code a request names)."""
    return sorted(name for name in POLICIES if is_named(name))


@dataclass(frozen=True)
class Pass:
    """Who a token lets in: a seat, and for a hero player the one hero it acts for."""

    seat: Seat
    hero: str | None = None


def entry_view(entry: LogEntry) -> dict[str, Any]:
    """A log line as sent to a page: the line itself and its sentence (or ``None``)."""
    try:
        text = describe(entry)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        text = None  # a line whose fields the seat's view dropped: the board tells it
    return {"entry": entry.to_json(), "text": text}


def acts_for(action: Action) -> str | None:
    """The hero an action is for (``hero``, or the ``giver`` of a trade), if any."""
    return getattr(action, "hero", None) or getattr(action, "giver", None)


class CrawlGame:
    """One adventure being played in the server (see the module docstring)."""

    def __init__(self, game_id: str, table: Table) -> None:
        self.id = game_id
        self.table = table
        self.state = table.state
        self.log = table.log
        self.players = table.players
        """Seat -> ``human`` or the policy playing it."""
        self.tokens: dict[Seat, str] = {
            seat: new_token() for seat in PLAYED_SEATS if table.human(seat)
        }
        self.hero_tokens: dict[str, str] = (
            {hero: new_token() for hero in table.state.heroes} if Seat.HEROES in self.tokens else {}
        )
        self.lock = threading.Lock()
        self.driving = threading.Lock()
        """Held by the thread letting policies play after a seat changed hands."""
        self.version = 0
        self.listeners: set[Callable[[], None]] = set()
        self._views: dict[Seat, list[LogEntry]] = {seat: [] for seat in PLAYED_SEATS}
        self._viewed = 0
        self._shown: dict[Seat, tuple[str, int]] = {}
        """Per seat, what its last frame showed (as JSON) and the version it had."""
        # Where the monsters stand, followed along the log for the heroes' (R-C-MON-06).
        self._sightings = Sightings.of_log(self.state.ruleset.adventure, self.log.header)

    # -- who is asking ---------------------------------------------------------------

    def authorize(self, token: str | None) -> Pass:
        """The pass ``token`` gives, or 401. Every token of the game is compared in
        constant time (``hmac.compare_digest``), each one, so timing tells nothing."""
        given = (token or "").encode()
        found: Pass | None = None
        for seat, secret in self.tokens.items():
            if hmac.compare_digest(given, secret.encode()):
                found = Pass(seat)
        for hero, secret in self.hero_tokens.items():
            if hmac.compare_digest(given, secret.encode()):
                found = Pass(Seat.HEROES, hero)
        if found is None or not token:
            raise RefusalError(401, "no valid token for this game (Authorization: Bearer TOKEN)")
        return found

    # -- what a seat is sent ------------------------------------------------------------

    def observation(self, seat: Seat) -> dict[str, Any]:
        """``observe(state, seat).to_json()``: ``legal`` is filled only when the seat acts."""
        with self.lock:
            return observe(self.state, seat).to_json()

    def entries(self, seat: Seat) -> list[LogEntry]:
        """The log as ``seat`` may read it so far (renumbered without gaps)."""
        with self.lock:
            self._catch_up()
            return list(self._views[seat])

    def log_text(self, seat: Seat) -> str:
        """The seat's log as JSON Lines: the header, its lines, the summary once over."""
        view = EventLog(self.log.header, self.entries(seat), self.log.summary)
        return view.text()

    def frame(self, seat: Seat, since: int = 0) -> dict[str, Any]:
        """What the socket pushes: the observation, the seat's log lines from ``since``
        with their sentences, and the summary when the adventure is over. Its
        ``version`` is the seat's own (:meth:`seat_version`)."""
        with self.lock:
            self._catch_up()
            lines = self._views[seat][max(0, since) :]
            observation = observe(self.state, seat).to_json()
            return {
                "type": "observation",
                "version": self._seat_version(seat, observation),
                "observation": observation,
                "events": [entry_view(e) for e in lines],
                "next": len(self._views[seat]),
                "summary": self.summary(),
                "players": self.seat_players(),
            }

    def _seat_version(self, seat: Seat, observation: dict[str, Any]) -> int:
        """A number that grows each time what ``seat`` sees changes (its observation, its
        log, the summary), and only then: a change the seat cannot see, such as the DM
        moving a monster out of the heroes' sight (R-C-MON-06), leaves it as it was, so
        the socket sends no frame for it and the next frame does not count it."""
        seen = json.dumps([observation, len(self._views[seat]), self.summary()], sort_keys=True)
        last = self._shown.get(seat)
        if last is not None and last[0] == seen:
            return last[1]
        version = 1 if last is None else last[1] + 1
        self._shown[seat] = (seen, version)
        return version

    def finished(self) -> bool:
        return self.state.is_terminal()

    def seat_players(self) -> dict[str, str]:
        """Who plays each seat now: ``human`` or a built-in policy's name."""
        return {seat.value: who for seat, who in self.players.items()}

    def summary(self) -> dict[str, Any] | None:
        return None if self.log.summary is None else dict(self.log.summary.results)

    def _catch_up(self) -> None:
        new = self.log.entries[self._viewed :]
        for seat in PLAYED_SEATS:
            view = self._views[seat]
            view.extend(observe_entries(new, seat, len(view), self._sightings))
        self._viewed = len(self.log.entries)

    # -- acting ----------------------------------------------------------------------

    def act(self, who: Pass, data: Any) -> dict[str, Any]:
        """Apply one action sent by ``who`` and return the seat's new observation.

        409 when it is not the seat's turn (or the adventure is over), 403 when a hero
        player acts for another hero, 422 when ``data`` is not an action or the action is
        not one of the legal actions; a refused action changes nothing.
        """
        action = parse_action(data)
        with self.lock:
            state = self.state
            if state.is_terminal():
                raise RefusalError(409, "the adventure is over")
            if state.current_player() is not who.seat:
                raise RefusalError(409, f"it is not the {who.seat.value} seat's turn")
            if not self.table.human(who.seat):
                raise RefusalError(
                    409,
                    f"the {who.seat.value} seat is played by {self.players[who.seat]} now; "
                    "take it back first",
                )
            if action not in state.legal_actions():
                raise RefusalError(422, "that action is not one of the legal actions now")
            hero = acts_for(action)
            if who.hero is not None and hero is not None and hero != who.hero:
                raise RefusalError(403, f"this link plays {who.hero}; that action is for {hero}")
            try:
                self.table.apply(action)
            except IllegalActionError:  # listed yet refused: the rules said no, nothing moved
                raise RefusalError(422, "that action is not legal now") from None
            self.version += 1
            return observe(state, who.seat).to_json()

    def hand_over(self, who: Pass, data: Any) -> dict[str, Any]:
        """Give the seat ``who`` holds to a built-in policy, or take it back
        (``{"player": NAME}`` or ``{"player": "human"}``); who plays each seat now.

        A policy takes over at once: it plays the seat's decisions from the next one on
        (:meth:`run_policies` runs them). Taken back, it makes no decision after the one
        it is making: the seat's next decision is the person's. 403 for a hero player's
        link (the seat is the whole party's), 409 once the adventure is over, 422 for a
        name that is not ``human`` or a built-in policy.
        """
        player = parse_player(data)
        if who.hero is not None:
            raise RefusalError(
                403, f"this link plays {who.hero} only; the heroes' seat link hands the seat over"
            )
        with self.lock:
            if self.state.is_terminal():
                raise RefusalError(409, "the adventure is over")
            if player != self.players[who.seat]:
                self.table.hand_over(who.seat, player)
                self.version += 1
            return {"seat": who.seat.value, "players": self.seat_players()}

    def step(self) -> bool:
        """One decision of a policy (the dice due rolled first), under the lock: ``False``
        when a person must act or the game is over."""
        with self.lock:
            moved = self.table.step()
            if moved:
                self.version += 1
            return moved

    def run_policies(self, wake: Callable[[], None]) -> None:
        """Let the policies play, one decision at a time, until a person must act or the
        adventure ends; ``wake`` after each (the sockets). The lock is let go between
        decisions, so a seat taken back stops its policy at the next decision."""
        while self.step():
            wake()
        wake()

    def notify(self) -> None:
        """Tell the sockets watching this game that it changed (from any thread: each
        listener hands the news to its socket's loop)."""
        for listener in list(self.listeners):
            listener()


def parse_action(data: Any) -> Action:
    """An action from request JSON, or 422 saying what is wrong with it."""
    if not isinstance(data, dict):
        raise RefusalError(422, 'an action is a JSON object such as {"action": "Done"}')
    try:
        return from_json(data)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise RefusalError(422, f"not an action: {exc}") from None


def parse_player(data: Any) -> str:
    """``{"player": NAME}`` checked: ``human`` or a built-in policy (an older alias
    stands for its policy), or 422 naming the choices."""
    choices = [HUMAN, *policy_names()]
    who = data.get("player") if isinstance(data, dict) else None
    if isinstance(data, dict) and set(data) - {"player"}:
        unknown = ", ".join(sorted(set(data) - {"player"}))
        raise RefusalError(422, f"unknown field(s) {unknown}; known: player")
    if isinstance(who, str) and who in ALIASES:
        who = ALIASES[who]
    if not isinstance(who, str) or who not in choices:
        raise RefusalError(422, f"player: one of {', '.join(choices)}")
    return who


@dataclass(frozen=True)
class GameRequest:
    """``POST /api/crawl/games``, checked (:func:`check_request`)."""

    adventure: str
    party: tuple[str, ...]
    seed: int
    players: Mapping[Seat, str]


def check_request(
    data: Any, *, adventures: Mapping[str, int], order: Sequence[str], heroes: Sequence[str]
) -> GameRequest:
    """The new game a request asks for, or 422 naming the field that is wrong.

    ``adventures``: adventure id -> number of start squares; ``order``: the campaign
    order (the first is the default); ``heroes``: the pack's hero ids (the first four are
    the default party).
    """
    if not isinstance(data, dict):
        raise RefusalError(422, "the body must be a JSON object")
    known = {"adventure", "party", "seed", "heroes", "dm"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RefusalError(
            422, f"unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    adventure = data.get("adventure", order[0] if order else None)
    if not isinstance(adventure, str) or adventure not in adventures:
        raise RefusalError(422, f"adventure: one of {', '.join(order)}")
    party = data.get("party", list(heroes)[:4])
    if not isinstance(party, list) or not all(isinstance(h, str) for h in party):
        raise RefusalError(422, "party: a list of hero ids")
    try:
        check_party(party, list(heroes), adventures[adventure])  # C-SETUP-03
    except PartyError as exc:
        raise RefusalError(422, f"party: {exc}") from None
    seed = data.get("seed", secrets.randbelow(2**63))
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RefusalError(422, f"seed: an integer from 0 to {MAX_SEED}")
    players: dict[Seat, str] = {}
    choices = [HUMAN, *policy_names()]
    for seat in PLAYED_SEATS:
        who = data.get(seat.value, HUMAN)
        if isinstance(who, str) and who in ALIASES:
            who = ALIASES[who]  # an older name of a built-in policy (heuristic: basic)
        if who not in choices:
            raise RefusalError(422, f"{seat.value}: one of {', '.join(choices)}")
        players[seat] = who
    return GameRequest(adventure, tuple(party), seed, players)
