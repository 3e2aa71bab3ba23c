"""Suite-wide checks: every ``@pytest.mark.rule`` ID must exist in the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from undercroft.core import catalogue

ROOT = Path(__file__).resolve().parents[1]


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
