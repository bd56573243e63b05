"""The battlefield's hex geometry [glossary "Ячейка": a hexagonal segment; D-1, D-3].

A cell is a plain ``(q, r)`` tuple in **axial coordinates** (D-1); its third cube
coordinate is ``s = -q - r``, so ``q + r + s == 0``. With "pointy-top" hexes drawn on
paper, ``q`` grows to the east and ``r`` to the south-east::

          (0,-1) (1,-1)
      (-1,0) (0,0) (1,0)
          (-1,1) (0,1)

The rulebook names no cells (its board diagrams are lost with the scenario book, digest
§17), so there is no printed label to convert from; data files write a cell as the text
``"q,r"`` (``hex_text`` / ``parse_hex``), as the scenario files of ``engine.tactics`` do.

Everything here is a pure function of cells. Whether a champion may stand on, move to or
see through a cell is for ``engine.tactics.terrain``.

Lines (``line``, ``lines``) are the standard cube-lerp: ``N + 1`` samples at ``t = i/N``
between the two centres, each rounded to the nearest cell. The samples are computed with
exact fractions and nudged by ``EPSILON * (1, 2, -3)`` in cube coordinates (a nudge that
stays on the ``q + r + s = 0`` plane and breaks every rounding tie: no two of 1, 2, 3 are
equal), so the result never depends on floating point. Where a centre-to-centre line runs
exactly along cell edges a sample falls on the border of two cells, and the nudge's sign
picks the side: ``line(a, b, +1)`` and ``line(a, b, -1)`` are then the two candidate lines
that D-3 asks for. Both are shortest paths (each step goes to an adjacent cell, ``N``
steps), and ``line(b, a, n)`` is ``line(a, b, n)`` reversed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import NamedTuple

Hex = tuple[int, int]
Cube = tuple[int, int, int]

ORIGIN: Hex = (0, 0)

# The six neighbour offsets (D-1), counter-clockwise from east: E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

EPSILON = Fraction(1, 10**6)
"""The size of the line nudge (D-3). Exact for lines shorter than ``MAX_LINE``."""
NUDGE: Cube = (1, 2, -3)
"""The nudge's direction in cube coordinates: sums to 0, all three magnitudes differ."""
MAX_LINE = 10_000
"""The longest line ``line`` draws: a sample ``m/N`` off a rounding border is at least
``1/(2N)`` from it, far more than the ``3 * EPSILON`` the nudge can move it."""

_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-"})


