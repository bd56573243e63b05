"""Elimination brackets stored on the event: starting one from the seeds, the winners so
far (and a split final), its state, and the matches ready to pair with their round titles
(from the pure ``tournaments.bracket``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournaments import bracket as bracket_core
from tournaments.models import Event, Match, Round
from tournaments.services.errors import TournamentError

# Round titles come from the pure bracket module in English; these are stored as
# titles and translated when shown (Round.__str__).
BRACKET_TITLES = (
    pgettext_lazy("round title", "Final"),
    pgettext_lazy("round title", "Finals"),
    pgettext_lazy("round title", "Semifinal"),
    pgettext_lazy("round title", "Semifinals"),
    pgettext_lazy("round title", "Quarterfinal"),
    pgettext_lazy("round title", "Quarterfinals"),
    pgettext_lazy("round title", "Grand final"),
    pgettext_lazy("round title", "Grand final reset"),
    pgettext_lazy("round title", "Losers final"),
    pgettext_lazy("round title", "Winners final"),
)


def _bracket_round_title(brk: bracket_core.Bracket, matches) -> str:
    titles: list[str] = []
    for m in matches:
        title = bracket_core.round_title(brk, m.bracket, m.round)
        if title not in titles:
            titles.append(title)
    return " / ".join(titles)


def bracket_winners(event: Event) -> dict[str, int]:
    """The winner of every final bracket match, by bracket code."""
    return dict(
        Match.objects.filter(round__event=event, status=Match.Status.FINAL)
        .exclude(bracket_code="")
        .exclude(winner=None)
        .values_list("bracket_code", "winner_id")
    )


def bracket_splits(event: Event) -> list[str]:
    """The bracket code of a final that ended in an agreed split (a final match with no
    winner), as a list of at most one code."""
    return list(
        Match.objects.filter(
            round__event=event, status=Match.Status.FINAL, winner=None, is_bye=False
        )
        .exclude(bracket_code="")
        .values_list("bracket_code", flat=True)
    )


def bracket_state(event: Event) -> bracket_core.BracketState:
    """The event's bracket resolved with every final result so far (its ``bracket`` is set)."""
    data = event.bracket
    return bracket_core.resolve(
        bracket_core.Bracket.from_json(data["bracket"]),
        data["seeds"],
        bracket_winners(event),
        bracket_splits(event),
    )


def split_allowed(match: Match) -> bool:
    """May this match end drawn? Swiss and round-robin matches may; an elimination match
    only if it is the final of a single-elimination bracket and the event allows a split
    final (MTR 5.2, recorded as an intentional draw, MTR 2.4)."""
    rnd = match.round
    if rnd.kind != Round.Kind.ELIMINATION:
        return True
    event = rnd.event
    if not event.allow_split_finals or not event.bracket or not match.bracket_code:
        return False
    brk = bracket_core.Bracket.from_json(event.bracket["bracket"])
    return match.bracket_code == bracket_core.final_code(brk)


def start_bracket(event: Event, seeds: Sequence[int]) -> None:
    """Store a new bracket of ``seeds`` on the event; the playoff begins."""
    if event.structure == Event.Structure.DOUBLE_ELIMINATION:
        brk = bracket_core.double_elimination(len(seeds), grand_final_reset=event.grand_final_reset)
    else:
        brk = bracket_core.single_elimination(len(seeds))
    event.bracket = {"bracket": brk.to_json(), "seeds": list(seeds)}
    event.phase = Event.Phase.PLAYOFF
    event.save(update_fields=["bracket", "phase", "updated_at"])


def bracket_tables(event: Event) -> tuple[list[tuple[int, ...]], list[str], str]:
    """The bracket matches ready to pair: their players, codes and the round's title."""
    brk = bracket_core.Bracket.from_json(event.bracket["bracket"])
    state = bracket_state(event)
    if state.finished:
        raise TournamentError(_("The bracket is finished: the event is over."))
    pending = set(
        Match.objects.filter(round__event=event)
        .exclude(bracket_code="")
        .values_list("bracket_code", flat=True)
    )
    codes = [code for code in state.ready if code not in pending]
    if not codes:
        raise TournamentError(_("No bracket match is ready to be paired."))
    by_code = {m.code: m for m in brk.matches}
    tables = [tuple(p for p in state.slots[code] if p is not None) for code in codes]
    return tables, codes, _bracket_round_title(brk, [by_code[c] for c in codes])
