"""`results sql` is a sandbox: it reads the catalogue and its batches' Parquet files and
nothing else, writes nothing, fetches and installs nothing; long answers are cut to a
shown number of rows, and `--out` saves every row through undercroft's own writer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import Played, invoke
from undercroft.analysis import results


def sql(cat: Path, query: str, *more: str) -> tuple[int, str, str]:
    return invoke("results", "sql", query, "--catalogue", str(cat), *more)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.csv"
    secret.write_text("password\nhunter2\n")
    return tmp_path


def test_the_console_reads_and_writes_nothing_outside_the_catalogue(
    played: Played, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = outside / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    before = sorted(p.name for p in outside.iterdir())
    attempts = [
        f"COPY (SELECT 1) TO '{outside / 'out.csv'}'",
        f"EXPORT DATABASE '{outside / 'dump'}'",
        f"SELECT * FROM read_csv_auto('{outside / 'secret.csv'}')",
        f"SELECT * FROM '{outside / 'secret.csv'}'",
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM glob('/*')",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SELECT * FROM read_parquet('https://example.com/x.parquet')",
        f"ATTACH '{outside / 'other.duckdb'}' AS other",
        "SET enable_external_access = true",
        "SET autoinstall_known_extensions = true",
        "CREATE TABLE batches2 AS SELECT 1",
        "DELETE FROM batches",
    ]
    for attempt in attempts:
        code, stdout, stderr = sql(played.catalogue, attempt)
        assert code == 2, (attempt, stdout)
        assert "Traceback" not in stderr and "hunter2" not in stdout + stderr, attempt
    assert sorted(p.name for p in outside.iterdir()) == before
    assert not (home / ".duckdb").exists()
    # The batches' own files are still read.
    code, stdout, _ = sql(played.catalogue, "SELECT count(*) FROM crawl_runs", "--csv")
    assert code == 0 and int(stdout.splitlines()[1]) > 0


def test_long_answers_are_cut_and_say_so(played: Played) -> None:
    code, stdout, stderr = sql(played.catalogue, "SELECT * FROM range(30000000)", "--csv")
    assert code == 0
    assert len(stdout.strip().splitlines()) == 1 + 1000
    assert "the first 1000 rows" in stderr and "--out" in stderr
    code, stdout, _ = sql(played.catalogue, "SELECT * FROM range(50)", "--csv", "--limit", "7")
    assert len(stdout.strip().splitlines()) == 1 + 7
    for empty in ("", "   "):
        code, _, stderr = sql(played.catalogue, empty)
        assert code == 2 and "empty" in stderr and "Traceback" not in stderr


def test_out_saves_every_row_as_parquet_or_csv(played: Played, tmp_path: Path) -> None:
    parquet = tmp_path / "rows.parquet"
    code, _, stderr = sql(played.catalogue, "SELECT * FROM range(2500) t(n)", "--out", str(parquet))
    assert code == 0 and "wrote 2500 rows" in stderr
    assert pq.read_table(parquet).column("n").to_pylist() == list(range(2500))
    csv = tmp_path / "rows.csv"
    code, _, _ = sql(played.catalogue, "SELECT batch FROM crawl_runs", "--out", str(csv))
    assert code == 0 and csv.read_text().splitlines()[0].strip('"') == "batch"
    code, _, stderr = sql(played.catalogue, "SELECT 1", "--out", str(tmp_path / "x.txt"))
    assert code == 2 and ".parquet or .csv" in stderr
    code, _, stderr = sql(played.catalogue, "SELEC 1", "--out", str(tmp_path / "bad.csv"))
    assert code == 2 and not (tmp_path / "bad.csv").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def test_out_never_replaces_a_catalogued_file(played: Played) -> None:
    """`--out` naming a batch's own table, a new file in a catalogued batch's folder, or the
    catalogue: exit 2 naming the batch, and the file untouched."""
    runs = played.two / "runs.parquet"
    before = runs.read_bytes()
    try:
        for target in (runs, played.two / "mine.csv", played.catalogue):
            code, _, stderr = sql(played.catalogue, "SELECT 1 AS one", "--out", str(target))
            assert code == 2 and "Traceback" not in stderr, stderr
            assert "catalogue" in stderr and str(target) in stderr, stderr
        assert "catalogued batch" in sql(played.catalogue, "SELECT 1", "--out", str(runs))[2]
        assert runs.read_bytes() == before
        assert not (played.two / "mine.csv").exists()
    finally:
        runs.write_bytes(before)


def test_a_catalogue_that_is_not_ours_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SQLite file given as the catalogue: exit 2, no extension fetched, no ~/.duckdb."""
    monkeypatch.setenv("HOME", str(tmp_path))
    lite = tmp_path / "lite.db"
    with sqlite3.connect(lite) as conn:
        conn.execute("CREATE TABLE t (a)")
    for args in (("results", "list"), ("results", "sql", "SELECT 1")):
        code, _, stderr = invoke(*args, "--catalogue", str(lite))
        assert code == 2 and "not a results catalogue" in stderr, stderr
    assert not (tmp_path / ".duckdb").exists()


def test_one_process_runs_query_after_query_even_after_a_failed_one(played: Played) -> None:
    """DuckDB shares one database instance among a process's connections to a file: the
    locked configuration of one sandbox refused the next ("Cannot change configuration
    option allowed_paths"), a traceback, once a failed query's traceback kept the first
    connection alive. Each sandbox is a database of its own."""
    kept: list[BaseException] = []
    try:
        with results.sandbox(played.catalogue) as conn:
            reader = conn.sql("SELECT * FROM crawl_runs").to_arrow_reader()
            raise OSError(28, f"No space left on device ({reader.schema.names[0]})")
    except Exception as exc:
        kept.append(exc)
    assert kept
    for _ in range(3):
        answer = results.query(played.catalogue, "SELECT count(*) FROM crawl_runs")
        assert answer.rows[0][0] > 0
