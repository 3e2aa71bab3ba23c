"""Collection for the whole checkout: doctests of compiled modules run in the pure pass.

With a current compiled build (``undercroft.native``), the engine's hot modules import
from ``build/native``, so pytest cannot collect their doctests from ``src``: they are
left to the pure-Python pass of ``make test`` (``UNDERCROFT_PURE=1``), which runs them.
"""

from __future__ import annotations

from pathlib import Path

from undercroft import native


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.suffix == ".py" and native.usable():
        package = Path(native.__file__).resolve().parent
        try:
            name = collection_path.resolve().relative_to(package).as_posix()
        except ValueError:
            return None
        if name in native.MODULES:
            return True
    return None
