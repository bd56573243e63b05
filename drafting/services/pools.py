"""Pools: the cards a seat drafted (or opened, in sealed), what it builds its deck from,
and the cards the organiser supplies to every seat (the kit's ``supply``, e.g.
«Восхождение»'s Cities).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from drafting.models import Pod, Seat
from drafting.services.errors import PodError
from drafting.services.kits import kit, language
from drafting.services.messages import notify
from drafting.services.pods import User, check_manager, lock_pod
from tournaments.models import AuditEntry
from tournaments.services.common import audit, said


def pool(pod: Pod, seat_number: int) -> list[str]:
    if not pod.state:
        return []
    return list(pod.state["pools"][seat_number])


def pool_of(pod: Pod, seat: Seat) -> list[str]:
    return pool(pod, seat.number)


def deck_pool(pod: Pod, seat_number: int) -> list[str]:
    """What a seat builds from: its pool, plus the cards the organiser supplied (the kit's
    ``supply``, e.g. «Восхождение»'s Cities), ``copies`` of each."""
    rule = kit(pod).supply if pod.supplied_cards else None
    copies = rule.copies if rule else 0
    supplied = [c for c in pod.supplied_cards or () for _copy in range(copies)]
    return pool(pod, seat_number) + supplied


def deck_pool_of(pod: Pod, seat: Seat) -> list[str]:
    return deck_pool(pod, seat.number)


def deck_needs(pod: Pod, seat: Seat, lang: str | None = None) -> list[dict[str, Any]]:
    """What every legal deck needs from the seat's pool (with any supplied cards), and how
    much of it the pool has so far (the kit's ``deck_needs``): for the draft room."""
    lang = lang or language()
    return [
        {
            "key": need.key,
            "name": need.label(lang),
            "have": need.have,
            "need": need.need,
            "missing": need.missing,
            "met": need.met,
            "rule": need.rule,
        }
        for need in kit(pod).deck_needs(deck_pool(pod, seat.number))
    ]


def supply_choices(pod: Pod) -> list[str]:
    """The cards an organiser may supply for this pod's sets (none if the game has no
    ``supply``), by name in the page's language."""
    limited = kit(pod)
    if limited.supply is None:
        return []
    lang = language()
    ids = limited.supply_choices(pod.set_codes or ())
    return sorted(ids, key=lambda card_id: limited.face(card_id, lang).name)


def set_supplied_cards(user: User, pod: Pod, card_ids: Sequence[Any]) -> Pod:
    """The organiser supplies a fixed list of cards every player may use besides their
    pool (the kit's ``supply``: for «Восхождение», Cities, AMB-05); an empty list means
    none (the default). Changeable until deck building starts."""
    check_manager(user, pod)
    rule = kit(pod).supply
    if rule is None:
        raise PodError(_("This game has no cards an organiser can supply."))
    if not isinstance(card_ids, list | tuple) or len(card_ids) > rule.most:
        raise PodError(
            _("Choose at most %(n)d %(what)s.") % {"n": rule.most, "what": rule.label(language())}
        )
    with transaction.atomic():
        pod = lock_pod(pod)
        if pod.status not in (Pod.Status.WAITING, Pod.Status.DRAFTING):
            raise PodError(_("The supplied cards can only be changed until deck building starts."))
        allowed = set(supply_choices(pod))
        chosen: list[str] = []
        for card_id in card_ids:
            if not isinstance(card_id, str) or card_id not in allowed:
                raise PodError(_("Only cards of this pod's sets can be supplied."))
            if card_id not in chosen:
                chosen.append(card_id)
        pod.supplied_cards = chosen
        pod.save(update_fields=["supplied_cards", "updated_at"])
        if pod.event_id is not None:
            line = (
                said(
                    gettext_noop("Supplied cards of draft pod %(number)s: %(cards)s"),
                    number=pod.number,
                    cards=", ".join(chosen),
                )
                if chosen
                else said(
                    gettext_noop("No supplied cards in draft pod %(number)s"), number=pod.number
                )
            )
            audit(pod.event, user, AuditEntry.Action.EDIT, line, pod=pod.pk, supplied_cards=chosen)
        notify(pod.pk, overview=True)
    return pod
