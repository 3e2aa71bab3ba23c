"""The compiled build (undercroft.native) plays the same games as the pure-Python code.

``make test`` runs the whole suite twice, compiled and as pure Python; these tests check
that both give byte-identical logs in two processes, and that a compiled build is only
used when it is of exactly the sources on disk.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from undercroft import native

GAMES = """
import hashlib, json, sys
from undercroft import native
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play
pack = default_pack()
party = list(pack.heroes)[:4]
out = {}
for adventure in pack.campaign_order():
    for seed in (0, 1):
        for heroes in ("heuristic", "random"):
            log = play(pack.ruleset(adventure), party, seed=seed, heroes=heroes).log
            out[f"{adventure}/{seed}/{heroes}"] = hashlib.sha256(log.text().encode()).hexdigest()
from undercroft.keep.scenario import build_world
for scenario in ("tutorial", "mid"):
    for seed in (0, 1):
        world = build_world(scenario, seed=seed)
        log = world.open_log()
        world.run_days(8)
        world.close_log()
        out[f"keep/{scenario}/{seed}"] = hashlib.sha256(log.text().encode()).hexdigest()
out["compiled"] = native.compiled_modules()
print(json.dumps(out))
"""


def run_games(pure: bool) -> dict[str, object]:
    import json

    env = {k: v for k, v in os.environ.items() if k != native.PURE}
    if pure:
        env[native.PURE] = "1"
    done = subprocess.run(
        [sys.executable, "-c", GAMES], env=env, capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(
    not native.usable() and os.environ.get(native.PURE, "") in ("", "0"),
    reason="no compiled build of these sources (make install builds one)",
)
def test_the_compiled_build_and_pure_python_give_the_same_logs() -> None:
    if os.environ.get(native.PURE, "") not in ("", "0"):
        pytest.skip("the pure pass: the compiled pass runs this test")
    compiled, pure = run_games(pure=False), run_games(pure=True)
    modules = compiled.pop("compiled")
    assert isinstance(modules, list)
    assert len(modules) >= 15, "the engine did not run compiled"
    assert any(m.startswith("undercroft.keep.") for m in modules), "keep did not run compiled"
    assert pure.pop("compiled") == []
    assert compiled == pure


def test_a_build_of_other_sources_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(native.PURE, raising=False)
    monkeypatch.setattr(native, "NATIVE", tmp_path)
    assert not native.usable()  # no build at all
    (tmp_path / native.STAMP).write_text(native.digest() + "\n", encoding="utf-8")
    assert native.usable()
    (tmp_path / native.STAMP).write_text(hashlib.sha256(b"old").hexdigest(), encoding="utf-8")
    assert not native.usable()  # a module was edited since the build
    (tmp_path / native.STAMP).write_text(native.digest() + "\n", encoding="utf-8")
    monkeypatch.setenv(native.PURE, "1")
    assert not native.usable()  # pure Python asked for


def test_every_module_named_for_compiling_exists() -> None:
    package = Path(native.__file__).parent
    for name in native.MODULES:
        assert (package / name).is_file(), name


def test_every_part_of_a_compiled_class_is_compiled() -> None:
    """A compiled class cannot inherit from a class run as Python: the careful party's
    parts (one class each, in one chain) are all compiled, or the build fails to load."""
    package = Path(native.__file__).parent
    parts = sorted(
        f"agents/careful_parts/{p.name}"
        for p in (package / "agents" / "careful_parts").glob("*.py")
        if p.name != "__init__.py"
    )
    assert parts and set(parts) <= set(native.MODULES)
