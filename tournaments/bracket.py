"""Elimination brackets and round-robin schedules as plain data.

This module is pure Python (standard library only). It knows nothing about Django: the
tournament layer stores a :class:`Bracket` as JSON (:meth:`Bracket.to_json` /
:meth:`Bracket.from_json`), records results as a mapping *match code -> winning player*, and
calls :func:`resolve` to find out who plays whom, which matches are ready to be played, who has
been eliminated with which placement and whether the event is over.

Building brackets
=================

:func:`single_elimination` and :func:`double_elimination` build a bracket for ``n`` entrants.
The bracket size is the next power of two ``P >= n``; the ``P - n`` missing entrants are byes.
Seeds are placed with :func:`seed_order` (1 v P, then 4 v 5 ... in the standard pattern), so the
byes go to the top seeds and seeds 1 and 2 can only meet in the (winners-bracket) final.

Match codes
-----------

* single elimination: ``R{round}-{order}``, e.g. ``R1-1`` ... ``R3-1`` (the final of 8);
* double elimination: ``W{round}-{order}`` for the winners bracket, ``L{round}-{order}`` for the
  losers bracket, ``GF1`` for the grand final and ``GF2`` for the grand final reset.

Rounds and orders are 1-based; ``order`` counts matches of a round from top to bottom.

Double elimination layout
-------------------------

With ``P = 2**k`` the winners bracket has ``k`` rounds and the losers bracket ``2(k - 1)``:

* ``L1`` pairs the losers of ``W1``: ``L1-i`` is loser of ``W1-(2i-1)`` v loser of ``W1-(2i)``;
* an even losers round ``L(2r-2)`` takes the winners of the previous losers round (side ``a``)
  against the players dropping out of winners round ``r`` (side ``b``);
* an odd losers round ``L(2r-1)`` (r >= 2) pairs the winners of the previous losers round.

To keep early rematches down, the players dropping from ``W{r}`` (``r >= 2``) come in reversed
order when ``r`` is even, and with each half reversed on its own when ``r`` is odd. With ``m``
matches in the round and ``h = m // 2``, ``L(2r-2)-i`` receives the loser of ``W{r}-(m+1-i)``
(``r`` even) or, for ``r`` odd, of ``W{r}-(h+1-i)`` in the top half (``i <= h``) and
``W{r}-(m+h+1-i)`` in the bottom half (``W{r}-1`` when ``m = 1``). In random simulations this
gave clearly fewer losers-bracket rematches than reversing every time or swapping halves.

``GF1`` is the winners-bracket champion (side ``a``) v the losers-bracket champion (side ``b``).
With two entrants there is no losers bracket and ``GF1`` is a rematch of ``W1-1``. When the
bracket has a reset, ``GF2`` is the loser of ``GF1`` (side ``a``) v the winner of ``GF1``
(side ``b``); it is played only if the losers-bracket champion wins ``GF1``, so that both players
have lost once.

Byes and walkovers
------------------

A source of kind ``"bye"`` stands for nobody. A match with nobody on one side is a walkover: it is
never ready, takes no result, the other player advances and nobody drops out of it. A match with
nobody on both sides passes nobody on. Byes only occur in winners round 1 (at most one per match)
and, as empty drops, in the first two losers rounds; every other match has two real players.

Placements
==========

Eliminated players get the standard shared placements: ``1 + the number of players who finish
above them`` assuming a full bracket.

* single elimination: champion 1, losing finalist 2, semifinal losers 3, quarterfinal losers 5,
  then 9, 17, ... (the loser of round ``r`` of ``R`` gets ``2**(R - r) + 1``);
* double elimination: champion 1, grand final loser 2, then by the losers round of the second
  loss, from the last one backwards: the losers final loser gets 3, the loser of the losers round
  before it 4, the two losers of each of the two rounds before that 5 and 7, then 9 and 13 (four
  each), 17 and 25, ... Without a reset, a winners-bracket champion who loses ``GF1`` is out
  with a single loss and gets 2.

Splits
======

A single-elimination final may end in an agreed split, when the organiser allows it (MTR 5.2:
players in the announced last round of the single-elimination portion may agree to divide the
prizes; the match is recorded as an intentional draw, 0-0-3, MTR 2.4). :func:`resolve` takes
the code of such a final in ``splits``: both its players finish 1, the bracket is finished and
there is no single champion. Only the final of a single-elimination bracket can be split
(:func:`final_code`); a double-elimination grand final is played out.

Round robin
===========

:func:`round_robin` schedules everybody against everybody with the circle method.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "GRAND_FINAL",
    "GRAND_FINAL_RESET",
    "MAX_ENTRANTS",
    "Bracket",
    "BracketError",
    "BracketMatch",
    "BracketState",
    "PlayerId",
    "Source",
    "double_elimination",
    "final_code",
    "resolve",
    "round_robin",
    "round_title",
    "rounds_for_drawing",
    "seed_order",
    "single_elimination",
]

PlayerId = Hashable

#: Largest number of entrants an elimination bracket may be built for.
MAX_ENTRANTS = 256

#: Code of the grand final in a double-elimination bracket.
GRAND_FINAL = "GF1"
#: Code of the grand final reset, played only if the losers-bracket champion wins ``GF1``.
GRAND_FINAL_RESET = "GF2"

JSON_VERSION = 1

SOURCE_KINDS = ("seed", "winner", "loser", "bye")
BRACKET_KINDS = ("single", "double")
SECTIONS = ("winners", "losers", "final")


class BracketError(ValueError):
    """A bracket, a seeding or a set of results is not valid."""


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where the player on one side of a match comes from.

    ``kind`` is ``"seed"`` (``ref`` = 1-based seed number), ``"winner"`` or ``"loser"`` (``ref``
    = code of the feeding match) or ``"bye"`` (``ref`` = ``None``: nobody).
    """

    kind: str
    ref: int | str | None = None

    def __post_init__(self) -> None:
        if self.kind == "seed":
            if not _is_int(self.ref) or self.ref < 1:
                raise BracketError(f"a seed source needs a seed number >= 1, not {self.ref!r}")
        elif self.kind in ("winner", "loser"):
            if not isinstance(self.ref, str) or not self.ref:
                raise BracketError(f"a {self.kind} source needs a match code, not {self.ref!r}")
        elif self.kind == "bye":
            if self.ref is not None:
                raise BracketError(f"a bye source takes no reference, not {self.ref!r}")
        else:
            raise BracketError(f"unknown source kind {self.kind!r}")

    @classmethod
    def seed(cls, number: int) -> Source:
        return cls("seed", number)

    @classmethod
    def winner(cls, code: str) -> Source:
        return cls("winner", code)

    @classmethod
    def loser(cls, code: str) -> Source:
        return cls("loser", code)

    @classmethod
    def bye(cls) -> Source:
        return cls("bye", None)

    def describe(self) -> str:
        """Short text for drawing an empty slot: "Seed 3", "Winner of W1-2", "Bye"."""
        if self.kind == "seed":
            return f"Seed {self.ref}"
        if self.kind == "bye":
            return "Bye"
        return f"{self.kind.capitalize()} of {self.ref}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "ref": self.ref}


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket; see the module docstring for codes and sides."""

    code: str
    bracket: str  # "winners" | "losers" | "final"
    round: int  # 1-based, within its bracket section
    order: int  # 1-based, top to bottom within the round
    a: Source
    b: Source
    label: str  # "Quarterfinal 1", "Losers round 2 match 1", "Grand final", ...

    @property
    def sources(self) -> tuple[Source, Source]:
        return (self.a, self.b)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "bracket": self.bracket,
            "round": self.round,
            "order": self.order,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "label": self.label,
        }


@dataclass(frozen=True)
class Bracket:
    """A whole elimination bracket.

    ``matches`` lists every match after the matches that feed it (winners bracket round by
    round, then the losers bracket, then the grand final), which is also a sensible playing
    order. The structure is checked on construction and :class:`BracketError` is raised if it is
    inconsistent.
    """

    kind: str  # "single" | "double"
    size: int  # number of entrants (not the power of two)
    matches: tuple[BracketMatch, ...]
    grand_final_reset: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "matches", tuple(self.matches))
        _check_structure(self)

    def match(self, code: str) -> BracketMatch:
        for match in self.matches:
            if match.code == code:
                return match
        raise BracketError(f"no match {code!r} in this bracket")

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (only dicts, lists, str, int, bool and None)."""
        return {
            "version": JSON_VERSION,
            "kind": self.kind,
            "size": self.size,
            "grand_final_reset": self.grand_final_reset,
            "matches": [match.to_json() for match in self.matches],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bracket:
        """Rebuild a bracket from :meth:`to_json` output; raises :class:`BracketError`."""
        if not isinstance(data, Mapping):
            raise BracketError("bracket data must be a JSON object")
        version = data.get("version", JSON_VERSION)
        if version != JSON_VERSION:
            raise BracketError(f"unsupported bracket data version {version!r}")
        try:
            raw_matches = data["matches"]
            if not isinstance(raw_matches, list | tuple):
                raise BracketError("bracket 'matches' must be a list")
            matches = tuple(_match_from_json(item) for item in raw_matches)
            reset = data.get("grand_final_reset", False)
            if not isinstance(reset, bool):
                raise BracketError("'grand_final_reset' must be true or false")
            return cls(
                kind=data["kind"], size=data["size"], matches=matches, grand_final_reset=reset
            )
        except KeyError as exc:
            raise BracketError(f"bracket data is missing {exc.args[0]!r}") from None


@dataclass(frozen=True)
class BracketState:
    """What a bracket looks like after some results.

    * ``slots``: match code -> (side a, side b) players known so far; ``None`` for a side that
      is not known yet or that is a bye (see ``walkovers``), and for both sides of a grand final
      reset that is not (or not yet known to be) needed.
    * ``ready``: codes of matches with two known players and no result yet, in bracket order.
    * ``walkovers``: codes of matches that are never played because a side is nobody.
    * ``finished`` / ``champion``: whether the event is over, and its winner (``None`` after
      a split final, whose two players share first place).
    * ``placements``: player -> final placement, for everybody eliminated so far and the
      champion (see the module docstring for the numbers); both players of a split final
      finish 1.
    * ``split``: the code of the final if it ended in a split, else ``None``.
    """

    slots: dict[str, tuple[PlayerId | None, PlayerId | None]]
    ready: tuple[str, ...]
    walkovers: tuple[str, ...]
    finished: bool
    champion: PlayerId | None
    placements: dict[PlayerId, int]
    split: str | None = None


# --------------------------------------------------------------------------------------------
# Building brackets
# --------------------------------------------------------------------------------------------


def seed_order(n: int) -> list[int]:
    """Seeds in bracket position order for a bracket of ``n`` (a power of two) slots.

    Adjacent pairs are the first-round matches: for 8 this is ``[1, 8, 4, 5, 2, 7, 3, 6]``,
    i.e. 1 v 8, 4 v 5, 2 v 7, 3 v 6. Built by doubling: every seed ``s`` of the order for ``m``
    slots is followed by its opponent ``2m + 1 - s``. So the seeds of every pair add up to
    ``n + 1``, and the top ``2**j`` seeds can only meet each other once ``2**j`` players are left.
    """
    if not _is_int(n) or n < 1 or n & (n - 1):
        raise BracketError(f"seed_order needs a power of two, not {n!r}")
    order = [1]
    while len(order) < n:
        size = 2 * len(order)
        order = [seed for top in order for seed in (top, size + 1 - top)]
    return order


def single_elimination(n_entrants: int) -> Bracket:
    """A single-elimination bracket for ``n_entrants`` (2 to :data:`MAX_ENTRANTS`) players.

    Codes are ``R{round}-{order}``. Seeds beyond ``n_entrants`` are byes, so the top seeds get
    a walkover in round 1.
    """
    size = _bracket_size(n_entrants)
    rounds = size.bit_length() - 1
    matches = _winners_bracket("R", "winners", size, n_entrants, rounds, single=True)
    return Bracket(kind="single", size=n_entrants, matches=tuple(matches))


def double_elimination(n_entrants: int, grand_final_reset: bool = True) -> Bracket:
    """A double-elimination bracket for ``n_entrants`` (2 to :data:`MAX_ENTRANTS`) players.

    Winners bracket ``W*``, losers bracket ``L*`` (drop order in the module docstring), grand
    final ``GF1`` and, if ``grand_final_reset``, the reset ``GF2``.
    """
    size = _bracket_size(n_entrants)
    k = size.bit_length() - 1
    matches = _winners_bracket("W", "winners", size, n_entrants, k, single=False)

    losers_rounds = 2 * (k - 1)
    previous: list[str] = []  # codes of the previous losers round
    for j in range(1, losers_rounds + 1):
        round_matches: list[tuple[Source, Source]] = []
        if j == 1:
            for i in range(1, size // 4 + 1):
                round_matches.append((Source.loser(f"W1-{2 * i - 1}"), Source.loser(f"W1-{2 * i}")))
        elif j % 2 == 0:
            dropping_round = j // 2 + 1
            count = len(previous)
            for i in range(1, count + 1):
                dropping = _drop_position(dropping_round, i, count)
                round_matches.append(
                    (
                        Source.winner(previous[i - 1]),
                        Source.loser(f"W{dropping_round}-{dropping}"),
                    )
                )
        else:
            for i in range(1, len(previous) // 2 + 1):
                round_matches.append(
                    (Source.winner(previous[2 * i - 2]), Source.winner(previous[2 * i - 1]))
                )
        previous = []
        for i, (a, b) in enumerate(round_matches, start=1):
            code = f"L{j}-{i}"
            label = _match_label("double", "losers", j, losers_rounds, i, len(round_matches))
            matches.append(BracketMatch(code, "losers", j, i, a, b, label))
            previous.append(code)

    winners_champion = Source.winner(f"W{k}-1")
    losers_champion = Source.winner(previous[0]) if previous else Source.loser("W1-1")
    matches.append(
        BracketMatch(GRAND_FINAL, "final", 1, 1, winners_champion, losers_champion, "Grand final")
    )
    if grand_final_reset:
        matches.append(
            BracketMatch(
                GRAND_FINAL_RESET,
                "final",
                2,
                1,
                Source.loser(GRAND_FINAL),
                Source.winner(GRAND_FINAL),
                "Grand final reset",
            )
        )
    return Bracket(
        kind="double",
        size=n_entrants,
        matches=tuple(matches),
        grand_final_reset=grand_final_reset,
    )


def _bracket_size(n_entrants: int) -> int:
    if not _is_int(n_entrants):
        raise BracketError(f"number of entrants must be an integer, not {n_entrants!r}")
    if not 2 <= n_entrants <= MAX_ENTRANTS:
        raise BracketError(
            f"an elimination bracket needs 2 to {MAX_ENTRANTS} entrants, not {n_entrants}"
        )
    return 1 << (n_entrants - 1).bit_length()


def _winners_bracket(
    prefix: str, section: str, size: int, n_entrants: int, rounds: int, *, single: bool
) -> list[BracketMatch]:
    kind = "single" if single else "double"
    positions = seed_order(size)
    matches: list[BracketMatch] = []
    for r in range(1, rounds + 1):
        count = size >> r
        for i in range(1, count + 1):
            if r == 1:
                a, b = (
                    Source.seed(seed) if seed <= n_entrants else Source.bye()
                    for seed in positions[2 * i - 2 : 2 * i]
                )
            else:
                a = Source.winner(f"{prefix}{r - 1}-{2 * i - 1}")
                b = Source.winner(f"{prefix}{r - 1}-{2 * i}")
            label = _match_label(kind, section, r, rounds, i, count)
            matches.append(BracketMatch(f"{prefix}{r}-{i}", section, r, i, a, b, label))
    return matches


def _drop_position(winners_round: int, i: int, count: int) -> int:
    """Which match of winners round ``winners_round`` drops into slot ``i`` of its losers round."""
    if winners_round % 2 == 0:
        return count + 1 - i
    if count == 1:
        return 1
    half = count // 2
    return half + 1 - i if i <= half else count + half + 1 - i


# --------------------------------------------------------------------------------------------
# Names for drawing
# --------------------------------------------------------------------------------------------


def _round_name(kind: str, section: str, rnd: int, last_round: int) -> tuple[str, bool]:
    """Base name of a round and whether its matches are numbered as "... match i"."""
    if section == "final":
        return ("Grand final" if rnd == 1 else "Grand final reset"), False
    if section == "losers":
        return ("Losers final", False) if rnd == last_round else (f"Losers round {rnd}", True)
    prefix = "" if kind == "single" else "Winners "
    from_end = last_round - rnd
    if from_end == 0:
        return (prefix + "final").capitalize(), False
    if from_end == 1:
        return (prefix + "semifinal").capitalize(), False
    if from_end == 2:
        return (prefix + "quarterfinal").capitalize(), False
    return (prefix + f"round {rnd}").capitalize(), True


def _match_label(kind: str, section: str, rnd: int, last_round: int, i: int, count: int) -> str:
    name, numbered = _round_name(kind, section, rnd, last_round)
    if count == 1:
        return name
    return f"{name} match {i}" if numbered else f"{name} {i}"


def round_title(bracket: Bracket, section: str, rnd: int) -> str:
    """Column heading for a round: "Quarterfinals", "Winners round 1", "Losers final", ..."""
    in_section = [m for m in bracket.matches if m.bracket == section]
    count = sum(1 for m in in_section if m.round == rnd)
    if not count:
        raise BracketError(f"no {section} round {rnd} in this bracket")
    last_round = max(m.round for m in in_section)
    name, numbered = _round_name(bracket.kind, section, rnd, last_round)
    return name if numbered or count == 1 else name + "s"


def rounds_for_drawing(bracket: Bracket) -> list[tuple[str, int, list[BracketMatch]]]:
    """The matches grouped in columns: ``(section, round, matches top to bottom)``.

    Sections come in the order winners, losers, final; rounds in increasing order. Use
    :func:`round_title` for a heading.
    """
    columns: dict[tuple[str, int], list[BracketMatch]] = {}
    for match in bracket.matches:
        columns.setdefault((match.bracket, match.round), []).append(match)
    return [
        (section, rnd, sorted(columns[section, rnd], key=lambda m: m.order))
        for section, rnd in sorted(columns, key=lambda key: (SECTIONS.index(key[0]), key[1]))
    ]


# --------------------------------------------------------------------------------------------
# Resolving results
# --------------------------------------------------------------------------------------------


class _Slot(enum.Enum):
    NOBODY = "nobody"  # a bye, or an empty drop from a walkover
    PENDING = "pending"  # not known yet


_NOBODY = _Slot.NOBODY
_PENDING = _Slot.PENDING
_NO_RESULT = object()


def final_code(bracket: Bracket) -> str | None:
    """The code of the match that may end in a split: a single-elimination final, else None."""
    return _root_code(bracket) if bracket.kind == "single" else None


def resolve(
    bracket: Bracket,
    seeds: Sequence[PlayerId],
    winners: Mapping[str, PlayerId],
    splits: Collection[str] = (),
) -> BracketState:
    """Work out the state of ``bracket`` for the given seeding and results.

    ``seeds[0]`` is seed 1; there must be exactly ``bracket.size`` distinct, non-``None``
    players. ``winners`` maps match codes to the winning player; ``splits`` lists the final if
    it ended in an agreed split (see "Splits" in the module docstring). Raises
    :class:`BracketError` for an unknown match code, a result for a match whose players are not
    known yet, for a walkover or for an unneeded grand final reset, for a winner who is not in
    the match, and for a split of any match but a single-elimination final that is ready to
    play (or one that also has a winner).
    """
    players = _check_seeds(bracket, seeds)
    codes = {match.code for match in bracket.matches}
    for code in winners:
        if code not in codes:
            raise BracketError(f"result for unknown match {code!r}")
    split = None
    for code in splits:
        if code not in codes:
            raise BracketError(f"split of unknown match {code!r}")
        if code != final_code(bracket):
            raise BracketError(f"{code} cannot be split: only a single-elimination final can")
        if code in winners:
            raise BracketError(f"{code} cannot have both a winner and a split")
        split = code

    places = _elimination_places(bracket)
    sides: dict[str, tuple[Any, Any]] = {}
    outcomes: dict[str, tuple[Any, Any]] = {}  # code -> (winner, loser)
    ready: list[str] = []
    walkovers: list[str] = []
    placements: dict[PlayerId, int] = {}
    champion: PlayerId | None = None

    def shown(player: Any) -> PlayerId | None:
        return None if isinstance(player, _Slot) else player

    def value(source: Source) -> Any:
        if source.kind == "seed":
            return players[source.ref - 1]
        if source.kind == "bye":
            return _NOBODY
        winner, loser = outcomes[source.ref]
        return winner if source.kind == "winner" else loser

    for match in bracket.matches:
        code = match.code
        result = winners.get(code, _NO_RESULT)

        if bracket.kind == "double" and code == GRAND_FINAL_RESET:
            gf_winner, _ = outcomes[GRAND_FINAL]
            if gf_winner is _PENDING or gf_winner != sides[GRAND_FINAL][1]:
                if result is not _NO_RESULT:
                    why = (
                        "the grand final has no result yet"
                        if gf_winner is _PENDING
                        else "the winners-bracket champion won the grand final"
                    )
                    raise BracketError(f"result for {code}, which is not played: {why}")
                sides[code] = (_PENDING, _PENDING)
                outcomes[code] = (_PENDING, _PENDING)
                continue

        a, b = value(match.a), value(match.b)
        sides[code] = (a, b)
        if a is _PENDING or b is _PENDING:
            if result is not _NO_RESULT:
                raise BracketError(f"result for {code}, whose players are not known yet")
            outcomes[code] = (_PENDING, _PENDING)
        elif a is _NOBODY or b is _NOBODY:
            if result is not _NO_RESULT:
                raise BracketError(f"result for {code}, which is a walkover and is not played")
            walkovers.append(code)
            outcomes[code] = (b if a is _NOBODY else a, _NOBODY)
        elif result is _NO_RESULT:
            ready.append(code)
            outcomes[code] = (_PENDING, _PENDING)
        else:
            if result == a:
                winner, loser = a, b
            elif result == b:
                winner, loser = b, a
            else:
                raise BracketError(
                    f"winner {result!r} of {code} is not one of its players ({a!r}, {b!r})"
                )
            outcomes[code] = (winner, loser)
            eliminated = code in places
            if bracket.kind == "double" and code == GRAND_FINAL:
                eliminated = not (bracket.grand_final_reset and winner == b)
            if eliminated:
                placements[loser] = places[code]

    if split is not None:
        if split not in ready:
            raise BracketError(f"split of {split}, whose players are not known yet")
        ready.remove(split)
        for player in sides[split]:
            placements[player] = 1
        return BracketState(
            slots={code: (shown(a), shown(b)) for code, (a, b) in sides.items()},
            ready=tuple(ready),
            walkovers=tuple(walkovers),
            finished=True,
            champion=None,
            placements=placements,
            split=split,
        )
    if bracket.kind == "single":
        champion = outcomes[_root_code(bracket)][0]
    else:
        champion = outcomes[GRAND_FINAL][0]
        if (
            bracket.grand_final_reset
            and champion is not _PENDING
            and champion == sides[GRAND_FINAL][1]
        ):
            champion = outcomes[GRAND_FINAL_RESET][0]
    finished = champion is not _PENDING
    if finished:
        placements[champion] = 1
    else:
        champion = None

    return BracketState(
        slots={code: (shown(a), shown(b)) for code, (a, b) in sides.items()},
        ready=tuple(ready),
        walkovers=tuple(walkovers),
        finished=finished,
        champion=champion,
        placements=placements,
    )


def _check_seeds(bracket: Bracket, seeds: Sequence[PlayerId]) -> list[PlayerId]:
    players = list(seeds)
    if len(players) != bracket.size:
        raise BracketError(f"the bracket is for {bracket.size} players, got {len(players)} seeds")
    if any(player is None for player in players):
        raise BracketError("None cannot be a player")
    try:
        distinct = len(set(players))
    except TypeError:
        raise BracketError("players must be hashable") from None
    if distinct != len(players):
        raise BracketError("a player is seeded more than once")
    return players


def _root_code(bracket: Bracket) -> str:
    """Code of the match whose winner goes nowhere (the final)."""
    fed = {
        source.ref
        for match in bracket.matches
        for source in match.sources
        if source.kind == "winner"
    }
    (root,) = (match.code for match in bracket.matches if match.code not in fed)
    return root


def _elimination_places(bracket: Bracket) -> dict[str, int]:
    """Match code -> placement of its loser, for matches whose loser is out.

    A loser's placement is 1 + the number of players finishing above in a full bracket:
    the champion, the runner-up and one player per match of each later eliminating round.
    ``GF1`` is listed, but its loser is out only when there is no reset to play.
    """
    section = "winners" if bracket.kind == "single" else "losers"
    per_round: dict[int, list[str]] = {}
    for match in bracket.matches:
        if match.bracket == section:
            per_round.setdefault(match.round, []).append(match.code)

    places: dict[str, int] = {}
    above = 1 if bracket.kind == "single" else 2  # champion (+ grand final loser)
    for rnd in sorted(per_round, reverse=True):
        for code in per_round[rnd]:
            places[code] = above + 1
        above += len(per_round[rnd])
    if bracket.kind == "double":
        places[GRAND_FINAL] = 2
        if bracket.grand_final_reset:
            places[GRAND_FINAL_RESET] = 2
    return places


# --------------------------------------------------------------------------------------------
# Structure checks and JSON
# --------------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_structure(bracket: Bracket) -> None:
    if bracket.kind not in BRACKET_KINDS:
        raise BracketError(f"unknown bracket kind {bracket.kind!r}")
    if not _is_int(bracket.size) or not 2 <= bracket.size <= MAX_ENTRANTS:
        raise BracketError(f"bracket size must be 2 to {MAX_ENTRANTS}, not {bracket.size!r}")
    if not isinstance(bracket.grand_final_reset, bool):
        raise BracketError("grand_final_reset must be a bool")
    if not bracket.matches:
        raise BracketError("a bracket needs at least one match")

    seen: set[str] = set()
    used_outputs: set[tuple[str, str]] = set()
    used_seeds: set[int] = set()
    for match in bracket.matches:
        if not isinstance(match, BracketMatch):
            raise BracketError(f"not a BracketMatch: {match!r}")
        if not isinstance(match.code, str) or not match.code:
            raise BracketError(f"bad match code {match.code!r}")
        if match.code in seen:
            raise BracketError(f"match code {match.code!r} is used twice")
        if match.bracket not in SECTIONS:
            raise BracketError(f"{match.code}: unknown bracket section {match.bracket!r}")
        if (
            not _is_int(match.round)
            or match.round < 1
            or not _is_int(match.order)
            or match.order < 1
        ):
            raise BracketError(f"{match.code}: round and order must be integers >= 1")
        if not isinstance(match.label, str):
            raise BracketError(f"{match.code}: label must be a string")
        for source in match.sources:
            if not isinstance(source, Source):
                raise BracketError(f"{match.code}: not a Source: {source!r}")
            if source.kind == "seed":
                if source.ref > bracket.size:
                    raise BracketError(f"{match.code}: seed {source.ref} > size {bracket.size}")
                if source.ref in used_seeds:
                    raise BracketError(f"seed {source.ref} is placed twice")
                used_seeds.add(source.ref)
            elif source.kind in ("winner", "loser"):
                if source.ref not in seen:
                    raise BracketError(
                        f"{match.code} takes the {source.kind} of {source.ref!r}, "
                        "which is not an earlier match"
                    )
                if (source.kind, source.ref) in used_outputs:
                    raise BracketError(f"the {source.kind} of {source.ref} is used twice")
                used_outputs.add((source.kind, source.ref))
        seen.add(match.code)

    if len(used_seeds) != bracket.size:
        missing = sorted(set(range(1, bracket.size + 1)) - used_seeds)
        raise BracketError(f"seeds {missing} are not placed")

    sections = {match.bracket for match in bracket.matches}
    if bracket.kind == "single":
        if sections != {"winners"} or bracket.grand_final_reset:
            raise BracketError("a single-elimination bracket only has a winners section")
        fed = {ref for kind, ref in used_outputs if kind == "winner"}
        if sum(1 for code in seen if code not in fed) != 1:
            raise BracketError("a single-elimination bracket needs exactly one final")
        return

    if GRAND_FINAL not in seen:
        raise BracketError(f"a double-elimination bracket needs a {GRAND_FINAL} match")
    if (GRAND_FINAL_RESET in seen) != bracket.grand_final_reset:
        raise BracketError(f"{GRAND_FINAL_RESET} must exist exactly when grand_final_reset is set")
    if bracket.grand_final_reset:
        reset = bracket.match(GRAND_FINAL_RESET)
        if reset.a != Source.loser(GRAND_FINAL) or reset.b != Source.winner(GRAND_FINAL):
            raise BracketError(
                f"{GRAND_FINAL_RESET} must be the loser v the winner of {GRAND_FINAL}"
            )


def _match_from_json(item: Any) -> BracketMatch:
    if not isinstance(item, Mapping):
        raise BracketError("each match must be a JSON object")
    return BracketMatch(
        code=item["code"],
        bracket=item["bracket"],
        round=item["round"],
        order=item["order"],
        a=_source_from_json(item["a"]),
        b=_source_from_json(item["b"]),
        label=item.get("label", ""),
    )


def _source_from_json(item: Any) -> Source:
    if not isinstance(item, Mapping):
        raise BracketError("each match side must be a JSON object")
    return Source(kind=item["kind"], ref=item.get("ref"))


# --------------------------------------------------------------------------------------------
# Round robin
# --------------------------------------------------------------------------------------------


def round_robin(player_ids: Sequence[PlayerId]) -> list[list[tuple[PlayerId, PlayerId | None]]]:
    """Everybody-plays-everybody schedule by the circle method.

    Returns ``n - 1`` rounds for an even number ``n`` of players and ``n`` rounds for an odd one.
    Each round is a list of pairs; with an odd number of players each round ends with one
    ``(player, None)`` pair: that player has the bye. Every two players meet exactly once and
    nobody plays twice in a round. The first player stays put while the others rotate; sides
    alternate so that nobody is always listed first.
    """
    players = list(player_ids)
    if len(players) < 2:
        raise BracketError("a round robin needs at least 2 players")
    if any(player is None for player in players):
        raise BracketError("None cannot be a player")
    try:
        distinct = len(set(players))
    except TypeError:
        raise BracketError("players must be hashable") from None
    if distinct != len(players):
        raise BracketError("a player is listed more than once")

    circle: list[PlayerId | None] = [*players, None] if len(players) % 2 else players
    count = len(circle)
    rounds: list[list[tuple[PlayerId, PlayerId | None]]] = []
    for r in range(count - 1):
        pairs: list[tuple[PlayerId, PlayerId | None]] = []
        bye: tuple[PlayerId, PlayerId | None] | None = None
        for i in range(count // 2):
            first, second = circle[i], circle[count - 1 - i]
            if (i == 0 and r % 2) or (i > 0 and i % 2):
                first, second = second, first
            if first is None:
                bye = (second, None)
            elif second is None:
                bye = (first, None)
            else:
                pairs.append((first, second))
        if bye is not None:
            pairs.append(bye)
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
