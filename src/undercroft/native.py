"""An optional compiled build of the crawl and keep engines' hot modules (mypyc), beside
the pure-Python ones.

The modules in :data:`MODULES` are plain, fully typed Python; mypyc (part of mypy, a dev
dependency) can compile them to C extensions that run the same code about twice as fast.
``make install`` builds them into ``build/native`` of the checkout
(``python -m undercroft.native build``); nothing is written into ``src``.

At import, the ``undercroft.crawl``, ``undercroft.keep`` and ``undercroft.core`` packages
look in ``build/native`` first, but only when the build is of exactly the sources on disk (their
SHA-256 is recorded with the build): an edited module is never shadowed by a stale
compiled one, it simply runs as Python until the next build. ``UNDERCROFT_PURE=1`` runs
everything as Python. Both give the same games and byte-identical logs (the test suite
checks it, and runs in both modes under ``make test``).

    python -m undercroft.native build    # compile (needs a C compiler)
    python -m undercroft.native status   # which modules run compiled
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
NATIVE = PACKAGE.parents[1] / "build" / "native"
"""Where the compiled modules go: ``build/native`` of the checkout."""
MODULES = (
    "core/events.py",
    "core/stream.py",
    "core/grid.py",
    "core/sight.py",
    "crawl/ruleset.py",
    "crawl/actions.py",
    "crawl/engine.py",
    "crawl/figures.py",
    "crawl/state.py",
    "crawl/known.py",
    "crawl/distance.py",
    "crawl/turn.py",
    "crawl/death.py",
    "crawl/damage.py",
    "crawl/doors.py",
    "crawl/traps.py",
    "crawl/reveal.py",
    "crawl/movement.py",
    "crawl/monsters.py",
    "crawl/spells.py",
    "crawl/combat.py",
    "crawl/resolve.py",
    "crawl/explore.py",
    "crawl/goals.py",
    "crawl/seen.py",
    "crawl/board_view.py",
    "crawl/observe.py",
    "crawl/seat_log.py",
    "agents/plan.py",
    "agents/basic_party.py",
    "agents/basic_dm.py",
    "agents/randomly.py",
    "agents/knobs.py",
    "agents/odds.py",
    "agents/careful_parts/common.py",
    "agents/careful_parts/table.py",
    "agents/careful_parts/magic.py",
    "agents/careful_parts/fighting.py",
    "agents/careful_parts/patrols.py",
    "agents/careful_parts/together.py",
    "agents/careful_parts/jumps.py",
    "agents/careful_parts/corpses.py",
    "agents/careful_parts/moving.py",
    "agents/careful.py",
    "agents/registry.py",
    "crawl/runner.py",
    "keep/rules/stances.py",
    "keep/rules/fighters.py",
    "keep/rules/perception.py",
    "keep/rules/skirmish.py",
    "keep/rules/combat.py",
    "keep/rules/adventuring.py",
    "keep/rules/knowledge.py",
    "keep/rules/caution.py",
    "keep/rules/routes.py",
    "keep/rules/goals.py",
    "keep/rules/fallen.py",
    "keep/state/world.py",
    "keep/state/actors.py",
    "keep/state/clock.py",
    "keep/state/invaders.py",
    "keep/rules/jobs.py",
    "keep/state/tasks.py",
    "keep/rules/movement.py",
    "keep/rules/doors.py",
    "keep/rules/traps.py",
    "keep/rules/forcing.py",
    "keep/rules/locks.py",
    "keep/rules/wounds.py",
    "keep/rules/fray.py",
    "keep/rules/work.py",
    "keep/content/calendar.py",
)
"""The modules compiled, relative to the package (the rest always run as Python). A class
in them cannot be subclassed by Python code unless it says so
(``@mypyc_attr(allow_interpreted_subclasses=True)``: actions, the state and the built-in
policies do); ``core.dice`` stays Python since tests and runners subclass its sampler and
patch one sampler's methods, but its draws are ``core.stream``'s, compiled (a Python
subclass of a compiled class keeps a ``__dict__``); the event builders it re-exports
live in ``core.events``, compiled with the log's classes (a Greyhollow game with the log
on went from 127.6 to 113.6 M instructions).
The crawl's cards and adventure (``crawl.ruleset``) are compiled, so the rules read them
directly (about 12,700 reads a Greyhollow game; 107.1 to 102.7 M instructions), except
``crawl.options``: content files and ``--set`` validate against its annotations, which a
compiled class keeps only as runtime classes (a ``Literal`` reads as ``type``).
The runner's loop (``crawl.runner``) is compiled too: it runs once per decision.
In keep the world, its clock, the beings and the rule modules of the busy paths are
compiled (a day of trapworks with an invasion of five went from 22.6 to 17 ms when the
world and the beings joined). Left as Python: ``keep.stepping`` (tests record steps by
patching it); ``keep.structures`` (its classes name their part and role in class
attributes, which a compiled dataclass turns into read-only fields); ``keep.invasion_state``
(it saves its dataclasses through their ``__dict__``). A compiled class must not keep a
constant in an unannotated class attribute that code reads from the class itself
(``Adventurer.kind`` is not ``"adventurer"`` once compiled)."""
STAMP = "SOURCES.sha256"
PURE = "UNDERCROFT_PURE"


def digest() -> str:
    """The SHA-256 of the compiled modules' sources as they are on disk."""
    h = hashlib.sha256()
    for name in MODULES:
        h.update(name.encode() + b"\0" + (PACKAGE / name).read_bytes() + b"\0")
    return h.hexdigest()


