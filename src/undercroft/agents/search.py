"""``search``: the heroes' seat played by information-set Monte Carlo tree search over the
careful party's candidate moves (docs/players.md, docs/rl.md "The search agent").

The design, and why:

Candidates (macro-actions)
    A crawl game is several hundred decisions, most of them one hero's step, and a
    primitive tree that deep is out of reach at any budget a game can afford. So the
    search chooses among *ways of playing*: a few variants of the careful party
    (:data:`VARIANTS`: the default, and ones that retreat, fight apart, engage by
    score, hold their ground) each propose an action for the decision at hand. Where
    they all propose the same action the decision is trivial and the default careful
    party's is played at once (its reason is logged); otherwise each distinct action is
    an arm of the root, played on in a rollout by the variant that proposed it. With
    ``width`` set, a decision with at most that many legal actions makes every one an arm
    (played on by the default party).
Information sets (determinization)
    The policy reads only the heroes' view the runner hands it. Each simulation draws a
    game consistent with that view, :func:`undercroft.crawl.resample.determinize` (which
    redraws what the heroes cannot see: which face-down card is which, where monsters
    out of sight stand, where the undetected traps are and which unrevealed room each
    unmet guard waits in; it keeps the adventure's board and texts, and how many traps
    and guards are left). Its draw is a function of the heroes' view and moves, so the
    search's decisions do not depend on the hidden facts either.
Selection and rollouts
    UCB1 over the root's arms (single-observer ISMCTS with one tree level: below the
    root the careful party, fed every decision so its memory is the party's, plays the
    heroes and the ``master`` DM the monsters). Chance nodes are rolled with fair dice,
    which is their exact distribution (every chance node is n fair d6). A rollout stops
    at the end of the game or ``depth`` turns on (0: the end) and scores the state:
    1 for a won adventure, 0 for one lost, else a heuristic in (0.1, 0.9) from the goals
    met, the party's Health, heroes alive and Light left (:func:`score`).

``budget`` simulations a searched decision; seeds come from the policy's sampler and a
count of decisions, so a game is reproducible from its seed. Knobs:
``search[budget=16,depth=2]`` (:class:`SearchKnobs`).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from undercroft.agents.careful import CarefulParty
from undercroft.agents.knobs import CarefulKnobs, KnobError, MasterKnobs, policy_name
from undercroft.agents.master import Master
from undercroft.agents.plan import Memory
from undercroft.core.dice import DiceSampler, derive_seed
from undercroft.crawl.actions import Action, Roll
from undercroft.crawl.engine import Seat
from undercroft.crawl.goals import goal_met
from undercroft.crawl.observe import View, ViewLike
from undercroft.crawl.resample import determinize
from undercroft.crawl.state import State

VARIANTS: Final[tuple[tuple[str, CarefulKnobs], ...]] = (
    ("careful", CarefulKnobs()),
    ("careful[retreat=2]", CarefulKnobs(retreat=2)),
    ("careful[team=0]", CarefulKnobs(team=0)),
    ("careful[engage=1]", CarefulKnobs(engage=1)),
    ("careful[hold=1]", CarefulKnobs(hold=1)),
)
"""The ways of playing whose moves are the root's candidates (the first is the default
party, which also plays every trivial decision)."""
EXPLORATION: Final = 0.5
"""UCB1's exploration constant (values lie in [0, 1])."""
MAX_ROLLOUT: Final = 20_000
"""A safety cap on the decisions of one rollout."""


@dataclass(frozen=True)
class SearchKnobs:
    """How the ``search`` party searches (docs/players.md)."""

    budget: int = 32
    """Simulations (determinized rollouts) at each decision where the candidates differ."""
    depth: int = 3
    """Turns a rollout plays before it is scored (0: to the end of the adventure)."""
    width: int = 0
    """A decision with at most this many legal actions makes each an arm (0: never)."""


