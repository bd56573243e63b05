"""Terrain, movement and line of sight [§10-§12: T-35, T-39..T-44, T-54..T-56, T-58..T-70,
T-94, T-97; D-3, D-10, D-11, D-12, D-17].

Checklist (digest §20), the statements about geometry, terrain, movement or line of sight:
C-16, C-19, C-20, C-21, C-22, C-23, C-25, C-38, C-39, C-40, C-42, C-44, C-47, C-48, C-49,
C-50, C-51, C-52, C-53, C-54, C-61 (the treasure half), C-64 (the geometry), C-66, C-69;
plus the worked example of p.21 (T-69), the edge-grazing decision (D-3), the asymmetry of
T-70, the sample map S-1 (§19) and hypothesis properties.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tactics import hexes
from engine.tactics.hexes import distance, hexagon, point_reflect
from engine.tactics.terrain import (
    Battlefield,
    EnchantedLand,
    LosMethod,
    Terrain,
    activate_portals,
    area_targets,
    attack_targets,
    battlefield,
    beacon_controller,
    beacons_entered,
    blocks_sight,
    can_attack,
    capture_beacons,
    cells_of,
    check_path,
    closest,
    corruption_damage,
    counter_strike_reaches,
    enter_cost,
    entry_cells,
    is_impassable,
    line_of_sight,
    move_terrain,
    movement_costs,
    path_cost,
    path_to,
    place_terrain,
    portal_owner,
    portals,
    portals_activated,
    reachable,
    shrine_area,
    shrine_control,
    shrine_controller,
    shrine_counts,
    spawn_cells,
    take_treasure,
    terrain_at,
    travel_cost,
    treasure_taken,
    turn_start_corruption,
    visible_cells,
)

P1, P2 = 0, 1

# -- the sample scenario S-1 "Three Cairns" (§19) --------------------------------------------

S1_SHRINES = ((0, 0), (-4, 2), (4, -2))
S1_FOREST = ((1, 1), (-1, -1), (-3, 1), (3, -1), (-2, 3), (2, -3))
S1_CORRUPTED = ((2, 2), (-2, -2))
S1_DISABLED = ((-5, 5), (5, -5))
S1_ENCHANTED = ((3, 1), (-3, -1))
S1_TREASURE = ((0, 2), (0, -2), (-4, 0), (4, 0), (-3, 4), (3, -4))


def three_cairns(**changes) -> Battlefield:
    terrain = {
        **dict.fromkeys(S1_SHRINES, Terrain.SHRINE),
        **dict.fromkeys(S1_FOREST, Terrain.FOREST),
        **dict.fromkeys(S1_CORRUPTED, Terrain.CORRUPTED),
        **dict.fromkeys(S1_DISABLED, Terrain.DISABLED_PORTAL),
        **dict.fromkeys(S1_ENCHANTED, Terrain.ENCHANTED),
    }
    args = {
        "portals": {P1: [(0, 5)], P2: [(0, -5)]},
        "treasure": S1_TREASURE,
        "targets": {"boss": (0, 0), "a": (-4, 2), "b": (4, -2), "c": (0, 3)},
        "villain_entry": [(0, -5)],
        "enchanted": EnchantedLand(impassable=True, blocks_los=False),
        **changes,
    }
    return battlefield(hexagon(5), terrain, **args)


@pytest.fixture
def s1() -> Battlefield:
    return three_cairns()


@pytest.mark.rule("S-1")
def test_three_cairns_map(s1):
    assert len(s1.cells) == 91
    assert cells_of(s1, "shrine") == tuple(sorted(S1_SHRINES))
    assert cells_of(s1, Terrain.FOREST) == tuple(sorted(S1_FOREST))
    assert portals(s1, P1) == ((0, 5),) and portals(s1, P2) == ((0, -5),)
    assert portal_owner(s1, (-5, 5)) is None  # disabled: nobody's
    assert terrain_at(s1, (0, 1)) is Terrain.PLAIN
    assert len(cells_of(s1, Terrain.PLAIN)) == 91 - 3 - 6 - 2 - 2 - 2 - 2
    assert is_impassable(s1, (3, 1)) and not blocks_sight(s1, (3, 1))
    assert is_impassable(s1, (6, 0))  # off the map
    with pytest.raises(ValueError):
        terrain_at(s1, (6, 0))


@pytest.mark.rule("S-1")
def test_three_cairns_is_symmetric_through_the_centre(s1):
    """(q, r) -> (-q, -r) maps the map onto itself, the two seats' portals swapped."""
    for h in s1.cells:
        assert terrain_at(s1, h) == terrain_at(s1, point_reflect(h))
        assert (h in s1.treasure) == (point_reflect(h) in s1.treasure)
    assert point_reflect(portals(s1, P1)[0]) == portals(s1, P2)[0]


