"""Every change of a pod's state, one named function each.

Views, tasks and the tournament console call these; nothing else writes pods, seats or
picks. The rules of passing live in the pure ``drafting.draft``, booster collation in
``drafting.boosters`` and bot choices in ``drafting.bots``; this module is the adapter
that turns rows into their input and their output back into rows.

Races are settled by the database: every pick, timer and deck change locks the pod row
(``select_for_update``) for its transaction, checks the pick number the client answered,
applies ``draft.pick`` and writes the ``Pick`` row and the new state together; the unique
constraint on ``Pick`` is the last line of defence. Timers and bot picks are Celery tasks
queued after commit; each carries the pick number it was scheduled for, so a task that
fires late or twice finds the seat past that pick and changes nothing. Live pages are
told after commit what changed: each seat's socket about its own pack, the pod's group
about the overview. Pack contents never travel that way.
"""

from __future__ import annotations

import logging
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config import push
from config.celery import queue_at
from drafting import boosters
from drafting import draft as draft_core
from drafting.models import MAX_SEATS, MIN_SEATS, Pick, Pod, Seat
from engine.core import registry
from engine.core import rng as rng_mod
from engine.voskhozhdenie import loader
from engine.voskhozhdenie.cards import Card, CardDB
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Registration
from tournaments.services import TournamentError, is_limited, is_organiser, record_limited_decklist

logger = logging.getLogger("gauntlet.drafting")

User = AbstractBaseUser | AnonymousUser

POD_SIZE = 8  # players per pod of a Draft event
MIN_POOL = 22  # AMB-04: 2 Cities + 20 Main Deck cards
DECK_SECTIONS = ("cities", "main", "reinforcement")
TIMER_SLACK = timedelta(milliseconds=250)  # a timer task may arrive a little early


class PodError(Exception):
    """Something the person can fix; the message is shown to them as it is."""

    def __init__(self, message: str, problems: Sequence[Mapping[str, Any]] = ()):
        super().__init__(message)
        self.problems = list(problems)


class NotAllowed(PodError):
    """The person may not do this."""


# ---------------------------------------------------------------- cards


def card_db(pod: Pod) -> CardDB:
    return loader.load_system(pod.game_system)


def card_db_for(game_system: str) -> CardDB:
    return loader.load_system(game_system)


def language() -> str:
    from django.utils.translation import get_language

    return "ru" if (get_language() or "").startswith("ru") else "en"


# ---------------------------------------------------------------- permissions


def can_manage(user: User | None, pod: Pod) -> bool:
    """The pod's creator, an organiser of its event, or a superuser."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if pod.event_id is not None:
        return is_organiser(user, pod.event)
    return pod.created_by_id == user.pk


def check_manager(user: User | None, pod: Pod) -> None:
    if not can_manage(user, pod):
        raise NotAllowed(_("Only the organiser of this pod can do that."))


def _check_event_organiser(user: User | None, event) -> None:
    if not is_organiser(user, event):
        raise NotAllowed(_("Only an organiser of this event can do that."))


def seat_of(user: User | None, pod: Pod) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return pod.seats.filter(user=user).first()


def _lock_pod(pod: Pod | int) -> Pod:
    """Lock the pod row for the rest of the transaction and return it fresh."""
    pk = pod if isinstance(pod, int) else pod.pk
    return Pod.objects.select_for_update().get(pk=pk)


# ---------------------------------------------------------------- creating pods


def default_set_codes(game_system: str, kind: str = Pod.Kind.DRAFT) -> list[str]:
    """The boosters a pod of this game opens by default (``GameSystemInfo.draft_sets``,
    ``boosters_per_player`` / ``sealed_boosters`` in the registry): one set code each."""
    from engine.core import registry

    info = registry.get(game_system)
    count = info.sealed_boosters if kind == Pod.Kind.SEALED else info.boosters_per_player
    if not info.draft_sets or not count:
        raise PodError(_("%(game)s has no boosters to draft.") % {"game": info.name})
    return [info.draft_sets[0]] * count


def event_pod_seed(event_seed: int, number: int) -> int:
    """The seed of pod ``number`` of an event: drawn from the event's seed, so the event's
    seating and boosters can be made again exactly."""
    return random.Random(f"event:{event_seed}:pod:{number}").getrandbits(62)


SETTING_FIELDS = (
    "name",
    "kind",
    "set_codes",
    "seats_count",
    "pick_base_seconds",
    "pick_seconds_per_card",
    "pick_max_seconds",
    "review_seconds",
    "build_minutes",
    "abandon_after",
    "bot_seconds",
    "bots_inline",
    "game_system",
)


def _check_settings(fields: dict[str, Any]) -> None:
    unknown = set(fields) - set(SETTING_FIELDS)
    if unknown:
        raise PodError(_("Unknown pod settings: %(f)s") % {"f": ", ".join(sorted(unknown))})
    kind = fields.get("kind", Pod.Kind.DRAFT)
    if kind not in Pod.Kind.values:
        raise PodError(_("A pod is a booster draft or sealed."))
    seats = fields.get("seats_count", POD_SIZE)
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise PodError(
            _("A pod has %(min)d to %(max)d seats.") % {"min": MIN_SEATS, "max": MAX_SEATS}
        )
    codes = fields.get("set_codes")
    if not isinstance(codes, list) or not codes or not all(isinstance(c, str) for c in codes):
        raise PodError(_("Choose the set of each booster."))
    if len(codes) > 12:
        raise PodError(_("At most 12 boosters."))
    try:
        db = loader.load_system(fields.get("game_system") or registry.default_drafting_system().key)
        size = boosters.draft_pool_size(codes, db)
    except boosters.CollationError as exc:
        raise PodError(_("These boosters cannot be opened: %(e)s") % {"e": exc}) from None
    except loader.CardDataError as exc:
        raise PodError(str(exc)) from None
    if size < MIN_POOL:
        raise PodError(
            _(
                "These boosters give %(n)d cards; a deck needs at least %(min)d (2 Cities and 20 "
                "Main Deck cards)."
            )
            % {"n": size, "min": MIN_POOL}
        )
    for key in ("pick_base_seconds", "pick_seconds_per_card", "pick_max_seconds", "review_seconds"):
        value = fields.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3600:
            raise PodError(_("Timer settings are whole seconds from 0 to 3600."))
    after = fields.get("abandon_after", 3)
    if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= 60:
        raise PodError(_("Timed-out picks before a bot takes the seat: 0 (never) to 60."))
    minutes = fields.get("build_minutes", 30)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 240:
        raise PodError(_("Deck building takes 1 to 240 minutes."))


def create_pod(user: User, *, join: bool = True, **fields: Any) -> Pod:
    """A casual pod: anyone logged in may open one; its creator takes a seat."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to open a draft."))
    fields = dict(fields)
    kind = fields.setdefault("kind", Pod.Kind.DRAFT)
    if "set_codes" not in fields:
        fields["set_codes"] = default_set_codes(
            (fields.get("game_system") or registry.default_drafting_system().key), kind
        )
    fields.setdefault("seats_count", POD_SIZE)
    _check_settings(fields)
    with transaction.atomic():
        pod = Pod.objects.create(created_by=user, **fields)
        if join:
            Seat.objects.create(pod=pod, number=0, user=user)
        _notify(pod.pk, overview=True)
    return pod


