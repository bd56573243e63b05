"""Every change of tournament state, one named function each.

Views, the API, the demo and tasks call these; none of them writes models
directly. Each function checks who may act (``check_*``), validates, then
changes rows inside one transaction, writes the audit log for manual changes
and announces the change to live pages after commit. Writes that race are
settled by the database: the event row is locked while a round is paired, the
match row while a result is recorded, and unique constraints back both.
"""

from __future__ import annotations

import logging
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournaments import announce, swiss
from tournaments import bracket as bracket_core
from tournaments import pods as pods_core
from tournaments import standings as standings_core
from tournaments.live import broadcast_on_commit
from tournaments.models import (
    AuditEntry,
    Decklist,
    Event,
    EventStaff,
    Game,
    Match,
    MatchSeat,
    Registration,
    ResultReport,
    Round,
    RoundsRecommendation,
    StandingsSnapshot,
)
from tournaments.results import ResultError, check_placements, evaluate, games_needed

logger = logging.getLogger("gauntlet.tournaments")

User = AbstractBaseUser | AnonymousUser


class TournamentError(Exception):
    """Something the person can fix; the message is shown to them as it is."""


class NotAllowed(TournamentError):
    """The person may not do this."""


# ---------------------------------------------------------------- permissions


def role_of(user: User | None, event: Event) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return EventStaff.Role.ORGANISER
    staff = getattr(event, "_staff_roles", None)
    if staff is None:
        staff = dict(EventStaff.objects.filter(event=event).values_list("user_id", "role"))
        event._staff_roles = staff
    return staff.get(user.pk)


def is_organiser(user: User | None, event: Event) -> bool:
    return role_of(user, event) == EventStaff.Role.ORGANISER


def is_official(user: User | None, event: Event) -> bool:
    """Organisers and judges: may enter results, call time and drop players."""
    return role_of(user, event) in (EventStaff.Role.ORGANISER, EventStaff.Role.JUDGE)


def check_organiser(user: User | None, event: Event) -> None:
    if not is_organiser(user, event):
        raise NotAllowed(_("Only an organiser of this event can do that."))


def check_official(user: User | None, event: Event) -> None:
    if not is_official(user, event):
        raise NotAllowed(_("Only an organiser or judge of this event can do that."))


def _audit(event: Event, actor: User | None, action: str, summary: str, **data) -> None:
    AuditEntry.objects.create(
        event=event,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        summary=summary[:300],
        data=data,
    )


def _lock_event(event: Event) -> Event:
    """Lock the event row for the rest of the transaction and return it fresh."""
    return Event.objects.select_for_update().get(pk=event.pk)


# ---------------------------------------------------------------- events


def recommended_rounds(player_count: int) -> tuple[int, int]:
    """Swiss rounds and top cut recommended for a player count (MTR Appendix E table)."""
    row = (
        RoundsRecommendation.objects.filter(min_players__lte=player_count)
        .order_by("-min_players")
        .first()
    )
    if row is None:
        return (max(1, (max(player_count, 2) - 1).bit_length()), 0)
    return row.swiss_rounds, row.top_cut


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "event"
    slug = base
    n = 2
    while Event.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


EDITABLE_FIELDS = (
    "name",
    "game_system",
    "format",
    "structure",
    "swiss_rounds",
    "top_cut",
    "best_of",
    "grand_final_reset",
    "round_minutes",
    "tiebreaks",
    "starts_at",
    "location",
    "description",
    "max_players",
    "decklist_deadline",
    "auto_advance",
    "play_online",
    "is_public",
    "players_per_game",
    "time_bank_minutes",
)

# Settings that shape the rounds and cannot change once the event has started.
STRUCTURAL_FIELDS = frozenset(
    {
        "game_system",
        "format",
        "structure",
        "best_of",
        "top_cut",
        "grand_final_reset",
        "players_per_game",
    }
)


def _check_settings(fields: dict, event: Event | None = None) -> None:
    """The settings given (over the event's, when it exists): the game and its format
    come from the registry (``engine.core.registry``), never from a list of our own."""
    from engine.core import registry

    if "game_system" in fields or "format" in fields:
        system = fields.get("game_system") or (event.game_system if event else None)
        try:
            info = registry.get(system)
        except registry.UnknownGameSystem as exc:
            raise TournamentError(str(exc)) from None
        fmt = fields.get("format") or (event.format if event else None)
        try:
            info.format(fmt)
        except registry.UnknownGameSystem as exc:
            raise TournamentError(str(exc)) from None
    if "tiebreaks" in fields and fields["tiebreaks"] not in standings_core.RULESETS:
        raise TournamentError(_("Unknown tiebreak ruleset %(key)r.") % {"key": fields["tiebreaks"]})
    if fields.get("best_of") not in (None, 1, 3, 5):
        raise TournamentError(_("Matches are best of 1, 3 or 5."))
    if fields.get("top_cut") not in (None, 0, 2, 4, 8, 16):
        raise TournamentError(_("The top cut is 2, 4, 8 or 16 players, or none."))
    ppg = fields.get("players_per_game")
    if "players_per_game" in fields and (isinstance(ppg, bool) or not isinstance(ppg, int)):
        raise TournamentError(_("Players per game must be a whole number."))


def _check_pods(values: dict) -> None:
    """Players per game against the game and the event's structure (all settings merged).

    More than two players per game means pods: Swiss rounds only and one game per pod.
    The top cut of a pod event is a single final pod of the top 2 to ``players_per_game``
    players (a bracket of pods is not offered).
    """
    from engine.core import registry

    ppg = values["players_per_game"]
    try:
        info = registry.get(values["game_system"])
    except registry.UnknownGameSystem as exc:
        raise TournamentError(str(exc)) from None
    if not max(2, info.min_players) <= ppg <= info.max_players:
        if info.min_players == info.max_players:
            raise TournamentError(
                _("%(game)s is played by %(n)d players: players per game must be %(n)d.")
                % {"game": info.name, "n": info.max_players}
            )
        raise TournamentError(
            _(
                "%(game)s is played by %(min)d to %(max)d players: players per game must be in that range."
            )
            % {"game": info.name, "min": max(2, info.min_players), "max": info.max_players}
        )
    if ppg <= 2:
        return
    if values["structure"] != Event.Structure.SWISS:
        raise TournamentError(
            _(
                "Games of %(n)d players are paired in pods by Swiss rounds only: choose the Swiss structure."
            )
            % {"n": ppg}
        )
    if values["top_cut"] > ppg:
        raise TournamentError(
            _(
                "With pods the top cut is one final pod: at most %(n)d players. Choose a smaller "
                "top cut or none."
            )
            % {"n": ppg}
        )
    if values["best_of"] != 1:
        raise TournamentError(
            _("A pod plays a single game: choose best of 1 for games of more than two players.")
        )


def _merged_settings(event: Event | None, fields: dict) -> dict:
    keys = ("players_per_game", "game_system", "structure", "top_cut", "best_of")
    if event is None:
        defaults = {k: Event._meta.get_field(k).get_default() for k in keys}
    else:
        defaults = {k: getattr(event, k) for k in keys}
    return {k: fields[k] if fields.get(k) is not None else defaults[k] for k in keys}


