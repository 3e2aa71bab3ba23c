"""What became of every adventurer who came, read from the log's events (``docs/events.md``).

An adventurer who arrived with an invasion (a member of its ``invasion.arrived``) is under
exactly one fate at any moment:

* ``inside``: in the dungeon and free (from its arrival, and again once freed by a later
  group, ``prisoner.freed``, K-AFTER-01);
* ``dead``: ``being.died`` (K-KO-02), a prisoner who bled to death included;
* ``captured``: ``adventurer.captured``, held as a prisoner (K-AFTER-02);
* ``escaped``: ``adventurer.left``, walked out alive (K-AFTER-01).

It stays counted with the invasion it came with, even when a later group frees it and it
walks out with them, so each invasion's fates add up to its size and the invasions' add up
to every adventurer who came. Prisoners a scenario starts with never arrived: they are not
counted. The batch tables (``analysis.keep_metrics``), the invasion account and the demo
(``render.keep_account``) all count with this, so their numbers agree.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from undercroft.core.events import Event

FATES = ("dead", "captured", "escaped", "inside")

_MOVES = {
    "being.died": ("being", "dead"),
    "adventurer.captured": ("adventurer", "captured"),
    "adventurer.left": ("adventurer", "escaped"),
    "prisoner.freed": ("prisoner", "inside"),
}
"""The events that change a fate: the field naming the adventurer, and its new fate."""


@dataclass
class Fates:
    """Every arrived adventurer's invasion and current fate (feed it every event)."""

    came_with: dict[str, int] = field(default_factory=dict)
    """Adventurer id -> the number of the invasion it arrived with."""
    fate: dict[str, str] = field(default_factory=dict)

    def read(self, event: Event) -> None:
        if event.type == "invasion.arrived":
            number = int(event.fields["number"])
            for member in event.fields.get("members", []):
                self.came_with[str(member["id"])] = number
                self.fate[str(member["id"])] = "inside"
            return
        move = _MOVES.get(event.type)
        if move is not None:
            who = str(event.fields.get(move[0]))
            if who in self.fate:
                self.fate[who] = move[1]

    def by_invasion(self) -> dict[int, Counter[str]]:
        """Per invasion number, the fates of the members it arrived with."""
        out: dict[int, Counter[str]] = {}
        for who, number in self.came_with.items():
            out.setdefault(number, Counter())[self.fate[who]] += 1
        return out

    def totals(self) -> Counter[str]:
        """The fates of every adventurer who came."""
        return Counter(self.fate.values())
