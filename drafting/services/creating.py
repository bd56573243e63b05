"""Creating pods: a casual pod's settings checked, a quick pod against bots, and the pods
of a limited event (Draft or Sealed) seated from its registrations, drawn from the
event's seed so the event can be made again exactly.
"""

from __future__ import annotations

import math
import random
from typing import Any

from django.db import transaction
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from drafting.models import MAX_SEATS, MIN_SEATS, Pod, Seat
from drafting.services.errors import NotAllowed, PodError
from drafting.services.kits import kit_for
from drafting.services.messages import notify
from drafting.services.pods import User, check_event_organiser
from drafting.services.starting import start_pod
from engine.core import registry
from engine.core.limited import LimitedError
from tournaments.models import AuditEntry, Event, Registration
from tournaments.services.common import audit, said
from tournaments.services.decklists import is_limited

POD_SIZE = 8  # players per pod of a Draft event


def default_set_codes(game_system: str, kind: str = Pod.Kind.DRAFT) -> list[str]:
    """The boosters a pod of this game opens by default (``GameSystemInfo.draft_sets``,
    ``boosters_per_player`` / ``sealed_boosters`` in the registry): one set code each."""
    try:
        info = registry.get(game_system)
    except registry.UnknownGameSystem:  # a forged form: said, not a server error
        raise PodError(_("Unknown game: %(key)s.") % {"key": game_system}) from None
    count = info.sealed_boosters if kind == Pod.Kind.SEALED else info.boosters_per_player
    if not info.limited or not info.draft_sets or not count:
        raise PodError(
            _("%(game)s has no boosters to draft.") % {"game": info.label(get_language() or "en")}
        )
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
        system = fields.get("game_system") or registry.default_drafting_system().key
        limited = kit_for(system)
        size = limited.pool_size(codes)
    except LimitedError as exc:
        raise PodError(_("These boosters cannot be opened: %(e)s") % {"e": exc}) from None
    except (registry.UnknownGameSystem, ValueError) as exc:
        raise PodError(str(exc)) from None
    if size < limited.min_pool:
        raise PodError(
            _("These boosters give %(n)d cards; a deck needs at least %(min)d.")
            % {"n": size, "min": limited.min_pool}
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
        notify(pod.pk, overview=True)
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
    check_event_organiser(actor, event)
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
                # No stored name: ``Pod.__str__`` names an event's pod in the reader's
                # language ("Demo Open · pod 2", "Demo Open · стол 2").
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
        line = (
            gettext_noop("Sealed pods made: %(pods)s; players: %(count)s")
            if kind == "sealed"
            else gettext_noop("Draft pods made: %(pods)s; players: %(count)s")
        )
        audit(
            event,
            actor,
            AuditEntry.Action.EDIT,
            said(line, pods=len(pods), count=len(regs)),
            pods=[p.pk for p in pods],
            set_codes=fields["set_codes"],
        )
    return pods
