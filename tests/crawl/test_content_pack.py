"""The default content pack (src/undercroft/crawl/content/) and the checks that guard it.

The pack supplies what the rules name but do not list (the CONTENT markers of
docs/rules/crawl.md): the board, ten heroes, the monsters, the spells, the five decks,
the traps and a campaign of adventures. These tests hold the pack to those promises and
prove that ``undercroft check`` catches a designer's mistakes with file, line and key.
"""

from __future__ import annotations

import importlib.resources
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawl_kit import play_random
from typer.testing import CliRunner

from undercroft.cli import app
from undercroft.core.content import ContentError
from undercroft.core.dice import DiceSampler
from undercroft.core.grid import Pos, Terrain
from undercroft.crawl import effects as fx
from undercroft.crawl import new_game
from undercroft.crawl.content import DEFAULT_PACK, Pack, default_pack, load_pack
from undercroft.crawl.goals import judge_goals
from undercroft.crawl.ruleset import (
    Adventure,
    CastingTime,
    Encounter,
    ItemKind,
    Options,
    Targeting,
    Trait,
)

runner = CliRunner()
PARTY = ["brenna", "corvin", "tamsin", "ysolde"]


@pytest.fixture(scope="module")
def pack() -> Pack:
    return default_pack()


def walk(effects: tuple[fx.Effect, ...]) -> Iterator[fx.Effect]:
    """Every effect, nested branches and choice options included."""
    for e in effects:
        yield e
        for name in ("on_pass", "on_fail", "on_success", "on_win", "on_lose", "on_tie"):
            yield from walk(getattr(e, name, ()))
        if isinstance(e, fx.Choice):
            for option in e.options:
                yield from walk(option.effects)


def text_effects(adventure: Adventure) -> list[fx.Effect]:
    return [e for t in adventure.room_texts for e in walk(t.effects)]


def given(pack: Pack, adventure: Adventure) -> set[ItemKind]:
    return {pack.items[e.item].kind for e in text_effects(adventure) if isinstance(e, fx.GiveItem)}


# -- shipping -----------------------------------------------------------------------------


def test_the_pack_ships_inside_the_package() -> None:
    folder = importlib.resources.files("undercroft.crawl").joinpath("content")
    names = {entry.name for entry in folder.iterdir()}
    assert {"board.toml", "heroes.toml", "monsters.toml", "spells.toml"} <= names
    assert {"items.toml", "traps.toml", "adventures"} <= names
    assert Path(str(folder)).resolve() == DEFAULT_PACK


def test_default_pack_is_loaded_once(pack: Pack) -> None:
    assert default_pack() is pack
    assert pack.folder == DEFAULT_PACK


# -- the board (C-SETUP-01) ---------------------------------------------------------------


@pytest.mark.rule("C-SETUP-01")
def test_the_board_is_24_by_28_with_16_rooms_and_corridors(pack: Pack) -> None:
    board = pack.boards["undercroft"]
    assert (board.width, board.height) == (24, 28)
    rooms = [a for a in board.areas if a.kind == "room"]
    corridors = [a for a in board.areas if a.kind == "corridor"]
    assert len(rooms) == 16
    assert len({r.name for r in rooms}) == 16
    assert len(corridors) == 6
    assert not (board.terrain == Terrain.DOOR).any(), "doors belong to the adventures"


