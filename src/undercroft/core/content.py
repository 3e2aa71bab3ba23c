"""Content files: TOML validated by a pydantic schema, with mistakes located by line.

``tomllib`` reports only syntax errors with a position, and pydantic reports a field path
such as ``('monster', 1, 'hp')``. :func:`key_lines` walks a tree-sitter parse of the same
text to map every key path to the line it is written on, so a mistake reads
``heroes.toml:14: monster[1].hp: Input should be a valid integer (got "x")``.

Rulesets register their content kinds with :func:`register_kind`; a file declares its
kind with a top-level ``kind = "..."`` key, and ``undercroft check`` validates any file
whose kind is registered. The core registers ``map``.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import tree_sitter
import tree_sitter_toml
from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError, model_validator

from undercroft.core.files import PathError, check_input
from undercroft.core.grid import AreaInfo, Grid, MapError

KeyPath = tuple[str | int, ...]
M = TypeVar("M", bound=BaseModel)

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_toml.language()))


@dataclass(frozen=True)
class ContentProblem:
    """One mistake in a content file."""

    file: str
    line: int
    key: str
    message: str
    allowed: tuple[str, ...] = ()

    def __str__(self) -> str:
        # Line 0 is the whole file (or folder): no line number; no key: the file as such.
        where = f"{self.file}:{self.line}:" if self.line > 0 else f"{self.file}:"
        text = f"{where} {self.key}: {self.message}" if self.key else f"{where} {self.message}"
        if self.allowed:
            text += f" (allowed: {', '.join(self.allowed)})"
        return text


class ContentError(ValueError):
    """A content file that cannot be used; lists every problem found, each with its line."""

    def __init__(self, problems: Sequence[ContentProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Schema(BaseModel):
    """Base for content schemas: unknown keys are mistakes, values are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# -- where keys are written ---------------------------------------------------------------


def _key_parts(node: tree_sitter.Node) -> list[str]:
    """The key names of a ``bare_key``, ``quoted_key`` or ``dotted_key`` node."""
    if node.type == "dotted_key":
        parts: list[str] = []
        for child in node.named_children:
            parts.extend(_key_parts(child))
        return parts
    text = (node.text or b"").decode("utf-8")
    if node.type == "quoted_key":
        return [text[1:-1]]
    return [text]


def key_lines(text: str) -> dict[KeyPath, int]:
    """Map each key path in a TOML text to the 1-based line where it is written.

    Array-of-tables entries and array items get integer path parts, as pydantic uses.
    """
    tree = _PARSER.parse(text.encode("utf-8"))
    lines: dict[KeyPath, int] = {}
    array_counts: dict[KeyPath, int] = {}

    def visit_value(node: tree_sitter.Node, path: KeyPath) -> None:
        lines.setdefault(path, node.start_point.row + 1)
        if node.type == "inline_table":
            for pair in node.named_children:
                if pair.type == "pair":
                    visit_pair(pair, path)
        elif node.type == "array":
            for i, item in enumerate(c for c in node.named_children if c.type != "comment"):
                visit_value(item, (*path, i))

    def visit_pair(pair: tree_sitter.Node, base: KeyPath) -> None:
        children = [c for c in pair.named_children if c.type != "comment"]
        if not children:
            return
        path = (*base, *_key_parts(children[0]))
        lines[path] = pair.start_point.row + 1
        if len(children) > 1:
            visit_value(children[-1], path)

    for top in tree.root_node.named_children:
        if top.type == "pair":
            visit_pair(top, ())
        elif top.type in ("table", "table_array_element"):
            named = [c for c in top.named_children if c.type != "comment"]
            if not named:
                continue
            header: KeyPath = tuple(_key_parts(named[0]))
            if top.type == "table_array_element":
                index = array_counts.get(header, 0)
                array_counts[header] = index + 1
                lines.setdefault(header, top.start_point.row + 1)
                header = (*header, index)
            lines.setdefault(header, top.start_point.row + 1)
            for pair in named[1:]:
                if pair.type == "pair":
                    visit_pair(pair, header)
    return lines


