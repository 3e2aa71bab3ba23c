"""The event log: frozen events, the JSON Lines writer and reader (a contract).

A log is one JSON object a line, UTF-8 (``ARCHITECTURE.md``, "The event log"; every
type and field is documented in ``docs/events.md``):

* line 1, the :class:`Header`: ruleset, version, seed, scenario, options, and every actor
  present at the start with its profile;
* then one line per event: ``seq`` (0, 1, 2, ...), ``time``, ``type``, ``rules`` (the rule
  IDs that decided it), then the event's own fields;
* last, the :class:`Summary` with the run's headline results.

Serialisation is deterministic (fixed key order, compact separators, no NaN), so the same
run gives a byte-identical file in any process.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from undercroft.core.event_types import EVENT_TYPES
from undercroft.core.files import PartialFile, PathError, check_input
from undercroft.core.files import write_text_atomic as write_text_atomic  # re-exported
from undercroft.core.versions import version_problem

JsonDict = dict[str, Any]
RESERVED_KEYS: Final = ("seq", "time", "type", "rules")
"""The names of a log line's own fields, which an event's fields may not take."""
RESERVED: Final = frozenset(RESERVED_KEYS)
COMPILED: Final = __file__.endswith((".so", ".pyd"))
"""Whether this module runs compiled (:mod:`undercroft.native`): its frozen classes are
then built by setting their fields directly, which Python code may not do."""
MINUTES_PER_DAY: Final = 24 * 60
MAX_SEED: Final = 2**64 - 1


class LogFormatError(ValueError):
    """A log file that does not follow the contract; names the file and line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path = path
        self.line = line
        # Line 0: the whole file (not UTF-8, not a file at all), so no line is named.
        super().__init__(f"{path}:{line}: {message}" if line > 0 else f"{path}: {message}")


@dataclass(frozen=True, slots=True)
class CrawlTime:
    """When a crawl event happened: the turn and the step of the turn or combat sequence."""

    turn: int
    step: str

    def __init__(self, turn: int, step: str) -> None:
        # Written out as Event's: a crawl makes a few hundred a game.
        if COMPILED:
            self.turn = turn  # type: ignore[misc]
            self.step = step  # type: ignore[misc]
        else:
            setattr_ = object.__setattr__  # slots: no __dict__ to write to
            setattr_(self, "turn", turn)
            setattr_(self, "step", step)

    def to_json(self) -> JsonDict:
        return {"turn": self.turn, "step": self.step}


@dataclass(frozen=True, slots=True, order=True)
class KeepTime:
    """When a keep event happened, in game minutes; day 1 starts at minute 0."""

    minute: int

    @property
    def day(self) -> int:
        return self.minute // MINUTES_PER_DAY + 1

    @property
    def hour(self) -> int:
        return (self.minute % MINUTES_PER_DAY) // 60

    def to_json(self) -> JsonDict:
        return {"minute": self.minute, "day": self.day, "hour": self.hour}


Time = CrawlTime | KeepTime


def time_from_json(data: Any) -> Time:
    if isinstance(data, dict):
        if isinstance(data.get("turn"), int) and isinstance(data.get("step"), str):
            return CrawlTime(data["turn"], data["step"])
        if isinstance(data.get("minute"), int):
            return KeepTime(data["minute"])
    raise ValueError(f"time must be {{turn, step}} or {{minute, day, hour}}, got {data!r}")


