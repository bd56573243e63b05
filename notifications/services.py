"""Notices: who hears what, on which channel, in which language; sending them.

Thin layers call in here: the receivers of the tournament's announcements queue the
tasks (``notifications.tasks``), the tasks call one function each, the pages and the API
read and mark notices and save preferences. Game-neutral: a notice names events, rounds,
tables and players, never a game's own things.

Delivery:

* on the site: a notice row (the list at /notifications/), and a live notice pushed to
  the reader's own channel group (``user_group``) once the row is committed;
* by e-mail: ``mail`` is pending when the notice is made, and ``mail_notice`` sends it
  under the row's lock and marks it sent, so two tasks for one notice send one mail; a
  mail that failed stays pending for the sweep to queue again (``recovery``), up to
  ``MAX_MAIL_ATTEMPTS`` tries.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config import push
from notifications import texts
from notifications.models import Notice, Preferences
from tournaments.models import Event, Match, Registration, Round, TeamMember
from tournaments.services.decklists import is_limited

logger = logging.getLogger("gauntlet.notifications")

BROWSER = "browser"
EMAIL = "email"
CHANNELS = (BROWSER, EMAIL)
MAX_MAIL_ATTEMPTS = 5


class NoticeError(Exception):
    """A request about notices that cannot be done (a bad preference, an unknown notice)."""


# ---------------------------------------------------------------- preferences and language


def user_group(user_id: int) -> str:
    """The channel group of one user's open pages: only that user's sockets join it."""
    return f"notices-{user_id}"


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def known_language(code: str | None) -> str:
    """``code`` as one of the site's languages ("ru-RU" -> "ru"), or "" if none."""
    code = (code or "").strip().lower()
    for known in languages():
        if code == known or code.startswith(known + "-"):
            return known
    return ""


def preferences(user) -> Preferences:
    """The user's preferences (unsaved defaults if they never changed any)."""
    found = Preferences.objects.filter(user_id=user.pk).first()
    return found if found is not None else Preferences(user_id=user.pk)


def wants(prefs: Preferences | None, kind: str, channel: str) -> bool:
    return prefs is None or f"{kind}:{channel}" not in (prefs.muted or [])


def language_for(prefs: Preferences | None) -> str:
    """The language a user's notices are written in: chosen, else last used, else the site's."""
    if prefs is not None:
        chosen = known_language(prefs.language) or known_language(prefs.last_language)
        if chosen:
            return chosen
    return known_language(settings.LANGUAGE_CODE) or "en"


def save_preferences(user, muted: Iterable[str], language: str) -> Preferences:
    """Store which kinds the user does not want on which channel, and their language
    ("" = the one they last used the site in)."""
    allowed = {f"{kind}:{channel}" for kind in Notice.Kind.values for channel in CHANNELS}
    muted = sorted(set(muted))
    unknown = [item for item in muted if item not in allowed]
    if unknown:
        raise NoticeError(_("Unknown notice setting: %(name)s.") % {"name": unknown[0]})
    language = (language or "").strip()
    if language and language not in languages():
        raise NoticeError(_("Unknown language: %(code)s.") % {"code": language})
    prefs, _created = Preferences.objects.update_or_create(
        user_id=user.pk, defaults={"muted": muted, "language": language}
    )
    return prefs


def record_language(user_id: int, code: str | None) -> None:
    """Remember the language a user last used the site in (a write only when it changed)."""
    code = known_language(code)
    if not code or user_id is None:
        return
    updated = (
        Preferences.objects.filter(user_id=user_id)
        .exclude(last_language=code)
        .update(last_language=code, updated_at=timezone.now())
    )
    if not updated and not Preferences.objects.filter(user_id=user_id).exists():
        Preferences.objects.get_or_create(user_id=user_id, defaults={"last_language": code})


# ---------------------------------------------------------------- reading and marking


def visible(user):
    """The notices shown to ``user`` on the site, newest first."""
    return Notice.objects.filter(user_id=user.pk, in_browser=True)