@pytest.mark.rule("C-SETUP-01")
def test_every_room_is_a_filled_rectangle_walled_off_from_the_others(pack: Pack) -> None:
    board = pack.boards["undercroft"]
    for index, info in enumerate(board.areas):
        ys, xs = (board.area == index).nonzero()
        if info.kind == "room":
            box = board.area[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
            assert (box == index).all(), info.name
        for y, x in zip(ys, xs, strict=True):
            for ny, nx in ((y + 1, x), (y, x + 1)):
                other = board.area[ny, nx]
                if other >= 0 and other != index and info.kind == "room":
                    pytest.fail(f"{info.name} touches {board.areas[other].name}")


@pytest.mark.rule("C-SETUP-01")
def test_each_adventure_connects_the_rooms_its_own_way(pack: Pack) -> None:
    layouts = set()
    for adventure in pack.adventures.values():
        grid = adventure.board
        doors = frozenset(zip(*(grid.terrain == Terrain.DOOR).nonzero(), strict=True))
        blockages = frozenset(zip(*(grid.terrain == Terrain.BLOCKAGE).nonzero(), strict=True))
        assert doors, adventure.id
        assert blockages, adventure.id
        assert grid.furniture.any(), adventure.id
        for y, x in blockages:
            area = grid.area_at(grid_pos(x, y))
            assert area is not None and area.kind == "corridor"
        layouts.add((doors, blockages))
    assert len(layouts) == len(pack.adventures)


def grid_pos(x: int, y: int) -> Pos:
    return Pos(int(x), int(y))


# -- heroes (C-SETUP-03, C-SETUP-05) --------------------------------------------------------


@pytest.mark.rule("C-SETUP-03", "C-SETUP-05")
def test_ten_heroes_every_trait_and_exactly_two_casters(pack: Pack) -> None:
    heroes = pack.heroes.values()
    assert len(pack.heroes) == 10
    assert set().union(*(h.traits for h in heroes)) == set(Trait)
    casters = sorted(h.id for h in heroes if h.spells)
    assert casters == ["corvin", "ysolde"]
    for h in heroes:
        assert h.movement >= 3 and h.fighting >= 2 and h.damage >= 1 and h.health >= 5
        assert h.abilities, h.id
        assert sum(pack.spells[s].level for s in h.spells) <= h.magic  # C-SPELL-02


# -- monsters (C-MON-01, C-MENT-01) --------------------------------------------------------


@pytest.mark.rule("C-SETUP-02", "C-MON-01", "C-MENT-01")
def test_monsters_cover_every_encounter_type_and_mental_combat(pack: Pack) -> None:
    monsters = pack.monsters.values()
    assert len(pack.monsters) >= 12
    assert {m.encounter for m in monsters} == set(Encounter)
    mental = [
        m.id
        for m in monsters
        for a in m.abilities
        if any(isinstance(e, fx.MentalCombat) for e in walk(a.effects))
    ]
    assert {"ash-cultist", "bone-priest", "wraith", "ash-king"} <= set(mental)
    assert all(m.magic > 0 for m in monsters if m.id in mental)  # C-MENT-02 spending


# -- spells (C-SPELL-03, C-SPELL-04) -------------------------------------------------------


@pytest.mark.rule("C-SPELL-03", "C-SPELL-04")
def test_spells_span_levels_one_to_three_and_most_overcast(pack: Pack) -> None:
    spells = list(pack.spells.values())
    assert len(spells) >= 12
    assert {s.level for s in spells} == {1, 2, 3}
    overcast = [s for s in spells if s.overcast is not None]
    assert len(overcast) > len(spells) / 2
    assert {s.casting for s in spells} == set(CastingTime)
    assert {s.target for s in spells} == set(Targeting)


# -- the five decks, traps (C-SETUP-02, C-DEATH-03, C-TRAP-06) -----------------------------


@pytest.mark.rule("C-SETUP-02", "C-SPELL-01", "C-DEATH-03")
def test_the_five_decks_the_elixir_and_the_talisman(pack: Pack) -> None:
    items = pack.items.values()
    assert {i.kind for i in items} == set(ItemKind)
    for scroll in (i for i in items if i.kind is ItemKind.SCROLL):
        assert scroll.spell in pack.spells
    revivers = {i.id: i.kind for i in items if i.revives}
    assert revivers == {"elixir-of-life": ItemKind.POTION, "holy-talisman": ItemKind.MAGIC}


@pytest.mark.rule("C-TRAP-06")
def test_at_least_four_trap_kinds(pack: Pack) -> None:
    assert len(pack.traps) >= 4
    assert any(not t.ends_movement for t in pack.traps.values())


# -- adventures ---------------------------------------------------------------------------


@pytest.mark.rule("C-SETUP-03", "C-CAMP-01")
def test_a_campaign_of_three_adventures_ending_with_the_final(pack: Pack) -> None:
    order = pack.campaign_order()
    assert order == ["greyhollow-cellars", "bone-priest", "ash-king"]
    assert [pack.adventures[a].final for a in order] == [False, False, True]
    assert len({pack.order[a] for a in order}) == 3
    for a in order:
        adventure = pack.adventures[a]
        assert adventure.intro and len(adventure.intro) < 600
        assert len(adventure.starts) == 5  # room for five heroes (C-SETUP-03)


@pytest.mark.rule("C-MON-02", "C-MON-03", "C-TRAP-06", "C-EXPL-01", "C-END-01")
def test_every_adventure_has_guards_a_patrol_traps_texts_and_goals(pack: Pack) -> None:
    for adventure in pack.adventures.values():
        assert adventure.placements, adventure.id
        assert adventure.patrol, adventure.id
        assert adventure.traps, adventure.id
        assert len(adventure.room_texts) >= 8, adventure.id
        assert adventure.goals, adventure.id
        effects = text_effects(adventure)
        assert any(isinstance(e, fx.TraitTest) for e in effects), adventure.id
        assert any(isinstance(e, fx.Choice) for e in effects), adventure.id
        assert any(isinstance(e, fx.Spawn) for e in effects), adventure.id


@pytest.mark.rule("C-MON-04", "C-SPELL-01", "C-IDENT-01", "C-TRAP-02", "C-MENT-01")
def test_the_adventures_together_use_every_kind_of_room_text(pack: Pack) -> None:
    effects = [e for a in pack.adventures.values() for e in text_effects(a)]
    kinds = {type(e) for e in effects}
    assert {fx.Spawn, fx.TraitTest, fx.Choice, fx.GiveItem, fx.Goal} <= kinds
    assert {fx.RevealSecret, fx.OpenExit, fx.MentalCombat, fx.DetectTrapsRoll} <= kinds
    gifts = set().union(*(given(pack, a) for a in pack.adventures.values()))
    assert {ItemKind.POTION, ItemKind.SCROLL, ItemKind.MAGIC, ItemKind.TREASURE} <= gifts
    tested = {e.trait for e in effects if isinstance(e, fx.TraitTest)}
    assert tested == {t.value for t in Trait}
    goal_kinds = {g.kind for a in pack.adventures.values() for g in a.goals}
    assert goal_kinds == {"slay", "carry", "visit"}


@pytest.mark.rule("C-EXPL-01")
def test_secret_rooms_open_only_through_room_text(pack: Pack) -> None:
    secret = [a for a in pack.adventures.values() if a.secret_areas]
    assert len(secret) >= 2
    for adventure in secret:
        reveals = [e for e in text_effects(adventure) if isinstance(e, fx.RevealSecret)]
        assert {e.area for e in reveals} == set(adventure.secret_areas)
        grid = adventure.board
        for area in adventure.secret_areas:
            squares = set(grid.squares_of(area))
            for door in (grid_pos(*d) for e in reveals for d in e.doors):
                assert grid.terrain_at(door) is Terrain.WALL
                assert any(n in squares for n in door.orthogonal())
            # nothing but the revealed door leads in: every neighbour outside is wall
            around = {n for p in squares for n in p.orthogonal()} - squares
            assert all(grid.terrain_at(n) is Terrain.WALL for n in around), area


@pytest.mark.rule("C-END-01")
def test_the_final_adventure_leaves_by_a_new_exit(pack: Pack) -> None:
    final = pack.adventures["ash-king"]
    assert final.exits == frozenset()
    opened = [e for e in text_effects(final) if isinstance(e, fx.OpenExit)]
    assert opened
    for e in opened:
        for x, y in e.at:
            assert final.board.area_at(grid_pos(x, y)) is not None
    assert all(a.exits for a in pack.adventures.values() if a.id != "ash-king")


@pytest.mark.rule("C-SETUP-03", "C-TURN-04")
def test_no_monster_is_in_sight_when_an_adventure_begins(pack: Pack) -> None:
    for adventure_id in pack.adventures:
        state = new_game(pack.ruleset(adventure_id), PARTY)
        assert state.monsters == {}, adventure_id
        assert len(state.revealed) == 1, (adventure_id, state.revealed)
        assert state.current_player() is not None


@pytest.mark.parametrize("adventure_id", ["greyhollow-cellars", "bone-priest", "ash-king"])
def test_each_adventure_survives_random_play(pack: Pack, adventure_id: str) -> None:
    rules = pack.ruleset(adventure_id, Options(max_turns=12))
    outcomes = set()
    for seed in range(20):
        state = new_game(rules, PARTY)
        play_random(state, DiceSampler(seed))
        assert state.is_terminal(), (adventure_id, seed, state.pending)
        assert state.legal_actions() == []
        outcomes.add(state.outcome)
    assert outcomes <= {"escaped", "perished", "turn_cap"}


# -- goals judged at the end (C-END-01) ----------------------------------------------------


@pytest.mark.rule("C-END-01")
def test_a_carry_goal_is_met_when_a_hero_leaves_holding_the_item(pack: Pack) -> None:
    state = new_game(pack.ruleset("greyhollow-cellars"), PARTY)
    brenna = state.heroes["hero:brenna"]
    brenna.items.append(state.new_item("silver-reliquary"))
    judge_goals(state)
    assert "reliquary" not in state.goals_met  # still inside
    brenna.left = True
    state.finish("escaped")
    assert "reliquary" in state.goals_met
    assert "pilgrim" not in state.goals_met  # a visit goal needs its room text


@pytest.mark.rule("C-END-01")
def test_a_slay_goal_is_met_once_every_such_monster_is_gone(pack: Pack) -> None:
    from undercroft.core.grid import Pos
    from undercroft.crawl.reveal import spawn

    state = new_game(pack.ruleset("bone-priest"), PARTY)
    judge_goals(state)
    assert "bone-priest" not in state.goals_met  # never met: not slain
    priest = spawn(state, "bone-priest", Pos(2, 2), None)
    judge_goals(state)
    assert "bone-priest" not in state.goals_met
    del state.monsters[priest.id]
    state.finish("escaped")
    assert "bone-priest" in state.goals_met


@pytest.mark.rule("C-LIGHT-01")
@pytest.mark.parametrize("adventure_id", default_pack().campaign_order())
def test_every_adventure_starts_with_twenty_turns_of_light(pack: Pack, adventure_id: str) -> None:
    state = new_game(pack.ruleset(adventure_id), PARTY)
    assert state.light == 20
    assert pack.adventures[adventure_id].light in (None, 20)


@pytest.mark.rule("C-SPELL-05")
def test_only_items_give_back_magic_in_the_default_pack(pack: Pack) -> None:
    others: list[tuple[fx.Effect, ...]] = [s.effects for s in pack.spells.values()]
    others += [s.overcast for s in pack.spells.values() if s.overcast]
    others += [t.effects for t in pack.traps.values()]
    others += [a.effects for m in pack.monsters.values() for a in m.abilities]
    others += [t.effects for a in pack.adventures.values() for t in a.room_texts]
    assert not [e for effects in others for e in walk(effects) if isinstance(e, fx.RestoreMagic)]
    restorers = {
        i.id
        for i in pack.items.values()
        if any(isinstance(e, fx.RestoreMagic) for e in walk(i.effects))
    }
    assert restorers == {"prayer-beads", "mana-draught", "circlet-of-focus"}
    # The Bone Priest's Scriptorium rewards the reader of the tome with a potion instead.
    scriptorium = [
        e
        for t in pack.adventures["bone-priest"].room_texts
        if t.area == "Scriptorium"
        for e in walk(t.effects)
        if isinstance(e, fx.GiveItem)
    ]
    assert [e.item for e in scriptorium] == ["scroll-mind-spike", "mana-draught"]


# -- undercroft check -----------------------------------------------------------------------


@pytest.mark.rule("C-SETUP-01")
def test_check_passes_on_the_default_pack() -> None:
    result = runner.invoke(app, ["check", str(DEFAULT_PACK)])
    assert result.exit_code == 0, result.output
    assert "ok: 9 content file(s) valid" in result.stdout


def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, folder)
    target = folder / file
    text = target.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


