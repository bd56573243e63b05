"""The Battlefield's geometry [207]: cells, names, rows, lines, adjacency, direction and
the placement zones [207.4а, 305.3-305.4].

A cell is a plain ``(x, y)`` tuple: ``x`` the column, 0..4 for A..E, seen from the first
player's side [207.5]; ``y`` the row, 0..5 for the rows 3, 2, 1, 1′, 2′, 3′ (the digest's
"Engine coordinates"), so the first player's half is ``y`` 0..2 and the second player's
``y`` 3..5, and the first player looks towards growing ``y``::

         A    B    C    D    E
    5   A3'  B3'  C3'  D3'  E3'   second player's third (back) row
    4   A2'  B2'  C2'  D2'  E2'
    3   A1'  B1'  C1'  D1'  E1'   second player's first row
    ----------------------------  centre line [207.3]
    2   A1   B1   C1   D1   E1    first player's first row
    1   A2   B2   C2   D2   E2
    0   A3   B3   C3   D3   E3    first player's third (back) row

Seats: ``FIRST`` (0) and ``SECOND`` (1) are the first and second player [302.2].

Everything here is a pure function of cells (and, where a rule needs it, of a seat or of
the cells already taken); whether a card may stand on, move to or attack a cell is for the
rules that call these (flyers, for one, are adjacent to nothing [211.4], and a symbiote
shares its host's adjacency [210.9]).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

Cell = tuple[int, int]
Line = tuple[Cell, ...]

FIRST = 0
SECOND = 1
SEATS = (FIRST, SECOND)

COLUMNS = "ABCDE"  # 207.5
WIDTH = 5  # cells in a row [207.2]
HEIGHT = 6  # rows [207.2]
ROW_NAMES = ("3", "2", "1", "1'", "2'", "3'")  # by y
PRIMES = "'′’ʹ`´"  # the prime mark as typed: ASCII, U+2032, U+2019 (the rules text's own) ...
# Cyrillic look-alikes of the column letters (the rules text writes "А1" and "С1" so).
_CYRILLIC = str.maketrans("АВСЕавсе", "ABCEABCE")

CELLS: tuple[Cell, ...] = tuple((x, y) for y in range(HEIGHT) for x in range(WIDTH))

_KING = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))
_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))


def on_board(cell: Cell) -> bool:
    """Whether ``cell`` is one of the Battlefield's 30 cells [207.2]."""
    x, y = cell
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


def _check(cell: Cell) -> Cell:
    if not (
        isinstance(cell, tuple)
        and len(cell) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        and on_board(cell)
    ):
        raise ValueError(f"not a Battlefield cell: {cell!r}")
    return cell


# -- names [207.5, 207.5а] ------------------------------------------------------------------


def cell_name(cell: Cell, prime: str = "'") -> str:
    """``(2, 4)`` -> ``"C2'"``: letter then row number, the second player's rows primed
    [207.5а]. ``prime`` is the mark to write (``"′"`` for the typographic one)."""
    if prime == "'" and type(cell) is tuple and len(cell) == 2:
        x, y = cell
        if type(x) is int and type(y) is int:
            name = _NAMES.get(cell)
            if name is not None:
                return name
    x, y = _check(cell)
    return COLUMNS[x] + ROW_NAMES[y].replace("'", prime)


def parse_cell(name: str) -> Cell:
    """``"C2'"``, ``"C2′"``, ``"c2’"``, ``"С2'"`` (Cyrillic С) -> ``(2, 4)``; ``"A1"`` ->
    ``(0, 2)``. Spaces are ignored. Raises ``ValueError`` for anything else."""
    if type(name) is str:
        cell = _BY_NAME.get(name)
        if cell is not None:
            return cell
    text = "".join(str(name).split()).translate(_CYRILLIC).upper()
    primed = False
    if text and text[-1] in PRIMES:
        text, primed = text[:-1], True
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123":
        raise ValueError(f"not a cell name: {name!r}")
    x = COLUMNS.index(text[0])
    return (x, ROW_NAMES.index(text[1] + ("'" if primed else "")))


_NAMES = {cell: COLUMNS[cell[0]] + ROW_NAMES[cell[1]] for cell in CELLS}  # read often
_BY_NAME = {name: cell for cell, name in _NAMES.items()}