def create_event(user: User, **fields) -> Event:
    if not user.is_authenticated:
        raise NotAllowed(_("Log in to create an event."))
    unknown = set(fields) - set(EDITABLE_FIELDS) - {"slug"}
    if unknown:
        raise TournamentError(_("Unknown event fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    if not (fields.get("name") or "").strip():
        raise TournamentError(_("An event needs a name."))
    from engine.core import registry

    if not fields.get("game_system"):
        fields["game_system"] = registry.default_system().key
    if not fields.get("format"):
        try:
            fields["format"] = registry.get(fields["game_system"]).formats[0].key
        except registry.UnknownGameSystem as exc:
            raise TournamentError(str(exc)) from None
        except IndexError:
            raise TournamentError(_("This game has no formats.")) from None
    _check_settings(fields)
    _check_pods(_merged_settings(None, fields))
    with transaction.atomic():
        slug = fields.pop("slug", None) or _unique_slug(fields["name"])
        event = Event.objects.create(created_by=user, slug=slug, **fields)
        EventStaff.objects.create(event=event, user=user, role=EventStaff.Role.ORGANISER)
        _audit(event, user, AuditEntry.Action.CREATE, f"Created {event.name}")
        _schedule_decklist_deadline(event)
    return event


def update_event(user: User, event: Event, **fields) -> Event:
    check_organiser(user, event)
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown event fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    _check_settings(fields, event)
    with transaction.atomic():
        event = _lock_event(event)
        if event.status != Event.Status.REGISTRATION:
            changed = {k for k in STRUCTURAL_FIELDS & set(fields) if getattr(event, k) != fields[k]}
            if changed:
                raise TournamentError(
                    _("These settings cannot change once the event has started: %(f)s")
                    % {"f": ", ".join(sorted(changed))}
                )
        _check_pods(_merged_settings(event, fields))
        before = {k: str(getattr(event, k)) for k in fields}
        deadline_before = event.decklist_deadline
        for key, value in fields.items():
            setattr(event, key, value)
        event.save()
        after = {k: str(getattr(event, k)) for k in fields}
        diff = {k: [before[k], after[k]] for k in fields if before[k] != after[k]}
        if diff:
            _audit(
                event,
                user,
                AuditEntry.Action.EDIT,
                "Changed " + ", ".join(sorted(diff)),
                changes=diff,
            )
        if event.decklist_deadline != deadline_before:
            _schedule_decklist_deadline(event)
        if {"game_system", "format", "starts_at"} & set(diff):
            _recheck_decklists(event)  # the rules or the date of the lists changed
        broadcast_on_commit(event.pk, "event")
    return event


def add_staff(actor: User, event: Event, user, role: str) -> EventStaff:
    check_organiser(actor, event)
    if role not in EventStaff.Role.values:
        raise TournamentError(_("Unknown role %(role)r.") % {"role": role})
    with transaction.atomic():
        staff, _created = EventStaff.objects.update_or_create(
            event=event, user=user, defaults={"role": role}
        )
        _audit(event, actor, AuditEntry.Action.STAFF, f"{user.get_username()} is now {role}")
    event.__dict__.pop("_staff_roles", None)
    return staff


def remove_staff(actor: User, event: Event, user) -> None:
    check_organiser(actor, event)
    with transaction.atomic():
        organisers = EventStaff.objects.filter(event=event, role=EventStaff.Role.ORGANISER)
        if organisers.filter(user=user).exists() and organisers.count() == 1:
            raise TournamentError(_("An event must keep at least one organiser."))
        EventStaff.objects.filter(event=event, user=user).delete()
        _audit(event, actor, AuditEntry.Action.STAFF, f"{user.get_username()} removed from staff")
    event.__dict__.pop("_staff_roles", None)


# ---------------------------------------------------------------- players


def _swiss_rounds_played(event: Event) -> int:
    return event.rounds.filter(kind=Round.Kind.SWISS).exclude(status=Round.Status.DRAFT).count()


def register(
    event: Event,
    *,
    user: User | None = None,
    display_name: str = "",
    actor: User | None = None,
    is_bot: bool = False,
) -> Registration:
    """Sign a player up: themselves (``user``), or by an organiser (``actor``).

    During the Swiss an organiser may still add a player (late entry): rounds
    already published count as match losses for them.
    """
    by_organiser = actor is not None and actor != user
    if by_organiser:
        check_official(actor, event)
    elif user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to register."))
    name = (display_name or (user.get_full_name() or user.get_username() if user else "")).strip()
    if not name:
        raise TournamentError(_("A player needs a name."))
    with transaction.atomic():
        event = _lock_event(event)
        late = event.status == Event.Status.RUNNING
        if event.status == Event.Status.FINISHED:
            raise TournamentError(_("This event has finished."))
        if late and not by_organiser:
            raise TournamentError(_("Registration has closed; ask an organiser for a late entry."))
        if late and (event.phase != Event.Phase.SWISS or event.structure != Event.Structure.SWISS):
            raise TournamentError(_("Late entry is only possible during the Swiss rounds."))
        if is_limited(event) and event.pods.exists():
            raise TournamentError(
                _("Registration has closed: the players are already seated in pods.")
            )
        if (
            event.max_players
            and event.registrations.exclude(status=Registration.Status.DROPPED).count()
            >= event.max_players
        ):
            raise TournamentError(_("The event is full."))
        if user is not None and event.registrations.filter(user=user).exists():
            raise TournamentError(_("You are already registered for this event."))
        if event.registrations.filter(display_name=name).exists():
            raise TournamentError(
                _("A player named %(name)s is already registered.") % {"name": name}
            )
        first_round = _swiss_rounds_played(event) + 1 if late else 1
        try:
            with transaction.atomic():
                reg = Registration.objects.create(
                    event=event,
                    user=user if user is not None and user.is_authenticated else None,
                    display_name=name,
                    first_round=first_round,
                    is_bot=is_bot,
                    status=Registration.Status.CHECKED_IN
                    if late
                    else Registration.Status.REGISTERED,
                )
        except IntegrityError:
            raise TournamentError(_("This player is already registered.")) from None
        if late:
            _audit(
                event,
                actor,
                AuditEntry.Action.LATE_ENTRY,
                f"Late entry: {name} from round {first_round}",
                registration=reg.pk,
            )
            _refresh_standings(event)
        elif by_organiser:
            _audit(event, actor, AuditEntry.Action.REGISTER, f"Added {name}", registration=reg.pk)
        broadcast_on_commit(event.pk, "players")
    return reg


def check_in(actor: User, registration: Registration) -> Registration:
    event = registration.event
    if registration.user_id != getattr(actor, "pk", None):
        check_official(actor, event)
    with transaction.atomic():
        reg = (
            Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
        )
        if reg.event.status != Event.Status.REGISTRATION:
            raise TournamentError(_("Check-in is over: the event has started."))
        if reg.status == Registration.Status.DROPPED:
            raise TournamentError(_("This player has dropped."))
        reg.status = Registration.Status.CHECKED_IN
        reg.save(update_fields=["status"])
        if reg.user_id != getattr(actor, "pk", None):
            _audit(
                event,
                actor,
                AuditEntry.Action.CHECK_IN,
                f"Checked in {reg.display_name}",
                registration=reg.pk,
            )
        broadcast_on_commit(event.pk, "players")
    return reg


def drop(actor: User, registration: Registration, reason: str = "") -> Registration:
    """Drop a player. Their results keep counting for the opponents they played."""
    event = registration.event
    own = registration.user_id is not None and registration.user_id == getattr(actor, "pk", None)
    if not own:
        check_official(actor, event)
    with transaction.atomic():
        event = _lock_event(event)
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.status == Registration.Status.DROPPED:
            raise TournamentError(_("%(name)s has already dropped.") % {"name": reg.display_name})
        if event.status == Event.Status.FINISHED:
            raise TournamentError(_("This event has finished."))
        # A bot drafts and builds for their seats (drafting, once this commits).
        announce.registration_leaving.send(sender=None, registration=reg)
        if event.status == Event.Status.REGISTRATION and own:
            reg.delete()  # leaving before the start leaves no trace to keep
            broadcast_on_commit(event.pk, "players")
            return registration
        reg.status = Registration.Status.DROPPED
        reg.drop_reason = reason.strip()[:200]
        reg.dropped_after_round = _swiss_rounds_played(event) + _playoff_rounds(event)
        reg.save(update_fields=["status", "drop_reason", "dropped_after_round"])
        _audit(
            event,
            actor,
            AuditEntry.Action.DROP,
            f"Dropped {reg.display_name}" + (f": {reg.drop_reason}" if reg.drop_reason else ""),
            registration=reg.pk,
            by_player=own,
        )
        _refresh_standings(event)
        broadcast_on_commit(event.pk, "standings")
    return reg


def _playoff_rounds(event: Event) -> int:
    return event.rounds.exclude(kind=Round.Kind.SWISS).exclude(status=Round.Status.DRAFT).count()


def readd(actor: User, registration: Registration) -> Registration:
    event = registration.event
    check_official(actor, event)
    with transaction.atomic():
        event = _lock_event(event)
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.status != Registration.Status.DROPPED:
            raise TournamentError(_("%(name)s has not dropped.") % {"name": reg.display_name})
        if event.phase != Event.Phase.SWISS and event.status == Event.Status.RUNNING:
            raise TournamentError(_("Players can only be re-added during the Swiss rounds."))
        reg.status = (
            Registration.Status.CHECKED_IN
            if event.status == Event.Status.RUNNING
            else Registration.Status.REGISTERED
        )
        reg.dropped_after_round = None
        reg.save(update_fields=["status", "dropped_after_round"])
        _audit(
            event,
            actor,
            AuditEntry.Action.READD,
            f"Re-added {reg.display_name}",
            registration=reg.pk,
        )
        _refresh_standings(event)
        broadcast_on_commit(event.pk, "standings")
    return reg


def _schedule_decklist_deadline(event: Event) -> None:
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
    from engine.core import registry

    try:
        info = registry.get(event.game_system)
        if not info.decks:
            return [], None
        checker = info.load("decks")
        fmt = info.format(event.format)
        from engine.voskhozhdenie import loader

        db = loader.load_system(event.game_system)
    except Exception:  # no checker or card data for this game yet: store the list unchecked
        logger.warning("decklists of %s are not checked", event.game_system, exc_info=True)
        return [], None
    as_of = timezone.localdate(event.starts_at) if event.starts_at else timezone.localdate()
    report = checker.validate(text, event.format, db, as_of=as_of, language=language)
    problems = [problem.as_dict() for problem in report.problems]
    if fmt.limited:
        return problems, (False if problems else None)
    return problems, not problems


def _language() -> str:
    from django.utils.translation import get_language

    return "ru" if (get_language() or "").startswith("ru") else "en"


def _recheck_decklists(event: Event) -> None:
    for deck in Decklist.objects.select_for_update().filter(registration__event=event):
        problems, is_legal = check_decklist(event, deck.text, _language())
        if (problems, is_legal) != (deck.problems, deck.is_legal):
            deck.problems, deck.is_legal = problems, is_legal
            deck.save(update_fields=["problems", "is_legal"])


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
    refusal = no_decklists_message(event)
    if refusal:
        raise TournamentError(refusal)
    text = (text or "").strip()
    if not text:
        raise TournamentError(_("The decklist is empty."))
    if len(text) > 20000:
        raise TournamentError(_("The decklist is too long."))
    with transaction.atomic():
        event = _lock_event(event)
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
        event = _lock_event(registration.event)
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
    from engine.core import registry

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
        event = _lock_event(event)
        count = Decklist.objects.filter(registration__event=event, locked=False).update(locked=True)
        event.decklists_locked = True
        event.save(update_fields=["decklists_locked", "updated_at"])
        _audit(event, actor, AuditEntry.Action.DECKLISTS, f"Locked {count} decklists")
    return count


def lock_decklists_at_deadline(event: Event) -> int:
    """At the decklist deadline, lock every list that is not illegal (the deadline task).

    The deadline is read from the locked event row: if it was moved later or removed,
    nothing happens (the task of the new deadline will come). Harmless if late or run
    twice. Illegal lists stay unlocked so that an official can fix them with the player;
    players cannot change their list after the deadline anyway.
    """
    with transaction.atomic():
        event = _lock_event(event)
        deadline = event.decklist_deadline
        if deadline is None or timezone.now() < deadline:
            return 0
        count = (
            Decklist.objects.filter(registration__event=event, locked=False)
            .exclude(is_legal=False)
            .update(locked=True)
        )
        if count:
            _audit(
                event,
                None,
                AuditEntry.Action.DECKLISTS,
                f"Locked {count} decklists at the deadline",
            )
    return count


# ---------------------------------------------------------------- starting


def start_event(actor: User, event: Event) -> Event:
    """Close registration. If anyone checked in, those who did not are dropped."""
    check_organiser(actor, event)
    with transaction.atomic():
        event = _lock_event(event)
        if event.status != Event.Status.REGISTRATION:
            raise TournamentError(_("The event has already started."))
        not_over = draft_not_over(event)
        if not_over:
            raise TournamentError(not_over)
        regs = list(
            event.registrations.select_for_update().exclude(status=Registration.Status.DROPPED)
        )
        if any(r.status == Registration.Status.CHECKED_IN for r in regs):
            absent = [r for r in regs if r.status != Registration.Status.CHECKED_IN]
            for reg in absent:
                reg.status = Registration.Status.DROPPED
                reg.drop_reason = "did not check in"
                reg.dropped_after_round = 0
                reg.save(update_fields=["status", "drop_reason", "dropped_after_round"])
            regs = [r for r in regs if r.status == Registration.Status.CHECKED_IN]
        if len(regs) < 2:
            raise TournamentError(_("An event needs at least two players to start."))
        if event.structure == Event.Structure.SWISS and not event.swiss_rounds:
            event.swiss_rounds = recommended_rounds(len(regs))[0]
        if event.top_cut and event.top_cut > len(regs):
            raise TournamentError(
                _("A top %(cut)d needs at least %(cut)d players.") % {"cut": event.top_cut}
            )
        event.status = Event.Status.RUNNING
        event.phase = (
            Event.Phase.SWISS
            if event.structure in (Event.Structure.SWISS, Event.Structure.ROUND_ROBIN)
            else Event.Phase.PLAYOFF
        )
        event.save()
        Registration.objects.filter(pk__in=[r.pk for r in regs]).update(
            status=Registration.Status.CHECKED_IN
        )
        Decklist.objects.filter(registration__event=event).update(locked=True)
        event.decklists_locked = True
        event.save(update_fields=["decklists_locked"])
        _audit(event, actor, AuditEntry.Action.EDIT, f"Started with {len(regs)} players")
        _refresh_standings(event)
        broadcast_on_commit(event.pk, "event")
    return event


# ---------------------------------------------------------------- pairing


def _active_player_ids(event: Event, round_number: int) -> list[int]:
    return list(
        event.registrations.filter(first_round__lte=round_number)
        .exclude(status=Registration.Status.DROPPED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _pair_swiss(event: Event, number: int) -> tuple[list[tuple[int, ...]], list[str]]:
    players = _active_player_ids(event, number)
    if len(players) < 2:
        raise TournamentError(_("Fewer than two active players: nothing to pair."))
    history = _match_history(event)
    if event.uses_pods:
        return _pair_pods(event, number, players, history)
    if number == 1 or (not any(history["opponents"].values()) and not history["byes"]):
        result = swiss.pair_first_round(players, seed=event.seed)
    else:
        rows = {row.player: row for row in _compute_rows(event)}
        swiss_players = [
            swiss.SwissPlayer(
                id=pid,
                points=rows[pid].points if pid in rows else 0,
                rank=rows[pid].rank if pid in rows else len(rows) + 1,
                opponents=frozenset(history["opponents"].get(pid, ())),
                had_bye=pid in history["byes"],
            )
            for pid in players
        ]
        result = swiss.pair_round(swiss_players, round_number=number, seed=event.seed + number)
    tables: list[tuple[int, ...]] = [tuple(pair) for pair in result.pairs]
    if result.bye is not None:
        tables.append((result.bye,))
    return tables, [""] * len(tables)


def _pair_pods(
    event: Event, number: int, players: list[int], history: dict
) -> tuple[list[tuple[int, ...]], list[str]]:
    """A Swiss round of pods of ``players_per_game`` (some one smaller), by placement points."""
    rows = {row.player: row for row in _compute_rows(event)} if number > 1 else {}
    pod_players = [
        swiss.SwissPlayer(
            id=pid,
            points=rows[pid].points if pid in rows else 0,
            rank=rows[pid].rank if pid in rows else len(rows) + 1,
            opponents=frozenset(history["opponents"].get(pid, ())),
        )
        for pid in players
    ]
    try:
        result = pods_core.pair_pods(
            pod_players,
            pod_size=event.players_per_game,
            min_size=event.players_per_game - 1,
            seed=event.seed + number,
        )
    except pods_core.PairingError as exc:
        raise TournamentError(str(exc)) from None
    tables = [tuple(pod) for pod in result.pods]
    return tables, [""] * len(tables)


def _bracket_tables(event: Event) -> tuple[list[tuple[int, ...]], list[str], str]:
    data = event.bracket
    brk = bracket_core.Bracket.from_json(data["bracket"])
    state = bracket_core.resolve(brk, data["seeds"], _bracket_winners(event))
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


def _bracket_winners(event: Event) -> dict[str, int]:
    return dict(
        Match.objects.filter(round__event=event, status=Match.Status.FINAL)
        .exclude(bracket_code="")
        .exclude(winner=None)
        .values_list("bracket_code", "winner_id")
    )


def _start_bracket(event: Event, seeds: Sequence[int]) -> None:
    if event.structure == Event.Structure.DOUBLE_ELIMINATION:
        brk = bracket_core.double_elimination(len(seeds), grand_final_reset=event.grand_final_reset)
    else:
        brk = bracket_core.single_elimination(len(seeds))
    event.bracket = {"bracket": brk.to_json(), "seeds": list(seeds)}
    event.phase = Event.Phase.PLAYOFF
    event.save(update_fields=["bracket", "phase", "updated_at"])


def pair_next_round(
    actor: User | None, event: Event, audit_action: str = AuditEntry.Action.PAIR
) -> Round:
    """Create the next round as a draft for review. Two concurrent calls make one round."""
    if actor is not None:
        check_organiser(actor, event)
    with transaction.atomic():
        event = _lock_event(event)
        if event.status != Event.Status.RUNNING:
            raise TournamentError(
                _("Start the event before pairing.")
                if event.status == Event.Status.REGISTRATION
                else _("This event has finished.")
            )
        open_round = event.rounds.exclude(status=Round.Status.COMPLETED).order_by("-number").first()
        if open_round is not None:
            if open_round.status == Round.Status.DRAFT:
                raise TournamentError(
                    _("%(round)s is paired but not published yet.") % {"round": open_round}
                )
            missing = open_round.matches.exclude(status=Match.Status.FINAL).count()
            raise TournamentError(
                _("%(round)s still has %(n)d result(s) missing.")
                % {"round": open_round, "n": missing}
            )
        number = event.rounds.count() + 1
        title = ""
        kind = Round.Kind.SWISS
        if event.structure == Event.Structure.ROUND_ROBIN:
            kind = Round.Kind.ROUND_ROBIN
            players = _active_player_ids(event, 1)
            schedule = bracket_core.round_robin(sorted(players, key=lambda p: _seed_key(event, p)))
            if number > len(schedule):
                raise TournamentError(_("Every round of the round robin has been played."))
            dropped = set(
                event.registrations.filter(status=Registration.Status.DROPPED).values_list(
                    "pk", flat=True
                )
            )
            tables = []
            for a, b in schedule[number - 1]:
                # Sitting out (the odd player, or a dropped opponent) is not a scored bye here.
                pair = tuple(p for p in (a, b) if p is not None and p not in dropped)
                if len(pair) == 2:
                    tables.append(pair)
            codes = [""] * len(tables)
        elif event.phase == Event.Phase.SWISS:
            if number > (event.swiss_rounds or 0):
                raise TournamentError(_("All Swiss rounds have been played; start the top cut."))
            tables, codes = _pair_swiss(event, number)
        elif event.uses_pods:
            kind = Round.Kind.ELIMINATION
            tables, codes, title = _final_pod_table(event)
        else:
            kind = Round.Kind.ELIMINATION
            if event.bracket is None:
                seeds = sorted(_active_player_ids(event, 1), key=lambda p: _seed_key(event, p))
                _start_bracket(event, seeds)
            tables, codes, title = _bracket_tables(event)
        rnd = Round.objects.create(event=event, number=number, kind=kind, title=title)
        _create_matches(event, rnd, tables, codes)
        verb = "Re-paired" if audit_action == AuditEntry.Action.REPAIR else "Paired"
        _audit(event, actor, audit_action, f"{verb} {rnd}", round=number)
    return rnd


def _final_pod_table(event: Event) -> tuple[list[tuple[int, ...]], list[str], str]:
    """The top cut of a pod event: one final pod of the best ``top_cut`` players still in."""
    if event.rounds.filter(kind=Round.Kind.ELIMINATION).exists():
        raise TournamentError(_("The final pod has been played: the event is over."))
    cut = [row.player for row in _compute_rows(event) if not row.dropped][: event.top_cut]
    if len(cut) < 2:
        raise TournamentError(_("Fewer than two active players: nothing to pair."))
    return [tuple(cut)], [""], "Final"


def _seed_key(event: Event, player_id: int) -> int:
    # A stable random order from the event's seed (brackets and round robins have no standings).
    return random.Random(f"{event.seed}:{player_id}").getrandbits(64)


def _create_matches(
    event: Event, rnd: Round, tables: Sequence[tuple[int, ...]], codes: Sequence[str]
) -> None:
    matches = []
    byes = []
    number = 1
    for players, code in zip(tables, codes, strict=True):
        is_bye = len(players) == 1 and rnd.kind == Round.Kind.SWISS
        if is_bye:
            byes.append((players, code))
            continue
        matches.append((number, players, code, False))
        number += 1
    for players, code in byes:
        matches.append((number, players, code, True))
        number += 1
    created = Match.objects.bulk_create(
        [
            Match(round=rnd, table=table, bracket_code=code, best_of=event.best_of, is_bye=is_bye)
            for table, _players, code, is_bye in matches
        ]
    )
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, round=rnd, registration_id=pid, seat=seat)
            for match, (_t, players, _c, _b) in zip(created, matches, strict=True)
            for seat, pid in enumerate(players)
        ]
    )


def repair_round(actor: User, rnd: Round) -> Round:
    """Throw away a draft round's pairings and pair it again (all or nothing)."""
    event = rnd.event
    check_organiser(actor, event)
    with transaction.atomic():
        _lock_event(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("Only a round that is not published yet can be re-paired."))
        rnd.delete()
        return pair_next_round(actor, event, audit_action=AuditEntry.Action.REPAIR)


def swap_players(actor: User, rnd: Round, first: Registration, second: Registration) -> None:
    """Exchange two players' seats in a draft round (manual pairing fix)."""
    event = rnd.event
    check_organiser(actor, event)
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("Pairings can only be changed before the round is published."))
        seats = {
            s.registration_id: s
            for s in MatchSeat.objects.select_for_update().filter(
                round=rnd, registration__in=[first, second]
            )
        }
        if len(seats) != 2 or first.pk == second.pk:
            raise TournamentError(_("Both players must be paired in this round."))
        a, b = seats[first.pk], seats[second.pk]
        if a.match_id == b.match_id:
            raise TournamentError(_("These two players are already playing each other."))
        if rnd.kind != Round.Kind.SWISS:
            raise TournamentError(_("Bracket matches follow the bracket and cannot be swapped."))
        # Move through a temporary registration-less state to keep the unique constraints happy.
        a_match, b_match, a_seat, b_seat = a.match_id, b.match_id, a.seat, b.seat
        MatchSeat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        MatchSeat.objects.create(match_id=b_match, round=rnd, registration=first, seat=b_seat)
        MatchSeat.objects.create(match_id=a_match, round=rnd, registration=second, seat=a_seat)
        Match.objects.filter(pk__in=[a_match, b_match]).update(is_bye=False)
        for match in Match.objects.filter(pk__in=[a_match, b_match]).prefetch_related("seats"):
            if match.seats.count() == 1:
                match.is_bye = True
                match.save(update_fields=["is_bye"])
        _audit(
            event,
            actor,
            AuditEntry.Action.SWAP,
            f"Swapped {first.display_name} and {second.display_name} in {rnd}",
            round=rnd.number,
        )