def check_fails(folder: Path) -> str:
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.stderr


def line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_check_names_a_missing_field(tmp_path: Path) -> None:
    target = broken_copy(tmp_path, "heroes.toml", "movement = 4\n", "")
    err = check_fails(target.parent)
    line = line_of(target, "[[hero]]")  # the entry that lacks the key
    assert f"{target}:{line}: hero[0].movement: Field required" in err


def test_check_names_an_unknown_spell(tmp_path: Path) -> None:
    target = broken_copy(tmp_path, "heroes.toml", '"ember-dart", "thunderclap"', '"fireball"')
    err = check_fails(target.parent)
    line = line_of(target, '"fireball"')
    assert f"{target}:{line}: hero[8].spells[0]: unknown spell 'fireball'" in err


def test_check_names_an_unknown_spell_on_a_scroll(tmp_path: Path) -> None:
    target = broken_copy(tmp_path, "items.toml", 'spell = "banishment"', 'spell = "exile"')
    err = check_fails(target.parent)
    line = line_of(target, 'spell = "exile"')
    assert re.search(rf"{re.escape(str(target))}:{line}: item\[\d+\]\.spell: unknown spell", err)


@pytest.mark.rule("C-SETUP-01")
def test_check_refuses_a_room_that_is_not_a_rectangle(tmp_path: Path) -> None:
    # The Ossuary's bottom-right square drawn as part of the Guardroom below it.
    target = broken_copy(tmp_path, "board.toml", "#AAAA#CCCC#", "#AAAB#CCCC#")
    err = check_fails(target.parent)
    line = line_of(target, "#AAAB#CCCC#")
    assert f"{target}:{line}: areas: row 1, column 4: room 'Ossuary' is not a filled" in err
    assert "but this square is 'Guardroom' (overlapping rooms?)" in err


