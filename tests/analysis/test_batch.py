"""Batches: identical rows whatever the workers, replayable runs, streamed tables, the
catalogue, and bad input refused before any run."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from analysis.analysis_kit import ADVENTURE, RUNS, SEED, Played, invoke
from undercroft.analysis.crawl_batch import CrawlBatch
from undercroft.analysis.store import ROW_GROUP
from undercroft.core.dice import derive_seed
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play

TABLES = ("runs", "deaths", "fights", "rolls", "squares")


def test_the_rows_do_not_depend_on_the_number_of_workers(played: Played) -> None:
    for table in TABLES:
        two = pq.read_table(played.two / f"{table}.parquet")
        one = pq.read_table(played.one / f"{table}.parquet")
        assert two.equals(one), table
    runs = pq.read_table(played.two / "runs.parquet").to_pylist()
    assert [r["run"] for r in runs] == list(range(RUNS))
    assert [r["seed"] for r in runs] == [derive_seed(SEED, i) for i in range(RUNS)]


def test_a_row_is_the_game_its_seed_plays_alone(played: Played) -> None:
    rows = pq.read_table(played.two / "runs.parquet").to_pylist()
    pack = default_pack()
    for row in rows[:3]:
        result = play(pack.ruleset(ADVENTURE), row["party"].split(","), seed=row["seed"], log=False)
        summary = result.state.summary()
        assert (row["won"], row["outcome"], row["turns"], row["treasure"]) == (
            summary["won"],
            summary["outcome"],
            summary["turns"],
            summary["treasure"],
        )
        assert row["dead"] == ",".join(h.removeprefix("hero:") for h in summary["dead"])


def test_the_printed_replay_command_replays_run_zero(played: Played) -> None:
    found = re.search(r"Replay run 0 alone: undercroft (run crawl .*)", played.printed)
    assert found, played.printed
    code, stdout, stderr = invoke(*shlex.split(found.group(1)), "--quiet")
    assert code == 0, stderr
    row = pq.read_table(played.two / "runs.parquet").to_pylist()[0]
    assert f"{row['turns']} turns" in stdout or str(row["turns"]) in stdout


def test_the_tables_agree_with_each_other(played: Played) -> None:
    runs = pq.read_table(played.two / "runs.parquet").to_pylist()
    deaths = pq.read_table(played.two / "deaths.parquet").to_pylist()
    fights = pq.read_table(played.two / "fights.parquet").to_pylist()
    squares = pq.read_table(played.two / "squares.parquet").to_pylist()
    assert sum(r["heroes_dead"] for r in runs) == len(deaths)
    assert sum(r["fights"] for r in runs) == len(fights) == sum(s["fights"] for s in squares)
    assert sum(r["traps_sprung"] for r in runs) == sum(s["traps"] for s in squares)
    assert len(deaths) == sum(s["deaths"] for s in squares)
    for r in runs:
        assert r["fights_won"] + r["fights_lost"] + r["fights_tied"] == r["fights"]
        assert r["won"] <= r["escaped"]
    dead = {(r["run"], h) for r in runs for h in r["dead"].split(",") if h}
    assert {(d["run"], d["hero"]) for d in deaths} == dead
    assert all(d["killer"] != "unknown" and d["death_rule"] in ("C-DD-01", "C-DD-03")
               for d in deaths)  # fmt: skip


def test_batch_json_and_the_report_describe_the_batch(played: Played) -> None:
    meta = json.loads((played.two / "batch.json").read_text())
    assert (meta["runs"], meta["seed"], meta["ruleset"]) == (RUNS, SEED, "crawl")
    assert CrawlBatch().from_json(meta["scenario"]).adventure == ADVENTURE
    page = (played.two / "report.html").read_text()
    # Nothing to fetch: no script, no link or image from elsewhere, no style sheet.
    assert "<script" not in page and "<link" not in page
    assert not re.search(r"""(src|href)=["'](?!#|data:)""", page)
    assert page.count("<svg") >= 8
    assert "derive_seed(S, i)" in page and "undercroft run crawl" in page