def cells(*names: str) -> tuple[Cell, ...]:
    """Several cells by name: ``cells("A1", "B1'")``."""
    return tuple(parse_cell(n) for n in names)


# -- halves and seat-relative rows [207.3, 207.3б] ----------------------------------------


def _seat(seat: int) -> int:
    if seat not in SEATS:
        raise ValueError(f"not a seat: {seat!r} (0 = first player, 1 = second)")
    return seat


def half(cell: Cell) -> int:
    """The seat whose half of the Battlefield holds ``cell`` [207.3а]."""
    return FIRST if _check(cell)[1] < HEIGHT // 2 else SECOND


def forward(seat: int) -> int:
    """The ``y`` step towards ``seat``'s opponent: +1 for the first player, -1 for the
    second."""
    return 1 if _seat(seat) == FIRST else -1


def row_number(cell: Cell) -> int:
    """The row number 1..3 of ``cell`` within the half it lies in [207.3б]: 1 nearest the
    opponent, 3 the back row. (The prime says whose half: see ``half``.)"""
    y = _check(cell)[1]
    return 3 - y if y < HEIGHT // 2 else y - 2


def seat_row(cell: Cell, seat: int) -> int | None:
    """Row 1..3 of ``seat``'s half that ``cell`` is in, or None if it is in the other
    half [207.3б]."""
    return row_number(cell) if half(cell) == _seat(seat) else None


def row_y(seat: int, row: int) -> int:
    """The ``y`` of ``seat``'s row ``row`` (1..3)."""
    if row not in (1, 2, 3):
        raise ValueError(f"rows are numbered 1..3 within a half, not {row!r}")
    return 3 - row if _seat(seat) == FIRST else row + 2


def row_cells(seat: int, row: int) -> tuple[Cell, ...]:
    """The five cells of ``seat``'s row ``row``, A to E."""
    y = row_y(seat, row)
    return tuple((x, y) for x in range(WIDTH))


def half_cells(seat: int) -> tuple[Cell, ...]:
    """The 15 cells of ``seat``'s half, rows 1, 2, 3."""
    return tuple(c for row in (1, 2, 3) for c in row_cells(seat, row))


def is_first_row(cell: Cell, seat: int) -> bool:
    """Whether ``cell`` is in ``seat``'s first row (the one facing the opponent)."""
    return seat_row(cell, seat) == 1


def is_third_row(cell: Cell, seat: int) -> bool:
    """Whether ``cell`` is in ``seat``'s third (back) row."""
    return seat_row(cell, seat) == 3


def first_row(seat: int) -> tuple[Cell, ...]:
    return row_cells(seat, 1)


def third_row(seat: int) -> tuple[Cell, ...]:
    return row_cells(seat, 3)


def is_edge_column(cell: Cell) -> bool:
    """Whether ``cell`` is a leftmost (A) or rightmost (E) cell of its row [207.4а]."""
    return _check(cell)[0] in (0, WIDTH - 1)


# -- lines [207.6, 207.6а-б] --------------------------------------------------------------


def _ray(cell: Cell, dx: int, dy: int) -> list[Cell]:
    x, y = cell
    out = []
    while on_board((x + dx, y + dy)):
        x, y = x + dx, y + dy
        out.append((x, y))
    return out


def _through(cell: Cell, dx: int, dy: int) -> Line:
    """The whole line through ``cell`` along ``(dx, dy)``, from the ``-(dx, dy)`` end."""
    return (*reversed(_ray(cell, -dx, -dy)), cell, *_ray(cell, dx, dy))


def vertical(cell: Cell) -> Line:
    """The cells with ``cell``'s letter, from row 3 to row 3′ [207.6]."""
    return _through(_check(cell), 0, 1)


def horizontal(cell: Cell) -> Line:
    """The cells of ``cell``'s row (same number, prime included), A to E [207.6]."""
    return _through(_check(cell), 1, 0)