def quick_pod(user: User, *, kind: str = Pod.Kind.DRAFT, **fields: Any) -> Pod:
    """One click: a pod of 8 with the user and 7 bots, started at once."""
    pod = create_pod(user, kind=kind, seats_count=POD_SIZE, **fields)
    return start_pod(user, pod)


def event_pod_kind(event) -> str:
    """The kind of pod a limited event plays from: sealed pools for a Sealed event, else
    a booster draft."""
    fmt = event.format_info
    return Pod.Kind.SEALED if fmt is not None and fmt.sealed else Pod.Kind.DRAFT


def create_event_pods(
    actor: User, event, *, boosters_per_player: int | None = None, **fields: Any
) -> list[Pod]:
    """The pods of a limited event (Draft or Sealed): one per 8 players (sizes as even as
    possible). ``fields`` are the pod settings (timers, review and deck-building time,
    ``abandon_after``); ``boosters_per_player`` (default: the game's, from the registry)
    sets how many boosters of the game's draft set each player opens.

    Seats are filled by the event's active registrations, placed at random from the
    event's seed; each pod's seed (its seating and its boosters) is drawn from the
    event's seed and the pod number (``event_pod_seed``), so the whole event can be made
    again exactly. Bot registrations get bot seats. The organiser starts the pods when the
    players are ready (``start_event_pods``); from now on nobody may register.
    """
    _check_event_organiser(actor, event)
    fields = {k: v for k, v in fields.items() if v is not None}
    fields["game_system"] = event.game_system
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not is_limited(event):
            raise PodError(_("Only a Draft event or a Sealed event plays from pods."))
        kind = event_pod_kind(event)
        fields["kind"] = kind
        if "set_codes" not in fields:
            codes = default_set_codes(event.game_system, kind)
            if boosters_per_player is not None:
                if not 1 <= boosters_per_player <= 12:
                    raise PodError(_("A player opens 1 to 12 boosters."))
                codes = [codes[0]] * boosters_per_player
            fields["set_codes"] = codes
        if event.status != Event.Status.REGISTRATION:
            raise PodError(_("The event has already started."))
        if event.pods.exists():
            raise PodError(_("The pods of this event are already made."))
        regs = list(event.registrations.exclude(status=Registration.Status.DROPPED).order_by("pk"))
        if len(regs) < MIN_SEATS:
            raise PodError(_("A pod needs at least two players."))
        pod_count = math.ceil(len(regs) / POD_SIZE)
        random.Random(event.seed).shuffle(regs)
        pods = []
        start = 0
        for number in range(1, pod_count + 1):
            size = len(regs) // pod_count + (1 if number <= len(regs) % pod_count else 0)
            group = regs[start : start + size]
            start += size
            settings = {**fields, "seats_count": max(MIN_SEATS, len(group))}
            _check_settings(settings)
            pod = Pod.objects.create(
                created_by=actor,
                event=event,
                number=number,
                name=f"{event.name} · {_('pod')} {number}",
                seed=event_pod_seed(event.seed, number),
                **settings,
            )
            order = list(range(pod.seats_count))
            random.Random(pod.seed).shuffle(order)
            for reg, seat_number in zip(group, order, strict=False):
                Seat.objects.create(
                    pod=pod,
                    number=seat_number,
                    user=reg.user,
                    registration=reg,
                    is_bot=reg.is_bot,
                    display_name=reg.display_name,
                )
            pods.append(pod)
        AuditEntry.objects.create(
            event=event,
            actor=actor,
            action=AuditEntry.Action.EDIT,
            summary=f"Made {len(pods)} {kind} pods for {len(regs)} players",
            data={"pods": [p.pk for p in pods], "set_codes": fields["set_codes"]},
        )
    return pods


def start_event_pods(actor: User, event) -> list[Pod]:
    _check_event_organiser(actor, event)
    started = []
    for pod in event.pods.filter(status=Pod.Status.WAITING).order_by("number"):
        started.append(start_pod(actor, pod))
    if not started:
        raise PodError(_("There is no pod waiting to start."))
    return started


# ---------------------------------------------------------------- joining