def usable() -> bool:
    """Whether the compiled build is there, of these sources, and not turned off."""
    if os.environ.get(PURE, "") not in ("", "0"):
        return False
    try:
        return (NATIVE / STAMP).read_text(encoding="utf-8").strip() == digest()
    except OSError:
        return False


_USABLE: bool | None = None


def in_use() -> bool:
    """Whether this process runs the compiled build (decided once, at the first import of
    a package that looks for it: :func:`search_path`)."""
    return bool(_USABLE)


def search_path(package: str, path: list[str]) -> None:
    """Put the compiled modules of ``package`` (``"crawl"``, ``"keep"`` or ``"core"``) ahead of its
    Python modules on the package's ``__path__``, if the build is usable."""
    global _USABLE
    if _USABLE is None:
        _USABLE = usable()
        if _USABLE and str(NATIVE) not in sys.path:
            sys.path.append(str(NATIVE))  # the library the compiled modules share
    compiled = NATIVE / "undercroft" / package
    if _USABLE and str(compiled) not in path:
        path.insert(0, str(compiled))


def compiled_modules() -> list[str]:
    """The ``undercroft`` modules running compiled in this process."""
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("undercroft.")
        and str(getattr(module, "__file__", "")).endswith((".so", ".pyd"))
    )


def built_modules() -> list[str]:
    """The ``undercroft`` modules that run compiled when the build is usable, read from
    :data:`MODULES` and the build's files (this module sits below the packages it builds,
    so it names them as paths and never imports them)."""
    if not usable():
        return []
    found = []
    for name in MODULES:
        source = Path(name)
        if any((NATIVE / "undercroft" / source.parent).glob(source.stem + ".*.so")):
            found.append("undercroft." + ".".join(source.with_suffix("").parts))
    return sorted(found)


def build() -> int:
    """Compile :data:`MODULES` into :data:`NATIVE` (in a scratch copy of the sources, so
    ``src`` never holds a compiled module). Returns the compiler's exit status."""
    stamp = digest()
    with tempfile.TemporaryDirectory(prefix="undercroft-native-") as scratch:
        work = Path(scratch)
        shutil.copytree(PACKAGE, work / "undercroft", ignore=shutil.ignore_patterns("*.so"))
        script = work / "undercroft" / "native_setup.py"  # mypyc, C files in parallel
        done = subprocess.run(
            [sys.executable, str(script), "build_ext", "--inplace"],
            cwd=work,
            env={**os.environ, "MYPYPATH": str(work), "PYTHONPATH": str(work)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            print(done.stdout[-4000:], file=sys.stderr)
            return done.returncode
        fresh = NATIVE.with_name(NATIVE.name + ".new")
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        for lib in work.glob("*.so"):  # the library shared by the compiled modules
            shutil.copy2(lib, fresh / lib.name)
        for name in MODULES:
            source = work / "undercroft" / name
            for lib in source.parent.glob(source.stem + ".*.so"):
                target = fresh / "undercroft" / Path(name).parent / lib.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(lib, target)
        (fresh / STAMP).write_text(stamp + "\n", encoding="utf-8")
        shutil.rmtree(NATIVE, ignore_errors=True)
        fresh.rename(NATIVE)
    return 0


def main(argv: list[str]) -> int:
    if argv == ["build"]:
        status = build()
        print("compiled build: " + ("ready in " + str(NATIVE) if status == 0 else "failed"))
        return status
    if argv == ["status"]:
        names = built_modules()
        print(f"{len(names)} modules compiled" + ("" if names else " (pure Python)"))
        for name in names:
            print(f"  {name}")
        return 0
    print("usage: python -m undercroft.native build|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
