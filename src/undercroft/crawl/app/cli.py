"""``undercroft run crawl`` and ``undercroft replay``: play an adventure, read a log."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from undercroft.agents.knobs import fold
from undercroft.agents.plugins import PolicyError, resolve_policy
from undercroft.clikit import Output, check_paths, interrupted, interruptible, warn, writing
from undercroft.clikit import fail as _fail
from undercroft.core.content import ContentError, parse_toml, read_text
from undercroft.core.events import EventLog, LogFormatError, read_log
from undercroft.crawl import runner
from undercroft.crawl.app import campaign
from undercroft.crawl.content import check_settings, default_pack, load_pack, pack_with
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import observe_entries
from undercroft.crawl.players import PartyError, check_party
from undercroft.crawl.ruleset import Adventure
from undercroft.crawl.settings import SettingError
from undercroft.crawl.settings import parse as parse_setting
from undercroft.crawl.sightings import Sightings
from undercroft.defaults import DEFAULT_DM, DEFAULT_HEROES, MAX_SEED
from undercroft.render.narrate import NarrationError, narrate, summary_lines

if TYPE_CHECKING:
    from undercroft.crawl.content import Pack
    from undercroft.crawl.settings import Setting

out = Output(highlight=False)


PolicyOption = Annotated[
    str, typer.Option(help="Policy for the heroes: a name, or MODULE:FACTORY of your own.")
]
DmOption = Annotated[
    str, typer.Option(help="Policy for the Dungeon Master: a name, or MODULE:FACTORY.")
]


def _load(adventure: str | None, pack: Path | None) -> tuple[Pack, str]:
    """The pack and adventure id for ``--adventure NAME|PATH`` and ``--pack``.

    A path names an adventure file; its pack is ``--pack`` or the nearest folder above
    it that holds the heroes, monsters and other cards.
    """

    if adventure is not None and adventure.endswith(".toml"):
        path = Path(adventure)
        if pack is not None and not path.resolve().is_relative_to(pack.resolve()):
            _fail(
                f"--adventure {adventure} is not in --pack {pack}: an adventure file plays "
                "with the pack around it, so give the file alone, or its id with --pack."
            )
        data = parse_toml(read_text(path), str(path))
        adv_id = data.get("id")
        if data.get("kind") != "crawl-adventure" or not isinstance(adv_id, str):
            _fail(f"--adventure {adventure}: not a crawl adventure file (kind, id).")
        folders = [pack] if pack else [path.parent, path.parent.parent]
        last: ContentError | None = None
        for folder in folders:
            assert folder is not None
            try:
                found = load_pack(folder)
            except ContentError as exc:
                last = exc
                continue
            if adv_id in found.adventures:
                return found, str(adv_id)
        if last is not None:
            raise last
        _fail(f"--adventure {adventure}: no pack with its heroes and monsters around it.")
    chosen = load_pack(pack) if pack else default_pack()
    order = chosen.campaign_order()
    if not order:
        _fail(f"the pack {chosen.folder} has no adventures.")
    name = adventure or order[0]
    if name not in chosen.adventures:
        _fail(
            f"--adventure {name!r} is not an adventure of {chosen.folder}; "
            f"known: {', '.join(order)} (`undercroft list adventures`)."
        )
    return chosen, name


SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Change a content value or option: monsters.orc.fighting=3, "
        "options.ambusher_six=natural (repeatable).",
    ),
]


def load_set(
    adventure: str | None, pack: Path | None, sets: list[str] | None
) -> tuple[Pack, str, tuple[Setting, ...]]:
    """The pack, adventure id and settings for ``--adventure``, ``--pack`` and ``--set``:
    each setting checked against the pack (exit 2 naming it), then the pack loaded again
    with them applied, so a set value passes every check of content."""

    try:
        chosen, adventure_id = _load(adventure, pack)
    except ContentError as exc:
        _fail("the content does not load:\n" + "\n".join(str(p) for p in exc.problems))
    try:
        settings = tuple(parse_setting(text) for text in sets or [])
        check_settings(chosen, settings)
    except SettingError as exc:
        _fail(str(exc))
    if not settings:
        return chosen, adventure_id, ()
    try:
        folder = None if pack is None and adventure_file(adventure) is None else chosen.folder
        return pack_with(folder, settings), adventure_id, settings
    except ContentError as exc:
        given = " ".join(f"--set {s.text}" for s in settings)
        problems = "\n".join(str(p) for p in exc.problems)
        _fail(f"with {given} the content does not load:\n{problems}")


def party_of(party: str | None, chosen: Pack, adventure_id: str) -> list[str]:
    """The heroes of ``--party`` (default: the pack's first four), or exit 2."""
    heroes = [h.strip() for h in party.split(",")] if party is not None else list(chosen.heroes)[:4]
    try:
        # C-SETUP-03: 3 to 5 players, a different hero each, on the adventure's start squares.
        check_party(heroes, list(chosen.heroes), len(chosen.adventures[adventure_id].starts))
    except PartyError as exc:
        _fail(f"--party: {exc}.")
    return heroes


def adventure_file(adventure: str | None) -> Path | None:
    """``--adventure`` as a file path, if it names one (``*.toml``)."""
    return Path(adventure) if adventure and adventure.endswith(".toml") else None


def with_knobs(policy: str, dm: str, settings: Sequence[Setting]) -> tuple[str, str]:
    """The policy names with the knobs of ``--set policy.KNOB=V`` and ``--set dm.KNOB=V``
    folded in (``careful[gather=0]``, docs/players.md); checked when resolved."""
    knobs: dict[str, dict[str, str]] = {"policy": {}, "dm": {}}
    for s in settings:
        if s.table in knobs:
            value = s.value
            knobs[s.table][s.field] = str(value).lower() if isinstance(value, bool) else str(value)
    return fold(policy, knobs["policy"]), fold(dm, knobs["dm"])


def policies(policy: str, dm: str) -> tuple[str, str]:
    """The two policies' registered names; an unknown one exits 2 naming the option."""
    names = []
    for label, name in (("--policy", policy), ("--dm", dm)):
        try:
            names.append(resolve_policy(name))
        except PolicyError as exc:
            _fail(f"{label} {exc}.")
    return names[0], names[1]


def _policy_broke(exc: PolicyError, policy: str, dm: str) -> NoReturn:
    """A policy of the user's own (MODULE:FACTORY) went wrong during the game: exit 2."""
    labels = [label for label, name in (("--policy", policy), ("--dm", dm)) if name == exc.policy]
    _fail(f"{'/'.join(labels)} {exc}; a policy must return one of the legal actions it is shown.")


@interruptible
def run_crawl(
    adventure: Annotated[
        str | None,
        typer.Option(help="Adventure id from the pack, or the path of an adventure file."),
    ] = None,
    party: Annotated[
        str | None,
        typer.Option(help="3 to 5 different hero ids, comma-separated (default: the first four)."),
    ] = None,
    policy: PolicyOption = DEFAULT_HEROES,
    dm: DmOption = DEFAULT_DM,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Run seed (dice, policies).")] = 1,
    log: Annotated[Path | None, typer.Option(help="Write the event log (JSON Lines) here.")] = None,
    view: Annotated[
        str | None, typer.Option(help="With --log: write the log as 'heroes' or 'dm' see it.")
    ] = None,
    pack: Annotated[Path | None, typer.Option(help="A content pack folder.")] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the summary.")] = False,
    explain: Annotated[bool, typer.Option(help="Show the rule IDs behind every line.")] = False,
    sets: SetOption = None,
) -> None:
    """Play one crawl adventure to the end and tell what happened."""

    if view is not None and view not in ("heroes", "dm"):
        _fail(f"--view must be 'heroes' or 'dm', not {view!r}.")
    if view is not None and log is None:
        _fail("--view needs --log FILE: it says how the log is written.")
    if quiet and explain:
        warn("--explain shows the rule IDs of the account, which --quiet leaves out: ignored.")
    check_paths([("--log", log)], [("--adventure", adventure_file(adventure))])
    chosen, adventure_id, settings = load_set(adventure, pack, sets)
    policy, dm = policies(*with_knobs(policy, dm, settings))
    heroes = party_of(party, chosen, adventure_id)
    ruleset = chosen.ruleset(adventure_id)
    try:
        result = runner.play(
            ruleset, heroes, seed=seed, heroes=policy, dm=dm, scenario=adventure_id
        )
    except PolicyError as exc:
        _policy_broke(exc, policy, dm)
    assert result.log is not None
    if log is not None:
        seat = Seat.HEROES if view == "heroes" else Seat.DM
        write_view(result.log, log, seat, result.state.ruleset.adventure)
    if not quiet:
        adv = chosen.adventures[adventure_id]
        out.print(f"[bold]{adv.name}[/bold] — {adv.intro}".rstrip(" —"))
        for line in narrate(result.log, explain=explain):
            out.print(line, markup=False, soft_wrap=True)
    for line in summary_lines(result.state.summary()):
        out.print(line, markup=False, soft_wrap=True)


def write_view(log: EventLog, path: Path, seat: Seat, adventure: Adventure) -> None:
    """Write the log as ``seat`` sees it (the heroes' view hides what they may not know,
    monsters out of their sight too: R-C-MON-06)."""
    sightings = Sightings.of_log(adventure, log.header)
    view = EventLog(log.header, observe_entries(log.entries, seat, 0, sightings), log.summary)
    writing("--log", path, lambda: view.write(path))


@interruptible
def replay(
    file: Annotated[Path, typer.Argument(help="An event log written with --log.")],
    explain: Annotated[bool, typer.Option(help="Show the rule IDs behind every line.")] = False,
) -> None:
    """Print the account of a game from its saved log."""
    try:
        log = read_log(file)
    except LogFormatError as exc:
        _fail(str(exc))
    if log.header.ruleset != "crawl":
        _fail(f"{file}: a {log.header.ruleset} log; replay tells crawl games.")
    try:
        lines = list(narrate(log, explain=explain))
    except NarrationError as exc:
        # Line 1 is the header, so the event numbered seq is on line seq + 2.
        _fail(f"{file}:{exc.entry.seq + 2}: {exc}; the log was not written by this undercroft.")
    summary = log.summary.results if log.summary is not None else None
    try:
        closing = summary_lines(summary) if summary is not None else []
    except (KeyError, TypeError, ValueError) as exc:
        where = f"{file}:{len(log.entries) + 2}"
        _fail(f"{where}: the summary line: a field has the wrong type or value ({exc}).")
    out.print(f"[bold]{log.header.scenario}[/bold] (seed {log.header.seed}, {log.header.version})")
    for line in lines:
        out.print(line, markup=False, soft_wrap=True)
    for line in closing:
        out.print(line, markup=False, soft_wrap=True)
    if summary is None:
        warn(
            f"{file} has no summary line: the game did not finish, or the log was cut short "
            f"after line {len(log.entries) + 1}. The account above stops there."
        )


campaign_app = typer.Typer(
    help="A crawl campaign: heroes, items, deaths and revivals kept between adventures.",
    no_args_is_help=True,
)
DbOption = Annotated[
    Path | None, typer.Option("--db", help="The campaign database (default: user data folder).")
]


def _db(db: Path | None) -> Path:

    return db or campaign.default_db()


def _show(current: object) -> None:

    assert isinstance(current, campaign.Status)
    head = f"[bold]{current.name}[/bold]: {current.status}, {current.players} players"
    out.print(f"{head}, pack {current.pack}")
    out.print(f"Next adventure: {current.next_adventure or '-'}")
    for h in current.heroes:
        if h.status != "reserve" or h.items:
            items = ", ".join(h.items) or "nothing"
            out.print(f"  {h.hero:10} {h.status:8} carries {items}", markup=False)
    for i, p in enumerate(current.played, 1):
        out.print(
            f"  {i}. {p['adventure']}: {p['outcome']} in {p['turns']} turns; "
            f"dead: {', '.join(p['dead']) or 'none'}",
            markup=False,
        )


@campaign_app.command("new")
@interruptible
def campaign_new(
    name: Annotated[str, typer.Argument(help="A name for the campaign.")],
    party: Annotated[str, typer.Option(help="Comma-separated hero ids, one per player (3-5).")],
    pack: Annotated[str, typer.Option(help="'default' or a content pack folder.")] = "default",
    seed: Annotated[int, typer.Option(min=0, max=2**63 - 1)] = 1,
    db: DbOption = None,
) -> None:
    """Start a campaign (C-SETUP-03): each player picks one hero."""

    try:
        _show(
            campaign.new(_db(db), name, [h.strip() for h in party.split(",")], pack=pack, seed=seed)
        )
    except campaign.CampaignError as exc:
        _fail(str(exc))
    except ContentError as exc:
        _fail("the pack does not load:\n" + "\n".join(str(p) for p in exc.problems))


@campaign_app.command("status")
@interruptible
def campaign_status(name: Annotated[str, typer.Argument()], db: DbOption = None) -> None:
    """Show the heroes, their items and the adventures played."""

    try:
        _show(campaign.status(_db(db), name))
    except campaign.CampaignError as exc:
        _fail(str(exc))
    except ContentError as exc:
        _fail("the campaign's pack does not load:\n" + "\n".join(str(p) for p in exc.problems))


@campaign_app.command("play")
def campaign_play(
    name: Annotated[str, typer.Argument()],
    policy: PolicyOption = DEFAULT_HEROES,
    dm: DmOption = DEFAULT_DM,
    log: Annotated[Path | None, typer.Option(help="Write this adventure's event log here.")] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the summary.")] = False,
    db: DbOption = None,
) -> None:
    """Play the campaign's next adventure and record the result.

    The log is written before the result is recorded: if it cannot be, the campaign does
    not move on (and Ctrl-C records nothing).
    """

    policy, dm = policies(policy, dm)
    database = _db(db)
    check_paths([("--log", log)], uses=[("--db", database)])

    def write_log(result: Any) -> None:
        if log is not None and result.log is not None:
            write_view(result.log, log, Seat.DM, result.state.ruleset.adventure)

    try:
        current, result = campaign.play(
            database, name, heroes_policy=policy, dm_policy=dm, before_record=write_log
        )
    except PolicyError as exc:
        _policy_broke(exc, policy, dm)
    except campaign.CampaignError as exc:
        _fail(str(exc))
    except ContentError as exc:
        _fail("the campaign's pack does not load:\n" + "\n".join(str(p) for p in exc.problems))
    except KeyboardInterrupt:
        interrupted("the adventure was not recorded; the campaign is as it was")
    if not quiet and result.log is not None:
        for line in narrate(result.log):
            out.print(line, markup=False, soft_wrap=True)
    for line in summary_lines(result.state.summary()):
        out.print(line, markup=False, soft_wrap=True)
    _show(current)