def diagonals(cell: Cell) -> tuple[Line, ...]:
    """The diagonals through ``cell`` [207.6, 207.6б], each from its A-side end: cells
    touching only at a corner, letter and number each stepping by one, across the centre
    line too. B2 lies on A1-B2-C3 and on A3-B2-C1-D1′-E2′. A corner cell lies on one
    diagonal; every other cell on two (a lone cell is no diagonal)."""
    _check(cell)
    lines = (_through(cell, 1, -1), _through(cell, 1, 1))
    return tuple(line for line in lines if len(line) > 1)


def lines(cell: Cell) -> tuple[Line, ...]:
    """Every line through ``cell`` [207.6а]: its vertical, its horizontal, its diagonals."""
    return (vertical(cell), horizontal(cell), *diagonals(cell))


def same_vertical(a: Cell, b: Cell) -> bool:
    return _check(a)[0] == _check(b)[0]


def same_horizontal(a: Cell, b: Cell) -> bool:
    return _check(a)[1] == _check(b)[1]


def same_diagonal(a: Cell, b: Cell) -> bool:
    (ax, ay), (bx, by) = _check(a), _check(b)
    return abs(ax - bx) == abs(ay - by)


def on_one_line(a: Cell, b: Cell) -> bool:
    """Whether ``a`` and ``b`` share a vertical, a horizontal or a diagonal [207.6а] (a
    cell is on one line with itself)."""
    return same_vertical(a, b) or same_horizontal(a, b) or same_diagonal(a, b)


def line_through(a: Cell, b: Cell) -> Line | None:
    """The line holding both ``a`` and ``b`` (two different cells), or None."""
    (ax, ay), (bx, by) = _check(a), _check(b)
    if a == b or not on_one_line(a, b):
        return None
    dx, dy = _sign(bx - ax), _sign(by - ay)
    if dx < 0 or (dx == 0 and dy < 0):
        dx, dy = -dx, -dy
    return _through(a, dx, dy)


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


# -- adjacency and distance [207.7, 203.2, Дальность X] -------------------------------------


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The cells adjacent to ``cell`` [207.7, D-29]: the up-to-8 cells around it, across the
    centre line too. D2′ has 8; A1 has A1′, B1′, B1, B2 and A2."""
    x, y = _check(cell)
    return tuple((x + dx, y + dy) for dx, dy in _KING if on_board((x + dx, y + dy)))


def adjacent(a: Cell, b: Cell) -> bool:
    """Whether ``a`` and ``b`` are adjacent (different cells a king's move apart) [207.7]."""
    return distance(a, b) == 1


def orthogonal_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The cells one step along a vertical or a horizontal: where a move may go [203.2]."""
    x, y = _check(cell)
    return tuple((x + dx, y + dy) for dx, dy in _ORTHOGONAL if on_board((x + dx, y + dy)))


def orthogonally_adjacent(a: Cell, b: Cell) -> bool:
    """Whether a one-step move from ``a`` to ``b`` is geometrically possible [203.2]:
    C2 -> D2 yes, C2 -> D3 no."""
    (ax, ay), (bx, by) = _check(a), _check(b)
    return abs(ax - bx) + abs(ay - by) == 1


can_step = orthogonally_adjacent


def distance(a: Cell, b: Cell) -> int:
    """The number of king's moves from ``a`` to ``b`` (counting cells along verticals,
    horizontals and diagonals "in any combination" [С: Дальность X])."""
    (ax, ay), (bx, by) = _check(a), _check(b)
    return max(abs(ax - bx), abs(ay - by))


def within_range(source: Cell, target: Cell, x: int) -> bool:
    """Whether ``target`` is at most ``x`` cells from ``source`` [С: Дальность X]."""
    return distance(source, target) <= x


def cells_within(cell: Cell, x: int) -> tuple[Cell, ...]:
    """The cells (``cell`` itself included) at most ``x`` king's moves from ``cell``."""
    _check(cell)
    return tuple(c for c in CELLS if distance(cell, c) <= x)


# -- direction [207.8, 207.9, 207.9а] -------------------------------------------------------


def opposite(cell: Cell, controller: int) -> Cell | None:
    """The cell opposite a card of ``controller`` on ``cell`` [207.8]: the adjacent cell of
    its vertical on the side of ``controller``'s opponent. Opposite A1 is A1′ for the first
    player and A2 for the second. None off the board's end."""
    x, y = _check(cell)
    there = (x, y + forward(controller))
    return there if on_board(there) else None