def is_hex(value: object) -> bool:
    """Whether ``value`` is a cell: a pair of plain ints."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _check(h: object) -> Hex:
    # the common case first, in one test: a tuple of two plain ints (is_hex says the rest)
    if type(h) is tuple and len(h) == 2 and type(h[0]) is int and type(h[1]) is int:
        return h  # type: ignore[return-value]
    if not is_hex(h):
        raise ValueError(f"not a hex (q, r): {h!r}")
    return h  # type: ignore[return-value]


# -- text form --------------------------------------------------------------------------------


def hex_text(h: Hex) -> str:
    """``(-2, 3)`` -> ``"-2,3"``: the form data files use for a cell."""
    q, r = _check(h)
    return f"{q},{r}"


def parse_hex(text: str) -> Hex:
    """``"-2,3"``, ``" -2 , 3 "``, ``"(-2, 3)"``, ``"−2,3"`` (a typographic minus) ->
    ``(-2, 3)``. Raises ``ValueError`` for anything else."""
    body = "".join(str(text).split()).translate(_MINUS)
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    parts = body.split(",")
    if len(parts) != 2:
        raise ValueError(f"not a hex text 'q,r': {text!r}")
    try:
        q, r = (int(p, 10) for p in parts)
    except ValueError:
        raise ValueError(f"not a hex text 'q,r': {text!r}") from None
    if any(p.startswith("+") or p == "" for p in parts):
        raise ValueError(f"not a hex text 'q,r': {text!r}")
    return (q, r)


# -- cube coordinates -------------------------------------------------------------------------


def to_cube(h: Hex) -> Cube:
    """``(q, r)`` -> ``(q, r, -q - r)``."""
    q, r = _check(h)
    return (q, r, -q - r)


def from_cube(c: Cube) -> Hex:
    """``(q, r, s)`` -> ``(q, r)``; refuses a triple off the ``q + r + s == 0`` plane."""
    q, r, s = c
    if q + r + s != 0:
        raise ValueError(f"not a cube coordinate (q + r + s != 0): {c!r}")
    return (q, r)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def scale(h: Hex, k: int) -> Hex:
    return (h[0] * k, h[1] * k)


def point_reflect(h: Hex, centre: Hex = ORIGIN) -> Hex:
    """``h`` mirrored through ``centre`` (the sample map's symmetry, §19 S-1)."""
    q, r = _check(h)
    return (2 * centre[0] - q, 2 * centre[1] - r)


def rotate(h: Hex, steps: int = 1, centre: Hex = ORIGIN) -> Hex:
    """``h`` turned ``steps`` sixths of a turn counter-clockwise about ``centre``."""
    q, r, s = to_cube(sub(h, centre))
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return add((q, r), centre)


# -- adjacency and distance [D-1, T-40, T-44] ------------------------------------------------


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six cells around ``h`` (unbounded: see ``neighbours_in`` for a map), in
    ``DIRECTIONS`` order."""
    q, r = _check(h)
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def neighbours_in(h: Hex, cells: Iterable[Hex]) -> tuple[Hex, ...]:
    """The neighbours of ``h`` that are among ``cells`` (a map's cells)."""
    present = cells if isinstance(cells, (set, frozenset, dict)) else set(cells)
    return tuple(n for n in neighbours(h) if n in present)


def distance(a: Hex, b: Hex) -> int:
    """The hex distance (D-1): ``(|dq| + |dr| + |dq + dr|) / 2``, the fewest steps from
    ``a`` to ``b`` on an unbounded grid. "Up to 3 cells" (T-54) is counted so."""
    if not (  # _check inlined for both: the fast path of a hot function
        type(a) is tuple
        and type(b) is tuple
        and len(a) == 2
        and len(b) == 2
        and type(a[0]) is int
        and type(a[1]) is int
        and type(b[0]) is int
        and type(b[1]) is int
    ):
        _check(a)
        _check(b)
    (aq, ar), (bq, br) = a, b
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Hex, b: Hex) -> bool:
    """Whether ``a`` and ``b`` are different cells sharing an edge."""
    return distance(a, b) == 1


# -- rings, areas, maps ----------------------------------------------------------------------


def ring(centre: Hex, n: int) -> tuple[Hex, ...]:
    """The cells exactly ``n`` steps from ``centre`` (``6n`` of them; ``(centre,)`` for 0),
    in a fixed order: from the corner ``n`` steps south-west, east first, once round."""
    _check(centre)
    if n < 0:
        raise ValueError(f"a ring's radius is at least 0, not {n!r}")
    if n == 0:
        return (centre,)
    h = add(centre, scale(DIRECTIONS[4], n))
    out = []
    for side in range(6):
        for _ in range(n):
            out.append(h)
            h = add(h, DIRECTIONS[side])
    return tuple(out)


def within(centre: Hex, n: int) -> tuple[Hex, ...]:
    """The cells at most ``n`` steps from ``centre``, ``centre`` included (``3n² + 3n + 1``
    of them), ring by ring outwards."""
    if n < 0:
        raise ValueError(f"a radius is at least 0, not {n!r}")
    return tuple(h for k in range(n + 1) for h in ring(centre, k))


def hexagon(radius: int, centre: Hex = ORIGIN) -> frozenset[Hex]:
    """A hexagonal map: every cell within ``radius`` of ``centre`` (the sample scenario's
    board is ``hexagon(5)``, 91 cells: |q|, |r|, |q + r| <= 5)."""
    return frozenset(within(centre, radius))


class Bounds(NamedTuple):
    """The smallest box of cube coordinates holding a set of cells."""

    min_q: int
    max_q: int
    min_r: int
    max_r: int
    min_s: int
    max_s: int

    def contains(self, h: Hex) -> bool:
        q, r, s = to_cube(h)
        return (
            self.min_q <= q <= self.max_q
            and self.min_r <= r <= self.max_r
            and self.min_s <= s <= self.max_s
        )


def bounds(cells: Iterable[Hex]) -> Bounds:
    """The cube-coordinate bounds of ``cells`` (a non-empty set). A hexagonal map of radius
    ``n`` about the origin has bounds ``(-n, n, -n, n, -n, n)``."""
    cubes = [to_cube(h) for h in cells]
    if not cubes:
        raise ValueError("no cells: a map has at least one")
    qs, rs, ss = zip(*cubes, strict=True)
    return Bounds(min(qs), max(qs), min(rs), max(rs), min(ss), max(ss))


def radius(cells: Iterable[Hex], centre: Hex = ORIGIN) -> int:
    """The greatest distance from ``centre`` to any of ``cells``."""
    dists = [distance(centre, h) for h in cells]
    if not dists:
        raise ValueError("no cells: a map has at least one")
    return max(dists)


def is_connected(cells: Iterable[Hex]) -> bool:
    """Whether every cell of ``cells`` can be reached from every other by steps between
    adjacent cells of the set (an empty set is connected)."""
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        for n in neighbours(stack.pop()):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


# -- straight lines [D-3] --------------------------------------------------------------------


def _round_cube(x: Fraction, y: Fraction, z: Fraction) -> Hex:
    """The cell whose centre is nearest the cube point ``(x, y, z)`` (the standard cube
    rounding: round each, then fix the coordinate that moved most)."""
    half = Fraction(1, 2)
    rq, rr, rs = (math.floor(v + half) for v in (x, y, z))
    dq, dr, ds = abs(rq - x), abs(rr - y), abs(rs - z)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return (rq, rr)


def line(a: Hex, b: Hex, nudge: int = 1) -> tuple[Hex, ...]:
    """The cells a straight line from ``a``'s centre to ``b``'s passes, ``a`` first and
    ``b`` last: ``distance(a, b) + 1`` cells, each adjacent to the next (D-3). ``nudge``
    (+1 or -1) is the sign of the ``EPSILON`` nudge that settles a line running along cell
    edges (see the module docstring); elsewhere both signs give the same cells."""
    if nudge not in (1, -1):
        raise ValueError(f"the nudge is +1 or -1, not {nudge!r}")
    ca, cb = to_cube(a), to_cube(b)
    n = distance(a, b)
    if n == 0:
        return (a,)
    if n > MAX_LINE:
        raise ValueError(f"a line longer than {MAX_LINE} cells is not drawn exactly")
    e = [nudge * EPSILON * k for k in NUDGE]
    out = []
    for i in range(n + 1):
        t = Fraction(i, n)
        x, y, z = (ca[k] + (cb[k] - ca[k]) * t + e[k] for k in range(3))
        out.append(_round_cube(x, y, z))
    return tuple(out)


def lines(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The distinct nudged lines from ``a`` to ``b``: one, or two where the straight line
    runs along cell edges (D-3: "treat it as blocked only if both nudged lines are
    blocked"). The ``+1`` line comes first."""
    plus, minus = line(a, b, 1), line(a, b, -1)
    return (plus,) if plus == minus else (plus, minus)


_BETWEEN: dict[tuple[Hex, Hex], tuple[frozenset[Hex], ...]] = {}
_BETWEEN_MAX = 50_000  # entries kept (a pair of cells each); the table starts over past it


def between(a: Hex, b: Hex) -> tuple[frozenset[Hex], ...]:
    """The intermediate cells (neither ``a`` nor ``b``) of each line of ``lines(a, b)``:
    the cells whose contents may block a line of sight (T-68). A pure function of the two
    cells, drawn with exact fractions: remembered per pair (the result is immutable)."""
    key = (_check(a), _check(b))
    out = _BETWEEN.get(key)
    if out is None:
        out = tuple(frozenset(ln[1:-1]) for ln in lines(a, b))
        if len(_BETWEEN) >= _BETWEEN_MAX:
            _BETWEEN.clear()
        _BETWEEN[key] = out
    return out


def geodesic_cells(a: Hex, b: Hex) -> frozenset[Hex]:
    """Every cell on some shortest path from ``a`` to ``b`` on the unbounded grid (both
    included): the cells ``h`` with ``distance(a, h) + distance(h, b) == distance(a, b)``.
    A parallelogram (a straight row when ``a`` and ``b`` share an axis)."""
    n = distance(a, b)
    return frozenset(h for h in within(a, n) if distance(a, h) + distance(h, b) == n)
