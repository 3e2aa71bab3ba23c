"""``undercroft play crawl``: play an adventure in the terminal against the built-in seats.

The board is drawn as text from the seat's observation (rich), the legal actions are
numbered, and the choice is read from standard input one line at a time, so a game can be
scripted (``yes 1 | undercroft play crawl --seed 3`` plays it to the end). A person at the
heroes' seat sees only what the heroes' observer gives (``observe``, ``observe_entry``).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.table import Table as RichTable

from undercroft.agents.plugins import PolicyError, resolve_policy
from undercroft.clikit import check_paths, fail, interruptible, writing
from undercroft.core.content import ContentError
from undercroft.core.files import PathError, check_input
from undercroft.crawl.actions import Action
from undercroft.crawl.app.cli import _load, policies
from undercroft.crawl.app.table import HUMAN, PLAYED_SEATS, Table, read_save
from undercroft.crawl.content import default_pack, load_pack
from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation, observe, observe_entries
from undercroft.crawl.players import PartyError, check_party
from undercroft.crawl.sightings import Sightings
from undercroft.crawl.state import SaveError
from undercroft.defaults import DEFAULT_DM, DEFAULT_HEROES, MAX_SEED
from undercroft.render.decision import context_line, option_words
from undercroft.render.narrate import describe, name, summary_lines

out = Console(highlight=False, emoji=False)

SEATS = {"heroes": (Seat.HEROES,), "dm": (Seat.DM,), "both": (Seat.HEROES, Seat.DM)}


def label(action: Action, obs: Observation) -> str:
    """A short sentence for a legal action."""
    # dataclasses.fields, not vars(): a compiled action (undercroft.native) has no __dict__.
    fields = {f.name: getattr(action, f.name) for f in dataclasses.fields(action)}
    who = fields.pop("hero", None) or fields.pop("monster", None) or fields.pop("giver", None)
    head = f"{name(who)}: " if who else ""
    kind = type(action).__name__
    if kind == "ChooseOption":
        words = option_words(obs.context, int(fields["index"]))
        if words is not None:
            return words
    if kind == "TakeTest":
        return f"{head}takes up the text"
    if kind == "MonsterMove":
        path = fields.get("path") or ()
        end = f"to ({path[-1].x},{path[-1].y})" if path else "stay"
        return f"{head}move {end}" + (f", {fields['stamina']} Stamina" if fields["stamina"] else "")
    items = {i["uid"]: i["name"] for h in obs.heroes for i in h["items"]}
    items.update({i["uid"]: i["name"] for c in obs.corpses for i in c["items"]})
    parts = []
    for key, value in fields.items():
        if hasattr(value, "x"):
            value = f"({value.x},{value.y})"
        elif key in ("item", "source") and value in items:
            value = items[value]
        elif key in ("target", "receiver") and isinstance(value, str):
            value = name(value)
        parts.append(f"{key} {value}")
    return f"{head}{kind}" + (f" ({', '.join(parts)})" if parts else "")


def board(obs: Observation) -> str:
    """The board with figures: heroes by their initial, monsters by a lower-case letter,
    detected traps ``^``, corpses ``%``."""
    rows = [list(r) for r in obs.board.split("\n")]

    def put(pos: Any, ch: str) -> None:
        if pos is not None and 0 <= pos[1] < len(rows) and 0 <= pos[0] < len(rows[pos[1]]):
            rows[pos[1]][pos[0]] = ch

    for trap in obs.traps:
        put(trap["at"], "^")
    for corpse in obs.corpses:
        put(corpse["at"], "%")
    for monster in obs.monsters:
        put(monster["pos"], str(monster["kind"])[0].lower())
    for hero in obs.heroes:
        put(hero["pos"], name(hero["id"])[0].upper())
    return "\n".join("".join(r).rstrip() for r in rows)


def show(obs: Observation) -> None:
    out.print(board(obs), markup=False)
    table = RichTable("hero", "Health", "Stamina", "Magic", "items", box=None, padding=(0, 1))
    for h in obs.heroes:
        state = " (dead)" if h["dead"] else " (left)" if h["left"] else ""
        items = ", ".join(i["name"] for i in h["items"]) or "-"
        table.add_row(name(h["id"]) + state, str(h["health"]), str(h["stamina"]),
                      str(h["magic"]), items)  # fmt: skip
    out.print(table)
    for m in obs.monsters:
        out.print(f"  {name(m['id'])} Health {m['health']} Stamina {m['stamina']}", markup=False)
    out.print(f"Turn {obs.turn}, {obs.step.replace('_', ' ')}; Light {obs.light}", markup=False)


def choose(obs: Observation, seat: Seat, stdin: TextIO) -> Action | None:
    """Ask for one of the numbered legal actions; ``None`` when the input ends or says q."""
    legal = list(obs.legal)
    out.print(f"[bold]{seat.value}[/bold]: {obs.decision}")
    about = context_line(obs.context)
    if about is not None:
        out.print(f"  {about}", markup=False)
    for number, action in enumerate(legal, start=1):
        out.print(f"  {number:3}. {label(action, obs)}", markup=False)
    while True:
        out.print(f"choose 1-{len(legal)} (q saves and stops): ", end="")
        line = stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            out.print()
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(legal):
            out.print(text if not stdin.isatty() else "", markup=False)
            return legal[int(text) - 1]
        out.print(f"\n{text!r} is not a number from 1 to {len(legal)}.", markup=False)


def given_on_command_line(ctx: typer.Context, name: str) -> bool:
    """The option ``name`` was given (on the command line or by an environment variable),
    not left at its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