@pytest.mark.rule("C-SETUP-01")
def test_check_refuses_rooms_that_run_into_each_other(tmp_path: Path) -> None:
    # Knock out the wall between the Ossuary and the Chapel of Ash on row 1.
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, folder)
    board = folder / "board.toml"
    text = board.read_text(encoding="utf-8")
    text = text.replace("#....#....#..#.....#...#", "#.........#..#.....#...#", 1)
    text = text.replace("#AAAA#CCCC#gg#DDDDD#EEE#", "#AAAAACCCC#gg#DDDDD#EEE#", 1)
    board.write_text(text, encoding="utf-8")
    err = check_fails(folder)
    line = line_of(board, "#AAAAACCCC#")
    assert f"{board}:{line}: areas: row 1, column 5: 'Ossuary' touches 'Chapel of Ash'" in err


def test_check_refuses_a_door_that_is_not_in_a_wall(tmp_path: Path) -> None:
    target = broken_copy(
        tmp_path, "adventures/01-greyhollow-cellars.toml", "[10, 21],  #", "[9, 21],  #"
    )
    err = check_fails(target.parent.parent)
    line = line_of(target, "[9, 21],  #")
    assert f"{target}:{line}: doors[0]: a door at [9, 21] must stand in a wall" in err


def test_check_refuses_a_visit_goal_no_text_meets(tmp_path: Path) -> None:
    target = broken_copy(
        tmp_path,
        "adventures/01-greyhollow-cellars.toml",
        '{ type = "goal", goal = "pilgrim" },',
        "",
    )
    err = check_fails(target.parent.parent)
    assert "goal[1]: visit goal 'pilgrim' is met only by a room text's goal effect" in err


