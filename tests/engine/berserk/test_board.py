"""The Battlefield's geometry [207, 203.2, 305.3-305.4, С: Удар Через Ряд, С: Дальность X].

Checklist (digest §16): CK-018, CK-019, CK-045 (the geometry: which step is orthogonal);
plus every worked example of §8 and rules 207.5-207.9а, and properties over all cells.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.berserk import board
from engine.berserk.board import (
    CELLS,
    FIRST,
    PLACEMENT_STAGES,
    SECOND,
    adjacent,
    cell_name,
    cells,
    diagonals,
    direction,
    distance,
    first_row,
    half,
    horizontal,
    in_direction,
    is_first_row,
    is_third_row,
    line_through,
    lines,
    neighbours,
    on_board,
    on_one_line,
    opposite,
    orthogonal_neighbours,
    orthogonally_adjacent,
    parse_cell,
    placement_cells,
    placement_zone,
    row_cells,
    row_number,
    same_diagonal,
    seat_row,
    third_row,
    through_row_middle,
    through_row_targets,
    vertical,
    within_range,
)

cell_st = st.sampled_from(CELLS)
seat_st = st.sampled_from((FIRST, SECOND))


def names(cs) -> list[str]:
    return [cell_name(c) for c in cs]


# -- coordinates and names [207.5, 207.5а] --------------------------------------------------


@pytest.mark.rule("207.2", "207.5")
def test_the_board_is_five_columns_by_six_rows():
    assert len(CELLS) == 30 == len(set(CELLS))
    assert on_board((0, 0)) and on_board((4, 5))
    assert not any(on_board(c) for c in [(-1, 0), (5, 0), (0, 6), (0, -1)])


@pytest.mark.rule("207.5", "207.5а")
def test_engine_coordinates_follow_the_digest():
    """x = "ABCDE".index(letter); y = 0..5 for rows 3, 2, 1, 1′, 2′, 3′."""
    assert parse_cell("A3") == (0, 0)
    assert parse_cell("A2") == (0, 1)
    assert parse_cell("A1") == (0, 2)
    assert parse_cell("A1'") == (0, 3)
    assert parse_cell("A2'") == (0, 4)
    assert parse_cell("E3'") == (4, 5)
    assert parse_cell("C2'") == (2, 4)


@pytest.mark.rule("207.5а")
@pytest.mark.parametrize("text", ["C2'", "C2′", "C2’", "c2'", " C 2 ' ", "С2'"])
def test_cell_names_accept_every_prime_mark_and_cyrillic_lookalikes(text):
    """The rules text itself writes D2’ (U+2019) and А1 / С1 with Cyrillic letters."""
    assert parse_cell(text) == (2, 4)


@pytest.mark.rule("207.5а")
@pytest.mark.parametrize("text", ["", "F1", "A4", "A0", "1A", "A1''", "AA1", "A", "A-1"])
def test_bad_cell_names_are_refused(text):
    with pytest.raises(ValueError):
        parse_cell(text)


@pytest.mark.rule("207.5а")
def test_cell_names_both_ways():
    assert cell_name((2, 4)) == "C2'"
    assert cell_name((2, 4), prime="′") == "C2′"
    assert cell_name((3, 3)) == "D1'"
    assert cell_name((1, 1)) == "B2"
    assert [parse_cell(cell_name(c)) for c in CELLS] == list(CELLS)
    assert [parse_cell(cell_name(c, prime="′")) for c in CELLS] == list(CELLS)
    assert len({cell_name(c) for c in CELLS}) == 30


@pytest.mark.parametrize("bad", [(5, 0), (0, 6), (-1, 2), (True, 1), (1.0, 1), "A1", (1, 2, 3)])
def test_functions_refuse_what_is_not_a_cell(bad):
    with pytest.raises(ValueError):
        cell_name(bad)
    with pytest.raises(ValueError):
        neighbours(bad)


# -- halves and rows [207.3, 207.3б] --------------------------------------------------------


@pytest.mark.rule("207.3", "207.3а")
def test_halves_split_between_rows_1_and_1_prime():
    assert half(parse_cell("E1")) == FIRST
    assert half(parse_cell("A1'")) == SECOND
    assert sum(half(c) == FIRST for c in CELLS) == 15
    assert set(board.half_cells(FIRST)) == {c for c in CELLS if half(c) == FIRST}


@pytest.mark.rule("207.3б")
def test_seat_relative_rows():
    """Row 1 is nearest the opponent's half, row 3 the farthest, for each player."""
    assert names(first_row(FIRST)) == ["A1", "B1", "C1", "D1", "E1"]
    assert names(third_row(FIRST)) == ["A3", "B3", "C3", "D3", "E3"]
    assert names(first_row(SECOND)) == ["A1'", "B1'", "C1'", "D1'", "E1'"]
    assert names(row_cells(SECOND, 2)) == ["A2'", "B2'", "C2'", "D2'", "E2'"]
    assert names(third_row(SECOND)) == ["A3'", "B3'", "C3'", "D3'", "E3'"]
    assert seat_row(parse_cell("C1"), FIRST) == 1
    assert seat_row(parse_cell("C3'"), SECOND) == 3
    assert seat_row(parse_cell("C1"), SECOND) is None
    assert row_number(parse_cell("B2'")) == 2
    assert is_first_row(parse_cell("D1'"), SECOND) and not is_first_row(parse_cell("D1'"), FIRST)
    assert is_third_row(parse_cell("A3"), FIRST) and not is_third_row(parse_cell("A2"), FIRST)
    with pytest.raises(ValueError):
        row_cells(FIRST, 4)
    with pytest.raises(ValueError):
        first_row(2)