def test_the_catalogue_lists_shows_and_queries_the_batches(played: Played) -> None:
    cat = str(played.catalogue)
    code, stdout, _ = invoke("results", "list", "--catalogue", cat)
    assert code == 0 and str(played.two) in stdout and "undercroft batch crawl" in stdout
    code, stdout, _ = invoke("results", "show", "1", "--catalogue", cat)
    assert code == 0 and "won" in stdout
    code, stdout, _ = invoke(
        "results", "sql",
        "SELECT batch, count(*), sum(fights) FROM crawl_runs GROUP BY 1 ORDER BY 1",
        "--csv", "--catalogue", cat,
    )  # fmt: skip
    assert code == 0
    lines = stdout.strip().splitlines()[1:]
    assert len(lines) == 2 and lines[0].split(",")[1:] == lines[1].split(",")[1:]
    code, _, stderr = invoke("results", "sql", "SELEC 1", "--catalogue", cat)
    assert code == 2 and "did not run" in stderr
    code, _, stderr = invoke("results", "show", "99", "--catalogue", cat)
    assert code == 2 and "no batch 99" in stderr


def test_a_crawl_query_never_sees_keep_rows(tmp_path: Path) -> None:
    """Crawl and keep batches both write ``runs`` and ``squares``: one view per ruleset."""
    cat = str(tmp_path / "c.duckdb")
    for ident, args in enumerate(
        (["crawl", ADVENTURE, "--runs", "2"], ["keep", "mid", "--runs", "1", "--days", "1"]), 1
    ):
        code, stdout, stderr = invoke(
            "batch", *args, "--workers", "1", "--out", str(tmp_path / str(ident)),
            "--catalogue", cat, "--quiet",
        )  # fmt: skip
        assert code == 0, stdout + stderr

    def sql(query: str) -> list[str]:
        code, stdout, stderr = invoke("results", "sql", query, "--csv", "--catalogue", cat)
        assert code == 0, stderr
        return stdout.strip().splitlines()[1:]

    for view in ("runs", "squares"):
        assert sql(f"SELECT DISTINCT batch FROM crawl_{view}") == ["1"], view
        assert set(sql(f"SELECT DISTINCT batch FROM keep_{view}")) <= {"2"}, view
    assert sql("SELECT count(*) FROM crawl_runs") == ["2"]
    assert sql("SELECT count(*) FROM keep_runs") == ["1"]
    for view in ("deaths", "fights", "rolls", "rules"):
        assert set(sql(f"SELECT DISTINCT batch FROM crawl_{view}")) <= {"1"}, view
    for view in ("invasions", "traps", "doors", "days"):
        assert set(sql(f"SELECT DISTINCT batch FROM keep_{view}")) <= {"2"}, view
    code, _, stderr = invoke("results", "sql", "SELECT count(*) FROM runs", "--catalogue", cat)
    assert code == 2 and "crawl_runs or keep_runs" in stderr


