"""Adventures per second per core, with the heuristic party and DM, against 0.2.0.

For every shipped adventure, with the log off and on, this plays ``--games`` seeds in one
process (one core) and prints adventures per CPU second, with the decisions and dice of
an adventure. It measures, in the same run and on the same machine:

* this checkout, compiled (``build/native``, see ``undercroft.native``) if that build is
  current, and as pure Python (``UNDERCROFT_PURE=1``);
* 0.2.0: the tag ``v0.2.0`` (or, without the tag, its commit c20d064) checked out into a
  temporary git worktree and run from there with the same interpreter and libraries;
* optionally ``--against REF``, any other commit (say ``main`` or the last release tag),
  the same way, as pure Python, and with ``--compiled-against`` also compiled (its own
  ``undercroft.native`` build made in the worktree first, a minute or two); each of this
  checkout's figures is then also given as a ratio to REF's of the same kind;
* with ``--policies careful,basic`` (the default when a ``careful`` party is registered,
  else ``basic`` alone), other hero policies than ``basic``: this checkout only (compiled
  and pure, against the same DM), each shown beside ``basic`` of the same kind with the
  ratio of its adventures per second to basic's. ``basic`` alone prints what it always did.

Each measurement runs in a fresh process, the variants take turns, and each figure is
the median of ``--rounds`` rounds, so a noisy shared machine bends them all alike; the
ratio is of adventures per second on the same adventure. Games of different versions
differ in length (the goal-pursuing party of the fidelity issue plays longer games than
0.2.0's): the decisions and turns columns say by how much.

    .venv/bin/python benchmarks/bench_crawl.py [--games 60] [--rounds 3]
        [--adventure ID ...] [--against REF [--compiled-against]] [--no-baseline]
        [--policies careful,basic] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
CHECKOUT = HERE.parents[1]
BASELINE_TAG = "v0.2.0"
BASELINE_COMMIT = "c20d064"


def work(adventure: str, games: int, log: bool, policy: str | None = None) -> dict[str, float]:
    """Play ``games`` seeds of ``adventure`` with whatever ``undercroft`` is importable;
    ``policy`` names the heroes' policy (``None``: the heuristic party, ``basic``). The
    DM is the heuristic one throughout. Versions before the players' package
    (``undercroft.agents``) are called with the runner's defaults, which were those."""
    import importlib.util

    from undercroft.crawl.content import default_pack
    from undercroft.crawl.runner import play

    pack = default_pack()
    ruleset = pack.ruleset(adventure)
    party = list(pack.heroes)[:4]
    heroes: dict[str, Any] = {} if policy is None else {"heroes": policy}
    if importlib.util.find_spec("undercroft.agents") is not None:
        # Since 0.5 the defaults are careful and master: name the players measured.
        heroes = {"heroes": policy or "basic", "dm": "basic"}
    decisions = dice = turns = won = 0
    play(ruleset, party, seed=10_000, log=log, **heroes)  # warm up: imports, content, caches
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        result = play(ruleset, party, seed=seed, log=log, **heroes)
        decisions += result.decisions
        turns += result.state.turn
        dice += sum(len(a.natural) for a in result.state.history if hasattr(a, "natural"))
        won += bool(result.state.summary().get("won"))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {
        "rate": games / cpu,
        "wall_rate": games / wall,
        "decisions": decisions / games,
        "dice": dice / games,
        "turns": turns / games,
        "won": won / games,
    }


@dataclass(frozen=True)
class Variant:
    name: str
    src: Path
    pure: bool
    policy: str | None = None
    """The heroes' policy when not ``basic`` (this checkout only); ``None``: basic, as the
    runner's default (the name older versions know it by)."""


def measure(variant: Variant, adventure: str, games: int, log: bool) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(variant.src)}
    env.pop("UNDERCROFT_PURE", None)
    if variant.pure:
        env["UNDERCROFT_PURE"] = "1"
    args = [sys.executable, str(HERE), "--worker", adventure, str(games), "on" if log else "off"]
    if variant.policy is not None:
        args.append(variant.policy)
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{variant.name} failed on {adventure}:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(CHECKOUT), *args], capture_output=True, text=True, check=False
    )