def unread_count(user) -> int:
    return visible(user).filter(read_at__isnull=True).count()


def mark_read(user, notice_id) -> Notice:
    """Mark one of the user's own notices read; another's, or none, is ``Notice.DoesNotExist``."""
    try:
        pk = int(notice_id)
    except (TypeError, ValueError):
        raise Notice.DoesNotExist from None
    if not 0 < pk < 2**63:
        raise Notice.DoesNotExist
    notice = visible(user).get(pk=pk)
    if notice.read_at is None:
        Notice.objects.filter(pk=pk, read_at__isnull=True).update(read_at=timezone.now())
        notice.refresh_from_db(fields=["read_at"])
    return notice


def mark_all_read(user) -> int:
    return visible(user).filter(read_at__isnull=True).update(read_at=timezone.now())


def as_dict(notice: Notice) -> dict:
    """What a page or an API client is told of a notice, in the active language."""
    return {
        "id": notice.pk,
        "kind": notice.kind,
        "title": texts.title(notice),
        "body": texts.body(notice),
        "url": notice.url,
        "created_at": notice.created_at.isoformat() if notice.created_at else None,
        "read": notice.read_at is not None,
    }


# ---------------------------------------------------------------- making notices


def _users_of(event: Event, registrations: Iterable[Registration]) -> dict[int, list[int]]:
    """Registration id -> the user ids who hear about it: the player, or in a team event
    every member of the team; bots and players without an account hear nothing."""
    regs = [r for r in registrations if not r.is_bot]
    people: dict[int, list[int]] = {r.pk: [] for r in regs}
    if event.is_team_event:
        for reg_id, user_id in TeamMember.objects.filter(
            registration_id__in=list(people)
        ).values_list("registration_id", "user_id"):
            people[reg_id].append(user_id)
    for reg in regs:
        if reg.user_id is not None and reg.user_id not in people[reg.pk]:
            people[reg.pk].append(reg.user_id)
    return people


def notify(
    kind: str, key: str, event: Event | None, news: dict[int, tuple[dict, str]]
) -> list[Notice]:
    """Make the notice ``(kind, key)`` for each user of ``news`` (user id -> data, url) who
    wants it on some channel and has none yet; after commit, push the new ones to the
    readers' open pages and queue their e-mails. Returns the new notices.

    Run twice (a retried task, two tasks at once), it makes each notice once: the unique
    constraint settles it, and a mail is sent once whatever queued it (``mail_notice``).
    """
    if not news:
        return []
    users = list(news)
    prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=users)}
    emails = dict(
        get_user_model().objects.filter(pk__in=users, is_active=True).values_list("pk", "email")
    )
    existing = set(
        Notice.objects.filter(kind=kind, key=key, user_id__in=users).values_list(
            "user_id", flat=True
        )
    )
    rows = []
    for user_id, (data, url) in news.items():
        if user_id in existing or user_id not in emails:
            continue
        pref = prefs.get(user_id)
        browser = wants(pref, kind, BROWSER)
        mail = wants(pref, kind, EMAIL) and bool(emails[user_id])
        if not (browser or mail):
            continue
        rows.append(
            Notice(
                user_id=user_id,
                kind=kind,
                key=key,
                event=event,
                data=data,
                url=url,
                in_browser=browser,
                mail=Notice.Mail.PENDING if mail else Notice.Mail.NONE,
            )
        )
    if not rows:
        return []
    with transaction.atomic():
        Notice.objects.bulk_create(rows, ignore_conflicts=True)
        made = list(
            Notice.objects.filter(
                kind=kind, key=key, user_id__in=[row.user_id for row in rows]
            ).order_by("pk")
        )
        transaction.on_commit(lambda: _deliver(made, prefs))
    return made


