"""The pages in a real browser (headless Chromium, Playwright): a person's clicks play an
adventure to its end as the heroes against the built-in DM, a second browser plays the
DM seat of another game, the heroes' page never holds what they may not know (the DOM
and every message it received), and the replay scrubber moves through the log."""

from __future__ import annotations

import dataclasses
import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from server_kit import running_server
from web_kit import Secrets, assert_hidden, never_seen, secrets_of

from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe
from undercroft.keep.rules import invasions
from undercroft.keep.scenario import build_world
from undercroft.keep.state.orders import COMMANDS
from undercroft.web.crawl_games import CrawlGame
from undercroft.web.keep_map import shown_beings

PICTURES = Path(__file__).resolve().parents[2] / "docs" / "images"


def picture(name: str, tmp_path: Path) -> Path:
    """Where a screenshot goes: the test's own folder, or with ``UNDERCROFT_PICTURES=1``
    (``make pictures``) the README's pictures in docs/images. ``make test`` never
    rewrites a tracked file."""
    return (PICTURES if os.environ.get("UNDERCROFT_PICTURES") == "1" else tmp_path) / name


def new_game(base: str, **body: Any) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/crawl/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.load(response)
        return data


class Watched:
    """A page and everything it received from the server: socket frames, API bodies."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.messages: list[Any] = []
        self.checked = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", self._response)

    def _frame(self, payload: Any) -> None:
        self.messages.append(json.loads(payload))

    def _response(self, response: Any) -> None:
        if "/api/" in response.url:
            try:
                text = response.text()
            except Exception:  # a body the browser no longer holds (a redirect, a reload)
                return
            for line in text.splitlines() or [""]:
                if line.strip().startswith(("{", "[")):
                    self.messages.append(json.loads(line))

    def idle(self, version: str | None = None) -> None:
        """Wait for the page to finish an action (and to draw a newer frame than
        ``version``; with none, for its first frame: a page just opened has drawn
        nothing yet, and is not busy either)."""
        self.page.wait_for_function(
            "v => document.body.dataset.busy !== '1'"
            " && document.body.dataset.version !== undefined"
            " && document.body.dataset.version !== v",
            arg=version,
            timeout=15_000,
        )
        self.page.wait_for_timeout(30)

    def check_heroes(self, game: CrawlGame, *, replay: bool = False) -> None:
        """Nothing received since the last check, nor the DOM now, holds a secret (a
        replay's board may show any square the heroes' board showed at some time)."""
        with game.lock:
            secrets = secrets_of(game.state)
            if replay:
                secrets = dataclasses.replace(secrets, unknown=never_seen(game))
        news = self.messages[self.checked :]
        for message in news:
            assert_hidden(message, secrets, board=message is news[-1] and "frames" not in message)
        self.checked = len(self.messages)
        check_dom(self.page, game, secrets)


WORDED = {
    "fight": "Fight: ",
    "mental": "Mental Combat: ",
    "casting": "",
    "take_item": "Found: ",
    "choice": "The text offers ",
    "text_test": "Who takes up the text",
}
"""The decision contexts the play page words, and how each line begins."""


def check_dom(page: Any, game: CrawlGame, secrets: Secrets) -> None:
    text = page.inner_text("body")
    html = page.content()
    for known in sorted(game.state.revealed, key=len, reverse=True):
        text = text.replace(known, "")  # "Low East Passage" is not "East Passage"
    for area in secrets.areas:
        assert area not in text, f"unrevealed area {area!r} on the heroes' page"
    names = {game.state.ruleset.items[c].name for c in secrets.cards}
    for card in secrets.cards:
        assert f'"{card}"' not in html
    for item_name in names:
        assert item_name not in text, f"face-down {item_name!r} named on the heroes' page"
    for x, y in secrets.traps:
        assert page.locator(f'[data-trap="{x},{y}"]').count() == 0, "an undetected trap drawn"
    unknown_drawn = page.evaluate(
        "() => [...document.querySelectorAll('rect.sq:not(.unknown)')].map(r => r.dataset.sq)"
    )
    for square in unknown_drawn:
        x, y = map(int, square.split(","))
        assert (x, y) not in secrets.unknown, (
            f"square ({x},{y}) drawn though the heroes never saw it"
        )


def exit_gap(square: str, exits: list[list[int]]) -> int:
    x, y = map(int, square.split(","))
    return min(abs(x - ex) + abs(y - ey) for ex, ey in exits)


def heroes_click(page: Any, obs: dict[str, Any], outward: bool) -> bool:
    """One click a person might make: leave when one can, force a door, move (outward
    at first, then back toward an exit), or press the first button offered. False when
    the click only chose a hero (nothing sent to the server)."""
    selected = page.evaluate("() => document.querySelector('.hero-card.selected')?.dataset.hero")
    if obs["decision"] == "movement" and not outward:
        leavers = [a["hero"] for a in obs["legal"] if a["action"] == "Leave"]
        if leavers and selected not in leavers:
            page.locator(f'.hero-card[data-hero="{leavers[0]}"]').click()
            return False
        if leavers:
            page.locator("button[data-action=Leave]").first.click()
            return True
    if obs["decision"] == "movement":
        if outward and page.locator("rect.target.door").count():
            page.locator("rect.target.door").first.click()
            return True
        squares = page.evaluate(
            "() => [...document.querySelectorAll('rect.target.move')].map(r => r.dataset.target)"
        )
        here = {h["id"]: h["pos"] for h in obs["heroes"]}
        pos = here.get(selected)
        if squares and pos is not None:
            now = exit_gap(f"{pos[0]},{pos[1]}", obs["exits"])
            best = max(squares, key=lambda s: exit_gap(s, obs["exits"]) * (1 if outward else -1))
            gain = exit_gap(best, obs["exits"]) - now
            if (gain > 0) if outward else (gain < 0):
                page.locator(f'rect.target[data-target="{best}"]').click()
                return True
        # This hero is done: end its movement (its card's button), or the heroes'.
        mine = page.locator("button[data-action=EndMovement]")
        if mine.count():
            mine.first.click()
            return True
        page.locator("button[data-action=Done]").first.click()
        return True
    page.locator("button.action").first.click()
    return True


@pytest.fixture(scope="module")
def server() -> Any:
    with running_server() as (base, app):
        yield base, app


def test_heroes_play_to_the_end_by_clicks_and_replay_it(
    chromium: Any, server: Any, tmp_path: Path
) -> None:
    base, app = server
    data = new_game(base, adventure="greyhollow-cellars", seed=3, heroes="human", dm="heuristic")
    game: CrawlGame = app.state.games.get(data["id"])
    context = chromium.new_context(viewport={"width": 1500, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    watched = Watched(page)
    page.goto(data["seats"]["heroes"]["url"])
    watched.idle()
    clicks = 0
    contexts: set[str] = set()
    while not page.locator("#end:not([hidden])").count():
        with game.lock:
            obs = observe(game.state, Seat.HEROES).to_json()
        version = page.evaluate("() => document.body.dataset.version")
        context_kind = (obs.get("context") or {}).get("kind")
        if obs["legal"] and context_kind in WORDED:
            # What the decision is about, in words above the buttons (render/decision.py
            # says the same at the terminal), and a choice's options by their labels.
            line = page.locator("#actions p.context")
            assert line.count() == 1 and line.inner_text().startswith(WORDED[context_kind])
            contexts.add(context_kind)
            if context_kind == "choice":
                labels = page.locator("#actions button.action").all_inner_texts()
                assert labels[0].startswith(obs["context"]["options"][0]["label"])
        outward = obs["turn"] <= 3
        sent = heroes_click(page, obs, outward)
        clicks += 1
        watched.idle(version if obs["legal"] and sent else None)
        if clicks % 10 == 0:
            watched.check_heroes(game)
        if clicks == 6:
            page.screenshot(path=str(picture("crawl-game.png", tmp_path)))
        if clicks >= 150:
            page.screenshot(path=str(tmp_path / "stuck.png"))
        assert clicks < 150, (
            f"the game did not end: {obs['turn']} {obs['decision']} {obs['legal'][:4]}"
        )
    watched.check_heroes(game)
    assert game.state.is_terminal() and not errors
    assert "fight" in contexts, contexts
    end = page.inner_text("#end")
    assert f"Outcome: {game.state.outcome}" in end
    assert page.locator("#narration li[title]").count() > 3  # rule IDs on hover
    assert page.locator("#narration li[title*='C-']").count() > 0
    # The replay of this game, from the end screen's link: scrub it.
    page.click("#replay-link")
    page.wait_for_function("() => document.body?.dataset.index !== undefined", timeout=15_000)
    last = int(page.evaluate("() => document.body.dataset.index"))
    assert last > 20
    page.locator("#scrubber").fill("0")
    page.wait_for_function("() => document.body?.dataset.index === '0'")
    first_lines = page.locator("#narration li").count()
    page.locator("#scrubber").fill(str(last // 2))
    page.wait_for_function(f"() => document.body.dataset.index === '{last // 2}'")
    assert page.locator("#narration li").count() > first_lines
    page.click("#next")
    page.wait_for_function(f"() => document.body.dataset.index === '{last // 2 + 1}'")
    assert page.locator("#board rect.sq").count() > 0
    watched.check_heroes(game, replay=True)
    context.close()


def test_a_second_browser_plays_the_dm_seat(chromium: Any, server: Any) -> None:
    base, app = server
    data = new_game(base, adventure="bone-priest", seed=4, heroes="heuristic", dm="human")
    assert data["seats"]["heroes"]["token"] is None
    game: CrawlGame = app.state.games.get(data["id"])
    context = chromium.new_context()
    page = context.new_page()
    watched = Watched(page)
    page.goto(data["seats"]["dm"]["url"])
    watched.idle()
    assert "Dungeon Master" in page.inner_text("#seat")
    assert page.locator("rect.sq.unknown").count() == 0  # the DM sees the whole board
    decisions = 0
    while decisions < 12 and not game.state.is_terminal():
        version = page.evaluate("() => document.body.dataset.version")
        if page.locator("rect.target").count():
            page.locator("rect.target").first.click()
        else:
            page.locator("button.action").first.click()
        watched.idle(version)
        decisions += 1
    assert decisions == 12 or game.state.is_terminal()
    assert page.locator(".figure.monster").count() >= 0
    with game.lock:
        dm = observe(game.state, Seat.DM).to_json()
    drawn = page.evaluate("() => [...document.querySelectorAll('.figure')].map(f => f.dataset.id)")
    on_board = [f["id"] for f in dm["heroes"] + dm["monsters"] if f["pos"] is not None]
    assert sorted(drawn) == sorted(on_board)
    context.close()


def test_the_lobby_starts_a_game_and_gives_a_link_per_seat(chromium: Any, server: Any) -> None:
    base, _ = server
    page = chromium.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#party input")
    page.locator("#seed").fill("7")
    page.click("#start")
    page.wait_for_selector("#links:not([hidden])")
    assert page.locator("#heroes-link").count() == 1
    assert page.locator("a[id^=link-hero-]").count() == 4
    href = page.get_attribute("#heroes-link", "href")
    assert href is not None and "#token=" in href
    page.close()


def keep_world_page(chromium: Any, base: str, scenario: str) -> tuple[Any, list[str]]:
    """The keep viewer with a new world of ``scenario`` drawn, and the page's errors."""
    page = chromium.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/keep")
    page.wait_for_selector(f"#scenario option[value={scenario}]", state="attached")
    page.select_option("#scenario", scenario)
    page.click("#start")
    page.wait_for_selector("#board .ks.mechanism")
    return page, errors