@given(cell_st)
def test_every_cell_has_exactly_one_seat_relative_row(cell):
    rows = [seat_row(cell, s) for s in (FIRST, SECOND)]
    assert next(r for r in rows if r is not None) in (1, 2, 3)
    assert rows.count(None) == 1
    seat = half(cell)
    assert cell in row_cells(seat, seat_row(cell, seat))


# -- lines [207.6, 207.6а-б] ----------------------------------------------------------------


@pytest.mark.rule("207.6")
def test_verticals_horizontals_and_the_c3_d2_e1_diagonal():
    assert names(vertical(parse_cell("B2"))) == ["B3", "B2", "B1", "B1'", "B2'", "B3'"]
    assert names(horizontal(parse_cell("C1'"))) == ["A1'", "B1'", "C1'", "D1'", "E1'"]
    assert cells("C3", "D2", "E1") in diagonals(parse_cell("D2"))


@pytest.mark.rule("207.6б")
def test_b2_lies_on_two_diagonals_crossing_the_centre_line():
    """B2 lies on A1-B2-C3 and on A3-B2-C1-D1′-E2′."""
    assert sorted(names(d) for d in diagonals(parse_cell("B2"))) == sorted(
        [["A1", "B2", "C3"], ["A3", "B2", "C1", "D1'", "E2'"]]
    )


@pytest.mark.rule("207.6б")
def test_corner_cells_lie_on_one_diagonal():
    for corner in cells("A3", "E3", "A3'", "E3'"):
        assert len(diagonals(corner)) == 1, cell_name(corner)
    assert names(diagonals(parse_cell("A3"))[0]) == ["A3", "B2", "C1", "D1'", "E2'"]
    assert names(diagonals(parse_cell("E3'"))[0]) == ["A2", "B1", "C1'", "D2'", "E3'"]


@pytest.mark.rule("207.6", "207.6б")
@given(cell_st)
def test_every_cell_lies_on_two_diagonals_or_fewer_at_the_corners(cell):
    ds = diagonals(cell)
    corner = cell[0] in (0, 4) and cell[1] in (0, 5)
    assert len(ds) == (1 if corner else 2)
    for d in ds:
        assert cell in d and len(d) >= 2
        for a, b in itertools.pairwise(d):
            assert abs(a[0] - b[0]) == 1 == abs(a[1] - b[1])  # touching only at a corner
        assert all(same_diagonal(cell, c) for c in d)


@pytest.mark.rule("207.6а")
@given(cell_st, cell_st)
def test_line_through_two_cells(a, b):
    line = line_through(a, b)
    if a == b or not on_one_line(a, b):
        assert line is None
    else:
        assert a in line and b in line
        assert line in lines(a) and line in lines(b)


@pytest.mark.rule("207.6а")
def test_lines_of_a_cell_are_its_vertical_horizontal_and_diagonals():
    assert len(lines(parse_cell("C1"))) == 4
    assert len(lines(parse_cell("A3"))) == 3
    assert on_one_line(parse_cell("A3"), parse_cell("E2'"))
    assert not on_one_line(parse_cell("A3"), parse_cell("B1"))


# -- adjacency [207.7, 203.2] ---------------------------------------------------------------


@pytest.mark.rule("207.7", "D-29")
def test_d2_prime_has_eight_neighbours():
    """D2′: D1′, E1′, E2′, E3′, D3′, C3′, C2′ and C1′."""
    expected = {"D1'", "E1'", "E2'", "E3'", "D3'", "C3'", "C2'", "C1'"}
    assert set(names(neighbours(parse_cell("D2'")))) == expected


@pytest.mark.rule("207.7", "D-29")
def test_a1_neighbours_cross_the_centre_line():
    """A1: A1′, B1′, B1, B2, A2."""
    assert set(names(neighbours(parse_cell("A1")))) == {"A1'", "B1'", "B1", "B2", "A2"}
    assert adjacent(parse_cell("A1"), parse_cell("B1'"))
    assert not adjacent(parse_cell("A1"), parse_cell("A2'"))