@dataclass(frozen=True)
class Event:
    """One thing that happened: its type, the rules that decided it, and its fields.

    Build the core kinds with :func:`roll_event`, :func:`chance_event` and
    :func:`fight_event`. ``fields`` is to be treated as read-only.
    """

    type: str
    rules: tuple[str, ...]
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self, type: str, rules: tuple[str, ...], fields: Mapping[str, Any] | None = None
    ) -> None:
        # Written out: a game builds over a thousand events. Compiled (undercroft.native),
        # the fields are set directly (the frozen check guards only Python code); as
        # Python, through __dict__, not the frozen dataclass's object.__setattr__ (twice
        # as slow).
        found = {} if fields is None else fields
        for key in RESERVED_KEYS:  # four lookups: cheaper than a set operation
            if key in found:
                clash = sorted(RESERVED.intersection(found))
                raise ValueError(f"event fields may not be named {clash}")
        if type in ("header", "summary"):
            raise ValueError(f"{type!r} is a log line of its own, not an event type")
        if COMPILED:
            self.type = type  # type: ignore[misc]
            self.rules = rules  # type: ignore[misc]
            self.fields = found  # type: ignore[misc]
        else:
            self.__dict__.update(type=type, rules=rules, fields=found)


def roll_event(
    rules: Sequence[str],
    actor: str,
    natural: Sequence[int],
    outcome: str | int,
    *,
    sides: int = 6,
    modifiers: Mapping[str, int] | None = None,
    **inputs: Any,
) -> Event:
    """A ``roll`` event (ARCHITECTURE.md): one die roll, its modifiers, total and outcome."""
    mods = dict(modifiers or {})
    fields: dict[str, Any] = {
        "actor": actor,
        "dice": f"{len(natural)}d{sides}",
        "natural": list(natural),
        "modifiers": mods,
        "total": sum(natural) + sum(mods.values()),
        "outcome": outcome,
    }
    fields.update(inputs)
    return Event("roll", tuple(rules), fields)


def chance_event(
    rules: Sequence[str], actor: str, p: float, hit: bool, outcome: str, **inputs: Any
) -> Event:
    """A ``chance`` event: one percentage draw with ``p`` after every modifier."""
    fields: dict[str, Any] = {"actor": actor, "p": float(p), "hit": hit, "outcome": outcome}
    fields.update(inputs)
    return Event("chance", tuple(rules), fields)


def fight_event(
    *,
    rules: Iterable[str],
    hero: str,
    monster: str,
    hero_score: int,
    monster_score: int,
    hero_modifiers: Mapping[str, int],
    monster_modifiers: Mapping[str, int],
    hero_dice: tuple[int, int],
    monster_dice: tuple[int, int],
    hero_stamina: int,
    monster_stamina: int,
    winner: Literal["hero", "monster"] | None,
    casting: bool = False,
) -> Event:
    """A crawl ``fight`` event with exactly the contract's fields.

    ``casting`` adds the note for a caster who took double ones in the fight.
    """
    fields: JsonDict = {
        "hero": hero,
        "monster": monster,
        "hero_score": hero_score,
        "monster_score": monster_score,
        "hero_modifiers": dict(hero_modifiers),
        "monster_modifiers": dict(monster_modifiers),
        "hero_dice": list(hero_dice),
        "monster_dice": list(monster_dice),
        "hero_stamina": hero_stamina,
        "monster_stamina": monster_stamina,
        "winner": winner,
    }
    if casting:
        fields["casting"] = True
    return Event("fight", tuple(rules), fields)


@dataclass(frozen=True)
class LogEntry:
    """An event as placed in a log: its sequence number and time."""

    seq: int
    time: Time
    event: Event

    def __init__(self, seq: int, time: Time, event: Event) -> None:
        if COMPILED:  # as Event's
            self.seq = seq  # type: ignore[misc]
            self.time = time  # type: ignore[misc]
            self.event = event  # type: ignore[misc]
        else:
            self.__dict__.update(seq=seq, time=time, event=event)

    def to_json(self) -> JsonDict:
        out: JsonDict = {
            "seq": self.seq,
            "time": self.time.to_json(),
            "type": self.event.type,
            "rules": list(self.event.rules),
        }
        out.update(self.event.fields)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogEntry:
        for key, kind in (("seq", int), ("type", str), ("rules", list)):
            if not isinstance(data.get(key), kind):
                raise ValueError(f"field {key!r} is missing or not a {kind.__name__}")
        fields = {k: v for k, v in data.items() if k not in RESERVED}
        event = Event(data["type"], tuple(data["rules"]), fields)
        return cls(data["seq"], time_from_json(data.get("time")), event)


