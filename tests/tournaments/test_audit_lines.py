"""The audit logs in the reader's language (decision 0057): each line is kept as a message
and its parameters and translated when shown; the English line stays for the API and is
the whole of entries written before; a round is named in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.tournaments.factories import make_event, play_round
from tournaments.audit_text import render, said
from tournaments.models import AuditEntry, Round, SeriesAuditEntry
from tournaments.services.common import audit
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.results import enter_result
from tournaments.services.series import add_event, create_series

pytestmark = pytest.mark.django_db


def test_an_entry_keeps_its_message_its_parameters_and_the_english_line(alice):
    event, _ = make_event(alice, players=4)
    with translation.override("ru"):  # the organiser works in Russian
        publish_round(alice, pair_next_round(alice, event))
    paired = event.audit.get(action=AuditEntry.Action.PAIR)
    assert paired.message == "Paired %(round)s"
    assert paired.params == {"round": {"@round": 1, "title": ""}}
    assert paired.summary == "Paired Round 1"  # English, whatever the actor's language
    published = event.audit.get(action=AuditEntry.Action.PUBLISH)
    assert published.summary == "Published Round 1" and published.data == {"round": 1}
    added = event.audit.filter(action=AuditEntry.Action.CREATE).get()
    assert added.message == "Created %(name)s" and added.params == {"name": "Test Open"}
    assert added.text == "Created Test Open"


def test_a_line_is_shown_in_the_readers_language_with_its_round_named_there(alice):
    event, _ = make_event(alice, players=4)
    publish_round(alice, pair_next_round(alice, event))
    published = event.audit.get(action=AuditEntry.Action.PUBLISH)
    assert published.text == "Published Round 1"
    with translation.override("ru"):
        shown = published.text
    assert "Раунд 1" in shown and "Round 1" not in shown
    # A titled round (the top cut) is named by its title in the reader's language.
    titled = said("Published %(round)s", round=Round(number=4, title="Final"))
    assert titled.params == {"round": {"@round": 4, "title": "Final"}}
    with translation.override("ru"):
        assert "Финал" in render(titled.message, titled.params, "")


def test_older_entries_and_lines_that_do_not_fit_show_what_was_written(alice):
    event, _ = make_event(alice, players=4, start=False)
    audit(event, alice, AuditEntry.Action.EDIT, "Changed name")  # a plain line, as before
    old = event.audit.get(summary="Changed name")
    assert old.message == "" and old.text == "Changed name"
    broken = AuditEntry(summary="Table 3 of Round 2", message="Table %(table)s of %(round)s")
    assert broken.text == "Table 3 of Round 2"  # a parameter is missing: the stored line
    with translation.override("ru"):
        assert render("Round %(n)d", {"n": 3}, "x") == "Раунд 3"


def test_the_console_shows_the_audit_log_in_the_organisers_language(client, alice):
    event, _ = make_event(alice, players=4)
    publish_round(alice, pair_next_round(alice, event))
    client.force_login(alice)
    url = reverse("tournaments:manage", kwargs={"slug": event.slug})
    english = client.get(url).content.decode()
    log = english[english.index('id="audit"') :]
    assert "Published Round 1" in log and "Paired Round 1" in log
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    russian = client.get(url).content.decode()
    log = russian[russian.index('id="audit"') :]
    assert "Раунд 1" in log and "Round 1" not in log


def test_the_series_log_keeps_messages_too(client, alice):
    series = create_series(alice, "Winter Season")
    event, _ = make_event(alice, players=4, start=False, name="First Leg")
    add_event(alice, series, event)
    lines = {e.action: e for e in SeriesAuditEntry.objects.filter(series=series)}
    created = lines[SeriesAuditEntry.Action.CREATE]
    assert created.message == "Created %(name)s" and created.summary == "Created Winter Season"
    added = lines[SeriesAuditEntry.Action.ADD_EVENT]
    assert added.params == {"name": "First Leg"} and added.text == "Added First Leg"
    client.force_login(alice)
    page = client.get(reverse("tournaments:series_edit", kwargs={"slug": series.slug}))
    assert "Added First Leg" in page.content.decode()


def test_a_result_an_official_replaces_keeps_the_score_it_replaced(alice):
    event, _ = make_event(alice, players=4)
    match = play_round(alice, event).matches.order_by("table").first()  # 2-0 for seat 0
    enter_result(alice, match, [1, 1])
    entry = event.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE).first()
    assert entry.message == "Table %(table)s of %(round)s: %(score)s (was %(before)s)"
    assert entry.summary.startswith("Table 1 of Round 1: ") and "(was 2" in entry.summary
    assert entry.text == entry.summary
    with translation.override("ru"):
        assert "Раунд 1" in entry.text and "Round 1" not in entry.text


def _pseudo_catalogue(monkeypatch):
    """Every text taken from the catalogue comes back «bracketed»: what is left outside the
    brackets was not translated."""
    from tournaments import audit_text

    monkeypatch.setattr(audit_text, "gettext", lambda m: f"«{m}»")
    monkeypatch.setattr(audit_text, "pgettext", lambda c, m: f"«{m}»")


def _untranslated(text: str, *typed: str) -> str:
    """The text outside every «...» (innermost first), without what the officials typed."""
    while True:
        shorter = re.sub(r"«[^«»]*»", "", text)
        if shorter == text:
            break
        text = shorter
    for value in typed:
        text = text.replace(value, "")
    return text


def test_penalty_and_correction_lines_are_messages_shown_in_the_readers_language(
    client, alice, monkeypatch
):
    from tournaments.services.corrections import correct_result
    from tournaments.services.penalties import (
        add_penalty_type,
        issue_penalty,
        penalty_types,
        revoke_penalty,
    )

    event, regs = make_event(alice, players=4)
    first, second = play_round(alice, event).matches.order_by("table")  # 2-0 for seat 0
    played = event.audit.order_by("-pk").values_list("pk", flat=True).first()
    correct_result(alice, first, [1, 1])
    match_loss = next(t for t in penalty_types(event) if t.effect == "match_loss")
    warning = next(t for t in penalty_types(event) if t.effect == "warning")
    loser = second.seats.get(seat=0).registration
    penalty = issue_penalty(alice, match_loss, loser, "Marked cards", second)
    revoke_penalty(alice, penalty, "Misheard")
    issue_penalty(alice, warning, regs[0], "Slow play")
    add_penalty_type(alice, event, "Tardiness", "warning")

    lines = list(
        event.audit.filter(
            pk__gt=played, action__in=["penalty", "penalty_revoked", "penalty_types", "override"]
        ).order_by("pk")
    )
    assert len(lines) == 7  # correction, override + penalty, override + revocation, 2 more
    assert all(line.message for line in lines), [line.summary for line in lines]
    issued = next(line for line in lines if line.action == "penalty" and line.params["round"])
    assert issued.params["penalty"] == {"@term": "Match loss"}
    assert issued.params["outcome"]["@line"] == "Match settled for %(player)s: %(score)s"
    assert issued.summary.startswith("Match loss to Player ")  # the English line, as before
    assert "(table 2 of Round 1): Marked cards. Match settled for Player" in issued.summary
    corrected = lines[0]
    assert corrected.params["note"] == {"@term": "correction of a completed round"}
    assert corrected.summary.endswith("— correction of a completed round")

    # Every word of those lines, but what the officials typed, comes from the catalogue.
    names = list(event.registrations.values_list("display_name", flat=True))
    typed = ["Marked cards", "Misheard", "Slow play", "Tardiness", *names]
    with monkeypatch.context() as patched:
        _pseudo_catalogue(patched)
        for line in lines:
            left = _untranslated(line.text, *typed)
            assert not re.search(r"[A-Za-z]", left), (line.text, left)

    # The console in Russian shows none of the English lines.
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    page = client.get(reverse("tournaments:manage", kwargs={"slug": event.slug})).content.decode()
    log = page[page.index('id="audit"') :]
    for line in lines:
        assert escape(line.summary) not in log
    assert "Поражение в матче" in log and "Match loss" not in log and "Round 1" not in log


def _api_audit(user, slug: str, **headers) -> list[dict]:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(user)
    response = api.get(f"/api/events/{slug}/audit/", **headers)
    assert response.status_code == 200, response.content
    return response.json()["results"] if isinstance(response.json(), dict) else response.json()


def test_the_api_gives_each_line_as_its_message_parameters_and_in_the_requests_language(alice):
    event, _ = make_event(alice, players=4)
    publish_round(alice, pair_next_round(alice, event))
    audit(event, alice, AuditEntry.Action.EDIT, "Changed name")  # an entry from before

    english = {row["action"]: row for row in _api_audit(alice, event.slug)}
    published = english["publish"]
    assert published["message"] == "Published %(round)s"
    assert published["params"] == {"round": {"@round": 1, "title": ""}}
    assert published["summary"] == "Published Round 1"

    russian_rows = _api_audit(alice, event.slug, HTTP_ACCEPT_LANGUAGE="ru")
    russian = {row["action"]: row for row in russian_rows}
    shown = russian["publish"]["summary"]
    assert "Раунд 1" in shown and "Round 1" not in shown
    assert russian["publish"]["message"] == "Published %(round)s"  # the key stays the key
    assert russian["publish"]["params"] == published["params"]
    # An entry written before messages were kept gives its English line in any language.
    old = [row for row in russian_rows if row["message"] == ""]
    assert [row["summary"] for row in old] == ["Changed name"]


def test_the_api_schema_documents_the_audit_lines_and_their_language(db):
    from rest_framework.test import APIClient

    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document = schema.json()
    listing = document["paths"]["/api/events/{event_slug}/audit/"]["get"]
    assert listing["summary"] == "Audit log"
    assert any(
        p["name"] == "Accept-Language" and p["in"] == "header" for p in listing["parameters"]
    )
    fields = document["components"]["schemas"]["AuditEntry"]["properties"]
    assert {"message", "params", "summary"} <= set(fields)
    assert "language" in fields["summary"]["description"]
    # The leaderboard keeps its own title (the audit log's was stacked on it before).
    board = next(path for url, path in document["paths"].items() if url.startswith("/api/ratings/"))
    assert board["get"]["summary"] == "A game's leaderboard"