def test_check_refuses_an_adventure_with_no_way_out(tmp_path: Path) -> None:
    target = broken_copy(
        tmp_path,
        "adventures/03-ash-king.toml",
        '  { type = "open_exit", at = [[21, 11], [22, 11]] },\n',
        "",
    )
    err = check_fails(target.parent.parent)
    line = line_of(target, "exits = []")
    assert f"{target}:{line}: exits: the heroes have no way out" in err


@pytest.mark.rule("C-SPELL-05")
def test_check_refuses_a_room_text_that_gives_back_magic(tmp_path: Path) -> None:
    target = broken_copy(
        tmp_path,
        "adventures/02-bone-priest.toml",
        '{ type = "give_item", item = "mana-draught" },  #',
        '{ type = "magic", amount = 1, who = "self" },  #',
    )
    err = check_fails(target.parent.parent)
    line = line_of(target, '{ type = "magic", amount = 1')
    assert (
        f"{target}:{line}: text[3].effects[0].options[0].effects[0].on_win[1]: only resting "
        "and certain items give back Magic (C-SPELL-05)"
    ) in err


def test_check_refuses_a_blockage_outside_a_corridor(tmp_path: Path) -> None:
    target = broken_copy(
        tmp_path, "adventures/02-bone-priest.toml", "blockages = [[11, 13]", "blockages = [[2, 2]"
    )
    err = check_fails(target.parent.parent)
    assert "blockages[0]: a blockage at [2, 2] must stand on a corridor's floor" in err