@interruptible
def play_crawl(
    ctx: typer.Context,
    adventure: Annotated[
        str | None, typer.Option(help="Adventure id from the pack, or an adventure file.")
    ] = None,
    party: Annotated[
        str | None, typer.Option(help="3 to 5 different hero ids, comma-separated.")
    ] = None,
    seat: Annotated[
        str, typer.Option(help="The seat you play: heroes, dm or both (the other: --policy/--dm).")
    ] = "heroes",
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Game seed (dice, policies).")] = 1,
    policy: Annotated[
        str, typer.Option(help="Policy for the heroes if you do not play them.")
    ] = DEFAULT_HEROES,
    dm: Annotated[str, typer.Option(help="Policy for the DM if you do not play it.")] = DEFAULT_DM,
    pack: Annotated[Path | None, typer.Option(help="A content pack folder.")] = None,
    save: Annotated[
        Path | None, typer.Option(help="Keep the game in this file after every decision.")
    ] = None,
    resume: Annotated[Path | None, typer.Option(help="Go on with a game kept with --save.")] = None,
) -> None:
    """Play a crawl adventure in the terminal: numbered choices read from standard input."""
    if seat not in SEATS:
        fail(f"--seat must be heroes, dm or both, not {seat!r}.")
    check_paths([("--save", save)])
    if resume is not None:
        # The saved game keeps its adventure, party, seats, seed and players: an option
        # that would change them is refused, not ignored.
        given = [
            f"--{name}"
            for name in ("adventure", "party", "seat", "seed", "policy", "dm")
            if given_on_command_line(ctx, name)
        ]
        if given:
            fail(
                f"--resume {resume} goes on with the saved game as it was set up; "
                f"{', '.join(given)} cannot change it: leave {'them' if len(given) > 1 else 'it'}"
                " out."
            )
        table, pack_name = _resumed(resume, pack)
    else:
        table, pack_name = _new(adventure, party, seat, seed, policy, dm, pack)
    mine = [s for s in (Seat.HEROES, Seat.DM) if table.human(s)]
    view = Seat.DM if Seat.DM in mine else Seat.HEROES
    adv = table.ruleset.adventure
    out.print(f"[bold]{adv.name}[/bold] (seed {table.seed}); you play: "
              f"{', '.join(s.value for s in mine) or 'nobody'}")  # fmt: skip
    told = 0
    # The heroes' log follows where monsters stand from the first line (R-C-MON-06).
    sightings = Sightings.of_log(adv, table.log.header)
    last_board = ""
    stdin = sys.stdin
    while not table.state.is_terminal():
        lines = observe_entries(table.log.entries[told:], view, 0, sightings)
        told = len(table.log.entries)
        for entry in lines:
            text = _sentence(entry)
            if text:
                out.print(f"  {text}", markup=False, soft_wrap=True)
        acting = table.to_act()
        assert acting is not None
        obs = observe(table.state, acting)
        picture = board(obs) + repr([h["health"] for h in obs.heroes])
        if picture != last_board:
            show(obs)
            last_board = picture
        action = choose(obs, acting, stdin)
        if action is None:
            if save is not None:
                writing("--save", save, lambda: table.save(save, pack_name))
                out.print(f"Saved to {save}: go on with --resume {save}.", markup=False)
                return
            fail("the input ended before the adventure did, and there is no --save to keep it.")
        table.apply(action)
        if save is not None:
            writing("--save", save, lambda: table.save(save, pack_name))
    for entry in observe_entries(table.log.entries[told:], view, 0, sightings):
        text = _sentence(entry)
        if text:
            out.print(f"  {text}", markup=False, soft_wrap=True)
    for line in summary_lines(table.state.summary()):
        out.print(line, markup=False, soft_wrap=True)


