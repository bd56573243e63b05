"""The organiser's desk for real events: split finals, and pairings set by hand through
the API (tables, byes, table numbers, swaps), with their permissions, audit entries and
schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.models import AuditEntry, Event, EventStaff, Match, MatchSeat, Round
from tournaments.services.errors import PairingError, TournamentError
from tournaments.services.events import add_staff, create_event
from tournaments.services.pairing import pair_next_round, publish_round, set_pairings
from tournaments.services.players import drop, register
from tournaments.services.results import confirm_result, enter_result, report_result
from tournaments.services.standings import compute_rows
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def url(event: Event, tail: str) -> str:
    return f"/api/events/{event.slug}/{tail}"


def seats_of(rnd: Round) -> list[tuple[int, list[int]]]:
    tables: dict[int, list[int]] = {}
    for table, pid in (
        MatchSeat.objects.filter(round=rnd)
        .order_by("match__table", "seat")
        .values_list("match__table", "registration_id")
    ):
        tables.setdefault(table, []).append(pid)
    return sorted(tables.items())


@pytest.fixture
def judy(make_user, alice):
    return make_user("judy")


@pytest.fixture
def erin(make_user):
    return make_user("erin")


# ---------------------------------------------------------------- split finals


def _play_to_the_final(alice, users, **settings) -> tuple[Event, Match]:
    """A single-elimination event of four, its semifinals played: the final is ready."""
    event = create_event(alice, name="Cup", structure="single_elim", best_of=3, **settings)
    for user in users:
        register(event, user=user)
    start_event(alice, event)
    semis = publish_round(alice, pair_next_round(alice, event))
    for match in semis.matches.all():
        enter_result(alice, match, [0, 0])
    final_round = publish_round(alice, pair_next_round(alice, event))
    return event, final_round.matches.get()


def test_a_split_final_ends_the_event_with_both_finalists_sharing_first(
    alice, bob, charlie, dave, erin
):
    event, final = _play_to_the_final(alice, [bob, charlie, dave, erin], allow_split_finals=True)

    enter_result(alice, final, [None, None, None])

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    final.refresh_from_db()
    assert (final.status, final.winner_id, final.game_draws) == (Match.Status.FINAL, None, 3)
    finishes = {row.player: row.playoff_finish for row in compute_rows(event)}
    finalists = [seat.registration_id for seat in final.seats.all()]
    assert [finishes[p] for p in finalists] == [1, 1]
    assert sorted(finishes.values()) == [1, 1, 3, 3]
    entry = event.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE).first()
    assert entry.data["games"] == [None, None, None]
    assert entry.actor == alice


def test_the_finalists_may_agree_a_split_themselves_when_it_is_allowed(
    alice, bob, charlie, dave, erin
):
    event, final = _play_to_the_final(alice, [bob, charlie, dave, erin], allow_split_finals=True)
    first, second = (seat.registration.user for seat in final.seats.all())

    report_result(first, final, [None, None, None])
    confirm_result(second, final)

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_a_split_final_is_refused_unless_the_event_allows_it(alice, bob, charlie, dave, erin):
    event, final = _play_to_the_final(alice, [bob, charlie, dave, erin])
    assert event.allow_split_finals is False

    with pytest.raises(TournamentError, match="cannot end in a draw"):
        enter_result(alice, final, [None, None, None])

    final.refresh_from_db()
    assert (final.status, final.version) == (Match.Status.PENDING, 0)


def test_only_the_final_may_be_split_not_a_semifinal(alice, bob, charlie, dave, erin):
    event = create_event(
        alice, name="Cup", structure="single_elim", best_of=3, allow_split_finals=True
    )
    for user in (bob, charlie, dave, erin):
        register(event, user=user)
    start_event(alice, event)
    semi = publish_round(alice, pair_next_round(alice, event)).matches.first()

    with pytest.raises(TournamentError, match="cannot end in a draw"):
        enter_result(alice, semi, [None, None, None])
    response = client_for(alice).post(
        url(event, f"matches/{semi.pk}/result/"), {"games": [None]}, format="json"
    )
    assert response.status_code == 400
    semi.refresh_from_db()
    assert semi.status == Match.Status.PENDING


def test_a_double_elimination_grand_final_is_played_out(alice, bob, charlie):
    event = create_event(
        alice, name="Double", structure="double_elim", best_of=3, allow_split_finals=True
    )
    for user in (bob, charlie):
        register(event, user=user)
    start_event(alice, event)
    first = publish_round(alice, pair_next_round(alice, event)).matches.get()
    enter_result(alice, first, [0, 0])
    grand_final = publish_round(alice, pair_next_round(alice, event)).matches.get()

    with pytest.raises(TournamentError, match="cannot end in a draw"):
        enter_result(alice, grand_final, [None, None, None])


def test_only_organisers_change_the_split_setting(alice, bob):
    event = create_event(alice, name="Cup", structure="single_elim")

    assert client_for(bob).patch(url(event, ""), {"allow_split_finals": True}).status_code == 403
    response = client_for(alice).patch(url(event, ""), {"allow_split_finals": True})

    assert response.status_code == 200
    assert response.json()["allow_split_finals"] is True
    event.refresh_from_db()
    assert event.allow_split_finals is True


# ---------------------------------------------------------------- pairings by hand


@pytest.fixture
def draft(alice, judy, bob, charlie, dave, erin, make_user):
    """Five players (one bye a round), a judge, round 1 paired as a draft."""
    event = create_event(alice, name="Desk Open", swiss_rounds=3, best_of=3)
    add_staff(alice, event, judy, EventStaff.Role.JUDGE)
    regs = [register(event, user=u) for u in (bob, charlie, dave, erin, make_user("frank"))]
    start_event(alice, event)
    pair_next_round(alice, event)
    event.players = [r.pk for r in regs]
    return event


def test_the_organiser_sets_every_table_a_bye_and_the_table_numbers(draft, alice):
    a, b, c, d, e = draft.players
    tables = [
        {"players": [a, b], "table": 7},
        {"players": [c, d]},
        {"players": [e], "table": 12},
    ]

    response = client_for(alice).put(url(draft, "rounds/1/pairings/"), {"tables": tables}, "json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert [(m["table"], [s["registration"] for s in m["seats"]], m["is_bye"]) for m in body] == [
        (1, [c, d], False),
        (7, [a, b], False),
        (12, [e], True),
    ]
    entry = draft.audit.filter(action=AuditEntry.Action.SWAP).get()
    assert entry.actor == alice
    assert entry.summary == "Pairings of Round 1 set by hand"
    assert entry.data["after"] == [
        {"table": 1, "players": [c, d]},
        {"table": 7, "players": [a, b]},
        {"table": 12, "players": [e]},
    ]
    assert len(entry.data["before"]) == 3
    # Publishing settles the bye as a 2-0 win, as for any bye.
    publish_round(alice, draft.rounds.get(number=1))
    bye = Match.objects.get(round__event=draft, is_bye=True)
    assert (bye.status, bye.winner_id) == (Match.Status.FINAL, e)


@pytest.mark.parametrize(
    ("who", "status"), [("alice", 200), ("judy", 403), ("bob", 403), (None, 401)]
)
def test_only_organisers_set_pairings(draft, request, who, status):
    user = request.getfixturevalue(who) if who else None
    a, b, c, d, e = draft.players
    before = seats_of(draft.rounds.get(number=1))
    tables = [{"players": [a, e]}, {"players": [b, c]}, {"players": [d]}]

    response = client_for(user).put(url(draft, "rounds/1/pairings/"), {"tables": tables}, "json")

    assert response.status_code == status
    after = seats_of(draft.rounds.get(number=1))
    if status == 200:
        assert after == [(1, [a, e]), (2, [b, c]), (3, [d])]
    else:
        assert after == before
        assert not draft.audit.filter(action=AuditEntry.Action.SWAP).exists()


@pytest.mark.parametrize(
    ("who", "status"), [("alice", 200), ("judy", 403), ("bob", 403), (None, 401)]
)
def test_only_organisers_swap_players(draft, request, who, status):
    user = request.getfixturevalue(who) if who else None
    rnd = draft.rounds.get(number=1)
    before = seats_of(rnd)
    first, second = before[0][1][0], before[1][1][0]

    response = client_for(user).patch(
        url(draft, "rounds/1/pairings/"), {"first": first, "second": second}, "json"
    )

    assert response.status_code == status
    after = seats_of(rnd)
    if status == 200:
        assert after[0][1][0] == second and after[1][1][0] == first
        entry = draft.audit.get(action=AuditEntry.Action.SWAP)
        assert entry.actor.username == "alice"
    else:
        assert after == before


def _tables(players, *groups):
    return {"tables": [{"players": [players[i] for i in group]} for group in groups]}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (lambda p: _tables(p, (0, 1), (2, 3)), "missing"),
        (lambda p: _tables(p, (0, 1), (2, 3), (4, 0)), "seated at two tables"),
        (lambda p: {"tables": [{"players": [p[0], p[1]]}, {"players": [p[2], p[3]]}, {"players": [p[4], 999999]}]}, "not registered"),
        (lambda p: {"tables": [{"players": [p[0], p[1]], "table": 2}, {"players": [p[2], p[3]], "table": 2}, {"players": [p[4]]}]}, "used twice"),
        (lambda p: {"tables": [{"players": [p[0], p[1], p[2]]}, {"players": [p[3], p[4]]}]}, "no more than 2"),
        (lambda p: {"tables": []}, ""),
        (lambda p: {"tables": [{"players": [p[0], p[1]], "table": 0}]}, ""),
    ],
)  # fmt: skip
def test_pairings_that_cannot_be_used_are_refused_with_400_and_change_nothing(
    draft, alice, body, message
):
    rnd = draft.rounds.get(number=1)
    before = seats_of(rnd)

    response = client_for(alice).put(url(draft, "rounds/1/pairings/"), body(draft.players), "json")

    assert response.status_code == 400, response.content
    assert message in str(response.json())
    assert seats_of(rnd) == before
    assert not draft.audit.filter(action=AuditEntry.Action.SWAP).exists()


def test_a_dropped_player_cannot_be_seated(draft, alice):
    a, b, c, d, e = draft.players
    Round.objects.filter(event=draft).delete()
    drop(alice, draft.registrations.get(pk=e))
    pair_next_round(alice, draft)

    with pytest.raises(PairingError, match="cannot play this round"):
        set_pairings(alice, draft.rounds.get(number=1), [([a, b], None), ([c, d], None), ([e], 3)])


def test_a_published_round_keeps_its_pairings_409(draft, alice):
    publish_round(alice, draft.rounds.get(number=1))
    a, _b, c, *_rest = draft.players

    put = client_for(alice).put(
        url(draft, "rounds/1/pairings/"), _tables(draft.players, (0, 1), (2, 3), (4,)), "json"
    )
    swap = client_for(alice).patch(
        url(draft, "rounds/1/pairings/"), {"first": a, "second": c}, "json"
    )

    assert put.status_code == 409
    assert "before the round is published" in put.json()["detail"]
    assert swap.status_code == 409


def test_a_bracket_round_follows_the_bracket_409(alice, bob, charlie, dave, erin):
    event = create_event(alice, name="Cup", structure="single_elim")
    regs = [register(event, user=u) for u in (bob, charlie, dave, erin)]
    start_event(alice, event)
    pair_next_round(alice, event)
    pks = [r.pk for r in regs]

    response = client_for(alice).put(
        url(event, "rounds/1/pairings/"), _tables(pks, (0, 1), (2, 3)), "json"
    )

    assert response.status_code == 409
    assert "follow their schedule" in response.json()["detail"]


def test_rematches_are_allowed_and_counted_in_the_audit_entry(draft, alice):
    a, b, c, d, e = draft.players
    set_pairings(alice, draft.rounds.get(number=1), [([a, b], None), ([c, d], None), ([e], None)])
    rnd = publish_round(alice, draft.rounds.get(number=1))
    for match in rnd.matches.filter(is_bye=False):
        enter_result(alice, match, [0, 0])
    pair_next_round(alice, draft)

    set_pairings(alice, draft.rounds.get(number=2), [([a, b], None), ([c, e], None), ([d], None)])

    entry = draft.audit.filter(action=AuditEntry.Action.SWAP).order_by("-pk").first()
    assert entry.data["rematches"] == 1
    assert "1 rematch" in entry.summary


def test_the_schema_describes_setting_pairings_and_swapping(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    pairings = schema["paths"]["/api/events/{event_slug}/rounds/{number}/pairings/"]

    assert pairings["put"]["summary"] == "Set a draft round's pairings by hand"
    assert {"200", "400", "401", "403", "404", "409"} <= set(pairings["put"]["responses"])
    body = pairings["put"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    tables = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]["tables"]
    table = schema["components"]["schemas"][tables["items"]["$ref"].rsplit("/", 1)[1]]
    assert set(table["properties"]) == {"players", "table"}
    assert table["properties"]["players"]["maxItems"] == 2
    assert pairings["patch"]["summary"] == "Swap two players' seats"
    assert "get" in pairings
    event = schema["components"]["schemas"]["Event"]["properties"]
    assert "allow_split_finals" in event


def test_a_swap_naming_someone_outside_the_event_is_refused_with_400(draft, alice):
    rnd = draft.rounds.get(number=1)
    before = seats_of(rnd)

    response = client_for(alice).patch(
        url(draft, "rounds/1/pairings/"), {"first": draft.players[0], "second": 999999}, "json"
    )

    assert response.status_code == 400
    assert "not registered" in response.json()["detail"]
    assert seats_of(rnd) == before


def test_the_player_with_the_bye_can_be_swapped_into_a_match(draft, alice):
    rnd = draft.rounds.get(number=1)
    bye_player = rnd.matches.get(is_bye=True).seats.get().registration_id
    other = next(p for p in draft.players if p != bye_player)

    response = client_for(alice).patch(
        url(draft, "rounds/1/pairings/"), {"first": bye_player, "second": other}, "json"
    )

    assert response.status_code == 200
    byes = [m for m in response.json() if m["is_bye"]]
    assert [[s["registration"] for s in m["seats"]] for m in byes] == [[other]]


def test_the_bracket_page_shows_the_final_as_split(client, alice, bob, charlie, dave, erin):
    event, final = _play_to_the_final(alice, [bob, charlie, dave, erin], allow_split_finals=True)
    enter_result(alice, final, [None, None, None])

    page = client.get(f"/events/{event.slug}/bracket/?fragment=1")

    assert page.status_code == 200
    assert "First place shared (split final)" in page.content.decode()


def test_the_console_settings_offer_the_split_final(client, alice):
    event = create_event(alice, name="Cup", structure="single_elim")
    client.force_login(alice)

    page = client.get(f"/events/{event.slug}/manage/")

    assert page.status_code == 200
    assert 'name="allow_split_finals"' in page.content.decode()
