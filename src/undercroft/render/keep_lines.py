"""A sentence for every keep event: what the keep viewer lists and its replay tells.

``sentence(event, names)`` reads only the event and the names learned so far (a pure
function of the log), so the live viewer and a replay of the same log say the same thing.
Beings are named by breed or class and number (``minion:3``, an orc: ``Orc 3``; ``adv:61-2``,
a ranger: ``Ranger 61-2``), structures by kind and number (``trap:1``, spinning blades:
``spinning blades 1``), squares as ``(x,y)``. :class:`Names` learns them from the log's
header and from the events that bring new beings and structures (docs/events.md); an id
it never learned is named from the id alone (``Minion 3``). No sentence shows a field as
JSON: lists are joined, objects spelled out, ``True``/``None`` put in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from undercroft.core.events import MINUTES_PER_DAY, Event

Fields = Mapping[str, Any]
SPECIAL = {
    "master": "the Master",
    "keeper": "the keeper",
    "director": "the director",
    "ghost_eye": "the ghost eye",
    "sanctum": "the sanctum",
    "portal": "a portal",
}
BEINGS = {"minion": "Minion", "adv": "Adventurer", "creature": "Creature", "merchant": "Merchant"}
"""Id prefixes of beings, and the word for one whose breed is not known."""


def words(value: Any) -> str:
    """A word of the rules (``pressure_plate``) as prose (``pressure plate``)."""
    return str(value).replace("_", " ")


def sq(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"({value[0]},{value[1]})"
    return plain(value)


def times(count: Any, noun: str) -> str:
    """``1 attempt``, ``3 attempts``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def hhmm(minute: Any) -> str:
    rest = int(minute) % MINUTES_PER_DAY
    return f"{rest // 60:02d}:{rest % 60:02d}"