RANGES: Final = {"budget": (1, 4096), "depth": (0, 100), "width": (0, 20)}


def search_knobs(settings: dict[str, str]) -> SearchKnobs:
    """The knobs ``settings`` (knob -> text) set, each checked (a :class:`KnobError`)."""
    changes: dict[str, int] = {}
    names = [f.name for f in fields(SearchKnobs)]
    allowed = ", ".join(f"{k}={RANGES[k][0]}..{RANGES[k][1]}" for k in names)
    for key, text in settings.items():
        if key not in RANGES:
            raise KnobError(f"search: no knob {key!r}; knobs: {allowed}")
        try:
            value = int(text)
        except ValueError:
            raise KnobError(f"search: {key}={text!r} is not a whole number") from None
        low, high = RANGES[key]
        if not low <= value <= high:
            raise KnobError(f"search: {key}={value} is out of range {low}..{high}")
        changes[key] = value
    return replace(SearchKnobs(), **changes)


def search_name(settings: dict[str, str]) -> str:
    """The name ``search[...]`` is registered under (its knobs checked and sorted)."""
    search_knobs(settings)
    return policy_name("search", settings)


@dataclass
class Arm:
    """One root action, the variant that plays on after it, and its tally."""

    action: Action
    variant: int
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class SearchParty:
    """The heroes played by search (see the module docstring)."""

    rng: DiceSampler
    knobs: SearchKnobs = field(default_factory=SearchKnobs)
    reason: str = ""
    searched: int = 0
    """Decisions searched so far this game (a part of each simulation's seed)."""
    parties: list[CarefulParty] = field(default_factory=list)
    reads_views = True
    """The runner may hand it a lazy :class:`~undercroft.crawl.observe.View`."""

    def __post_init__(self) -> None:
        # The default party draws from the policy's own sampler, as ``careful`` would on
        # the same seed; the variants and the search from samplers derived from it.
        seed = self.rng.seed
        self.parties = [CarefulParty(self.rng, knobs=VARIANTS[0][1])]
        for i, (_, knobs) in enumerate(VARIANTS[1:], start=1):
            self.parties.append(CarefulParty(DiceSampler(derive_seed(seed, i)), knobs=knobs))

    def act(self, obs: ViewLike) -> Action:
        # Every variant sees every decision, so its memory is the party's.
        proposed = [party.act(obs) for party in self.parties]
        arms: list[Arm] = []
        for i, action in enumerate(proposed):
            if all(a.action != action for a in arms):
                arms.append(Arm(action, i))
        if 1 < len(obs.legal) <= self.knobs.width:
            for action in obs.legal:
                if all(a.action != action for a in arms):
                    arms.append(Arm(action, 0))
        default = self.parties[0]
        if len(arms) == 1 or not isinstance(obs, View):
            # Trivial (or a snapshot, which holds no game to draw from): careful's move.
            self.reason = default.reason
            return proposed[0]
        self.searched += 1
        base = derive_seed(self.rng.seed, 1_000_000 + self.searched)
        for i in range(self.knobs.budget):
            arm = select(arms, i)
            arm.total += self.simulate(obs, arm, derive_seed(base, i))
            arm.visits += 1
        best = max(arms, key=lambda a: (a.mean, a.visits, -arms.index(a)))
        kept = arms[0]
        if best is kept:
            self.reason = (
                f"search: careful's {kept.action.describe()} ({kept.mean:.2f} over "
                f"{kept.visits}) is best of {len(arms)}; {default.reason}"
            )
        else:
            self.reason = (
                f"search: {best.action.describe()} as {VARIANTS[best.variant][0]} "
                f"({best.mean:.2f} over {best.visits}) over careful's "
                f"{kept.action.describe()} ({kept.mean:.2f} over {kept.visits})"
            )
        return best.action

    def simulate(self, obs: View, arm: Arm, seed: int) -> float:
        """One simulation: a game drawn from the heroes' view, the arm's action, and a
        rollout by the arm's variant and ``master``, scored."""
        state = determinize(obs, seed)
        start_turn = state.turn
        state.apply(arm.action)
        heroes = fork(self.parties[arm.variant])
        dm = Master(DiceSampler(derive_seed(seed, 2)), knobs=MasterKnobs())
        until = start_turn + self.knobs.depth if self.knobs.depth else None
        rollout(state, heroes, dm, DiceSampler(derive_seed(seed, 3)), until)
        return score(state)


