"""Series (seasons, leagues): events whose finishes add up to one table.

Anyone logged in may create a series; its creator (or a superuser) manages it: edits its
name, description and points table, and adds or removes events, each of which they must
organise. Every change is written to the series' audit log. The table is computed by
the pure ``tournaments.seasons.season_table`` from the final standings of the series'
finished events; a player is a user (an entry's own user, or each member of a team), so
guests entered by name only do not score.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import seasons
from tournaments.audit_text import AuditText, said
from tournaments.bracket_places import place_text, row_finish
from tournaments.models import (
    Event,
    Registration,
    Series,
    SeriesAuditEntry,
    SeriesEvent,
    TeamMember,
)
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.permissions import User, is_organiser


def _audit(series: Series, actor: User, action: str, line: AuditText, **data) -> None:
    """Write the series' audit entry: its line in English and as a message translated when
    shown (``SeriesAuditEntry.text``)."""
    SeriesAuditEntry.objects.create(
        series=series,
        actor=actor if actor.is_authenticated else None,
        action=action,
        summary=line.english()[:300],
        message=line.message,
        params=line.params,
        data=data,
    )


def manages(user: User | None, series: Series) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or series.created_by_id == user.pk


def check_manager(user: User | None, series: Series) -> None:
    if not manages(user, series):
        raise NotAllowed(_("Only the organiser of this series can do that."))


def points_table(data: object) -> seasons.PointsTable:
    """A points table from its stored or posted form, or a ``TournamentError`` saying why not."""
    try:
        return seasons.PointsTable.from_dict(data)
    except seasons.PointsTableError as exc:
        raise TournamentError(
            _("The points table cannot be used: %(why)s") % {"why": exc}
        ) from None


def parse_points(places_text: str, participation: str | int) -> dict:
    """The points table from the form: ``places_text`` as ``1:10, 2:7, 4:5, 8:3`` (last
    place: points) and the participation points."""
    places = []
    for part in (places_text or "").replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        upto, sep, points = part.partition(":")
        if not sep:
            raise TournamentError(
                _("Write each band as last place:points, e.g. 1:10, 2:7, 4:5, 8:3.")
            )
        try:
            places.append([int(upto), int(points)])
        except ValueError:
            raise TournamentError(
                _("Write each band as last place:points, e.g. 1:10, 2:7, 4:5, 8:3.")
            ) from None
    try:
        participation = int(participation or 0)
    except (TypeError, ValueError):
        raise TournamentError(_("Participation points are a whole number.")) from None
    data = {"places": places, "participation": participation}
    points_table(data)
    return data


def places_text(series: Series) -> str:
    table = points_table(series.points)
    return ", ".join(f"{upto}:{points}" for upto, points in table.places)


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise TournamentError(_("A series needs a name."))
    if len(name) > 120:
        raise TournamentError(_("A series name has at most 120 characters."))
    return name


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "series"
    slug, n = base, 2
    while Series.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def create_series(user: User, name: str, description: str = "", points=None) -> Series:
    if not user.is_authenticated:
        raise NotAllowed(_("Log in to create a series."))
    name = _clean_name(name)
    data = points if points is not None else seasons.DEFAULT_POINTS.as_dict()
    points_table(data)
    with transaction.atomic():
        series = Series.objects.create(
            name=name,
            slug=_unique_slug(name),
            description=description or "",
            points=data,
            created_by=user,
        )
        _audit(
            series,
            user,
            SeriesAuditEntry.Action.CREATE,
            said(gettext_noop("Created %(name)s"), name=name),
            points=data,
        )
    return series


def update_series(user: User, series: Series, **fields) -> Series:
    check_manager(user, series)
    unknown = set(fields) - {"name", "description", "points"}
    if unknown:
        raise TournamentError(_("Unknown series fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    if "name" in fields:
        fields["name"] = _clean_name(fields["name"])
    if "points" in fields:
        points_table(fields["points"])
    if "description" in fields:
        fields["description"] = fields["description"] or ""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        before = {k: getattr(series, k) for k in fields}
        changed = {k: v for k, v in fields.items() if before[k] != v}
        if not changed:
            return series
        for key, value in changed.items():
            setattr(series, key, value)
        series.save(update_fields=list(changed))
        _audit(
            series,
            user,
            SeriesAuditEntry.Action.EDIT,
            said(gettext_noop("Changed %(fields)s"), fields=", ".join(sorted(changed))),
            before={k: before[k] for k in changed},
            after=changed,
        )
    return series


def add_event(user: User, series: Series, event: Event) -> SeriesEvent:
    check_manager(user, series)
    if not is_organiser(user, event):
        raise NotAllowed(_("You can add only events you organise."))
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        if SeriesEvent.objects.filter(series=series, event=event).exists():
            raise TournamentError(_("This event is in the series already."))
        entry = SeriesEvent.objects.create(series=series, event=event)
        _audit(
            series,
            user,
            SeriesAuditEntry.Action.ADD_EVENT,
            said(gettext_noop("Added %(name)s"), name=event.name),
            event=event.slug,
        )
    return entry


def remove_event(user: User, series: Series, event: Event) -> None:
    check_manager(user, series)
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        deleted, _rows = SeriesEvent.objects.filter(series=series, event=event).delete()
        if not deleted:
            raise TournamentError(_("This event is not in the series."))
        _audit(
            series,
            user,
            SeriesAuditEntry.Action.REMOVE_EVENT,
            said(gettext_noop("Removed %(name)s"), name=event.name),
            event=event.slug,
        )


def series_events(series: Series) -> list[Event]:
    return [
        entry.event
        for entry in series.entries.select_related("event", "event__standings_snapshot").order_by(
            "event__starts_at", "event__created_at", "event__pk"
        )
    ]


@dataclass(frozen=True)
class TableRow:
    rank: int
    user: object
    points: float
    events: int
    best: int
    finishes: list  # per event of the series, in order: (rank, points, place) or None
    name: str = ""  # the name the player entered with (latest event), else the username


def entry_names(events: list[Event], user_ids: list[int]) -> dict[int, str]:
    """Each user's name in the series: the display name of their own entry (not a team's)
    in the latest of ``events`` they entered."""
    order = {e.pk: i for i, e in enumerate(events)}
    found: dict[int, tuple[int, str]] = {}
    for user_id, event_id, name in Registration.objects.filter(
        event_id__in=list(order), user_id__in=user_ids, members__isnull=True
    ).values_list("user_id", "event_id", "display_name"):
        if user_id not in found or order[event_id] > found[user_id][0]:
            found[user_id] = (order[event_id], name)
    return {user_id: name for user_id, (_i, name) in found.items()}


def finishes_of(events: list[Event]) -> list[seasons.Finish]:
    """Each user's finish in each finished event, from its final standings."""
    done = [e for e in events if e.status == Event.Status.FINISHED]
    ranks: dict[int, tuple[int, int]] = {}  # registration → (event, rank)
    for event in done:
        snapshot = getattr(event, "standings_snapshot", None)
        for row in snapshot.rows if snapshot else []:
            ranks[row["player"]] = (event.pk, row_finish(row)[0])
    users: dict[int, set[int]] = {}
    for pk, user_id in Registration.objects.filter(
        pk__in=list(ranks), user__isnull=False
    ).values_list("pk", "user_id"):
        users.setdefault(pk, set()).add(user_id)
    for reg_id, user_id in TeamMember.objects.filter(registration_id__in=list(ranks)).values_list(
        "registration_id", "user_id"
    ):
        users.setdefault(reg_id, set()).add(user_id)
    return [
        seasons.Finish(event=event_id, player=user_id, rank=rank, entry=reg_id)
        for reg_id, (event_id, rank) in ranks.items()
        for user_id in sorted(users.get(reg_id, ()))
    ]


def season_rows(series: Series, events: list[Event] | None = None) -> list[TableRow]:
    """The series' table: the pure season table with users and the events in order."""
    events = series_events(series) if events is None else events
    finishes = finishes_of(events)
    rows = seasons.season_table(finishes, points_table(series.points))
    covered = seasons.places_covered(finishes)  # two players 3rd cover 3–4
    people = get_user_model().objects.in_bulk([row.player for row in rows])
    names = entry_names(events, list(people))
    return [
        TableRow(
            rank=row.rank,
            user=people.get(row.player),
            name=names.get(row.player) or getattr(people.get(row.player), "username", "?"),
            points=float(row.points),
            events=row.events,
            best=row.best,
            finishes=[
                (
                    row.finishes[e.pk][0],
                    float(row.finishes[e.pk][1]),
                    place_text(row.finishes[e.pk][0], covered[e.pk, row.finishes[e.pk][0]]),
                )
                if e.pk in row.finishes
                else None
                for e in events
            ],
        )
        for row in rows
    ]