@pytest.mark.rule("207.7")
@given(cell_st, cell_st)
def test_adjacency_is_symmetric_and_irreflexive(a, b):
    assert not adjacent(a, a)
    assert adjacent(a, b) == adjacent(b, a)
    assert adjacent(a, b) == (b in neighbours(a))
    if adjacent(a, b):
        assert on_one_line(a, b)  # "a neighbouring cell is on one line with the first"


@pytest.mark.rule("207.7")
@given(cell_st)
def test_neighbour_counts(cell):
    x_edge = cell[0] in (0, 4)
    y_edge = cell[1] in (0, 5)
    expected = 3 if x_edge and y_edge else 5 if x_edge or y_edge else 8
    assert len(neighbours(cell)) == expected == len(set(neighbours(cell)))


@pytest.mark.rule("203.2", "CK-045")
def test_ck045_move_from_c2_to_d3_refused_to_d2_accepted():
    """CK-045 [203.2] (the geometry): a card on C2 may not step to D3, may step to D2."""
    c2 = parse_cell("C2")
    assert not orthogonally_adjacent(c2, parse_cell("D3"))
    assert orthogonally_adjacent(c2, parse_cell("D2"))
    assert board.can_step(c2, parse_cell("D2"))
    assert set(names(orthogonal_neighbours(c2))) == {"C1", "C3", "B2", "D2"}
    assert set(names(orthogonal_neighbours(parse_cell("A1")))) == {"A1'", "A2", "B1"}


@pytest.mark.rule("203.2")
@given(cell_st, cell_st)
def test_orthogonal_steps_are_adjacent_and_symmetric(a, b):
    assert orthogonally_adjacent(a, b) == orthogonally_adjacent(b, a)
    if orthogonally_adjacent(a, b):
        assert adjacent(a, b) and (a[0] == b[0] or a[1] == b[1])


@pytest.mark.rule("С: Дальность X")
def test_king_distance_for_range():
    assert distance(parse_cell("A3"), parse_cell("E3'")) == 5
    assert distance(parse_cell("B2"), parse_cell("D1'")) == 2
    assert within_range(parse_cell("B2"), parse_cell("D1'"), 2)
    assert not within_range(parse_cell("B2"), parse_cell("D1'"), 1)
    assert len(board.cells_within(parse_cell("C1"), 1)) == 9
    assert board.cells_within(parse_cell("C1"), 0) == (parse_cell("C1"),)


@given(cell_st, cell_st, cell_st)
def test_distance_is_a_metric_and_one_means_adjacent(a, b, c):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert (distance(a, b) == 1) == adjacent(a, b)


# -- opposite and direction [207.8, 207.9, 207.9а] ------------------------------------------


@pytest.mark.rule("207.8")
def test_opposite_a1_is_a1_prime_for_the_first_player_and_a2_for_the_second():
    assert opposite(parse_cell("A1"), FIRST) == parse_cell("A1'")
    assert opposite(parse_cell("A1"), SECOND) == parse_cell("A2")
    assert opposite(parse_cell("C3'"), FIRST) is None  # off the board's end
    assert opposite(parse_cell("C3"), SECOND) is None


@pytest.mark.rule("207.8")
@given(cell_st, seat_st)
def test_opposite_of_opposite_is_the_cell_itself(cell, seat):
    """Two cards facing each other: each is on the cell opposite the other."""
    there = opposite(cell, seat)
    if there is None:
        assert cell[1] == (5 if seat == FIRST else 0)
    else:
        assert adjacent(cell, there) and there[0] == cell[0]
        assert opposite(there, 1 - seat) == cell


@pytest.mark.rule("207.9а")
def test_in_the_direction_of_b1_prime_to_c1_is_d2():
    assert in_direction(parse_cell("B1'"), parse_cell("C1")) == parse_cell("D2")
    assert direction(parse_cell("B1'"), parse_cell("C1")) == (1, -1)


@pytest.mark.rule("207.9")
def test_direction_undefined_unless_adjacent_and_none_off_the_board():
    assert direction(parse_cell("A1"), parse_cell("C1")) is None
    assert in_direction(parse_cell("A1"), parse_cell("C1")) is None
    assert in_direction(parse_cell("A1"), parse_cell("A1")) is None
    assert in_direction(parse_cell("B2"), parse_cell("A3")) is None
    assert in_direction(parse_cell("C2"), parse_cell("C1")) == parse_cell("C1'")


@pytest.mark.rule("207.9а")
@given(cell_st, cell_st)
def test_in_the_direction_of_lies_on_the_line_next_to_the_target(source, target):
    there = in_direction(source, target)
    if there is not None:
        assert adjacent(there, target) and there != source
        assert line_through(source, target) == line_through(target, there)
        assert distance(source, there) == 2


