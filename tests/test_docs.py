"""Documentation promises: every event type the code emits is documented."""

from __future__ import annotations

import re
from pathlib import Path

from undercroft.crawl import State

ROOT = Path(__file__).resolve().parents[1]


def documented_types() -> set[str]:
    text = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### `([a-z_.]+)`", text, flags=re.MULTILINE)
    rows = re.findall(r"^\| `([a-z_.]+)` \|", text, flags=re.MULTILINE)
    return set(headings) | set(rows)


def emitted_types() -> set[str]:
    found = {"header", "summary"}
    for path in (ROOT / "src").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        # Events built directly, and events logged through a state's ``emit(type, ...)``.
        found.update(re.findall(r'Event\(\s*"([a-z_.]+)"', text))
        found.update(re.findall(r'\bemit\(\s*"([a-z_.]+)"', text))
    return found


def test_every_emitted_event_type_is_documented() -> None:
    emitted = emitted_types()
    assert {"roll", "chance", "fight"} <= emitted
    missing = emitted - documented_types()
    assert not missing, f"document these event types in docs/events.md: {sorted(missing)}"


def test_readme_quickstart_has_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make demo" in readme and "make test" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_crawl_guide_example_runs() -> None:
    text = (ROOT / "docs" / "crawl.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)[:1]
    namespace: dict[str, object] = {}
    exec(compile(example, "docs/crawl.md", "exec"), namespace)
    state = namespace["state"]
    assert isinstance(state, State)
    assert state.is_terminal()


def test_the_keep_guides_sample_run_is_what_the_command_prints() -> None:
    import shlex

    from typer.testing import CliRunner

    from undercroft.cli import app

    text = (ROOT / "docs" / "keep.md").read_text(encoding="utf-8")
    found = re.search(r"```\n\$ (undercroft run keep[^\n]*)\n(.*?)```", text, flags=re.DOTALL)
    assert found, "docs/keep.md shows a sample run: $ undercroft run keep ..."
    command, expected = shlex.split(found.group(1)), found.group(2).splitlines()
    result = CliRunner().invoke(app, command[1:], terminal_width=120)
    assert result.exit_code == 0, result.output
    printed = [line.rstrip() for line in result.stdout.splitlines()]
    assert printed[: len(expected)] == [line.rstrip() for line in expected]


def test_the_analysis_guides_odds_are_what_the_command_says() -> None:
    import json
    import shlex

    from typer.testing import CliRunner

    from undercroft.cli import app

    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    examples = re.findall(r"```\n\$ (undercroft odds [^\n]*)\n(.*?)```", text, flags=re.DOTALL)
    assert len(examples) >= 2, "docs/analysis.md shows odds examples: $ undercroft odds ..."
    words = "win|lose|tie|unconscious|dead|out|stays"
    for command, printed in examples:
        shown = dict(re.findall(rf"^\s+({words})\s+(\d+(?:/\d+)?)\s", printed, re.M))
        result = CliRunner().invoke(app, [*shlex.split(command)[1:], "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["outcomes"] == shown, command
