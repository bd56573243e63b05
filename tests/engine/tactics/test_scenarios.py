"""Ascension Tactics scenarios: the real scenarios (modes, connected maps, starting
positions on passable cells, villain setups), the loader's strictness with rule ids, and
the digest's §19 sample scenario S-1 "Three Cairns" as a fixture (docs/card-format.md,
"Tactics")."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.tactics import hexes
from engine.tactics.cards import (
    SCENARIO_FILE,
    SETS_DIR,
    CardDataError,
    TacticsDB,
    check_references,
    load_scenarios,
    load_system,
    parse_scenarios,
)
from engine.tactics.model import MODES, TOKENS, hexagon

SOURCE = "engine/sets/tactics/_scenarios.json"
REAL = json.loads((SETS_DIR / SCENARIO_FILE).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def db():
    return load_system()


# ---------------------------------------------------------------- the real scenarios


def test_at_least_four_scenarios_cover_the_four_modes(db):
    assert len(db.scenarios) >= 4
    modes = {m for s in db.scenarios.values() for m in s.modes}
    assert {"duel", "ffa", "teams", "solo"} <= modes
    assert all(s.source == SOURCE for s in db.scenarios.values())


def test_scenario_names_and_numbers_unique(db):
    for attr in ("name_ru", "name_en", "number"):
        values = [getattr(s, attr) for s in db.scenarios.values()]
        assert len(values) == len(set(values))


def test_every_map_is_connected(db):
    for scen in db.scenarios.values():
        passable = [c for c in scen.cells if scen.passable(c)]
        assert hexes.is_connected(passable), scen.key
        assert all(c in scen.cells for c in scen.terrain)


def test_starting_positions_are_on_passable_plain_cells(db):
    for scen in db.scenarios.values():
        for mode, setup in scen.modes.items():
            seen: dict[tuple[int, int], int] = {}
            for seat, cells in setup.portals.items():
                assert cells, (scen.key, mode, seat)
                for cell in cells:
                    assert scen.passable(cell), (scen.key, mode, seat, cell)
                    assert cell not in scen.terrain, (scen.key, mode, seat, cell)  # T-58/T-59
                    if mode != "coop":
                        assert cell not in seen, (scen.key, mode, cell)
                    seen[cell] = seat
            for cell in (*setup.villain_entry, *setup.targets.values()):
                assert scen.passable(cell), (scen.key, mode, cell)
            for cell in setup.villain_entry:
                assert cell not in seen


def test_seats_per_mode(db):
    for scen in db.scenarios.values():
        for mode, setup in scen.modes.items():
            expected = 1 if mode in ("solo", "archvillain") else max(MODES[mode][2])
            assert sorted(setup.portals) == list(range(1, expected + 1))
    ffa = db.scenarios_for("ffa")[0].modes["ffa"]
    assert ffa.seats == (3, 4)
    teams = db.scenarios_for("teams")[0].modes["teams"]
    assert sorted(s for t in teams.teams for s in t) == [1, 2, 3, 4]


def test_treasure_and_shrines(db):
    bag = len(db.treasure_bag())
    for scen in db.scenarios.values():
        assert len(scen.treasure) <= bag  # T-12
        assert all(scen.passable(c) for c in scen.treasure)
        assert scen.shrines() and scen.shrine_glory >= 1
        for cell, rules in scen.enchanted.items():
            assert scen.terrain[cell] == "enchanted" and rules is not None


def test_solo_setup_per_t81_to_t95(db):
    solo = db.scenarios_for("solo")
    assert solo
    for scen in solo:
        setup = scen.modes["solo"]
        assert set(setup.targets) == set(TOKENS)  # T-83
        boss, *others = (db[v] for v in setup.villains)
        assert boss.is_boss and boss.abilities_when("surge")  # T-82, T-93
        assert len(others) == 3 and all(v.glory <= 3 for v in others)  # T-82
        assert setup.schemes and all(db[s].type == "scheme" for s in setup.schemes)  # T-84
        assert "villain_glory" in setup.victory or setup.victory["glory"]
        # the player's recommended champions are not among the villains (T-82)
        names = {db[v].name_en for v in setup.villains}
        for ids in setup.reserves.values():
            assert len(ids) == 4 and not names & {db[i].name_en for i in ids}


def test_recommended_reserves_are_champions(db):
    for scen in db.scenarios.values():
        for setup in scen.modes.values():
            all_ids = [i for ids in setup.reserves.values() for i in ids]
            assert len(all_ids) == len(set(all_ids))
            assert all(db[i].type in ("champion", "monster") for i in all_ids)


# ---------------------------------------------------------------- strictness


def _refused(change, match: str) -> CardDataError:
    data = copy.deepcopy(REAL)
    change(data)
    with pytest.raises(CardDataError, match=match) as info:
        parse_scenarios(data, SOURCE)
    return info.value


def _duel(data: dict) -> dict:
    return data["scenarios"][0]


def _set(path: list[Any], value: Any):
    def change(data: dict) -> None:
        target = data["scenarios"][0]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def test_unknown_field_names_scenario_and_field():
    error = _refused(_set(["colour"], "red"), "unknown field")
    assert error.card == "scenario stone_crossroads «Каменный перекрёсток»"
    assert error.source == SOURCE


def test_duplicate_key_is_refused(tmp_path):
    text = json.dumps(REAL, ensure_ascii=False).replace(
        '"shrine_glory": 2', '"shrine_glory": 2, "shrine_glory": 3', 1
    )
    path = tmp_path / SCENARIO_FILE
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError, match="appears twice"):
        load_scenarios(path)


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        (["shrine_glory"], "2", r"shrine_glory: must be an integer"),
        (["board", "radius"], True, r"board.radius: must be an integer"),
        (["treasure"], ["0, 2"], r"write the cell as '0,2'.*\(axial coordinates, D-1\)"),
        (["treasure"], ["9,9"], r"9,9 is not a cell of the map \(D-2\)"),
        (["terrain", "1,0"], "lava", r"unknown terrain 'lava'.*\(§10\)"),
        (["terrain", "1,0"], "enchanted", r"defines enchanted land 1,0 \(T-63\)"),
        (["modes", "duel", "portals", "2"], ["1,1"], r"forest \(T-58, T-59\)"),
        (["modes", "duel", "portals", "2"], ["0,5"], r"already the portal of seat 1 \(T-59\)"),
        (["modes", "duel", "portals"], {"1": ["0,5"]}, r"seats 1 to 2 \(T-59\)"),
        (["modes", "duel", "victory"], {}, r"victory.glory: is required \(T-25, T-95\)"),
        (["modes", "duel", "teams"], [[1], [2]], r"only 2 vs 2 has teams \(T-78\)"),
        (["modes", "duel", "targets"], {}, r"only the villain modes have villains \(T-81\)"),
        (["modes", "duel", "reserves", "1"], ["TC1-010"], r"4 champions per player"),
        (["modes", "battle"], {}, r"unknown mode.*\(T-75\)"),
        (["modes", "duel", "beacon_glory"], 2, r"beacon_glory: the map has no beacon \(T-65\)"),
        (["modes", "duel", "beacon_glory"], 0, r"beacon_glory"),
        (
            ["modes", "archvillain"],
            {"portals": {"1": ["0,5"]}, "victory": {"glory": 9}},
            r"solo or co-op scenario \(T-75\)|is required in Archvillain",
        ),
    ],
)
def test_broken_rules_are_refused(path, value, match):
    _refused(_set(path, value), match)


def test_disconnected_map_is_refused():
    def wall(data: dict) -> None:
        scen = _duel(data)
        ring = [c for c in hexagon(5) if c[1] == 1]  # a full row of impassable land
        for q, r in ring:
            scen["terrain"][f"{q},{r}"] = "enchanted"
            scen["enchanted"][f"{q},{r}"] = {"impassable": True}

    error = _refused(wall, r"the map is not connected.*\(D-2, D-11\)")
    assert error.field == "board"


def test_villain_modes_need_their_setup():
    def no_targets(data: dict) -> None:
        for scen in data["scenarios"]:
            if "solo" in scen["modes"]:
                del scen["modes"]["solo"]["targets"]

    _refused(no_targets, r"targets: is required in Solo \(T-83, T-84, T-89\)")

    def three_tokens(data: dict) -> None:
        for scen in data["scenarios"]:
            if "solo" in scen["modes"]:
                del scen["modes"]["solo"]["targets"]["c"]

    _refused(three_tokens, r"4 target tokens.*\(T-83\)")


def test_teams_must_split_four_seats():
    def bad(data: dict) -> None:
        for scen in data["scenarios"]:
            if "teams" in scen["modes"]:
                scen["modes"]["teams"]["teams"] = [[1, 2], [2, 4]]

    _refused(bad, r"split seats 1 to 4 \(T-78\)")


def test_references_are_checked(db):
    scen = next(iter(db.scenarios_for("solo")))
    data = copy.deepcopy(REAL)
    raw = next(s for s in data["scenarios"] if s["key"] == scen.key)
    raw["modes"]["solo"]["villains"] = list(reversed(raw["modes"]["solo"]["villains"]))
    bad = TacticsDB(db.sets, parse_scenarios(data, SOURCE))
    with pytest.raises(CardDataError, match=r"the first villain is the boss.*\(T-82\)"):
        check_references(bad)
    raw["modes"]["solo"]["villains"] = list(reversed(raw["modes"]["solo"]["villains"]))
    raw["modes"]["solo"]["schemes"] = ["TC1-001"]
    bad = TacticsDB(db.sets, parse_scenarios(data, SOURCE))
    with pytest.raises(CardDataError, match=r"TC1-001 is not a scheme \(T-84\)"):
        check_references(bad)


# ---------------------------------------------------------------- S-1 "Three Cairns" (§19)


def _c(*pairs: tuple[int, int]) -> list[str]:
    return [f"{q},{r}" for q, r in pairs]


def three_cairns(db: TacticsDB) -> dict:
    """The digest's sample scenario S-1 (a test fixture, not from the game)."""
    terrain = {}
    for cell in _c((0, 0), (-4, 2), (4, -2)):
        terrain[cell] = "shrine"
    for cell in _c((1, 1), (-1, -1), (-3, 1), (3, -1), (-2, 3), (2, -3)):
        terrain[cell] = "forest"
    for cell in _c((2, 2), (-2, -2)):
        terrain[cell] = "corrupted"
    for cell in _c((-5, 5), (5, -5)):
        terrain[cell] = "disabled_portal"
    for cell in _c((3, 1), (-3, -1)):
        terrain[cell] = "enchanted"
    villains = [v.id for v in db.bosses()[:1]] + [v.id for v in db.villains() if not v.is_boss][:3]
    return {
        "key": "three_cairns",
        "number": 1,
        "name": {"ru": "Три кургана", "en": "Three Cairns"},
        "rules": {"ru": "Первым набрать 30 славы.", "en": "First to 30 glory."},
        "board": {"radius": 5},
        "terrain": terrain,
        "enchanted": {c: {"impassable": True, "blocks_los": False} for c in _c((3, 1), (-3, -1))},
        "shrine_glory": 2,
        "treasure": _c((0, 2), (0, -2), (-4, 0), (4, 0), (-3, 4), (3, -4)),
        "modes": {
            "duel": {"portals": {"1": ["0,5"], "2": ["0,-5"]}, "victory": {"glory": 30}},
            "solo": {
                "portals": {"1": ["0,5"]},
                "victory": {"glory": 30},
                "villain_entry": ["0,-5"],
                "targets": {"boss": "0,0", "a": "-4,2", "b": "4,-2", "c": "0,3"},
                "villains": villains,
                "schemes": [s.id for s in db.schemes()][:4],
            },
        },
    }


