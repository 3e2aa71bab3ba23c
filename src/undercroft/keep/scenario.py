"""Scenarios: a ``kind = "keep-scenario"`` TOML file sets up a keep world.

A scenario draws its map in the core map notation (``docs/core.md``) and names, by map
marker, by ``[x, y]`` or by a label, the edge portals, the sanctum, the stockpile, who
lives there, what is already built and wired, and a script of keeper commands and
happenings at given times. ``docs/keep.md`` describes every key. Mistakes are reported
with file, line and key (:class:`~undercroft.core.content.ContentError`), the placement
and wiring rules included: a prebuilt trigger too close to another is refused as
K-TRAP-04 would refuse the keeper.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from undercroft.core.checks import Grade
from undercroft.core.content import (
    ContentError,
    ContentProblem,
    KeyPath,
    format_key,
    key_lines,
    line_of,
    parse_toml,
    read_text,
    validate,
)
from undercroft.core.grid import DoorState, Grid, Pos
from undercroft.core.settings import Setting
from undercroft.keep.content import settings as content_settings
from undercroft.keep.content.calendar import TICKS_PER_MINUTE, day_start, parse_when
from undercroft.keep.content.ruleset import (
    Attributes,
    Ruleset,
    content_path,
    default_ruleset,
    load_ruleset,
)
from undercroft.keep.content.scenario_schema import (
    CreatureSchema,
    MinionSchema,
    PrisonerSchema,
    Ref,
    ScenarioSchema,
    ScriptSchema,
)
from undercroft.keep.rules import building, director, doors, invasions, stepping
from undercroft.keep.rules.building import PlacementError
from undercroft.keep.rules.parties import MemberDraw
from undercroft.keep.state.actors import Creature, Job, Master, Minion, Stance
from undercroft.keep.state.invaders import Whereabouts
from undercroft.keep.state.invasion_state import Feature
from undercroft.keep.state.structures import Door, Lock
from undercroft.keep.state.wiring import WiringError
from undercroft.keep.state.world import Stockpile, World, provides_scenarios

# -- finding scenarios ---------------------------------------------------------------------


def shipped() -> list[str]:
    """The names of the scenarios shipped in ``undercroft/keep/content``."""
    folder = resources.files("undercroft.keep") / "content"
    names = [p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")]
    return sorted(n for n in names if n not in ("rules", "adventurers"))


def resolve(ref: str | Path) -> Path:
    """A shipped scenario name or a path to a scenario file."""
    text = str(ref)
    if text in shipped():
        return content_path(f"{text}.toml")
    path = Path(text)
    if path.exists():
        return path
    known = ", ".join(shipped())
    raise ContentError(
        [ContentProblem(text, 0, "", f"no such scenario file, nor a shipped scenario ({known})")]
    )


# -- building the world --------------------------------------------------------------------


class _Builder:
    """Turns a validated scenario into a world, collecting every problem with its line."""

    def __init__(self, schema: ScenarioSchema, text: str, file: str, ruleset: Ruleset) -> None:
        self.schema = schema
        self.file = file
        self.lines = key_lines(text)
        self.ruleset = ruleset
        self.problems: list[ContentProblem] = []
        self.grid = Grid.from_text(schema.tiles)
        self.label_paths: dict[str, KeyPath] = {}

    def problem(self, path: KeyPath, message: str, allowed: Sequence[str] = ()) -> None:
        key = format_key(path)
        self.problems.append(
            ContentProblem(self.file, line_of(self.lines, path), key, message, tuple(allowed))
        )

    def pos(self, ref: Ref, path: KeyPath, labels: Mapping[str, Pos] | None = None) -> Pos | None:
        if isinstance(ref, list):
            if len(ref) != 2:
                self.problem(path, f"a position is [x, y], got {ref}")
                return None
            found = Pos(ref[0], ref[1])
        elif labels is not None and ref in labels:
            found = labels[ref]
        elif ref in self.grid.markers:
            found = self.grid.markers[ref]
        else:
            markers = ", ".join(sorted(self.grid.markers)) or "none"
            self.problem(path, f"{ref!r} is not a map marker (markers: {markers}) or a label")
            return None
        if not self.grid.in_bounds(found):
            self.problem(path, f"{found} is off the {self.grid.width}x{self.grid.height} map")
            return None
        return found

    def ground(self, ref: Ref, path: KeyPath) -> Pos | None:
        """``pos``, for a place someone stands or walks to: a wall, a blockage or furniture
        is refused (no figure may ever stand there), as the map's own walls are."""
        found = self.pos(ref, path)
        if found is not None and self.grid.solid()[found.y, found.x]:
            what = "furniture" if self.grid.furniture[found.y, found.x] else "solid rock"
            self.problem(path, f"{found} is {what}, not a square anyone can stand on")
            return None
        return found

    def label(self, world: World, name: str, thing: str, path: KeyPath) -> None:
        """Name ``thing``; a label names one thing only (a script's reference to it would
        otherwise be ambiguous)."""
        if name in self.label_paths:
            first = format_key(self.label_paths[name])
            self.problem(path, f"the label {name!r} is used twice (first at {first})")
            return
        self.label_paths[name] = path
        world.labels[name] = thing

    def build(self, seed: int) -> World:
        s = self.schema
        portals = [p for i, r in enumerate(s.portals) if (p := self.ground(r, ("portals", i)))]
        for i, p in enumerate(portals):
            if p.x not in (0, self.grid.width - 1) and p.y not in (0, self.grid.height - 1):
                self.problem(("portals", i), f"portal {p} is not on the edge of the map")
        sanctum = self.ground(s.sanctum, ("sanctum",)) or Pos(0, 0)
        stock = None
        if s.stockpile is not None:
            at = self.ground(s.stockpile.at, ("stockpile", "at"))
            stock = Stockpile(at or Pos(0, 0), s.stockpile.metal)
        lairs = {
            lair.name: self.ground(lair.at, ("lair", i, "at")) for i, lair in enumerate(s.lair)
        }
        world = World(
            ruleset=self.ruleset,
            grid=self.grid,
            seed=seed,
            scenario=s.name,
            portals=portals or [Pos(0, 0)],
            sanctum=sanctum,
            stockpile=stock,
            lairs={k: v for k, v in lairs.items() if v is not None},
        )
        world.scenario_days = s.days
        if s.start_day > 1:  # R-K-TIME-06: the clock starts on that day
            world.now = day_start(s.start_day)
            world.tick = world.now * TICKS_PER_MINUTE
        world.start_minute = world.now
        world.invasion.director.next_number = s.past_invasions + 1
        self._doors(world)
        self._beings(world)
        self._structures(world)
        self._wires(world)
        self._invasion_features(world)
        self._script(world)
        if not self.problems and not building.keeps_a_path(world, []):
            self.problem(
                ("portals",),
                "K-PATH-01: no walking path from any edge portal to the sanctum",
            )
        if self.problems:
            raise ContentError(self.problems)
        if world.options.invasions:
            director.start(world)  # K-TIME-01: the first invasion's hour is rolled at minute 0
        return world

    def _doors(self, world: World) -> None:
        for pos in self.grid.positions():
            if not self.grid.is_door(pos):
                continue
            state = self.grid.door_at(pos)
            door = Door(world.new_id("door"), "door", pos, held_open=state is DoorState.OPEN)
            door.open = state is DoorState.OPEN  # R-K-DOOR-01: a door drawn open is held open
            world.structures[door.id] = door
            world.index_structure(door)
        for pos in self.grid.positions():
            door_here = world.door_at(pos)
            if door_here is not None and self.grid.door_at(pos) is DoorState.LOCKED:
                building.place(world, "lock", pos)  # K-LOCK-01: a new lock starts armed
        set_by: dict[str, int] = {}
        for i, entry in enumerate(self.schema.door):
            at = self.pos(entry.at, ("door", i, "at"))
            door_at = world.door_at(at) if at is not None else None
            if at is not None and door_at is None:
                self.problem(("door", i, "at"), f"there is no door drawn at {at}")
            if door_at is None:
                continue
            if door_at.id in set_by:
                # One entry a door: a second would give it a second label or setting.
                first = set_by[door_at.id]
                self.problem(("door", i, "at"), f"door[{first}] already describes the door at {at}")
                continue
            set_by[door_at.id] = i
            if entry.name:
                door_at.name = entry.name
                self.label(world, entry.name, door_at.id, ("door", i, "name"))
            if entry.hold_open is not None:
                door_at.held_open = entry.hold_open
                door_at.open = doors.rests_open(door_at)
            doors.sync(world, door_at)

    def _beings(self, world: World) -> None:
        rules = self.ruleset
        at = self.schema.master.at
        master_at = self.ground(at, ("master", "at")) if at is not None else None
        pace = rules.master.minutes_per_tile * rules.options.minutes_per_tile
        master = Master(
            "master", "master", rules.master.attributes, master_at or world.sanctum, pace
        )
        master.equip(rules.master)
        master.home = master.pos
        world.beings[master.id] = master
        for i, m in enumerate(self.schema.minion):
            self._minions(world, i, m)
        for i, c in enumerate(self.schema.creature):
            self._creature(world, i, c)

    def _minions(self, world: World, i: int, m: MinionSchema) -> None:
        rules = self.ruleset
        if m.breed not in rules.minions:
            known = list(rules.minions)
            self.problem(("minion", i, "breed"), f"unknown minion kind {m.breed!r}", known)
            return
        at = self.ground(m.at, ("minion", i, "at")) or Pos(0, 0)
        breed = rules.minions[m.breed]
        attrs = Attributes.from_json(
            {**breed.attributes.to_json(), **m.attributes.model_dump(exclude_none=True)}
        )
        pace = breed.minutes_per_tile * rules.options.minutes_per_tile
        bed = self.ground(m.bed, ("minion", i, "bed")) if m.bed is not None else at
        for n in range(m.count):
            minion = Minion(world.new_id("minion"), m.breed, attrs, at, pace)
            minion.job, minion.stance, minion.carry = Job(m.job), Stance(m.stance), breed.carry
            minion.equip(breed)
            minion.home = bed  # K-WAKE-02: its own bed
            world.beings[minion.id] = minion
            if m.name:
                name = m.name if m.count == 1 else f"{m.name}-{n + 1}"
                self.label(world, name, minion.id, ("minion", i, "name"))

    def _creature(self, world: World, i: int, c: CreatureSchema) -> None:
        rules = self.ruleset
        if c.breed not in rules.creatures:
            known = list(rules.creatures)
            self.problem(("creature", i, "breed"), f"unknown creature kind {c.breed!r}", known)
            return
        if c.lair is not None and c.lair not in world.lairs:
            self.problem(("creature", i, "lair"), f"no lair named {c.lair!r}", list(world.lairs))
        at = self.ground(c.at, ("creature", i, "at")) or Pos(0, 0)
        breed = rules.creatures[c.breed]
        pace = breed.minutes_per_tile * rules.options.minutes_per_tile
        creature = Creature(world.new_id("creature"), c.breed, breed.attributes, at, pace)
        creature.lair = c.lair
        creature.equip(breed)
        creature.home = world.lairs.get(c.lair) if c.lair is not None else None
        world.beings[creature.id] = creature
        if c.name:
            self.label(world, c.name, creature.id, ("creature", i, "name"))

    def _structures(self, world: World) -> None:
        for i, entry in enumerate(self.schema.structure):
            at = self.pos(entry.at, ("structure", i, "at"))
            if at is None:
                continue
            known = self.ruleset.build_kinds()
            if entry.kind not in known:
                self.problem(
                    ("structure", i, "kind"), f"unknown structure kind {entry.kind!r}", known
                )
                continue
            try:
                building.check_placement(world, entry.kind, at)
            except PlacementError as exc:
                self.problem(("structure", i), exc.reason)
                continue
            delay = (
                entry.delay if entry.delay is not None else self.ruleset.structures["timer"].delay
            )
            structure = building.place(
                world,
                entry.kind,
                at,
                quality=Grade(entry.quality),
                name=entry.name,
                delay=delay,
                armed=entry.armed,
            )
            if isinstance(structure, Lock):
                doors.sync(world, world.door(structure.door))
            if entry.name:
                self.label(world, entry.name, structure.id, ("structure", i, "name"))

    # -- what invasions come for and come from (K-INV-01, K-TIME-07, K-ARR-01/04/06) --

    def _feature(
        self, world: World, kind: str, ref: Ref, path: KeyPath, name: str | None
    ) -> Feature | None:
        at = self.ground(ref, (*path, "at"))
        if at is None:
            return None
        feature = Feature(world.new_id(kind), kind, at, name=name)
        world.invasion.features[feature.id] = feature
        if name:
            self.label(world, name, feature.id, (*path, "name"))
        return feature

    def _invasion_features(self, world: World) -> None:
        s = self.schema
        content = self.ruleset.adventurers
        for i, t in enumerate(s.treasure):
            found = self._feature(world, "treasure", t.at, ("treasure", i), t.name)
            if found:
                found.amount = t.amount
        for i, a in enumerate(s.altar):
            found = self._feature(world, "altar", a.at, ("altar", i), a.name)
            if found:
                found.amount = 1
        for i, g in enumerate(s.guard_post):
            found = self._feature(world, "post", g.at, ("guard_post", i), g.name)
            if found:
                found.torch = g.torch
        for key, kind in (("cell", "cell"), ("pyre", "pyre"), ("butcher_table", "butcher")):
            for i, place in enumerate(getattr(s, key)):
                self._feature(world, kind, place.at, (key, i), place.name)
        for i, p in enumerate(s.prisoner):
            self._prisoner(world, i, p)
        for i, settlement in enumerate(s.settlement):
            if settlement.faction is not None and settlement.faction not in content.factions:
                known = list(content.factions)
                self.problem(
                    ("settlement", i, "faction"), f"no faction {settlement.faction!r}", known
                )
            world.invasion.settlements[settlement.name] = {"faction": settlement.faction}
        for camp in s.camp:
            world.invasion.camps[camp.name] = {"relation": camp.relation}
        world.invasion.charges = {
            "divination": s.keeper.divination,
            "watchful_eye": s.keeper.watchful_eye,
        }

    def _member_problems(self, path: KeyPath, klass: str, traits: list[str]) -> bool:
        content = self.ruleset.adventurers
        ok = True
        if klass not in content.classes:
            self.problem((*path, "class"), f"no adventurer class {klass!r}", list(content.classes))
            ok = False
        for j, trait in enumerate(traits):
            if trait not in content.traits:
                self.problem((*path, "traits", j), f"no trait {trait!r}", list(content.traits))
                ok = False
        return ok

    def _prisoner(self, world: World, i: int, p: PrisonerSchema) -> None:
        content = self.ruleset.adventurers
        at = self.ground(p.at, ("prisoner", i, "at"))
        if at is None or not self._member_problems(("prisoner", i), p.klass, p.traits):
            return
        faction = p.faction or next(iter(content.factions))
        if faction not in content.factions:
            self.problem(
                ("prisoner", i, "faction"), f"no faction {faction!r}", list(content.factions)
            )
            return
        member = MemberDraw(p.klass, p.level, tuple(p.traits))
        adv = invasions.new_adventurer(world, 0, i + 1, member, faction, at)
        adv.where = Whereabouts.PRISONER
        adv.present = True
        stepping.place(world, adv, at)
        if p.name:
            self.label(world, p.name, adv.id, ("prisoner", i, "name"))

    def _check_invasion_item(self, i: int, entry: ScriptSchema) -> bool:
        content = self.ruleset.adventurers
        ok = True
        for j, m in enumerate(entry.members or []):
            ok = self._member_problems(("script", i, "members", j), m.klass, m.traits) and ok
        if entry.faction is not None and entry.faction not in content.factions:
            self.problem(
                ("script", i, "faction"), f"no faction {entry.faction!r}", list(content.factions)
            )
            ok = False
        names = {"host": ("settlement", [x.name for x in self.schema.settlement])}
        names["warriors"] = ("camp", [x.name for x in self.schema.camp])
        names["camp"] = names["warriors"]
        names["answer_fugitive"] = (
            "fugitive",
            [e.fugitive or "" for e in self.schema.script if e.do == "fugitive"],
        )
        if entry.do in names:
            key, known = names[entry.do]
            if getattr(entry, key) not in known:
                self.problem(
                    ("script", i, key), f"no {key} {getattr(entry, key)!r} in this scenario", known
                )
                ok = False
        return ok

    def _check_kinds(self, world: World, i: int, entry: ScriptSchema) -> bool:
        """A scripted build, visit or settling names kinds and lairs the world has (else
        it could only fail when its time came, days into the run)."""
        rules = self.ruleset
        if entry.do == "build" and entry.kind not in rules.build_kinds():
            known = rules.build_kinds()
            self.problem(("script", i, "kind"), f"unknown structure kind {entry.kind!r}", known)
            return False
        if entry.do == "visit" and entry.breed not in {**rules.creatures, **rules.merchants}:
            known = [*rules.creatures, *rules.merchants]
            what = f"no creature or merchant kind {entry.breed!r}"
            self.problem(("script", i, "breed"), what, known)
            return False
        if entry.do == "settle" and entry.lair not in world.lairs:
            self.problem(("script", i, "lair"), f"no lair named {entry.lair!r}", list(world.lairs))
            return False
        return True

    def _labels_pos(self, world: World) -> dict[str, Pos]:
        return {
            label: world.structures[sid].pos
            for label, sid in world.labels.items()
            if sid in world.structures
        }

    def _wires(self, world: World) -> None:
        places = self._labels_pos(world)
        for i, entry in enumerate(self.schema.wire):
            points = [self.pos(r, ("wire", i, "path", j), places) for j, r in enumerate(entry.path)]
            if any(p is None for p in points):
                continue
            try:
                world.draw_wire([p for p in points if p is not None])
            except WiringError as exc:
                self.problem(("wire", i, "path"), exc.reason)

    def _script(self, world: World) -> None:
        places = self._labels_pos(world)
        for i, entry in enumerate(self.schema.script):
            if entry.do == "build" and entry.name and entry.at is not None:
                where = self.pos(entry.at, ("script", i, "at"))
                if where is not None:
                    places.setdefault(entry.name, where)
        known = set(world.labels)
        known |= {e.name for e in self.schema.script if e.do in ("build", "visit") and e.name}
        for i, entry in enumerate(self.schema.script):
            item: dict[str, Any] = {"do": entry.do, "when": entry.when}
            ok = True
            for key in _REF_KEYS:
                value = getattr(entry, key)
                if value is None:
                    continue
                if value not in known and ":" not in value:
                    self.problem(("script", i, key), f"no label {value!r} in this scenario")
                    ok = False
                item[key] = value
            for key in ("at", "to", "portal"):
                ref = getattr(entry, key)
                if ref is not None:
                    where = self.pos(ref, ("script", i, key), places)
                    ok = ok and where is not None
                    item[key] = [where.x, where.y] if where else None
            for key in ("path", "route"):
                refs = getattr(entry, key)
                if refs is not None:
                    got = [self.pos(r, ("script", i, key, j), places) for j, r in enumerate(refs)]
                    ok = ok and all(g is not None for g in got)
                    item[key] = [[g.x, g.y] for g in got if g is not None]
            for key in _PLAIN_KEYS:
                value = getattr(entry, key)
                if value is not None:
                    item[key] = value
            if entry.members is not None:
                item["members"] = [m.model_dump(by_alias=True) for m in entry.members]
            ok = self._check_invasion_item(i, entry) and ok
            ok = self._check_kinds(world, i, entry) and ok
            if ok:
                world.schedule_script(parse_when(entry.when), item)


