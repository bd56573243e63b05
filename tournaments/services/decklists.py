"""Decklists: a list checked against the game's rules, submitted by its player (or an
official), locked by the organiser, at the deadline (a task) or at the start; the decks
built at limited events; and whether a limited event's decks are ready.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from engine.core import registry
from tournaments import announce
from tournaments.models import AuditEntry, Decklist, Event, Registration, TeamMember
from tournaments.services.common import audit, lock_event, said
from tournaments.services.errors import TournamentError
from tournaments.services.permissions import User, check_official, check_organiser

logger = logging.getLogger("gauntlet.tournaments")


def schedule_decklist_deadline(event: Event) -> None:
    """After commit, queue the task that locks legal lists at the deadline.

    The task carries the deadline it was queued for: one left from a deadline changed
    since does nothing. A deadline days ahead is reached in steps, each short of the
    broker's visibility timeout (``config.celery.queue_at``).
    """
    if event.decklist_deadline is None:
        return
    from config.celery import queue_at
    from tournaments.tasks import lock_decklists_at_deadline

    deadline = event.decklist_deadline
    queue_at(lock_decklists_at_deadline, (event.pk, deadline.timestamp()), deadline)


def check_decklist(event: Event, text: str, language: str = "en") -> tuple[list[dict], bool | None]:
    """What the game's deck checker says about a list for this event: (problems, is_legal).

    ``is_legal`` is None when the list cannot be fully checked: the game has no checker
    or no card data yet, or the format is limited (a Draft deck is checked against the
    player's pool, which is not known here; its other rules are checked).
    """
    try:
        info = registry.get(event.game_system)
        if not info.decks:
            return [], None
        decklists = info.load("decks")
        fmt = info.format(event.format)
    except Exception:  # no checker or card data for this game yet: store the list unchecked
        logger.warning("decklists of %s are not checked", event.game_system, exc_info=True)
        return [], None
    as_of = timezone.localdate(event.starts_at) if event.starts_at else timezone.localdate()
    try:
        report = decklists.validate(text, fmt.deck_rules, as_of=as_of, language=language)
    except Exception:  # no card data for this game yet: store the list unchecked
        logger.warning("decklists of %s are not checked", event.game_system, exc_info=True)
        return [], None
    problems = [problem.as_dict() for problem in report.problems]
    if fmt.limited:
        return problems, (False if problems else None)
    return problems, not problems


def _language() -> str:
    return "ru" if (get_language() or "").startswith("ru") else "en"


def recheck_decklists(event: Event) -> None:
    for deck in Decklist.objects.select_for_update().filter(registration__event=event):
        problems, is_legal = check_decklist(event, deck.text, _language())
        if (problems, is_legal) != (deck.problems, deck.is_legal):
            deck.problems, deck.is_legal = problems, is_legal
            deck.save(update_fields=["problems", "is_legal"])
    for member in TeamMember.objects.select_for_update().filter(event=event).exclude(deck=""):
        problems, is_legal = check_decklist(event, member.deck, _language())
        if (problems, is_legal) != (member.deck_problems, member.deck_is_legal):
            member.deck_problems, member.deck_is_legal = problems, is_legal
            member.save(update_fields=["deck_problems", "deck_is_legal"])


def no_decklists_message(event: Event) -> str | None:
    """Why this event takes no decklists (its game has none, per the registry), or None."""
    info = event.game_info
    if info.needs_decklists:
        return None
    return _("%(game)s is played without decklists, so there is no list to submit.") % {
        "game": info.name
    }


def submit_decklist(user: User, registration: Registration, text: str) -> Decklist:
    """Save a player's list with what the deck checker found; an illegal list is kept too.

    The player may change it until the deadline or the lock; officials at any time.
    """
    event = registration.event
    own = registration.user_id is not None and registration.user_id == getattr(user, "pk", None)
    if not own:
        check_official(user, event)
    if event.is_team_event:
        raise TournamentError(
            _("In a team event each member submits their own deck, not one for the team.")
        )
    text = _checked_text(event, text)
    with transaction.atomic():
        event = lock_event(event)
        past_deadline = (
            event.decklist_deadline is not None and timezone.now() > event.decklist_deadline
        )
        if own and (event.decklists_locked or past_deadline):
            raise TournamentError(_("Decklists are locked for this event."))
        existing = Decklist.objects.select_for_update().filter(registration=registration).first()
        if existing is not None and existing.locked and own:
            raise TournamentError(_("Your decklist is locked."))
        problems, is_legal = check_decklist(event, text, _language())
        defaults = {"text": text, "problems": problems, "is_legal": is_legal}
        if past_deadline and is_legal is not False:
            defaults["locked"] = (
                True  # an official's fix after the deadline locks like the task does
            )
        deck, _created = Decklist.objects.update_or_create(
            registration=registration, defaults=defaults
        )
    return deck


def _checked_text(event: Event, text: str) -> str:
    refusal = no_decklists_message(event)
    if refusal:
        raise TournamentError(refusal)
    text = (text or "").strip()
    if not text:
        raise TournamentError(_("The decklist is empty."))
    if len(text) > 20000:
        raise TournamentError(_("The decklist is too long."))
    return text


def submit_member_deck(user: User, member: TeamMember, text: str) -> TeamMember:
    """Save a team member's own deck (a team format: each member plays their own), with
    what the deck checker found under the format's deck rules; an illegal list is kept too.

    The member may change it until the deadline or the lock; officials at any time.
    """
    event = member.event
    own = member.user_id == getattr(user, "pk", None)
    if not own:
        check_official(user, event)
    text = _checked_text(event, text)
    with transaction.atomic():
        event = lock_event(event)
        past_deadline = (
            event.decklist_deadline is not None and timezone.now() > event.decklist_deadline
        )
        if own and (event.decklists_locked or past_deadline):
            raise TournamentError(_("Decklists are locked for this event."))
        member = TeamMember.objects.select_for_update().get(pk=member.pk)
        member.deck_problems, member.deck_is_legal = check_decklist(event, text, _language())
        member.deck = text
        member.save(update_fields=["deck", "deck_problems", "deck_is_legal"])
        if not own:
            audit(
                event,
                user,
                AuditEntry.Action.DECKLISTS,
                said(
                    gettext_noop("Deck of %(member)s in %(team)s entered"),
                    member=str(member.user),
                    team=str(member.registration),
                ),
                registration=member.registration_id,
            )
    return member


def record_limited_decklist(
    registration: Registration, text: str, problems: list[dict]
) -> Decklist | None:
    """Store the deck a player built at the event from their draft or sealed pool.

    Called by ``drafting.services``, which has checked the deck against the player's
    pool (something ``check_decklist`` cannot do), so its verdict is stored as it is.
    Never refuses while the event has not started, so the end of deck building can never
    leave a pod stuck: a deck recorded after the organiser locked the lists is stored
    locked. Once the event runs the lists are final; nothing is stored (None, logged).
    """
    with transaction.atomic():
        event = lock_event(registration.event)
        if event.status != Event.Status.REGISTRATION:
            logger.warning("deck of %s built after %s started: not recorded", registration, event)
            return None
        deck, _created = Decklist.objects.update_or_create(
            registration=registration,
            defaults={
                "text": text,
                "problems": problems,
                "is_legal": not problems,
                "locked": event.decklists_locked,
            },
        )
    return deck


def is_limited(event: Event) -> bool:
    """Decks built at the event from pods (Draft, Sealed): the registry's ``Format.limited``."""
    try:
        return registry.get(event.game_system).format(event.format).limited
    except registry.UnknownGameSystem:
        return False


def draft_not_over(event: Event) -> str | None:
    """Why a limited event (Draft, Sealed) cannot start yet: its pods are not made or are
    still drafting or building (the drafting app says, ``announce.limited_decks_problem``),
    or some player has no deck recorded (named)."""
    if not is_limited(event):
        return None
    problem = announce.limited_decks_problem(event)
    if problem:
        return problem
    missing = list(
        event.registrations.exclude(status=Registration.Status.DROPPED)
        .filter(decklist__isnull=True)
        .order_by("display_name")
        .values_list("display_name", flat=True)
    )
    if missing:
        return _("Not every player has a deck yet: %(names)s.") % {"names": ", ".join(missing)}
    return None


def lock_decklists(actor: User, event: Event) -> int:
    """Lock every submitted list (also done at the deadline and when the event starts)."""
    if actor is not None:
        check_organiser(actor, event)
    with transaction.atomic():
        event = lock_event(event)
        count = Decklist.objects.filter(registration__event=event, locked=False).update(locked=True)
        event.decklists_locked = True
        event.save(update_fields=["decklists_locked", "updated_at"])
        audit(
            event,
            actor,
            AuditEntry.Action.DECKLISTS,
            said(gettext_noop("Locked %(count)s decklists"), count=count),
        )
    return count


def lock_decklists_at_deadline(event: Event) -> int:
    """At the decklist deadline, lock every list that is not illegal (the deadline task).

    The deadline is read from the locked event row: if it was moved later or removed,
    nothing happens (the task of the new deadline will come). Harmless if late or run
    twice. Illegal lists stay unlocked so that an official can fix them with the player;
    players cannot change their list after the deadline anyway.
    """
    with transaction.atomic():
        event = lock_event(event)
        deadline = event.decklist_deadline
        if deadline is None or timezone.now() < deadline:
            return 0
        count = (
            Decklist.objects.filter(registration__event=event, locked=False)
            .exclude(is_legal=False)
            .update(locked=True)
        )
        if count:
            audit(
                event,
                None,
                AuditEntry.Action.DECKLISTS,
                said(gettext_noop("Locked %(count)s decklists at the deadline"), count=count),
            )
    return count