# -- Strike Through a Row [С: Удар Через Ряд] -----------------------------------------------


@pytest.mark.rule("С: Удар Через Ряд")
def test_strike_through_a_row_geometry():
    c2 = parse_cell("C2")
    assert through_row_middle(c2, parse_cell("C1'")) == parse_cell("C1")  # over the centre
    assert through_row_middle(c2, parse_cell("A2")) == parse_cell("B2")
    assert through_row_middle(c2, parse_cell("E2")) == parse_cell("D2")
    assert through_row_middle(c2, parse_cell("A3")) is None  # not a row or column
    assert through_row_middle(c2, parse_cell("E1'")) is None  # a diagonal
    assert through_row_middle(c2, parse_cell("C1")) is None  # nothing between
    assert through_row_middle(c2, parse_cell("C2'")) is None  # two between
    assert set(names(through_row_targets(c2))) == {"C1'", "A2", "E2"}
    assert set(names(through_row_targets(c2, blocking=cells("C1")))) == {"A2", "E2"}


@given(cell_st, cell_st)
def test_strike_through_a_row_has_exactly_one_cell_between(source, target):
    middle = through_row_middle(source, target)
    if middle is not None:
        assert orthogonally_adjacent(source, middle) and orthogonally_adjacent(middle, target)
        assert distance(source, target) == 2 and line_through(source, target) is not None
        assert through_row_middle(target, source) == middle


# -- placement zones [207.4а, 305.3, 305.4] -------------------------------------------------


@pytest.mark.rule("207.4а", "CK-018")
def test_ck018_initial_placement_zones():
    """CK-018 [207.4а]: the first player's zone is B1–D3; the second's A1′–E1′, B2′–D2′,
    B3′–D3′."""
    first = set(cells("B1", "C1", "D1", "B2", "C2", "D2", "B3", "C3", "D3"))
    second = set(cells("A1'", "B1'", "C1'", "D1'", "E1'", "B2'", "C2'", "D2'", "B3'", "C3'", "D3'"))
    assert placement_zone(FIRST) == first == placement_cells(FIRST)
    assert placement_zone(SECOND) == second == placement_cells(SECOND)


@pytest.mark.rule("305.3", "305.4", "CK-019")
def test_ck019_first_player_zone_grows_twice():
    """CK-019 [305.3–305.4]: once 9 cells are filled A2, E2, A3, E3 become legal; after
    those, A1 and E1."""
    initial = placement_zone(FIRST)
    assert placement_cells(FIRST, list(initial)[:8]) <= initial  # not full yet
    assert placement_cells(FIRST, initial) == set(cells("A2", "E2", "A3", "E3"))
    three_more = [*initial, *cells("A2", "E2", "A3")]
    assert placement_cells(FIRST, three_more) == {parse_cell("E3")}
    full_twice = [*initial, *cells("A2", "E2", "A3", "E3")]
    assert placement_cells(FIRST, full_twice) == set(cells("A1", "E1"))
    assert placement_zone(FIRST, [*full_twice, *cells("A1", "E1")]) == set(board.half_cells(FIRST))


@pytest.mark.rule("305.3", "305.4", "CK-019")
def test_second_player_zone_grows_once():
    initial = placement_zone(SECOND)
    assert placement_cells(SECOND, initial) == set(cells("A2'", "E2'", "A3'", "E3'"))
    everything = set(board.half_cells(SECOND))
    assert placement_zone(SECOND, everything) == everything
    assert PLACEMENT_STAGES[SECOND][2] == frozenset()


@pytest.mark.rule("305.3", "305.4")
def test_fifteen_cards_fill_exactly_one_half():
    for seat in (FIRST, SECOND):
        stages = PLACEMENT_STAGES[seat]
        assert sum(len(s) for s in stages) == 15
        assert frozenset().union(*stages) == set(board.half_cells(seat))
        assert [len(s) for s in stages] == ([9, 4, 2] if seat == FIRST else [11, 4, 0])


@pytest.mark.rule("305.2", "305.3")
def test_the_opponents_cards_do_not_fill_a_players_zone():
    assert placement_cells(SECOND, board.half_cells(FIRST)) == placement_zone(SECOND)
    # a filled cell of one's own is not offered again
    assert parse_cell("C2") not in placement_cells(FIRST, cells("C2"))


@given(seat_st, st.lists(st.integers(0, 14), unique=True))
def test_placement_zone_is_within_the_half_and_monotone(seat, picks):
    own = board.half_cells(seat)
    filled: list = []
    zone = placement_zone(seat, filled)
    for i in picks:
        filled.append(own[i])
        bigger = placement_zone(seat, filled)
        assert zone <= bigger <= set(own)
        zone = bigger
    assert placement_cells(seat, filled) == zone - set(filled)
