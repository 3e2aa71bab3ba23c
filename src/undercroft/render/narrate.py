"""A readable account of a crawl game from its event log (a pure function of the log).

``narrate(log)`` gives one line per thing worth telling, grouped by turn; with
``explain=True`` every line ends with the rule IDs that decided it, so a reader can
follow why each hero lived or died.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from undercroft.core.events import EventLog, LogEntry

Fields = Mapping[str, Any]


def name(actor: Any) -> str:
    """``hero:brenna`` -> ``Brenna``; ``monster:orc-2`` -> ``Orc 2``; ``trap:16,2`` ->
    ``the trap at (16,2)``."""
    text = str(actor)
    if text.startswith("trap:"):
        return f"the trap at ({text[5:]})"
    if ":" in text:
        text = text.split(":", 1)[1]
    head, _, tail = text.rpartition("-")
    if head and tail.isdigit():
        return f"{head.replace('-', ' ').title()} {tail}"
    return text.replace("-", " ").title()


def sq(value: Any) -> str:
    return f"({value[0]},{value[1]})" if isinstance(value, list | tuple) else str(value)


def _mods(mods: Fields) -> str:
    return "".join(f" {v:+d} {k}" for k, v in mods.items())


FIZZLES = {
    "no target": "no target in range and in sight",
    "magic": "not enough Magic",
    "casting time": "its spell does not suit the moment",
    "ongoing": "its effect still lasts",
}
"""Why a spell came to nothing, as the ``spell.fizzled`` event's ``reason`` says it."""

ROLL_WHAT = {
    "C-DOOR-01": "to open the door",
    "C-SURP-01": "for surprise",
    "C-SURP-04": "against the ambush",
    "C-DD-01": "at Death's Door",
    "C-IDENT-01": "to identify an item",
    "C-TRAP-01": "to detect traps",
    "C-TRAP-02": "to spot a trap",
    "C-TRAP-03": "to disarm the trap",
    "C-JUMP-01": "to jump",
    "C-SPELL-04": "for the overcast",
    "C-MENT-01": "in mental combat",
    "C-MON-03": "for a patrol",
}


def _roll(f: Fields) -> str:
    rules = f.get("_rules", [])
    what = next((ROLL_WHAT[r] for r in rules if r in ROLL_WHAT), "")
    naturals = "+".join(str(n) for n in f.get("natural", []))
    actor = "The DM" if f.get("actor") == "dm" else name(f.get("actor"))
    actor = actor[:1].upper() + actor[1:]  # a sentence's first word (the trap at ...)
    where = f" in the {f['corridor']}" if "corridor" in f else ""
    return (
        f"{actor} rolls {naturals}{_mods(f.get('modifiers', {}))} {what}{where}"
        f" -> {f.get('outcome')}"
    )


def _fight(f: Fields) -> str:
    h_total = f["hero_score"] + sum(f["hero_dice"]) + f["hero_stamina"]
    m_total = f["monster_score"] + sum(f["monster_dice"]) + f["monster_stamina"]
    winner = {"hero": name(f["hero"]), "monster": name(f["monster"])}.get(f["winner"], "nobody")
    cast = " (casting: double ones)" if f.get("casting") else ""
    return (
        f"{name(f['hero'])} fights {name(f['monster'])}: "
        f"{f['hero_score']}{_dice(f['hero_dice'])}+{f['hero_stamina']} stamina = {h_total}"
        f" vs {f['monster_score']}{_dice(f['monster_dice'])}+{f['monster_stamina']} = {m_total}"
        f"{cast}; {winner} wins"
    )


def _dice(dice: list[int]) -> str:
    return f" + [{dice[0]},{dice[1]}]"


