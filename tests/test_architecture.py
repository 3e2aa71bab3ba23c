"""The package's import structure (issue 33, docs/architecture.md): no import circle
anywhere in ``src/undercroft``, and the layers hold. The graph is grimp's: every import
in a module, those under ``if TYPE_CHECKING:`` and inside functions included."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Set
from pathlib import Path

import grimp
import pytest

PACKAGE = "undercroft"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(PACKAGE, cache_dir=None)


def edges(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def circles(imports: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(imports.get(child, ())))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_src(graph: grimp.ImportGraph) -> None:
    found = circles(edges(graph))
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def under(graph: grimp.ImportGraph, packages: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for package in packages:
        if package in graph.modules:
            found.add(package)
            found |= graph.find_descendants(package) if graph.find_children(package) else set()
    return found


def forbidden(graph: grimp.ImportGraph, lower: Iterable[str], higher: Iterable[str]) -> list[str]:
    """The imports from a module of ``lower`` to one of ``higher``."""
    low, high = under(graph, lower), under(graph, higher)
    return sorted(
        f"{m} -> {n}"
        for m in low
        for n in graph.find_modules_directly_imported_by(m)
        if n in high and n not in low
    )


CLI = (
    "undercroft.cli",
    "undercroft.cli_basics",
    "undercroft.cli_check",
    "undercroft.clilazy",
    "undercroft.__main__",
    "undercroft.demo",
)
FRONTS = (
    "undercroft.analysis",
    "undercroft.web",
    "undercroft.rl",
    *CLI,
)
CRAWL_STATE = (
    "undercroft.crawl.state",
    "undercroft.crawl.figures",
    "undercroft.crawl.engine",
    "undercroft.crawl.actions",
    "undercroft.crawl.ruleset",
    "undercroft.crawl.effects",
    "undercroft.crawl.options",
)
CRAWL_RULES = tuple(
    f"undercroft.crawl.{m}"
    for m in (
        "board_view", "combat", "context", "damage", "death", "distance", "doors", "explore",
        "goals", "known", "monsters", "movement", "observe", "players", "resample", "resolve",
        "reveal", "seat_log", "seen", "settings", "sightings", "spells", "traps", "turn",
    )
)  # fmt: skip
KEEP_FRONT = tuple(
    f"undercroft.keep.{m}"
    for m in ("cli", "commands", "scenario", "script", "save", "invasion_save", "fates")
)

# (what, lower, higher): no module of ``lower`` imports one of ``higher``.
LAYERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "core is the floor",
        ("undercroft.core",),
        (
            "undercroft.crawl", "undercroft.keep", "undercroft.agents", "undercroft.render",
            *FRONTS,
        ),
    ),
    ("render is below the front doors and the players", ("undercroft.render",),
     ("undercroft.agents", *FRONTS)),
    ("the crawl's state imports no rule", CRAWL_STATE, CRAWL_RULES),
    ("the crawl's state and rules import no front door and no player",
     (*CRAWL_STATE, *CRAWL_RULES),
     ("undercroft.crawl.app", "undercroft.crawl.runner", "undercroft.agents", *FRONTS)),
    ("the crawl's engine is below its front doors", ("undercroft.crawl",),
     ("undercroft.crawl.app", *FRONTS)),
    ("the keep's content is its floor", ("undercroft.keep.content",),
     ("undercroft.keep.state", "undercroft.keep.rules", *KEEP_FRONT)),
    ("the keep's state imports no rule", ("undercroft.keep.state",),
     ("undercroft.keep.rules", *KEEP_FRONT)),
    ("the keep's rules import no front door", ("undercroft.keep.rules",), KEEP_FRONT),
    ("the keep is below the front doors", ("undercroft.keep",), FRONTS),
    ("the players are below the front doors", ("undercroft.agents",),
     ("undercroft.crawl.app", *FRONTS)),
    ("the learning adapters are below analysis, web and the CLI", ("undercroft.rl",),
     ("undercroft.analysis", "undercroft.web", *CLI)),
    ("analysis and web are below the CLI", ("undercroft.analysis", "undercroft.web"), CLI),
)  # fmt: skip


@pytest.mark.parametrize(("what", "lower", "higher"), LAYERS, ids=[x[0] for x in LAYERS])
def test_the_layers_hold(
    graph: grimp.ImportGraph, what: str, lower: tuple[str, ...], higher: tuple[str, ...]
) -> None:
    assert under(graph, lower), f"{what}: no module found for {lower}"
    wrong = forbidden(graph, lower, higher)
    assert not wrong, f"{what}: " + ", ".join(wrong)


def test_a_layer_breach_is_caught() -> None:
    """The checks above can fail: an import from the state up to a rule is found."""
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.state", "pkg.rules", "pkg.rules.combat"):
        graph.add_module(module)
    graph.add_import(importer="pkg.state", imported="pkg.rules.combat")
    graph.add_import(importer="pkg.rules.combat", imported="pkg.state")
    assert forbidden(graph, ("pkg.state",), ("pkg.rules",)) == ["pkg.state -> pkg.rules.combat"]
    assert circles(edges(graph)) == [["pkg.rules.combat", "pkg.state"]]


def test_no_function_level_import_dodges_a_circle() -> None:
    """Imports inside functions are kept only for start-up time or optional extras and
    say so in a comment on the line or the line above (issue 33)."""
    root = Path(__file__).resolve().parents[1] / "src" / "undercroft"
    unexplained = []
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    near = " ".join(lines[max(0, inner.lineno - 3) : inner.lineno])
                    if "#" not in near:
                        unexplained.append(f"{path.relative_to(root)}:{inner.lineno}")
    assert not unexplained, "function-level imports without a reason: " + ", ".join(unexplained)
