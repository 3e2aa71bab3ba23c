"""A full disk, for every output of the command line: exit 2 naming the path and "no
space left", no traceback, and nothing left behind (no half-written file or folder, no
hidden temporary one), the disk full from the first write or filling up halfway.

The disk is simulated in-process (``tests/full_disk.py``); one batch also runs on a real
full disk, a tiny tmpfs in a user namespace, where the machine allows one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analysis.analysis_kit import ADVENTURE, Played
from full_disk import fill
from undercroft.cli import app
from undercroft.crawl.app.campaign import new


@dataclass(frozen=True)
class Output:
    """One output option: the command writing it into ``folder``, and the path it names."""

    id: str
    args: Callable[[Path, Played], list[str]]
    path: str
    stdin: str = ""


OUTPUTS = [
    Output("run-crawl-log", lambda w, p: ["run", "crawl", "--quiet", "--log", f"{w}/g.jsonl"],
           "g.jsonl"),
    Output("campaign-play-log", lambda w, p: ["campaign", "play", "c1", "--quiet", "--db",
                                              f"{w}/c.sqlite", "--log", f"{w}/c.jsonl"],
           "c.jsonl"),
    Output("run-keep-log", lambda w, p: ["run", "keep", "--days", "1", "--quiet", "--log",
                                         f"{w}/k.jsonl"], "k.jsonl"),
    Output("run-keep-save", lambda w, p: ["run", "keep", "--days", "1", "--quiet", "--save",
                                          f"{w}/k.json"], "k.json"),
    Output("play-save", lambda w, p: ["play", "crawl", "--save", f"{w}/p.json"], "p.json"),
    Output("results-sql-out-parquet", lambda w, p: ["results", "sql", "SELECT 42 AS x",
                                                    "--catalogue", str(p.catalogue), "--out",
                                                    f"{w}/x.parquet"], "x.parquet"),
    Output("results-sql-out-csv", lambda w, p: ["results", "sql", "SELECT 42 AS x",
                                                "--catalogue", str(p.catalogue), "--out",
                                                f"{w}/x.csv"], "x.csv"),
    Output("batch-out", lambda w, p: ["batch", "crawl", ADVENTURE, "--runs", "2", "--workers",
                                      "1", "--out", f"{w}/b"], "b"),
    Output("sweep-out", lambda w, p: ["sweep", "crawl", ADVENTURE, "--runs", "1", "--workers",
                                      "1", "--set", "options.max_turns=30,40", "--out",
                                      f"{w}/s"], "s"),
    Output("compare-out", lambda w, p: ["compare", str(p.two), str(p.one), "--out", f"{w}/cmp"],
           "cmp"),
]  # fmt: skip
FOLDERS = {"batch-out", "sweep-out"}
"""Outputs that are folders of many files: a disk that fills up halfway through one is
tried too (a comparison's folder holds one file)."""


def _tree(folder: Path) -> dict[str, int]:
    return {
        str(p.relative_to(folder)): p.stat().st_size if p.is_file() else -1
        for p in sorted(folder.rglob("*"))
    }


CASES = [(o, 0) for o in OUTPUTS] + [(o, 2) for o in OUTPUTS if o.id in FOLDERS]


@pytest.mark.parametrize(("output", "room"), CASES, ids=[f"{o.id}-room{room}" for o, room in CASES])
def test_a_full_disk_is_exit_2_naming_the_path_and_leaves_nothing(
    output: Output,
    room: int,
    played: Played,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("UNDERCROFT_DATA", str(tmp_path / "data"))
    if output.id == "campaign-play-log":
        new(work / "c.sqlite", "c1", ["brenna", "garrick", "durn"])
    before = _tree(work)
    disk = fill(monkeypatch, room)
    result = CliRunner().invoke(app, output.args(work, played), input=output.stdin,
                                terminal_width=400)  # fmt: skip
    monkeypatch.undo()
    stderr = " ".join(result.stderr.split())
    assert disk.refused >= 1, (
        f"the command wrote nothing through the simulated disk: exit {result.exit_code}, "
        f"{result.exception!r}"
    )
    assert result.exit_code == 2, result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}"
    )
    assert "Traceback" not in result.output + result.stderr
    assert str(work / output.path) in stderr and "no space left" in stderr, stderr
    after = _tree(work)
    if output.id == "campaign-play-log":
        # The log is written before the result is recorded: the campaign did not move on.
        after["c.sqlite"] = before["c.sqlite"]
    assert after == before, "a full disk left something behind"


