"""``undercroft demo``: the core at work on a small map, a crawl adventure, a keep run.

Shows a map from a content file, what a hero standing in it can see (C-LOS-01), the
walking path to a goal with the doors shut and open (C-DIST-01), a shot that sight allows
but a wall corner stops (K-RNG-02), exact odds for a few rolls of the crawl rules and of
the keep's knock-out table (K-KO-02/03), a crawl adventure played by the built-in heroes,
and a few days of the keep's ``tutorial`` scenario: invasions met by traps, minions and
the Master.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from importlib.resources import as_file, files

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from undercroft.clikit import Output
from undercroft.core.content import load_map
from undercroft.core.dice import Band, D6Table, nds, opposed
from undercroft.core.grid import DoorState, Grid, Pos
from undercroft.core.paths import DoorPassage, Pathfinder
from undercroft.core.sight import Sight, supercover
from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play
from undercroft.keep.rules.wounds import head_out_chance, unconscious_chance
from undercroft.keep.scenario import build_world
from undercroft.render.keep_account import InvasionAccount, TeeLog
from undercroft.render.narrate import narrate, summary_lines
from undercroft.render.text import draw, legend

# The crawl tables as the rules state them; the crawl engine owns its copies.
DOOR_TABLE = D6Table("C-DOOR-01", (Band(1, 2, "jammed"), Band(3, 4, "stuck"), Band(5, 6, "opened")))
DEATHS_DOOR = D6Table("C-DD-01", (Band(1, 3, "dies"), Band(4, 6, "survives")))


def demo_map() -> Grid:
    with as_file(files("undercroft.core") / "data" / "crypt.toml") as path:
        return load_map(path)


def pct(p: Fraction) -> str:
    return f"{p!s:>9}  = {float(p):6.1%}"


def _sight_panel(grid: Grid, sight: Sight, hero: Pos) -> Panel:
    seen = sight.fov(hero)
    picture = draw(grid, visible=seen, marks={hero: "@"})
    count = int(seen.sum())
    caption = (
        f"\n{count} squares are in view of the hero @. Walls and closed doors stop sight; "
        "the table T does not (C-LOS-01)."
    )
    return Panel(Text(picture + caption), title="What the hero sees", expand=False)


def _path_panel(grid: Grid, hero: Pos, goal: Pos) -> Panel:
    open_doors = grid.copy()
    for p in open_doors.positions():
        if open_doors.is_door(p):
            open_doors.set_door(p, DoorState.OPEN)
    shut = Pathfinder(grid, DoorPassage.OPEN_ONLY).path(hero, goal)
    route = Pathfinder(open_doors, DoorPassage.OPEN_ONLY).path(hero, goal) or []
    picture = draw(open_doors, path=route[:-1], marks={hero: "@", goal: "$"})
    lines = [
        picture,
        "",
        "With the doors as drawn (+ shut) the hero cannot get there: "
        + ("no path" if shut is None else f"{len(shut)} squares"),
        f"With the doors open the hero walks {len(route)} squares to the treasure $,"
        " one orthogonal step at a time (C-DIST-01).",
    ]
    return Panel(Text("\n".join(lines)), title="Walking there", expand=False)


def _fire_panel() -> Panel:
    corner = Grid.from_text(
        """
        .....
        .a#..
        .....
        ...b.
        """.replace(" ", "")
    )
    a, b = corner.markers["a"], corner.markers["b"]
    sight = Sight(corner)
    line = supercover(a, b)
    touched = [p for p in line[1:-1] if not corner.is_opaque(p)]
    picture = draw(corner, path=touched, path_char="*", marks={a: "a", b: "b"})
    text = (
        f"{picture}\n\na sees b: {sight.can_see(a, b)}   "
        f"a can shoot b: {sight.line_of_fire(a, b)}\n"
        "The straight line from a to b (*) touches the corner of the wall #: sight passes, "
        "an arrow does not (K-RNG-02)."
    )
    return Panel(Text(text), title="Sight versus line of fire", expand=False)


def _odds_table() -> Table:
    table = Table(title="Exact odds (enumerated, as fractions)", show_lines=False)
    table.add_column("roll")
    table.add_column("probability", justify="right")
    fight = opposed(nds(2, 6, modifier=3), nds(2, 6, modifier=1))
    table.add_row("Fighting Score 3 beats Fighting Score 1 (2d6 each)", pct(fight.first))
    table.add_row("  ... a tie (nobody wins, C-FIGHT-04)", pct(fight.tie))
    plain = DOOR_TABLE.distribution(0)
    strong = DOOR_TABLE.distribution(+1)
    table.add_row("Door opens at the first try (C-DOOR-01)", pct(plain["opened"]))
    table.add_row("  ... for a Strong hero (+1, C-DOOR-02)", pct(strong["opened"]))
    table.add_row("Door jams (C-DOOR-01 1-2)", pct(plain["jammed"]))
    dd = DEATHS_DOOR.distribution(0)
    dd_iron = DEATHS_DOOR.distribution(+1)
    table.add_row("Hero at Death's Door survives the night (C-DD-01)", pct(dd["survives"]))
    table.add_row("  ... if Iron-Willed (+1, C-DD-04)", pct(dd_iron["survives"]))
    ko = unconscious_chance("serious", blunt=False, armour="chain")
    table.add_row("Keep: taken out by a serious sword wound, in chain: alive (K-KO-03)", pct(ko))
    table.add_row(
        "  ... by a mace, helmet 10: a serious head wound takes one out (K-HEAD-01)",
        pct(head_out_chance(blunt=True, helmet=10)),
    )
    return table


def show() -> None:
    """Show the engine at work: a map, line of sight, a path and exact dice odds."""
    run(Output())


def run(console: Console | None = None) -> None:
    """Print the demo."""
    console = console or Console()
    grid = demo_map()
    hero, goal = grid.markers["a"], grid.markers["b"]
    console.rule("[bold]undercroft[/bold] — dungeon rules, exactly as written")
    console.print(
        "undercroft runs dungeon rulesets exactly as written. This demo shows the shared "
        "core (a map, what can be seen, how far things are, exact dice odds) and then a "
        "whole crawl adventure played by the built-in heroes and Dungeon Master."
    )
    areas = ", ".join(f"{a.name} ({a.kind})" for a in grid.areas)
    console.print(
        Panel(
            Group(Text(grid.to_text(markers=False)), Text(legend(), style="dim")),
            title="The Little Crypt",
            expand=False,
        )
    )
    console.print(f"Areas: {areas}")
    console.print(_sight_panel(grid, Sight(grid), hero))
    console.print(_path_panel(grid, hero, goal))
    console.print(_fire_panel())
    console.print(_odds_table())
    _crawl_game(console)
    _keep_game(console)
    console.print(
        "Next: [bold]undercroft run crawl --explain[/bold] tells a game with the rule behind "
        "every line; [bold]undercroft run keep --scenario mid --days 30 --explain[/bold] runs "
        "the keep; [bold]make test[/bold] runs the test suite; "
        "[bold]undercroft rules --coverage[/bold] shows which rules are implemented."
    )


def _crawl_game(console: Console, *, seed: int = 1, head: int = 40) -> None:
    """Play the first adventure of the default pack with the built-in policies."""

    pack = default_pack()
    adventure = pack.campaign_order()[0]
    party = list(pack.heroes)[:4]
    result = play(pack.ruleset(adventure), party, seed=seed, scenario=adventure)
    assert result.log is not None
    console.rule(f"[bold]crawl[/bold]: {pack.adventures[adventure].name}")
    console.print(pack.adventures[adventure].intro, highlight=False)
    lines = list(narrate(result.log))
    for line in lines[:head]:
        console.print(line, markup=False, highlight=False)
    if len(lines) > head:
        console.print(f"  ... {len(lines) - head} more lines (undercroft run crawl --seed {seed})")
    for line in summary_lines(result.state.summary()):
        console.print(line, markup=False, highlight=False)


def _keep_game(console: Console, *, seed: int = 1, days: int = 3, head: int = 30) -> None:
    """A few days of the keep's tutorial scenario, told as ``run keep`` tells it."""

    world = build_world("tutorial", seed=seed)
    account = InvasionAccount()
    world.attach_log(TeeLog(world.open_log(), account))
    world.run_days(days)
    summary = world.close_log()
    console.rule(f"[bold]keep[/bold]: the tutorial keep, {days} days (seed {seed})")
    lines = [line for day in sorted(account.days) for line in account.day_lines(day)]
    for line in lines[:head]:
        console.print(f"  {line}", markup=False, highlight=False)
    if len(lines) > head:
        console.print(
            f"  ... {len(lines) - head} more lines "
            f"(undercroft run keep --scenario tutorial --days {days} --seed {seed})"
        )
    console.print(
        f"{summary['invasions']} invasion(s), {summary['adventurers']} adventurer(s): "
        f"{fates_text(account.fates.totals())}; the Master is {summary['master']}.",
        highlight=False,
    )


def fates_text(fates: Mapping[str, int]) -> str:
    """What became of the adventurers who came, each counted once (keep.fates): a captive
    who later bled to death is among the dead, not the captured too."""
    words = [
        f"{fates.get('dead', 0)} died",
        f"{fates.get('captured', 0)} held captive",
        f"{fates.get('escaped', 0)} escaped",
    ]
    if fates.get("inside", 0):
        words.append(f"{fates['inside']} still inside")
    return ", ".join(words)