def fork(party: CarefulParty) -> CarefulParty:
    """A copy of ``party`` to play a rollout, its memory and sampler its own; without
    its cached path searches (``searches``: made again as needed, and most of the cost
    of a deep copy)."""
    notes = {k: v for k, v in party.notes.items() if k not in ("searches", "memory")}
    # Through the dataclass's constructor, not ``copy.copy``: the compiled build's base
    # class keeps its fields in slots that a shallow copy of the subclass would drop.
    twin = dataclasses.replace(party, rng=copy.deepcopy(party.rng), notes=containers(notes))
    memory = party.notes.get("memory")
    if isinstance(memory, Memory):
        # The remembered board is all the memory holds (its shape and caches follow).
        twin.notes["memory"] = Memory(memory.codes, memory.width)
    return twin


def containers(value: Any) -> Any:
    """``value`` with its dicts, lists and sets copied all the way down, and the rest
    (actions, squares, numbers, text: immutable) shared. The party's notes hold only
    these; ``copy.deepcopy`` would also copy the frozen actions, which the compiled build
    cannot."""
    if isinstance(value, dict):
        return {k: containers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [containers(v) for v in value]
    if isinstance(value, set):
        return {containers(v) for v in value}
    return value


def select(arms: Sequence[Arm], n: int) -> Arm:
    """UCB1: each arm once in order, then the best mean plus its exploration bonus."""
    for arm in arms:
        if not arm.visits:
            return arm
    log_n = math.log(n)
    return max(arms, key=lambda a: a.mean + EXPLORATION * math.sqrt(log_n / a.visits))


def rollout(
    state: State, heroes: CarefulParty, dm: Master, dice: DiceSampler, until: int | None
) -> None:
    """Play ``state`` on until it ends or turn ``until`` begins."""
    for _ in range(MAX_ROLLOUT):
        if state.is_terminal() or (until is not None and state.turn >= until):
            return
        seat = state.current_player()
        if seat is Seat.CHANCE:
            # Every chance node is n fair d6: rolling them samples its exact outcomes.
            assert state.pending is not None
            state.apply(Roll(dice.roll(state.pending.args["dice"])))
            continue
        policy = heroes if seat is Seat.HEROES else dm
        state.apply(policy.act(View(state, seat)))  # type: ignore[arg-type]


def score(state: State) -> float:
    """A finished adventure: 1 won, 0 lost (C-END-01). One still going: a guess in
    (0.1, 0.9) at its worth to the heroes, from the goals met now (40%), the party's
    Health (30%) and heroes alive (20%) as shares of their start, and the Light left
    (10%)."""
    if state.is_terminal():
        return 1.0 if state.summary()["won"] else 0.0
    goals = state.ruleset.adventure.goals
    met = sum(goal_met(state, g) for g in goals) / len(goals) if goals else 0.0
    heroes = list(state.heroes.values())
    most = sum(state.hero_profile(h).health for h in heroes)
    health = sum(h.health for h in heroes if not h.dead) / most if most else 0.0
    alive = sum(not h.dead for h in heroes) / len(heroes) if heroes else 0.0
    start = state.ruleset.adventure.light or state.options.light
    light = max(0, min(state.light, start)) / start if start else 0.0
    return 0.1 + 0.8 * (0.4 * met + 0.3 * health + 0.2 * alive + 0.1 * light)