def join_pod(user: User, pod: Pod) -> Seat:
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to join a draft."))
    with transaction.atomic():
        pod = _lock_pod(pod)
        if pod.event_id is not None:
            raise PodError(_("The seats of an event's pod come from its registrations."))
        if pod.status != Pod.Status.WAITING:
            raise PodError(_("This pod has already started."))
        seats = list(pod.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise PodError(_("You already have a seat in this pod."))
        if len(seats) >= pod.seats_count:
            raise PodError(_("This pod is full."))
        taken = {s.number for s in seats}
        number = min(n for n in range(pod.seats_count) if n not in taken)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(pod=pod, number=number, user=user)
        except IntegrityError:
            raise PodError(_("You already have a seat in this pod.")) from None
        _notify(pod.pk, overview=True)
    return seat


def leave_pod(user: User, pod: Pod) -> None:
    """Before the start the seat is freed; afterwards a bot picks and builds for it (the
    page asks the player to confirm). Leaving twice changes nothing more."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in first."))
    with transaction.atomic():
        pod = _lock_pod(pod)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise PodError(_("You have no seat in this pod."))
        if pod.status == Pod.Status.FINISHED:
            raise PodError(_("This pod has finished."))
        if pod.status == Pod.Status.WAITING:
            if pod.event_id is not None:
                raise PodError(_("Drop from the event to leave its pod."))
            seat.delete()
            _notify(pod.pk, overview=True)
        else:
            _hand_to_bot(pod, seat, Seat.BotReason.LEFT, timezone.now())


def _hand_to_bot(pod: Pod, seat: Seat, reason: str, now: datetime) -> bool:
    """A bot picks (and builds the deck) for ``seat`` from now on. Call with the pod locked.

    Returns False, changing nothing, when a bot already does (a repeat is harmless) or
    the pod has finished. In a waiting event pod the seat is only marked: the bot takes
    it when the pod starts.
    """
    if seat.picked_by_bot or pod.status == Pod.Status.FINISHED:
        return False
    seat.abandoned = True
    seat.bot_reason = reason
    seat.highlighted = ""
    seat.timeouts = 0
    fields = {"abandoned": True, "bot_reason": reason, "highlighted": "", "timeouts": 0}
    if pod.status == Pod.Status.DRAFTING:
        seat.timer_key = fields["timer_key"] = ""  # re-armed below as a bot's pick
    Seat.objects.filter(pk=seat.pk).update(**fields)
    if pod.status == Pod.Status.DRAFTING:
        _after_change(pod, now=now)
    elif pod.status == Pod.Status.BUILDING and seat.deck is None:
        _bot_deck(pod, seat, card_db(pod))
        _maybe_finish(pod)
    _notify(pod.pk, overview=True, seats=[seat.number])
    return True


def hand_to_bot(actor: User, pod: Pod | int, seat_number: Any) -> bool:
    """The organiser hands a seat to a bot (from the pod's console): it picks and builds
    for the seat from now on. False if a bot already had it."""
    pk = pod if isinstance(pod, int) else pod.pk
    try:
        number = int(seat_number)
    except (TypeError, ValueError):
        raise PodError(_("Choose a seat.")) from None
    with transaction.atomic():
        pod = _lock_pod(pk)
        check_manager(actor, pod)
        if pod.status == Pod.Status.FINISHED:
            raise PodError(_("This pod has finished."))
        if pod.status == Pod.Status.WAITING and pod.event_id is None:
            raise PodError(_("Empty seats get bots when the pod starts."))
        seat = pod.seats.filter(number=number).first()
        if seat is None:
            raise PodError(_("There is no such seat in this pod."))
        handed = _hand_to_bot(pod, seat, Seat.BotReason.ORGANISER, timezone.now())
        if handed and pod.event_id is not None:
            AuditEntry.objects.create(
                event_id=pod.event_id,
                actor=actor,
                action=AuditEntry.Action.EDIT,
                summary=f"Handed seat {number + 1} of {pod} ({seat.name}) to a bot",
                data={"pod": pod.pk, "seat": number},
            )
    return handed


def reclaim_seat(user: User, pod: Pod | int) -> Seat:
    """The player whose seat a bot took after too many timed-out picks takes it back:
    from their next pick on they pick (and the timer runs) again. Harmless to repeat."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to draft."))
    with transaction.atomic():
        pod = _lock_pod(pod if isinstance(pod, int) else pod.pk)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if pod.status != Pod.Status.DRAFTING:
            raise PodError(_("The draft is over."))
        if not seat.abandoned:
            return seat
        if seat.bot_reason != Seat.BotReason.TIMEOUTS:
            raise PodError(_("You left this draft; a bot picks for your seat."))
        seat.abandoned, seat.bot_reason, seat.timeouts, seat.timer_key = False, "", 0, ""
        Seat.objects.filter(pk=seat.pk).update(
            abandoned=False, bot_reason="", timeouts=0, timer_key=""
        )
        _after_change(pod, now=timezone.now())  # the seat's pick gets a player's timer
        _notify(pod.pk, overview=True, seats=[seat.number])
    return seat


def hand_dropped_seats_to_bots_on_commit(registration) -> None:
    """Called inside the transaction that drops (or deletes) a registration: once it has
    committed, a bot takes each of its seats in pods that have not finished.

    After commit, in transactions of their own, because the pod lock is taken before the
    event's elsewhere (a deck saved under the pod lock records the event's decklist):
    taking the pod lock while holding the event's could deadlock.
    """
    seat_ids = list(
        Seat.objects.filter(registration_id=registration.pk)
        .exclude(pod__status=Pod.Status.FINISHED)
        .values_list("pk", flat=True)
    )
    if seat_ids:
        transaction.on_commit(lambda: hand_seats_to_bots(seat_ids), robust=True)


def hand_seats_to_bots(seat_ids: Iterable[int], reason: str = Seat.BotReason.DROPPED) -> int:
    """A bot takes each of these seats (each under its pod's lock); returns how many
    changed hands. Repeats are harmless."""
    handed = 0
    for seat_id in seat_ids:
        pod_id = Seat.objects.filter(pk=seat_id).values_list("pod_id", flat=True).first()
        if pod_id is None:
            continue
        with transaction.atomic():
            pod = _lock_pod(pod_id)
            seat = pod.seats.filter(pk=seat_id).first()
            if seat is not None and _hand_to_bot(pod, seat, reason, timezone.now()):
                handed += 1
    return handed


# ---------------------------------------------------------------- starting