@pytest.mark.rule("S-1")
def test_three_cairns_side_shrines_are_7_steps_from_each_portal(s1):
    """§19: the side shrines are "both 7 steps from each portal" (hex distance), and the
    cheapest walk there costs 7 too; the centre shrine is 5 from each."""
    for shrine in ((-4, 2), (4, -2)):
        for portal in ((0, 5), (0, -5)):
            assert distance(shrine, portal) == 7
            assert travel_cost(s1, portal, shrine) == 7
    assert distance((0, 0), (0, 5)) == distance((0, 0), (0, -5)) == 5


# -- the battlefield value ---------------------------------------------------------------------


def test_battlefield_validates_and_compares_by_value():
    a = battlefield(hexagon(1), {(1, 0): "forest"}, portals={P1: [(0, 1)]})
    b = battlefield(hexagon(1), {(1, 0): Terrain.FOREST}, portals={P1: [(0, 1)]})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != battlefield(hexagon(1), {(1, 0): "corrupted"}, portals={P1: [(0, 1)]})
    with pytest.raises(ValueError):
        battlefield(hexagon(1), {(5, 0): "forest"})  # off the map
    with pytest.raises(ValueError):
        battlefield(hexagon(1), {(1, 0): "lava"})  # no such terrain
    with pytest.raises(ValueError):
        Battlefield(hexagon(1), {(1, 0): Terrain.PORTAL})  # a portal has a colour
    with pytest.raises(ValueError):
        Battlefield(hexagon(1), {(1, 0): Terrain.FOREST}, {(1, 0): 0})  # forest has no owner
    with pytest.raises(ValueError):
        battlefield(hexagon(1), treasure=[(3, 3)])
    with pytest.raises(ValueError):
        battlefield([])


@pytest.mark.rule("T-40", "T-61", "T-63")
def test_enter_costs(s1):
    assert enter_cost(s1, (0, 1)) == 1  # plain
    assert enter_cost(s1, (1, 1)) == 2  # forest
    assert enter_cost(s1, (2, 2)) == 1  # corrupted land: damage, no extra cost
    assert enter_cost(s1, (0, 0)) == 1  # T-64: shrines do not affect movement
    assert enter_cost(s1, (3, 1)) is None  # impassable enchanted land
    assert enter_cost(s1, (9, 9)) is None
    slow = battlefield(hexagon(1), {(1, 0): "enchanted"}, enchanted=EnchantedLand(extra_cost=2))
    assert enter_cost(slow, (1, 0)) == 3
    assert enter_cost(battlefield(hexagon(1), {(1, 0): "enchanted"}), (1, 0)) == 1


# -- movement [T-39..T-43, D-11] --------------------------------------------------------------


@pytest.mark.rule("T-39", "T-40", "C-19")
def test_c19_speed_3_on_plain_cells_cannot_move_4(s1):
    four = ((0, 5), (0, 4), (0, 3), (0, 2), (0, 1))
    assert check_path(s1, four, 3, seats={P1}) == "too far"
    assert check_path(s1, four[:4], 3, seats={P1}) is None
    assert (0, 1) not in reachable(s1, (0, 5), 3, seats={P1})
    assert reachable(s1, (0, 5), 3, seats={P1})[(0, 2)] == 3


@pytest.mark.rule("T-61", "C-20")
def test_c20_plain_forest_plain_costs_3(s1):
    assert path_cost(s1, ((1, 0), (1, 1), (1, 2))) == 3
    assert check_path(s1, ((1, 0), (1, 1), (1, 2)), 2) == "too far"
    assert check_path(s1, ((1, 0), (1, 1), (1, 2)), 3) is None
    # leaving a forest costs nothing extra; entering one from a forest does
    assert path_cost(s1, ((1, 1), (1, 2))) == 1
    woods = battlefield(hexagon(2), {(0, 0): "forest", (1, 0): "forest"})
    assert path_cost(woods, ((-1, 0), (0, 0), (1, 0))) == 4


def corridor(**kw) -> Battlefield:
    """A map whose cells are one row: the only route from (0,0) to (3,0)."""
    return battlefield([(0, 0), (1, 0), (2, 0), (3, 0)], **kw)


@pytest.mark.rule("T-41", "C-21", "D-11")
def test_c21_an_enemy_on_the_only_route_blocks_an_ally_does_not():
    bf = corridor()
    path = ((0, 0), (1, 0), (2, 0))
    assert check_path(bf, path, 3, enemies={(1, 0)}) == "enemy"
    assert reachable(bf, (0, 0), 3, enemies={(1, 0)}) == {}
    assert check_path(bf, path, 3, allies={(1, 0)}) is None
    assert reachable(bf, (0, 0), 3, allies={(1, 0)}) == {(2, 0): 2, (3, 0): 3}
    assert path_to(bf, (0, 0), (3, 0), 3, allies={(1, 0)}) == ((0, 0), (1, 0), (2, 0), (3, 0))