def format_key(path: Sequence[str | int]) -> str:
    """``('monster', 1, 'hp')`` -> ``monster[1].hp``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def line_of(lines: Mapping[KeyPath, int], path: KeyPath) -> int:
    """The line of ``path``, or of its nearest written ancestor (1 if none)."""
    for end in range(len(path), 0, -1):
        if path[:end] in lines:
            return lines[path[:end]]
    return 1


# -- loading ------------------------------------------------------------------------------


def allowed_of(error: Mapping[str, Any], model: type[BaseModel]) -> tuple[str, ...]:
    """The allowed values (or keys) a pydantic error lists, for the message."""
    ctx = error.get("ctx") or {}
    expected = ctx.get("expected")
    if isinstance(expected, str):
        return tuple(part.strip().strip("'") for part in expected.replace(" or ", ",").split(","))
    if error.get("type") == "extra_forbidden":
        owner = _model_at(model, tuple(error["loc"][:-1]))
        if owner is not None:
            return tuple(owner.model_fields)
    return ()


def _model_at(model: type[BaseModel], path: KeyPath) -> type[BaseModel] | None:
    """The schema class that holds the keys at ``path`` (for listing allowed keys)."""
    current: Any = model
    for part in path:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _inner_model(info.annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


MAX_NESTING = 100
"""How deep arrays and tables may nest in a content file (none needs more than a few).
Checked on the parsed file, before the schema: pydantic's JSON reader stops at 200
levels with "Invalid JSON: recursion limit exceeded" at line 1, which names nothing."""

TOO_DEEP = f"arrays or tables nested too deeply (more than {MAX_NESTING} levels)"


def _too_deep(text: str) -> int:
    """The line where brackets first nest deeper than :data:`MAX_NESTING` (1 if none)."""
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        for ch in line:
            depth += ch in "[{"
            depth -= ch in "]}"
            if depth > MAX_NESTING:
                return number
    return 1


def _deeper_than(data: Mapping[str, Any], limit: int) -> KeyPath | None:
    """The key path of the first array or table nested more than ``limit`` levels deep
    (a top-level key's value is level 1), or ``None``. Walks without recursion."""
    stack: list[tuple[KeyPath, Any]] = [((key,), value) for key, value in data.items()]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            children: list[tuple[KeyPath, Any]] = [((*path, k), v) for k, v in value.items()]
        elif isinstance(value, list):
            children = [((*path, i), v) for i, v in enumerate(value)]
        else:
            continue
        if len(path) > limit:
            return path
        stack.extend(reversed(children))
    return None


def _nesting_problem(text: str, file: str, path: KeyPath | None) -> ContentProblem:
    """Too deep: the line of the value at ``path`` (or of the brackets, without one)."""
    line = _too_deep(text)
    if path is not None:
        try:
            lines = key_lines(text)
        except RecursionError:
            lines = {}
        # A dotted key (a.b.c... = 1) or a table header is written whole on its line.
        below = [n for key, n in lines.items() if key[: len(path)] == path]
        line = min(below) if below else line_of(lines, path) if lines else line
    return ContentProblem(file, line, "" if path is None else format_key(path[:1]), TOO_DEEP)


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes a :class:`ContentError` with its line, and
    so does nesting deeper than :data:`MAX_NESTING` levels."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.11's error carries the position only in its text: "... (at line 3, ...)".
        found = re.search(r"\(at line (\d+)", str(exc))
        line = int(found.group(1)) if found else 1
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)$", "", str(exc))
        raise ContentError([ContentProblem(file, line, "", f"TOML syntax: {message}")]) from exc
    except RecursionError:
        raise ContentError([_nesting_problem(text, file, None)]) from None
    deep = _deeper_than(data, MAX_NESTING)
    if deep is not None:
        raise ContentError([_nesting_problem(text, file, deep)])
    return data


def validate(data: Mapping[str, Any], model: type[M], text: str, file: str) -> M:
    """Validate parsed data against ``model``; every error gets file, line, key, allowed."""
    try:
        # Validating the JSON form lets strict schemas accept TOML arrays for tuples
        # (strict mode takes only real tuples from Python data) while still refusing
        # "3" for an int or 1 for a string.
        return model.model_validate_json(json.dumps(data, default=str))
    except ValidationError as exc:
        lines = key_lines(text)
        problems = []
        for error in exc.errors():
            loc = tuple(p for p in error["loc"] if isinstance(p, str | int))
            message = error["msg"]
            if "input" in error and error["type"] not in ("missing", "extra_forbidden"):
                message += f" (got {error['input']!r})"
            problems.append(
                ContentProblem(
                    file, line_of(lines, loc), format_key(loc), message, allowed_of(error, model)
                )
            )
        raise ContentError(problems) from None