@dataclass(frozen=True)
class Actor:
    """An actor present at the start of a run, with its profile for the header."""

    id: str
    kind: str
    profile: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        out: JsonDict = {"id": self.id, "kind": self.kind}
        out.update(self.profile)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Actor:
        profile = {k: v for k, v in data.items() if k not in ("id", "kind")}
        return cls(str(data["id"]), str(data["kind"]), profile)


@dataclass(frozen=True)
class Header:
    """Line 1 of a log."""

    ruleset: Literal["crawl", "keep", "core"]
    version: str
    seed: int
    scenario: str
    options: Mapping[str, Any] = field(default_factory=dict)
    actors: tuple[Actor, ...] = ()
    players: Mapping[str, str] = field(default_factory=dict)
    """Seat -> the policy that played it (crawl runs with built-in or plug-in players;
    empty, and left out of the line, when people played or no policy was named)."""

    def to_json(self) -> JsonDict:
        found: JsonDict = {
            "type": "header",
            "ruleset": self.ruleset,
            "version": self.version,
            "seed": self.seed,
            "scenario": self.scenario,
            "options": dict(self.options),
            "actors": [a.to_json() for a in self.actors],
        }
        if self.players:
            found["players"] = dict(self.players)
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Header:
        if data.get("type") != "header":
            raise ValueError("the first line must be the header (type 'header')")
        if data.get("ruleset") not in ("crawl", "keep", "core"):
            raise ValueError("header field 'ruleset' must be 'crawl', 'keep' or 'core'")
        version = str(data.get("version", ""))
        problem = version_problem(version) if "version" in data else None
        if problem is not None:  # a log with no version at all is from before there was one
            raise ValueError(f"header field 'version': {problem}")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"header field 'seed': {seed!r} is not a seed (0 to 2**64 - 1)")
        return cls(
            ruleset=data["ruleset"],
            version=version,
            seed=seed,
            scenario=str(data.get("scenario", "")),
            options=dict(data.get("options", {})),
            actors=tuple(Actor.from_json(a) for a in data.get("actors", [])),
            players={str(k): str(v) for k, v in dict(data.get("players", {})).items()},
        )


@dataclass(frozen=True)
class Summary:
    """The last line of a log: the run's headline results."""

    results: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        out: JsonDict = {"type": "summary"}
        out.update(self.results)
        return out