@pytest.mark.rule("T-41", "C-22")
def test_c22_a_move_cannot_end_on_an_ally(s1):
    assert check_path(s1, ((0, 5), (0, 4)), 3, allies={(0, 4)}, seats={P1}) == "occupied"
    assert check_path(s1, ((0, 5), (0, 4)), 3, enemies={(0, 4)}, seats={P1}) == "enemy"
    assert (0, 4) not in reachable(s1, (0, 5), 3, allies={(0, 4)}, seats={P1})
    assert (0, 3) in reachable(s1, (0, 5), 3, allies={(0, 4)}, seats={P1})


@pytest.mark.rule("T-43", "C-23")
def test_c23_an_opponent_portal_can_be_passed_not_ended_on(s1):
    assert check_path(s1, ((0, 4), (0, 5)), 3, seats={P2}) == "opponent portal"
    assert check_path(s1, ((-1, 5), (0, 5), (1, 4)), 3, seats={P2}) is None
    assert (0, 5) not in reachable(s1, (0, 3), 3, seats={P2})
    assert (0, 5) in movement_costs(s1, (0, 3), 3)  # it can be passed through
    # one's own portals do not matter (T-43), nor a teammate's (T-97)
    assert check_path(s1, ((0, 4), (0, 5)), 3, seats={P1}) is None
    assert check_path(s1, ((0, 4), (0, 5)), 3, seats={P1, P2}) is None


@pytest.mark.rule("T-40", "T-63", "D-11")
def test_impassable_and_disconnected_steps_are_refused(s1):
    assert check_path(s1, ((2, 1), (3, 1)), 3) == "impassable"
    assert check_path(s1, ((0, 0), (0, 2)), 3) == "not adjacent"
    assert check_path(s1, (), 3) == "empty"
    assert check_path(s1, ((0, 0),), 0) is None  # no move at all
    assert path_cost(s1, ((0, 0), (0, 2))) is None
    assert (3, 1) not in movement_costs(s1, (2, 1), 5)


@pytest.mark.rule("D-11")
def test_the_recorded_path_avoids_corrupted_land_among_cheapest(s1):
    """(2,1) -> (1,3): through (2,2) (corrupted) or (1,2), both cost 2; the path chosen takes
    no damage. A player may still choose the corrupted one (check_path accepts it)."""
    path = path_to(s1, (2, 1), (1, 3), 2)
    assert path == ((2, 1), (1, 2), (1, 3))
    assert corruption_damage(s1, path) == 0
    assert check_path(s1, ((2, 1), (2, 2), (1, 3)), 2) is None
    assert path_to(s1, (1, 2), (3, 1), 5) is None  # impassable
    assert path_to(s1, (0, 5), (0, 0), 3) is None  # too far


@pytest.mark.rule("T-1", "D-11")
def test_a_custom_step_cost_changes_movement(s1):
    """No §9 keyword changes movement; a card that does passes ``step_cost``."""

    def ignore_forest(bf, a, b):
        return None if is_impassable(bf, b) else 1

    assert path_cost(s1, ((1, 0), (1, 1), (1, 2)), step_cost=ignore_forest) == 2
    assert reachable(s1, (1, 0), 1, step_cost=ignore_forest)[(1, 1)] == 1
    assert (1, 1) not in reachable(s1, (1, 0), 1)


# -- entering, placing [T-35, T-60, T-94, T-97, D-8, D-10] -----------------------------------


@pytest.mark.rule("T-35", "C-16", "D-8")
def test_c16_an_entering_champion_goes_on_an_unoccupied_own_portal(s1):
    assert entry_cells(s1, P1) == ((0, 5),)
    assert entry_cells(s1, P2) == ((0, -5),)
    assert entry_cells(s1, P1, occupied={(0, 5)}) == ()  # D-8: no entry possible
    two = three_cairns(portals={P1: [(0, 5), (-5, 5)], P2: [(0, -5)]})
    assert entry_cells(two, P1, occupied={(0, 5)}) == ((-5, 5),)


@pytest.mark.rule("T-60", "C-49", "D-10")
def test_c49_a_disabled_portal_admits_nobody_until_moved_through(s1):
    assert (-5, 5) not in entry_cells(s1, P1)
    assert portals_activated(s1, ((-5, 5),)) == ()  # placed there: no move (D-10)
    path = ((-4, 5), (-5, 5), (-4, 4))  # through it
    assert portals_activated(s1, path) == ((-5, 5),)
    after = activate_portals(s1, path, P1)
    assert terrain_at(after, (-5, 5)) is Terrain.PORTAL and portal_owner(after, (-5, 5)) == P1
    assert entry_cells(after, P1) == ((-5, 5), (0, 5))
    assert (-5, 5) not in entry_cells(after, P2)
    into = activate_portals(s1, ((-4, 5), (-5, 5)), P2)  # ending on it activates too
    assert portal_owner(into, (-5, 5)) == P2
    assert activate_portals(s1, ((0, 4), (0, 3)), P1) == s1


