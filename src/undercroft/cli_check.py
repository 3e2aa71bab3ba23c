"""``undercroft check``: content files validated against their schemas, both rulesets'.

Importing the crawl's content and the keep's scenario modules registers their content
kinds (:func:`undercroft.core.content.kinds`); loaded only when ``check`` runs
(:mod:`undercroft.clilazy`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from undercroft.clikit import Output, err, fail, interruptible
from undercroft.core.content import ContentError, check_file, iter_content_files, kinds
from undercroft.crawl import content as crawl_content
from undercroft.keep import scenario as keep_scenario

out = Output()


@interruptible
def check(
    paths: Annotated[
        list[Path], typer.Argument(help="Content files or folders of *.toml files to validate.")
    ],
) -> None:
    """Validate content files (TOML) against their schema; mistakes name file:line:key."""
    problems: list[str] = []
    checked = 0
    for root in paths:
        if not root.exists():
            fail(f"{root}: no such file or folder.")
        crawl_files: list[Path] = []
        if root.is_dir() and not any(root.rglob("*.toml")):
            fail(f"{root}: a folder with no *.toml content files in it (nor below it).")
        for path in iter_content_files(root):
            checked += 1
            try:
                model = check_file(path)
            except ContentError as exc:
                problems.extend(str(p) for p in exc.problems)
                continue
            kind = str(getattr(model, "kind", ""))
            if kind.startswith("crawl-"):
                crawl_files.append(path)
            elif kind == "keep-scenario":
                # The world set up as `run keep` would: options, places, script.
                problems.extend(str(p) for p in keep_scenario.check_scenario(path))
        if crawl_files and not problems:
            # Cross-file checks: unknown spells, monsters, items, boards; doors on walls.
            pack_root = Path(os.path.commonpath([p.parent for p in crawl_files]))
            try:
                crawl_content.load_pack(pack_root)
            except ContentError as exc:
                problems.extend(str(p) for p in exc.problems)
    if problems:
        for line in problems:
            err.print(line, highlight=False, soft_wrap=True, markup=False)
        fail(
            f"{len(problems)} problem(s) in the content checked; each line above names "
            "file:line: key: what is wrong (and the allowed values where there is a list). "
            f"Known kinds of content file: {', '.join(sorted(kinds()))}."
        )
    out.print(f"ok: {checked} content file(s) valid")