def checkout(ref: str, folder: Path) -> str | None:
    """Check ``ref`` out into ``folder`` (a detached worktree); the commit, or ``None``."""
    commit = git("rev-parse", "--verify", "--quiet", ref + "^{commit}")
    if commit.returncode != 0:
        return None
    added = git("worktree", "add", "--detach", str(folder), commit.stdout.strip())
    return commit.stdout.strip()[:12] if added.returncode == 0 else None


def build_native(folder: Path) -> bool:
    """Make the compiled build of the checkout in ``folder`` (its own ``build/native``)."""
    if not (folder / "src" / "undercroft" / "native.py").is_file():
        return False  # from before the compiled build
    print(f"building the compiled modules of {folder.name} ...", flush=True)
    env = {**os.environ, "PYTHONPATH": str(folder / "src")}
    env.pop("UNDERCROFT_PURE", None)
    args = [sys.executable, "-m", "undercroft.native", "build"]
    done = subprocess.run(args, cwd=folder, env=env, capture_output=True, text=True, check=False)
    return done.returncode == 0


def native_state() -> str:
    from undercroft import native

    return "compiled build current" if native.usable() else "no current compiled build"


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        adventure, games, log = sys.argv[2], int(sys.argv[3]), sys.argv[4] == "on"
        policy = sys.argv[5] if len(sys.argv) > 5 else None
        print(json.dumps(work(adventure, games, log, policy)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="seeds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per figure")
    parser.add_argument("--adventure", action="append", default=None)
    parser.add_argument("--against", default=None, help="also measure this git ref")
    parser.add_argument(
        "--compiled-against",
        action="store_true",
        help="also build --against's compiled modules and measure them",
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip 0.2.0")
    parser.add_argument(
        "--policies",
        default=None,
        help="hero policies to time, comma-separated (default: careful,basic if careful "
        "is registered, else basic); other than basic: this checkout only",
    )
    parser.add_argument("--profile", action="store_true", help="top functions, this code")
    args = parser.parse_args()
    from undercroft.agents.registry import ALIASES, POLICIES
    from undercroft.crawl.content import default_pack

    if args.policies is None:
        policies = ["careful", "basic"] if "careful" in POLICIES else ["basic"]
    else:
        policies = [ALIASES.get(p.strip(), p.strip()) for p in args.policies.split(",")]
        policies = list(dict.fromkeys(p for p in policies if p))
        unknown = [p for p in policies if p not in POLICIES]
        if unknown or not policies:
            parser.error(
                f"--policies: not registered: {', '.join(unknown) or '(none given)'}; "
                f"known: {', '.join(sorted(POLICIES))}"
            )
    others = [p for p in policies if p != "basic"]

    adventures = args.adventure or default_pack().campaign_order()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    if args.compiled_against and not args.against:
        parser.error("--compiled-against needs --against REF")
    here = CHECKOUT / "src"
    variants: list[Variant] = []
    from undercroft import native

    kinds = [("this, compiled", False)] if native.usable() else []
    kinds.append(("this, pure Python", True))
    if "basic" in policies:
        variants.extend(Variant(name, here, pure=pure) for name, pure in kinds)
    for policy in others:
        variants.extend(Variant(f"{name}, {policy}", here, pure, policy) for name, pure in kinds)
    with tempfile.TemporaryDirectory(prefix="undercroft-bench-") as scratch:
        added: list[Path] = []
        try:
            refs: list[tuple[str, str, str | None]] = (
                []
                if args.no_baseline or "basic" not in policies
                else [("0.2.0", BASELINE_TAG, BASELINE_COMMIT)]
            )
            if args.against and "basic" in policies:
                refs.append((args.against, args.against, None))
            for name, ref, fallback in refs:
                folder = Path(scratch) / name.replace("/", "_")
                commit = checkout(ref, folder) or (fallback and checkout(fallback, folder))
                if not commit:
                    tried = ref + (f" or {fallback}" if fallback else "")
                    print(f"!! {name}: neither {tried} is in this repository; not measured")
                    continue
                added.append(folder)
                if ref == args.against and args.compiled_against:
                    if build_native(folder):
                        compiled = Variant(f"{name} compiled ({commit})", folder / "src", False)
                        variants.append(compiled)
                    else:
                        print(f"!! {name}: its compiled build failed; measured as Python only")
                variants.append(Variant(f"{name} ({commit})", folder / "src", pure=True))
            report(variants, adventures, args.games, args.rounds, others)
        finally:
            for folder in added:
                git("worktree", "remove", "--force", str(folder))
    if args.profile:
        profile(adventures[0], max(10, args.games // 3))


def report(
    variants: list[Variant],
    adventures: list[str],
    games: int,
    rounds: int,
    extra: list[str] | None = None,
) -> None:
    print(
        f"{games} games a measurement, median of {rounds} rounds, one process each; "
        f"heuristic party (first four heroes) and DM; {native_state()}; "
        f"{time.strftime('%Y-%m-%d')}"
    )
    if extra:
        print(
            f"also the hero policies {', '.join(extra)} (this checkout only, the same "
            "party and DM), beside basic with the ratio of adventures per second"
        )
    baseline = next((v for v in variants if v.name.startswith("0.2.0")), None)
    # This checkout against another ref of the same kind (compiled or Python), if measured.
    mine = [v for v in variants if v.name.startswith("this") and v.policy is None]
    others = [v for v in variants if not v.name.startswith(("this", "0.2.0"))]
    pairs = [(m, o) for m in mine for o in others if m.pure == o.pure]
    for adventure in adventures:
        for log in (False, True):
            rows: dict[str, dict[str, float]] = {}
            runs: dict[str, list[dict[str, float]]] = {v.name: [] for v in variants}
            for _ in range(rounds):  # the variants take turns
                for v in variants:
                    runs[v.name].append(measure(v, adventure, games, log))
            for v in variants:
                got = runs[v.name]
                rows[v.name] = {**got[0], "rate": statistics.median(r["rate"] for r in got)}
            print(f"\n{adventure}, log {'on' if log else 'off'}:")
            for v in variants:
                r = rows[v.name]
                ratio = ""
                if baseline is not None and v is not baseline and v.policy is None:
                    ratio = f"   {r['rate'] / rows[baseline.name]['rate']:5.2f}x 0.2.0"
                print(
                    f"  {v.name:30} {r['rate']:7.1f} adventures/s/core  "
                    f"{r['decisions']:5.0f} decisions  {r['dice']:5.0f} dice  "
                    f"{r['turns']:5.1f} turns  won {r['won']:4.0%}{ratio}"
                )
            for m, o in pairs:
                print(f"  {m.name} / {o.name}: {rows[m.name]['rate'] / rows[o.name]['rate']:.2f}x")
            side_by_side(variants, rows)


def side_by_side(variants: list[Variant], rows: dict[str, dict[str, float]]) -> None:
    """Each policy other than basic (against the basic DM) beside basic of the same kind
    (compiled or Python): adventures a second, and the ratio policy/basic."""
    basic = {v.pure: v for v in variants if v.name.startswith("this") and v.policy is None}
    for v in variants:
        if v.policy is None:
            continue
        mine = rows[v.name]["rate"]
        kind = v.name.rsplit(", ", 1)[0]
        if v.pure not in basic:
            print(f"  {kind}: {v.policy} {mine:.1f} adventures/s/core (basic not measured)")
            continue
        theirs = rows[basic[v.pure].name]["rate"]
        print(
            f"  {kind}: basic {theirs:.1f} | {v.policy} {mine:.1f} adventures/s/core; "
            f"{v.policy}/basic {mine / theirs:.2f}x"
        )


def profile(adventure: str, games: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    work(adventure, games, False)
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(20)
    print(text.getvalue())


if __name__ == "__main__":
    main()
