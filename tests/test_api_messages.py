"""The API's refusals of an event's game and format are in the client's language (the
rules engine's own messages are English), as the rest of its messages are."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def russian_client(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_authenticate(user)
    return client


def test_an_unknown_game_is_refused_in_the_clients_language(alice):
    response = russian_client(alice).post(
        "/api/events/", {"name": "Odd", "game_system": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "Игры nope нет."}


def test_a_format_the_game_lacks_is_refused_in_the_clients_language(alice):
    response = russian_client(alice).post(
        "/api/events/", {"name": "Odd", "game_system": "tactics", "format": "draft"}, format="json"
    )
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith("В игре ") and detail.endswith(" нет формата draft.")