def read_text(path: Path) -> str:
    """The text of a content file; a missing file, a folder, a pipe or a device, or bytes
    that are not UTF-8, are a :class:`ContentError` naming the file."""
    try:
        check_input(path)
        # A byte-order mark (some Windows editors write one) is not part of the TOML.
        return path.read_text(encoding="utf-8").removeprefix("\ufeff")
    except PathError as exc:
        raise ContentError([ContentProblem(str(path), 0, "", exc.reason)]) from None
    except OSError as exc:
        problem = ContentProblem(str(path), 0, "", f"cannot be read: {exc.strerror or exc}")
        raise ContentError([problem]) from None
    except UnicodeDecodeError as exc:
        problem = ContentProblem(str(path), 0, "", f"not UTF-8 text ({exc.reason})")
        raise ContentError([problem]) from None


def load(path: str | Path, model: type[M]) -> M:
    """Read, parse and validate one TOML content file."""
    file = Path(path)
    text = read_text(file)
    return validate(parse_toml(text, str(file)), model, text, str(file))


# -- content kinds ------------------------------------------------------------------------


@dataclass(frozen=True)
class ContentKind:
    """A kind of content file: its schema, and an optional check across fields."""

    name: str
    model: type[BaseModel]
    description: str


_KINDS: dict[str, ContentKind] = {}


def register_kind(name: str, model: type[BaseModel], description: str) -> None:
    """Make ``undercroft check`` validate files whose ``kind`` is ``name``."""
    _KINDS[name] = ContentKind(name, model, description)


def kinds() -> dict[str, ContentKind]:
    return dict(_KINDS)


def check_file(path: Path) -> BaseModel:
    """Validate one content file by the kind it declares."""
    text = read_text(path)
    data = parse_toml(text, str(path))
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in _KINDS:
        lines = key_lines(text)
        message = "missing the top-level key 'kind'" if kind is None else f"unknown kind {kind!r}"
        raise ContentError(
            [
                ContentProblem(
                    str(path), line_of(lines, ("kind",)), "kind", message, tuple(sorted(_KINDS))
                )
            ]
        )
    return validate(data, _KINDS[kind].model, text, str(path))


def iter_content_files(path: Path) -> Iterator[Path]:
    """``path`` itself if a file, else every ``*.toml`` below it in sorted order."""
    if path.is_dir():
        yield from sorted(path.rglob("*.toml"))
    else:
        yield path


# -- the core's own kind: a map -----------------------------------------------------------


class AreaSchema(Schema):
    name: str
    kind: str = "room"

    @model_validator(mode="after")
    def _known_kind(self) -> AreaSchema:
        if self.kind not in ("room", "corridor"):
            raise ValueError(f"area kind must be 'room' or 'corridor', got {self.kind!r}")
        return self


def _readable_map(tiles: str) -> str:
    """The text must read as a map in the map notation (the error names row and column)."""
    try:
        Grid.from_text(tiles)
    except MapError as exc:
        raise ValueError(str(exc)) from None
    return tiles


MapDrawing = Annotated[str, AfterValidator(_readable_map)]
"""A ``tiles`` drawing in the map notation, checked when the file is validated."""


class MapSchema(Schema):
    """A map file: ``kind = "map"``, a drawing, optional areas drawing and legend."""

    kind: str
    name: str
    tiles: MapDrawing
    areas: str | None = None
    legend: dict[str, AreaSchema] = {}

    @model_validator(mode="after")
    def _areas_fit(self) -> MapSchema:
        if self.areas is not None:
            self.grid()
        return self

    def grid(self) -> Grid:
        """The :class:`Grid` this file draws (raises ``ValueError`` naming row and column)."""
        info = {key: AreaInfo(a.name, a.kind) for key, a in self.legend.items()}
        try:
            return Grid.from_text(self.tiles, areas=self.areas, area_info=info)
        except MapError as exc:
            raise ValueError(str(exc)) from None


register_kind("map", MapSchema, "a map drawn in the map notation, with named areas")


def load_map(path: str | Path) -> Grid:
    """Load a ``kind = "map"`` file as a :class:`Grid`."""
    return load(path, MapSchema).grid()
