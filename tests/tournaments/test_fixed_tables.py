"""Fixed tables (for access): the pure table numbering (``swiss.assign_tables``), the
pairing honouring it, the organiser's console form and API field, and the warning when
two players want one table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tournaments.models import AuditEntry, EventStaff, MatchSeat, Registration
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import add_staff
from tournaments.services.pairing import (
    pair_next_round,
    set_fixed_table,
    set_pairings,
    table_warnings,
)
from tournaments.swiss import PairingError, TableConflict, assign_tables

from .factories import make_event

# --- the pure numbering -----------------------------------------------------------------


def test_without_fixed_tables_the_groups_are_numbered_in_order():
    result = assign_tables([(1, 2), (3, 4), (5, 6)], {})
    assert result.tables == (1, 2, 3)
    assert result.conflicts == ()


def test_a_fixed_player_sits_at_their_table_and_the_others_fill_the_rest():
    result = assign_tables([(1, 2), (3, 4), (5, 6), (7, 8)], {6: 1})
    assert result.tables == (2, 3, 1, 4)
    assert result.conflicts == ()


def test_a_fixed_table_beyond_the_field_leaves_a_gap():
    result = assign_tables([(1, 2), (3, 4)], {1: 12})
    assert result.tables == (12, 1)


def test_two_partners_fixed_to_the_same_table_are_no_conflict():
    result = assign_tables([(1, 2), (3, 4)], {3: 1, 4: 1})
    assert result.tables == (2, 1)
    assert result.conflicts == ()


def test_the_later_of_two_players_fixed_to_one_table_gets_the_nearest_free_one():
    # Player 3 (second pairing) and player 6 (third) both want table 2: 3 gets it, 6 the
    # nearest number nobody claimed: 1 (the lower of 1 and 3).
    result = assign_tables([(1, 2), (3, 4), (5, 6)], {3: 2, 6: 2})
    assert result.tables == (3, 2, 1)
    assert result.conflicts == (TableConflict(player=6, wanted=2, table=1),)


def test_the_nearest_free_table_skips_those_claimed_by_fixed_players():
    result = assign_tables([(1, 2), (3, 4), (5, 6), (7, 8)], {1: 2, 3: 1, 5: 3, 7: 2})
    assert result.tables == (2, 1, 3, 4)
    assert result.conflicts == (TableConflict(player=7, wanted=2, table=4),)


def test_partners_fixed_to_different_tables_follow_the_first_seat():
    result = assign_tables([(1, 2), (3, 4)], {3: 5, 4: 7})
    assert result.tables == (1, 5)
    assert result.conflicts == (TableConflict(player=4, wanted=7, table=5),)


def test_tables_set_by_hand_are_never_given_out():
    result = assign_tables([(1, 2), (3, 4)], {3: 1}, taken={1, 2})
    assert set(result.tables).isdisjoint({1, 2})
    assert result.conflicts == (TableConflict(player=3, wanted=1, table=3),)


def test_table_numbers_below_one_are_refused():
    with pytest.raises(PairingError):
        assign_tables([(1, 2)], {1: 0})


@st.composite
def fields(draw):
    """Groups of two (a few of three) players and fixed tables for some of them."""
    n = draw(st.integers(0, 40))
    ids = list(range(n))
    groups, k = [], 0
    while k < n:
        size = draw(st.sampled_from((2, 2, 2, 3)))
        groups.append(tuple(ids[k : k + size]))
        k += size
    fixed = draw(st.dictionaries(st.sampled_from(ids), st.integers(1, 30))) if ids else {}
    taken = draw(st.sets(st.integers(1, 30), max_size=5))
    return groups, fixed, taken


@given(fields())
@settings(max_examples=300, deadline=None, database=None)
def test_property_every_group_gets_a_distinct_table_and_fixed_tables_hold_where_they_can(field):
    groups, fixed, taken = field
    result = assign_tables(groups, fixed, taken)
    assert len(result.tables) == len(groups)
    assert len(set(result.tables)) == len(groups), "two groups at one table"
    assert all(t >= 1 for t in result.tables)
    assert set(result.tables).isdisjoint(taken)
    conflicted = {c.player for c in result.conflicts}
    claims: dict[int, int] = {}
    for index, group in enumerate(groups):
        first = next((fixed[p] for p in group if p in fixed), None)
        if first is not None and first not in taken:
            claims.setdefault(first, index)
    for index, (group, table) in enumerate(zip(groups, result.tables, strict=True)):
        for p in group:
            if p not in fixed:
                continue
            # Reported exactly when not seated at the fixed table.
            if fixed[p] == table:
                assert p not in conflicted
            else:
                assert TableConflict(p, fixed[p], table) in result.conflicts
        # Honoured unless another group claimed the table first or it was set by hand.
        first = next((fixed[p] for p in group if p in fixed), None)
        if first is not None and claims.get(first) == index:
            assert table == first, "an uncontested fixed table was not honoured"
    assert assign_tables(groups, fixed, taken) == result  # deterministic


# --- pairing an event -----------------------------------------------------------------


def _table_of(rnd, reg: Registration) -> int:
    return MatchSeat.objects.get(round=rnd, registration=reg).match.table


@pytest.mark.django_db
def test_the_pairing_seats_a_fixed_player_at_their_table(alice):
    event, regs = make_event(alice, players=8)
    set_fixed_table(alice, regs[5], 3)
    rnd = pair_next_round(alice, event)
    assert _table_of(rnd, regs[5]) == 3
    tables = sorted(rnd.matches.values_list("table", flat=True))
    assert tables == [1, 2, 3, 4]
    assert table_warnings(rnd) == []


@pytest.mark.django_db
def test_a_bye_comes_after_the_tables_even_past_a_fixed_one(alice):
    event, regs = make_event(alice, players=5)
    set_fixed_table(alice, regs[0], 9)
    rnd = pair_next_round(alice, event)
    bye = rnd.matches.get(is_bye=True)
    played = list(rnd.matches.filter(is_bye=False).values_list("table", flat=True))
    if MatchSeat.objects.get(round=rnd, registration=regs[0]).match.is_bye:
        assert sorted(played) == [1, 2]
        assert bye.table == 3
    else:
        assert 9 in played
        assert bye.table == 10


@pytest.mark.django_db
def test_two_players_fixed_to_one_table_the_organiser_is_warned(alice):
    event, regs = make_event(alice, players=8)
    set_fixed_table(alice, regs[0], 2)
    set_fixed_table(alice, regs[1], 2)
    rnd = pair_next_round(alice, event)
    seats = dict(MatchSeat.objects.filter(round=rnd).values_list("registration_id", "match_id"))
    tables = [_table_of(rnd, regs[0]), _table_of(rnd, regs[1])]
    if seats[regs[0].pk] == seats[regs[1].pk]:  # paired together: fine
        assert tables == [2, 2]
        assert table_warnings(rnd) == []
    else:
        assert sorted(tables) in ([1, 2], [2, 3])
        (warning,) = table_warnings(rnd)
        assert "fixed table 2" in warning
        entry = event.audit.filter(action=AuditEntry.Action.PAIR).first()
        assert entry.data["table_conflicts"][0]["wanted"] == 2


@pytest.mark.django_db
def test_pairings_set_by_hand_honour_fixed_tables_without_a_number(alice):
    event, regs = make_event(alice, players=4)
    set_fixed_table(alice, regs[3], 2)
    rnd = pair_next_round(alice, event)
    a, b, c, d = (r.pk for r in regs)
    set_pairings(alice, rnd, [((c, d), None), ((a, b), None)])
    assert _table_of(rnd, regs[3]) == 2
    assert _table_of(rnd, regs[0]) == 1


@pytest.mark.django_db
def test_only_an_organiser_sets_a_fixed_table_and_bad_numbers_are_refused(alice, bob, charlie):
    event, regs = make_event(alice, players=4)
    add_staff(alice, event, charlie, EventStaff.Role.JUDGE)
    for who in (bob, charlie):
        with pytest.raises(NotAllowed):
            set_fixed_table(who, regs[0], 4)
    for bad in (0, -1, 10_000):
        with pytest.raises(TournamentError):
            set_fixed_table(alice, regs[0], bad)
    regs[0].refresh_from_db()
    assert regs[0].fixed_table is None
    set_fixed_table(alice, regs[0], 4)
    set_fixed_table(alice, regs[0], None)
    regs[0].refresh_from_db()
    assert regs[0].fixed_table is None
    assert event.audit.filter(action=AuditEntry.Action.EDIT, data__fixed_table=4).exists()


@pytest.mark.django_db
def test_the_console_form_sets_a_fixed_table(client, alice, bob):
    event, regs = make_event(alice, players=4)
    url = f"/events/{event.slug}/manage/fixed-table/"
    client.force_login(bob)
    assert client.post(url, {"registration": regs[0].pk, "fixed_table": "3"}).status_code == 403
    client.force_login(alice)
    response = client.post(url, {"registration": regs[0].pk, "fixed_table": "3"})
    assert response.status_code == 302
    regs[0].refresh_from_db()
    assert regs[0].fixed_table == 3
    page = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert 'name="fixed_table" value="3"' in page
    client.post(url, {"registration": regs[0].pk, "fixed_table": "abc"})
    regs[0].refresh_from_db()
    assert regs[0].fixed_table == 3  # refused, unchanged
    client.post(url, {"registration": regs[0].pk, "fixed_table": ""})
    regs[0].refresh_from_db()
    assert regs[0].fixed_table is None


@pytest.mark.django_db
def test_the_console_shows_the_warning_for_the_round_under_review(client, alice):
    event, regs = make_event(alice, players=8)
    for reg in regs[:4]:
        set_fixed_table(alice, reg, 1)
    pair_next_round(alice, event)
    client.force_login(alice)
    page = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "fixed table 1 but sits at table" in page


@pytest.mark.django_db
def test_the_api_field_is_set_by_organisers_and_seen_by_the_player_and_officials(
    alice, bob, charlie
):
    event, regs = make_event(alice, players=4)
    url = f"/api/events/{event.slug}/registrations/{regs[0].pk}/"
    api = APIClient()
    api.force_authenticate(bob)
    assert api.patch(url, {"fixed_table": 2}, format="json").status_code == 403
    api.force_authenticate(alice)
    response = api.patch(url, {"fixed_table": 2}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["fixed_table"] == 2
    assert api.patch(url, {"fixed_table": 0}, format="json").status_code == 400
    assert api.patch(url, {"fixed_table": "x"}, format="json").status_code == 400
    regs[0].refresh_from_db()
    assert regs[0].fixed_table == 2
    # The player sees their own; anyone else reads null (an access need is private).
    api.force_authenticate(regs[0].user)
    assert api.get(url).json()["fixed_table"] == 2
    api.force_authenticate(charlie)
    assert api.get(url).json()["fixed_table"] is None
    api.force_authenticate(None)
    assert api.get(url).json()["fixed_table"] is None
    api.force_authenticate(alice)
    assert api.patch(url, {"fixed_table": None}, format="json").json()["fixed_table"] is None