def test_a_batch_into_its_data_folder_on_a_full_disk_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERCROFT_DATA", str(tmp_path / "data"))
    fill(monkeypatch, 2)
    result = CliRunner().invoke(
        app, ["batch", "crawl", ADVENTURE, "--runs", "2", "--workers", "1"], terminal_width=400
    )
    monkeypatch.undo()
    assert result.exit_code == 2, result.output + result.stderr
    stderr = " ".join(result.stderr.split())
    assert "the results folder" in stderr and "no space left" in stderr, stderr
    assert list((tmp_path / "data" / "batches").iterdir()) == []


def _tmpfs_works() -> bool:
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    tried = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=8k tmpfs /mnt"],
        capture_output=True,
        check=False,
    )
    return tried.returncode == 0


def _on_a_full_disk(tmp_path: Path, size: str, script: str) -> tuple[str, str]:
    """Run the shell ``script`` with ``$DISK`` a fresh tmpfs of ``size`` and ``$U`` the
    command line; its stdout and stderr (whitespace joined)."""
    mount = tmp_path / "disk"
    mount.mkdir(parents=True)
    env = {**os.environ, "UNDERCROFT_DATA": str(tmp_path / "data"), "DISK": str(mount),
           "U": f"{sys.executable} -m undercroft.cli"}  # fmt: skip
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size={size} tmpfs $DISK && {script}"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout, " ".join(done.stderr.split())


REAL = pytest.mark.skipif(not _tmpfs_works(), reason="no user namespace to mount a tmpfs in")


@REAL
def test_a_batch_on_a_real_full_disk_leaves_nothing(tmp_path: Path) -> None:
    # 32 KiB hold a few of the batch's tables but not all of them, nor its report.
    script = f'$U batch crawl {ADVENTURE} --runs 2 --workers 1 --out "$DISK/b"; echo rc=$?'
    out, err = _on_a_full_disk(tmp_path, "32k", script + '; ls -A "$DISK"')
    assert out.strip() == "rc=2", out + err
    assert f"--out {tmp_path}/disk/b: no space left on the disk (ENOSPC)" in err


@REAL
def test_a_campaign_on_a_real_full_disk_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    # A new campaign's database does not fit: nothing is left, not even an empty file.
    script = '$U campaign new c1 --party brenna,garrick,durn --db "$DISK/c.sqlite"; echo rc=$?'
    out, err = _on_a_full_disk(tmp_path / "new", "8k", script + '; ls -A "$DISK"')
    assert out.strip() == "rc=2", out + err
    assert "c.sqlite: cannot open the campaign database: no space left on the disk" in err
    # An adventure played when the disk has filled up since: not recorded, exit 2.
    out, err = _on_a_full_disk(tmp_path / "play", "256k", (
        '$U campaign new c1 --party brenna,garrick,durn --db "$DISK/c.sqlite" >/dev/null && '
        'cp "$DISK/c.sqlite" "$DISK/before.sqlite" && '
        '(cat /dev/zero > "$DISK/filler" 2>/dev/null; true) && '
        '$U campaign play c1 --quiet --db "$DISK/c.sqlite" >/dev/null; echo rc=$?; '
        'cmp "$DISK/c.sqlite" "$DISK/before.sqlite" && echo same'))  # fmt: skip
    assert out.split() == ["rc=2", "same"], out + err
    assert "c.sqlite: cannot use the campaign database: no space left on the disk" in err
