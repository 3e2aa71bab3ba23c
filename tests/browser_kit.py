"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright.

``make browser`` (a step of ``make test``) installs the package when it is missing and it
can (root and apt-get); when it cannot, the tests that need a browser are skipped with
:data:`HOW_TO_ENABLE`. Shared by every test that needs a browser (the ``chromium``
fixture of ``tests/conftest.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

CHROMIUM = Path(os.environ.get("UNDERCROFT_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOW_TO_ENABLE = (
    f"browser tests skipped: no Chromium at {CHROMIUM}. Enable them with "
    "`apt-get install chromium` (as root; `make browser` does it), or point "
    "UNDERCROFT_CHROMIUM at a Chromium binary."
)


def why_not() -> str | None:
    """Why the browser tests cannot run here, or ``None`` if they can."""
    if not CHROMIUM.exists():
        return HOW_TO_ENABLE
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests skipped: Playwright for Python is not installed (make install)."
    return None


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