def publish_round(actor: User | None, rnd: Round) -> Round:
    event = rnd.event
    if actor is not None:
        check_organiser(actor, event)
    with transaction.atomic():
        _lock_event(event)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise TournamentError(_("%(round)s is already published.") % {"round": rnd})
        now = timezone.now()
        rnd.status = Round.Status.PUBLISHED
        rnd.published_at = now
        rnd.ends_at = now + timedelta(minutes=event.round_minutes)
        rnd.save(update_fields=["status", "published_at", "ends_at"])
        for match in rnd.matches.filter(is_bye=True):
            _finalise(match, [], Match.Source.BYE)
        _audit(event, actor, AuditEntry.Action.PUBLISH, f"Published {rnd}", round=rnd.number)
        broadcast_on_commit(event.pk, "pairings")
        if event.play_online:
            _start_online_games_on_commit(rnd)
        _maybe_complete_round(rnd)
    return rnd


def _start_online_games_on_commit(rnd: Round) -> None:
    """An online event: once the round is published, game 1 of every match is dealt (the
    play app, on ``announce.round_published``).

    Byes are final already; a match whose game cannot start stays open for reports
    and officials (``play.services.start_round_games`` logs why).
    """
    announce.on_commit(announce.round_published, round_id=rnd.pk)


