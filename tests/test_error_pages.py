"""The pages a refused or unknown address answers with are the site's own, in the
reader's language, and say why (not a bare English "403 Forbidden")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.tournaments.factories import make_event

pytestmark = pytest.mark.django_db


def russian(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "ru"
    if user is not None:
        client.force_login(user)
    return client


def in_russian(msgid: str) -> str:
    with translation.override("ru"):
        return gettext(msgid)


def test_a_player_opening_the_console_is_told_why_in_their_language(alice, bob):
    event, _ = make_event(alice, players=2)
    response = russian(bob).get(reverse("tournaments:manage", args=[event.slug]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Forbidden" not in page
    assert "Открыть управление турниром могут только его организаторы и судьи." in page
    assert 'class="topbar"' in page  # the site's page: its menu leads on
    assert reverse("tournaments:event_list") in page


def test_the_staff_dashboard_refuses_a_non_staff_user_with_the_sites_page(bob):
    response = russian(bob).get(reverse("dashboard:home"))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Forbidden" not in page
    assert f"<h1>{in_russian('Not allowed')}</h1>" in page


def test_an_unknown_address_answers_with_the_sites_page(bob):
    response = russian(bob).get("/events/no-such-event/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Not Found" not in page
    assert f"<h1>{in_russian('Page not found')}</h1>" in page
    assert 'class="topbar"' in page
