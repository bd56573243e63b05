"""``/api/`` answers with where the API begins (it was a 404): every link it gives leads
somewhere real, for an anonymous client too (the notifications refuse it: they are a logged-in person's)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_api_root_links_to_the_docs_the_schema_and_the_collections():
    client = Client()
    response = client.get("/api/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    links = response.json()
    assert set(links) == {"docs", "redoc", "schema", "events", "series", "notifications"}
    for key, url in links.items():
        assert url.startswith("http://testserver/api/"), (key, url)
        status = client.get(url.removeprefix("http://testserver")).status_code
        assert status == (403 if key == "notifications" else 200), (key, status)
