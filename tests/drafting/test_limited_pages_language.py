"""What the draft pages say in the reader's language, whoever's process made the change."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from drafting import draft as draft_core
from drafting.services import changes
from drafting.services.picks import auto_pick, make_pick
from drafting.views import pack_context_from_message

from .test_pods import fresh, started_pod

pytestmark = pytest.mark.django_db


def test_a_pushed_pack_names_the_bot_neighbours_in_the_readers_language(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    """The pack a bot passes on is announced by the process that ran the bot (a worker,
    or a request in another player's language): the player's page still names the bots
    beside them in its own language ("Bot N" in English, not "Бот N")."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(changes, "send_after_pick", lambda _pod, packs, _p: sent.extend(packs))
    pod, seat, pack = started_pod(alice, game_system="berserk")
    make_pick(alice, pod, 1, pack["cards"][0])
    pod = fresh(pod)
    upstream = draft_core.upstream(seat.number, pod.state["seats"], pod.state["round"])
    with django_capture_on_commit_callbacks(execute=True), translation.override("ru"):
        auto_pick(pod.pk, upstream, draft_core.pick_number(pod.state, upstream))
    (message,) = [m for _group, m in sent if m["seat"] == seat.number]
    with translation.override("en"):
        line = render_to_string("drafting/_passing.html", pack_context_from_message(message))
    assert f"from Bot {upstream + 1} (seat {upstream + 1})" in line
    assert "Бот" not in line
    with translation.override("ru"):
        line = render_to_string("drafting/_passing.html", pack_context_from_message(message))
    assert f"Бот {upstream + 1}" in line and "Bot" not in line


def test_the_pod_form_shows_each_games_own_boosters_as_the_example(client, alice):
    """The pod form offers every drafting game: its boosters' example names each game's
    own sets, so a Berserk organiser is not told to type Восхождение's "VS1" (which a
    Berserk pod refuses as an unknown set)."""
    client.force_login(alice)
    page = client.get("/draft/new/").content.decode()
    assert "“VS1 VS1 VS1 VS1” (sealed: 6)" in page
    assert "“BK1 BK1 BK1” (sealed: 6)" in page
    berserk = page.index("“BK1 BK1 BK1”")
    assert "Berserk" in page[berserk - 40 : berserk]


def test_a_seat_without_an_account_is_shown_as_picked_by_a_bot(client, alice, bob):
    """A player the organiser added by name only cannot log in to pick: a bot picks for
    the seat, and the pod's table says so instead of showing them as drafting."""
    from drafting.services.creating import create_event_pods
    from drafting.services.starting import start_event_pods
    from tournaments.services.players import register

    from .test_pods import draft_event

    event, _regs = draft_event(alice, [bob])
    register(event, display_name="Guest Ann", actor=alice)
    (pod,) = create_event_pods(alice, event)
    start_event_pods(alice, event)
    guest = pod.seats.get(display_name="Guest Ann")
    assert guest.picked_by_bot and not guest.is_bot
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/manage/").content.decode()
    row = page[page.index('data-name="Guest Ann"') :]
    row = row[: row.index("</tr>")]
    assert "no account: bot picks" in row
    bob_row = page[page.index('data-name="bob"') :]
    assert "no account" not in bob_row[: bob_row.index("</tr>")]


def test_a_quick_pod_of_an_unknown_game_is_refused_not_a_server_error(client, alice):
    client.force_login(alice)
    client.cookies["django_language"] = "ru"
    response = client.post("/draft/quick/", {"kind": "draft", "game_system": "nope"}, follow=True)
    assert response.status_code == 200
    assert "Неизвестная игра: nope." in response.content.decode()


@pytest.mark.django_db
def test_a_sealed_pods_tab_says_sealed_not_draft(client, alice):
    from drafting.models import Pod
    from drafting.services.creating import quick_pod

    sealed, draft = quick_pod(alice, kind=Pod.Kind.SEALED), quick_pod(alice)
    client.force_login(alice)
    tab = '<a href="/draft/{}/">{}</a>'
    for page in ("/draft/{}/", "/draft/{}/deck/", "/draft/{}/manage/"):
        text = client.get(page.format(sealed.pk)).content.decode()
        assert tab.format(sealed.pk, "Sealed") in text, page
        assert tab.format(sealed.pk, "Draft") not in text, page
    assert tab.format(draft.pk, "Draft") in client.get(f"/draft/{draft.pk}/").content.decode()