def test_sample_scenario_three_cairns(db, tmp_path):
    path = tmp_path / SCENARIO_FILE
    raw = three_cairns(db)
    path.write_text(
        json.dumps({"system": "tactics", "scenarios": [raw]}, ensure_ascii=False),
        encoding="utf-8",
    )
    (s1,) = load_scenarios(path)
    check_references(TacticsDB(db.sets, [s1]))
    assert len(s1.cells) == 91
    # symmetric under (q, r) -> (-q, -r)
    assert {(-q, -r): t for (q, r), t in s1.terrain.items()} == dict(s1.terrain)
    assert set(s1.treasure) == {(-q, -r) for q, r in s1.treasure}
    # the side shrines are 7 steps from each portal (hex distance, D-1)
    p1, p2 = s1.modes["duel"].portals[1][0], s1.modes["duel"].portals[2][0]
    for shrine in ((-4, 2), (4, -2)):
        assert hexes.distance(shrine, p1) == hexes.distance(shrine, p2) == 7
    assert not s1.passable((3, 1)) and not s1.enchanted[(3, 1)].blocks_los
    assert hexes.is_connected([c for c in s1.cells if s1.passable(c)])
    assert s1.modes["solo"].targets["c"] == (0, 3)
    assert s1.modes["solo"].villain_entry == ((0, -5),)


@pytest.mark.rule("T-65", "D-2")
def test_two_shores_gives_glory_for_holding_both_beacons():
    db_scen = parse_scenarios(copy.deepcopy(REAL), SOURCE)
    two_shores = next(s for s in db_scen if s.key == "two_shores")
    assert two_shores.modes["teams"].beacon_glory == 2
    assert all(
        m.beacon_glory == 0 for s in db_scen if s.key != "two_shores" for m in s.modes.values()
    )