FORMATS: dict[str, Callable[[Fields], str | None]] = {
    "adventure.started": lambda f: (
        f"The adventure {f['adventure']} begins with {f['light']} turns of Light."
    ),
    "area.revealed": lambda f: f"The heroes see the {f['area']} ({f['kind']}).",
    "roll": _roll,
    "fight": _fight,
    "damage": lambda f: (
        f"{name(f['target'])} takes {f['amount']} damage from "
        f"{', '.join(name(b) for b in f['by'])} (Health {f['health']})."
    ),
    "monster.slain": lambda f: (
        f"{name(f['monster'])} is slain by {', '.join(name(b) for b in f['by'])}."
    ),
    "deaths_door": lambda f: f"{name(f['hero'])} falls to Death's Door.",
    "hero.died": lambda f: f"{name(f['hero'])} dies at {sq(f['at'])}.",
    "hero.left": lambda f: f"{name(f['hero'])} leaves the dungeon.",
    "monster.appeared": lambda f: (
        f"{name(f['monster'])} ({f['encounter']}) appears at {sq(f['at'])}."
    ),
    "monster.seen": lambda f: f"{name(f['monster'])} comes into sight at {sq(f['at'])}.",
    "monster.hidden": lambda f: f"{name(f['monster'])} goes out of sight.",
    "patrol.appeared": lambda f: f"A patrol appears in the {f['corridor']}!",
    "monsters.surprised": lambda f: (
        f"The monsters are surprised: {', '.join(name(m) for m in f['monsters'])}."
    ),
    "surprise.denied": lambda f: (
        f"{name(f['monster'])} cannot be surprised (the door jammed earlier)."
    ),
    "guard.roused": lambda f: f"{name(f['monster'])} spots {name(f['by'])}.",
    "trap.sprung": lambda f: f"A {f['trap']} trap springs on {name(f['victim'])} at {sq(f['at'])}!",
    "traps.detected": lambda f: (
        f"{name(f['hero'])} "
        + (
            f"finds traps at {', '.join(sq(s) for s in f['squares'])}."
            if f["found"]
            else "finds no trap."
        )
    ),
    "door.opened": lambda f: f"{name(f['by'])} forces the door at {sq(f['door'])} open.",
    "text.read": lambda f: f'The DM reads ({f["area"]}): "{f["text"]}"',
    "item.found": lambda f: (
        f"{name(f['hero'])} takes "
        + (f"a {name(f['card'])}." if f.get("card") else "an unidentified item.")
    ),
    "spell.cast": lambda f: (
        f"{name(f['hero'])} casts {name(f['spell'])}"
        + (" (overcast)" if f.get("overcast") else "")
        + (f" on {name(f['target'])}." if f.get("target") else ".")
    ),
    "casting.begun": lambda f: (
        f"{name(f['hero'])} begins "
        + (f"casting {name(f['spell'])}" if f.get("spell") else "reading a scroll")
        + (" (overcast)." if f.get("overcast") else ".")
    ),
    "spell.fizzled": lambda f: (
        f"{name(f['hero'])}'s "
        + (name(f["spell"]) if f.get("spell") else "spell")
        + f" comes to nothing: {FIZZLES.get(f.get('reason', ''), f.get('reason', ''))}."
        + (" The scroll is used up." if f.get("scroll_spent") else "")
    ),
    "spell.failed": lambda f: f"{name(f['hero'])} lets the spell fail to fight freely.",
    "spell.lost": lambda f: f"{name(f['hero'])} evades and loses the spell.",
    "spell.memorized": lambda f: f"{name(f['hero'])} memorizes {name(f['spell'])}.",
    "rest.started": lambda f: f"{name(f['hero'])} rests.",
    # R-C-REST-01: a fight breaks a rest (no rest benefits, and the Death's Door roll is
    # made after all).
    "rest.broken": lambda f: f"{name(f['hero'])} is drawn into a fight: the rest is broken.",
    # A player's reason (no rule IDs): told with --explain, and in the browser.
    "reason": lambda f: f"(why, {f['seat']}: {f['reason']})",
    "exhausted": lambda f: f"{name(f['actor'])} is Exhausted.",
    "corpse.eaten": lambda f: f"Left alone, the corpse of {name(f['corpse'])} is looted and eaten.",
    "corpse.rescued": lambda f: f"{name(f['hero'])} carries {name(f['corpse'])}'s body out.",
    "secret.revealed": lambda f: f"A secret room is revealed: the {f['area']}!",
    "exit.opened": lambda f: "A new way out opens.",
    "goal.met": lambda f: f"Goal achieved: {f['goal']}.",
    "light.changed": lambda f: f"The Light is now {f['light']}.",
    "item.traded": lambda f: f"{name(f['giver'])} passes an item to {name(f['receiver'])}.",
    # A face-down card used blind shows what it was (C-IDENT-03).
    "item.used": lambda f: (
        f"{name(f['hero'])} uses "
        + (
            f"a face-down card: a {name(f['card'])}."
            if f.get("blind")
            else f"the {name(f['card'])}."
        )
    ),
    "adventure.ended": lambda f: f"The adventure ends: {f['outcome']}.",
    # Told since 2026-12-07 (before, the account left them out: a monster's curse showed
    # only as the rolls it began, a heal only as the spell).
    "monster.ability": lambda f: (
        f"{name(f['monster'])} uses {f['ability']} on {name(f['target'])}."
    ),
    "healed": lambda f: f"{name(f['hero'])} is healed (Health {f['health']}).",
    "stamina.restored": lambda f: f"{name(f['hero'])} regains Stamina ({f['stamina']}).",
    "choice.made": lambda f: f"The heroes choose: {f['label']}.",
    "text.hero": lambda f: f"{name(f['hero'])} takes up the text.",
    "trait.tested": lambda f: (
        f"{name(f['hero'])} is {'' if f['passed'] else 'not '}{f['trait']}: the test is "
        + ("passed." if f["passed"] else "failed.")
    ),
    "scroll.read": lambda f: f"{name(f['hero'])} reads the scroll: {name(f['spell'])}.",
    "casting.kept": lambda f: f"{name(f['hero'])} keeps the spell and fights on double ones.",
    "spell.forgotten": lambda f: f"{name(f['hero'])} forgets {name(f['spell'])}.",
    "corpse.dragged": lambda f: f"{name(f['hero'])} drags the body of {name(f['corpse'])}.",
    "items.identified": lambda f: (
        "Out of the dungeon, the cards turn face up: "
        + ", ".join(f"{name(i['holder'])}'s {name(i['card'])}" for i in f["items"])
        + "."
    ),
    "deaths_door.skipped": lambda f: f"{name(f['hero'])} rested: no Death's Door roll this turn.",
    "patrols.stopped": lambda f: (
        "No patrol roll: every room is revealed, and no more patrols come."
    ),
}


