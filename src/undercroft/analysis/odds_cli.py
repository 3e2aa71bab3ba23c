"""What ``undercroft odds`` does (its options are in :mod:`undercroft.analysis.cli`):
exact odds of a dice expression, a crawl rule's d6 table, a crawl fight
(:mod:`undercroft.analysis.odds`), or a keep wound's knock-out and head draws
(:mod:`undercroft.analysis.keep_odds`), printed as fractions and percentages or JSON.

A dice expression needs no engine, so the crawl's and the keep's odds modules are
imported only when a question needs them: ``undercroft odds 2d6`` answers at once.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from rich.table import Table

from undercroft.analysis.dice_odds import Odds, OddsError, dice_odds
from undercroft.clikit import Output, fail

out = Output(highlight=False)


@dataclass(frozen=True)
class KeepWound:
    """The options of ``odds keep-ko`` and ``odds keep-head`` (None: not given)."""

    wound: str | None = None
    weapon: str | None = None
    armour: str | None = None
    helmet: int | None = None

    @property
    def given(self) -> list[str]:
        return [f"--{k}" for k, v in vars(self).items() if v is not None]


@dataclass(frozen=True)
class CrawlAsk:
    """The options of the crawl's ``odds rule`` and ``odds fight`` (defaults: not given)."""

    hero: str | None = None
    monster: str | None = None
    stamina: int = 0
    monster_stamina: int = 0
    enemies: int = 1
    light0: bool = False
    surprised: bool = False
    power: int = 0
    sets: list[str] | None = None
    pack: Path | None = None


def odds(
    what: str, rule: str | None, ask: CrawlAsk, as_json: bool, keep: KeepWound | None = None
) -> None:
    """Exact odds: a dice expression, a rule's d6 table, a fight, or a keep wound's draw."""
    keep = keep or KeepWound()
    hero, monster, light0, sets, pack = ask.hero, ask.monster, ask.light0, ask.sets, ask.pack
    stamina, monster_stamina, enemies = ask.stamina, ask.monster_stamina, ask.enemies
    surprised = ask.surprised
    fight_only = {
        "--monster": monster is not None,
        "--stamina": stamina != 0,
        "--monster-stamina": monster_stamina != 0,
        "--enemies": enemies != 1,
        "--surprised": surprised,
    }
    given = [name for name, on in fight_only.items() if on]
    if what not in ("keep-ko", "keep-head") and keep.given:
        fail(f"{', '.join(keep.given)} belong to `odds keep-ko` and `odds keep-head`.")
    if what in ("keep-ko", "keep-head"):
        result = keep_odds_of(what, rule, given, keep, hero, light0, sets, pack)
    else:
        result = crawl_odds(what, rule, given, ask)
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=1) + "\n")
        return
    table = Table("outcome", "probability", "%", title=result.question)
    for word, p in result.outcomes.items():
        table.add_row(word, str(p), f"{100 * float(p):.2f}%")
    out.print(table)
    for note in result.notes:
        out.print(f"  {note}", markup=False)


def keep_odds_of(
    what: str,
    rule: str | None,
    given: list[str],
    keep: KeepWound,
    hero: str | None,
    light0: bool,
    sets: list[str] | None,
    pack: Path | None,
) -> Odds:
    """odds keep-ko / keep-head: the K-KO-02 and K-HEAD-01/02 draws of keep/wounds.py."""
    from undercroft.analysis import keep_odds  # the keep engine, loaded when asked (start-up)

    crawl_only = [*given, *(["--hero"] if hero else []), *(["--light0"] if light0 else [])]
    crawl_only += [*(["--set"] if sets else []), *(["--pack"] if pack else [])]
    if rule is not None:
        fail(f"odds {what} takes no argument after it (got {rule!r}); use options.")
    if crawl_only:
        fail(f"{', '.join(crawl_only)} belong to the crawl's odds, not `odds {what}`.")
    try:
        if what == "keep-ko":
            if keep.helmet is not None:
                fail("--helmet is for `odds keep-head` (K-HEAD-01), not keep-ko.")
            return keep_odds.ko_odds(keep.wound, keep.weapon, keep.armour)
        if keep.armour is not None:
            fail("--armour is for `odds keep-ko` (K-KO-03); a head wound reads the helmet.")
        return keep_odds.head_odds(keep.weapon, keep.helmet or 0, keep.wound)
    except OddsError as exc:
        fail(f"odds {what}: {exc}.")


def crawl_odds(what: str, rule: str | None, given: list[str], ask: CrawlAsk) -> Odds:
    """A dice expression, a crawl rule's d6 table, or a crawl fight."""
    if what not in ("fight", "rule"):
        return expression_odds(what, rule, given, ask)
    # The crawl engine and its content, loaded only for these questions (start-up time).
    from undercroft.analysis import odds as odds_engine
    from undercroft.crawl.app.cli import load_set

    hero, monster, light0, sets, pack = ask.hero, ask.monster, ask.light0, ask.sets, ask.pack
    try:
        if what == "fight":
            if rule is not None:
                fail(f"odds fight takes no argument after it (got {rule!r}); use options.")
            if hero is None or monster is None:
                fail("odds fight needs --hero H and --monster M (`undercroft list heroes`).")
            chosen, _, _ = load_set(None, pack, sets)
            result = odds_engine.fight_odds(
                chosen,
                hero,
                monster,
                stamina=ask.stamina,
                monster_stamina=ask.monster_stamina,
                enemies=ask.enemies,
                light0=light0,
                surprised=ask.surprised,
            )
        else:
            if rule is None or hero is None:
                fail(
                    "odds rule needs a rule ID and --hero H, e.g. "
                    "odds rule C-DOOR-01 --hero garrick"
                )
            if given:
                fail(f"{', '.join(given)} belong to `odds fight`, not `odds rule`.")
            chosen, _, _ = load_set(None, pack, sets)
            result = odds_engine.rule_odds(chosen, rule, hero, light0=light0, power=ask.power)
    except OddsError as exc:
        fail(str(exc))
    return result


def expression_odds(what: str, rule: str | None, given: list[str], ask: CrawlAsk) -> Odds:
    """A dice expression's totals, or ``A vs B``'s win, lose and tie."""
    hero, light0, sets = ask.hero, ask.light0, ask.sets
    extra = [*given, *(["--hero"] if hero else []), *(["--light0"] if light0 else [])]
    extra += ["--set"] if sets else []
    if rule is not None:
        fail(
            f"odds {what} {rule}: {what!r} reads as a dice expression, which takes no "
            f"second argument (got {rule!r}); a whole expression is one argument, "
            "quoted: odds '2d6+3 vs 2d6+1'; for a rule write `odds rule ID --hero H`, "
            "for a fight `odds fight --hero H --monster M`."
        )
    if extra:
        fail(
            f"{what!r} reads as a dice expression, which takes no {', '.join(extra)}; "
            "for a rule write `odds rule ID --hero H`, for a fight "
            "`odds fight --hero H --monster M`."
        )
    try:
        return dice_odds(what)
    except OddsError as exc:
        fail(str(exc))
