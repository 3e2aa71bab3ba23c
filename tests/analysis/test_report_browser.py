"""The reports open in a real browser with no network and show their plots.

Debian's chromium driven by Playwright (../shared/DEPENDENCIES.md). ``make test`` installs
the package when it runs as root where apt-get is; elsewhere this test is skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from analysis.analysis_kit import Played, invoke

if TYPE_CHECKING:
    from playwright.sync_api import Route

# The browser is the suite's one Playwright session (the ``chromium`` fixture of
# tests/conftest.py, which skips saying how to install it): a second sync_playwright()
# while that one is open fails ("Sync API inside the asyncio loop").


def render(
    browser: Any, page_path: Path, shot: Path
) -> tuple[list[dict[str, float]], list[str], list[str]]:
    """Open ``page_path`` offline: the sizes of its drawn SVGs, the requests it tried
    beyond the file itself, and the console errors."""
    tried: list[str] = []
    errors: list[str] = []
    context = browser.new_context(offline=True, viewport={"width": 1100, "height": 900})
    try:

        def guard(route: Route) -> None:
            url = route.request.url
            if url == page_path.as_uri():
                route.continue_()
            else:
                tried.append(url)
                route.abort()

        context.route("**/*", guard)
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(page_path.as_uri(), wait_until="load")
        boxes = [b for b in (s.bounding_box() for s in page.query_selector_all("body svg"))
                 if b is not None]  # fmt: skip
        page.screenshot(path=str(shot), full_page=True)
    finally:
        context.close()
    return boxes, tried, errors


def test_the_batch_report_shows_its_plots_offline(
    chromium: Any, played: Played, tmp_path: Path
) -> None:
    boxes, tried, errors = render(chromium, played.two / "report.html", tmp_path / "batch.png")
    drawn = [b for b in boxes if b["width"] > 100 and b["height"] > 80]
    assert len(drawn) >= 10, boxes  # rates, 6 histograms, goals, deaths, fights, 3 boards
    assert tried == [] and errors == []
    assert (tmp_path / "batch.png").stat().st_size > 50_000


def test_the_comparison_report_shows_its_plot_offline(
    chromium: Any, played: Played, tmp_path: Path
) -> None:
    out = tmp_path / "compare"
    code, stdout, stderr = invoke("compare", str(played.one), str(played.two), "--out", str(out),
                                  "--catalogue", str(tmp_path / "c.duckdb"))  # fmt: skip
    assert code == 0, stdout + stderr
    assert "no difference" in stdout  # the same rows: nothing to tell apart
    boxes, tried, errors = render(chromium, out / "report.html", tmp_path / "compare.png")
    assert [b for b in boxes if b["width"] > 100] and tried == [] and errors == []


def test_the_keep_batch_report_shows_its_plots_offline(
    chromium: Any, keep_played: Played, tmp_path: Path
) -> None:
    boxes, tried, errors = render(chromium, keep_played.two / "report.html", tmp_path / "keep.png")
    drawn = [b for b in boxes if b["width"] > 100 and b["height"] > 80]
    assert len(drawn) >= 10, boxes  # rates, 5 histograms, invasions by day, the Master, 3 maps
    assert tried == [] and errors == []


def test_the_sweep_report_fits_a_1280_pixel_page(chromium: Any, tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, stdout, stderr = invoke(
        "sweep", "crawl", "greyhollow-cellars", "--runs", "1", "--workers", "1",
        "--set", "monsters.goblin.fighting=1,2,3,4", "--set", "options.ambusher_six=total,natural",
        "--out", str(out), "--catalogue", str(tmp_path / "c.duckdb"),
    )  # fmt: skip
    assert code == 0, stdout + stderr
    context = chromium.new_context(offline=True, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto((out / "report.html").as_uri(), wait_until="load")
        width = page.evaluate("document.documentElement.scrollWidth")
        box = page.evaluate(
            "(() => { const b = document.querySelector('div.scroll');"
            " return b ? b.getBoundingClientRect().right : null; })()"
        )
    finally:
        context.close()
    assert width <= 1280 and box is not None and box <= 1280
