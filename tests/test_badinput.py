"""The bad-input corpus (tests/badinput/cases.toml): every case exits 2 (130 for an
interrupt) with a message naming the file, line and field or the option, no traceback,
nothing on stdout, not one file changed, and no file left in the data folder or $HOME.

Each case runs in a fresh folder holding a copy of ``tests/badinput/files`` and whatever
its setup makes (symlinks, named pipes standing in for device nodes, a campaign database,
a keep save, event logs). The folder is snapshotted before and after: every entry's kind,
size, modification time and hash, and where each link points. Cases run in-process with
typer's ``CliRunner``; the interrupt case runs in a subprocess sent SIGINT. A case with
``full_disk`` runs on a disk that fills up after that many writes (``tests/full_disk.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from full_disk import fill
from undercroft.cli import app

HERE = Path(__file__).resolve().parent / "badinput"
SRC = Path(__file__).resolve().parents[1] / "src" / "undercroft"
CASES: list[dict[str, Any]] = tomllib.loads((HERE / "cases.toml").read_text("utf-8"))["case"]
KINDS = ("content", "cli", "save", "log", "database", "output", "interrupt")

POLICIES = '''\
"""Policy factories that go wrong in every way a user's might."""
NOT_A_FACTORY = 42


def broken(seat, rng):
    raise RuntimeError("the factory itself is broken")


def no_act(seat, rng):
    return object()


class Cheat:
    def act(self, observation):
        from undercroft.crawl.actions import Done

        return Done()


def cheat(seat, rng):
    return Cheat()


class Raiser:
    def act(self, observation):
        raise ValueError("my policy has a bug")


def raiser(seat, rng):
    return Raiser()