# ---------------------------------------------------------------- results


def _seat_of(match: Match, user: User) -> MatchSeat | None:
    for seat in match.seats.all():
        if seat.registration.user_id is not None and seat.registration.user_id == getattr(
            user, "pk", None
        ):
            return seat
    return None


def _lock_match(match: Match) -> Match:
    return (
        Match.objects.select_for_update().select_related("round", "round__event").get(pk=match.pk)
    )


def _check_open(match: Match) -> None:
    if match.is_bye:
        raise TournamentError(_("A bye has no result to report."))
    if match.status == Match.Status.FINAL:
        raise TournamentError(_("This match already has a final result."))
    if match.round.status != Round.Status.PUBLISHED:
        raise TournamentError(_("This round is not being played."))


def _outcome(match: Match, games: list[int | None]):
    seats = match.seats.count()
    try:
        return evaluate(
            games, match.best_of, seats=seats, allow_draw=match.round.kind != Round.Kind.ELIMINATION
        )
    except ResultError as exc:
        raise TournamentError(str(exc)) from None


def _check_games_match(match: Match) -> None:
    if match.round.event.uses_pods:
        raise TournamentError(
            _("This is a pod of %(n)d players: report each player's placement, not game wins.")
            % {"n": match.seats.count()}
        )


def report_result(user: User, match: Match, games: list[int | None]) -> Match:
    """A player reports; the opponent's identical report confirms, a different one disputes."""
    with transaction.atomic():
        match = _lock_match(match)
        seat = _seat_of(match, user)
        if seat is None:
            raise NotAllowed(_("Only the players of this match can report its result."))
        _check_open(match)
        _check_games_match(match)
        _outcome(match, games)
        ResultReport.objects.update_or_create(
            match=match, registration=seat.registration, defaults={"games": list(games)}
        )
        _settle_reports(
            match,
            [r.games for r in match.reports.all()],
            lambda: _finalise(match, list(games), Match.Source.CONFIRMED),
        )
    return match