def _sentence(entry: Any) -> str | None:
    try:
        return describe(entry)
    except (KeyError, TypeError, ValueError):
        return None


def _new(
    adventure: str | None, party: str | None, seat: str, seed: int, policy: str, dm: str,
    pack: Path | None,
) -> tuple[Table, str | None]:  # fmt: skip
    policy, dm = policies(policy, dm)
    try:
        chosen, adventure_id = _load(adventure, pack)
    except ContentError as exc:
        fail("the content does not load:\n" + "\n".join(str(p) for p in exc.problems))
    heroes = [h.strip() for h in party.split(",")] if party is not None else list(chosen.heroes)[:4]
    try:
        check_party(heroes, list(chosen.heroes), len(chosen.adventures[adventure_id].starts))
    except PartyError as exc:
        fail(f"--party: {exc}.")
    people = SEATS[seat]
    players = {
        Seat.HEROES: HUMAN if Seat.HEROES in people else policy,
        Seat.DM: HUMAN if Seat.DM in people else dm,
    }
    table = Table(chosen.ruleset(adventure_id), heroes, seed=seed, players=players,
                  scenario=adventure_id)  # fmt: skip
    return table, None if pack is None else str(pack)


def _resumed(path: Path, pack: Path | None) -> tuple[Table, str | None]:
    try:
        check_input(path, "--resume")
        data = read_save(path)
        folder = pack if pack is not None else data.get("pack")
        chosen = load_pack(Path(folder)) if folder else default_pack()
        adventure = data.get("adventure")
        if adventure not in chosen.adventures:
            raise SaveError(f"field 'adventure': {adventure!r} is not an adventure of the pack")
        _check_saved_setup(data, list(chosen.heroes))
        return Table.replay(chosen.ruleset(str(adventure)), data), (
            None if folder is None else str(folder)
        )
    except PathError as exc:
        fail(str(exc))
    except SaveError as exc:
        fail(f"--resume {path}: {exc}")
    except ContentError as exc:
        fail("the pack does not load:\n" + "\n".join(str(p) for p in exc.problems))


SEATS_SAVED = tuple(seat.value for seat in PLAYED_SEATS)
"""The seats a save's ``players`` names (the heroes' and the DM's)."""


def _check_saved_setup(data: dict[str, Any], heroes: list[str]) -> None:
    """The save's party, seed and players, each named by its field when it is not one this
    undercroft can set a game up with (a save edited by hand, or damaged)."""

    def damaged(field: str, why: str) -> SaveError:
        return SaveError(f"the save is damaged: field {field!r}: {why}")

    party = data.get("party")
    if not isinstance(party, list) or not all(isinstance(h, str) for h in party):
        raise damaged("party", "not a list of hero ids")
    for hero in party:
        if hero not in heroes:
            raise damaged("party", f"{hero!r} is no hero of the pack (known: {', '.join(heroes)})")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise damaged("seed", f"{seed!r} is not a seed (a whole number, 0 to {MAX_SEED})")
    players = data.get("players")
    if not isinstance(players, dict):
        raise damaged("players", "not an object")
    for seat, who in players.items():
        if seat not in SEATS_SAVED:
            raise damaged("players", f"{seat!r} is no seat (known: heroes, dm)")
        if who != HUMAN:
            try:
                resolve_policy(str(who))
            except PolicyError as exc:
                raise damaged(f"players.{seat}", str(exc)) from None


play_app = typer.Typer(help="Play a ruleset yourself.", no_args_is_help=True)
play_app.command("crawl")(play_crawl)