def test_the_keep_viewer_shows_a_trap_firing_and_an_invasion(
    chromium: Any, server: Any, tmp_path: Path
) -> None:
    base, app = server
    page, errors = keep_world_page(chromium, base, "mid")
    # Play, then pause: the clock moves.
    page.select_option("#speed", "60")
    page.click("#playpause")
    page.wait_for_function("() => Number(document.body.dataset.minute) >= 120")
    page.click("#playpause")

    def next_event(kind: str) -> None:
        count = page.locator("#log li").count()
        page.select_option("#next-kind", kind)
        page.click("#next")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {count}")
        page.wait_for_function("() => document.body?.dataset.busy !== '1'")

    next_event("invasion")
    page.wait_for_selector(".group[data-group='1']")
    assert page.locator("#log li[data-type='invasion.arrived']").count() == 1
    next_event("wound")
    page.wait_for_selector('#log li[data-type="wound"]')
    invaders = page.locator('.being.adventurer[data-being^="adv:1-"]')
    assert invaders.count() >= 1  # the group's members drawn, as adventurers
    assert page.locator(".being.side-keep").count() > 0  # and the keep's side apart
    page.screenshot(path=str(picture("keep-world.png", tmp_path)))
    # What an adventurer knows (K-LEARN-07).
    invaders.first.click()
    page.wait_for_selector("#detail .knowledge")
    assert "K-LEARN-07" in page.inner_text("#detail")
    # A trap firing: drawn as fired, its history and workload on a click.
    next_event("trap")
    page.wait_for_selector("#board .ks.fired")
    fired = page.locator("#log li[data-type='trap.fired']").last
    assert "{" not in fired.inner_text() and " at (" in fired.inner_text()  # a sentence
    page.locator(f'[data-structure="{fired.get_attribute("data-trap")}"]').click()
    assert "fired" in page.inner_text("#detail") and "rearmed" in page.inner_text("#detail")
    # A keeper command from the page, and one the rules refuse (the reason shown).
    page.select_option("#verb", "set_stance")
    page.select_option("#f-stance", "aggressive")
    minion = page.locator("#f-minion").input_value()
    page.click("#send")
    page.wait_for_selector("#command-result.ok")
    watch = app.state.worlds.get(page.evaluate("() => kv.id"))
    assert watch.world.minion(minion).stance.value == "aggressive"
    page.select_option("#verb", "build")
    page.click("#f-at")
    page.locator('rect.sq[data-sq="0,0"]').click()  # a wall: nothing can be built there
    page.click("#send")
    page.wait_for_selector("#command-result.error")
    assert "is not open floor" in page.inner_text("#command-result")
    assert page.locator(".wire").count() > 0 and page.locator(".ks.door.locked").count() > 0
    assert not errors
    page.close()