_REF_KEYS = ("structure", "target", "timer", "door", "lever", "minion", "creature", "who")
_PLAIN_KEYS = (
    "every_days",
    "until",
    "kind",
    "name",
    "delay",
    "minutes",
    "hold",
    "job",
    "stance",
    "breed",
    "on",
    "lair",
    "by",
    "hours",
    "fugitive",
    "accept",
    "goal",
    "faction",
    "settlement",
    "camp",
    "relation",
)


def load(ref: str | Path) -> tuple[ScenarioSchema, str, str]:
    """Read and validate a scenario file: (schema, text, file name)."""
    path = resolve(ref)
    text = read_text(path)
    file = str(path)
    return validate(parse_toml(text, file), ScenarioSchema, text, file), text, file


@provides_scenarios
def build_world(
    ref: str | Path,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    settings: Sequence[Setting] = (),
) -> World:
    """Set up the world a scenario describes (``options`` override its ``[options]``,
    then ``settings``, the ``--set`` values, override its content)."""
    path = resolve(ref)
    text = read_text(path)
    return world_from_text(text, seed=seed, options=options, file=str(path), settings=settings)


def world_from_text(
    text: str,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    file: str = "<scenario>",
    settings: Sequence[Setting] = (),
) -> World:
    """Set up a world from scenario TOML text (tests, tools); a bad ``settings`` value
    raises :class:`~undercroft.core.settings.SettingError` naming it."""
    schema = validate(parse_toml(text, file), ScenarioSchema, text, file)
    if schema.rules is None:
        ruleset = default_ruleset()
    else:
        rules_path = Path(file).parent / schema.rules
        ruleset = load_ruleset(rules_path if rules_path.exists() else content_path(schema.rules))
    try:
        ruleset = ruleset.with_options(schema.options, file=file)
        ruleset = ruleset.with_options(dict(options or {}), file="command-line options")
    except ContentError as exc:
        # Options problems are reported against the scenario's [options] table.
        lines = key_lines(text)
        problems = [
            ContentProblem(file, line_of(lines, ("options",)), p.key, p.message, p.allowed)
            for p in exc.problems
        ]
        raise ContentError(problems) from None
    ruleset = content_settings.check(ruleset, settings)
    world = _Builder(schema, text, file, ruleset).build(seed)
    if schema.name not in shipped():
        world.scenario_file = file  # a save says where its scenario came from
    return world


def check_scenario(path: Path) -> list[ContentProblem]:
    """What ``undercroft check`` finds wrong in a keep scenario file beyond its schema: the
    problems setting its world up would raise (its ``[options]`` against the ruleset's
    ranges, places on walls, labels used twice, unknown kinds in its script...), each
    naming the file, line and key as ``run keep`` does. Empty when the world builds."""
    try:
        world_from_text(path.read_text(encoding="utf-8"), file=str(path))
    except ContentError as exc:
        return list(exc.problems)
    return []


__all__ = [
    "ScenarioSchema",
    "build_world",
    "check_scenario",
    "load",
    "resolve",
    "shipped",
    "world_from_text",
]