def plain(value: Any) -> str:
    """Any field value in words, never as JSON."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{words(k)} {plain(v)}" for k, v in value.items()) or "nothing"
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            return sq(value)
        return ", ".join(plain(v) for v in value) or "none"
    return words(value)


class Names:
    """The names of the ids a keep log mentions (see the module docstring)."""

    def __init__(self, lookup: Callable[[str], str | None] | None = None) -> None:
        self.known: dict[str, str] = {}
        self.lookup = lookup
        """Asked about an id not learned from the log (the live world's beings)."""

    def being(self, bid: Any, breed: Any) -> None:
        if breed and ":" in str(bid):  # the Master is "the Master", whatever its breed
            _, _, number = str(bid).partition(":")
            self.known[str(bid)] = f"{words(breed).title()} {number}".strip()

    def structure(self, sid: Any, kind: Any, label: Any = None) -> None:
        if label:
            self.known[str(sid)] = str(label)
        elif kind:
            prefix, _, number = str(sid).partition(":")
            if words(kind) != prefix:
                self.known[str(sid)] = f"{words(kind)} {number}"

    def actors(self, actors: Iterable[Mapping[str, Any]]) -> Names:
        """Learn from a header's actors (``{"id", "kind", ...profile}``)."""
        for a in actors:
            if "structure" in a:
                self.structure(a["id"], a["structure"], a.get("name"))
            else:
                self.being(a["id"], a.get("breed") or a.get("class"))
        return self

    def learn(self, event: Event) -> None:
        """Learn the beings and structures an event brings."""
        f = event.fields
        if event.type == "invasion.arrived":
            for m in f.get("members", []):
                self.being(m.get("id"), m.get("class"))
        elif event.type == "visitor.arrived":
            self.being(f.get("visitor"), f.get("breed"))
        elif event.type == "creatures.summoned":
            for cid in f.get("creatures", []):
                self.being(cid, f.get("breed"))
        elif event.type == "structure.built":
            self.structure(f.get("structure"), f.get("kind"))

    def __call__(self, value: Any) -> str:
        if value is None:
            return "nobody"
        if isinstance(value, list | tuple):
            return (
                sq(value)
                if len(value) == 2 and all(isinstance(v, int) for v in value)
                else (", ".join(self(v) for v in value) or "nobody")
            )
        text = str(value)
        if text in self.known:
            return self.known[text]
        if text in SPECIAL:
            return SPECIAL[text]
        found = self.lookup(text) if self.lookup is not None else None
        if found:
            return found
        prefix, colon, rest = text.partition(":")
        if not colon:
            return words(text)
        if prefix in BEINGS:
            return f"{BEINGS[prefix]} {rest}"
        return f"{words(prefix)} {rest}"


Say = Callable[[Fields, Names], str]


def _roll(f: Fields, n: Names) -> str:
    dice = "+".join(str(d) for d in f.get("natural", []))
    mods = ", ".join(f"{words(k)} {v:+d}" for k, v in (f.get("modifiers") or {}).items())
    with_mods = f" ({mods})" if mods else ""
    return (
        f"{n(f.get('actor'))} rolls {dice} on {f.get('dice')}{with_mods}: "
        f"{plain(f.get('total'))}, {plain(f.get('outcome'))}"
    )


def _chance(f: Fields, n: Names) -> str:
    return f"{n(f.get('actor'))}'s draw: {plain(f.get('outcome'))} (chance {plain(f.get('p'))})"


VERBS: dict[str, Say] = {
    "build": lambda f, n: (
        f"build {words(f['kind'])} at {sq(f['at'])}"
        + (f": {n(f['site'])} marked out" if f.get("site") else "")
    ),
    "move": lambda f, n: (
        f"move {n(f['structure'])} to {sq(f['to'])}"
        + (f" from {sq(f['from'])}" if f.get("from") else "")
    ),
    "remove": lambda f, n: (
        f"remove {n(f['target'])}"
        + (f" (wires gone: {n(f['wires_removed'])})" if f.get("wires_removed") else "")
    ),
    "wire": lambda f, n: (
        f"wire {' to '.join(sq(p) for p in f['path'])}"
        + (f": {n(f['wire'])}" if f.get("wire") else "")
        + (
            f", joining {n(f['circuit'].get('trigger'))} to {n(f['circuit'].get('mechanism'))}"
            if isinstance(f.get("circuit"), Mapping) and f["circuit"].get("mechanism")
            else ""
        )
    ),
    "set_timer": lambda f, n: f"set {n(f['timer'])} to {f['minutes']} minutes",
    "arm_lock": lambda f, n: f"arm the lock on {n(f['door'])}",
    "disarm_lock": lambda f, n: f"disarm the lock on {n(f['door'])}",
    "hold_door_open": lambda f, n: f"{'hold' if f['hold'] else 'stop holding'} {n(f['door'])} open",
    "pull_lever": lambda f, n: (
        f"pull {n(f['lever'])}" + (f": it is {'on' if f['on'] else 'off'}" if "on" in f else "")
    ),
    "set_job": lambda f, n: f"set {n(f['minion'])} to the {words(f['job'])} job",
    "set_stance": lambda f, n: f"set {n(f['minion'])}'s stance to {words(f['stance'])}",
    "order_attack": lambda f, n: f"order {n(f['minion'])} to attack {n(f['target'])}",
    "rite_of_storms": lambda f, n: (
        "hold a Rite of Storms"
        + (f" of {f['hours']} hours" if f.get("hours") else "")
        + (f" until {hhmm(f['until'])}" if f.get("until") is not None else "")
    ),
    "answer_fugitive": lambda f, n: (
        f"{'take in' if f['accept'] else 'turn away'} the fugitive {words(f['fugitive'])}"
        + (f": its pursuers come {words(f['pursuers'])}" if f.get("pursuers") else "")
    ),
    "divine": lambda f, n: "divine the next invasion",
    "watchful_eye": lambda f, n: (
        "call on the Watchful Eye"
        + (f" until {hhmm(f['until'])}" if f.get("until") is not None else "")
    ),
}
"""What a keeper command asked, as the keeper would say it."""


def command_sentence(f: Fields, n: Names) -> str:
    """A keeper command and what came of it."""
    verb = str(f.get("command"))
    say = VERBS.get(verb)
    asked = say(f, n) if say is not None else words(verb)
    if f.get("accepted"):
        return f"The keeper orders: {asked}. Done."
    return f"The keeper orders: {asked}. Refused: {plain(f.get('reason'))}"


def _fired(f: Fields, n: Names) -> str:
    caught = n(f.get("caught") or []) if f.get("caught") else "nobody"
    how = {"set_off": "sets off", "lever": "pulls the lever of", "fumble": "fumbles"}
    who = n(f.get("by"))
    trap = n(f.get("trap"))
    if words(f.get("mechanism")) not in trap:
        trap += f" ({words(f.get('mechanism'))})"
    verb = how.get(str(f.get("cause")), "sets off")
    return f"{who} {verb} {trap} at {sq(f.get('at'))}: caught {caught}"


def _decision(f: Fields, n: Names) -> str:
    target = n(f.get("target"))
    what = {
        "attack": f"attacks {target}",
        "close_in": f"closes in on {target}",
        "wait": f"waits for {target}" if f.get("target") else "waits",
        "keep_away": f"keeps away from {target}",
        "flee": f"flees from {target}",
        "regroup": "regroups with its allies",
        "hold": "holds its ground",
        "carry_on": "leaves the fight",
    }.get(str(f.get("act")), words(f.get("act")))
    why = f": {f['why']}" if f.get("why") and f["why"] != what else ""
    return f"{n(f['being'])} ({words(f['stance'])}) {what}{why}"


def _learned(f: Fields, n: Names) -> str:
    parts = []
    for who in f.get("learners", []):
        gains = [f"{words(k)} +{v}" for k, v in (who.get("detect") or {}).items()]
        gains += [f"Block against {words(k)} +{v}" for k, v in (who.get("block") or {}).items()]
        parts.append(f"{n(who.get('id'))} ({', '.join(gains) or 'nothing new'})")
    return f"From {n(f.get('trap'))} at {sq(f.get('at'))} learned: {'; '.join(parts) or 'nobody'}"


def _members(members: Iterable[Mapping[str, Any]]) -> str:
    out = []
    for m in members:
        extra = m.get("traits") or m.get("abilities") or []
        tail = f" ({', '.join(words(t) for t in extra)})" if extra else ""
        out.append(f"{words(m.get('class')).title()} level {m.get('level')}{tail}")
    return ", ".join(out) or "nobody"


def _ended(f: Fields, n: Names) -> str:
    fates = [f"{len(f[k])} {k}" for k in ("escaped", "dead", "captured") if f.get(k)]
    told = f" ({', '.join(fates)})" if fates else ""
    limit = (
        f"; the next within {plain(f['limit_hours'])} hours"
        if f.get("limit_hours") is not None
        else ""
    )
    return f"Invasion {f['number']} is over after {f.get('minutes')} minutes{told}{limit}"


def _unconscious(f: Fields, n: Names) -> str:
    then = "bleeds to death" if f.get("bleeding") else "wakes"
    return (
        f"{n(f['being'])} is knocked out by {n(f.get('by'))} at {sq(f.get('at'))} "
        f"(it {then} at {hhmm(f['until'])} unless helped)"
    )


def _known(f: Fields, n: Names) -> str:
    how = {"seen": "seen", "hit": "struck by it", "noise": "heard"}.get(str(f.get("how")))
    return f"{n(f['being'])} learns of {n(f['foe'])} at {sq(f.get('at'))} ({how or 'told'})"


def _died(f: Fields, n: Names) -> str:
    cause = {
        "wounds": "of its wounds",
        "head": "of a head wound",
        "bleeding": "bleeding",
        "killed": "killed where it lay",
    }.get(str(f.get("cause")), words(f.get("cause")))
    return f"{n(f['being'])} dies {cause} at {sq(f.get('at'))} (by {n(f.get('by'))})"


SENTENCES: dict[str, Say] = {
    "roll": _roll,
    "chance": _chance,
    "command": command_sentence,
    "structure.built": lambda f, n: (
        f"{n(f.get('minion'))} finishes {n(f['structure'])} at {sq(f['at'])} "
        f"({words(f.get('quality'))} work)"
    ),
    "trap.fired": _fired,
    "part.expired": lambda f, n: (
        f"The {words(f.get('part'))} {n(f.get('structure'))} stops working "
        + ("(it went off)" if f.get("reason") == "used" else "(its time ran out)")
    ),
    "part.rearmed": lambda f, n: (
        f"{n(f.get('minion'))} rearms {n(f.get('structure'))}"
        + (f" after {f['waited']} minutes" if f.get("waited") is not None else "")
        + (", fumbling it" if f.get("fumble") else "")
    ),
    "part.fumbled": lambda f, n: (
        f"{n(f.get('minion'))} fumbles rearming {n(f.get('structure'))}: nothing happens"
    ),
    "door.opened": lambda f, n: f"{n(f.get('by'))} opens {n(f['door'])}",
    "door.closed": lambda f, n: f"{n(f.get('by'))} closes {n(f['door'])}",
    "lock.armed": lambda f, n: f"{n(f.get('by'))} arms the lock on {n(f['door'])}",
    "lock.disarmed": lambda f, n: f"{n(f.get('by'))} disarms the lock on {n(f['door'])}",
    "invasion.arrived": lambda f, n: (
        f"Invasion {f['number']} ({words(f.get('kind'))}) arrives"
        + (f" from {f['from']}" if f.get("from") else "")
        + (f" at {sq(f['portal'])}" if f.get("portal") else "")
        + f": {_members(f.get('members', []))}; goal: {words(f.get('goal'))}"
    ),
    "invasion.ended": _ended,
    "invasions.stopped": lambda f, n: f"Invasions stop ({words(f.get('reason'))})",
    "invasions.resumed": lambda f, n: "Invasions can come again",
    "invasion.limit": lambda f, n: (
        f"The time limit ran out while invasions were stopped: "
        f"a new one of {plain(f.get('limit_hours'))} hours"
    ),
    "invasion.announced": lambda f, n: (
        f"{words(f.get('kind')).capitalize()} are coming (from {words(f.get('source'))})"
    ),
    "invasion.sighted": lambda f, n: (
        f"Invasion {f['number']} is sighted by {n(f.get('by'))}: "
        f"{_members(f.get('members', []))}; goal: {words(f.get('goal'))}"
    ),
    "invasion.shown": lambda f, n: (
        f"The torch of {n(f.get('post'))} shows invasion {f['number']} ({n(f.get('adventurer'))})"
    ),
    "invasion.goal": lambda f, n: (
        f"Invasion {f['number']}: "
        + {
            "met": f"its goal is met ({words(f.get('goal'))})",
            "master_dead": "finds the Master dead and scatters for treasure",
            "out_of_reach": "cannot reach its goal",
            "gone": f"its goal is gone; now: {words(f.get('now'))}",
        }.get(str(f.get("outcome")), words(f.get("outcome")))
    ),
    "invasion.divined": lambda f, n: (
        f"A divination shows the next group: {_members(f.get('members', []))}"
        f" from {words(f.get('from'))}, goal {words(f.get('goal'))}"
    ),
    "adventurer.left": lambda f, n: (
        f"{n(f['adventurer'])} walks out"
        + (f" with {f['treasure']} treasure" if f.get("treasure") else "")
    ),
    "adventurer.stuck": lambda f, n: f"{n(f['adventurer'])} finds no way anywhere",
    "door.forcing": lambda f, n: (
        f"Invasion {f['group']} sets {n(f.get('adventurer'))} to "
        f"{'pick' if f.get('method') == 'pick' else 'bash'} {n(f['door'])} "
        f"({words(f.get('reason'))})"
    ),
    "door.forced": lambda f, n: (
        f"{n(f.get('by'))} {'picks' if f.get('method') == 'pick' else 'bashes'} "
        f"{n(f['door'])} open after {times(f.get('attempts'), 'attempt')}, "
        f"{times(f.get('minutes'), 'minute')}"
    ),
    "door.given_up": lambda f, n: (
        f"Invasion {f['group']} gives up on {n(f['door'])} "
        f"after {times(f.get('attempts'), 'attempt')}"
    ),
    "trigger.discovered": lambda f, n: (
        f"{n(f['adventurer'])} discovers {n(f['trigger'])} at {sq(f.get('at'))}"
        + (f" and tells {n(f['learned'])}" if f.get("learned") else "")
    ),
    "trigger.detected": lambda f, n: (
        f"{n(f['adventurer'])}'s Detect Traps shows invasion {f.get('group')} "
        f"{n(f.get('triggers') or [])}"
    ),
    "trigger.stepped_over": lambda f, n: (
        f"{n(f['adventurer'])} steps over {n(f['trigger'])} at {sq(f.get('at'))}"
    ),
    "trigger.disarmed": lambda f, n: (
        f"Invasion {f.get('group')}: {n(f['trigger'])} "
        + {
            "disarmed": f"disarmed by {n(f.get('by'))}",
            "set_off": f"set off by {n(f.get('by'))} fumbling",
            "walked_over": "walked over",
        }.get(str(f.get("outcome")), words(f.get("outcome")))
    ),
    "adventurers.learned": _learned,
    "group.caution": lambda f, n: (
        f"Invasion {f['group']} grows cautious: Caution +{f['caution']} ({words(f['reason'])})"
        if f.get("caution")
        else f"Invasion {f['group']} is no longer cautious ({words(f.get('reason'))})"
    ),
    "treasure.taken": lambda f, n: (
        f"{n(f['adventurer'])} takes {f['amount']} treasure ({f.get('left')} left)"
    ),
    "prisoner.freed": lambda f, n: f"{n(f.get('by'))} frees {n(f['prisoner'])}",
    "altar.wrecked": lambda f, n: f"{n(f.get('by'))} wrecks {n(f['altar'])}",
    "rite.ended": lambda f, n: "The Rite of Storms is over",
    "surface.cut": lambda f, n: (
        "The way from the Surface is cut" if f.get("cut") else "The way from the Surface is open"
    ),
    "camp.relation": lambda f, n: f"The camp {words(f['camp'])} is now {words(f['relation'])}",
    "fugitive.asked": lambda f, n: f"The fugitive {words(f['fugitive'])} asks to hide here",
    "wound": lambda f, n: (
        f"{n(f['source'])} wounds {n(f['target'])} with {words(f.get('weapon'))}: "
        f"{words(f.get('level'))} {words(f.get('location'))} wound, "
        f"{f.get('total')} of 10 wound points"
    ),
    "attack": lambda f, n: (
        f"{n(f['attacker'])} {'shoots at' if f.get('ranged') else 'attacks'} {n(f['target'])} "
        f"with {words(f.get('weapon'))} and {'hits' if f.get('hit') else 'misses'}"
    ),
    "foe.known": _known,
    "noise": lambda f, n: (
        f"A noise ({words(f.get('cause'))}) at {sq(f.get('at'))}"
        + (
            f": {n(f['heard'])} hear where {n(f['enemies'])} are"
            if f.get("heard") and f.get("enemies")
            else ""
        )
    ),
    "fighter.decision": _decision,
    "being.unconscious": _unconscious,
    "being.died": _died,
    "being.woke": lambda f, n: (
        f"{n(f['being'])} wakes" + (" (healed)" if f.get("how") == "healed" else "")
    ),
    "being.healed": lambda f, n: f"{n(f.get('by'))} heals {n(f['being'])}",
    "being.killed": lambda f, n: f"{n(f.get('by'))} kills {n(f['being'])} where it lies",
    "being.carried": lambda f, n: f"{n(f.get('by'))} carries {n(f['being'])} off",
    "being.laid": lambda f, n: (
        f"{n(f.get('by'))} lays {n(f['being'])} "
        + ("in its bed" if f.get("where") == "bed" else f"down at {sq(f.get('at'))}")
    ),
    "adventurer.captured": lambda f, n: (
        f"{n(f.get('by'))} captures {n(f['adventurer'])}: a prisoner at {sq(f.get('at'))}"
    ),
    "body.butchered": lambda f, n: f"{n(f.get('by'))} butchers the body of {n(f['body'])}",
    "body.burned": lambda f, n: f"{n(f.get('by'))} burns the body of {n(f['body'])}",
    "being.held": lambda f, n: (
        f"{n(f['being'])} is held by the web of {n(f.get('by'))} until {hhmm(f['until'])}"
    ),
    "being.terrified": lambda f, n: (
        f"{n(f['being'])} flees in terror from {n(f.get('by'))} until {hhmm(f['until'])}"
    ),
    "gas.cloud": lambda f, n: (
        f"{n(f.get('trap'))} fills the air around {sq(f.get('at'))} with gas "
        f"until {hhmm(f['until'])}"
    ),
    "creatures.summoned": lambda f, n: (
        f"{n(f.get('trap'))} releases {n(f.get('creatures') or [])} until {hhmm(f['until'])}"
    ),
    "creature.gone": lambda f, n: f"{n(f['creature'])}'s time is up: it is gone",
    "metal.delivered": lambda f, n: (
        f"{n(f.get('minion'))} brings {f.get('metal')} metal to {n(f.get('site'))} "
        f"(for {words(f.get('kind'))})"
    ),
    "visitor.arrived": lambda f, n: (
        f"{n(f['visitor'])} ({words(f.get('side'))}) walks in at {sq(f.get('at'))}"
    ),
    "visitor.left": lambda f, n: f"{n(f['visitor'])} walks back out",
    "creature.settled": lambda f, n: (
        f"{n(f['creature'])} settles in the {words(f.get('lair'))} and joins your dungeon"
    ),
    "minion.rage": lambda f, n: (
        f"{n(f['minion'])} goes into a Blind Rage"
        if f.get("blind_rage")
        else f"{n(f['minion'])} comes out of its Blind Rage"
    ),
    "script.failed": lambda f, n: (
        f"The scenario's {words(f.get('do'))} at {plain(f.get('when'))} could not be done: "
        f"{plain(f.get('reason'))}"
    ),
}
"""A sentence per keep event type (docs/events.md)."""


def sentence(event: Event, names: Names | None = None) -> str:
    """The event as a sentence; a type this reader does not know (a newer log) is told
    by its type and fields in words."""
    n = names if names is not None else Names()
    say = SENTENCES.get(event.type)
    try:
        if say is not None:
            text = say(event.fields, n)
            return text[:1].upper() + text[1:]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        pass  # a field missing or odd (a log edited by hand): told in words below
    told = "; ".join(f"{words(k)} {plain(v)}" for k, v in event.fields.items())
    return f"{words(event.type).capitalize()}" + (f": {told}" if told else "")