def test_load_pack_lists_every_problem_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, folder)
    adventure = folder / "adventures" / "02-bone-priest.toml"
    text = adventure.read_text(encoding="utf-8")
    text = text.replace('area = "Ossuary", doors = [[5, 2]]', 'area = "Library", doors = [[5, 4]]')
    adventure.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_pack(folder)
    messages = [p.message for p in caught.value.problems]
    assert any("'Library' is not one of this adventure's secret_rooms" in m for m in messages)
    assert any("a secret door at [5, 4] must stand in a wall" in m for m in messages)


# -- the designer's guide ---------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "content.md"


def test_the_guides_example_pack_is_valid_and_playable(tmp_path: Path) -> None:
    text = DOCS.read_text(encoding="utf-8")
    files = re.findall(r"<!-- file: (\S+) -->\n```toml\n(.*?)```", text, flags=re.DOTALL)
    assert len(files) == 7
    for name, body in files:
        (tmp_path / name).write_text(body, encoding="utf-8")
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.output
    example = load_pack(tmp_path)
    assert set(example.adventures) == {"the-vault"}
    state = new_game(example.ruleset("the-vault"), ["ana", "bel", "cal"])
    play_random(state, DiceSampler(1))
    assert state.is_terminal()


@pytest.mark.rule("C-SETUP-02")
def test_the_guide_documents_every_effect_type_and_who() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for model in fx.Effect.__args__:
        kind = model.model_fields["type"].default
        assert f"| `{kind}` |" in text, kind
    for who in ("target", "self", "explorers", "here", "party"):
        assert f'| `"{who}"` |' in text, who


# -- engine behaviour the pack relies on ----------------------------------------------------


def test_an_all_monsters_spell_hurts_every_monster_in_range(pack: Pack) -> None:
    from undercroft.core.grid import Pos
    from undercroft.crawl.reveal import spawn
    from undercroft.crawl.spells import resolve_spell

    state = new_game(pack.ruleset("greyhollow-cellars"), ["corvin", "brenna"])
    goblin = spawn(state, "goblin", Pos(11, 23), None)
    orc = spawn(state, "orc", Pos(12, 23), None)
    corvin = state.heroes["hero:corvin"]
    resolve_spell(state, corvin, "sunburst", None, False, None)
    state.pending = None  # run the spell's effects now, out of the Movement decision
    state.run()
    assert (goblin.health, orc.health) == (1, 2)