def start_pod(actor: User, pod: Pod) -> Pod:
    """Seat the players at random, fill the empty seats with bots and open the boosters."""
    check_manager(actor, pod)
    with transaction.atomic():
        pod = _lock_pod(pod)
        if pod.status != Pod.Status.WAITING:
            raise PodError(_("This pod has already started."))
        db = card_db(pod)
        seats = list(pod.seats.select_related("registration").order_by("number"))
        if pod.event_id is None:
            # Casual pods seat players in join order until the start; now draw the places.
            humans = [(s.user_id, s.registration_id, s.display_name, s.is_bot) for s in seats]
            order = list(range(pod.seats_count))
            random.Random(pod.seed).shuffle(order)
            pod.seats.all().delete()
            by_number = {}
            for (user_id, reg_id, name, is_bot), number in zip(humans, order, strict=False):
                by_number[number] = Seat(
                    pod=pod,
                    number=number,
                    user_id=user_id,
                    registration_id=reg_id,
                    display_name=name,
                    is_bot=is_bot,
                )
            seats = []
            for number in range(pod.seats_count):
                seat = by_number.get(number) or Seat(pod=pod, number=number, is_bot=True)
                seat.save()
                seats.append(seat)
        else:
            for seat in seats:  # a player who left the event: a bot drafts for them
                left = seat.registration_id is None or seat.registration.status == "dropped"
                if left and not seat.is_bot:
                    seat.abandoned = True
                    seat.save(update_fields=["abandoned"])
            present = {s.number for s in seats}
            for number in range(pod.seats_count):
                if number not in present:
                    seats.append(Seat.objects.create(pod=pod, number=number, is_bot=True))
        now = timezone.now()
        pod.started_at = now
        try:
            if pod.is_sealed:
                pools = [
                    boosters.sealed_pool(pod.set_codes, db, _seat_seed(pod.seed, n))
                    for n in range(pod.seats_count)
                ]
                pod.state = {"kind": "sealed", "pools": pools}
            else:
                packs = boosters.draft_packs(pod.set_codes, pod.seats_count, db, pod.seed)
                # Every pick is a Pick row: the state need not carry their history too.
                pod.state = draft_core.new_draft(packs, history=False)
        except (boosters.CollationError, draft_core.DraftError) as exc:
            raise PodError(_("The boosters cannot be opened: %(e)s") % {"e": exc}) from None
        if pod.is_sealed:
            pod.set_status(Pod.Status.BUILDING)
            pod.save()
            _start_building(pod, db, now)
        else:
            pod.set_status(Pod.Status.DRAFTING)
            pod.save()
            _after_change(pod, now=now)
        if pod.event_id is not None:
            AuditEntry.objects.create(
                event_id=pod.event_id,
                actor=actor,
                action=AuditEntry.Action.EDIT,
                summary=f"Started {pod}",
                data={"pod": pod.pk},
            )
        _notify(pod.pk, overview=True, seats=range(pod.seats_count))
    return pod


def _seat_seed(seed: int, seat: int) -> int:
    return random.Random(f"{seed}:{seat}").getrandbits(62)


# ---------------------------------------------------------------- picking


def _parse_pick_number(value: Any) -> int:
    if isinstance(value, bool):
        raise PodError(_("The pick number is missing or malformed."))
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PodError(_("The pick number is missing or malformed.")) from None
    if not 1 <= number <= 10_000:
        raise PodError(_("The pick number is missing or malformed."))
    return number


