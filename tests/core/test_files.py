"""Files the user names: outputs written only over regular files or new paths, through a
temporary file and a rename; inputs read only from regular files."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

from undercroft import clikit
from undercroft.core.events import Event, Header, KeepTime, StreamingLog
from undercroft.core.files import (
    PartialFile,
    PathError,
    check_input,
    check_outputs,
    write_text_atomic,
)


def test_a_symlink_is_never_replaced(tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("my thesis\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(precious)
    with pytest.raises(PathError, match="symbolic link"):
        write_text_atomic(link, "a log\n")
    with pytest.raises(PathError, match="symbolic link"):
        check_outputs([("--log", link)])
    assert link.is_symlink() and precious.read_text() == "my thesis\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "precious.txt"]


def test_a_pipe_or_a_folder_is_never_replaced(tmp_path: Path) -> None:
    pipe = tmp_path / "null.jsonl"
    os.mkfifo(pipe)
    (tmp_path / "logs").mkdir()
    for path, kind in ((pipe, "named pipe"), (tmp_path / "logs", "folder")):
        with pytest.raises(PathError, match=kind):
            write_text_atomic(path, "x")
        with pytest.raises(PathError, match=kind):
            check_input(path) if kind == "named pipe" else check_outputs([("--log", path)])
    assert pipe.is_fifo() and not any((tmp_path / "logs").iterdir())


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    write_text_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]  # no temporary file left


def test_one_file_for_two_outputs_or_an_input_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "day10.json"
    save.write_text("{}")
    with pytest.raises(PathError, match="is the file given to --resume"):
        check_outputs([("--save", tmp_path / "." / "day10.json")], [("--resume", save)])
    (tmp_path / "sub").mkdir()
    with pytest.raises(PathError, match="is also the file of --log"):
        check_outputs([("--log", tmp_path / "a"), ("--save", tmp_path / "sub" / ".." / "a")])


def test_an_output_in_a_missing_folder_or_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(PathError, match="does not exist"):
        check_outputs([("--save", tmp_path / "no" / "such" / "s.json")])
    with pytest.raises(PathError, match=r"notes\.txt is a file, not a folder"):
        check_outputs([("--save", tmp_path / "notes.txt" / "deeper" / "s.json")])


def test_a_discarded_stream_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    stream = StreamingLog(path, Header("keep", "t", 0, "s"))
    stream.emit(KeepTime(0), Event("note", ()))
    assert (tmp_path / "run.jsonl.partial").exists()
    stream.discard()
    assert list(tmp_path.iterdir()) == []


def test_a_stale_partial_file_is_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    (tmp_path / "run.jsonl.partial").write_text("left by a run that was killed\n")
    partial = PartialFile(path)
    partial.write("complete\n")
    partial.commit()
    assert path.read_text() == "complete\n" and [p.name for p in tmp_path.iterdir()] == [
        "run.jsonl"
    ]


def test_the_progress_bar_shows_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for terminal, shown in ((True, True), (False, False)):
        screen = io.StringIO()
        console = Console(file=screen, force_terminal=terminal, width=80)
        monkeypatch.setattr(clikit, "err", console)
        with clikit.progress(3, "days") as advance:
            for _ in range(3):
                advance()
        assert ("days" in screen.getvalue()) is shown
