"""A decision's context in words, for a person at the terminal (the browser's play page
says the same in ``web/static/play.js``).

A seat's observation carries what the pending decision is about (``context``,
docs/crawl.md "Observations"): which fight a Stamina decision is for, which contest a
Magic spend is, the options of a room text's choice. A policy reads it as data; a person
choosing from a numbered list needs it as a line above the list, and a choice's options
by their labels rather than by number. Only what the seat's own view holds is told.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from undercroft.render.narrate import name

Context = Mapping[str, Any]


def _modifiers(mods: Mapping[str, Any] | None) -> str:
    shown = [f"{k} {int(v):+d}" for k, v in (mods or {}).items() if int(v)]
    return f" ({', '.join(shown)})" if shown else ""


def _asks(tests: Sequence[Mapping[str, Any]], contests: Sequence[Mapping[str, Any]]) -> str:
    """What a text asks, as a table would say it: "Strong, 3+", "Learned" (no roll), "a
    Mental Combat, the text +1"."""
    parts = [
        str(t["trait"]) + (f", {int(t['target'])}+" if int(t.get("target", 0)) else "")
        + ("" if t.get("who", "self") == "self" else f" ({t['who']})")
        for t in tests
    ]  # fmt: skip
    parts += [
        "a Mental Combat" + (f", the text {int(c['power']):+d}" if int(c.get("power", 0)) else "")
        for c in contests
    ]
    return "; ".join(parts)


def context_line(context: Context | None) -> str | None:
    """One line saying what the decision is about, or ``None`` when the context says
    nothing a list of actions does not already show."""
    if not context:
        return None
    kind = context.get("kind")
    if kind == "fight":
        line = (
            f"Fight: {name(context['hero'])}, score {context['hero_score']}"
            f"{_modifiers(context.get('hero_modifiers'))}, Health {context['hero_health']}, "
            f"against {name(context['monster'])}, score {context['monster_score']}"
            f"{_modifiers(context.get('monster_modifiers'))}, Health "
            f"{context['monster_health']}"
        )
        if "declared" in context:
            first = "the DM" if context.get("declares_first") == "dm" else "the heroes"
            line += f"; {first} spent {context['declared']} Stamina"
        return line + "."
    if kind == "mental":
        line = (
            f"Mental Combat: {name(context['hero'])} (Magic {context['hero_magic']}) against "
            f"{name(context['opponent'])}"
            + (f", which adds {int(context['power']):+d}" if int(context.get("power", 0)) else "")
        )
        if "declared" in context:
            line += f"; the aggressor spent {context['declared']} Magic"
        return line + "."
    if kind == "casting":
        fights = ", ".join(
            f"{name(f['monster'])} ({f['hero_score']} against {f['monster_score']})"
            for f in context.get("fights", ())
        )
        spell = name(context["spell"]) if context.get("spell") else "an unread scroll"
        return f"{name(context['hero'])} is casting {spell} and fights {fights or 'nobody'}."
    if kind == "take_item":
        card = name(context["card"]) if context.get("card") else f"a {context.get('deck')}"
        return f"Found: {card}; which explorer takes it?"
    if kind == "choice":
        return f"The text offers {name(context['hero'])} a choice ({context.get('area')})."
    if kind == "text_test":
        asks = _asks(context.get("tests", ()), context.get("contests", ()))
        return "Who takes up the text" + (f"? It asks: {asks}." if asks else "?")
    return None


def option_words(context: Context | None, index: int) -> str | None:
    """A choice's option by its label and what it asks (``None``: not known)."""
    if not context or context.get("kind") != "choice":
        return None
    for option in context.get("options", ()):
        if option.get("index") == index:
            asks = _asks(option.get("tests", ()), option.get("contests", ()))
            return str(option.get("label", "")) + (f" ({asks})" if asks else "")
    return None
