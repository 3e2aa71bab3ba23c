"""Suite-wide checks: every ``@pytest.mark.rule`` ID must exist in the catalogue."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from undercroft.core import catalogue

ROOT = Path(__file__).resolve().parents[1]
# The crawl tests' kit (tests/crawl/crawl_kit.py) builds boards for the players' tests too.
KIT = str(ROOT / "tests" / "crawl")
if KIT not in sys.path:
    sys.path.insert(0, KIT)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    known = catalogue.load_rules(ROOT)
    unknown: dict[str, list[str]] = {}
    for item in items:
        for mark in item.iter_markers("rule"):
            if not mark.args:
                raise pytest.UsageError(f"{item.nodeid}: pytest.mark.rule needs rule IDs")
            for rid in mark.args:
                if rid not in known:
                    unknown.setdefault(rid, []).append(item.nodeid)
    if unknown:
        lines = [f"{rid}: {', '.join(ids)}" for rid, ids in sorted(unknown.items())]
        raise pytest.UsageError(
            "tests cite rule IDs that docs/rules and docs/rulings.md do not define:\n"
            + "\n".join(lines)
        )


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A headless Chromium browser (Playwright), or the test is skipped saying how to get
    one (tests/browser_kit.py)."""
    import browser_kit

    reason = browser_kit.why_not()
    if reason is not None:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = browser_kit.launch(playwright)
        try:
            yield browser
        finally:
            browser.close()