class NarrationError(ValueError):
    """An event the account cannot tell: a field it needs is missing or of the wrong type
    (a log edited by hand, or not written by undercroft)."""

    def __init__(self, entry: LogEntry, cause: Exception) -> None:
        self.entry = entry
        if isinstance(cause, KeyError):
            what = f"the field {cause.args[0]!r} is missing"
        else:
            what = f"a field has the wrong type or value ({cause})"
        super().__init__(f"the {entry.event.type!r} event (seq {entry.seq}): {what}")


def narrate(log: EventLog, *, explain: bool = False) -> Iterator[str]:
    """The account of a game, line by line; :class:`NarrationError` names an event it
    cannot tell."""
    turn = None
    moves: dict[str, tuple[int, list[int]]] = {}
    patrols_told = False  # each Turn Start says it again: told once, but with explain

    def flush() -> Iterator[str]:
        for actor, (count, last) in moves.items():
            yield f"  {name(actor)} moves {count} square{'s' if count != 1 else ''} to {sq(last)}."
        moves.clear()

    for entry in log.entries:
        time = entry.time
        current = getattr(time, "turn", None)
        if current != turn:
            yield from flush()
            turn = current
            yield f"Turn {turn}"
        event = entry.event
        try:
            if event.type in ("moved", "monster.moved"):
                actor = str(event.fields.get("actor") or event.fields.get("monster"))
                count, _ = moves.get(actor, (0, []))
                step = int(event.fields.get("squares", 1))
                moves[actor] = (count + step, list(event.fields["to"]))
                continue
            if not explain and (_routine(entry) or event.type == "reason"):
                continue
            if event.type == "patrols.stopped":
                if patrols_told and not explain:
                    continue
                patrols_told = True
            line = describe(entry)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise NarrationError(entry, exc) from None
        if line is None:
            continue
        yield from flush()
        if explain and event.rules:
            line += f"  [{', '.join(event.rules)}]"
        yield f"  {line}"
    yield from flush()


def _routine(entry: LogEntry) -> bool:
    """Rolls that changed nothing, told only with ``explain``: a Detect Traps number, a
    trap search that found nothing, a patrol roll that brought no patrol."""
    event, fields = entry.event, entry.event.fields
    if event.type == "roll" and "C-TRAP-01" in event.rules:
        return True
    if event.type == "traps.detected" and not fields.get("found"):
        return True
    return event.type == "roll" and "C-MON-03" in event.rules and fields.get("outcome") == "none"


def describe(entry: LogEntry) -> str | None:
    """One event as a sentence, or ``None`` for bookkeeping events."""
    event = entry.event
    fmt = FORMATS.get(event.type)
    if fmt is None:
        return None
    fields = dict(event.fields)
    fields["_rules"] = list(event.rules)
    return fmt(fields)


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """The headline results of a run: the outcome, who escaped and died, the treasure,
    and whether the adventure was won (C-END-01: complete, and every goal met) with the
    goals met and failed."""
    treasure = f"Treasure carried out: {summary.get('treasure', 0)}"
    lines = [
        f"Outcome: {summary.get('outcome')}   turns: {summary.get('turns')}   "
        f"Light left: {summary.get('light')}"
        + (f"   ({summary['reason']})" if summary.get("reason") else ""),
        "Escaped: " + (", ".join(name(h) for h in summary.get("escaped", [])) or "nobody"),
        "Dead: " + (", ".join(name(h) for h in summary.get("dead", [])) or "nobody"),
    ]
    if "won" not in summary:  # a log written before summaries said whether it was won
        goals = summary.get("goals")
        return [*lines, treasure + (f"   goals: {', '.join(goals)}" if goals else "")]
    met = ", ".join(summary.get("goals_met", [])) or "none"
    failed = ", ".join(summary.get("goals_failed", [])) or "none"
    verdict = "won" if summary["won"] else "not won"
    return [*lines, treasure, f"Adventure {verdict}   goals met: {met}   goals failed: {failed}"]
