"""The run's headline numbers (K-DECAY-04): the log's ``summary`` line, the CLI's report.

Counted from the workload (:mod:`undercroft.keep.state.stats`) and the world as it stands; the
invasions' numbers show the director's indicator (ruling R-K-TIME-04), so this is a rule
module that registers itself behind :meth:`undercroft.keep.state.world.World.summary`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from undercroft.core.events import MINUTES_PER_DAY
from undercroft.keep.rules import director
from undercroft.keep.state.actors import Job, Minion
from undercroft.keep.state.invaders import Adventurer, Whereabouts
from undercroft.keep.state.structures import Mechanism, TrapPart, Trigger
from undercroft.keep.state.world import provides_summary

if TYPE_CHECKING:
    from undercroft.keep.state.world import World


def _busy_now(world: World, job: str) -> int:
    """Minutes of work in progress (not yet counted): started, not finished."""
    total = 0
    for b in world.present():
        if isinstance(b, Minion) and b.busy_since is not None and b.job.value == job:
            total += world.now + 1 - b.busy_since
    return total


@provides_summary
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
