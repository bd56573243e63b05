"""Decklists checked against the event's format: saving, showing problems, the deadline task.

The card database is the small in-memory one of ``tests/engine/test_decks.py``, put in
place of ``engine.voskhozhdenie.loader.load_system`` so that these tests do not depend on the
real set files.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from engine.voskhozhdenie import loader
from tests.engine.test_decks import BLITZ_LIST, DRAFT_LIST, ENGLISH_LIST, build_db
from tests.tournaments.factories import make_event
from tournaments import tasks
from tournaments.models import AuditEntry, Decklist, Event
from tournaments.services.decklists import submit_decklist
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event, update_event

pytestmark = pytest.mark.django_db

DB = build_db()
REAL_LOAD_SYSTEM = loader.load_system

ILLEGAL_LIST = """\
Cities
Red Keep
Red Keep
Blue Harbour
Main deck
4 Mercenary 1
Minor Spirit
Patron of Light
Black Knight 1
Reinforcements
2 Mercenary 2
"""

TYPO_LIST = """\
Cities
Red Kep
White Hold
Main deck
20 Mercenary 1
0 Mercenary 2
3 Огненый шар
"""


@pytest.fixture(autouse=True)
def card_db(monkeypatch):
    monkeypatch.setattr(loader, "load_system", lambda system: DB)
    return DB


def event_with_players(alice, fmt="standard", players=2, **fields):
    return make_event(alice, players=players, start=False, format=fmt, **fields)


def decklist_url(event):
    return reverse("tournaments:decklist", kwargs={"slug": event.slug})


def api_url(event, reg):
    return f"/api/events/{event.slug}/registrations/{reg.pk}/decklist/"


# ---------------------------------------------------------------- checking on submission


def test_a_legal_list_is_accepted_and_marked_legal(alice):
    _event, regs = event_with_players(alice)
    deck = submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    deck.refresh_from_db()
    assert deck.is_legal is True
    assert deck.problems == []
    assert not deck.locked


def test_an_illegal_list_is_saved_with_every_problem_and_its_rule(alice):
    _event, regs = event_with_players(alice)
    deck = submit_decklist(regs[0].user, regs[0], ILLEGAL_LIST)
    deck.refresh_from_db()
    assert deck.is_legal is False
    assert deck.text == ILLEGAL_LIST.strip()
    rules = {p["rule"] for p in deck.problems}
    assert rules == {
        "4.5.1.1",
        "4.5.1.2",
        "4.5.1.3",
        "4.5.1.4",
        "4.5.1.6",
        "4.5.1.8",
        "4.5.1.9",
    }
    assert any("Mercenary 1" in p["message"] for p in deck.problems if p["rule"] == "4.5.1.2")


def test_the_format_decides_the_rules(alice):
    _event, regs = event_with_players(alice, fmt="blitz")
    assert submit_decklist(regs[0].user, regs[0], BLITZ_LIST).is_legal is True
    deck = submit_decklist(regs[1].user, regs[1], ENGLISH_LIST)
    assert deck.is_legal is False
    assert {p["rule"] for p in deck.problems} == {"4.5.4.1"}


def test_standard_uses_the_event_date(alice):
    from datetime import UTC, datetime

    old_list = ENGLISH_LIST.replace("3 Mercenary 1\n", "3 Old Soldier\n")
    event, regs = event_with_players(alice, starts_at=datetime(2023, 6, 1, 10, tzinfo=UTC))
    assert submit_decklist(regs[0].user, regs[0], old_list).is_legal is True
    update_event(alice, event, starts_at=datetime(2024, 6, 1, 10, tzinfo=UTC))
    deck = submit_decklist(regs[0].user, regs[0], old_list)
    assert [p["rule"] for p in deck.problems] == ["4.5.1.11"]


def test_lists_are_checked_again_when_the_format_changes(alice):
    event, regs = event_with_players(alice)
    submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    update_event(alice, event, format="blitz")
    deck = Decklist.objects.get(registration=regs[0])
    assert deck.is_legal is False and [p["rule"] for p in deck.problems] == ["4.5.4.1"]
    update_event(alice, event, format="standard")
    deck.refresh_from_db()
    assert deck.is_legal is True and deck.problems == []


def test_unknown_card_names_are_reported_with_line_numbers(alice):
    _event, regs = event_with_players(alice, fmt="blitz")
    deck = submit_decklist(regs[0].user, regs[0], TYPO_LIST)
    assert deck.is_legal is False
    by_line = {p["line"]: p for p in deck.problems if p["line"]}
    assert set(by_line) == {2, 6, 7}
    assert "Did you mean “Red Keep”" in by_line[2]["message"]
    assert "at least 1" in by_line[6]["message"]
    assert "Did you mean “Огненный шар”" in by_line[7]["message"]
    assert all(by_line[n]["rule"] == "" for n in by_line)


def test_a_game_without_card_data_keeps_lists_unchecked(alice, monkeypatch):
    def broken(system):
        raise loader.CardDataError("engine/sets/voskhozhdenie", "no set files")

    monkeypatch.setattr(loader, "load_system", broken)
    _event, regs = event_with_players(alice)
    deck = submit_decklist(regs[0].user, regs[0], "60 Islands")
    assert deck.is_legal is None and deck.problems == []


def test_draft_lists_are_checked_without_the_pool(alice):
    _event, regs = event_with_players(alice, fmt="draft")
    deck = submit_decklist(regs[0].user, regs[0], DRAFT_LIST)
    assert deck.is_legal is None and deck.problems == []  # the pool is checked later
    deck = submit_decklist(regs[1].user, regs[1], DRAFT_LIST.replace("4 Mercenary 4\n", ""))
    assert deck.is_legal is False
    assert [p["rule"] for p in deck.problems] == ["4.5.5.3"]


def test_the_problems_name_cards_in_the_players_language(alice):
    from django.utils import translation

    _event, regs = event_with_players(alice)
    with translation.override("ru"):
        deck = submit_decklist(regs[0].user, regs[0], ILLEGAL_LIST)
    assert any("Малый дух" in p["message"] for p in deck.problems)


# ---------------------------------------------------------------- pages and API


def test_the_decklist_page_shows_every_problem_with_its_rule(client, alice):
    event, regs = event_with_players(alice)
    client.force_login(regs[0].user)
    response = client.post(decklist_url(event), {"text": ILLEGAL_LIST}, follow=True)
    body = response.content.decode()
    assert "not legal for this format" in body
    for rule in ("4.5.1.1", "4.5.1.2", "4.5.1.3", "4.5.1.4", "4.5.1.6", "4.5.1.8", "4.5.1.9"):
        assert f"rule {rule}" in body
    assert "Deck rules of Standard" in body

    response = client.post(decklist_url(event), {"text": TYPO_LIST}, follow=True)
    body = response.content.decode()
    assert "Line 2" in body and "Red Kep" in body and "Did you mean" in body

    response = client.post(decklist_url(event), {"text": ENGLISH_LIST}, follow=True)
    body = response.content.decode()
    assert "Decklist saved." in body and "This list is legal for Standard." in body


def test_the_console_shows_whether_each_list_is_legal(client, alice):
    event, regs = event_with_players(alice, players=3)
    submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    submit_decklist(regs[1].user, regs[1], ILLEGAL_LIST)
    client.force_login(alice)
    body = client.get(reverse("tournaments:manage", kwargs={"slug": event.slug})).content.decode()
    assert body.count('class="badge status-final">legal<') == 1
    assert "not legal: 8 problems" in body
    assert "rule 4.5.1.4" in body


def test_the_api_returns_the_problems(alice):
    event, regs = event_with_players(alice)
    api = APIClient()
    api.force_authenticate(regs[0].user)
    response = api.put(api_url(event, regs[0]), {"text": TYPO_LIST}, format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["is_legal"] is False
    assert {k: data["problems"][0][k] for k in ("rule", "line")} == {"rule": "", "line": 2}
    assert "4.5.1.1" in {p["rule"] for p in data["problems"]}
    again = api.get(api_url(event, regs[0])).json()
    assert again["problems"] == data["problems"]
    response = api.put(api_url(event, regs[0]), {"text": ENGLISH_LIST}, format="json")
    assert response.json()["is_legal"] is True and response.json()["problems"] == []


# ---------------------------------------------------------------- deadline


def test_late_submissions_are_refused(client, alice):
    event, regs = event_with_players(alice)
    submit_decklist(regs[0].user, regs[0], ILLEGAL_LIST)
    update_event(alice, event, decklist_deadline=timezone.now() - timedelta(minutes=1))
    with pytest.raises(TournamentError, match="locked"):
        submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    with pytest.raises(TournamentError, match="locked"):
        submit_decklist(regs[1].user, regs[1], ENGLISH_LIST)
    assert not Decklist.objects.filter(registration=regs[1]).exists()
    client.force_login(regs[0].user)
    body = client.get(decklist_url(event)).content.decode()
    assert (
        "The decklist deadline has passed." in body
        and '<form method="post" class="stack' not in body
    )
    # an official can still fix a list; a legal fix after the deadline is locked at once
    fixed = submit_decklist(alice, regs[0], ENGLISH_LIST)
    assert fixed.is_legal is True and fixed.locked


def test_a_deadline_days_ahead_is_reached_in_steps_and_a_moved_one_leaves_no_task(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    from config.celery import eta_horizon

    event, _regs = event_with_players(alice, players=2)
    sent = []
    monkeypatch.setattr(
        tasks.lock_decklists_at_deadline, "apply_async", lambda args, eta: sent.append((args, eta))
    )
    first = timezone.now() + timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        update_event(alice, event, decklist_deadline=first)
    ((args, eta),) = sent
    assert args == (event.pk, first.timestamp())
    assert eta <= timezone.now() + eta_horizon() < first  # short of the broker's timeout
    # Come early: it queues itself on, for the same deadline.
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.lock_decklists_at_deadline(*args) == 0
    assert [a for a, _eta in sent] == [args, args]
    # The deadline moved: the old chain ends; the new deadline has its own task.
    later = first + timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        update_event(alice, event, decklist_deadline=later)
        assert tasks.lock_decklists_at_deadline(*args) == 0
    assert [a for a, _eta in sent] == [args, args, (event.pk, later.timestamp())]


def test_the_deadline_task_locks_legal_lists_and_a_second_run_changes_nothing(alice, monkeypatch):
    event, regs = event_with_players(alice, players=4)
    monkeypatch.setattr(loader, "load_system", lambda system: DB)
    submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    submit_decklist(regs[1].user, regs[1], ILLEGAL_LIST)
    update_event(alice, event, decklist_deadline=timezone.now() + timedelta(hours=1))

    assert tasks.lock_decklists_at_deadline(event.pk) == 0  # early: nothing happens
    assert not Decklist.objects.filter(locked=True).exists()

    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.lock_decklists_at_deadline(event.pk) == 1
    locked = dict(Decklist.objects.values_list("registration_id", "locked"))
    assert locked == {
        regs[0].pk: True,
        regs[1].pk: False,
    }  # the illegal list stays open for officials
    audit = AuditEntry.objects.filter(event=event, action=AuditEntry.Action.DECKLISTS).count()
    stamps = dict(Decklist.objects.values_list("registration_id", "updated_at"))

    assert tasks.lock_decklists_at_deadline(event.pk) == 0  # late or twice: harmless
    assert dict(Decklist.objects.values_list("registration_id", "locked")) == locked
    assert dict(Decklist.objects.values_list("registration_id", "updated_at")) == stamps
    assert (
        AuditEntry.objects.filter(event=event, action=AuditEntry.Action.DECKLISTS).count() == audit
    )
    with pytest.raises(TournamentError, match="locked"):
        submit_decklist(regs[0].user, regs[0], ILLEGAL_LIST)


def test_the_deadline_task_rereads_the_deadline(alice):
    event, regs = event_with_players(alice)
    submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    # the task was queued for an old deadline, which has since been moved later or removed
    Event.objects.filter(pk=event.pk).update(decklist_deadline=timezone.now() + timedelta(days=1))
    assert tasks.lock_decklists_at_deadline(event.pk) == 0
    Event.objects.filter(pk=event.pk).update(decklist_deadline=None)
    assert tasks.lock_decklists_at_deadline(event.pk) == 0
    assert not Decklist.objects.get(registration=regs[0]).locked
    assert tasks.lock_decklists_at_deadline(10**9) == 0  # a deleted event


def test_unchecked_lists_lock_at_the_deadline_too(alice, monkeypatch):
    event, regs = event_with_players(alice, fmt="draft")
    submit_decklist(regs[0].user, regs[0], DRAFT_LIST)
    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.lock_decklists_at_deadline(event.pk) == 1


def test_setting_or_moving_the_deadline_queues_the_task_after_commit(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(
        tasks.lock_decklists_at_deadline,
        "apply_async",
        lambda args, eta: queued.append((args, eta)),
    )
    deadline = timezone.now() + timedelta(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        event = create_event(alice, name="Deadline Cup", decklist_deadline=deadline)
    # Two days ahead: queued for the broker's horizon, carrying the deadline it is for.
    assert [args for args, _eta in queued] == [(event.pk, deadline.timestamp())]
    assert queued[0][1] < deadline

    with django_capture_on_commit_callbacks(execute=True):
        update_event(alice, event, decklist_deadline=deadline, name="Renamed")
    assert len(queued) == 1  # unchanged deadline: nothing new

    later = deadline + timedelta(hours=3)
    with django_capture_on_commit_callbacks(execute=True):
        update_event(alice, event, decklist_deadline=later)
    assert queued[-1][0] == (event.pk, later.timestamp())

    with django_capture_on_commit_callbacks(execute=True):
        update_event(alice, event, decklist_deadline=None)
    assert len(queued) == 2

    with django_capture_on_commit_callbacks(execute=True):
        create_event(alice, name="No Deadline Cup")
    assert len(queued) == 2


def test_the_task_runs_through_celery(alice):
    event, regs = event_with_players(alice)
    submit_decklist(regs[0].user, regs[0], ENGLISH_LIST)
    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=timezone.now() - timedelta(seconds=1)
    )
    result = tasks.lock_decklists_at_deadline.apply(args=(event.pk,))
    assert result.get() == 1
    assert Decklist.objects.get(registration=regs[0]).locked


# ---------------------------------------------------------------- the real card data


def real_standard_list(db, as_of) -> tuple[str, object]:
    """A legal Standard list built from the real sets, and a card that Standard excludes."""
    from engine.voskhozhdenie.decks import card_key

    allowed = {s.code for s in db.latest_sets(4, as_of)}

    def legal(card):
        return not card.minor and any(p.set_code in allowed for p in db.printings(card))

    cards = sorted(db.all_cards(), key=lambda card: card.id)
    cities, seen = [], set()
    for colour in ("white", "blue", "black", "red"):
        city = next(
            c
            for c in cards
            if c.type == "city" and c.colours == {colour} and legal(c) and card_key(c) not in seen
        )
        cities.append(city)
        seen.add(card_key(city))
    room = dict.fromkeys(("white", "blue", "black", "red"), 10)

    def fits(card, copies):
        return all(room[col] >= copies for col in card.colours)

    def take(card, copies):
        for col in card.colours:
            room[col] -= copies
        seen.add(card_key(card))

    main, count = [], 0
    for card in cards:
        if count >= 40:
            break
        if card.type in ("city", "patron") or not legal(card) or card_key(card) in seen:
            continue
        copies = min(3, 40 - count)
        if fits(card, copies):
            take(card, copies)
            main.append((copies, card))
            count += copies
    reinforcements = []
    patron = next(c for c in cards if c.type == "patron" and legal(c) and fits(c, 1))
    take(patron, 1)
    reinforcements.append((1, patron))
    extra = next(
        c
        for c in cards
        if "reinforcement" in c.keywords
        and c.type != "patron"
        and legal(c)
        and card_key(c) not in seen
        and fits(c, 2)
    )
    take(extra, 2)
    reinforcements.append((2, extra))
    old = next(
        (
            c
            for c in cards
            if c.type not in ("city", "patron")
            and not c.minor
            and not legal(c)
            and c.is_neutral
            and card_key(c) not in seen
        ),
        None,
    )
    lines = ["Города:", *(city.name_ru for city in cities), "", "Main deck:"]
    lines += [f"{n} {card.name_en}" for n, card in main]
    lines += ["", "Подкрепления:"] + [f"{n}x {card.name_ru}" for n, card in reinforcements]
    return "\n".join(lines), old


def test_a_list_of_real_cards_is_checked_against_the_real_sets(alice, monkeypatch):
    monkeypatch.setattr(loader, "load_system", REAL_LOAD_SYSTEM)
    try:
        db = loader.load_system("voskhozhdenie")
    except loader.CardDataError as exc:  # the set files are still being written
        pytest.skip(f"no real card data: {exc}")
    text, old = real_standard_list(db, timezone.localdate())
    _event, regs = event_with_players(alice)
    deck = submit_decklist(regs[0].user, regs[0], text)
    assert deck.problems == [] and deck.is_legal is True, deck.problems
    if old is not None:
        deck = submit_decklist(
            regs[1].user, regs[1], text + f"\nMain deck  # again\n1 {old.name_en}"
        )
        assert [p["rule"] for p in deck.problems] == ["4.5.1.11"]