@pytest.mark.rule("T-97", "C-69")
def test_c69_co_op_players_each_enter_only_through_their_own_portal(s1):
    coop = three_cairns(portals={P1: [(0, 5)], P2: [(-5, 5)]})
    assert entry_cells(coop, P1) == ((0, 5),)
    assert entry_cells(coop, P2) == ((-5, 5),)
    # a teammate's portal is no opponent's: either may stand on it
    assert check_path(coop, ((-4, 5), (-5, 5)), 3, seats={P1, P2}) is None


@pytest.mark.rule("T-94", "C-66")
def test_c66_a_villain_cultist_spawns_on_the_cell_or_next_to_it_or_not_at_all(s1):
    assert spawn_cells(s1, (0, 3)) == ((0, 3),)
    ring = set(hexes.neighbours((0, 3)))
    assert set(spawn_cells(s1, (0, 3), occupied={(0, 3)})) == ring
    assert spawn_cells(s1, (0, 3), occupied={(0, 3), *ring}) == ()
    assert spawn_cells(s1, (0, 3), occupied={(0, 3), *ring} - {(1, 3)}) == ((1, 3),)
    # never on an opponent's portal (T-43) nor on an impassable cell
    assert (0, 5) not in spawn_cells(s1, (0, 4), occupied={(0, 4)})
    assert (3, 1) not in spawn_cells(s1, (2, 1), occupied={(2, 1)})


# -- what a move does on the way [T-62, T-65, T-67, D-12] ------------------------------------


@pytest.mark.rule("T-62", "C-47")
def test_c47_a_path_through_2_corrupted_cells_deals_10(s1):
    bf = place_terrain(s1, (3, 2), Terrain.CORRUPTED)
    path = ((1, 2), (2, 2), (3, 2))
    assert corruption_damage(bf, path) == 10
    assert corruption_damage(bf, ((2, 2), (2, 1))) == 0  # leaving costs no damage
    assert corruption_damage(bf, path, ignores=True) == 0  # villains in solo/co-op


@pytest.mark.rule("T-62", "C-48", "D-12")
def test_c48_a_champion_on_corrupted_land_takes_5_at_every_turn_start(s1):
    assert turn_start_corruption(s1, [(2, 2), (0, 0), (-2, -2)]) == {(-2, -2): 5, (2, 2): 5}
    assert turn_start_corruption(s1, [(0, 0)]) == {}


@pytest.mark.rule("T-65", "C-51", "D-10")
def test_c51_a_beacon_is_captured_by_passing_through():
    bf = battlefield(hexagon(3), beacons={(0, 0): P2, (2, 0): None})
    assert beacon_controller(bf, (0, 0)) == P2 and beacon_controller(bf, (2, 0)) is None
    path = ((0, 1), (0, 0), (0, -1))
    assert beacons_entered(bf, path) == ((0, 0),)
    after = capture_beacons(bf, path, P1)
    assert beacon_controller(after, (0, 0)) == P1
    assert beacon_controller(after, (2, 0)) is None
    assert enter_cost(bf, (0, 0)) == 1  # beacons do not affect movement
    assert capture_beacons(bf, ((0, 0),), P1) == bf  # standing there is no move


@pytest.mark.rule("T-67", "C-53")
def test_c53_treasure_is_taken_by_ending_a_move_not_by_passing(s1):
    assert treasure_taken(s1, ((0, 4), (0, 3), (0, 2))) == (0, 2)
    assert treasure_taken(s1, ((0, 3), (0, 2), (0, 1))) is None
    assert (0, 2) not in take_treasure(s1, (0, 2)).treasure
    assert take_treasure(s1, (0, 1)) == s1


@pytest.mark.rule("T-67", "C-54", "D-10")
def test_c54_treasure_on_a_portal_goes_to_the_champion_entering_there():
    bf = three_cairns(treasure=[(0, 5)])
    (cell,) = entry_cells(bf, P1)
    assert treasure_taken(bf, (cell,)) == (0, 5)


@pytest.mark.rule("T-90", "C-61")
def test_c61_a_villain_ending_on_treasure_leaves_it(s1):
    assert treasure_taken(s1, ((0, 3), (0, 2)), collects=False) is None


# -- terrain tokens [T-58] --------------------------------------------------------------------


