"""The straightforward encoding of a seat's view, as :mod:`undercroft.rl.encoding` first
computed it: every plane and scalar worked out afresh from the view's fields. The
adapters' fast :meth:`~undercroft.rl.encoding.Encoder.encode` must give the same vector,
byte for byte (tests/rl/test_rl_encoding.py)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from undercroft.crawl.engine import Seat
from undercroft.crawl.observe import Observation, View
from undercroft.rl.encoding import (
    CHAR_TABLE,
    HERO_FIELDS,
    MAX_ACTIONS,
    SQUARE_CHANNELS,
    Encoder,
    capped,
)


def reference_encode(encoder: Encoder, seen: Observation | View) -> NDArray[np.float32]:
    """The flat observation vector of ``seen`` (values in [0, 1])."""
    lay = encoder.layout
    h, w = lay.height, lay.width
    planes = np.zeros((len(lay.channels), h, w), np.float32)
    codes, width = seen.board_codes()
    chars = np.frombuffer(codes, np.uint8).reshape(h, width)
    planes[: len(SQUARE_CHANNELS)] = CHAR_TABLE[chars].transpose(2, 0, 1)
    ch = {name: i for i, name in enumerate(lay.channels)}
    for x, y in seen.exits:
        planes[ch["exit"], y, x] = 1.0
    areas = np.frombuffer(seen.area_codes(), np.uint8).reshape(h, w)
    planes[ch["revealed_area"]] = areas != 255
    scalars = np.zeros(len(lay.scalars), np.float32)
    sc = {name: i for i, name in enumerate(lay.scalars)}
    kinds = {k: (i + 1) / len(lay.kinds) for i, k in enumerate(lay.kinds)}
    for i, hero in enumerate(seen.heroes[: lay.party]):
        pos = hero["pos"]
        if pos is not None:
            planes[ch["hero"], pos[1], pos[0]] = 1.0
            planes[ch[f"hero_{i}"], pos[1], pos[0]] = 1.0
        base = sc[f"hero_{i}_present"]
        scalars[base : base + len(HERO_FIELDS)] = (
            1.0,
            pos is not None,
            hero["dead"],
            hero["left"],
            capped(hero["health"]),
            capped(hero["stamina"]),
            capped(hero["magic"]),
            hero["exhausted"],
            hero["surprised"],
            hero["resting"],
            capped(hero["moves_left"]),
            hero["acted"],
            hero["jumped"],
            hero["casting"] is not None,
            capped(len(hero["items"]), 8.0),
            capped(len(hero["spells"]), 8.0),
        )
    monsters = seen.monsters
    for m in monsters:
        x, y = m["pos"]
        planes[ch["monster"], y, x] = 1.0
        planes[ch["monster_health"], y, x] = capped(m["health"])
        planes[ch["monster_stamina"], y, x] = capped(m["stamina"])
        planes[ch["monster_surprised"], y, x] = m["surprised"]
        planes[ch["monster_kind"], y, x] = kinds.get(m["kind"], 0.0)
    for t in seen.traps:
        x, y = t["at"]
        planes[ch["trap_armed" if t["armed"] else "trap_spent"], y, x] = 1.0
    for c in seen.corpses:
        x, y = c["at"]
        planes[ch["corpse"], y, x] = 1.0
        planes[ch["corpse_items"], y, x] = capped(len(c["items"]), 4.0)
    scalars[sc["seat_heroes" if seen.seat is Seat.HEROES else "seat_dm"]] = 1.0
    to_act = seen.to_act
    scalars[sc["to_act_none" if to_act is None else f"to_act_{to_act.value}"]] = 1.0
    scalars[sc["turn"]] = capped(seen.turn, encoder.max_turns)
    scalars[sc["light"]] = capped(seen.light, encoder.max_light)
    scalars[sc["monsters_seen"]] = capped(len(monsters))
    scalars[sc["legal_actions"]] = capped(len(seen.legal), MAX_ACTIONS)
    step = f"step_{seen.step}"
    scalars[sc[step] if step in sc else sc["step_other"]] = 1.0
    decision = f"decision_{seen.decision}"
    scalars[sc[decision] if decision in sc else sc["decision_none"]] = 1.0
    if seen.outcome is not None:
        scalars[sc[f"outcome_{seen.outcome}"]] = 1.0
    for i, goal in enumerate(seen.goals[:4]):
        base = sc[f"goal_{i}_present"]
        scalars[base : base + 3] = (1.0, goal["met"], goal["in_hand"])
    return np.concatenate((planes.reshape(-1), scalars))
