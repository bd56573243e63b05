"""The judge's log in the pages: the console's penalties section and its actions, the
penalties on a player's page (officials only) and the log as CSV. Thin: parse, call one
service of ``services.penalties``, hand back what the templates show."""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from tournaments.models import Event, Match, Penalty, PenaltyType, Registration, Round
from tournaments.services.errors import TournamentError
from tournaments.services.penalties import (
    add_penalty_type,
    issue_penalty,
    penalties_of,
    penalty_types,
    remove_penalty_type,
    revoke_penalty,
)
from tournaments.services.permissions import User, is_official

CONSOLE_LOG_SIZE = 100
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _posted_id(post: Mapping[str, str], name: str, missing: str) -> int | None:
    """An id posted by the console: empty is None; anything but a whole number names
    nothing and is refused with ``missing``."""
    value = post.get(name, "")
    if value == "":
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 12:
        raise TournamentError(missing)
    return int(value)


def _text(post: Mapping[str, str], name: str) -> str:
    value = post.get(name, "")
    if "\x00" in value:
        raise TournamentError(_("Null characters are not allowed."))
    return value


def _issue(user: User, event: Event, post: Mapping[str, str]) -> object:
    no_type = _("Choose a penalty from the list.")
    no_player = _("Choose a player of this event.")
    no_match = _("That match is not a match of this event.")
    kind_id = _posted_id(post, "penalty_type", no_type)
    reg_id = _posted_id(post, "registration", no_player)
    match_id = _posted_id(post, "match", no_match)
    kind = PenaltyType.objects.filter(event=event, pk=kind_id).first() if kind_id else None
    if kind is None:
        raise TournamentError(no_type)
    reg = event.registrations.filter(pk=reg_id).first() if reg_id else None
    if reg is None:
        raise TournamentError(no_player)
    match = None
    if match_id is not None:
        match = Match.objects.filter(round__event=event, pk=match_id).first()
        if match is None:
            raise TournamentError(no_match)
    return issue_penalty(user, kind, reg, _text(post, "reason"), match)


def _revoke(user: User, event: Event, post: Mapping[str, str]) -> object:
    missing = _("There is no such penalty in this event's log.")
    pk = _posted_id(post, "penalty", missing)
    penalty = Penalty.objects.filter(event=event, pk=pk).first() if pk else None
    if penalty is None:
        raise TournamentError(missing)
    return revoke_penalty(user, penalty, _text(post, "note"))


def _add_type(user: User, event: Event, post: Mapping[str, str]) -> object:
    return add_penalty_type(user, event, _text(post, "name"), _text(post, "effect"))


def _remove_type(user: User, event: Event, post: Mapping[str, str]) -> object:
    missing = _("Choose a penalty from the list.")
    pk = _posted_id(post, "penalty_type", missing)
    kind = PenaltyType.objects.filter(event=event, pk=pk).first() if pk else None
    if kind is None:
        raise TournamentError(missing)
    return remove_penalty_type(user, kind)


# The console's actions (``views.manage_action``): name -> (handler, what the official is told).
ACTIONS: dict[str, tuple[Callable[[User, Event, Mapping[str, str]], object], str]] = {
    "penalty": (_issue, gettext_lazy("Penalty issued.")),
    "revoke-penalty": (_revoke, gettext_lazy("Penalty revoked.")),
    "penalty-type": (_add_type, gettext_lazy("Penalty added to the list.")),
    "remove-penalty-type": (_remove_type, gettext_lazy("Penalty removed from the list.")),
}


def _match_choices(event: Event) -> list[tuple[int, str]]:
    """The matches a penalty may name: those of the two latest published rounds."""
    rounds = list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number")[:2])
    matches = (
        Match.objects.filter(round__in=rounds)
        .select_related("round")
        .prefetch_related("seats__registration")
        .order_by("-round__number", "table")
    )
    out = []
    for m in matches:
        names = " – ".join(s.registration.display_name for s in m.seats.all())
        out.append((m.pk, f"{m.round}, {_('table')} {m.table}: {names}"))
    return out


def console_context(event: Event) -> dict:
    """What the console's penalties section shows."""
    return {
        "penalty_types": penalty_types(event),
        "penalty_effects": PenaltyType.Effect.choices,
        "penalty_log": list(penalties_of(event).select_related("match")[:CONSOLE_LOG_SIZE]),
        "penalty_matches": _match_choices(event),
    }


def player_penalties(user: User, event: Event, registration: Registration) -> list | None:
    """A player's penalties for their page: to the event's officials only (None to anyone
    else, so the page shows nothing at all)."""
    if not is_official(user, event):
        return None
    return list(penalties_of(event, registration))


@login_required
@require_GET
def penalties_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The judge's log as CSV, for the event's officials."""
    event = get_object_or_404(Event, slug=slug)
    if not is_official(request.user, event):
        raise PermissionDenied(_("Only the organisers and judges of this event can see it."))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-penalties.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            "issued_at",
            "round",
            "table",
            "player",
            "penalty",
            "effect",
            "judge",
            "reason",
            "outcome",
            "status",
            "revoked_at",
            "revoked_by",
            "revoke_note",
            "revoke_outcome",
        ]
    )
    for p in penalties_of(event).order_by("created_at", "pk"):
        writer.writerow(
            [
                p.created_at.isoformat(),
                p.round_number or "",
                p.table or "",
                _cell(p.registration.display_name),
                _cell(p.name),
                p.effect,
                p.judge.get_username() if p.judge else "",
                _cell(p.reason),
                _cell(p.outcome_line),
                p.status,
                p.revoked_at.isoformat() if p.revoked_at else "",
                p.revoked_by.get_username() if p.revoked_by else "",
                _cell(p.revoke_note),
                _cell(p.revoke_outcome_line),
            ]
        )
    return response
