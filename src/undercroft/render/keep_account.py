"""The invasion account of a keep run: what happened day by day, and each invasion's sum.

A pure reading of the event log (``docs/events.md``): :class:`InvasionAccount` takes the
events in order (it is an event sink, so a run can feed it as it goes, or a log read back
can be replayed into it) and gives the lines of each day — arrivals, sightings, doors gone
round, forced or given up, traps set off and what they did, discoveries, who learned what,
Caution, the fights (who engages whom, wounds, knock-outs, deaths, healing, waking,
captures, the bodies), goals, treasure, departures — and a summary per invasion. With
``explain`` each line ends with the rule IDs that decided it. It never reads the world.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from undercroft.core.events import Event, KeepTime, LogEntry, Time
from undercroft.keep.fates import Fates
from undercroft.render.keep_lines import hhmm


def _group_of(actor: Any) -> int | None:
    """``adv:N-M`` -> N."""
    text = str(actor)
    if not text.startswith("adv:"):
        return None
    number, _, _ = text[4:].partition("-")
    return int(number) if number.isdigit() else None


def _members(members: Iterable[Mapping[str, Any]]) -> str:
    parts = []
    for m in members:
        traits = m.get("traits") or m.get("abilities") or []
        extra = f" ({', '.join(traits)})" if traits else ""
        level = f" {m['level']}" if m.get("level") else ""
        parts.append(f"{m['class']}{level}{extra}")
    return ", ".join(parts)


@dataclass
class InvasionSum:
    """One invasion, summed up from its events."""

    number: int
    kind: str = ""
    faction: str = ""
    origin: str = ""
    day: int = 0
    arrived: int = 0
    members: int = 0
    party: str = ""
    goal: str = ""
    sighted: int | None = None
    sighted_by: str = ""
    went_round: int = 0
    doors_forced: int = 0
    forcing_minutes: int = 0
    doors_given_up: int = 0
    traps: int = 0
    discovered: int = 0
    learned: int = 0
    disarmed: int = 0
    caution: int = 0
    outcome: str = "under way"
    treasure: int = 0
    wounds: int = 0
    """Wounds its members took (from traps and your side)."""
    kills: int = 0
    """Beings of your side its members killed."""
    ended: int | None = None


@dataclass
class InvasionAccount:
    """An event sink that writes the account (see the module docstring)."""

    enabled: bool = True
    explain: bool = False
    """End every line with the rule IDs that decided it."""
    days: dict[int, list[str]] = field(default_factory=dict)
    invasions: dict[int, InvasionSum] = field(default_factory=dict)
    fates: Fates = field(default_factory=Fates)
    """What became of every adventurer who came (the ``out``, ``dead``, ``caught`` columns)."""

    def emit(self, time: Time, event: Event) -> None:
        if not isinstance(time, KeepTime):
            return
        self.fates.read(event)
        line = self._line(time.minute, event)
        if line:
            if self.explain and event.rules:
                line += f"  [{', '.join(event.rules)}]"
            self.days.setdefault(time.day, []).append(f"{hhmm(time.minute)} {line}")

    def replay(self, entries: Iterable[LogEntry]) -> InvasionAccount:
        for entry in entries:
            self.emit(entry.time, entry.event)
        return self

    def day_lines(self, day: int) -> list[str]:
        return self.days.get(day, [])

    def _sum(self, number: int | None) -> InvasionSum | None:
        return None if number is None else self.invasions.get(number)

    def _line(self, minute: int, event: Event) -> str | None:
        f = event.fields
        kind = event.type
        if kind == "invasion.arrived":
            return self._arrived(minute, f)
        if kind == "invasion.sighted":
            s = self._sum(f["number"])
            if s is not None:
                s.sighted, s.sighted_by = minute, f"{f['by']} ({f['how']})"
            return f"invasion {f['number']} sighted by {f['by']} ({f['how']}): the card arrives"
        if kind == "invasion.shown":
            return f"invasion {f['number']} shown by the torch of {f['post']}"
        if kind == "chance" and "K-DOOR-01" in event.rules:
            s = self._sum(f.get("group"))
            if f["outcome"] == "alternate":
                if s is not None:
                    s.went_round += 1
                return f"group {f['group']} goes round {f['door']} (p {f['p']:g})"
            return None
        if kind == "door.forcing":
            return (
                f"group {f['group']} sets {f['adventurer']} to {f['method']} {f['door']} "
                f"({f['reason']})"
            )
        if kind == "door.forced":
            s = self._sum(f["group"])
            if s is not None:
                s.doors_forced += 1
                s.forcing_minutes += int(f["minutes"])
            return (
                f"{f['door']} {'picked' if f['method'] == 'pick' else 'bashed'} open by "
                f"{f['by']} after {f['attempts']} attempt(s), {f['minutes']} min"
            )
        if kind == "door.given_up":
            s = self._sum(f["group"])
            if s is not None:
                s.doors_given_up += 1
            return f"group {f['group']} gives up on {f['door']} after {f['attempts']} attempts"
        if kind == "trap.fired":
            s = self._sum(_group_of(f["by"]))
            caught = ", ".join(str(c) for c in f["caught"]) or "nobody"
            if s is None:
                if not any(_group_of(c) for c in f["caught"]):
                    return None
                return f"{f['trap']} ({f['mechanism']}) fires ({f['cause']}): caught {caught}"
            s.traps += 1
            return f"{f['by']} sets off {f['trap']} ({f['mechanism']}): caught {caught}"
        if kind == "adventurers.learned":
            parts = []
            for entry in f["learners"]:
                s = self._sum(_group_of(entry["id"]))
                if s is not None:
                    s.learned += 1
                gains = [f"{k} +{v}" for k, v in entry.get("detect", {}).items()]
                gains += [f"Block vs {k} +{v}" for k, v in entry.get("block", {}).items()]
                parts.append(f"{entry['id']} ({', '.join(gains)})")
            return f"learned from {f['trap']}: {'; '.join(parts)}"
        if kind == "trigger.discovered":
            s = self._sum(_group_of(f["adventurer"]))
            if s is not None:
                s.discovered += 1
            told = f"; told {', '.join(f['learned'])}" if f["learned"] else ""
            return f"{f['adventurer']} discovers {f['trigger']} ({f['kind']}){told}"
        if kind == "trigger.detected":
            return (
                f"{f['adventurer']}'s Detect Traps shows group {f['group']}: "
                f"{', '.join(f['triggers'])}"
            )
        if kind == "trigger.stepped_over":
            return f"{f['adventurer']} steps over {f['trigger']}"
        if kind == "trigger.disarmed":
            s = self._sum(f["group"])
            if s is not None and f["outcome"] == "disarmed":
                s.disarmed += 1
            return (
                f"group {f['group']}: {f['trigger']} {f['outcome'].replace('_', ' ')} by {f['by']}"
            )
        if kind == "group.caution":
            s = self._sum(f["group"])
            if s is not None and f["caution"]:
                s.caution = max(s.caution, int(f["caution"]))
            if f["caution"]:
                return f"group {f['group']} in Caution +{f['caution']} ({f['reason']})"
            return f"group {f['group']} leaves Caution ({f['reason']})"
        if kind == "invasion.goal":
            s = self._sum(f["number"])
            if s is not None and f["outcome"] in ("reached", "met", "out_of_reach"):
                s.outcome = str(f["outcome"])
            what = {
                "met": f"met its goal ({f['goal'].replace('_', ' ')})",
                "out_of_reach": "cannot reach its goal",
                "gone": f"its goal is gone; now: {f.get('now')}",
                "master_dead": "finds the Master dead: it scatters for treasure",
            }[f["outcome"]]
            if f["outcome"] == "master_dead" and s is not None:
                s.outcome = "master_dead"
            return f"invasion {f['number']} {what}"
        if kind == "treasure.taken":
            return f"{f['adventurer']} takes {f['amount']} treasure ({f['left']} left)"
        if kind == "prisoner.freed":
            return f"{f['by']} frees {f['prisoner']}"
        if kind == "altar.wrecked":
            return f"{f['by']} wrecks {f['altar']}"
        if kind == "adventurer.left":
            s = self._sum(f["group"])
            if s is not None:
                s.treasure += int(f["treasure"])
            loot = f" with {f['treasure']} treasure" if f["treasure"] else ""
            return f"{f['adventurer']} leaves{loot}"
        if kind == "invasion.ended":
            s = self._sum(f["number"])
            if s is not None:
                s.ended = minute
                if s.outcome == "under way":
                    s.outcome = "failed"  # over without its goal
            limit = f"; next within {f['limit_hours']:g} h" if f["limit_hours"] is not None else ""
            fates = [
                f"{len(f.get(k) or [])} {word}"
                for k, word in (("escaped", "escaped"), ("dead", "dead"), ("captured", "captured"))
                if f.get(k)
            ]
            told = f" ({', '.join(fates)})" if fates else ""
            return f"invasion {f['number']} over after {f['minutes']} min{told}{limit}"
        return self._fight(minute, event) or _other(event)

    def _fight(self, minute: int, event: Event) -> str | None:
        """The lines of a fight and of what traps do to those they catch."""
        f = event.fields
        kind = event.type
        if kind == "wound":
            s = self._sum(_group_of(f["target"]))
            if s is not None:
                s.wounds += 1
            return (
                f"{f['source']} wounds {f['target']} ({f['weapon']}): {f['level']} "
                f"{f['location']}, {f['total']}/10"
            )
        if kind == "being.unconscious":
            how = (
                f"bleeding: dies at {hhmm(int(f['until']))} unless healed"
                if f["bleeding"]
                else f"wakes by {hhmm(int(f['until']))}"
            )
            return f"{f['being']} is knocked out by {f['by']} ({how})"
        if kind == "being.died":
            slayer = self._sum(_group_of(f["by"]))
            if slayer is not None and _group_of(f["being"]) is None:
                slayer.kills += 1
            who = "the Master" if f["being"] == "master" else f["being"]
            cause = {"wounds": "", "head": ", a head wound", "bleeding": ", bled to death",
                     "killed": ", killed where it lay"}[f["cause"]]  # fmt: skip
            return f"{who} dies at {f['at']} (by {f['by']}{cause})"
        if kind == "being.woke":
            return f"{f['being']} wakes ({f['how'].replace('_', ' ')})"
        if kind == "being.healed":
            return f"{f['by']} heals {f['being']}"
        if kind == "adventurer.captured":
            return f"{f['by']} captures {f['adventurer']}: a prisoner at {f['at']}"
        if kind == "being.carried":
            return f"{f['by']} carries {f['being']} off"
        if kind == "being.laid" and f["where"] == "bed":
            return f"{f['by']} lays {f['being']} in its bed"
        if kind in ("body.butchered", "body.burned"):
            verb = "butchers" if kind == "body.butchered" else "burns"
            return f"{f['by']} {verb} the body of {f['body']}"
        if kind == "being.held":
            return f"{f['being']} is held by the web of {f['by']} until {hhmm(int(f['until']))}"
        if kind == "being.terrified":
            return f"{f['being']} flees in terror from {f['by']} until {hhmm(int(f['until']))}"
        if kind == "creatures.summoned":
            released = ", ".join(f["creatures"])
            return f"{f['trap']} releases {len(f['creatures'])} {f['breed']}(s): {released}"
        if kind == "noise" and f["heard"] and f["enemies"]:
            return (
                f"noise ({f['cause']}) at {f['at']}: {', '.join(f['heard'])} hear where "
                f"{', '.join(f['enemies'])} are"
            )
        if kind == "fighter.decision" and f["act"] not in ("hold", "wait", "keep_away", "carry_on"):
            what = {
                "attack": f"attacks {f['target']}",
                "close_in": f"closes in on {f['target']}",
                "keep_away": f"keeps away from {f['target']}",
                "flee": f"flees from {f['target']}",
                "regroup": "regroups with its allies",
                "carry_on": "leaves the fight",
            }[f["act"]]
            why = f": {f['why']}" if f["why"] != what else ""
            return f"{f['being']} ({f['stance']}) {what}{why}"
        resisted = kind == "roll" and "K-TRAP-03" in event.rules and f.get("outcome") == "win"
        if resisted and f.get("actor") == f.get("target"):
            return f"{f['target']} resists {f['trap']} ({f['mechanism']})"
        return None

    def _arrived(self, minute: int, f: Mapping[str, Any]) -> str:
        new = InvasionSum(
            f["number"],
            f["kind"],
            f.get("faction", ""),
            f.get("from", ""),
            f["day"],
            minute,
            len(f["members"]),
            _members(f["members"]),
            f["goal"],
        )
        self.invasions[new.number] = new
        goal = f["goal"].replace("_", " ")
        if f.get("goal_drawn") and f["goal_drawn"] != f["goal"]:
            goal += f" (came to {f['goal_drawn'].replace('_', ' ')}: gone, K-INV-02)"
        return (
            f"invasion {new.number} ({new.kind}) arrived from {new.origin} at {f.get('portal')}: "
            f"{new.party} - goal: {goal}"
        )

    def summary_rows(self) -> list[dict[str, Any]]:
        """One row per invasion (the CLI's table, in the game's terms): its number, day,
        kind, members, goal, outcome, minutes inside, minutes until sighted, doors gone
        round and forced (with the minutes forcing took), traps its members set off,
        triggers they discovered, lessons learned, wounds its members took, beings of your
        side they killed, treasure carried out, and what became of the members it came with
        by now (:mod:`undercroft.keep.fates`, each under one fate): escaped, dead, captured
        (those still inside make up the rest of its size)."""
        goals = {
            "kill_master": "Master",
            "steal_treasure": "treasure",
            "rescue_prisoners": "prisoners",
            "wreck_altar": "altar",
        }
        rows = []
        fates = self.fates.by_invasion()
        for s in self.invasions.values():
            fate = fates.get(s.number, Counter())
            rows.append(
                {
                    "#": s.number,
                    "day": s.day,
                    "kind": s.kind,
                    "size": s.members,
                    "goal": goals.get(s.goal, s.goal),
                    "outcome": s.outcome,
                    "min": (s.ended - s.arrived) if s.ended is not None else "-",
                    "seen": (s.sighted - s.arrived) if s.sighted is not None else "-",
                    "round": s.went_round,
                    "forced": f"{s.doors_forced} ({s.forcing_minutes}')" if s.doors_forced else 0,
                    "traps": s.traps,
                    "found": s.discovered,
                    "learned": s.learned,
                    "wounds": s.wounds,
                    "kills": s.kills,
                    "loot": s.treasure,
                    "out": f"{fate['escaped']}/{s.members}",
                    "dead": fate["dead"],
                    "caught": fate["captured"],
                }
            )
        return rows


def _other(event: Event) -> str | None:
    f = event.fields
    kind = event.type
    if kind == "invasions.stopped":
        return f"invasions stopped ({f['reason'].replace('_', ' ')})"
    if kind == "invasions.resumed":
        return "invasions can come again"
    if kind == "invasion.limit":
        return f"the time limit ran out while stopped: a new one of {f['limit_hours']:g} h"
    if kind == "invasion.announced":
        return f"a {f['kind']} is coming ({f['source']})"
    if kind == "invasion.divined":
        return f"divination: the next group is {_members(f['members'])} from {f['from']}"
    if kind == "fugitive.asked":
        return f"the fugitive {f['fugitive']} asks to hide here"
    if kind == "rite.ended":
        return "the Rite of Storms is over"
    if kind == "command" and f.get("command") in (
        "rite_of_storms",
        "answer_fugitive",
        "divine",
        "watchful_eye",
    ):
        verdict = "done" if f["accepted"] else f"refused: {f.get('reason')}"
        return f"keeper: {f['command'].replace('_', ' ')} ({verdict})"
    return None


class TeeLog:
    """Send events to the run's log and to the account (``close`` finishes the log)."""

    enabled = True

    def __init__(self, log: Any, account: InvasionAccount) -> None:
        self.log = log
        self.account = account

    def emit(self, time: Time, event: Event) -> None:
        self.log.emit(time, event)
        self.account.emit(time, event)

    def close(self, summary: Mapping[str, Any]) -> None:
        close = getattr(self.log, "close", None)
        if close is not None:
            close(summary)
