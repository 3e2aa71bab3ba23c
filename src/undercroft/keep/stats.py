"""The workload and the run's headline numbers (K-DECAY-04).

The simulation fixes no formula for how much rearming a dungeon needs: the numbers here
are counted from what happened — every ``part.rearmed`` in the log, and every minute a
minion spent on a task (walking there included), split across the days it fell in.
:func:`summary` turns them into the log's last line and the CLI's report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from undercroft.core.events import MINUTES_PER_DAY, Event
from undercroft.keep import director
from undercroft.keep.actors import Job, Minion
from undercroft.keep.invaders import Adventurer, Whereabouts
from undercroft.keep.structures import Mechanism, TrapPart, Trigger

if TYPE_CHECKING:
    from undercroft.keep.world import World


@dataclass
class DayStats:
    """What happened on one day."""

    rearms: int = 0
    rearms_decay: int = 0
    rearms_used: int = 0
    expired: int = 0
    fumbles: int = 0
    fumble_fires: int = 0
    tampered: int = 0
    traps_fired: int = 0
    built: int = 0
    door_moves: int = 0
    lock_flips: int = 0
    commands: int = 0
    refused: int = 0
    visitors: int = 0
    wait_minutes: int = 0
    doors_forced: int = 0
    adventurer_traps: int = 0
    discovered: int = 0
    wounds: int = 0
    knocked_out: int = 0
    deaths: int = 0
    traps_job_minutes: int = 0
    chores_job_minutes: int = 0
    rearm_minutes: int = 0


@dataclass
class Workload:
    """Per-day counts; fed by every event the world emits and by minions' busy time."""

    days: dict[int, DayStats] = field(default_factory=dict)
    max_wait: int = 0

    def day(self, number: int) -> DayStats:
        found = self.days.get(number)
        if found is None:
            found = self.days[number] = DayStats()
        return found

    def note(self, minute: int, event: Event) -> None:
        today = self.day(minute // MINUTES_PER_DAY + 1)
        kind, f = event.type, event.fields
        if kind == "part.rearmed":
            today.rearms += 1
            if f["reason"] == "decay":
                today.rearms_decay += 1
            else:
                today.rearms_used += 1
            today.wait_minutes += int(f["waited"])
            self.max_wait = max(self.max_wait, int(f["waited"]))
        elif kind == "part.expired":
            today.expired += 1
        elif kind == "roll" and f.get("outcome") == "fumble":
            today.fumbles += 1
        elif kind == "chance" and f.get("outcome") == "tampered":
            today.tampered += 1
        elif kind == "trap.fired":
            today.traps_fired += 1
            if f["cause"] == "fumble":
                today.fumble_fires += 1
            if str(f["by"]).startswith("adv:"):
                today.adventurer_traps += 1
        elif kind == "door.forced":
            today.doors_forced += 1
        elif kind == "trigger.discovered":
            today.discovered += 1
        elif kind == "wound":
            today.wounds += 1
        elif kind == "being.unconscious":
            today.knocked_out += 1
        elif kind == "being.died":
            today.deaths += 1
        elif kind == "structure.built":
            today.built += 1
        elif kind in ("door.opened", "door.closed"):
            today.door_moves += 1
        elif kind in ("lock.armed", "lock.disarmed"):
            today.lock_flips += 1
        elif kind == "command":
            today.commands += 1
            today.refused += not f["accepted"]
        elif kind == "visitor.arrived":
            today.visitors += 1

    def add_busy(self, job: str, task: str, start: int, end: int) -> None:
        """Count a minion's busy minutes [start, end) on the days they fall in."""
        minute = start
        while minute < end:
            day = minute // MINUTES_PER_DAY + 1
            upto = min(end, day * MINUTES_PER_DAY)
            spent = upto - minute
            stats = self.day(day)
            if job == "traps":
                stats.traps_job_minutes += spent
            elif job == "chores":
                stats.chores_job_minutes += spent
            if task == "rearm":
                stats.rearm_minutes += spent
            minute = upto

    def total(self, name: str, first: int = 1, last: int | None = None) -> int:
        return sum(
            getattr(s, name)
            for d, s in self.days.items()
            if d >= first and (last is None or d <= last)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "max_wait": self.max_wait,
            "days": {str(d): asdict(s) for d, s in sorted(self.days.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Workload:
        names = {f.name for f in fields(DayStats)}
        days = {
            int(d): DayStats(**{k: int(v) for k, v in s.items() if k in names})
            for d, s in data["days"].items()
        }
        return cls(days, int(data["max_wait"]))


def _busy_now(world: World, job: str) -> int:
    """Minutes of work in progress (not yet counted): started, not finished."""
    total = 0
    for b in world.present():
        if isinstance(b, Minion) and b.busy_since is not None and b.job.value == job:
            total += world.now + 1 - b.busy_since
    return total


def summary(world: World) -> dict[str, Any]:
    """The headline numbers of a run so far (the log's ``summary`` line)."""
    work = world.workload
    run = world.now + 1 - world.start_minute  # R-K-TIME-06: counted from the start
    days = max(1, (run + MINUTES_PER_DAY - 1) // MINUTES_PER_DAY)
    elapsed_days = run / MINUTES_PER_DAY
    parts = [p for p in world.of_type(TrapPart) if not (isinstance(p, Trigger) and p.lever)]
    traps_minions = [m for m in world.minions() if m.job is Job.TRAPS]
    traps_hours = (work.total("traps_job_minutes") + _busy_now(world, "traps")) / 60
    rearms = work.total("rearms")
    waits = work.total("wait_minutes")
    out: dict[str, Any] = {
        "days": days,
        "minutes": run,
        "traps": len(world.of_type(Mechanism)),
        "triggers": len(world.of_type(Trigger)),
        "parts_that_decay": len(parts),
        "traps_minions": len(traps_minions),
        "rearms": rearms,
        "rearms_decay": work.total("rearms_decay"),
        "rearms_used": work.total("rearms_used"),
        "rearms_per_day": round(rearms / elapsed_days, 2),
        "traps_job_minion_hours": round(traps_hours, 1),
        "traps_job_minion_hours_per_day": round(traps_hours / elapsed_days, 2),
        "rearm_minion_hours": round(work.total("rearm_minutes") / 60, 1),
        "traps_job_utilisation": round(traps_hours / (24 * elapsed_days * len(traps_minions)), 3)
        if traps_minions
        else 0.0,
        "mean_wait_minutes": round(waits / rearms, 1) if rearms else 0.0,
        "max_wait_minutes": work.max_wait,
        "parts_rearmed": sum(1 for p in parts if p.rearms > 0),
        "max_rearm_gap_hours": round(max((p.max_gap for p in parts), default=0) / 60, 1),
        "fumbles": work.total("fumbles"),
        "fumble_fires": work.total("fumble_fires"),
        "tampered": work.total("tampered"),
        "traps_fired": work.total("traps_fired"),
        "structures_built": work.total("built"),
        "commands": work.total("commands"),
        "commands_refused": work.total("refused"),
        "visitors": work.total("visitors"),
        "metal_left": world.stockpile.metal if world.stockpile else 0,
        "events": world.events_emitted,
    }
    if world.options.invasions:
        out.update(invasion_summary(world))
    return out


def invasion_summary(world: World) -> dict[str, Any]:
    """The invasions' headline numbers (in the summary only when invasions are on)."""
    totals = world.invasion.totals
    work = world.workload
    shown = director.indicator(world)
    kinds = sorted(k for k in totals if k.startswith("kind:"))
    master = world.beings.get("master")
    died = totals.get("master_died")
    return {
        "invasions": int(totals.get("invasions", 0)),
        "invasions_by_kind": {k[5:]: int(totals[k]) for k in kinds},
        "adventurers": int(totals.get("adventurers", 0)),
        "escaped": int(totals.get("escaped", 0)),
        "dead": int(totals.get("dead", 0)),
        "captured": int(totals.get("captured", 0)),
        "prisoners": len(
            [
                b
                for b in world.beings.values()
                if isinstance(b, Adventurer)
                and b.where is Whereabouts.PRISONER
                and b.captured_at is not None
            ]
        ),
        "treasure_taken": int(totals.get("treasure", 0)),
        "goals_met": int(totals.get("goal:met", 0)),
        "wounds": work.total("wounds"),
        "knocked_out": work.total("knocked_out"),
        "minions_dead": int(totals.get("minions_dead", 0)),
        "creatures_dead": int(totals.get("creatures_dead", 0)),
        "master": "dead" if master is not None and master.condition.value == "dead" else "alive",
        "master_died_day": None if died is None else int(died) // MINUTES_PER_DAY + 1,
        "doors_forced": work.total("doors_forced"),
        "traps_set_off_by_adventurers": work.total("adventurer_traps"),
        "triggers_discovered": work.total("discovered"),
        "indicator": f"{shown.word} ({shown.percent:g}%)",
    }