@pytest.mark.rule("T-58", "C-52")
def test_c52_terrain_goes_only_on_a_plain_cell(s1):
    assert place_terrain(s1, (0, 0), Terrain.FOREST) == s1  # a shrine: ignored
    assert place_terrain(s1, (1, 1), Terrain.CORRUPTED) == s1  # already a token
    assert place_terrain(s1, (0, 5), Terrain.FOREST) == s1  # a portal
    assert place_terrain(s1, (9, 9), Terrain.FOREST) == s1  # off the map
    grown = place_terrain(s1, (0, 1), Terrain.FOREST)
    assert terrain_at(grown, (0, 1)) is Terrain.FOREST
    assert terrain_at(place_terrain(s1, (0, 2), "forest"), (0, 2)) is Terrain.FOREST  # T-66
    moved = move_terrain(s1, (1, 1), (0, 1))
    assert terrain_at(moved, (1, 1)) is Terrain.PLAIN
    assert terrain_at(moved, (0, 1)) is Terrain.FOREST
    assert move_terrain(s1, (1, 1), (0, 0)) == s1  # onto a shrine: ignored
    assert move_terrain(s1, (0, 1), (0, 3)) == s1  # nothing to move


# -- shrines [T-64, T-79] --------------------------------------------------------------------


@pytest.mark.rule("T-64", "C-50")
def test_c50_shrine_control_needs_strictly_the_most_champions(s1):
    assert len(shrine_area(s1, (0, 0))) == 7
    assert len(shrine_area(s1, (-4, 2))) == 7
    two_two = {(0, 0): P1, (1, 0): P1, (0, -1): P2, (-1, 0): P2, (0, 3): P1}
    assert shrine_counts(s1, (0, 0), two_two) == {P1: 2, P2: 2}
    assert shrine_controller(s1, (0, 0), two_two) is None
    three_two = {**two_two, (0, 1): P1}
    assert shrine_controller(s1, (0, 0), three_two) == P1
    assert shrine_controller(s1, (0, 0), {}) is None
    assert shrine_control(s1, three_two) == {(-4, 2): None, (0, 0): P1, (4, -2): None}
    with pytest.raises(ValueError):
        shrine_area(s1, (0, 1))


@pytest.mark.rule("T-64", "T-79", "C-58")
def test_shrine_control_counts_sides_so_teams_count_together(s1):
    """In 2 vs 2 the caller maps each champion to its team (T-79)."""
    team_of = {0: "A", 1: "B", 2: "A", 3: "B"}
    seats = {(0, 0): 0, (1, 0): 2, (0, -1): 1}
    teams = {h: team_of[s] for h, s in seats.items()}
    assert shrine_controller(s1, (0, 0), seats) is None  # seat by seat: 1-1-1
    assert shrine_controller(s1, (0, 0), teams) == "A"


# -- line of sight [T-68..T-70, D-3] ----------------------------------------------------------


@pytest.mark.rule("T-54", "T-44", "C-25")
def test_c25_without_ranged_attack_only_adjacent_enemies(s1):
    assert can_attack(s1, (0, 3), (0, 2), enemies={(0, 2)})
    assert not can_attack(s1, (0, 3), (0, 1), enemies={(0, 1)})
    assert can_attack(s1, (0, 3), (0, 1), enemies={(0, 1)}, ranged=True)
    assert not can_attack(s1, (0, 3), (0, 3), enemies={(0, 3)})


@pytest.mark.rule("T-54", "C-38", "D-1")
def test_c38_ranged_reaches_3_cells_in_line_of_sight_not_4(s1):
    shooter = (0, 4)
    assert can_attack(s1, shooter, (0, 1), enemies={(0, 1)}, ranged=True)
    assert not can_attack(s1, shooter, (0, 0), enemies={(0, 0)}, ranged=True)
    assert attack_targets(s1, shooter, {(0, 1), (0, 0), (1, 3)}, ranged=True) == (
        (0, 1),
        (1, 3),
    )


@pytest.mark.rule("T-61", "T-68", "C-39")
def test_c39_forest_between_blocks_forest_under_the_target_does_not(s1):
    assert not can_attack(s1, (1, 0), (1, 2), enemies={(1, 2)}, ranged=True)  # (1,1) between
    assert can_attack(s1, (1, -1), (1, 1), enemies={(1, 1)}, ranged=True)  # target in forest
    assert line_of_sight(s1, (1, 1), (1, 3))  # the viewer in a forest: no matter
    assert line_of_sight(s1, (1, 1), (1, -1))


@pytest.mark.rule("T-68", "C-40")
def test_c40_an_enemy_between_blocks_an_ally_or_a_shrine_does_not(s1):
    assert not can_attack(s1, (0, 4), (0, 2), enemies={(0, 3), (0, 2)}, ranged=True)
    assert can_attack(s1, (0, 4), (0, 2), enemies={(0, 2)}, ranged=True)  # ally on (0,3)
    assert line_of_sight(s1, (0, 1), (0, -1))  # the shrine (0,0) between
    # target tokens and treasure do not block either (T-67c)
    assert line_of_sight(s1, (0, 4), (0, 1))  # (0,3) token "c", (0,2) treasure


