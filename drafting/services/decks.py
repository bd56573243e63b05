"""Deck building: a deck checked against the seat's pool, players' decks submitted, bots'
decks, the deck-building deadline, and the pod finished once every seat has a deck.

A deck of a seat with a registration is recorded as the player's decklist in its event
(``tournaments.services.decklists.record_limited_decklist``) under the pod's lock.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import queue_at
from drafting.models import Pod, Seat
from drafting.services.errors import NotAllowed, PodError
from drafting.services.kits import deck_sections, decklists, kit, language
from drafting.services.messages import notify
from drafting.services.pods import User, lock_pod
from drafting.services.pools import deck_pool
from drafting.services.timers import TIMER_SLACK
from tournaments.built_decks import BuiltDeck, sign
from tournaments.live import broadcast_on_commit
from tournaments.services.decklists import record_limited_decklist
from tournaments.services.errors import TournamentError

logger = logging.getLogger("gauntlet.drafting")


def start_building(pod: Pod, now: datetime) -> None:
    from drafting import tasks

    pod.build_deadline = now + timedelta(minutes=pod.build_minutes)
    pod.save(update_fields=["build_deadline", "updated_at"])
    for seat in pod.seats.all():
        if seat.picked_by_bot and seat.deck is None:
            bot_deck(pod, seat)
    if not maybe_finish(pod):
        queue_at(tasks.finish_building, (pod.pk,), pod.build_deadline)


def bot_deck(pod: Pod, seat: Seat) -> None:
    limited = kit(pod)
    pool = deck_pool(pod, seat.number)
    built = limited.bot_deck(pool)
    deck = {section: [str(c) for c in built.get(section, [])] for section in deck_sections(pod)}
    problems = check_deck(pod, seat, deck)
    if problems:
        lacking = [need for need in limited.deck_needs(pool) if not need.met]
        if lacking:  # the pool itself allows no legal deck: the seat's picks, not the bot
            logger.warning(
                "pool of %s allows no legal deck: %s",
                seat,
                ", ".join(f"{n.name} {n.have}/{n.need} ({n.rule})" for n in lacking),
            )
        else:  # should never happen: the bot builds from the pool by the rules
            logger.error("bot deck of %s breaks rules: %s", seat, problems)
    _save_deck(pod, seat, deck, problems, by_bot=True)


def _limited_format(pod: Pod) -> str:
    """The format a pod's decks are checked in: its event's, else draft or sealed."""
    if pod.event_id is not None:
        return pod.event.format
    return pod.kind


def check_deck(
    pod: Pod, seat: Seat, deck: Mapping[str, Any], *, lang: str | None = None
) -> list[dict[str, Any]]:
    """Every broken deck rule of the pod's limited format, with the seat's pool (and any
    cards the organiser supplied) as the only source of cards. [] means legal."""
    if not isinstance(deck, Mapping):
        raise PodError(_("The deck is malformed."))
    limited = kit(pod)
    cleaned: dict[str, list[str]] = {}
    for section in deck_sections(pod):
        ids = deck.get(section) or []
        if isinstance(ids, str) or not isinstance(ids, Iterable):
            raise PodError(_("The deck is malformed."))
        cleaned[section] = [str(card_id) for card_id in ids]
        for card_id in cleaned[section]:
            if not limited.known(card_id):
                raise PodError(_("Unknown card %(id)s.") % {"id": card_id})
    return decklists(pod).check_sections(
        cleaned,
        _limited_format(pod),
        pool=Counter(deck_pool(pod, seat.number)),
        language=lang or language(),
    )


def limited_format(pod: Pod) -> str:
    """The key of the format the pod's decks are built for (its event's, else draft or
    sealed)."""
    return _limited_format(pod)


def play_ticket(user: User, pod: Pod, deck: Mapping[str, Any] | None, nonce: str = "") -> str:
    """The signed ticket (``tournaments.built_decks``) that takes the user's deck to a
    casual table: ``deck`` as it stands in the builder (None: the saved one), checked
    first as a submitted deck is (``check_deck``, the pod's format and the seat's pool);
    a deck that breaks a rule is refused with every problem (``PodError.problems``)."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in first."))
    seat = pod.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed(_("You have no seat in this pod."))
    if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
        raise PodError(_("Deck building starts when the draft is over."))
    deck = _deck_input(pod, seat.deck if deck is None else deck)
    problems = check_deck(pod, seat, deck)
    if problems:
        raise PodError(_("This deck cannot be played yet."), problems)
    built = deck_pool(pod, seat.number)
    drafted = len(built) - len(pod.supplied_cards or ()) * _copies(pod)
    label = str(pod.event.name if pod.event_id is not None else pod)
    return sign(
        BuiltDeck(
            owner=user.pk,
            system=pod.game_system,
            format=_limited_format(pod),
            deck=deck,
            pool=built,
            origin={
                "kind": "pod",
                "pod": pod.pk,
                "seat": seat.number,
                "event": pod.event_id,
                "label": label,
                "url": reverse("drafting:deck", args=[pod.pk]),
            },
            sets=list(pod.set_codes or ()),
            supplied=built[drafted:],
            nonce=(nonce or secrets.token_urlsafe(12))[:40],
        )
    )