'''
PLACEHOLDERS = {
    "@ARRAYS@": "[" * 2000 + "]" * 2000,
    "@TABLES@": "{ a = " * 600 + "1" + " }" * 600,
    "@TABLES_200@": "{ a = " * 200 + "1" + " }" * 200,
    "@DOTTED_150@": ".".join(["a"] * 150),
    "@JSON_ARRAYS@": "[" * 100_000 + "]" * 100_000,
    "@POLICIES@": POLICIES,
}


# -- what a case starts from (made once, copied into each case's folder) --------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A keep save, a crawl log, a keep log, a `play crawl` save and a campaign database."""
    from undercroft.crawl.app.campaign import new
    from undercroft.keep.save import save_world
    from undercroft.keep.scenario import build_world

    folder = tmp_path_factory.mktemp("made")
    world = build_world("trapworks", seed=0)
    world.run_days(1)
    save_world(world, folder / "save.json")
    runner = CliRunner()
    for args in (
        ["run", "crawl", "--seed", "1", "--quiet", "--log", str(folder / "game.jsonl")],
        ["run", "keep", "--days", "1", "--quiet", "--log", str(folder / "keep.jsonl")],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    played = runner.invoke(
        app, ["play", "crawl", "--save", str(folder / "play.json")], input="1\nq\n"
    )
    assert played.exit_code == 0, played.output
    new(folder / "c.sqlite", "c1", ["brenna", "garrick", "durn"])
    return folder


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two crawl batch folders, b1/ and b2/ (2 runs each of greyhollow-cellars, seeds 1
    and 2), and the catalogue cat.duckdb that holds them, made only when a case asks for
    them (``batch = true``)."""
    folder = tmp_path_factory.mktemp("batches")
    aside = tmp_path_factory.mktemp("batches-aside")
    with pytest.MonkeyPatch.context() as patch:
        # Made while a case's folders are in place: its caches (matplotlib's) go aside.
        patch.setenv("HOME", str(aside))
        patch.setenv("UNDERCROFT_DATA", str(aside))
        for name, seed in (("b1", "1"), ("b2", "2")):
            args = ["batch", "crawl", "greyhollow-cellars", "--runs", "2", "--workers", "1",
                    "--seed", seed, "--quiet", "--out", str(folder / name),
                    "--catalogue", str(folder / "cat.duckdb")]  # fmt: skip
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 0, result.output
            (folder / name / "report.html").unlink()  # compare does not read it; it is large
    return folder


def _text(entry: dict[str, Any]) -> str:
    text = str(entry["text"])
    for mark, value in PLACEHOLDERS.items():
        text = text.replace(mark, value)
    return text


def _set(data: Any, path: str, value: Any, drop: bool) -> None:
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys[:-1]:
        data = data[key]
    if drop:
        del data[keys[-1]]
    else:
        data[keys[-1]] = value


def _edit_lines(path: Path, entry: dict[str, Any]) -> None:
    data = path.read_bytes()
    if "keep_bytes" in entry:
        path.write_bytes(data[: entry["keep_bytes"]])
    elif "keep_chars" in entry:
        path.write_bytes(data[: entry["keep_chars"]])
    elif "keep" in entry:
        path.write_bytes(b"".join(data.splitlines(keepends=True)[: entry["keep"]]))
    else:
        path.write_bytes(b"".join(data.splitlines(keepends=True)[entry["drop_first"] :]))


def _edit_event(path: Path, entry: dict[str, Any]) -> None:
    lines = path.read_text("utf-8").splitlines()
    for i, line in enumerate(lines):
        data = json.loads(line)
        if data.get("type") == entry["type"]:
            if "drop" in entry:
                del data[entry["drop"]]
            else:
                data[entry["key"]] = entry["value"]
            lines[i] = json.dumps(data)
            break
    else:
        raise AssertionError(f"{path.name} has no {entry['type']!r} event to edit")
    path.write_text("\n".join(lines) + "\n", "utf-8")


def set_up(case: dict[str, Any], folder: Path, made: Path, request: pytest.FixtureRequest) -> None:
    shutil.copytree(HERE / "files", folder, dirs_exist_ok=True)
    if case.get("batch"):
        shutil.copytree(request.getfixturevalue("batches"), folder, dirs_exist_ok=True)
    if case.get("save"):
        shutil.copy(made / "save.json", folder / "save.json")
    if case.get("log"):
        shutil.copy(made / "game.jsonl", folder / "game.jsonl")
        shutil.copy(made / "keep.jsonl", folder / "keep.jsonl")
    if case.get("campaign"):
        shutil.copy(made / "c.sqlite", folder / "c.sqlite")
    if case.get("play"):
        shutil.copy(made / "play.json", folder / "play.json")
    for source, target in case.get("shipped", []):
        shutil.copy(SRC / source, folder / target)
    for statement in case.get("sql", []):
        with sqlite3.connect(folder / "c.sqlite") as conn:
            conn.execute(statement)
        conn.close()
    for entry in case.get("sqlite", []):
        conn = sqlite3.connect(folder / entry["file"])
        conn.execute(entry["sql"])
        conn.commit()
        conn.close()
    for entry in case.get("write", []):
        target = folder / entry["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        if "hex" in entry:
            target.write_bytes(bytes.fromhex(entry["hex"]))
        else:
            target.write_text(_text(entry), "utf-8")
    for name in case.get("remove", []):
        (folder / name).unlink()
    for entry in case.get("edit", []):
        target = folder / entry["file"]
        text = target.read_text("utf-8")
        assert entry["old"] in text, f"{case['id']}: {entry['old']!r} not in {entry['file']}"
        target.write_text(text.replace(entry["old"], entry["new"], 1), "utf-8")
    for entry in case.get("json", []):
        target = folder / entry["file"]
        data = json.loads(target.read_text("utf-8"))
        _set(data, entry["path"], entry.get("value"), bool(entry.get("drop")))
        target.write_text(json.dumps(data), "utf-8")
    for entry in case.get("json_line", []):
        target = folder / entry["file"]
        lines = target.read_text("utf-8").splitlines()
        data = json.loads(lines[entry["line"] - 1])
        _set(data, entry["path"], entry.get("value"), bool(entry.get("drop")))
        lines[entry["line"] - 1] = json.dumps(data)
        target.write_text("\n".join(lines) + "\n", "utf-8")
    for entry in case.get("event", []):
        _edit_event(folder / entry["file"], entry)
    for entry in case.get("lines", []):
        _edit_lines(folder / entry["file"], entry)
    for name in case.get("mkdir", []):
        (folder / name).mkdir(parents=True)
    for name in case.get("fifo", []):
        os.mkfifo(folder / name)
    for link, target in case.get("symlink", []):
        (folder / link).symlink_to(target)


def snapshot(folder: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under ``folder``: its kind, and for a file its size, mtime and hash,
    for a link where it points (never followed), for a pipe just that it is one."""
    seen: dict[str, tuple[Any, ...]] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            key = str(path.relative_to(folder))
            st = path.lstat()
            if path.is_symlink():
                seen[key] = ("link", os.readlink(path))
            elif path.is_dir():
                seen[key] = ("dir",)
            elif path.is_fifo():
                seen[key] = ("fifo", st.st_mtime_ns)
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                seen[key] = ("file", st.st_size, st.st_mtime_ns, digest)
    return seen


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "case"
    folder.mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("UNDERCROFT_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("UNDERCROFT_CATALOGUE", raising=False)
    # A home of its own, checked like the data folder: nothing (DuckDB's ~/.duckdb, say)
    # may be left there either.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # user policy modules leave no .pyc
    before = set(sys.modules)
    yield folder
    for name in set(sys.modules) - before:
        module_file = getattr(sys.modules[name], "__file__", None) or ""
        if module_file.startswith(str(folder)):
            del sys.modules[name]


def run_interrupted(args: list[str], folder: Path) -> tuple[int, str, str]:
    """Start ``undercroft ARGS``, wait until it is running days, send SIGINT."""
    process = subprocess.Popen(
        [sys.executable, "-m", "undercroft.cli", *args],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    lines = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        lines.append(line)
        if line.split()[:1] == ["2"]:  # the day-2 line: well into the run
            break
    process.send_signal(signal.SIGINT)
    rest, err = process.communicate(timeout=30)
    return process.returncode, "".join(lines) + rest, err


def test_the_corpus_is_large_and_covers_every_kind() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) and len(ids) > 50
    assert {c["kind"] for c in CASES} == set(KINDS)
    assert all(c["expect"] for c in CASES)


def files_under(folder: Path) -> list[str]:
    """The files (not folders) under ``folder``, if it exists."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_input_is_refused_cleanly(
    case: dict[str, Any],
    workspace: Path,
    made: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    set_up(case, workspace, made, request)
    before = snapshot(workspace)
    if case["kind"] == "interrupt":
        code, out, err = run_interrupted(case["args"], workspace)
    else:
        disk = fill(monkeypatch, case["full_disk"]) if "full_disk" in case else None
        result = CliRunner().invoke(app, case["args"], terminal_width=400)
        if disk is not None:
            assert disk.refused, "the command never wrote to the full disk"
        code, out, err = result.exit_code, result.stdout, result.stderr
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{type(result.exception).__name__}: {result.exception}"
        )
        assert out == "", "a refusal comes before any work, so nothing is printed to stdout"
    assert code == case.get("exit", 2), f"exit {code}\n{out}\n{err}"
    assert "Traceback" not in out + err
    flat = " ".join(err.split())
    for text in case["expect"]:
        assert " ".join(text.split()) in flat, f"{text!r} not in:\n{err}"
    assert snapshot(workspace) == before, "a file changed that the user did not ask to write"
    # Nor in the data folder (a catalogue, a batch folder) or the home folder; a folder
    # made there on first use holds nothing and is not counted.
    for elsewhere in ("data", "home"):
        assert files_under(workspace.parent / elsewhere) == [], f"left in the {elsewhere} folder"