def test_the_keeper_panel_offers_and_sends_every_command(chromium: Any, server: Any) -> None:
    base, app = server
    page, errors = keep_world_page(chromium, base, "trapworks")
    offered = page.eval_on_selector_all("#verb option", "os => os.map(o => o.value)")
    assert sorted(offered) == sorted(COMMANDS)  # all 16 keeper commands
    watch = app.state.worlds.get(page.evaluate("() => kv.id"))
    with watch.lock:
        invasions.fugitive_asks(watch.world, "Brannoc")  # K-SIZE-02, as a script would
    # A timer's delay (K-WIRE-03): a number typed in; the answer redraws the page.
    page.select_option("#verb", "set_timer")
    timer = page.locator("#f-timer").input_value()
    page.fill("#f-minutes", "45")
    page.click("#send")
    page.wait_for_selector("#command-result.ok")
    assert watch.world.structure(timer).delay == 45
    assert "fugitive Brannoc asks to hide" in page.inner_text("#invasions")
    # The fugitive's answer: it is offered only while unanswered.
    page.select_option("#verb", "answer_fugitive")
    assert page.locator("#f-fugitive").input_value() == "Brannoc"
    page.select_option("#f-accept", "true")
    page.click("#send")
    page.wait_for_function(  # the answer to this command, not the last one's
        "() => document.querySelector('#command-result').textContent.includes('fugitive')"
    )
    assert watch.world.invasion.fugitives["Brannoc"]["answer"] == "joined"
    assert "pursuers" in page.inner_text("#command-result")  # the effect is shown
    # Trapworks has one Watchful Eye blessing (K-ARR-06): the first call sends the ghost
    # eye out, the second is refused with the rules' reason.
    assert "watchful eye 1" in page.inner_text("#invasions .charges")
    page.select_option("#verb", "watchful_eye")
    page.click("#send")
    page.wait_for_function(
        "() => document.querySelector('#command-result').textContent.includes('until')"
    )
    assert "watchful eye 0" in page.inner_text("#invasions .charges")
    page.click("#send")
    page.wait_for_selector("#command-result.error")
    assert "K-ARR-06" in page.inner_text("#command-result")
    assert not errors
    page.close()


