"""The generator of the shipped ``trapworks`` scenarios (20 traps, and 40 for scaling).

``trapworks`` is a hall of 20 traps west of a walled sanctum: every trigger kind and every
mechanism kind (each twice), two timers, a lever wired to a trap and two sanctum doors,
locked doors, three Traps-job minions and one Chores-job minion, a troll in its den, and a
month of scripted commands and visits. ``trapworks-40`` adds the mirror image of the hall
east of the sanctum (40 traps, the same minions), to measure how the rearming workload
scales (K-DECAY-04). The TOML files in ``keep/content`` are this module's output; a test
keeps them in step. Regenerate with ``python -m undercroft.keep.content.trapworks``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HEIGHT = 21
WEST_WIDTH = 45
BOTH_WIDTH = 80
MECHANISMS = (
    "spinning_blades",
    "flamethrower",
    "gas_sprayer",
    "electric_coil",
    "dart_launcher",
    "explosive",
    "spider",
    "web",
    "terror",
    "alarm",
)
TRIGGER_CYCLE = ("tripwire", "wide_tripwire", "pressure_plate", "sensor")
GRID_XS = (3, 8, 13, 18, 23, 28)
GRID_YS = (3, 8, 13)
TIMED = {(8, 8): 10, (23, 13): 30}
LEVER = (32, 11)
LEVER_MECH = (33, 11)
BUILT_TRIGGER = (13, 18)
BUILT_MECH = (15, 18)


@dataclass(frozen=True)
class _Trap:
    trigger: str
    mechanism: str
    at: tuple[int, int]
    mech_at: tuple[int, int]
    timer: int | None = None


def _west_traps() -> list[_Trap]:
    traps = []
    n = 0
    for y in GRID_YS:
        for x in GRID_XS:
            trigger = TRIGGER_CYCLE[n % 4] if n < 16 else ("tripwire", "wide_tripwire")[n % 2]
            traps.append(_Trap(trigger, MECHANISMS[n % 10], (x, y), (x + 2, y), TIMED.get((x, y))))
            n += 1
    return traps


def _map(both: bool) -> list[list[str]]:
    width = BOTH_WIDTH if both else WEST_WIDTH
    rows = [["." for _ in range(width)] for _ in range(HEIGHT)]
    for x in range(width):
        rows[0][x] = rows[HEIGHT - 1][x] = "#"
    for y in range(HEIGHT):
        rows[y][0] = rows[y][width - 1] = "#"

    def put(x: int, y: int, ch: str) -> None:
        rows[y][x] = ch
        if both:
            rows[y][width - 1 - x] = ch

    put(18, 0, "p" if not both else ".")
    put(0, 10, "q" if not both else ".")
    for y in range(15, HEIGHT):  # the den (a lair behind a locked door)
        put(6, y, "#")
    for x in range(0, 7):
        put(x, 15, "#")
    put(6, 17, "&")
    for y in range(5, 16):  # the sanctum's walls, three doors a side
        put(35, y, "#")
    for x in range(35, 45):
        put(x, 5, "#")
        put(x, 15, "#")
    put(35, 8, "&")
    put(35, 10, "+")
    put(35, 12, "&")
    if both:
        rows[0][18], rows[0][width - 1 - 18] = "p", "r"
        rows[10][0], rows[10][width - 1] = "q", "t"
    else:
        for y in range(5, 16):
            rows[y][44] = "#"
    rows[10][40] = "s"
    rows[7][38] = "m"
    rows[12][38] = "k"
    rows[17][3] = "d"
    return rows


def _xy(x: int, y: int, mirror: bool) -> str:
    return f"[{BOTH_WIDTH - 1 - x if mirror else x}, {y}]"


def _structures(mirror: bool, side: str) -> list[str]:
    out = []
    for i, trap in enumerate(_west_traps(), start=1):
        name = f"{side}{i}"
        out.append(_structure(trap.trigger, trap.at, f"{name}-{trap.trigger}", mirror))
        if trap.timer is not None:
            timer_at = (trap.at[0] + 1, trap.at[1])
            out.append(_structure("timer", timer_at, f"{name}-timer", mirror, delay=trap.timer))
        out.append(_structure(trap.mechanism, trap.mech_at, f"{name}-{trap.mechanism}", mirror))
    out.append(_structure("lever", LEVER, f"{side}-lever", mirror))
    out.append(_structure("terror", LEVER_MECH, f"{side}-lever-terror", mirror))
    return out


def _structure(
    kind: str, at: tuple[int, int], name: str, mirror: bool, *, delay: int | None = None
) -> str:
    text = f'[[structure]]\nkind = "{kind}"\nname = "{name}"\nat = {_xy(*at, mirror)}\n'
    if delay is not None:
        text += f"delay = {delay}\n"
    return text


def _wires(mirror: bool, side: str) -> list[str]:
    out = []
    for i, trap in enumerate(_west_traps(), start=1):
        name = f"{side}{i}"
        if trap.timer is not None:
            out.append(f'path = ["{name}-{trap.trigger}", "{name}-timer"]')
            out.append(f'path = ["{name}-timer", "{name}-{trap.mechanism}"]')
        else:
            out.append(f'path = ["{name}-{trap.trigger}", "{name}-{trap.mechanism}"]')
    lever, mech = f"{side}-lever", f"{side}-lever-terror"
    out.append(f'path = ["{lever}", "{mech}"]')
    out.append(f'path = ["{mech}", {_xy(33, 10, mirror)}, {_xy(35, 10, mirror)}]')
    out.append(f'path = ["{mech}", {_xy(33, 12, mirror)}, {_xy(35, 12, mirror)}]')
    return [f"[[wire]]\n{line}\n" for line in out]


def _doors(mirror: bool, side: str) -> list[str]:
    names = ((8, "locked"), (10, "lever"), (12, "lever-locked"))
    out = [
        f'[[door]]\nat = {_xy(35, y, mirror)}\nname = "{side}-{label}-door"\n' for y, label in names
    ]
    out.append(f'[[door]]\nat = {_xy(6, 17, mirror)}\nname = "{side}-den-door"\n')
    return out


def _script(mirror: bool, side: str, portal: str, gate: str) -> list[str]:
    def at(x: int, y: int) -> str:
        return _xy(x, y, mirror)

    lines = [
        # K-TRAP-04: too close to the trigger at (3, 3): refused, the log says why.
        ("day 1 02:00", f'do = "build"\nkind = "tripwire"\nat = {at(5, 5)}'),
        # K-BUILD-01: the 20th trap is built on site (metal carried, then built).
        (
            "day 1 03:00",
            f'do = "build"\nkind = "pressure_plate"\nat = {at(*BUILT_TRIGGER)}\n'
            f'name = "{side}20-pressure_plate"',
        ),
        (
            "day 1 03:00",
            f'do = "build"\nkind = "alarm"\nat = {at(*BUILT_MECH)}\nname = "{side}20-alarm"',
        ),
        ("day 1 12:00", f'do = "wire"\npath = ["{side}20-pressure_plate", "{side}20-alarm"]'),
        # K-DOOR-04/05/07: the lever opens both doors, fires its trap, flips the lock.
        ("day 2 08:00", f'do = "pull_lever"\nlever = "{side}-lever"'),
        ("day 2 20:00", f'do = "pull_lever"\nlever = "{side}-lever"'),
        ("day 4 09:00", f'do = "move"\nstructure = "{side}5-dart_launcher"\nto = {at(25, 4)}'),
        ("day 5 00:00", f'do = "set_timer"\ntimer = "{side}8-timer"\nminutes = 20'),
        ("day 6 12:00", f'do = "breach"\ndoor = "{side}-locked-door"\nby = "scenario"'),
        ("day 8 09:00", f'do = "hold_door_open"\ndoor = "{side}-lever-door"'),
        ("day 9 09:00", f'do = "hold_door_open"\ndoor = "{side}-lever-door"\nhold = false'),
        ("day 10 09:00", f'do = "rage"\nminion = "{side}-rearmer-3"'),
        ("day 10 09:05", f'do = "walk"\nwho = "{side}-rearmer-3"\nto = {at(28, 13)}'),
        ("day 10 12:00", f'do = "rage"\nminion = "{side}-rearmer-3"\non = false'),
        ("day 12 09:00", f'do = "disarm_lock"\ndoor = "{side}-locked-door"'),
        ("day 13 09:00", f'do = "arm_lock"\ndoor = "{side}-locked-door"'),
    ]
    route = [at(3, 3), at(8, 8), at(13, 13), at(23, 8), at(28, 3)]
    for day in (3, 8, 13, 18, 23, 28):
        lines.append(
            (
                f"day {day} 10:00",
                f'do = "visit"\nbreed = "wolf"\nportal = "{portal}"\nroute = [{", ".join(route)}]',
            )
        )
    merchant_route = f"[{at(39, 12)}]"
    lines.append(
        (
            "day 7 09:00",
            f'do = "visit"\nbreed = "pedlar"\nportal = "{gate}"\nroute = {merchant_route}',
        )
    )
    lines.append(
        (
            "day 15 10:00",
            f'do = "visit"\nbreed = "boar"\nportal = "{gate}"\nroute = [{at(4, 13)}]\n'
            f'name = "{side}-stray"',
        )
    )
    lines.append(("day 15 10:30", f'do = "settle"\ncreature = "{side}-stray"\nlair = "den"'))
    return [f'[[script]]\nwhen = "{when}"\n{body}\n' for when, body in lines]


def render(*, both: bool = False) -> str:
    """The scenario TOML: the west hall (20 traps), or both halls (40 traps)."""
    name = "trapworks-40" if both else "trapworks"
    rows = _map(both)
    tiles = "\n".join("".join(r) for r in rows)
    portals = '["p", "q", "r", "t"]' if both else '["p", "q"]'
    traps = 40 if both else 20
    head = f'''# Generated by `python -m undercroft.keep.content.trapworks`: edit that, not this.
kind = "keep-scenario"
name = "{name}"
description = """
{traps} traps: every trigger and mechanism kind, two timers per hall, a lever wired to a trap
and two sanctum doors, locked doors, three Traps-job minions and one Chores-job minion,
a troll in its den, and a month of scripted keeper commands and visits. Adventurers come
from day 2 for the Master, the hoard or the altar (run with --invasions off for the world
alone: nothing here then changes).
"""
days = 30
portals = {portals}
sanctum = "s"
tiles = """
{tiles}
"""

[stockpile]
at = "m"
metal = 60

[master]
at = "s"

[[minion]]
breed = "kobold"
job = "traps"
stance = "avoid"                # workers keep away from adventurers (K-STANCE-01)
at = "k"
count = 3
name = "w-rearmer"

[[minion]]
breed = "goblin"
job = "chores"
stance = "avoid"
at = "k"
name = "w-chores"

[[lair]]
name = "den"
at = "d"

[[creature]]
breed = "troll"
at = "d"
lair = "den"
name = "w-troll"

# What invasions come for (K-INV-01) and what watches for them (K-ARR-04, K-TIME-07).
[[treasure]]
at = [42, 7]
amount = 12
name = "hoard"

[[altar]]
at = [42, 12]
name = "altar"

[[guard_post]]
at = [30, 3]
name = "north-post"

[[settlement]]
name = "Millbrook"
faction = "millbrook"

[[camp]]
name = "Gorefang"

[keeper]
divination = 1
watchful_eye = 1

'''
    parts = [head]
    parts += _doors(False, "w")
    parts += _structures(False, "w")
    parts += _wires(False, "w")
    parts += _script(False, "w", "q", "p")
    if both:
        parts += _doors(True, "e")
        parts += _structures(True, "e")
        parts += _wires(True, "e")
        parts += [s for s in _script(True, "e", "t", "r") if '"e-rearmer' not in s]
        parts = [p.replace('"e-stray"', '"e-stray"') for p in parts]
    return "\n".join(parts)


def write(folder: Path) -> list[Path]:
    written = []
    for both in (False, True):
        path = folder / ("trapworks-40.toml" if both else "trapworks.toml")
        path.write_text(render(both=both), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    for path in write(Path(__file__).parent):
        print(f"wrote {path}")
