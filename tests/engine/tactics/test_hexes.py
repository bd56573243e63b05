"""The hex geometry of Ascension Tactics [glossary "Ячейка"; D-1, D-3, T-54].

Axial coordinates, the "q,r" text form, neighbours, distance, rings and areas, map bounds
and the nudged cube-lerp lines; hypothesis properties over a large patch of the grid.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tactics import hexes
from engine.tactics.hexes import (
    DIRECTIONS,
    Bounds,
    adjacent,
    between,
    bounds,
    distance,
    from_cube,
    geodesic_cells,
    hex_text,
    hexagon,
    is_connected,
    line,
    lines,
    neighbours,
    neighbours_in,
    parse_hex,
    point_reflect,
    radius,
    ring,
    rotate,
    to_cube,
    within,
)

coord = st.integers(min_value=-30, max_value=30)
hex_st = st.tuples(coord, coord)
small = st.integers(min_value=0, max_value=8)


# -- coordinates and text [D-1] -------------------------------------------------------------


@pytest.mark.rule("D-1")
def test_axial_neighbour_offsets_are_the_six_of_d1():
    """D-1: (±1,0), (0,±1), (+1,−1), (−1,+1)."""
    assert set(DIRECTIONS) == {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
    assert set(neighbours((0, 0))) == set(DIRECTIONS)
    assert set(neighbours((2, -1))) == {(3, -1), (1, -1), (2, 0), (2, -2), (3, -2), (1, 0)}


@pytest.mark.rule("D-1")
def test_cube_coordinates_sum_to_zero():
    assert to_cube((2, -5)) == (2, -5, 3)
    assert from_cube((2, -5, 3)) == (2, -5)
    with pytest.raises(ValueError):
        from_cube((1, 1, 1))


@pytest.mark.rule("D-2")
@pytest.mark.parametrize(
    ("text", "cell"),
    [("0,5", (0, 5)), ("-2,3", (-2, 3)), (" -2 , 3 ", (-2, 3)), ("(-2, 3)", (-2, 3)),
     ("−4,2", (-4, 2)), ("10,-10", (10, -10))],
)  # fmt: skip
def test_parse_hex_reads_the_data_file_form(text, cell):
    assert parse_hex(text) == cell


@pytest.mark.parametrize("text", ["", "1", "1,2,3", "a,b", "1;2", "1.0,2", "+1,2", ",2", "1,"])
def test_parse_hex_refuses_anything_else(text):
    with pytest.raises(ValueError):
        parse_hex(text)


@pytest.mark.parametrize("bad", [(1, 2, 3), (1.0, 2), (True, 0), "0,0", None, [0, 0]])
def test_functions_refuse_what_is_not_a_hex(bad):
    with pytest.raises(ValueError):
        neighbours(bad)
    with pytest.raises(ValueError):
        hex_text(bad)


@given(hex_st)
def test_text_round_trips(h):
    assert parse_hex(hex_text(h)) == h


# -- distance and adjacency [D-1, T-54] ------------------------------------------------------


@pytest.mark.rule("D-1")
def test_distance_examples():
    assert distance((0, 0), (0, 0)) == 0
    assert distance((0, 0), (3, 0)) == 3
    assert distance((0, 0), (3, -3)) == 3
    assert distance((0, 0), (2, 2)) == 4
    assert distance((0, 5), (0, -5)) == 10
    assert distance((-4, 2), (4, -2)) == 8


@given(hex_st, hex_st, hex_st)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hex_st, hex_st)
def test_distance_is_the_fewest_steps(a, b):
    """Greedy stepping to a neighbour one closer always exists and takes distance steps."""
    steps, h = 0, a
    while h != b:
        h = next(n for n in neighbours(h) if distance(n, b) == distance(h, b) - 1)
        steps += 1
    assert steps == distance(a, b)


@given(hex_st)
def test_neighbours_are_the_six_cells_at_distance_one(h):
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 and adjacent(h, n) for n in ns)
    assert set(ns) == set(ring(h, 1))
    assert not adjacent(h, h)


@given(hex_st, hex_st)
def test_neighbourhood_is_symmetric(a, b):
    assert (b in neighbours(a)) == (a in neighbours(b)) == adjacent(a, b)


def test_neighbours_in_a_map():
    board = hexagon(5)
    assert len(neighbours_in((0, 0), board)) == 6
    assert set(neighbours_in((0, 5), board)) == {(1, 4), (-1, 5), (0, 4)}
    assert len(neighbours_in((5, -5), board)) == 3
    assert len(neighbours_in((2, 3), board)) == 4  # an edge cell


# -- rings, areas, maps ----------------------------------------------------------------------


@given(hex_st, small)
def test_ring_has_6n_cells_all_at_distance_n(c, n):
    r = ring(c, n)
    assert len(r) == len(set(r)) == (6 * n if n else 1)
    assert all(distance(c, h) == n for h in r)
    if n:  # walked once round: each cell adjacent to the next, and the last to the first
        assert all(adjacent(a, b) for a, b in zip(r, r[1:] + r[:1], strict=True))


@given(hex_st, small)
def test_within_is_every_cell_up_to_n(c, n):
    area = within(c, n)
    assert len(area) == len(set(area)) == 3 * n * n + 3 * n + 1
    box = {(c[0] + dq, c[1] + dr) for dq in range(-n, n + 1) for dr in range(-n, n + 1)}
    assert set(area) == {h for h in box if distance(c, h) <= n}


@given(hex_st, small, small)
def test_areas_are_monotone(c, m, n):
    if m <= n:
        assert set(within(c, m)) <= set(within(c, n))


def test_rings_and_areas_refuse_negative_radii():
    with pytest.raises(ValueError):
        ring((0, 0), -1)
    with pytest.raises(ValueError):
        within((0, 0), -1)


@pytest.mark.rule("S-1")
def test_the_sample_board_is_a_radius_5_hexagon_of_91_cells():
    board = hexagon(5)
    assert len(board) == 91
    assert board == {
        (q, r) for q in range(-5, 6) for r in range(-5, 6) if max(abs(q), abs(r), abs(q + r)) <= 5
    }
    assert bounds(board) == Bounds(-5, 5, -5, 5, -5, 5)
    assert radius(board) == 5
    assert is_connected(board)
    assert {point_reflect(h) for h in board} == board
    assert {rotate(h) for h in board} == board


def test_bounds_of_an_irregular_map():
    cells = [(0, 0), (3, -1), (-2, 4)]
    b = bounds(cells)
    assert b == Bounds(-2, 3, -1, 4, -2, 0)
    assert all(b.contains(h) for h in cells)
    assert not b.contains((4, 0))
    with pytest.raises(ValueError):
        bounds([])
    assert not is_connected([(0, 0), (2, 0)])
    assert is_connected([])


@given(st.lists(hex_st, min_size=1, max_size=20))
def test_bounds_hold_every_cell_and_are_tight(cells):
    b = bounds(cells)
    assert all(b.contains(h) for h in cells)
    cubes = [to_cube(h) for h in cells]
    assert b.min_q == min(c[0] for c in cubes) and b.max_s == max(c[2] for c in cubes)


@given(hex_st, hex_st, st.integers(min_value=0, max_value=5))
def test_rotation_and_reflection_preserve_distance(a, b, k):
    assert distance(rotate(a, k), rotate(b, k)) == distance(a, b)
    assert distance(point_reflect(a), point_reflect(b)) == distance(a, b)
    assert rotate(a, 3) == point_reflect(a)
    assert rotate(rotate(a, k), 6 - k) == a


# -- lines [D-3] ------------------------------------------------------------------------------


@pytest.mark.rule("D-3")
def test_a_line_along_an_axis_is_the_row_between():
    assert line((0, 0), (3, 0)) == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert line((0, 5), (0, 2)) == ((0, 5), (0, 4), (0, 3), (0, 2))
    assert lines((0, 0), (3, -3)) == (((0, 0), (1, -1), (2, -2), (3, -3)),)


@pytest.mark.rule("D-3")
def test_a_line_off_the_axes_is_one_line_when_no_edge_is_grazed():
    assert (
        line((0, 0), (3, -1), 1) == line((0, 0), (3, -1), -1) == ((0, 0), (1, 0), (2, -1), (3, -1))
    )
    assert len(lines((0, 0), (4, 1))) == 1


@pytest.mark.rule("D-3")
def test_an_edge_grazing_line_has_two_nudged_lines():
    """(0,0) -> (1,1): the centre-to-centre line runs along the edge between (1,0) and
    (0,1); the +ε nudge passes (0,1), the −ε nudge (1,0)."""
    assert line((0, 0), (1, 1), 1) == ((0, 0), (0, 1), (1, 1))
    assert line((0, 0), (1, 1), -1) == ((0, 0), (1, 0), (1, 1))
    assert between((0, 0), (1, 1)) == (frozenset({(0, 1)}), frozenset({(1, 0)}))
    assert len(lines((0, 0), (2, 2))) == 2
    assert len(lines((0, 0), (2, -4))) == 2  # the same in another of the 6 such directions


def test_line_refuses_a_bad_nudge():
    with pytest.raises(ValueError):
        line((0, 0), (1, 0), 0)


@given(hex_st, hex_st, st.sampled_from([1, -1]))
def test_a_line_is_a_shortest_path(a, b, nudge):
    ln = line(a, b, nudge)
    assert ln[0] == a and ln[-1] == b
    assert len(ln) == distance(a, b) + 1
    assert all(adjacent(x, y) for x, y in itertools.pairwise(ln))
    assert set(ln) <= geodesic_cells(a, b)


@given(hex_st, hex_st, st.sampled_from([1, -1]))
def test_a_line_backwards_is_the_same_cells(a, b, nudge):
    """Exact arithmetic: the samples of b -> a are those of a -> b in reverse order."""
    assert line(b, a, nudge) == tuple(reversed(line(a, b, nudge)))
    assert set(between(a, b)) == set(between(b, a))


@given(hex_st, hex_st, hex_st, st.sampled_from([1, -1]))
def test_lines_are_translation_invariant(a, b, t, nudge):
    moved = line(hexes.add(a, t), hexes.add(b, t), nudge)
    assert moved == tuple(hexes.add(h, t) for h in line(a, b, nudge))


@settings(deadline=None)  # long lines take a while on a loaded machine
@given(hex_st, hex_st)
def test_geodesic_cells_are_the_cells_on_shortest_paths(a, b):
    geo = geodesic_cells(a, b)
    n = distance(a, b)
    assert a in geo and b in geo
    assert all(distance(a, h) + distance(h, b) == n for h in geo)
    # every cell of it is on some shortest path: count the layers of a monotone walk
    assert {h for h in geo if distance(a, h) == n} == {b}