def _deliver(notices: list[Notice], prefs: dict[int, Preferences]) -> None:
    messages = []
    for notice in notices:
        if notice.in_browser:
            with translation.override(language_for(prefs.get(notice.user_id))):
                messages.append(
                    (user_group(notice.user_id), {"type": "notice.new", "notice": as_dict(notice)})
                )
    push.send(messages)
    mails = [n.pk for n in notices if n.mail == Notice.Mail.PENDING]
    if mails:
        from notifications.tasks import send_notice_email

        for pk in mails:
            try:
                send_notice_email.delay(pk)
            except Exception:  # the broker is down: the sweep queues it again
                logger.warning("e-mail of notice %s not queued", pk, exc_info=True)


def _event_data(event: Event) -> dict:
    return {"event": event.name, "slug": event.slug}


def _round_data(rnd: Round) -> dict:
    return {**_event_data(rnd.event), "round": rnd.number, "round_title": rnd.title}


def round_published(round_id: int) -> list[Notice]:
    """Tell every player of a published round their table and opponents, or their bye."""
    rnd = Round.objects.select_related("event").filter(pk=round_id).first()
    if rnd is None or rnd.status == Round.Status.DRAFT:
        return []
    event = rnd.event
    matches = list(rnd.matches.prefetch_related("seats__registration").order_by("table"))
    regs = [seat.registration for match in matches for seat in match.seats.all()]
    people = _users_of(event, regs)
    url = reverse("tournaments:my_match", kwargs={"slug": event.slug})
    news: dict[int, tuple[dict, str]] = {}
    for match in matches:
        seats = list(match.seats.all())
        for seat in seats:
            others = [s.registration.display_name for s in seats if s.pk != seat.pk]
            data = {
                **_round_data(rnd),
                "table": match.table,
                "opponents": others,
                "bye": match.is_bye or not others,
            }
            for user_id in people.get(seat.registration_id, []):
                news[user_id] = (data, url)
    return notify(Notice.Kind.ROUND_PUBLISHED, f"round:{rnd.pk}", event, news)


def result_reported(match_id: int) -> list[Notice]:
    """A match waits for confirmation: tell the players who have not reported that their
    opponent has, so they confirm (or report what happened)."""
    match = (
        Match.objects.select_related("round", "round__event")
        .prefetch_related("seats__registration", "reports")
        .filter(pk=match_id)
        .first()
    )
    if match is None or match.status != Match.Status.REPORTED:
        return []
    reports = sorted(match.reports.all(), key=lambda r: r.pk)
    if not reports:
        return []
    reported = {r.registration_id for r in reports}
    seats = list(match.seats.all())
    reporter = next(
        s.registration for s in seats if s.registration_id == reports[-1].registration_id
    )
    waiting = [s.registration for s in seats if s.registration_id not in reported]
    event = match.round.event
    people = _users_of(event, waiting)
    # The reports of a match waiting for confirmation agree: the result they say is the
    # notice's object. The same result again (reported again, or agreed by another player
    # of a pod) is the same notice; a changed report, a new one to confirm.
    said = f"{reports[-1].games}/{reports[-1].placements}"
    key = f"match:{match.pk}:{_digest(said)}"
    data = {**_round_data(match.round), "table": match.table, "reporter": reporter.display_name}
    url = reverse("tournaments:my_match", kwargs={"slug": event.slug})
    news = {user_id: (data, url) for users in people.values() for user_id in users}
    return notify(Notice.Kind.RESULT_TO_CONFIRM, key, event, news)


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:16]


def decklist_lead() -> timedelta:
    return timedelta(minutes=getattr(settings, "NOTIFY_DECKLIST_LEAD_MINUTES", 60))


def decklist_due(event: Event) -> datetime | None:
    """When an event's lists are due: its decklist deadline, or, with none set, its start
    (starting the event locks the lists)."""
    return event.decklist_deadline or event.starts_at


def events_with_lists_due(now: datetime):
    soon = now + decklist_lead()
    return Event.objects.filter(status=Event.Status.REGISTRATION, decklists_locked=False).filter(
        Q(decklist_deadline__gt=now, decklist_deadline__lte=soon)
        | Q(decklist_deadline__isnull=True, starts_at__gt=now, starts_at__lte=soon)
    )