def _settle_reports(match: Match, reported: list, finalise: Callable[[], None]) -> None:
    """After a player's report: every seat reported the same, the match is final; two
    reports differ, it is disputed; else it waits for the other reports."""
    if len(reported) == match.seats.count() and all(r == reported[0] for r in reported):
        finalise()
        _maybe_complete_round(match.round)
    elif any(r != reported[0] for r in reported):
        match.status = Match.Status.DISPUTED
        match.version += 1
        match.save(update_fields=["status", "version"])
        _audit(
            match.round.event,
            None,
            AuditEntry.Action.DISPUTE,
            f"Players disagree on table {match.table} of {match.round}",
            match=match.pk,
        )
    else:
        match.status = Match.Status.REPORTED
        match.version += 1
        match.save(update_fields=["status", "version"])
    broadcast_on_commit(match.round.event_id, "pairings")


def confirm_result(user: User, match: Match) -> Match:
    """Agree with the opponent's report."""
    other = match.reports.exclude(registration__user=user).order_by("-created_at", "-pk").first()
    if other is None:
        raise TournamentError(_("There is no report from your opponent to confirm."))
    if other.placements is not None:
        return report_placements(user, match, other.placements)
    return report_result(user, match, other.games)


def enter_result(actor: User, match: Match, games: list[int | None]) -> Match:
    """An organiser or judge enters or overrides a result (audited)."""
    event = match.round.event
    check_official(actor, event)
    with transaction.atomic():
        match = _lock_match(match)
        if match.is_bye:
            raise TournamentError(_("A bye has no result to enter."))
        if match.round.status == Round.Status.DRAFT:
            raise TournamentError(_("Publish the round before entering results."))
        if match.round.status == Round.Status.COMPLETED and match.round.kind != Round.Kind.SWISS:
            raise TournamentError(
                _("Bracket results cannot change once the next match depends on them.")
            )
        _check_games_match(match)
        outcome = _outcome(match, games)
        before = _score_text(match)
        was_final = match.is_final
        _finalise(match, list(games), Match.Source.ORGANISER)
        _audit(
            event,
            actor,
            AuditEntry.Action.RESULT_OVERRIDE,
            f"Table {match.table} of {match.round}: {outcome.score}"
            + (f" (was {before})" if was_final else ""),
            match=match.pk,
            games=list(games),
            previous=before if was_final else None,
        )
        if match.round.status == Round.Status.COMPLETED:
            _refresh_standings(event)
            broadcast_on_commit(event.pk, "standings")
        else:
            _maybe_complete_round(match.round)
    return match


# ---------------------------------------------------------------- pod results (3-4 players)


def _pod_placements(match: Match, placements) -> tuple[int, ...]:
    """Check a pod result against the match (``TournamentError`` with the reason)."""
    if not match.round.event.uses_pods:
        raise TournamentError(
            _("This is a two-player match: report who won each game, not placements.")
        )
    try:
        return check_placements(placements, match.seats.count())
    except ResultError as exc:
        raise TournamentError(str(exc)) from None


def _pod_scores(match: Match, scores) -> list[int | None]:
    seats = match.seats.count()
    if scores is None:
        return [None] * seats
    if not isinstance(scores, list | tuple) or len(scores) != seats:
        raise TournamentError(_("Give one score per seat (%(n)d), or none at all.") % {"n": seats})
    for value in scores:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TournamentError(
                _("A score is a whole number (got %(value)r).") % {"value": value}
            )
    return list(scores)


def placement_text(placements: Sequence[int | None]) -> str:
    return "-".join("?" if p is None else str(p) for p in placements)


