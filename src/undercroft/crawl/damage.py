"""Damage (C-FIGHT-05): Health lost to fights, spells, traps and texts, monsters slain
(C-FIGHT-06), and the Death's Door rolls a blow to a hero at 0 brings (C-DD-03)."""

from __future__ import annotations

from undercroft.crawl.engine import Task
from undercroft.crawl.figures import Hero, Monster
from undercroft.crawl.state import State


def hurt_monster(
    state: State, monster: Monster, blows: list[tuple[str, int]], rules: list[str]
) -> None:
    total = sum(d for _, d in blows)
    monster.health = max(0, monster.health - total)
    state.emit(
        "damage",
        rules,
        target=monster.id,
        amount=total,
        by=[b for b, _ in blows],
        health=monster.health,
    )
    if monster.health == 0:
        del state.monsters[monster.id]
        # C-FIGHT-05: everyone who damaged it this step killed it.
        state.emit(
            "monster.slain",
            ["C-FIGHT-06", "C-FIGHT-05"],
            monster=monster.id,
            by=[b for b, _ in blows],
        )


def hurt_hero(
    state: State, hero: Hero, blows: list[tuple[str, int]], rules: list[str]
) -> list[Task]:
    """Take damage (never below 0 Health); returns the Death's Door rolls it causes."""
    was_at_door = hero.at_deaths_door
    total = sum(d for _, d in blows)
    hero.health = max(0, hero.health - total)
    state.emit(
        "damage", rules, target=hero.id, amount=total, by=[b for b, _ in blows], health=hero.health
    )
    rolls = []
    if was_at_door:
        # C-DD-03, R-C-DD-01: one extra roll per creature that hit a hero already at 0;
        # a hero brought to 0 by this blow waits for Turn End.
        rolls = [Task("deaths_door", {"hero": hero.id, "reason": "damage"}) for _ in blows]
    elif hero.health == 0:
        state.emit("deaths_door", ["C-FIGHT-06"], hero=hero.id)
    return rolls