def direction(source: Cell, target: Cell) -> tuple[int, int] | None:
    """The step ``(dx, dy)`` from ``source`` to an adjacent ``target``: the direction of a
    melee attack or move [207.9]; None when they are not adjacent (it cannot be defined)."""
    if not adjacent(source, target):
        return None
    return (target[0] - source[0], target[1] - source[1])


def in_direction(source: Cell, target: Cell) -> Cell | None:
    """The cell "in the direction of" a melee attack or move from ``source`` to ``target``
    [207.9а]: on their line, adjacent to the target, not the source's cell. Source B1′,
    target C1 -> D2. None when undefined (not adjacent) or off the board."""
    step = direction(source, target)
    if step is None:
        return None
    there = (target[0] + step[0], target[1] + step[1])
    return there if on_board(there) else None


# -- Strike Through a Row [С: Удар Через Ряд] -----------------------------------------------


def through_row_middle(source: Cell, target: Cell) -> Cell | None:
    """The cell between ``source`` and ``target`` if the target may be aimed at by a Strike
    Through a Row geometrically: the same horizontal or vertical with exactly one cell
    between them [С: Удар Через Ряд]; otherwise None. The middle cell must also be empty
    or hold the striker's own card, which the caller checks (``through_row_targets``)."""
    (sx, sy), (tx, ty) = _check(source), _check(target)
    if (sx == tx and abs(sy - ty) == 2) or (sy == ty and abs(sx - tx) == 2):
        return ((sx + tx) // 2, (sy + ty) // 2)
    return None


def through_row_targets(source: Cell, blocking: Collection[Cell] = ()) -> tuple[Cell, ...]:
    """The cells a Strike Through a Row from ``source`` may aim at, given ``blocking``: the
    cells holding a card that blocks it (one that is not the striker's own; an empty cell or
    one holding the striker's card does not)."""
    blocked = set(blocking)
    return tuple(
        c
        for c in CELLS
        if (middle := through_row_middle(source, c)) is not None and middle not in blocked
    )


# -- placement zones [207.4а, 305.3, 305.4] -------------------------------------------------


def _stages(seat: int) -> tuple[frozenset[Cell], ...]:
    if seat == FIRST:  # every cell of the half but the leftmost and rightmost of each row
        initial = frozenset(c for c in half_cells(FIRST) if not is_edge_column(c))
    else:  # the whole first row, and rows 2 and 3 without their edge cells
        initial = frozenset(
            c for c in half_cells(SECOND) if is_first_row(c, SECOND) or not is_edge_column(c)
        )
    second = frozenset(  # 305.3: the edge cells of rows 2 and 3
        c for row in (2, 3) for c in row_cells(seat, row) if is_edge_column(c)
    )
    third = frozenset(c for c in row_cells(seat, 1) if is_edge_column(c)) - initial  # 305.4
    return (initial, second - initial, third)


PLACEMENT_STAGES: dict[int, tuple[frozenset[Cell], ...]] = {s: _stages(s) for s in SEATS}
"""``PLACEMENT_STAGES[seat]``: the initial placement zone [207.4а], the cells added when it
is full [305.3], and those added when it is full again [305.4] (none for the second
player, whose first row's edges are in the zone from the start)."""


def placement_zone(seat: int, filled: Iterable[Cell] = ()) -> frozenset[Cell]:
    """``seat``'s placement zone once the cells ``filled`` hold cards: the initial zone,
    grown by each next stage as soon as every cell of the zone so far is filled
    [207.4а, 305.3, 305.4]."""
    taken = set(filled)
    zone: frozenset[Cell] = frozenset()
    for stage in PLACEMENT_STAGES[_seat(seat)]:
        if zone and not zone <= taken:
            break
        zone |= stage
    return zone


def placement_cells(seat: int, filled: Iterable[Cell] = ()) -> frozenset[Cell]:
    """The cells where ``seat`` may place its next card: its placement zone's empty cells,
    one card per cell [305.2]."""
    taken = set(filled)
    return placement_zone(seat, taken) - taken