def report_placements(user: User, match: Match, placements: Sequence[int]) -> Match:
    """A player of a pod reports every seat's placement (seat order; 1 = first).

    The pod's result is final once every player has reported the same placements;
    different reports mark the match disputed for an official to settle.
    """
    with transaction.atomic():
        match = _lock_match(match)
        seat = _seat_of(match, user)
        if seat is None:
            raise NotAllowed(_("Only the players of this match can report its result."))
        _check_open(match)
        placements = list(_pod_placements(match, placements))
        ResultReport.objects.update_or_create(
            match=match,
            registration=seat.registration,
            defaults={"games": [], "placements": placements},
        )
        _settle_reports(
            match,
            [r.placements for r in match.reports.all()],
            lambda: _finalise_pod(match, placements, None, Match.Source.CONFIRMED),
        )
    return match


def enter_placements(
    actor: User, match: Match, placements: Sequence[int], scores: Sequence[int | None] | None = None
) -> Match:
    """An organiser or judge enters or overrides a pod's placements (audited)."""
    event = match.round.event
    check_official(actor, event)
    with transaction.atomic():
        match = _lock_match(match)
        if match.is_bye:
            raise TournamentError(_("A bye has no result to enter."))
        if match.round.status == Round.Status.DRAFT:
            raise TournamentError(_("Publish the round before entering results."))
        placements = list(_pod_placements(match, placements))
        score_list = _pod_scores(match, scores)
        was_final = match.is_final
        before = placement_text(match.seats.order_by("seat").values_list("placement", flat=True))
        _finalise_pod(match, placements, score_list, Match.Source.ORGANISER)
        _audit(
            event,
            actor,
            AuditEntry.Action.RESULT_OVERRIDE,
            f"Table {match.table} of {match.round}: placements {placement_text(placements)}"
            + (f" (was {before})" if was_final else ""),
            match=match.pk,
            placements=placements,
            previous=before if was_final else None,
        )
        if match.round.status == Round.Status.COMPLETED:
            _refresh_standings(event)
            broadcast_on_commit(event.pk, "standings")
        else:
            _maybe_complete_round(match.round)
    return match