@pytest.mark.rule("T-69")
def test_t69_the_worked_example_of_page_21():
    """The diagram is lost with the OCR; this layout follows its text. Icarus Steelstrider
    (A, ranged) at the centre, his ally Tyranix to his left; the rest are enemies: Water
    Djinn (B) adjacent, Mirror Askara (C) behind Djinn, Free Envoy (D) past Tyranix and a
    shrine, Templar Archi (E) past a forest, Twilight Scout (F) in a forest."""
    icarus, tyranix = (0, 0), (-1, 0)
    b, c, d, e, f = (1, 0), (2, 0), (-3, 0), (0, 2), (0, -2)
    bf = battlefield(hexagon(4), {(-2, 0): "shrine", (0, 1): "forest", f: "forest"})
    enemies = {b, c, d, e, f}
    legal = set(attack_targets(bf, icarus, enemies, ranged=True))
    assert legal == {b, d, f}
    seen = visible_cells(bf, icarus, 3, enemies=enemies)
    assert tyranix in seen and d in seen and f in seen  # allies and shrines do not block
    assert c not in seen and e not in seen


@pytest.mark.rule("D-3", "T-68")
def test_d3_an_edge_grazing_line_is_blocked_only_if_both_sides_are():
    """(0,0) -> (1,1) runs along the edge between (1,0) and (0,1)."""
    one = battlefield(hexagon(2), {(1, 0): "forest"})
    both = battlefield(hexagon(2), {(1, 0): "forest", (0, 1): "forest"})
    assert line_of_sight(one, (0, 0), (1, 1))
    assert not line_of_sight(both, (0, 0), (1, 1))
    assert line_of_sight(battlefield(hexagon(2)), (0, 0), (1, 1), enemies={(0, 1)})
    assert not line_of_sight(battlefield(hexagon(2)), (0, 0), (1, 1), enemies={(0, 1), (1, 0)})
    # the alternatives D-3 names
    assert line_of_sight(one, (0, 0), (1, 1), method=LosMethod.ANY_SHORTEST)
    assert not line_of_sight(one, (0, 0), (1, 1), method="all_shortest")


@pytest.mark.rule("D-3")
def test_d3_the_methods_differ_off_the_straight_line():
    """(0,0) -> (2,1): the line passes (1,0) and (1,1); a forest at (2,0) is on a shortest
    path (the cells of some shortest path: (1,0), (1,1), (2,0), (0,1)) but not on the line."""
    bf = battlefield(hexagon(3), {(2, 0): "forest"})
    assert hexes.lines((0, 0), (2, 1)) == (((0, 0), (1, 0), (1, 1), (2, 1)),)
    assert hexes.geodesic_cells((0, 0), (2, 1)) - {(0, 0), (2, 1)} == {
        (1, 0),
        (1, 1),
        (2, 0),
        (0, 1),
    }
    assert line_of_sight(bf, (0, 0), (2, 1))
    assert line_of_sight(bf, (0, 0), (2, 1), method=LosMethod.ANY_SHORTEST)
    assert not line_of_sight(bf, (0, 0), (2, 1), method=LosMethod.ALL_SHORTEST)
    walls = battlefield(hexagon(3), {(1, 0): "forest", (1, 1): "forest"})
    assert not line_of_sight(walls, (0, 0), (2, 1), method=LosMethod.ANY_SHORTEST)


@pytest.mark.rule("T-63", "D-2")
def test_enchanted_land_blocks_sight_only_if_the_scenario_says(s1):
    assert line_of_sight(s1, (2, 1), (4, 1))  # through (3,1): impassable, transparent
    walled = three_cairns(enchanted=EnchantedLand(impassable=True, blocks_los=True))
    assert not line_of_sight(walled, (2, 1), (4, 1))


@pytest.mark.rule("T-70", "T-55")
def test_t70_line_of_sight_is_judged_from_the_viewer_and_may_be_one_way(s1):
    """A on (0,4), B on (0,2), A's ally on (0,3): A sees B past its ally; B's view of A is
    blocked by its enemy (A's ally), so a ranged B cannot counter-strike A's shot."""
    a, b, ally = (0, 4), (0, 2), (0, 3)
    assert line_of_sight(s1, a, b, enemies={b})
    assert not line_of_sight(s1, b, a, enemies={a, ally})
    assert not counter_strike_reaches(s1, b, a, defender_ranged=True, defender_enemies={a, ally})
    assert counter_strike_reaches(s1, b, a, defender_ranged=True, defender_enemies={a})


@pytest.mark.rule("T-55", "C-42")
def test_c42_no_counter_strike_on_a_distant_shooter_without_ranged(s1):
    defender, shooter = (0, 2), (0, 4)
    assert can_attack(s1, shooter, defender, enemies={defender}, ranged=True)
    assert not counter_strike_reaches(s1, defender, shooter, defender_enemies={shooter})
    assert counter_strike_reaches(s1, defender, (0, 3), defender_enemies={(0, 3)})
    assert counter_strike_reaches(
        s1, defender, shooter, defender_ranged=True, defender_enemies={shooter}
    )


