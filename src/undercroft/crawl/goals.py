"""Adventure goals beyond getting out (C-END-01), judged when the adventure ends.

An adventure's ``[[goal]]`` entries have a kind and a target:

``slay``   the target is a monster kind: met if at least one monster of that kind came
           onto the board and none is left on it (monsters leave the board only by dying)
``carry``  the target is an item card: met if a hero who left the dungeon holds one
``visit``  the target is an area: met only by a ``goal`` effect in a room text (the
           content check insists that one names the goal)

A ``goal`` effect meets any goal at once, whatever its kind. :func:`judge_goals` runs in
:meth:`undercroft.crawl.state.State.finish`, after C-IDENT-02 has turned every item face up.
"""

from __future__ import annotations

from undercroft.crawl.engine import closing
from undercroft.crawl.explore import identify_at_end
from undercroft.crawl.ruleset import Goal
from undercroft.crawl.state import State


def goal_met(state: State, goal: Goal) -> bool:
    """Whether ``goal`` holds now (``visit`` goals only once a text has met them)."""
    if goal.id in state.goals_met:
        return True
    if goal.kind == "slay":
        appeared = state.counters.get(f"monster:{goal.target}", 0) > 0
        return appeared and not any(m.kind == goal.target for m in state.monsters.values())
    if goal.kind == "carry":
        return any(
            state.items[uid].card == goal.target
            for hero in state.heroes.values()
            if hero.left
            for uid in hero.items
        )
    return False


def judge_goals(state: State) -> None:
    """Add every slay and carry goal that holds to ``state.goals_met`` (C-END-01)."""
    for goal in state.ruleset.adventure.goals:
        if goal.id not in state.goals_met and goal_met(state, goal):
            state.goals_met.add(goal.id)
            state.emit("goal.met", ["C-END-01"], goal=goal.id, judged=goal.kind)


@closing
def adventure_over(state: State) -> None:
    """When the adventure ends: every face-down item is turned up (C-IDENT-02), then the
    slay and carry goals are judged (C-END-01), with what the items really are."""
    identify_at_end(state)
    judge_goals(state)
