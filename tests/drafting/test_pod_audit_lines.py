"""The event log's lines about an event's pods are kept as catalogue messages, so a
reader sees them in their own language (decision 0057), not in the English they were
written in."""

from __future__ import annotations

import pytest
from django.utils import translation

from drafting.services.creating import create_event_pods
from drafting.services.pools import set_supplied_cards, supply_choices
from drafting.services.seats import hand_to_bot
from drafting.services.starting import start_event_pods
from tournaments.models import AuditEntry

from .test_pods import draft_event

pytestmark = pytest.mark.django_db


def test_pod_lines_of_the_event_log_are_messages_shown_in_the_readers_language(alice, bob, charlie):
    event, _regs = draft_event(alice, [bob, charlie], bots=1)
    (pod,) = create_event_pods(alice, event)
    card = supply_choices(pod)[0]
    set_supplied_cards(alice, pod, [card])
    set_supplied_cards(alice, pod, [])
    start_event_pods(alice, event)
    human = pod.seats.filter(is_bot=False).order_by("number").first()
    assert hand_to_bot(alice, pod.pk, human.number)

    entries = list(AuditEntry.objects.filter(event=event).order_by("pk"))
    pod_lines = [e for e in entries if "pod" in e.summary]
    assert len(pod_lines) == 5
    # Every one is a message with its parameters, not a fixed English line.
    assert all(e.message for e in pod_lines), [e.summary for e in pod_lines if not e.message]
    with translation.override("en"):
        texts = [e.text for e in pod_lines]
    assert texts[0] == "Draft pods made: 1; players: 3"
    assert texts[1] == f"Supplied cards of draft pod 1: {card}"
    assert texts[2] == "No supplied cards in draft pod 1"
    assert texts[3] == "Started draft pod 1"
    assert texts[4] == f"Handed seat {human.number + 1} of draft pod 1 ({human.name}) to a bot"
    # The pod is named by its number, not by its stored name (written in the language of
    # the organiser who made it), so no English word is left in a Russian line.
    assert all("Draft Night" not in str(e.params) for e in pod_lines)
