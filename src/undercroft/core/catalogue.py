"""The project's rule catalogue and who cites each rule.

Rules are defined in ``docs/rules/crawl.md`` and ``docs/rules/keep.md`` (one list item a
rule: ``- **C-DOOR-01** Title. Text``) and rulings in ``docs/rulings.md`` (one heading a
ruling: ``## R-C-FIGHT-01 — Title``). Code cites a rule by naming its ID in a comment or
docstring; a test cites it with ``@pytest.mark.rule("ID", ...)``. :func:`coverage` reads
all three and reports, for each ID, the code and tests that cite it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

RULE_LINE = re.compile(r"^- \*\*(?P<id>[CK]-[A-Z]+-\d{2})\*\* (?P<text>.*)$")
RULING_LINE = re.compile(r"^## (?P<id>R-[A-Z]+(?:-[A-Z]+)*-\d{2})\s+[—-]+\s+(?P<text>.*)$")
CITED_ID = re.compile(r"(?<![\w-])(?:[CK]-[A-Z]+-\d{2}|R-[A-Z]+(?:-[A-Z]+)*-\d{2})(?![\w-])")
CATALOGUE_FILES = ("docs/rules/crawl.md", "docs/rules/keep.md", "docs/rulings.md")


class CatalogueError(ValueError):
    """The catalogue files cannot be found or read."""


@dataclass(frozen=True)
class Rule:
    """One rule or ruling as the project's catalogue states it."""

    id: str
    title: str
    text: str
    file: str
    line: int

    @property
    def ruleset(self) -> str:
        if self.id.startswith("C-"):
            return "crawl"
        if self.id.startswith("K-"):
            return "keep"
        return "rulings"


@dataclass(frozen=True, order=True)
class Citation:
    """A place that names a rule ID: a source line, or a test marked with it."""

    file: str
    line: int
    name: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where}::{self.name}" if self.name else where


@dataclass
class Coverage:
    """Every rule with the code and tests that cite it."""

    rules: dict[str, Rule]
    code: dict[str, list[Citation]] = field(default_factory=dict)
    tests: dict[str, list[Citation]] = field(default_factory=dict)

    def covered(self, rule_id: str) -> bool:
        return bool(self.code.get(rule_id)) and bool(self.tests.get(rule_id))

    def uncited(self) -> list[str]:
        """IDs missing a code citation or a test (or both), in catalogue order."""
        return [rid for rid in self.rules if not self.covered(rid)]

    def unknown(self) -> list[str]:
        """IDs cited somewhere that the catalogue does not define (typos, stale IDs)."""
        cited = set(self.code) | set(self.tests)
        return sorted(cited - set(self.rules))


def find_root(start: Path | None = None, *, exact: bool = False) -> Path:
    """The project folder holding ``docs/rules``.

    With ``exact``, ``start`` itself must be that folder. Otherwise it is searched upward
    from ``start`` (or the working folder), then from this installed package's location.
    """
    if exact and start is not None:
        if (start / "docs" / "rules" / "crawl.md").is_file():
            return start
        raise CatalogueError(f"{start} holds no rule catalogue (docs/rules/crawl.md)")
    candidates: list[Path] = []
    for origin in (start or Path.cwd(), Path(__file__).resolve()):
        candidates.extend([origin, *origin.parents])
    for folder in candidates:
        if (folder / "docs" / "rules" / "crawl.md").is_file():
            return folder
    raise CatalogueError(
        "cannot find the rule catalogue (docs/rules/crawl.md) above "
        f"{start or Path.cwd()}; run from an undercroft source checkout or pass --root"
    )


def load_rules(root: Path) -> dict[str, Rule]:
    """Every rule and ruling defined in the catalogue files, in file order."""
    rules: dict[str, Rule] = {}
    for name in CATALOGUE_FILES:
        path = root / name
        if not path.is_file():
            raise CatalogueError(f"{path}: catalogue file is missing")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = RULE_LINE.match(line) or RULING_LINE.match(line)
            if not match:
                continue
            rid, text = match["id"], match["text"].strip()
            if rid in rules:
                first = rules[rid]
                raise CatalogueError(
                    f"{name}:{number}: {rid} is defined twice (first at {first.file}:{first.line})"
                )
            title = text.split(". ", 1)[0].rstrip(".")
            rules[rid] = Rule(rid, title, text, name, number)
    return rules


def _python_files(folder: Path) -> Iterable[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


PLAYERS = "src/undercroft/agents/"
"""The built-in players: they name rules to say why they choose, but enforce none, so
their mentions are not the code that covers a rule."""


def scan_code(root: Path, folder: str = "src") -> dict[str, list[Citation]]:
    """Where source code names a rule ID (comments, docstrings, strings); the players'
    package (:data:`PLAYERS`) left out."""
    found: dict[str, list[Citation]] = {}
    base = root / folder
    if not base.is_dir():
        return found
    me = Path(__file__).resolve()
    for path in _python_files(base):
        if path.resolve() == me:
            continue  # this module names IDs only as patterns and examples
        rel = path.relative_to(root).as_posix()
        if rel.startswith(PLAYERS):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rid in CITED_ID.findall(line):
                found.setdefault(rid, []).append(Citation(rel, number))
    return found


def _rule_ids(node: ast.expr) -> list[str] | None:
    """The IDs in a ``pytest.mark.rule("A", "B")`` expression, else None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "rule"):
        return None
    inner = func.value
    if not (isinstance(inner, ast.Attribute) and inner.attr == "mark"):
        return None
    return [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def scan_tests(root: Path, folder: str = "tests") -> dict[str, list[Citation]]:
    """Which tests carry ``@pytest.mark.rule(...)`` for each ID (functions, classes, and
    module-level ``pytestmark``)."""
    found: dict[str, list[Citation]] = {}
    base = root / folder
    if not base.is_dir():
        return found

    def add(ids: Iterable[str], rel: str, node: ast.AST, name: str) -> None:
        for rid in ids:
            found.setdefault(rid, []).append(Citation(rel, getattr(node, "lineno", 0), name))

    for path in _python_files(base):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for deco in node.decorator_list:
                    ids = _rule_ids(deco)
                    if ids:
                        add(ids, rel, node, node.name)
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
            ):
                marks = node.value.elts if isinstance(node.value, ast.List) else [node.value]
                for mark in marks:
                    ids = _rule_ids(mark)
                    if ids:
                        add(ids, rel, node, "<module>")
    for citations in found.values():
        citations.sort()
    return found


def coverage(root: Path) -> Coverage:
    """The coverage report for the project at ``root``."""
    return Coverage(load_rules(root), scan_code(root), scan_tests(root))