def test_big_tables_are_written_in_row_groups(tmp_path: Path) -> None:
    import pyarrow as pa

    from undercroft.analysis.store import ParquetStore

    schema = pa.schema([("run", pa.int64())])
    store = ParquetStore(tmp_path, {"runs": schema})
    for start in range(0, 3 * ROW_GROUP, 10_000):
        store.write({"runs": pa.table({"run": list(range(start, start + 10_000))}, schema=schema)})
    store.close()
    f = pq.ParquetFile(tmp_path / "runs.parquet")
    assert f.metadata.num_rows == 3 * ROW_GROUP + 10_000 - (3 * ROW_GROUP) % 10_000
    assert f.metadata.num_row_groups >= 3
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess", ADVENTURE, "--runs", "2"], "unknown ruleset"),
        (["crawl", ADVENTURE, "--runs", "2", "--days", "3"], "--days applies to keep"),
        (["crawl", "nowhere", "--runs", "2"], "not an adventure"),
        (["crawl", ADVENTURE, "--runs", "0"], "--runs"),
        (["crawl", ADVENTURE, "--runs", "2", "--party", "brenna,brenna,durn"], "--party"),
        (["crawl", ADVENTURE, "--runs", "2", "--policy", "genius"], "--policy"),
        (["crawl", ADVENTURE, "--runs", "2", "--backend", "ray"], "allowed: local, dask"),
        (["crawl", ADVENTURE, "--runs", "2", "--backend", "dask"], "needs --address"),
        (["crawl", ADVENTURE, "--runs", "2", "--address", "tcp://127.0.0.1:1"], "--backend dask"),
        (
            ["crawl", ADVENTURE, "--runs", "2", "--set", "monsters.orc.fighting=99"],
            "less than or equal to 20",
        ),
        (
            ["crawl", ADVENTURE, "--runs", "2", "--set", "options.ambusher_six=sometimes"],
            "allowed: total, natural",
        ),
        (
            ["crawl", ADVENTURE, "--runs", "2", "--set", "monsters.orc.fightin=3"],
            "unknown field 'fightin'",
        ),
        (["crawl", ADVENTURE, "--runs", "2", "--set", "potions.x.y=1"], "unknown key 'potions'"),
    ],
)
def test_bad_input_exits_2_before_any_run(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = invoke(
        "batch", *args, "--out", str(out), "--catalogue", str(tmp_path / "c.duckdb")
    )
    assert code == 2, stdout + stderr
    assert message in stderr
    assert "Traceback" not in stderr + stdout
    assert not out.exists()


def test_a_batch_never_writes_over_results(tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "runs.parquet").write_text("mine")
    code, _, stderr = invoke("batch", "crawl", ADVENTURE, "--runs", "1", "--out", str(full),
                             "--catalogue", str(tmp_path / "c.duckdb"))  # fmt: skip
    assert code == 2 and "not empty" in stderr
    assert (full / "runs.parquet").read_text() == "mine"


def test_a_file_that_is_not_a_catalogue_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.txt"
    bogus.write_text("my notes\n")
    code, _, stderr = invoke("batch", "crawl", ADVENTURE, "--runs", "1", "--out",
                             str(tmp_path / "o"), "--catalogue", str(bogus))  # fmt: skip
    assert code == 2 and "not a results catalogue" in stderr
    assert bogus.read_text() == "my notes\n"


def test_an_interrupted_batch_leaves_no_partial_file(tmp_path: Path) -> None:
    from undercroft.analysis import backends
    from undercroft.analysis.batch import BatchSpec, run_batch
    from undercroft.analysis.crawl_batch import scenario_of

    spec = BatchSpec("crawl", scenario_of(ADVENTURE, ["brenna", "garrick", "durn", "sable"]),
                     4, 1, tmp_path, "test")  # fmt: skip
    calls = []

    def ctrl_c_after_the_first_chunk() -> None:
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt

    with backends.local(1) as chosen, pytest.raises(KeyboardInterrupt):
        run_batch(spec, chosen, check=ctrl_c_after_the_first_chunk)
    assert list(tmp_path.iterdir()) == []


def test_a_stopped_pool_is_wound_up_before_the_error_goes_on() -> None:
    # Python 3.11 writes to a live pool's wake-up pipe at exit while the pool's manager
    # thread may be closing it: a "Bad file descriptor" traceback after a batch stopped
    # by a full disk. A stopped pool must have ended that thread and closed the pipe.
    from undercroft.analysis import backends

    class StopError(Exception):
        pass

    with pytest.raises(StopError), backends.local(1) as chosen:
        assert chosen.executor.submit(sum, [1, 2]).result() == 3
        wakeup = chosen.executor._executor_manager_thread_wakeup  # type: ignore[attr-defined]
        manager = chosen.executor._executor_manager_thread  # type: ignore[attr-defined]
        raise StopError
    assert wakeup._closed and not manager.is_alive()


def test_many_small_chunks_keep_their_order(tmp_path: Path) -> None:
    import pyarrow as pa

    from undercroft.analysis.store import MERGE_EVERY, ParquetStore

    schema = pa.schema([("run", pa.int64())])
    store = ParquetStore(tmp_path, {"runs": schema})
    chunks = 3 * MERGE_EVERY + 5
    for start in range(0, 10 * chunks, 10):
        store.write({"runs": pa.table({"run": list(range(start, start + 10))}, schema=schema)})
    store.close()
    assert pq.read_table(tmp_path / "runs.parquet")["run"].to_pylist() == list(range(10 * chunks))