def dumps(obj: Mapping[str, Any]) -> str:
    """One log line: compact, key order as built, UTF-8 text, strict JSON."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class EventSink(Protocol):
    """Where engines send events. ``enabled`` False lets them skip building events."""

    enabled: bool

    def emit(self, time: Time, event: Event) -> None: ...


class NullLog:
    """A sink that keeps nothing (for fast batch runs with the log off)."""

    enabled = False

    def emit(self, time: Time, event: Event) -> None:
        return None


@dataclass
class EventLog:
    """An in-memory log: a header, entries numbered as they come, and a summary."""

    header: Header
    entries: list[LogEntry] = field(default_factory=list)
    summary: Summary | None = None
    enabled: bool = True

    def emit(self, time: Time, event: Event) -> None:
        self.entries.append(LogEntry(len(self.entries), time, event))

    def close(self, summary: Mapping[str, Any]) -> None:
        self.summary = Summary(dict(summary))

    def lines(self) -> Iterator[str]:
        yield dumps(self.header.to_json())
        for entry in self.entries:
            yield dumps(entry.to_json())
        if self.summary is not None:
            yield dumps(self.summary.to_json())

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines())

    def write(self, path: str | Path) -> None:
        """Write the whole log to ``path`` atomically (a reader never sees half a file)."""
        write_text_atomic(Path(path), self.text())

    def of_type(self, kind: str) -> list[LogEntry]:
        return [e for e in self.entries if e.event.type == kind]


class StreamingLog:
    """A log written line by line as events come, for long runs.

    Lines go to ``PATH.partial``; :meth:`close` writes the summary and renames it into
    place, so ``PATH`` only ever holds a complete log; :meth:`discard` (an interrupted
    run) removes the partial file. ``PATH`` must be free or a regular file
    (:mod:`undercroft.core.files`).
    """

    enabled = True

    def __init__(self, path: str | Path, header: Header) -> None:
        self.path = Path(path)
        self._file = PartialFile(self.path)
        self._seq = 0
        self._file.write(dumps(header.to_json()) + "\n")

    def emit(self, time: Time, event: Event) -> None:
        self._file.write(dumps(LogEntry(self._seq, time, event).to_json()) + "\n")
        self._seq += 1

    def close(self, summary: Mapping[str, Any]) -> None:
        self._file.write(dumps(Summary(dict(summary)).to_json()) + "\n")
        self._file.commit()

    def discard(self) -> None:
        """Drop the unfinished log: no ``PATH``, no ``PATH.partial``."""
        self._file.discard()


def read_log(path: str | Path) -> EventLog:
    """Read a JSON Lines log back; a malformed line raises :class:`LogFormatError`."""
    name = str(path)
    try:
        check_input(Path(path))
        text = Path(path).read_text(encoding="utf-8")
    except PathError as exc:
        raise LogFormatError(name, 0, exc.reason) from None
    except OSError as exc:
        raise LogFormatError(name, 0, f"cannot read the log: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise LogFormatError(name, 0, f"the log is not UTF-8 text: {exc.reason}") from exc
    return log_from_text(text, name)


def log_from_text(text: str, name: str = "<log>") -> EventLog:
    """A log from its JSON Lines text (``name`` says where it came from in errors); a
    malformed line raises :class:`LogFormatError`."""
    lines = text.splitlines()
    if not lines:
        raise LogFormatError(name, 1, "the log is empty; line 1 must be the header")
    parsed: list[Any] = []
    for number, line in enumerate(lines, start=1):
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise LogFormatError(name, number, f"not JSON: {exc.msg}") from exc
        except ValueError as exc:  # a number over Python's digit limit
            raise LogFormatError(name, number, f"not a log line: {exc}") from None
        except RecursionError:
            raise LogFormatError(name, number, "JSON nested too deeply to be a log line") from None
        if not isinstance(parsed[-1], dict):
            raise LogFormatError(name, number, "each line must be a JSON object")
    try:
        log = EventLog(Header.from_json(parsed[0]))
    except (ValueError, KeyError, TypeError) as exc:
        raise LogFormatError(name, 1, str(exc)) from exc
    for number, data in enumerate(parsed[1:], start=2):
        if data.get("type") == "header":
            raise LogFormatError(
                name, number, "a second header: a log has one, on line 1 (two logs joined?)"
            )
        if data.get("type") == "summary":
            if number != len(parsed):
                raise LogFormatError(name, number, "the summary must be the last line")
            log.summary = Summary({k: v for k, v in data.items() if k != "type"})
            break
        try:
            entry = LogEntry.from_json(data)
        except ValueError as exc:
            raise LogFormatError(name, number, str(exc)) from exc
        if entry.seq != len(log.entries):
            raise LogFormatError(
                name, number, f"seq {entry.seq} out of order, expected {len(log.entries)}"
            )
        if entry.event.type not in EVENT_TYPES[log.header.ruleset]:
            raise LogFormatError(
                name,
                number,
                f"type: {entry.event.type!r} is no event of a {log.header.ruleset} log "
                "(docs/events.md lists them)",
            )
        log.entries.append(entry)
    return log
