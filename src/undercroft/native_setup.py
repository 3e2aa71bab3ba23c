"""The setuptools script that compiles :data:`undercroft.native.MODULES` with mypyc, run
by ``python -m undercroft.native build`` in a scratch copy of the sources (never here).

It differs from ``python -m mypyc`` in two ways, both for build time, not for the code
made: each module's C goes to its own file (``multi_file``), and those files are
compiled ``UNDERCROFT_BUILD_JOBS`` at a time (default: one a CPU). One 28 MB C file took
about 150 s to compile on one core of a 2-core machine; 66 files on both cores take about
65 s, and the games run the same number of instructions (126.9 against 127.3 M a
Greyhollow adventure, callgrind).

    python native_setup.py build_ext --inplace     (cwd: the scratch copy)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from mypyc.build import mypycify
from setuptools import Extension, setup  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

from undercroft.native import MODULES


def jobs() -> int:
    """How many C files to compile at once."""
    wanted = os.environ.get("UNDERCROFT_BUILD_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    if hasattr(os, "sched_getaffinity"):  # the CPUs this process may use (Linux)
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class ParallelBuild(build_ext):  # type: ignore[misc]  # (the venv's setuptools has no types)
    """``build_ext`` whose compiler compiles an extension's C files in parallel (the
    extension shared by the compiled modules has one a module)."""

    def build_extension(self, ext: Extension) -> None:
        compiler = self.compiler
        serial: Callable[..., list[str]] = compiler.compile
        workers = jobs()

        def compile(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if workers == 1 or len(sources) < 2:
                return serial(sources, *args, **kwargs)
            with ThreadPoolExecutor(workers) as pool:
                # list() waits for every file and raises the first compile error
                done = list(pool.map(lambda s: serial([s], *args, **kwargs), sources))
            return [obj for objects in done for obj in objects]

        compiler.compile = compile
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial


if __name__ == "__main__":
    setup(
        name="undercroft-native",
        ext_modules=mypycify(
            [f"undercroft/{name}" for name in MODULES], opt_level="3", multi_file=True
        ),
        cmdclass={"build_ext": ParallelBuild},
    )