def _finalise_pod(
    match: Match, placements: Sequence[int], scores: Sequence[int | None] | None, source: str
) -> None:
    """Store a pod's placements; the match winner is the sole first place (none on a shared first)."""
    seats = list(match.seats.order_by("seat"))
    scores = list(scores) if scores is not None else [None] * len(seats)
    firsts = [s for s, p in zip(seats, placements, strict=True) if p == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    for seat, place, score in zip(seats, placements, scores, strict=True):
        wins = 1 if seat is winner else 0
        if (seat.placement, seat.score, seat.game_wins) != (place, score, wins):
            seat.placement, seat.score, seat.game_wins = place, score, wins
            seat.save(update_fields=["placement", "score", "game_wins"])
    Game.objects.filter(match=match).delete()
    Game.objects.create(match=match, number=1, winner_seat=winner.seat if winner else None)
    match.game_draws = 0
    match.winner_id = winner.registration_id if winner else None
    match.status = Match.Status.FINAL
    match.result_source = source
    match.finished_at = timezone.now()
    match.version += 1
    match.save(
        update_fields=["game_draws", "winner", "status", "result_source", "finished_at", "version"]
    )
    _end_online_games_on_commit(match, source)


def _end_online_games_on_commit(match: Match, source: str) -> None:
    """A match of an online event settled without the engine (time, an official, agreeing
    reports): after commit its games still being played end (the play app, on
    ``announce.match_settled``; the sweep does it again if this is lost)."""
    if source in (Match.Source.ENGINE, Match.Source.BYE):
        return
    if not Event.objects.filter(pk=match.round.event_id, play_online=True).exists():
        return
    announce.on_commit(announce.match_settled, match_id=match.pk, source=source)


def _score_text(match: Match) -> str:
    wins = [s.game_wins for s in match.seats.all()]
    return "-".join(map(str, wins)) + (f"-{match.game_draws}" if match.game_draws else "")


def _finalise(match: Match, games: list[int | None], source: str) -> None:
    seats = list(match.seats.select_related("registration").all())
    if source == Match.Source.BYE:
        winner = seats[0].registration_id
        wins = [2]
        draws = 0
    else:
        outcome = evaluate(games, match.best_of, seats=len(seats), allow_draw=True)
        wins = list(outcome.wins)
        draws = outcome.draws
        winner = seats[outcome.winner].registration_id if outcome.winner is not None else None
        Game.objects.filter(match=match).delete()
        Game.objects.bulk_create(
            [Game(match=match, number=n, winner_seat=g) for n, g in enumerate(games, start=1)]
        )
    for seat, w in zip(seats, wins, strict=False):
        if seat.game_wins != w:
            seat.game_wins = w
            seat.save(update_fields=["game_wins"])
    match.game_draws = draws
    match.winner_id = winner
    match.status = Match.Status.FINAL
    match.result_source = source
    match.finished_at = timezone.now()
    match.version += 1
    match.save(
        update_fields=["game_draws", "winner", "status", "result_source", "finished_at", "version"]
    )
    _end_online_games_on_commit(match, source)


def _games_at_time(match: Match, online: bool) -> list[int | None]:
    """The games a match called at time is settled with (before the drawn game in progress).

    Online, the games the engine decided are facts: they stand whatever anyone reported.
    Otherwise (and online when no game was decided by the engine) the first report
    settles it; no report, no games.
    """
    if online:
        recorded = list(match.games.order_by("number").values_list("winner_seat", flat=True))
        if recorded:
            return recorded
    reports = list(match.reports.all())
    return list(reports[0].games) if reports else []


def call_time(actor: User, rnd: Round) -> int:
    """End a Swiss round's clock: every unfinished game becomes a draw.

    A match with one report is settled by it, plus a drawn game if it was still
    undecided; a match with no report is a draw (one drawn game). In an online event
    the games the engine decided stand, and the game in progress is a drawn game (the
    round's time is over; no extra turns are played online); its session then ends as a
    drawn game and its clocks stop (``play.services.end_match_sessions``). Disputed
    matches stay with the organiser. A pod (more than two players per game) is
    settled only by its players' reports when they agree; a pod without a report
    stays with the organiser, since a drawn pod would hand everyone a first place.
    Returns the number of matches settled.
    """
    event = rnd.event
    check_official(actor, event)
    if rnd.kind == Round.Kind.ELIMINATION:
        raise TournamentError(_("Elimination matches cannot end in a draw: play them out."))
    settled = 0
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.PUBLISHED:
            raise TournamentError(_("This round is not being played."))
        for match in (
            rnd.matches.select_for_update()
            .exclude(status__in=[Match.Status.FINAL, Match.Status.DISPUTED])
            .order_by("pk")
        ):
            reports = list(match.reports.all())
            if event.uses_pods:
                if reports and all(r.placements == reports[0].placements for r in reports):
                    _finalise_pod(match, reports[0].placements, None, Match.Source.TIME)
                    settled += 1
                continue
            games = _games_at_time(match, event.play_online)
            outcome = evaluate(games, match.best_of, seats=match.seats.count(), allow_draw=True)
            if max(outcome.wins, default=0) < games_needed(match.best_of):
                games.append(None)
            _finalise(match, games, Match.Source.TIME)
            settled += 1
        rnd.ends_at = timezone.now()
        rnd.save(update_fields=["ends_at"])
        _audit(
            event,
            actor,
            AuditEntry.Action.TIME,
            f"Time called in {rnd}: {settled} match(es) settled",
            round=rnd.number,
        )
        broadcast_on_commit(event.pk, "pairings")
        _maybe_complete_round(rnd)
    return settled


# ---------------------------------------------------------------- completing rounds


def _maybe_complete_round(rnd: Round) -> bool:
    """Complete the round once every match is final; then the event moves on."""
    if rnd.matches.exclude(status=Match.Status.FINAL).exists():
        _standings_changed(rnd.event)
        return False
    updated = Round.objects.filter(pk=rnd.pk, status=Round.Status.PUBLISHED).update(
        status=Round.Status.COMPLETED, completed_at=timezone.now()
    )
    if not updated:
        return False
    event = Event.objects.select_for_update().get(pk=rnd.event_id)
    # Written once: only the transaction whose UPDATE completed the round gets here.
    _audit(
        event,
        None,
        AuditEntry.Action.COMPLETE,
        f"{rnd} complete: every result is in",
        round=rnd.number,
    )
    _after_round_completed(event, rnd)
    broadcast_on_commit(event.pk, "round")
    return True


def _after_round_completed(event: Event, rnd: Round) -> None:
    if rnd.kind == Round.Kind.SWISS and rnd.number >= (event.swiss_rounds or 0) and event.uses_pods:
        active = [row for row in _compute_rows(event) if not row.dropped]
        if event.top_cut and len(active) >= 2:
            event.phase = Event.Phase.PLAYOFF
            event.save(update_fields=["phase", "updated_at"])
            _audit(
                event,
                None,
                AuditEntry.Action.TOP_CUT,
                f"Top {min(event.top_cut, len(active))} cut made: one final pod",
            )
        else:
            _finish(event)
    elif rnd.kind == Round.Kind.ELIMINATION and event.uses_pods:
        _finish(event)  # the final pod was the last game
    elif rnd.kind == Round.Kind.SWISS and rnd.number >= (event.swiss_rounds or 0):
        if event.top_cut:
            rows = _compute_rows(event)
            cut = [row.player for row in rows if not row.dropped][: event.top_cut]
            if len(cut) < 2:
                _finish(event)
            else:
                _start_bracket(event, cut)
                _audit(event, None, AuditEntry.Action.TOP_CUT, f"Top {len(cut)} cut made")
        else:
            _finish(event)
    elif rnd.kind == Round.Kind.ROUND_ROBIN:
        players = _active_player_ids(event, 1)
        if rnd.number >= len(bracket_core.round_robin(players)):
            _finish(event)
    elif rnd.kind == Round.Kind.ELIMINATION:
        data = event.bracket
        state = bracket_core.resolve(
            bracket_core.Bracket.from_json(data["bracket"]), data["seeds"], _bracket_winners(event)
        )
        if state.finished:
            _finish(event)
    _refresh_standings(event)
    broadcast_on_commit(event.pk, "standings")
    if event.auto_advance and event.status == Event.Status.RUNNING:
        from tournaments.tasks import advance_event

        event_id = event.pk
        transaction.on_commit(lambda: advance_event.delay(event_id))


def _finish(event: Event) -> None:
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status", "updated_at"])
    _audit(event, None, AuditEntry.Action.FINISH, "Event finished")
    broadcast_on_commit(event.pk, "event")


def advance(event: Event) -> Round | None:
    """Pair and publish the next round if the event can move on (idempotent)."""
    event.refresh_from_db()
    if event.status != Event.Status.RUNNING:
        return None
    if event.rounds.exclude(status=Round.Status.COMPLETED).exists():
        return None
    try:
        rnd = pair_next_round(None, event)
    except TournamentError as exc:
        logger.info("event %s not advanced: %s", event.pk, exc)
        return None
    return publish_round(None, rnd)


# ---------------------------------------------------------------- standings


def _match_history(event: Event) -> dict:
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    seats = (
        MatchSeat.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("match_id", "registration_id", "match__is_bye")
    )
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, reg_id, is_bye in seats:
        if is_bye:
            byes.add(reg_id)
        else:
            by_match[match_id].append(reg_id)
    for players in by_match.values():
        for p in players:
            opponents[p].update(q for q in players if q != p)
    return {"opponents": opponents, "byes": byes}


def match_records(event: Event) -> tuple[list[int], list, set[int], dict]:
    """Load an event's final results as the pure standings module's input."""
    regs = list(event.registrations.values_list("pk", "status", "first_round"))
    players = [pk for pk, _s, _f in regs]
    dropped = {pk for pk, status, _f in regs if status == Registration.Status.DROPPED}
    seats = (
        MatchSeat.objects.filter(match__round__event=event, match__status=Match.Status.FINAL)
        .values_list(
            "match_id",
            "seat",
            "registration_id",
            "game_wins",
            "match__game_draws",
            "match__is_bye",
            "match__round__number",
            "match__round__kind",
            "match__bracket_code",
        )
        .order_by("match_id", "seat")
    )
    grouped: dict[int, list] = defaultdict(list)
    for row in seats:
        grouped[row[0]].append(row)
    records = []
    playoff_codes: dict[int, list[str]] = defaultdict(list)
    for rows in grouped.values():
        first = rows[0]
        round_number, kind, code = first[6], first[7], first[8]
        phase = "playoff" if kind == Round.Kind.ELIMINATION else "swiss"
        if first[5]:
            records.append(
                standings_core.MatchRecord(
                    round_number, first[2], None, 2, 0, 0, kind="bye", phase=phase
                )
            )
            continue
        if len(rows) != 2:
            continue  # multiplayer matches get their own standings with multiplayer games
        a, b = rows
        records.append(
            standings_core.MatchRecord(
                round_number, a[2], b[2], a[3], b[3], first[4], kind="played", phase=phase
            )
        )
        if code:
            playoff_codes[a[2]].append(code)
            playoff_codes[b[2]].append(code)
    for pk, _status, first_round in regs:
        for number in range(1, first_round):
            records.append(standings_core.MatchRecord(number, pk, None, 0, 2, 0, kind="loss"))
    return players, records, dropped, playoff_codes


def _playoff_finish(event: Event) -> dict[int, int]:
    if not event.bracket:
        return {}
    data = event.bracket
    state = bracket_core.resolve(
        bracket_core.Bracket.from_json(data["bracket"]), data["seeds"], _bracket_winners(event)
    )
    finish = dict(state.placements)
    # Players still in the bracket rank above everyone out of it: they would
    # finish at (alive // 2 + 1) if they lost their next match.
    alive = [pid for pid in data["seeds"] if pid not in finish]
    for pid in alive:
        finish[pid] = 1 if len(alive) == 1 else len(alive) // 2 + 1
    return finish


@dataclass(frozen=True)
class PodRow:
    """A standings row of a pod event: the pure row plus whether the player dropped."""

    rank: int
    player: int
    points: int
    pods: int
    firsts: int
    average_placement: float
    opponents_average: float
    dropped: bool
    playoff_finish: int | None = None  # place in the final pod (top cut), if played


def pod_results(event: Event) -> tuple[list[int], list[pods_core.PodResult], set[int]]:
    """Load a pod event's final placements as the pure pod standings' input.

    Placements are handed over as scores (``-placement``), which ``pods.placements``
    turns back into the same placements, ties included.
    """
    regs = list(event.registrations.values_list("pk", "status"))
    players = [pk for pk, _s in regs]
    dropped = {pk for pk, status in regs if status == Registration.Status.DROPPED}
    seats = (
        MatchSeat.objects.filter(
            match__round__event=event,
            match__status=Match.Status.FINAL,
            match__is_bye=False,
            placement__isnull=False,
            match__round__kind=Round.Kind.SWISS,
        )
        .values_list("match_id", "registration_id", "placement", "match__round__number")
        .order_by("match_id", "seat")
    )
    grouped: dict[int, dict] = defaultdict(dict)
    rounds: dict[int, int] = {}
    for match_id, reg_id, placement, number in seats:
        grouped[match_id][reg_id] = -placement
        rounds[match_id] = number
    results = [pods_core.PodResult(round=rounds[m], scores=scores) for m, scores in grouped.items()]
    return players, results, dropped


def _final_pod_finish(event: Event) -> dict[int, int]:
    """Placements in the final pod (the top cut of a pod event), once it is final."""
    return dict(
        MatchSeat.objects.filter(
            match__round__event=event,
            match__round__kind=Round.Kind.ELIMINATION,
            match__status=Match.Status.FINAL,
            placement__isnull=False,
        ).values_list("registration_id", "placement")
    )


def _compute_pod_rows(event: Event) -> list[PodRow]:
    """Swiss placement points; the final pod's players, if it was played, rank first by it."""
    players, results, dropped = pod_results(event)
    try:
        rows = pods_core.standings_by_placement(players, results)
    except pods_core.PodStandingsError as exc:
        raise TournamentError(str(exc)) from None
    finish = _final_pod_finish(event)
    ordered = sorted(rows, key=lambda r: (r.player not in finish, finish.get(r.player, 0), r.rank))
    return [
        PodRow(
            rank=rank,
            player=r.player,
            points=r.points,
            pods=r.pods,
            firsts=r.firsts,
            average_placement=r.average_placement,
            opponents_average=r.opponents_average,
            dropped=r.player in dropped,
            playoff_finish=finish.get(r.player),
        )
        for rank, r in enumerate(ordered, start=1)
    ]


# The snapshot's ruleset for events ranked by placement points.
PLACEMENT_RULESET = "placement"


def _compute_rows(event: Event):
    if event.uses_pods:
        return _compute_pod_rows(event)
    players, records, dropped, _codes = match_records(event)
    finish = _playoff_finish(event)
    return standings_core.compute_standings(
        players, records, ruleset=event.tiebreaks, dropped=dropped, playoff_finish=finish or None
    )


def _refresh_standings(event: Event) -> StandingsSnapshot:
    rows = _compute_rows(event)
    names = dict(event.registrations.values_list("pk", "display_name"))
    after = event.rounds.filter(status=Round.Status.COMPLETED).count()
    if event.uses_pods:
        data = [
            {
                "rank": row.rank,
                "player": row.player,
                "name": names.get(row.player, "?"),
                "points": row.points,
                "pods": row.pods,
                "firsts": row.firsts,
                "average_placement": row.average_placement,
                "opponents_average": row.opponents_average,
                "dropped": row.dropped,
                "playoff_finish": row.playoff_finish,
            }
            for row in rows
        ]
        snapshot, _created = StandingsSnapshot.objects.update_or_create(
            event=event, defaults={"rows": data, "ruleset": PLACEMENT_RULESET, "after_round": after}
        )
        return snapshot
    data = [
        {
            "rank": row.rank,
            "player": row.player,
            "name": names.get(row.player, "?"),
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "matches": row.matches,
            "byes": row.byes,
            "mw": row.mw,
            "gw": row.gw,
            "omw": row.omw,
            "ogw": row.ogw,
            "oomw": row.oomw,
            "dropped": row.dropped,
            "playoff_finish": row.playoff_finish,
        }
        for row in rows
    ]
    snapshot, _created = StandingsSnapshot.objects.update_or_create(
        event=event, defaults={"rows": data, "ruleset": event.tiebreaks, "after_round": after}
    )
    return snapshot


# Up to this many players the snapshot is recomputed inside the transaction that
# changed a result (a few milliseconds); above it a task does it, at most once a
# second per event, so a round of 1000 results does not cost 1000 recomputations.
SYNC_STANDINGS_MAX_PLAYERS = 512


def _standings_changed(event: Event) -> None:
    if event.registrations.count() <= SYNC_STANDINGS_MAX_PLAYERS:
        _refresh_standings(event)
        broadcast_on_commit(event.pk, "standings")
        return
    from tournaments.tasks import refresh_standings_soon

    transaction.on_commit(lambda: refresh_standings_soon(event.pk))


def refresh_standings(event: Event) -> StandingsSnapshot:
    with transaction.atomic():
        return _refresh_standings(event)


def rounds_with_matches(event: Event):
    """Rounds with their matches, seats and players in a fixed number of queries."""
    seats = MatchSeat.objects.select_related("registration").order_by("seat")
    matches = Match.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by("table")
    return event.rounds.prefetch_related(Prefetch("matches", queryset=matches)).order_by("number")


# ---------------------------------------------------------------- games decided by the rules engine


def record_engine_result(
    match: Match,
    number: int,
    *,
    winner_seat: int | None,
    placements: Sequence[int] | None,
    scores: Sequence[int | None] | None = None,
) -> Match:
    """Record game ``number`` of an online match, whatever kind of match it is.

    The caller gives both readings of the game, by match seat: ``winner_seat`` (the sole
    winner, ``None`` otherwise) and every seat's ``placements`` (and ``scores`` if the game
    keeps any). A two-player event records the winner exactly as ``record_engine_game``;
    an event with pods records the placements: one game decides a pod.
    """
    event = Event.objects.only("players_per_game").get(pk=match.round.event_id)
    if not event.uses_pods:
        return record_engine_game(match, number, winner_seat)
    with transaction.atomic():
        match = _lock_match(match)
        placements = list(_pod_placements(match, placements))
        score_list = _pod_scores(match, scores)
        if match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE:
            stored = list(match.seats.order_by("seat").values_list("placement", flat=True))
            if number == 1 and stored == placements:
                return match  # the same game recorded again: nothing changes
        _check_open(match)
        if number != 1:
            raise TournamentError(
                _("A pod plays a single game: there is no game %(number)d.") % {"number": number}
            )
        _finalise_pod(match, placements, score_list, Match.Source.ENGINE)
        broadcast_on_commit(match.round.event_id, "pairings")
        _maybe_complete_round(match.round)
    return match


def record_engine_game(match: Match, number: int, winner_seat: int | None) -> Match:
    """Record game ``number`` of an online match as the rules engine decided it.

    ``winner_seat`` is the match seat of the winner, ``None`` for a drawn game. The match
    row is locked; recording the same game again changes nothing. Once a player has won
    enough games (or the match has its most games) it is finalised with
    ``Match.Source.ENGINE`` and the round completes itself through the usual flow.
    """
    with transaction.atomic():
        match = _lock_match(match)
        games: list[int | None] = list(
            match.games.order_by("number").values_list("winner_seat", flat=True)
        )
        if 1 <= number <= len(games):
            if games[number - 1] != winner_seat:
                raise TournamentError(
                    _("Game %(number)d of this match is already recorded with another result.")
                    % {"number": number}
                )
            return match
        _check_open(match)
        if number != len(games) + 1:
            raise TournamentError(
                _("Game %(number)d cannot be recorded before game %(previous)d.")
                % {"number": number, "previous": len(games) + 1}
            )
        games.append(winner_seat)
        seats = list(match.seats.order_by("seat"))
        try:
            outcome = evaluate(games, match.best_of, seats=len(seats), allow_draw=True)
        except ResultError as exc:
            raise TournamentError(str(exc)) from None
        decided = max(outcome.wins, default=0) >= games_needed(match.best_of)
        if decided or len(games) >= 2 * match.best_of:
            _outcome(match, games)  # an elimination match cannot end drawn
            _finalise(match, games, Match.Source.ENGINE)
            broadcast_on_commit(match.round.event_id, "pairings")
            _maybe_complete_round(match.round)
            return match
        Game.objects.create(match=match, number=number, winner_seat=winner_seat)
        for seat, wins in zip(seats, outcome.wins, strict=True):
            if seat.game_wins != wins:
                seat.game_wins = wins
                seat.save(update_fields=["game_wins"])
        match.game_draws = outcome.draws
        match.version += 1
        match.save(update_fields=["game_draws", "version"])
        broadcast_on_commit(match.round.event_id, "pairings")
    return match