def decklist_reminders(now: datetime | None = None) -> list[Notice]:
    """Remind registered players without a list that the lists of their event are due
    within ``NOTIFY_DECKLIST_LEAD_MINUTES``. Once per player and deadline (a moved
    deadline is a new reminder). Events whose game takes no lists, and limited events
    (decks built at the event), are left out."""
    now = now or timezone.now()
    made: list[Notice] = []
    for event in events_with_lists_due(now).order_by("pk")[:200]:
        try:
            if not event.game_info.needs_decklists or is_limited(event):
                continue
        except Exception:  # a game no longer registered: nothing to remind of
            continue
        due = decklist_due(event)
        players = event.registrations.exclude(status=Registration.Status.DROPPED).filter(
            is_bot=False
        )
        if event.is_team_event:
            missing = list(
                TeamMember.objects.filter(registration__in=players, deck="").values_list(
                    "user_id", flat=True
                )
            )
        else:
            missing = list(
                players.filter(user__isnull=False, decklist__isnull=True).values_list(
                    "user_id", flat=True
                )
            )
        data = {**_event_data(event), "due": due.isoformat()}
        url = reverse("tournaments:decklist", kwargs={"slug": event.slug})
        key = f"event:{event.pk}:due:{int(due.timestamp())}"
        made += notify(Notice.Kind.DECKLIST_DUE, key, event, dict.fromkeys(missing, (data, url)))
    return made


# ---------------------------------------------------------------- e-mail


def site_url() -> str:
    return getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/")


def render_mail(notice: Notice, language: str) -> tuple[str, str, str]:
    """(subject, text, html) of a notice's e-mail, in ``language``."""
    with translation.override(language):
        context = {
            "title": texts.title(notice),
            "body": texts.body(notice),
            "url": site_url() + notice.url if notice.url else site_url(),
            "settings_url": site_url() + reverse("notifications:settings"),
            "kind": texts.kind_label(notice.kind),
            "language": language,
        }
        subject = render_to_string("notifications/email/subject.txt", context)
        text = render_to_string("notifications/email/notice.txt", context)
        html = render_to_string("notifications/email/notice.html", context)
    return " ".join(subject.split()), text, html


def mail_notice(notice_id: int) -> bool:
    """Send a notice's e-mail if it is still pending; True if this call sent it.

    The row stays locked from the check to the mark, so a second task for the same notice
    waits, then finds it sent. A failed send counts an attempt and leaves the notice
    pending (the sweep queues it again) until ``MAX_MAIL_ATTEMPTS``, then marks it failed.
    """
    with transaction.atomic():
        notice = (
            Notice.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk=notice_id)
            .first()
        )
        if notice is None or notice.mail != Notice.Mail.PENDING:
            return False
        prefs = Preferences.objects.filter(user_id=notice.user_id).first()
        address = notice.user.email
        if not address or not notice.user.is_active or not wants(prefs, notice.kind, EMAIL):
            notice.mail = Notice.Mail.NONE  # opted out (or lost the address) since
            notice.save(update_fields=["mail"])
            return False
        subject, text, html = render_mail(notice, language_for(prefs))
        message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [address])
        message.attach_alternative(html, "text/html")
        notice.mail_attempts += 1
        try:
            message.send()
        except Exception:
            logger.warning("e-mail of notice %s failed", notice.pk, exc_info=True)
            if notice.mail_attempts >= MAX_MAIL_ATTEMPTS:
                notice.mail = Notice.Mail.FAILED
            notice.save(update_fields=["mail", "mail_attempts"])
            return False
        notice.mail = Notice.Mail.SENT
        notice.mailed_at = timezone.now()
        notice.save(update_fields=["mail", "mail_attempts", "mailed_at"])
    return True


def lost_mails(cutoff: datetime, limit: int) -> list[int]:
    """Pending e-mails of notices made before ``cutoff``: their task was lost or failed."""
    return list(
        Notice.objects.filter(mail=Notice.Mail.PENDING, created_at__lt=cutoff)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
