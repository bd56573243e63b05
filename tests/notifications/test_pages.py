"""The notices' pages, API and socket: each user sees and marks only their own."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from notifications import services
from notifications.models import Notice, Preferences

pytestmark = pytest.mark.django_db

DATA = {"event": "Page Cup", "slug": "page-cup", "round": 2, "table": 4, "opponents": ["Vera"]}


def notice_for(user, key="round:1", **fields) -> Notice:
    return Notice.objects.create(
        user=user,
        kind=Notice.Kind.ROUND_PUBLISHED,
        key=key,
        data=DATA,
        url="/events/page-cup/my-match/",
        **fields,
    )


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/notifications/"),
        ("get", "/notifications/settings/"),
        ("post", "/notifications/read/"),
        ("post", "/notifications/read-all/"),
        ("post", "/notifications/settings/"),
    ],
)
def test_anonymous_visitors_are_sent_to_log_in(client, method, url):
    response = getattr(client, method)(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_the_list_shows_only_the_readers_own_notices(client, bob, charlie):
    notice_for(bob)
    notice_for(charlie, key="round:2")
    notice_for(bob, key="round:3", in_browser=False)  # e-mail only
    client.force_login(bob)
    response = client.get("/notifications/")
    assert response.status_code == 200
    text = response.content.decode()
    assert text.count('class="notice-item unread"') == 1
    assert "Round 2 of Page Cup is published" in text
    assert "Table 4, against Vera." in text
    assert "1 unread" in text


def test_the_list_reads_in_the_pages_language(client, bob):
    notice_for(bob)
    client.force_login(bob)
    text = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Раунд 2" in text


def test_a_reader_marks_their_notice_read_but_not_anothers(client, bob, charlie):
    own = notice_for(bob)
    other = notice_for(charlie, key="round:2")
    client.force_login(bob)

    response = client.post("/notifications/read/", {"notice": other.pk})
    assert response.status_code == 404
    other.refresh_from_db()
    assert other.read_at is None

    for junk in ("", "abc", "-1", str(2**70)):
        assert client.post("/notifications/read/", {"notice": junk}).status_code == 404

    response = client.post("/notifications/read/", {"notice": own.pk})
    assert response.status_code == 302 and response["Location"] == "/notifications/"
    own.refresh_from_db()
    assert own.read_at is not None
    first_read = own.read_at
    client.post("/notifications/read/", {"notice": own.pk})  # again: no change
    own.refresh_from_db()
    assert own.read_at == first_read

    # "Open" marks it read and goes to the page it is about; a foreign "next" is ignored.
    third = notice_for(bob, key="round:3")
    response = client.post("/notifications/read/", {"notice": third.pk, "open": "1"})
    assert response["Location"] == "/events/page-cup/my-match/"
    fourth = notice_for(bob, key="round:4")
    response = client.post(
        "/notifications/read/", {"notice": fourth.pk, "next": "https://elsewhere.test/"}
    )
    assert response["Location"] == "/notifications/"


def test_mark_all_read_marks_only_the_readers_own(client, bob, charlie):
    notice_for(bob)
    notice_for(bob, key="round:2")
    theirs = notice_for(charlie, key="round:3")
    client.force_login(bob)
    assert client.post("/notifications/read-all/").status_code == 302
    assert not Notice.objects.filter(user=bob, read_at__isnull=True).exists()
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_the_settings_page_saves_opt_outs_per_kind_and_channel(client, bob):
    client.force_login(bob)
    page = client.get("/notifications/settings/")
    assert page.status_code == 200
    assert page.content.decode().count('type="checkbox"') == 2 * len(Notice.Kind.values)
    wanted = {
        f"{kind}:{channel}": "1"
        for kind in Notice.Kind.values
        for channel in services.CHANNELS
        if (kind, channel) != ("decklist_due", "email")
    }
    response = client.post("/notifications/settings/", {**wanted, "language": "ru"})
    assert response.status_code == 302
    prefs = Preferences.objects.get(user=bob)
    assert prefs.muted == ["decklist_due:email"]
    assert prefs.language == "ru"
    # A language the site does not have is refused, and nothing changes.
    response = client.post("/notifications/settings/", {"language": "xx"}, follow=True)
    assert "Unknown language" in response.content.decode()
    prefs.refresh_from_db()
    assert (prefs.muted, prefs.language) == (["decklist_due:email"], "ru")


def test_the_header_links_the_list_for_logged_in_users_only(client, bob):
    assert "/notifications/" not in client.get("/").content.decode()
    client.force_login(bob)
    text = client.get("/").content.decode()
    assert 'href="/notifications/"' in text and "js/notifications.js" in text


def test_logging_in_records_the_language(client, bob):
    client.post(
        "/accounts/login/",
        {"username": "bob", "password": "pw-bob"},
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert Preferences.objects.get(user=bob).last_language == "ru"


# ---------------------------------------------------------------- the API


def test_the_api_lists_and_marks_only_the_callers_notices(bob, charlie):
    own = notice_for(bob)
    other = notice_for(charlie, key="round:2")
    api = APIClient()
    assert api.get("/api/notifications/").status_code in (401, 403)
    api.force_authenticate(bob)
    body = api.get("/api/notifications/").json()
    assert [n["id"] for n in body["results"]] == [own.pk]
    assert body["results"][0]["title"] == "Round 2 of Page Cup is published"
    assert api.post("/api/notifications/read/", {"notice": other.pk}).status_code == 404
    response = api.post("/api/notifications/read/", {"notice": own.pk}, format="json")
    assert response.status_code == 200 and response.json()["read"] is True
    assert api.get("/api/notifications/?unread=true").json()["results"] == []
    assert api.post("/api/notifications/read/", {}, format="json").status_code == 400
    assert api.post("/api/notifications/read-all/").json() == {"marked": 0}
    other.refresh_from_db()
    assert other.read_at is None


def test_the_api_reads_and_changes_the_settings(bob):
    api = APIClient()
    api.force_authenticate(bob)
    assert api.get("/api/notifications/settings/").json() == {"muted": [], "language": ""}
    body = {"muted": ["result_to_confirm:browser"], "language": "en"}
    assert api.put("/api/notifications/settings/", body, format="json").json() == body
    bad = api.put(
        "/api/notifications/settings/", {"muted": ["nope:email"], "language": ""}, format="json"
    )
    assert bad.status_code == 400 and "nope:email" in bad.json()["detail"]
    assert api.get("/api/notifications/settings/").json() == body


def test_the_schema_describes_the_notices(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("", "read/", "read-all/", "settings/"):
        assert f"/api/notifications/{path}" in schema["paths"]
    assert "put" in schema["paths"]["/api/notifications/settings/"]


# ---------------------------------------------------------------- the socket


def communicator(user, lang="ru") -> WebsocketCommunicator:
    from config.asgi import application

    comm = WebsocketCommunicator(
        application,
        f"/ws/notifications/?lang={lang}",
        headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")],
    )
    comm.scope["user"] = user if user is not None else AnonymousUser()
    return comm


@pytest.mark.django_db(transaction=True)
def test_the_socket_tells_its_own_user_only(bob, charlie, own_channel_layer):
    notice_for(bob)

    async def scenario():
        anonymous = communicator(None)
        connected, _code = await anonymous.connect()
        assert not connected

        mine, theirs = communicator(bob), communicator(charlie)
        assert (await mine.connect())[0] and (await theirs.connect())[0]
        assert await mine.receive_json_from(timeout=5) == {"unread": 1}
        assert await theirs.receive_json_from(timeout=5) == {"unread": 0}
        await get_channel_layer().group_send(
            services.user_group(bob.pk), {"type": "notice.new", "notice": {"id": 1}}
        )
        assert await mine.receive_json_from(timeout=5) == {"notice": {"id": 1}}
        assert await theirs.receive_nothing(timeout=0.5)
        await mine.disconnect()
        await theirs.disconnect()

    async_to_sync(scenario)()
    # Opening the socket recorded the page's language.
    assert Preferences.objects.get(user=bob).last_language == "ru"