def test_the_replay_scrubber_moves_through_a_keep_log(
    chromium: Any, server: Any, tmp_path: Path
) -> None:
    base, _ = server
    log = tmp_path / "keep.jsonl"
    world = build_world("mid", seed=1)
    world.open_log(log)
    world.run_days(3)
    world.close_log()
    page = chromium.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/replay")
    page.set_input_files("#file", str(log))
    page.wait_for_function("() => document.body?.dataset.index !== undefined", timeout=15_000)
    assert page.evaluate("() => document.body.dataset.ruleset") == "keep"
    last = int(page.evaluate("() => document.body.dataset.index"))
    invaders = '.being.adventurer[data-being^="adv:1-"]'
    page.locator("#scrubber").fill("0")
    page.wait_for_function("() => document.body?.dataset.index === '0'")
    # The first line that is not a die: invasion 1 arrives, its member at the portal.
    assert page.locator("#narration li").last.get_attribute("data-type") == "invasion.arrived"
    portal = page.locator(invaders).first.locator("polygon").get_attribute("points") or ""
    x, y = (float(v) for v in portal.split()[0].split(","))
    assert (int(x // 24), int(y // 24)) == (24, 0)
    assert page.locator("#board .ks.mechanism").count() > 0
    page.locator("#scrubber").fill(str(last))
    page.wait_for_function(f"() => document.body.dataset.index === '{last}'")
    # The end of the log: the adventurers still on the map (in the fight, held in a cell,
    # or lying dead), as many as the world itself shows.
    left_on_map = [b for b in shown_beings(world) if b.id.startswith("adv:")]
    assert left_on_map, "pick a world that leaves an adventurer on the map"
    assert page.locator(".being.adventurer").count() == len(left_on_map)
    page.locator("#scrubber").fill(str(last // 2))
    page.wait_for_function(f"() => document.body.dataset.index === '{last // 2}'")
    page.click("#next")
    page.wait_for_function(f"() => document.body.dataset.index === '{last // 2 + 1}'")
    assert "day " in page.inner_text("#position")
    assert page.locator("#narration li").count() > 3
    assert not errors
    page.close()