def _copies(pod: Pod) -> int:
    rule = kit(pod).supply if pod.supplied_cards else None
    return rule.copies if rule else 0


def deck_text(pod: Pod, deck: Mapping[str, Sequence[str]], lang: str = "en") -> str:
    """The plain-text list the game's deck checker reads (and players can copy)."""
    return decklists(pod).write(deck, lang)


def _deck_input(pod: Pod, given: Any) -> dict[str, list[str]]:
    if not isinstance(given, Mapping) or set(given) - set(deck_sections(pod)):
        raise PodError(_("The deck is malformed."))
    deck = {}
    for name in deck_sections(pod):
        ids = given.get(name, [])
        if not isinstance(ids, list | tuple) or len(ids) > 500:
            raise PodError(_("The deck is malformed."))
        if not all(isinstance(card_id, str) and len(card_id) <= 40 for card_id in ids):
            raise PodError(_("The deck is malformed."))
        deck[name] = list(ids)
    return deck


def _save_deck(
    pod: Pod, seat: Seat, deck: dict[str, list[str]], problems: list[dict], *, by_bot: bool
) -> None:
    seat.deck = deck
    seat.deck_submitted_at = timezone.now()
    seat.deck_by_bot = by_bot
    seat.save(update_fields=["deck", "deck_submitted_at", "deck_by_bot"])
    if seat.registration_id is not None:
        try:
            record_limited_decklist(seat.registration, deck_text(pod, deck), problems)
        except TournamentError as exc:
            raise PodError(str(exc)) from None


def submit_deck(user: User, pod: Pod, deck: Mapping[str, Sequence[str]]) -> Seat:
    """Save the player's deck (section key -> card ids, the sections of the game's
    limited kit) if it is legal with their pool; else refuse with every problem
    (``PodError.problems``) and change nothing."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in first."))
    deck = _deck_input(pod, deck)
    with transaction.atomic():
        pod = lock_pod(pod)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
            raise PodError(_("Deck building starts when the draft is over."))
        if pod.status == Pod.Status.FINISHED:
            raise PodError(_("Deck building is over for this pod."))
        problems = check_deck(pod, seat, deck)
        if problems:
            raise PodError(_("This deck is not legal yet."), problems)
        _save_deck(pod, seat, deck, problems, by_bot=False)
        maybe_finish(pod)
        notify(pod.pk, overview=True, seats=[seat.number])
    return seat


def maybe_finish(pod: Pod) -> bool:
    """Finish the pod once every seat has a deck."""
    if pod.status != Pod.Status.BUILDING:
        return False
    if pod.seats.filter(deck__isnull=True).exists():
        return False
    pod.set_status(Pod.Status.FINISHED)
    pod.finished_at = timezone.now()
    pod.save(update_fields=["status", "finished_at", "updated_at"])
    notify(pod.pk, overview=True, seats=range(pod.seats_count))
    if pod.event_id is not None:
        broadcast_on_commit(pod.event_id, "event")
    return True


def finish_building(pod_id: int) -> bool:
    """At the deck-building deadline: a bot builds for every seat still without a deck.

    Reads the deadline from the locked row: late or repeated runs are harmless, and an
    early one queues itself again for the deadline.
    """
    with transaction.atomic():
        pod = Pod.objects.select_for_update().filter(pk=pod_id).first()
        if pod is None or pod.status != Pod.Status.BUILDING:
            return False
        if pod.build_deadline is None:
            return False
        if timezone.now() + TIMER_SLACK < pod.build_deadline:
            # Early: queued for the broker's horizon (``queue_at``), or a stray copy.
            from drafting import tasks

            queue_at(tasks.finish_building, (pod.pk,), pod.build_deadline)
            return False
        for seat in pod.seats.filter(deck__isnull=True):
            bot_deck(pod, seat)
        return maybe_finish(pod)