@pytest.mark.rule("T-56", "C-44")
def test_c44_an_area_attack_hits_every_enemy_it_could_attack(s1):
    me = (0, 3)
    three = {(1, 3), (-1, 3), (0, 2)}
    assert area_targets(s1, me, three) == tuple(sorted(three))
    # with Ranged attack too: every enemy within 3 in line of sight; (0,0) is behind the
    # enemy on (0,2), (0,-1) is 4 away
    many = {*three, (0, 0), (3, 0), (0, -1)}
    assert area_targets(s1, me, many, ranged=True) == tuple(sorted({*three, (3, 0)}))


@pytest.mark.rule("T-67a")
def test_the_turret_may_attack_an_enemy_in_its_own_cell(s1):
    assert can_attack(s1, (0, 3), (0, 3), enemies={(0, 3)}, own_cell=True)
    assert line_of_sight(s1, (0, 3), (0, 3), enemies={(0, 3)})


# -- villains: the geometry of T-91 [D-17] ---------------------------------------------------


@pytest.mark.rule("T-91", "C-64", "D-17")
def test_c64_the_approach_cell_closest_to_the_target():
    bf = battlefield(hexagon(4))
    villain, victim, target = (0, -3), (0, -1), (1, 2)
    dests = reachable(bf, villain, 3, enemies={victim})
    approach = [h for h in dests if hexes.adjacent(h, victim)]
    assert set(approach) == {(1, -1), (1, -2), (0, -2), (-1, -1), (-1, 0)}
    assert closest(bf, approach, target, enemies={victim}) == ((1, -1),)


@pytest.mark.rule("D-17")
def test_closer_is_by_movement_cost_then_hex_distance():
    plain = battlefield(hexagon(4))
    assert closest(plain, [(1, -1), (-1, 0)], (0, 2)) == ((-1, 0), (1, -1))  # a tie
    woods = battlefield(hexagon(4), {(1, 0): "forest", (0, 0): "forest"})
    assert closest(woods, [(1, -1), (-1, 0)], (0, 2)) == ((-1, 0),)
    assert travel_cost(woods, (1, -1), (0, 2)) == 4
    cut = battlefield([(0, 0), (1, 0), (5, 0)])  # (5,0) cannot be reached: by distance
    assert travel_cost(cut, (0, 0), (5, 0)) is None
    assert closest(cut, [(0, 0), (1, 0)], (5, 0)) == ((1, 0),)
    assert closest(cut, [], (5, 0)) == ()


# -- properties ----------------------------------------------------------------------------------

R3 = sorted(hexagon(3))
cell3 = st.sampled_from(R3)
token = st.sampled_from(
    [Terrain.FOREST, Terrain.CORRUPTED, Terrain.ENCHANTED, Terrain.SHRINE, Terrain.BEACON]
)
enchanted_st = st.builds(
    EnchantedLand,
    impassable=st.booleans(),
    blocks_los=st.booleans(),
    extra_cost=st.integers(min_value=0, max_value=2),
)


@st.composite
def fields(draw):
    terrain = draw(st.dictionaries(cell3, token, max_size=14))
    p1, p2 = draw(st.lists(cell3, min_size=2, max_size=2, unique=True))
    terrain = {h: t for h, t in terrain.items() if h not in (p1, p2)}
    return battlefield(
        hexagon(3), terrain, portals={P1: [p1], P2: [p2]}, enchanted=draw(enchanted_st)
    )


@st.composite
def positions(draw):
    start = draw(cell3)
    others = draw(st.lists(cell3.filter(lambda h: h != start), max_size=8, unique=True))
    k = draw(st.integers(min_value=0, max_value=len(others)))
    return start, set(others[:k]), set(others[k:])  # start, enemies, allies


speed = st.integers(min_value=0, max_value=6)
methods = st.sampled_from(list(LosMethod))


@given(fields(), cell3, cell3, st.sets(cell3, max_size=8), methods)
def test_line_of_sight_is_symmetric_for_the_same_blockers(bf, a, b, enemies, method):
    """With the same blocking cells (terrain, and champions enemy to both), every method is
    symmetric (T-68; the asymmetry of T-70 comes only from different enemies)."""
    assert line_of_sight(bf, a, b, enemies=enemies, method=method) == line_of_sight(
        bf, b, a, enemies=enemies, method=method
    )


