"""How well the built-in hero policies play, measured from the event log of each game.

For every adventure of the default pack (or ``--adventure``), two parties (the pack's
first four heroes, and brenna,corvin,ysolde,mirela) and every hero policy of
``--policies`` (a registered name, or one with knobs: ``careful[aim=0]``; others are
skipped, and said so), this plays seeds
0 .. N-1 with the log on against the DM ``--dm`` and prints one markdown row per
(adventure, party, policy) of the measures of :mod:`undercroft.analysis.quality`, each
counted from the log alone (the board, start squares, goal areas and potion cards come
from the ruleset):

* shuttles a game: a hero's end-of-movement square going A-B-A-B over four turns;
* goal-area trait tests (a (turn, area) of a ``visit`` goal) that fewer heroes explored
  than could have joined, a game, out of all such tests;
* fights at Light 0 (``light`` in the hero's modifiers) a game, and their share of fights;
* healing potions carried out unused by escaped heroes in games where a hero died, per
  such game, and how many games had a death;
* castings that fizzled for lack of a target a game, and their share of castings begun.

Games run on a process pool (``--workers``, 2 by default); the figures do not depend on
it. Progress goes to stderr. ``--json FILE`` writes the figures.

    .venv/bin/python benchmarks/ai_quality.py [--seeds 100] [--policies careful,basic]
        [--dm master|basic] [--adventure ID ...] [--workers 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import platform
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import undercroft.agents  # noqa: F401 - registers the built-in policies
from undercroft import __version__
from undercroft.agents.registry import POLICIES, resolve
from undercroft.analysis import quality
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play

OTHER_PARTY = ("brenna", "corvin", "ysolde", "mirela")
DEFAULT_POLICIES = "careful,basic"

Job = tuple[str, tuple[str, ...], str, str, int]
"""(adventure, party, hero policy, DM, seed)."""

_CACHE: dict[tuple[str, tuple[str, ...]], tuple[Any, quality.Board, frozenset[str], Any]] = {}
"""Per worker process: (ruleset, board, goal areas, healing cards) by (adventure, party)."""


def default_dm() -> str:
    return "master" if "master" in POLICIES else "basic"


def parties() -> list[tuple[str, ...]]:
    return [tuple(list(default_pack().heroes)[:4]), OTHER_PARTY]


def one_game(job: Job) -> tuple[Job, dict[str, Any]]:
    """Play one game with the log on and measure it."""
    adventure, party, policy, dm, seed = job
    key = (adventure, party)
    if key not in _CACHE:
        ruleset = default_pack().ruleset(adventure)
        _CACHE[key] = (
            ruleset,
            quality.board_of(ruleset, party),
            quality.visit_areas(ruleset),
            quality.healing_cards(ruleset),
        )
    ruleset, board, goals, healing = _CACHE[key]
    result = play(ruleset, list(party), seed=seed, heroes=policy, dm=dm, log=True)
    assert result.log is not None
    return job, quality.game_quality(result.log, board, goals, healing).to_json()


@dataclass
class Row:
    """The totals of one (adventure, party, policy)."""

    adventure: str
    party: str
    policy: str
    totals: dict[str, int] = field(default_factory=dict)
    games: int = 0
    death_games: int = 0

    def add(self, game: dict[str, Any]) -> None:
        self.games += 1
        self.death_games += game["deaths"] > 0
        for name, value in game.items():
            self.totals[name] = self.totals.get(name, 0) + int(value)

    def figures(self) -> dict[str, Any]:
        t, n = self.totals, max(self.games, 1)

        def share(part: str, whole: str) -> float | None:
            return t[part] / t[whole] if t.get(whole) else None

        return {
            "adventure": self.adventure,
            "party": self.party,
            "policy": self.policy,
            "games": self.games,
            "totals": dict(sorted(t.items())),
            "won": t.get("won", 0) / n,
            "deaths_per_game": t.get("deaths", 0) / n,
            "shuttles_per_game": t.get("shuttles", 0) / n,
            "goal_tests_per_game": t.get("goal_tests", 0) / n,
            "short_goal_tests_per_game": t.get("short_goal_tests", 0) / n,
            "short_goal_test_share": share("short_goal_tests", "goal_tests"),
            "light_zero_fights_per_game": t.get("light_zero_fights", 0) / n,
            "light_zero_fight_share": share("light_zero_fights", "fights"),
            "games_with_a_death": self.death_games,
            "healing_left_per_death_game": (
                t.get("healing_left", 0) / self.death_games if self.death_games else None
            ),
            "no_target_fizzles_per_game": t.get("no_target_fizzles", 0) / n,
            "no_target_fizzle_share": share("no_target_fizzles", "castings"),
        }


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| adventure | party | policy | games | won | deaths/game | shuttles/game "
        "| short goal tests/game (of tests) | Light 0 fights/game (share) "
        "| heals carried out unused/death game (death games) "
        "| no-target fizzles/game (share of castings) |"
    )
    lines = [head, "|" + "---|" * 3 + "---:|" * 8]
    for r in rows:
        heal = r["healing_left_per_death_game"]
        lines.append(
            f"| {r['adventure']} | {r['party']} | {r['policy']} | {r['games']} "
            f"| {pct(r['won'])} | {r['deaths_per_game']:.2f} | {r['shuttles_per_game']:.2f} "
            f"| {r['short_goal_tests_per_game']:.2f} ({r['totals'].get('goal_tests', 0)} tests, "
            f"{pct(r['short_goal_test_share'])} short) "
            f"| {r['light_zero_fights_per_game']:.1f} ({pct(r['light_zero_fight_share'])}) "
            f"| {'–' if heal is None else f'{heal:.2f}'} ({r['games_with_a_death']}) "
            f"| {r['no_target_fizzles_per_game']:.2f} ({pct(r['no_target_fizzle_share'])}) |"
        )
    return "\n".join(lines)


def playable(name: str) -> str | None:
    """``None`` if ``name`` is a policy (registered, an alias, or a registered one with
    knobs: ``careful[aim=0]``), else why not."""
    try:
        resolve(name)
    except (KeyError, ValueError) as exc:
        return str(exc.args[0]) if exc.args else "not registered"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seeds", type=int, default=100, help="games per row: seeds 0..N-1")
    parser.add_argument(
        "--policies",
        default=DEFAULT_POLICIES,
        help="hero policies, comma-separated (with knobs too: careful[aim=0]); others skipped",
    )
    parser.add_argument("--dm", default=None, help="the DM policy (default: master if registered)")
    parser.add_argument("--adventure", action="append", default=None, help="repeatable")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.workers < 1:
        parser.error("--seeds and --workers must be at least 1")
    dm = args.dm or default_dm()
    if playable(dm) is not None:
        parser.error(f"--dm {dm!r} is not registered; known: {', '.join(sorted(POLICIES))}")
    wanted = [p.strip() for p in args.policies.split(",") if p.strip()]
    policies = [p for p in wanted if playable(p) is None]
    skipped = [p for p in wanted if p not in policies]
    for name in skipped:
        print(f"skipping policy {name!r}: {playable(name)}", file=sys.stderr)
    if not policies:
        parser.error(f"no registered policy in --policies {args.policies!r}")
    pack = default_pack()
    adventures = args.adventure or list(pack.campaign_order())
    unknown = [a for a in adventures if a not in pack.campaign_order()]
    if unknown:
        parser.error(f"unknown adventure(s): {', '.join(unknown)}")
    groups = parties()
    jobs: list[Job] = [
        (adventure, party, policy, dm, seed)
        for adventure in adventures
        for party in groups
        for policy in policies
        for seed in range(args.seeds)
    ]
    rows = {
        (a, p, pol): Row(a, ",".join(p), pol)
        for a in adventures
        for p in groups
        for pol in policies
    }
    started = time.perf_counter()
    step = max(1, len(jobs) // 20)
    with multiprocessing.Pool(args.workers) as pool:
        for done, (job, game) in enumerate(pool.imap_unordered(one_game, jobs, chunksize=4), 1):
            rows[(job[0], job[1], job[2])].add(game)
            if done % step == 0 or done == len(jobs):
                print(
                    f"{done}/{len(jobs)} games, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    wall = time.perf_counter() - started
    figures = [row.figures() for row in rows.values()]
    today = datetime.date.today().isoformat()
    command = "benchmarks/ai_quality.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    how = (
        f"seeds 0..{args.seeds - 1} per row, hero policies {', '.join(policies)}"
        + (f" (skipped, not registered: {', '.join(skipped)})" if skipped else "")
        + f", DM {dm}, undercroft {__version__}, Python {platform.python_version()}, "
        f"{args.workers} worker processes, {wall:.0f} s wall"
    )
    print(f"# Hero policy quality, {today}\n")
    print(f"Run: `{command}`; {how}.\n")
    print(table(figures))
    print(
        "\nPer game over all games, except heals (per game with a hero death). "
        "Definitions: `undercroft.analysis.quality`."
    )
    if args.json is not None:
        out = {
            "date": today,
            "command": command,
            "seeds": args.seeds,
            "dm": dm,
            "policies": policies,
            "skipped": skipped,
            "version": __version__,
            "wall_seconds": wall,
            "rows": figures,
        }
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
