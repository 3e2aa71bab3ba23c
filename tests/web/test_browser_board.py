"""The crawl board in a real browser (headless Chromium): zoom buttons and Ctrl + wheel, the
square under the pointer named with its coordinates and room, monsters of one kind told
apart, narration numbers above 99 shown whole."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import running_server

from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import AREA_KEY, observe
from undercroft.web.crawl_games import CrawlGame


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    with running_server() as running:
        yield running


def heroes_page(chromium: Any, base: str) -> tuple[Any, CrawlGame, list[str]]:
    request = urllib.request.Request(
        f"{base}/api/crawl/games",
        data=json.dumps({"adventure": "greyhollow-cellars", "seed": 3, "dm": "master"}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data = json.load(response)
    page = chromium.new_page(viewport={"width": 1500, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(data["seats"]["heroes"]["url"])
    page.wait_for_selector("#board .figure.hero")
    return page, data["id"], errors


def test_the_board_zooms_and_names_the_square_under_the_pointer(chromium: Any, server: Any) -> None:
    base, app = server
    page, game_id, errors = heroes_page(chromium, base)
    game: CrawlGame = app.state.games.get(game_id)
    width = float(page.get_attribute("#board", "width"))
    page.click(".board-tools .zoom-in")
    assert float(page.get_attribute("#board", "width")) == pytest.approx(width * 1.25)
    box = page.locator("#board").bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)  # Ctrl + wheel up: closer
    page.keyboard.up("Control")
    page.wait_for_function(
        f"() => Number(document.getElementById('board').getAttribute('width')) > {width * 1.3}"
    )
    assert float(page.get_attribute("#board", "width")) == pytest.approx(width * 1.5)
    page.click(".board-tools .zoom-out")
    page.click(".board-tools .zoom-out")
    assert float(page.get_attribute("#board", "width")) == pytest.approx(width)
    # A square of a revealed room: the pointer over it names it, as does its tooltip.
    seen = observe(game.state, Seat.HEROES)
    rows = seen.area_map.split("\n")
    x, y = next((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != " ")
    area = seen.revealed[ord(rows[y][x]) - AREA_KEY]
    cell = page.locator(f'rect.sq[data-sq="{x},{y}"]')
    assert cell.locator("title").text_content() == f"({x},{y}) {area}"
    cell_box = cell.bounding_box()
    page.mouse.move(cell_box["x"] + cell_box["width"] / 2, cell_box["y"] + cell_box["height"] / 2)
    assert page.inner_text(".board-tools .where") == f"({x},{y}) {area}"
    # A wall square belongs to no room: coordinates only.
    wall = page.locator("rect.sq.wall").first
    assert wall.locator("title").text_content() == "({},{})".format(
        *wall.get_attribute("data-sq").split(",")
    )
    assert not errors
    page.close()


def test_two_monsters_of_one_kind_are_told_apart_on_the_board(chromium: Any, server: Any) -> None:
    base, _ = server
    page, _, errors = heroes_page(chromium, base)
    labels = page.evaluate(
        """() => {
            const svg = document.createElementNS(UC.SVGNS, "svg");
            document.body.append(svg);
            const monsters = ["giant-rat-1", "giant-rat-2", "goblin-12", "skeleton-1"].map(
                (k, i) => ({ id: "monster:" + k, kind: k.replace(/-\\d+$/, ""), pos: [i, 0] }));
            UC.drawBoard(svg, { board: "....", monsters });
            return [...svg.querySelectorAll(".figure")].map((g) => [
                g.querySelector("text").textContent, g.querySelector("title").textContent]);
        }"""
    )
    assert [label for label, _ in labels] == ["GR1", "GR2", "Go12", "Sk1"]
    assert [tip.split(" at ")[0] for _, tip in labels] == [
        "Giant Rat 1", "Giant Rat 2", "Goblin 12", "Skeleton 1"
    ]  # fmt: skip
    assert not errors
    page.close()


def test_narration_numbers_above_99_keep_their_digits(chromium: Any, server: Any) -> None:
    """Every line's number fits in the list's visible box: the 100th is "100.", not a
    clipped "00." (a scrolled list clips markers that stick out of its padding)."""
    base, _ = server
    page, _, errors = heroes_page(chromium, base)
    room = page.evaluate(
        """() => {
            const list = document.getElementById("narration");
            list.replaceChildren();
            for (let i = 0; i < 1200; i++) {
                const entry = { seq: i, type: "x", rules: [] };
                list.append(UC.narrationItem({ entry, text: "a line" }));
            }
            const probe = document.createElement("span");
            probe.style.font = getComputedStyle(list.children[0]).font;
            document.body.append(probe);
            return [99, 999].map((i) => {
                probe.textContent = `${i + 1}. `;
                const line = list.children[i].querySelector(".line").getBoundingClientRect();
                const left = list.getBoundingClientRect().left;
                return [line.left - left, probe.getBoundingClientRect().width];
            });
        }"""
    )
    for space, needed in room:
        assert space >= needed, (space, needed)
    assert not errors
    page.close()


def test_the_seat_is_handed_to_a_policy_from_the_page_and_taken_back(
    chromium: Any, server: Any
) -> None:
    base, app = server
    page, game_id, errors = heroes_page(chromium, base)
    game: CrawlGame = app.state.games.get(game_id)
    # The page asks the server for the players after it has drawn the board.
    page.wait_for_selector("#player option[value=master]", state="attached")
    offered = page.eval_on_selector_all("#player option", "os => os.map(o => o.value)")
    assert offered[0] == "human" and {"careful", "basic", "random", "master"} <= set(offered)
    with game.driving:  # the policy waits until the page has shown who plays
        page.select_option("#player", "careful")
        page.wait_for_selector("#actions [data-played-by=careful]")
        assert game.players[Seat.HEROES] == "careful"
        page.select_option("#player", "human")
        page.wait_for_selector("#actions button.action, #actions .hint")
        assert game.players[Seat.HEROES] == "human"
    assert page.input_value("#player") == "human"
    assert not errors
    page.close()