@given(fields(), cell3, cell3, st.sets(cell3, max_size=8))
def test_the_los_methods_are_ordered_all_line_any(bf, a, b, enemies):
    def sees(method):
        return line_of_sight(bf, a, b, enemies=enemies, method=method)

    if sees(LosMethod.ALL_SHORTEST):
        assert sees(LosMethod.LINE)
    if sees(LosMethod.LINE):
        assert sees(LosMethod.ANY_SHORTEST)


@given(fields(), cell3, cell3, st.sets(cell3, max_size=8), methods)
def test_what_stands_on_the_ends_never_matters(bf, a, b, enemies, method):
    base = line_of_sight(bf, a, b, enemies=enemies - {a, b}, method=method)
    assert line_of_sight(bf, a, b, enemies=enemies | {a, b}, method=method) == base
    ends = {h: Terrain.FOREST for h in (a, b) if bf.terrain.get(h) is not Terrain.PORTAL}
    wooded = battlefield(
        bf.cells,
        {h: t for h, t in {**bf.terrain, **ends}.items() if t is not Terrain.PORTAL},
        portals={s: portals(bf, s) for s in (P1, P2)},
        enchanted=bf.enchanted,
    )
    assert line_of_sight(wooded, a, b, enemies=enemies - {a, b}, method=method) == base


@given(cell3, cell3, methods)
def test_on_open_ground_everything_is_in_sight(a, b, method):
    assert line_of_sight(battlefield(hexagon(3)), a, b, method=method)


@given(fields(), positions(), speed, st.integers(min_value=0, max_value=3))
def test_reachable_set_is_monotone_in_movement(bf, pos, m, extra):
    start, enemies, allies = pos
    less = reachable(bf, start, m, enemies=enemies, allies=allies, seats={P1})
    more = reachable(bf, start, m + extra, enemies=enemies, allies=allies, seats={P1})
    assert less.keys() <= more.keys()
    assert all(more[h] == c for h, c in less.items())


@given(fields(), positions(), speed)
def test_a_path_never_costs_more_than_the_movement(bf, pos, m):
    start, enemies, allies = pos
    kw = {"enemies": enemies, "allies": allies, "seats": {P1}}
    dests = reachable(bf, start, m, **kw)
    for dest, cost in dests.items():
        path = path_to(bf, start, dest, m, **kw)
        assert path[0] == start and path[-1] == dest
        assert path_cost(bf, path) == cost <= m
        assert check_path(bf, path, m, **kw) is None
        assert not (set(path) & enemies)
        assert dest not in allies and portal_owner(bf, dest) in (None, P1)


def _bellman_ford(bf, start, enemies):
    cost = {start: 0}
    changed = True
    while changed:
        changed = False
        for h, c in list(cost.items()):
            for n in hexes.neighbours(h):
                step = enter_cost(bf, n)
                if step is None or n in enemies:
                    continue
                if c + step < cost.get(n, 1 << 30):
                    cost[n] = c + step
                    changed = True
    return cost


@given(fields(), positions(), speed)
def test_movement_costs_are_the_least_costs(bf, pos, m):
    start, enemies, _ = pos
    every = _bellman_ford(bf, start, enemies - {start})
    assert movement_costs(bf, start, m, enemies=enemies) == {
        h: c for h, c in every.items() if c <= m
    }
    for h, c in every.items():
        assert travel_cost(bf, start, h, enemies=enemies - {h}) == c


@given(cell3, speed)
def test_on_open_ground_costs_are_hex_distances(start, m):
    open_ground = battlefield(hexagon(3))
    costs = movement_costs(open_ground, start, m)
    assert costs == {h: distance(start, h) for h in R3 if distance(start, h) <= m}


@given(fields(), cell3, token)
def test_placing_terrain_changes_only_plain_cells(bf, h, t):
    after = place_terrain(bf, h, t)
    if h in bf.terrain:
        assert after == bf
    else:
        assert terrain_at(after, h) is t
        assert {k: v for k, v in after.terrain.items() if k != h} == dict(bf.terrain)


@given(
    st.dictionaries(cell3, st.sampled_from([P1, P2]), max_size=12),
    st.sampled_from([P1, P2]),
    cell3,
)
def test_a_further_champion_never_costs_its_side_a_shrine(placed, side, extra):
    bf = battlefield(hexagon(3), {(0, 0): "shrine"})
    before = shrine_controller(bf, (0, 0), placed)
    if extra in placed:
        return
    after = shrine_controller(bf, (0, 0), {**placed, extra: side})
    if before == side:
        assert after == side
    if after is not None and after != side:
        assert before == after


def test_every_pair_on_the_sample_map_agrees_with_hand_counts(s1):
    """A sweep over S-1: each ranged target set is within 3 and in sight."""
    for a, b in itertools.product([(0, 4), (0, 0), (-4, 2)], repeat=2):
        d = distance(a, b)
        assert can_attack(s1, a, b, enemies={b}, ranged=True) == (
            (d == 1) or (2 <= d <= 3 and line_of_sight(s1, a, b))
        )