def _parse_card_id(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 40:
        raise PodError(_("Choose a card."))
    return value.strip()


def make_pick(
    user: User, pod: Pod | int, pick_number: Any, card_id: Any, *, seat_number: Any = None
) -> Pick:
    """The player takes ``card_id`` from the pack they hold; ``pick_number`` is the pick
    the page answered (``draft.pick_number``). Every refusal changes nothing."""
    number = _parse_pick_number(pick_number)
    card_id = _parse_card_id(card_id)
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to draft."))
    with transaction.atomic():
        pod = _lock_pod(pod)
        seats = list(pod.seats.select_related("user"))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if seat_number not in (None, "") and str(seat_number) != str(seat.number):
            raise NotAllowed(_("You can only pick for your own seat."))
        if pod.status == Pod.Status.WAITING:
            raise PodError(_("The draft has not started yet."))
        if pod.status != Pod.Status.DRAFTING:
            raise PodError(_("The draft is over."))
        if seat.abandoned:
            if seat.bot_reason != Seat.BotReason.TIMEOUTS:
                raise PodError(_("You left this draft; a bot picks for your seat."))
            # The timer made too many picks in a row and a bot took the seat: picking
            # again takes it back (if this pick is refused, so is the taking back).
            seat.abandoned, seat.bot_reason, seat.timeouts = False, "", 0
            Seat.objects.filter(pk=seat.pk).update(abandoned=False, bot_reason="", timeouts=0)
        pick = _apply_pick(pod, seat, card_id, expected=number, auto=Pick.Auto.PLAYER)
        # The picker's own page learns its next pack from the answer to this request.
        _after_change(pod, now=timezone.now(), seats=seats, answered=seat.number)
    # For the caller's answer: the pod as it is now and the picker's seat (with its new
    # timer), so it needs no second look at the database.
    pick.pod, pick.seat, pick.seats = pod, seat, seats
    return pick


def _apply_pick(pod: Pod, seat: Seat, card_id: str, *, expected: int, auto: str) -> Pick:
    """Apply one pick to the locked pod: new state and the Pick row, saved together."""
    state = pod.state
    pack = draft_core.current_pack(state, seat.number)
    next_number = draft_core.pick_number(state, seat.number)
    if expected < next_number:
        raise PodError(
            _("Pick %(n)d was already made: the page was out of date. Here is your next pack.")
            % {"n": expected}
        )
    if expected > next_number:
        raise PodError(_("That pick number is not yours yet (stale page)."))
    if pack is None:
        raise PodError(_("No pack is waiting for you yet."))
    if card_id not in pack["cards"]:
        raise PodError(_("That card is not in your current pack."))
    try:
        new_state = draft_core.pick(state, seat.number, card_id, expected_pick=expected)
    except draft_core.DraftError as exc:
        raise PodError(exc.message) from None
    pick = Pick.objects.create(
        pod=pod,
        seat=seat,
        booster_round=pack["round"],
        pick_number=expected,
        card_id=card_id,
        pack_id=pack["id"],
        pack_cards=list(pack["cards"]),
        auto=auto,
    )
    pod.state = new_state
    pod.save(update_fields=["state", "updated_at"])
    reset: dict[str, Any] = {}
    if seat.highlighted:
        seat.highlighted = reset["highlighted"] = ""
    if auto == Pick.Auto.PLAYER and seat.timeouts:
        seat.timeouts = reset["timeouts"] = 0
    elif auto == Pick.Auto.TIMER:
        _count_timeout(pod, seat, reset)
    if reset:
        Seat.objects.filter(pk=seat.pk).update(**reset)
    return pick


def _count_timeout(pod: Pod, seat: Seat, fields: dict[str, Any]) -> None:
    """The timer picked for a player: after ``pod.abandon_after`` such picks in a row the
    seat counts as abandoned and a bot picks for it until the player picks again."""
    seat.timeouts = fields["timeouts"] = seat.timeouts + 1
    if pod.abandon_after and seat.timeouts >= pod.abandon_after and not seat.abandoned:
        seat.abandoned = fields["abandoned"] = True
        seat.bot_reason = fields["bot_reason"] = Seat.BotReason.TIMEOUTS
        _notify(pod.pk, overview=True, seats=[seat.number])


def highlight(user: User, pod: Pod, card_id: Any) -> Seat:
    """Mark the card the player leans to: the timer takes it if time runs out."""
    card_id = _parse_card_id(card_id)
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to draft."))
    with transaction.atomic():
        pod = _lock_pod(pod)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if pod.status != Pod.Status.DRAFTING:
            raise PodError(_("The draft is over."))
        pack = draft_core.current_pack(pod.state, seat.number)
        if pack is None or card_id not in pack["cards"]:
            raise PodError(_("That card is not in your current pack."))
        seat.highlighted = card_id
        seat.save(update_fields=["highlighted"])
    return seat


def auto_pick(pod_id: int, seat_number: int, pick_number: int) -> Pick | None:
    """The timer or a bot picks for a seat (the Celery task calls this).

    Carries the pick it was scheduled for: if the seat has moved past it (it picked in
    time, or this is a repeated delivery) or its deadline was moved, nothing happens.
    A player who ran out of time gets the card they highlighted, else the bot's choice.
    """
    # Nearly every timer finds its pick made in time: tell so without locking the pod.
    # ``timer_key`` names the pick a seat faces and only moves under the pod's lock, past
    # this pick once it is made, so a seat not showing it now will never show it again.
    if not Seat.objects.filter(
        pod_id=pod_id, number=seat_number, timer_key=str(pick_number)
    ).exists():
        return None
    with transaction.atomic():
        pod = Pod.objects.select_for_update().filter(pk=pod_id).first()
        if pod is None or pod.status != Pod.Status.DRAFTING:
            return None
        seat = pod.seats.filter(number=seat_number).first()
        if seat is None or draft_core.pick_number(pod.state, seat_number) != pick_number:
            return None
        pack = draft_core.current_pack(pod.state, seat_number)
        if pack is None:
            return None
        now = timezone.now()
        if not seat.picked_by_bot:
            if seat.pick_deadline is None or now + TIMER_SLACK < seat.pick_deadline:
                return None  # no timer, or the deadline moved later: a newer task will come
            card = seat.highlighted if seat.highlighted in pack["cards"] else None
            auto = Pick.Auto.TIMER
        else:
            card, auto = None, Pick.Auto.BOT
        if card is None:
            card = _bot_choice(pod, seat_number, pack["cards"])
        pick = _apply_pick(pod, seat, card, expected=pick_number, auto=auto)
        _after_change(pod, now=now)
    return pick


def _bot_choice(pod: Pod, seat_number: int, cards: Sequence[str]) -> str:
    from drafting import bots

    db = card_db(pod)
    pool = [db.card(c) for c in _pool(pod, seat_number)]
    pack = [db.card(c) for c in cards]
    number = draft_core.pick_number(pod.state, seat_number)
    rng = rng_mod.seed_state(_seat_seed(pod.seed, seat_number * 1000 + number))
    choice = bots.bot_pick(pack, pool, rng)
    return choice.id if isinstance(choice, Card) else str(choice)


def _run_bots_locked(pod: Pod) -> int:
    """Inline mode (``bots_inline``): every bot seat holding a pack picks, until none does."""
    made = 0
    seats = {s.number: s for s in pod.seats.all()}
    progress = True
    while progress and pod.status == Pod.Status.DRAFTING and not draft_core.is_finished(pod.state):
        progress = False
        for number, seat in seats.items():
            if not seat.picked_by_bot:
                continue
            pack = draft_core.current_pack(pod.state, number)
            if pack is None:
                continue
            card = _bot_choice(pod, number, pack["cards"])
            expected = draft_core.pick_number(pod.state, number)
            _apply_pick(pod, seat, card, expected=expected, auto=Pick.Auto.BOT)
            made += 1
            progress = True
    return made


# ---------------------------------------------------------------- after each change


def _after_change(
    pod: Pod,
    *,
    now: datetime,
    seats: list[Seat] | None = None,
    answered: int | None = None,
) -> None:
    """Re-arm the timers of seats that face a new pick, wake the bots, tell the pages.

    Called inside the transaction holding the pod lock, after the state changed. Only
    seats whose pick changed are written. Each of their players is sent the pack they now
    face (their own group only), except ``answered``, the seat whose request is being
    answered with it; the pod's group gets the public progress of every seat.
    """
    if pod.bots_inline:
        _run_bots_locked(pod)
        seats = None  # reload: bot picks moved the keys
    if draft_core.is_finished(pod.state):
        _finish_draft(pod, now)
        return
    state = pod.state
    if seats is None:
        seats = list(pod.seats.select_related("user"))
    packs: list[tuple[Seat, dict[str, Any]]] = []
    changed: list[Seat] = []
    for seat in seats:
        pack = draft_core.current_pack(state, seat.number)
        key = str(draft_core.pick_number(state, seat.number)) if pack else ""
        if key == seat.timer_key:
            continue
        seat.timer_key = key
        seat.pick_deadline = None
        changed.append(seat)
        if pack is not None:
            if seat.picked_by_bot:
                if not pod.bots_inline:
                    seat.pick_deadline = now + timedelta(seconds=pod.bot_seconds)
            else:
                seconds = pod.pick_seconds(len(pack["cards"]))
                if seconds is not None:
                    if _new_round_for(state, seat.number, pack):
                        seconds += pod.review_seconds
                    seat.pick_deadline = now + timedelta(seconds=seconds)
            if seat.user_id is not None and seat.number != answered and not seat.picked_by_bot:
                packs.append((seat, pack))
    if len(changed) == 1:
        Seat.objects.filter(pk=changed[0].pk).update(
            timer_key=changed[0].timer_key, pick_deadline=changed[0].pick_deadline
        )
    elif changed:
        Seat.objects.bulk_update(changed, ["timer_key", "pick_deadline"])
    _arm_timers(pod, seats, now)
    messages = [
        (player_group(pod.pk, seat.user_id), pack_message(pod, seat, pack)) for seat, pack in packs
    ]
    progress, pod_id = progress_message(pod, seats), pod.pk
    transaction.on_commit(lambda: _send_after_pick(pod_id, messages, progress))


TIMERS_LOST_AFTER = timedelta(seconds=60)


def _arm_timers(pod: Pod, seats: Sequence[Seat], now: datetime) -> None:
    """Make sure a ``run_timers`` task comes by the earliest deadline of the pod's seats.

    One task per pod, not one per pick: while a check is already due no later than the
    earliest deadline, nothing is queued (it will re-arm when it runs). A check overdue
    by more than ``TIMERS_LOST_AFTER`` counts as lost (a worker died holding it) and is
    queued again; a second check finds nothing to do and is harmless.
    """
    from drafting import tasks

    deadlines = [s.pick_deadline for s in seats if s.timer_key and s.pick_deadline is not None]
    if not deadlines:
        return
    due = min(deadlines)
    pending = pod.timers_due
    if pending is not None and now - TIMERS_LOST_AFTER <= pending <= due:
        return
    # Queued for the deadline, or for the broker's horizon if that is sooner: the check
    # then finds nothing due and arms itself again (``config.celery.queue_at``).
    pod.timers_due = queue_at(tasks.run_timers, (pod.pk,), due)
    Pod.objects.filter(pk=pod.pk).update(timers_due=pod.timers_due)


def run_timers(pod_id: int) -> int:
    """The pod's timer task: every seat whose deadline has passed picks (a bot's choice,
    or for a player the card they highlighted, else the bot's choice), then the next
    check is armed. Reads everything under the pod's lock: a check that runs early,
    late or twice makes only the picks that are due. Returns the number of picks made."""
    with transaction.atomic():
        pod = Pod.objects.select_for_update().filter(pk=pod_id).first()
        if pod is None or pod.status != Pod.Status.DRAFTING:
            return 0
        now = timezone.now()
        if pod.timers_due is not None and pod.timers_due <= now + TIMER_SLACK:
            pod.timers_due = None  # this is the check that was due
            Pod.objects.filter(pk=pod.pk).update(timers_due=None)
        seats = list(pod.seats.select_related("user"))
        due = [
            s
            for s in seats
            if s.timer_key and s.pick_deadline is not None and s.pick_deadline <= now + TIMER_SLACK
        ]
        made = 0
        for seat in sorted(due, key=lambda s: (s.pick_deadline, s.number)):
            number = int(seat.timer_key)
            pack = draft_core.current_pack(pod.state, seat.number)
            if pack is None or draft_core.pick_number(pod.state, seat.number) != number:
                continue
            card = None
            auto = Pick.Auto.BOT if seat.picked_by_bot else Pick.Auto.TIMER
            if auto == Pick.Auto.TIMER and seat.highlighted in pack["cards"]:
                card = seat.highlighted
            if card is None:
                card = _bot_choice(pod, seat.number, pack["cards"])
            _apply_pick(pod, seat, card, expected=number, auto=auto)
            made += 1
        if made:
            _after_change(pod, now=now, seats=None if pod.bots_inline else seats)
        else:
            _arm_timers(pod, seats, now)
    return made


def review_until(pod: Pod, seat: Seat, pack: Mapping[str, Any] | None) -> datetime | None:
    """When the review before the first pick of a new booster ends for this seat (None:
    no review now). The seat's deadline already holds the review time (``_after_change``);
    the review is that deadline less the pick's own time. Only with the pick timer on."""
    if pack is None or not pod.review_seconds or seat.pick_deadline is None:
        return None
    if seat.picked_by_bot or not _new_round_for(pod.state, seat.number, pack):
        return None
    seconds = pod.pick_seconds(len(pack["cards"]))
    if seconds is None:
        return None
    return seat.pick_deadline - timedelta(seconds=seconds)


def _new_round_for(state: dict[str, Any], seat_number: int, pack: Mapping[str, Any]) -> bool:
    """Does ``pack`` open a new booster round for this seat (review time first)?

    A seat's picks so far in the current round are ``round_picks``; with none, its last
    pick (if any) was in an earlier round."""
    if not state["pools"][seat_number]:
        return False
    last_round = state["round"] if state["round_picks"][seat_number] else state["round"] - 1
    return pack["round"] != last_round


def _finish_draft(pod: Pod, now: datetime) -> None:
    pod.set_status(Pod.Status.BUILDING)
    pod.save(update_fields=["status", "updated_at"])
    Seat.objects.filter(pod=pod).update(timer_key="", pick_deadline=None, highlighted="")
    _start_building(pod, card_db(pod), now)
    deck = reverse("drafting:deck", kwargs={"pk": pod.pk})
    _notify(pod.pk, overview=True, seats=range(pod.seats_count), redirect=deck)


# ---------------------------------------------------------------- deck building


def _pool(pod: Pod, seat_number: int) -> list[str]:
    if not pod.state:
        return []
    return list(pod.state["pools"][seat_number])


def pool_of(pod: Pod, seat: Seat) -> list[str]:
    return _pool(pod, seat.number)


SUPPLIED_COPIES = 2  # a deck has 2 Cities (4.5.5.1), which may be the same one (AMB-05)
MAX_SUPPLIED = 12


def deck_pool(pod: Pod, seat_number: int) -> list[str]:
    """What a seat builds from: its pool, plus the Cities the organiser supplied (AMB-05)."""
    supplied = [c for c in pod.supplied_cities or () for _copy in range(SUPPLIED_COPIES)]
    return _pool(pod, seat_number) + supplied


def deck_pool_of(pod: Pod, seat: Seat) -> list[str]:
    return deck_pool(pod, seat.number)


def city_choices(pod: Pod) -> list[Card]:
    """The Cities an organiser may supply: those of the sets the pod's boosters come from."""
    db = card_db(pod)
    codes = set(pod.set_codes or ())
    cities = [c for c in db.all_cards() if c.type == "city" and c.id.split("-")[0] in codes]
    return sorted(cities, key=lambda c: c.name(language()))


def set_supplied_cities(user: User, pod: Pod, card_ids: Sequence[Any]) -> Pod:
    """AMB-05's event option: the organiser supplies a fixed list of Cities every player
    may use (two copies each) besides their drafted ones; an empty list means Cities come
    from the pools only (the default). Changeable until deck building starts."""
    check_manager(user, pod)
    if not isinstance(card_ids, list | tuple) or len(card_ids) > MAX_SUPPLIED:
        raise PodError(_("Choose at most %(n)d Cities.") % {"n": MAX_SUPPLIED})
    with transaction.atomic():
        pod = _lock_pod(pod)
        if pod.status not in (Pod.Status.WAITING, Pod.Status.DRAFTING):
            raise PodError(_("The supplied Cities can only be changed until deck building starts."))
        allowed = {c.id for c in city_choices(pod)}
        chosen: list[str] = []
        for card_id in card_ids:
            if not isinstance(card_id, str) or card_id not in allowed:
                raise PodError(_("Only Cities of this pod's sets can be supplied."))
            if card_id not in chosen:
                chosen.append(card_id)
        pod.supplied_cities = chosen
        pod.save(update_fields=["supplied_cities", "updated_at"])
        if pod.event_id is not None:
            AuditEntry.objects.create(
                event_id=pod.event_id,
                actor=user,
                action=AuditEntry.Action.EDIT,
                summary=f"Supplied Cities of {pod}: {', '.join(chosen) or 'none'}",
                data={"pod": pod.pk, "supplied_cities": chosen},
            )
        _notify(pod.pk, overview=True)
    return pod


def _start_building(pod: Pod, db: CardDB, now: datetime) -> None:
    from drafting import tasks

    pod.build_deadline = now + timedelta(minutes=pod.build_minutes)
    pod.save(update_fields=["build_deadline", "updated_at"])
    for seat in pod.seats.all():
        if seat.picked_by_bot and seat.deck is None:
            _bot_deck(pod, seat, db)
    if not _maybe_finish(pod):
        queue_at(tasks.finish_building, (pod.pk,), pod.build_deadline)


def _bot_deck(pod: Pod, seat: Seat, db: CardDB) -> None:
    from drafting import bots

    pool = [db.card(c) for c in deck_pool(pod, seat.number)]
    built = bots.bot_build_deck(pool)
    deck = {
        section: [c.id if isinstance(c, Card) else str(c) for c in built.get(section, [])]
        for section in DECK_SECTIONS
    }
    problems = check_deck(pod, seat, deck, db=db)
    if problems:  # should never happen: the bot builds from the pool by the rules
        logger.error("bot deck of %s breaks rules: %s", seat, problems)
    _save_deck(pod, seat, deck, problems, by_bot=True)


def _deck_cards(deck: Mapping[str, Any], db: CardDB) -> dict[str, list[Card]]:
    if not isinstance(deck, Mapping):
        raise PodError(_("The deck is malformed."))
    out: dict[str, list[Card]] = {}
    for section in DECK_SECTIONS:
        ids = deck.get(section) or []
        if isinstance(ids, str) or not isinstance(ids, Iterable):
            raise PodError(_("The deck is malformed."))
        cards = []
        for card_id in ids:
            try:
                cards.append(db.card(str(card_id)))
            except KeyError:
                raise PodError(_("Unknown card %(id)s.") % {"id": card_id}) from None
        out[section] = cards
    return out


def check_deck(
    pod: Pod,
    seat: Seat,
    deck: Mapping[str, Any],
    *,
    db: CardDB | None = None,
    lang: str | None = None,
) -> list[dict[str, Any]]:
    """Every broken rule of 4.5.5 (Draft; sealed decks follow the same rules), with the
    seat's pool (and any Cities the organiser supplied, AMB-05) as the only source of
    cards. [] means legal."""
    from engine.core import registry
    from engine.voskhozhdenie.decks import ParsedDeck

    db = db or card_db(pod)
    cards = _deck_cards(deck, db)
    checker = registry.get(pod.game_system).load("decks")
    parsed = ParsedDeck.of(cards["cities"], cards["main"], cards["reinforcement"])
    violations = checker.check(
        parsed, "draft", db, pool=Counter(deck_pool(pod, seat.number)), language=lang or language()
    )
    return [v.as_dict() for v in violations]


def deck_text(deck: Mapping[str, Sequence[str]], db: CardDB, lang: str = "en") -> str:
    """The plain-text list the deck checker reads (and players can copy)."""
    titles = {"cities": "Cities", "main": "Main deck", "reinforcement": "Reinforcements"}
    if lang == "ru":
        titles = {"cities": "Города", "main": "Основная колода", "reinforcement": "Подкрепления"}
    lines: list[str] = []
    for section in DECK_SECTIONS:
        counts = Counter(deck.get(section) or [])
        if not counts:
            continue
        lines.append(titles[section])
        for card_id, n in sorted(counts.items(), key=lambda item: db.card(item[0]).name(lang)):
            lines.append(f"{n} {db.card(card_id).name(lang)}")
        lines.append("")
    return "\n".join(lines).strip() + "\n"


def _deck_input(*sections: Any) -> dict[str, list[str]]:
    deck = {}
    for name, ids in zip(DECK_SECTIONS, sections, strict=True):
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
            record_limited_decklist(seat.registration, deck_text(deck, card_db(pod)), problems)
        except TournamentError as exc:
            raise PodError(str(exc)) from None


def submit_deck(
    user: User, pod: Pod, cities: Sequence[str], main: Sequence[str], reinforcement: Sequence[str]
) -> Seat:
    """Save the player's deck if it is legal under 4.5.5 with their pool; else refuse with
    every problem (``PodError.problems``) and change nothing."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in first."))
    deck = _deck_input(cities, main, reinforcement)
    with transaction.atomic():
        pod = _lock_pod(pod)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
            raise PodError(_("Deck building starts when the draft is over."))
        if pod.status == Pod.Status.FINISHED:
            raise PodError(_("Deck building is over for this pod."))
        db = card_db(pod)
        problems = check_deck(pod, seat, deck, db=db)
        if problems:
            raise PodError(_("This deck is not legal yet."), problems)
        _save_deck(pod, seat, deck, problems, by_bot=False)
        _maybe_finish(pod)
        _notify(pod.pk, overview=True, seats=[seat.number])
    return seat


def _maybe_finish(pod: Pod) -> bool:
    """Finish the pod once every seat has a deck."""
    if pod.status != Pod.Status.BUILDING:
        return False
    if pod.seats.filter(deck__isnull=True).exists():
        return False
    pod.set_status(Pod.Status.FINISHED)
    pod.finished_at = timezone.now()
    pod.save(update_fields=["status", "finished_at", "updated_at"])
    _notify(pod.pk, overview=True, seats=range(pod.seats_count))
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
        db = card_db(pod)
        for seat in pod.seats.filter(deck__isnull=True):
            _bot_deck(pod, seat, db)
        return _maybe_finish(pod)


# ---------------------------------------------------------------- reading


def seat_progress(pod: Pod, seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """Per seat, what anybody may see: picks made, packs waiting, deck status. No cards."""
    state = pod.state
    waiting = draft_core.waiting_on(state) if state and pod.status == Pod.Status.DRAFTING else {}
    rows = []
    for seat in seats:
        row: dict[str, Any] = {"seat": seat, "picks": 0, "queue": 0, "waiting_on": None}
        if state and not pod.is_sealed:
            row["picks"] = len(state["pools"][seat.number])
            row["queue"] = len(state["queues"][seat.number])
            row["cards_in_pack"] = draft_core.picks_left_in_pack(state, seat.number)
            row["waiting_on"] = waiting.get(seat.number)
        elif state:
            row["picks"] = len(state["pools"][seat.number])
        rows.append(row)
    return rows


def can_see_picks(user: User | None, pod: Pod, seat: Seat) -> bool:
    """Whose picks may this person see? Their own at any time; the organiser's once the
    draft is over, unless the organiser drafts in the pod too (then, like every drafter,
    only once the pod has finished); everybody's once the pod has finished, unless its
    event still runs."""
    if user is not None and user.is_authenticated and seat.user_id == user.pk:
        return True
    if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
        return False
    if pod.status != Pod.Status.FINISHED and seat_of(user, pod) is not None:
        return False  # a drafter, whatever else they are
    if can_manage(user, pod):
        return True
    if pod.status != Pod.Status.FINISHED:
        return False
    if pod.event_id is None:
        return True

    return pod.event.status == Event.Status.FINISHED


def pick_log(pod: Pod, seat: Seat) -> list[dict[str, Any]]:
    """The seat's picks in order, each with the pack as the seat saw it."""
    return [
        {
            "round": p.booster_round + 1,
            "pick": i,
            "number": p.pick_number,
            "pack": p.pack_id,
            "card": p.card_id,
            "pack_cards": p.pack_cards,
            "auto": p.auto,
            "at": p.picked_at.isoformat(),
        }
        for i, p in enumerate(seat.picks.order_by("pick_number"), start=1)
    ]


# ---------------------------------------------------------------- live pages


def pod_group(pod_id: int) -> str:
    return f"draft-{pod_id}"


def player_group(pod_id: int, user_id: int) -> str:
    """A seated player's sockets. Keyed by user, not seat number: a casual pod draws its
    seat numbers at the start, after the player's page may have connected."""
    return f"draft-{pod_id}-user-{user_id}"


def _send(groups: list[tuple[str, str]], redirect: str | None = None) -> None:
    # A page missing one refresh must never undo a saved pick (``push`` logs and drops).
    messages = []
    for group, what in groups:
        message = {"type": "draft.changed", "what": what}
        if redirect and what == "seat":
            message["redirect"] = redirect
        messages.append((group, message))
    push.send(messages)


def pack_message(pod: Pod, seat: Seat, pack: Mapping[str, Any]) -> dict[str, Any]:
    """What a seated player's page needs to show the pack they now face. Sent to that
    player's group only (see ``drafting.consumers``, which renders it in their language)."""
    state = pod.state
    return {
        "type": "draft.pack",
        "pod": pod.pk,
        "system": pod.game_system,
        "seat": seat.number,
        "pick": draft_core.pick_number(state, seat.number),
        "round": pack["round"],
        "rounds": state["rounds"],
        "round_pick": draft_core.round_pick_number(state, seat.number),
        "queue": len(state["queues"][seat.number]),
        "cards": list(pack["cards"]),
        "deadline": seat.pick_deadline.isoformat() if seat.pick_deadline else None,
        "review_until": review.isoformat() if (review := review_until(pod, seat, pack)) else None,
        "highlighted": seat.highlighted,
    }


PROGRESS_EVERY = 2.0  # seconds: a pod's progress goes to its pages at most this often


def _send_after_pick(pod_id: int, packs: list[tuple[str, dict]], progress: dict) -> None:
    """The packs to the players who now face them; the pod's progress to all its pages,
    at most once per ``PROGRESS_EVERY`` seconds per process (every page of the pod hears
    it, so unthrottled it would be most of the channel layer's traffic; the counts are
    cosmetic, and the last one offered in an interval goes out at its end)."""
    push.send(packs)
    push.send_latest(("draft-progress", pod_id), pod_group(pod_id), progress, PROGRESS_EVERY)


def progress_message(pod: Pod, seats: Iterable[Seat]) -> dict[str, Any]:
    """Every seat's public progress (picks made, packs held, whom it waits on), no cards."""
    state = pod.state
    waiting = draft_core.waiting_on(state)
    rows = [
        [len(state["pools"][n]), len(state["queues"][n]), waiting.get(n)]
        for n in range(state["seats"])
    ]
    return {"type": "draft.progress", "pod": pod.pk, "rows": rows}


def _notify(
    pod_id: int, *, overview: bool = False, seats: Iterable[int] = (), redirect: str | None = None
) -> None:
    """After commit: tell the players of the listed seats and (``overview``) the pod's group.

    With ``redirect`` the players' pages go there instead of fetching their panel again
    (the draft's end takes everyone to deck building, as the last pick's answer does).
    """
    numbers = list(seats)
    users = []
    if numbers:
        users = Seat.objects.filter(pod_id=pod_id, number__in=numbers, user__isnull=False)
        users = list(users.values_list("user_id", flat=True))
    groups = [(player_group(pod_id, user_id), "seat") for user_id in users]
    if overview:
        groups.append((pod_group(pod_id), "pod"))
    if groups:
        transaction.on_commit(lambda: _send(groups, redirect))
