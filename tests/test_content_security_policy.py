"""The Content-Security-Policy header (django-csp, config.security) and pages it holds.

The header: the site's own scripts and styles only, no inline script or style and no
eval, images from the site and data: URLs, fetches and websockets to the page's own
host, no framing, forms posting to the site only. The pages: no inline script, event
handler, style attribute or ``<style>`` element in any template or rendered page, and no
htmx trigger filter (htmx evaluates those as code). The browser tests
(tests/browser/conftest.py) fail on any violation Chromium reports while they walk
the pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from play.services.starting import create_bot_game
from tests.dashboard.helpers import bot_game, drafting_pod, running_event

pytestmark = pytest.mark.django_db

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", "ws://testserver"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
}


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = [part.strip().split() for part in header.split(";") if part.strip()]
    return {words[0]: words[1:] for words in parts}


# ---------------------------------------------------------------- the header


def test_every_kind_of_page_carries_the_strict_policy(make_user):
    staff = make_user("sam", is_staff=True)
    event = running_event(staff)
    pod = drafting_pod(staff)
    game = bot_game(staff)
    anonymous, member = Client(), Client()
    member.force_login(staff)
    pages = [
        (anonymous, "/"),
        (anonymous, "/accounts/login/"),
        (anonymous, "/accounts/signup/"),
        (anonymous, f"/events/{event.slug}/"),
        (anonymous, f"/events/{event.slug}/standings/?fragment=1"),  # an htmx fragment
        (anonymous, "/api/events/"),
        (anonymous, "/api/docs/"),
        (member, f"/events/{event.slug}/manage/"),
        (member, f"/draft/{pod.pk}/"),
        (member, f"/play/{game.pk}/"),
        (member, "/play/"),
        (member, "/staff/"),
        (member, "/admin/"),
    ]
    for client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert policy(response) == STRICT, url


def test_over_https_the_websocket_source_is_wss():
    response = Client().get("/accounts/login/", secure=True)

    assert policy(response)["connect-src"] == ["'self'", "wss://testserver"]


def test_the_websocket_source_is_the_requests_own_host(settings):
    settings.ALLOWED_HOSTS = ["testserver", "play.example"]

    response = Client().get("/accounts/login/", HTTP_HOST="play.example:8443")

    assert policy(response)["connect-src"] == ["'self'", "ws://play.example:8443"]


def test_a_host_that_is_not_allowed_gets_400_not_a_crash():
    response = Client().get("/accounts/login/", HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert "evil.example" not in response.get("Content-Security-Policy", "")


def test_redoc_alone_may_use_inline_styles_a_blob_worker_and_its_logo():
    response = Client().get("/api/redoc/")

    assert response.status_code == 200
    assert policy(response) == {
        **STRICT,
        "style-src": ["'self'", "'unsafe-inline'"],
        "worker-src": ["'self'", "blob:"],
        "img-src": ["'self'", "data:", "https://cdn.redoc.ly"],  # its logo, in every page
    }
    assert b"fonts.googleapis.com" not in response.content  # nothing fetched from elsewhere


def test_no_policy_anywhere_allows_inline_scripts_or_eval():
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]

    assert all("'unsafe-inline'" not in v and "'unsafe-eval'" not in v for v in directives.values())
    response = Client().get("/api/redoc/")
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy(response)["script-src"]


# ---------------------------------------------------------------- the pages


TEMPLATE_DIRS = [
    Path(settings.BASE_DIR) / "templates",
    *sorted(Path(settings.BASE_DIR).glob("*/templates")),
]
INLINE = {
    "an inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "an event handler attribute": re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I),
    "a style attribute": re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I),
    "a <style> element": re.compile(r"<style[\s>]", re.I),
    "a javascript: URL": re.compile(r"""=\s*["']?\s*javascript:""", re.I),
    "an htmx attribute run as code": re.compile(r"\shx-on[:\-]|\bjs:|hx-trigger=\"[^\"]*\[", re.I),
}


def offences(html: str) -> list[str]:
    html = re.sub(r"<script type=\"application/(?:ld\+)?json\"", "<script src=data", html)
    return [what for what, pattern in INLINE.items() if pattern.search(html)]


def test_the_checks_catch_what_the_policy_refuses():
    assert offences('<button onclick="go()">') == ["an event handler attribute"]
    assert offences("<script>alert(1)</script>") == ["an inline script"]
    assert offences('<p class="x" style="color: red">') == ["a style attribute"]
    assert offences("<style>p{}</style>") == ["a <style> element"]
    assert offences('<div hx-trigger="live[!this.contains(document.activeElement)]">') == [
        "an htmx attribute run as code"
    ]
    assert offences('<script src="/static/js/play.js" defer></script>') == []


def test_no_template_holds_inline_code_or_styles():
    found = {}
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*.html"):
            if "drf_spectacular" in path.parts:
                continue  # Redoc's and Swagger UI's own pages: see config.security
            if bad := offences(path.read_text()):
                found[str(path.relative_to(settings.BASE_DIR))] = bad
    assert TEMPLATE_DIRS[0].is_dir() and len(TEMPLATE_DIRS) > 1
    assert found == {}


def test_no_rendered_page_holds_inline_code_or_styles(make_user):
    staff = make_user("sam", is_staff=True, is_superuser=True)
    event = running_event(staff)
    pod = drafting_pod(staff)
    game = bot_game(staff)
    table = create_bot_game(staff, "voskhozhdenie")
    client = Client()
    client.force_login(staff)
    urls = [
        "/",
        f"/events/{event.slug}/",
        f"/events/{event.slug}/pairings/",
        f"/events/{event.slug}/standings/",
        f"/events/{event.slug}/manage/",
        f"/draft/{pod.pk}/",
        f"/draft/{pod.pk}/manage/",
        f"/play/{game.pk}/",
        f"/play/{game.pk}/table/",
        f"/play/{table.pk}/",
        f"/play/{table.pk}/table/",
        "/play/",
        "/staff/",
        "/admin/",
        "/api/docs/",
    ]
    found = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        if bad := offences(response.content.decode()):
            found[url] = bad
    assert found == {}
