"""Terrain, movement and line of sight on the battlefield [§10 T-58..T-65, §11 T-66..T-67c,
§12 T-68..T-70; T-35, T-39..T-43, T-44, T-54..T-56, T-94; D-1, D-3, D-10, D-11, D-12, D-17].

Sources: the engineering digest ``/work/shared/rules/tactics.md`` and the Russian rulebook
it digests (``/work/shared/seeds/003_*``; it wins where the two differ).

A ``Battlefield`` is the map: its cells (``engine.tactics.hexes``, axial ``(q, r)``), the
terrain of each cell that is not plain, who owns each portal (its colour, a seat number)
and who controls each beacon, the face-down treasure tokens, the target tokens, the
villains' entry cells and what the scenario's enchanted land does. It holds no champions:
the functions that need them take the cells of the mover's (or viewer's) **enemies** and
**allies** as plain collections, and ``seats``, the seats on the mover's side (its own and
any teammates', T-79/T-97; none for a villain), so that every function here stays a pure
function of plain data. Updates (``place_terrain``, ``activate_portals``, ...) return a new
``Battlefield``.

Readings (all inferred where the rules are silent; each is a parameter where it can be):

- Each cell has **one** terrain type; a portal, a disabled portal, a shrine and a beacon
  are terrain types (the rulebook lists them under «Типы местности», and T-58 lets a token
  go only on a plain cell, C-52). Treasure, target tokens, turret and witch circle are
  special tokens on top of a cell's terrain (T-66).
- Movement (T-39..T-43, D-11): entering a cell costs 1, +1 for forest (T-61; leaving a
  forest costs nothing), + ``EnchantedLand.extra_cost`` for enchanted land; a cell off the
  map or enchanted land that the scenario makes impassable cannot be entered. Enemy cells
  cannot be entered; allies' cells and opponents' portals can be passed through but not
  ended on; one's own side's portals do not matter. No keyword of §9 changes movement (an
  SPD change is just another ``movement``); a card that does (T-1) passes ``step_cost``.
  Corrupted land costs the usual 1 and deals damage (``corruption_damage``); shrines,
  beacons, treasure and target tokens do not affect movement (T-64, T-65, T-67c).
- Line of sight (T-68, D-3): the default ``LosMethod.LINE`` draws the two ``EPSILON``-
  nudged cube-lerp lines (``hexes.lines``); a line is blocked if one of its cells
  **between** viewer and target is blocking terrain (forest; enchanted land if the scenario
  says), holds an enemy of the viewer, or is off the map; the sight is clear if either line
  is clear ("blocked only if both nudged lines are blocked"). Allies, shrines, treasure and
  target tokens never block; terrain under the viewer or the target does not count. The
  alternatives D-3 names are ``ANY_SHORTEST`` (some shortest path is clear) and
  ``ALL_SHORTEST`` (every shortest path is clear).
- "Enemy" is judged from the viewer's side (T-70), so the sight from A to B and from B to A
  may differ when they have different enemies (a counter-strike's check, T-55); with the
  same blockers every method is symmetric.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from engine.tactics import hexes
from engine.tactics.hexes import Hex


class Terrain(StrEnum):
    """The terrain types of §10; the values are the keys the scenario files use."""

    PLAIN = "plain"  # «Обычная ячейка»: no effect; the only cell a token may go on (T-58)
    PORTAL = "portal"  # T-59, T-43: owned by a seat (its colour)
    DISABLED_PORTAL = "disabled_portal"  # T-60
    SHRINE = "shrine"  # T-64
    FOREST = "forest"  # T-61
    CORRUPTED = "corrupted"  # T-62 («Порченая земля»)
    ENCHANTED = "enchanted"  # T-63: the scenario says what it does (EnchantedLand)
    BEACON = "beacon"  # T-65: controlled by the seat whose champion last moved in


STEP_COST = 1  # T-40: a step to an adjacent cell
FOREST_EXTRA_COST = 1  # T-61: entering a forest, from anywhere, forest included
CORRUPTION_DAMAGE = 5  # T-62: per entry, and at the start of every turn
RANGED_REACH = 3  # T-54: "up to 3 cells", hex distance (D-1)
OWNED = frozenset({Terrain.PORTAL, Terrain.BEACON})  # the terrain with an owner


@dataclass(frozen=True)
class EnchantedLand:
    """What a scenario's enchanted land does (T-63, D-2 flags). By default nothing: the
    rulebook leaves it to the scenario (the sample map's is impassable and does not block
    sight). ``extra_cost`` is added to the cost of entering it."""

    impassable: bool = False
    blocks_los: bool = False
    extra_cost: int = 0


def _frozen(mapping: Mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, eq=False)
class Battlefield:
    """A battlefield: build it with ``battlefield(...)``. ``terrain`` maps every cell that is
    not plain to its terrain; ``owner`` maps each portal to its seat (colour) and each
    controlled beacon to its controller; ``treasure`` are the cells with a face-down
    treasure token (T-12); ``targets`` the target-token kind -> cell (T-83, T-89)."""

    cells: frozenset[Hex]
    terrain: Mapping[Hex, Terrain] = field(default_factory=dict)
    owner: Mapping[Hex, int] = field(default_factory=dict)
    treasure: frozenset[Hex] = frozenset()
    targets: Mapping[str, Hex] = field(default_factory=dict)
    villain_entry: tuple[Hex, ...] = ()
    enchanted: EnchantedLand = EnchantedLand()

    def __post_init__(self) -> None:
        cells = frozenset(hexes._check(h) for h in self.cells)
        if not cells:
            raise ValueError("a battlefield has at least one cell")
        terrain = {}
        for h, t in self.terrain.items():
            t = Terrain(t)
            if h not in cells:
                raise ValueError(f"terrain off the map at {h!r}")
            if t is not Terrain.PLAIN:
                terrain[h] = t
        owner = dict(self.owner)
        for h, seat in owner.items():
            if terrain.get(h) not in OWNED:
                raise ValueError(f"only portals and beacons have an owner, not {h!r}")
            if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
                raise ValueError(f"an owner is a seat number, not {seat!r}")
        for h, t in terrain.items():
            if t is Terrain.PORTAL and h not in owner:
                raise ValueError(f"the portal at {h!r} has no owner (colour)")
        for h in (*self.treasure, *self.targets.values(), *self.villain_entry):
            if h not in cells:
                raise ValueError(f"a token off the map at {h!r}")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "terrain", _frozen(terrain))
        object.__setattr__(self, "owner", _frozen(owner))
        object.__setattr__(self, "treasure", frozenset(self.treasure))
        object.__setattr__(self, "targets", _frozen(self.targets))
        object.__setattr__(self, "villain_entry", tuple(self.villain_entry))
        # tables derived from the (immutable) map, built when first asked for: ``_graph``,
        # ``portals``; not a field (no part of equality, ``replace`` starts a new one)
        object.__setattr__(self, "_memo", {})

    def _key(self) -> tuple:
        return (
            self.cells,
            frozenset(self.terrain.items()),
            frozenset(self.owner.items()),
            self.treasure,
            frozenset(self.targets.items()),
            self.villain_entry,
            self.enchanted,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Battlefield) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def battlefield(
    cells: Iterable[Hex],
    terrain: Mapping[Hex, Terrain | str] | None = None,
    *,
    portals: Mapping[int, Iterable[Hex]] | None = None,
    beacons: Mapping[Hex, int | None] | None = None,
    treasure: Iterable[Hex] = (),
    targets: Mapping[str, Hex] | None = None,
    villain_entry: Iterable[Hex] = (),
    enchanted: EnchantedLand = EnchantedLand(),
) -> Battlefield:
    """A battlefield from plain data: ``terrain`` cell -> type for the non-portal terrain,
    ``portals`` seat -> its portal cells, ``beacons`` cell -> controller (None: inactive)."""
    ter: dict[Hex, Terrain] = {h: Terrain(t) for h, t in (terrain or {}).items()}
    owner: dict[Hex, int] = {}
    for seat, cells_of in (portals or {}).items():
        for h in cells_of:
            ter[h] = Terrain.PORTAL
            owner[h] = seat
    for h, seat in (beacons or {}).items():
        ter[h] = Terrain.BEACON
        if seat is not None:
            owner[h] = seat
    return Battlefield(
        frozenset(cells),
        ter,
        owner,
        frozenset(treasure),
        dict(targets or {}),
        tuple(villain_entry),
        enchanted,
    )


# -- cells -------------------------------------------------------------------------------------


def on_map(bf: Battlefield, h: Hex) -> bool:
    return h in bf.cells


def terrain_at(bf: Battlefield, h: Hex) -> Terrain:
    """The terrain of ``h`` (plain where there is no token). Off the map: ValueError."""
    if h not in bf.cells:
        raise ValueError(f"not a cell of this battlefield: {h!r}")
    return bf.terrain.get(h, Terrain.PLAIN)


def cells_of(bf: Battlefield, terrain: Terrain | str) -> tuple[Hex, ...]:
    """The cells of one terrain type, sorted."""
    t = Terrain(terrain)
    key = ("cells_of", t)
    out = bf._memo.get(key)
    if out is None:
        if t is Terrain.PLAIN:
            out = tuple(sorted(h for h in bf.cells if h not in bf.terrain))
        else:
            out = tuple(sorted(h for h, v in bf.terrain.items() if v is t))
        bf._memo[key] = out
    return out


def portal_owner(bf: Battlefield, h: Hex) -> int | None:
    """The seat whose portal ``h`` is, or None (no portal there)."""
    return bf.owner.get(h) if bf.terrain.get(h) is Terrain.PORTAL else None


def beacon_controller(bf: Battlefield, h: Hex) -> int | None:
    """The seat controlling the beacon on ``h``, or None (inactive, or no beacon)."""
    return bf.owner.get(h) if bf.terrain.get(h) is Terrain.BEACON else None


def portals(bf: Battlefield, seat: int) -> tuple[Hex, ...]:
    """``seat``'s portals (T-59), sorted; a disabled portal is nobody's (T-60)."""
    key = ("portals", seat)
    out = bf._memo.get(key)
    if out is None:
        out = tuple(sorted(h for h in bf.terrain if portal_owner(bf, h) == seat))
        bf._memo[key] = out
    return out


def _portal_owners(bf: Battlefield) -> dict[Hex, int]:
    """Each portal -> its seat (``portal_owner``), once per battlefield."""
    owners = bf._memo.get("portal_owners")
    if owners is None:
        owners = {h: o for h in bf.terrain if (o := portal_owner(bf, h)) is not None}
        bf._memo["portal_owners"] = owners
    return owners


def is_opponent_portal(bf: Battlefield, h: Hex, seats: Collection[int]) -> bool:
    """Whether ``h`` is a portal of a seat not on the side ``seats`` (T-43): no champion of
    that side may end a move there or be placed there."""
    owner = portal_owner(bf, h)
    return owner is not None and owner not in seats


def is_impassable(bf: Battlefield, h: Hex) -> bool:
    """Whether no champion can ever enter ``h``: off the map, or enchanted land that the
    scenario makes a barrier (T-63)."""
    if h not in bf.cells:
        return True
    return bf.terrain.get(h) is Terrain.ENCHANTED and bf.enchanted.impassable


def enter_cost(bf: Battlefield, h: Hex) -> int | None:
    """The movement points a step into ``h`` costs by its terrain (T-40, T-61, T-63), or
    None if it cannot be entered. Who stands there is for the callers."""
    if is_impassable(bf, h):
        return None
    t = bf.terrain.get(h)
    if t is Terrain.FOREST:
        return STEP_COST + FOREST_EXTRA_COST
    if t is Terrain.ENCHANTED:
        return STEP_COST + bf.enchanted.extra_cost
    return STEP_COST


def blocks_sight(bf: Battlefield, h: Hex) -> bool:
    """Whether the terrain of ``h`` blocks a line of sight passing through it (T-61: forest;
    T-63: enchanted land if the scenario says so). Off the map blocks too (a line of sight
    runs over the battlefield's cells; never the case on a hexagonal, convex, map)."""
    if h not in bf.cells:
        return True
    t = bf.terrain.get(h)
    return t is Terrain.FOREST or (t is Terrain.ENCHANTED and bf.enchanted.blocks_los)


# -- placing and moving terrain tokens [T-58] -------------------------------------------------


def can_place_terrain(bf: Battlefield, h: Hex) -> bool:
    """Whether an effect may put a terrain token on ``h``: only a plain cell without one
    (T-58). Champions and special tokens there do not matter (T-66)."""
    return h in bf.cells and h not in bf.terrain


def place_terrain(
    bf: Battlefield, h: Hex, terrain: Terrain | str, owner: int | None = None
) -> Battlefield:
    """``bf`` with a ``terrain`` token put on ``h``; unchanged when ``h`` is not a plain
    cell (T-58: "otherwise the effect is ignored", C-52)."""
    t = Terrain(terrain)
    if t is Terrain.PLAIN or not can_place_terrain(bf, h):
        return bf
    ter = {**bf.terrain, h: t}
    own = dict(bf.owner)
    if owner is not None:
        own[h] = owner
    return replace(bf, terrain=ter, owner=own)


def move_terrain(bf: Battlefield, source: Hex, dest: Hex) -> Battlefield:
    """``bf`` with the terrain token of ``source`` moved to ``dest`` (its owner with it);
    unchanged when ``source`` has none or ``dest`` is not a plain cell (T-58)."""
    if source not in bf.terrain or not can_place_terrain(bf, dest):
        return bf
    ter = dict(bf.terrain)
    own = dict(bf.owner)
    ter[dest] = ter.pop(source)
    if source in own:
        own[dest] = own.pop(source)
    return replace(bf, terrain=ter, owner=own)


# -- entering the battlefield [T-35, T-43, T-60, T-97, D-8, T-94] -----------------------------


def entry_cells(bf: Battlefield, seat: int, occupied: Collection[Hex] = ()) -> tuple[Hex, ...]:
    """The cells where ``seat``'s champion may enter (T-35, C-16): its own unoccupied
    portals, sorted. Disabled portals admit nobody (T-60); another seat's portal is never
    one's own, teammates' included (T-97: each enters only through their own, C-69). An
    empty result means the command is illegal (D-8)."""
    taken = set(occupied)
    return tuple(h for h in portals(bf, seat) if h not in taken)


def can_be_placed(
    bf: Battlefield, h: Hex, occupied: Collection[Hex] = (), seats: Collection[int] = ()
) -> bool:
    """Whether a champion of the side ``seats`` may be put on ``h`` by an effect: a cell it
    could stand on, unoccupied (T-41), not an opponent's portal (T-43)."""
    return not is_impassable(bf, h) and h not in occupied and not is_opponent_portal(bf, h, seats)


def spawn_cells(
    bf: Battlefield, h: Hex, occupied: Collection[Hex] = (), seats: Collection[int] = ()
) -> tuple[Hex, ...]:
    """Where an effect placing a villain cultist on ``h`` may put it (T-94): ``(h,)`` if it
    is free; else the free adjacent cells (the player chooses, T-88); ``()`` when every one
    is taken, and the effect is ignored (C-66)."""
    taken = set(occupied)
    if can_be_placed(bf, h, taken, seats):
        return (h,)
    return tuple(sorted(n for n in hexes.neighbours(h) if can_be_placed(bf, n, taken, seats)))


# -- movement [T-39..T-43, D-11] ---------------------------------------------------------------

StepCost = Callable[[Battlefield, Hex, Hex], int | None]
"""A custom step cost ``(battlefield, from, to) -> points or None (cannot)``, for a card
that changes movement (T-1); by default ``enter_cost(battlefield, to)``."""

_Best = dict[Hex, tuple[int, int, Hex | None]]


def _step(bf: Battlefield, a: Hex, b: Hex, step_cost: StepCost | None) -> int | None:
    cost = enter_cost(bf, b) if step_cost is None else step_cost(bf, a, b)
    if cost is not None and cost < 0:
        raise ValueError(f"a step cannot cost less than 0: {a!r} -> {b!r} costs {cost}")
    return cost


def _search(
    bf: Battlefield,
    start: Hex,
    limit: int | None,
    enemies: Collection[Hex],
    step_cost: StepCost | None,
) -> _Best:
    """Dijkstra from ``start`` (D-11): each cell -> (cost, corrupted cells entered,
    previous cell) of the cheapest way there, the fewer corrupted cells the better among
    equally cheap ones, then the first found (cells popped in order, neighbours in
    ``hexes.DIRECTIONS`` order): deterministic. Enemy cells are never entered (T-41)."""
    graph = _graph(bf) if step_cost is None else None
    if graph is not None and start in graph:
        # the last searches are remembered (the callers only read the result): the same
        # move is looked for by the legal actions, the check of the action and its path
        blocked = frozenset(enemies) - {start}
        key = (id(bf), start, limit, blocked)
        known = _SEARCHES.get(key)
        if known is not None and known[0] is bf:
            return known[1]
        best = _search_graph(graph, start, limit, blocked)
        _remember(_SEARCHES, key, (bf, best))
        return best
    blocked = set(enemies) - {start}
    best: _Best = {start: (0, 0, None)}
    heap = [(0, 0, start)]
    done: set[Hex] = set()
    while heap:
        cost, dmg, h = heapq.heappop(heap)
        if h in done:
            continue
        done.add(h)
        for n in hexes.neighbours(h):
            if n in blocked or n in done:
                continue
            c = _step(bf, h, n, step_cost)
            if c is None:
                continue
            nc = cost + c
            if limit is not None and nc > limit:
                continue
            nd = dmg + (bf.terrain.get(n) is Terrain.CORRUPTED)
            old = best.get(n)
            if old is None or (nc, nd) < old[:2]:
                best[n] = (nc, nd, h)
                heapq.heappush(heap, (nc, nd, n))
    return best


_Graph = dict[Hex, tuple[tuple[Hex, int, int], ...]]
_SEARCHES: dict[tuple, tuple[Battlefield, _Best]] = {}
_REACHABLE: dict[tuple, tuple[Battlefield, dict[Hex, int]]] = {}
_RECENT_MAX = 256  # entries each of the two tables keeps; past it they start over


def _remember(table: dict, key: tuple, value: tuple) -> None:
    if len(table) >= _RECENT_MAX:
        table.clear()
    table[key] = value


def _graph(bf: Battlefield) -> _Graph | None:
    """The map's steps by terrain, built once per battlefield: each cell -> its enterable
    neighbours in ``hexes.DIRECTIONS`` order, each with the step's cost (``enter_cost``)
    and 1 if it is corrupted land (else 0). None if some step would cost less than 0: the
    plain search then raises on it as before."""
    if "graph" in bf._memo:
        return bf._memo["graph"]
    graph: _Graph | None = {}
    into = {}  # cell -> (cost of a step into it, 1 if corrupted); off the map: none
    for h in bf.cells:
        c = enter_cost(bf, h)
        if c is not None:
            into[h] = (c, 1 if bf.terrain.get(h) is Terrain.CORRUPTED else 0)
    if any(c < 0 for c, _ in into.values()):
        graph = None
    else:
        for q, r in bf.cells:
            steps = []
            for dq, dr in hexes.DIRECTIONS:  # hexes.neighbours, in its order
                n = (q + dq, r + dr)
                step = into.get(n)
                if step is not None:
                    steps.append((n, *step))
            graph[(q, r)] = tuple(steps)
    bf._memo["graph"] = graph
    return graph


def _search_graph(graph: _Graph, start: Hex, limit: int | None, blocked: Collection[Hex]) -> _Best:
    """``_search`` over the table of ``_graph`` (the same cells in the same order)."""
    best: _Best = {start: (0, 0, None)}
    heap = [(0, 0, start)]
    # the blocked cells count as done: never entered (start is not among them)
    done: set[Hex] = set(blocked)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, dmg, h = pop(heap)
        if h in done:
            continue
        done.add(h)
        for n, c, corrupt in graph[h]:
            if n in done:
                continue
            nc = cost + c
            if limit is not None and nc > limit:
                continue
            nd = dmg + corrupt
            old = best.get(n)
            if old is None or nc < old[0] or (nc == old[0] and nd < old[1]):
                best[n] = (nc, nd, h)
                push(heap, (nc, nd, n))
    return best


def _path(best: _Best, dest: Hex) -> tuple[Hex, ...]:
    out = [dest]
    while (prev := best[out[-1]][2]) is not None:
        out.append(prev)
    return tuple(reversed(out))


def movement_costs(
    bf: Battlefield,
    start: Hex,
    movement: int,
    *,
    enemies: Collection[Hex] = (),
    step_cost: StepCost | None = None,
) -> dict[Hex, int]:
    """Every cell a champion on ``start`` with ``movement`` points can be in during its
    move (passing through, T-41), with the least cost to get there; ``start`` costs 0."""
    _check_movement(movement)
    return {h: v[0] for h, v in _search(bf, start, movement, enemies, step_cost).items()}


def can_end_on(
    bf: Battlefield, h: Hex, *, occupied: Collection[Hex] = (), seats: Collection[int] = ()
) -> bool:
    """Whether a move of a champion of the side ``seats`` may end on ``h``: an enterable
    cell, no champion there (T-41), not an opponent's portal (T-43)."""
    return can_be_placed(bf, h, occupied, seats)


def reachable(
    bf: Battlefield,
    start: Hex,
    movement: int,
    *,
    enemies: Collection[Hex] = (),
    allies: Collection[Hex] = (),
    seats: Collection[int] = (),
    step_cost: StepCost | None = None,
) -> dict[Hex, int]:
    """The cells where a move from ``start`` with ``movement`` points may end (T-39..T-43,
    C-19..C-23), each with its least cost. Enemies cannot be passed; allies (``allies``: the
    other champions of the mover's side) and opponents' portals can, but not ended on.
    ``start`` itself is not a destination (staying put is skipping the move, T-36)."""
    _check_movement(movement)
    occupied = (set(enemies) | set(allies)) - {start}
    key = None
    if step_cost is None:  # the last ones remembered (a new dict for each caller)
        key = (
            id(bf), start, movement, frozenset(enemies), frozenset(occupied), frozenset(seats)
        )  # fmt: skip
        known = _REACHABLE.get(key)
        if known is not None and known[0] is bf:
            return dict(known[1])
    out = {}
    if step_cost is None:  # can_end_on, with the battlefield's portals looked up once
        owners = _portal_owners(bf)
        for h, (cost, _, _) in _search(bf, start, movement, enemies, None).items():
            if h == start or h in occupied or is_impassable(bf, h):
                continue
            owner = owners.get(h)
            if owner is None or owner in seats:  # not an opponent's portal (T-43)
                out[h] = cost
    else:
        for h, (cost, _, _) in _search(bf, start, movement, enemies, step_cost).items():
            if h != start and can_end_on(bf, h, occupied=occupied, seats=seats):
                out[h] = cost
    result = dict(sorted(out.items()))
    if key is not None:
        _remember(_REACHABLE, key, (bf, result))
        return dict(result)
    return result


def path_to(
    bf: Battlefield,
    start: Hex,
    dest: Hex,
    movement: int,
    *,
    enemies: Collection[Hex] = (),
    allies: Collection[Hex] = (),
    seats: Collection[int] = (),
    step_cost: StepCost | None = None,
) -> tuple[Hex, ...] | None:
    """A cheapest legal path from ``start`` to ``dest`` (both included), the one with the
    fewest corrupted cells among equals, chosen deterministically; None if ``dest`` is not
    ``reachable``. A player may choose another path of their own: ``check_path`` it."""
    if dest not in reachable(
        bf, start, movement, enemies=enemies, allies=allies, seats=seats, step_cost=step_cost
    ):
        return None
    return _path(_search(bf, start, movement, enemies, step_cost), dest)


def path_cost(
    bf: Battlefield, path: Iterable[Hex], *, step_cost: StepCost | None = None
) -> int | None:
    """The movement points ``path`` costs by terrain (its first cell is where the champion
    stands, and costs nothing), or None if a step is not to an adjacent enterable cell."""
    cells = tuple(path)
    if not cells:
        raise ValueError("a path has at least its starting cell")
    total = 0
    for a, b in itertools.pairwise(cells):
        c = _step(bf, a, b, step_cost) if hexes.adjacent(a, b) else None
        if c is None:
            return None
        total += c
    return total


def check_path(
    bf: Battlefield,
    path: Iterable[Hex],
    movement: int,
    *,
    enemies: Collection[Hex] = (),
    allies: Collection[Hex] = (),
    seats: Collection[int] = (),
    step_cost: StepCost | None = None,
) -> str | None:
    """Why a move along ``path`` (the champion's cell first) is illegal, or None if it is
    legal: ``"empty"``, ``"not adjacent"``, ``"impassable"``, ``"enemy"`` (T-41),
    ``"too far"`` (T-39, C-19), ``"occupied"`` (T-41, C-22), ``"opponent portal"`` (T-43,
    C-23). A path of one cell (no move) is legal."""
    _check_movement(movement)
    cells = tuple(path)
    if not cells:
        return "empty"
    start = cells[0]
    foes = set(enemies) - {start}
    total = 0
    for a, b in itertools.pairwise(cells):
        if not hexes.adjacent(a, b):
            return "not adjacent"
        if b in foes:
            return "enemy"
        c = _step(bf, a, b, step_cost)
        if c is None:
            return "impassable"
        total += c
    if total > movement:
        return "too far"
    if len(cells) > 1:
        end = cells[-1]
        if end in (foes | set(allies)) - {start}:
            return "occupied"
        if is_opponent_portal(bf, end, seats):
            return "opponent portal"
    return None


def travel_cost(
    bf: Battlefield,
    a: Hex,
    b: Hex,
    *,
    enemies: Collection[Hex] = (),
    step_cost: StepCost | None = None,
) -> int | None:
    """The least movement cost from ``a`` to ``b`` with no limit on points (passing allies,
    never enemies), or None if there is no way."""
    best = _search(bf, a, None, set(enemies) - {b}, step_cost)
    return best[b][0] if b in best else None


def closest(
    bf: Battlefield,
    candidates: Iterable[Hex],
    target: Hex,
    *,
    enemies: Collection[Hex] = (),
    step_cost: StepCost | None = None,
) -> tuple[Hex, ...]:
    """The ``candidates`` closest to ``target`` (D-17: by movement cost, then by hex
    distance when there is no way), sorted; a tie leaves several for the player (T-91)."""
    cands = sorted(set(candidates))
    if not cands:
        return ()
    best = _search(bf, target, None, set(enemies) - {target}, _reverse(step_cost))

    def key(h: Hex) -> tuple[float, int]:
        cost = best[h][0] if h in best else float("inf")
        return (cost, hexes.distance(h, target))

    low = min(key(h) for h in cands)
    return tuple(h for h in cands if key(h) == low)


def _reverse(step_cost: StepCost | None) -> StepCost:
    """The cost of the step b -> a, for a search run backwards from the target."""

    def back(bf: Battlefield, a: Hex, b: Hex) -> int | None:
        if is_impassable(bf, b):
            return None
        return enter_cost(bf, a) if step_cost is None else step_cost(bf, b, a)

    return back


def _check_movement(movement: int) -> None:
    if not isinstance(movement, int) or isinstance(movement, bool):
        raise ValueError(f"movement points are an int, not {movement!r}")


# -- what a move does on the way [T-60, T-62, T-65, T-67, D-10, D-12] ------------------------


def corrupted_entries(bf: Battlefield, path: Iterable[Hex]) -> int:
    """How many times ``path`` moves into corrupted land (its first cell, where the move
    starts, is not moved into; D-10: being placed on entry is no move either)."""
    cells = tuple(path)
    return sum(bf.terrain.get(h) is Terrain.CORRUPTED for h in cells[1:])


def corruption_damage(bf: Battlefield, path: Iterable[Hex], *, ignores: bool = False) -> int:
    """The damage a move along ``path`` takes from corrupted land: 5 per cell moved into,
    added up (T-62, C-47); 0 for a villain, which ignores it in solo and co-op."""
    return 0 if ignores else CORRUPTION_DAMAGE * corrupted_entries(bf, path)


def turn_start_corruption(bf: Battlefield, positions: Iterable[Hex]) -> dict[Hex, int]:
    """The damage each champion standing on corrupted land takes at the start of **every**
    turn (T-62, D-12, C-48): cell -> 5 for the given champions' cells on corrupted land."""
    return {
        h: CORRUPTION_DAMAGE
        for h in sorted(set(positions))
        if bf.terrain.get(h) is Terrain.CORRUPTED
    }


def portals_activated(bf: Battlefield, path: Iterable[Hex]) -> tuple[Hex, ...]:
    """The disabled portals a move along ``path`` moves into or through (T-60, C-49), in
    path order (not the starting cell: placing is no move, D-10)."""
    cells = tuple(path)
    seen: list[Hex] = []
    for h in cells[1:]:
        if bf.terrain.get(h) is Terrain.DISABLED_PORTAL and h not in seen:
            seen.append(h)
    return tuple(seen)


def activate_portals(bf: Battlefield, path: Iterable[Hex], seat: int) -> Battlefield:
    """``bf`` after ``seat``'s champion moved along ``path``: each disabled portal moved
    into or through becomes a portal of ``seat``'s colour (T-60)."""
    hit = portals_activated(bf, path)
    if not hit:
        return bf
    ter = {**bf.terrain, **dict.fromkeys(hit, Terrain.PORTAL)}
    return replace(bf, terrain=ter, owner={**bf.owner, **dict.fromkeys(hit, seat)})


def beacons_entered(bf: Battlefield, path: Iterable[Hex]) -> tuple[Hex, ...]:
    """The beacons a move along ``path`` moves into, passing through included (T-65, D-10:
    the glossary and "simply moving through is enough" win over the OCR's "must end")."""
    cells = tuple(path)
    seen: list[Hex] = []
    for h in cells[1:]:
        if bf.terrain.get(h) is Terrain.BEACON and h not in seen:
            seen.append(h)
    return tuple(seen)


def capture_beacons(bf: Battlefield, path: Iterable[Hex], seat: int) -> Battlefield:
    """``bf`` after ``seat``'s champion moved along ``path``: ``seat`` controls every beacon
    moved into or through, replacing an opponent's token (T-65, C-51)."""
    hit = beacons_entered(bf, path)
    if not hit:
        return bf
    return replace(bf, owner={**bf.owner, **dict.fromkeys(hit, seat)})


def treasure_taken(bf: Battlefield, path: Iterable[Hex], *, collects: bool = True) -> Hex | None:
    """The cell whose treasure token a champion takes after a move along ``path`` (or an
    entry, a path of the one cell it is placed on): only the cell where it **ends** (T-67,
    C-53, C-54); passing through takes nothing. ``collects=False`` for villains, which
    leave treasure on the board (T-90, C-61)."""
    cells = tuple(path)
    if not cells or not collects:
        return None
    end = cells[-1]
    return end if end in bf.treasure else None


def take_treasure(bf: Battlefield, h: Hex) -> Battlefield:
    """``bf`` without the treasure token on ``h``."""
    return replace(bf, treasure=bf.treasure - {h}) if h in bf.treasure else bf


# -- shrines [T-64, T-79] -------------------------------------------------------------------


def shrine_area(bf: Battlefield, shrine: Hex) -> tuple[Hex, ...]:
    """The shrine's cell and the map cells adjacent to it: where champions count (T-64)."""
    if bf.terrain.get(shrine) is not Terrain.SHRINE:
        raise ValueError(f"no shrine at {shrine!r}")
    key = ("shrine_area", shrine)
    out = bf._memo.get(key)
    if out is None:
        out = bf._memo[key] = (shrine, *hexes.neighbours_in(shrine, bf.cells))
    return out


def shrine_counts(bf: Battlefield, shrine: Hex, positions: Mapping[Hex, int]) -> dict[int, int]:
    """Side -> champions of that side in the shrine's area. ``positions`` maps each
    champion's cell to its side: a seat, or a team in 2 vs 2 (T-79, C-58)."""
    area = set(shrine_area(bf, shrine))
    counts: dict[int, int] = {}
    for h, side in positions.items():
        if h in area:
            counts[side] = counts.get(side, 0) + 1
    return dict(sorted(counts.items()))


def shrine_controller(bf: Battlefield, shrine: Hex, positions: Mapping[Hex, int]) -> int | None:
    """The side controlling ``shrine``: the one with strictly the most champions in its
    area (T-64, C-50); None when nobody is there or the highest count is shared."""
    counts = shrine_counts(bf, shrine, positions)
    if not counts:
        return None
    top = max(counts.values())
    leaders = [side for side, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else None


def shrine_control(bf: Battlefield, positions: Mapping[Hex, int]) -> dict[Hex, int | None]:
    """Every shrine of the map -> its controlling side or None (T-64)."""
    return {s: shrine_controller(bf, s, positions) for s in cells_of(bf, Terrain.SHRINE)}


# -- line of sight [T-68..T-70, D-3] --------------------------------------------------------


class LosMethod(StrEnum):
    """How "the shortest path" of T-68 is read on a hex grid (D-3; the default first)."""

    LINE = "line"  # the straight line, both nudges; clear if either is clear
    ANY_SHORTEST = "any_shortest"  # some shortest path's intermediate cells are clear
    ALL_SHORTEST = "all_shortest"  # every shortest path's intermediate cells are clear


def _blocked(bf: Battlefield, enemies: Collection[Hex]) -> Callable[[Hex], bool]:
    foes = set(enemies)
    return lambda h: h in foes or blocks_sight(bf, h)


def line_of_sight(
    bf: Battlefield,
    viewer: Hex,
    target: Hex,
    *,
    enemies: Collection[Hex] = (),
    method: LosMethod | str = LosMethod.LINE,
) -> bool:
    """Whether ``target`` is in the line of sight of a champion on ``viewer`` (T-68, D-3):
    no cell strictly between them blocks, a blocking cell being blocking terrain
    (``blocks_sight``) or a cell of ``enemies``, the viewer's enemies (T-70; the target's
    own cell may be among them). Allies, shrines and tokens do not block (T-68, T-67c,
    C-40); terrain under the viewer or the target does not count (C-39). A champion sees
    its own cell and adjacent cells. ``method``: see ``LosMethod``."""
    method = LosMethod(method)
    hexes._check(viewer)
    hexes._check(target)
    blocked = _blocked(bf, set(enemies) - {viewer, target})
    if method is LosMethod.LINE:
        return any(not any(blocked(h) for h in mid) for mid in hexes.between(viewer, target))
    geo = hexes.geodesic_cells(viewer, target) - {viewer, target}
    if method is LosMethod.ALL_SHORTEST:
        return not any(blocked(h) for h in geo)
    # ANY_SHORTEST: walk the geodesic cells outwards from the viewer, one step further
    # from it each time, over clear cells only.
    n = hexes.distance(viewer, target)
    frontier = {viewer}
    for k in range(1, n):
        frontier = {
            m
            for h in frontier
            for m in hexes.neighbours(h)
            if m in geo and hexes.distance(viewer, m) == k and not blocked(m)
        }
        if not frontier:
            return False
    return n <= 1 or any(hexes.adjacent(h, target) for h in frontier)


def visible_cells(
    bf: Battlefield,
    viewer: Hex,
    reach: int,
    *,
    enemies: Collection[Hex] = (),
    method: LosMethod | str = LosMethod.LINE,
) -> tuple[Hex, ...]:
    """The map cells within ``reach`` of ``viewer`` in its line of sight (``viewer``
    excluded), in ``hexes.within`` order."""
    return tuple(
        h
        for h in hexes.within(viewer, reach)
        if h != viewer
        and h in bf.cells
        and line_of_sight(bf, viewer, h, enemies=enemies, method=method)
    )


# -- who may be attacked [T-44, T-54..T-56, T-67a] --------------------------------------------


def can_attack(
    bf: Battlefield,
    attacker: Hex,
    target: Hex,
    *,
    enemies: Collection[Hex] = (),
    ranged: bool = False,
    reach: int = RANGED_REACH,
    own_cell: bool = False,
    method: LosMethod | str = LosMethod.LINE,
) -> bool:
    """Whether a champion on ``attacker`` can attack the enemy on ``target`` by geometry:
    an adjacent enemy (T-44, C-25), or with Ranged attack an enemy up to ``reach`` (3) cells
    away in line of sight (T-54, C-38), the other ``enemies`` blocking (T-68). ``own_cell``
    is the turret's exception (T-67a: it can attack an enemy in its own cell). That the
    target is an enemy is the caller's business."""
    d = hexes.distance(attacker, target)
    if d == 0:
        return own_cell
    if d == 1:
        return True
    return (
        ranged
        and d <= reach
        and line_of_sight(bf, attacker, target, enemies=enemies, method=method)
    )


def attack_targets(
    bf: Battlefield,
    attacker: Hex,
    enemies: Collection[Hex],
    *,
    ranged: bool = False,
    reach: int = RANGED_REACH,
    own_cell: bool = False,
    method: LosMethod | str = LosMethod.LINE,
) -> tuple[Hex, ...]:
    """The cells of ``enemies`` a champion on ``attacker`` can attack, sorted. An Area
    attack hits every one of them at once, none excluded (T-56, C-44)."""
    foes = set(enemies)
    return tuple(
        h
        for h in sorted(foes)
        if can_attack(
            bf,
            attacker,
            h,
            enemies=foes,
            ranged=ranged,
            reach=reach,
            own_cell=own_cell,
            method=method,
        )
    )


area_targets = attack_targets


def counter_strike_reaches(
    bf: Battlefield,
    defender: Hex,
    attacker: Hex,
    *,
    defender_ranged: bool = False,
    defender_enemies: Collection[Hex] = (),
    method: LosMethod | str = LosMethod.LINE,
) -> bool:
    """Whether a Counter-strike of the champion on ``defender`` reaches the attacker on
    ``attacker`` (T-55): always from an adjacent cell; from farther only if the defender
    also has Ranged attack and the attacker is in **its** line of sight, the defender's
    enemies blocking (T-70, C-42). The attack itself reached, so the distance is <= 3."""
    d = hexes.distance(defender, attacker)
    if d <= 1:
        return True
    return (
        defender_ranged
        and d <= RANGED_REACH
        and line_of_sight(bf, defender, attacker, enemies=defender_enemies, method=method)
    )
