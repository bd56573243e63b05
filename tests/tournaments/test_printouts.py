"""Printouts (tournaments.printouts, services.printouts): real PDFs from WeasyPrint, a
page per result slip and per decklist sheet, names (Cyrillic too) on the right pages,
A4 and Letter, who may print what, the API and its schema."""

from __future__ import annotations

import contextlib
import re
import zlib
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from weasyprint import CSS, HTML
from weasyprint.formatting_structure import boxes

from engine.core import registry
from tournaments.models import EventStaff, Round
from tournaments.services import printouts as service
from tournaments.services.events import add_staff
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register

from .factories import make_event, play_round

pytestmark = pytest.mark.django_db

A4_BOX = (595.28, 841.89)  # points
LETTER_BOX = (612.0, 792.0)

# ---------------------------------------------------------------- reading a PDF


def expanded(pdf: bytes) -> bytes:
    """The PDF with every Flate stream (object streams included) inflated after it."""
    parts = [pdf]
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        with contextlib.suppress(zlib.error):
            parts.append(zlib.decompress(match.group(1)))
    return b"\n".join(parts)


def page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", expanded(pdf)))


def media_boxes(pdf: bytes) -> set[tuple[float, float]]:
    found = re.findall(
        rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", expanded(pdf)
    )
    return {(round(float(w), 2), round(float(h), 2)) for _x, _y, w, h in found}


def fonts(pdf: bytes) -> set[str]:
    return {m.decode() for m in re.findall(rb"/BaseFont\s*/[A-Z]{6}\+([\w-]+)", expanded(pdf))}


@pytest.fixture
def captured(monkeypatch):
    """The HTML each PDF was made from, and the PDF (the real one, from WeasyPrint)."""
    made: list[tuple[str, bytes]] = []
    real = service.render_pdf

    def render(html: str) -> bytes:
        pdf = real(html)
        made.append((html, pdf))
        return pdf

    monkeypatch.setattr(service, "render_pdf", render)
    return made


def page_texts(html: str) -> list[str]:
    """The text laid out on each page of the PDF made from ``html`` (WeasyPrint's boxes)."""
    document = HTML(string=html).render(stylesheets=[CSS(filename=service.stylesheet_path())])
    return [
        re.sub(
            r"\s+",
            " ",
            " ".join(b.text for b in page._page_box.descendants() if isinstance(b, boxes.TextBox)),
        )
        for page in document.pages
    ]


def get_pdf(client, event, kind: str, **query):
    return client.get(f"/events/{event.slug}/print/{kind}.pdf", query)


@pytest.fixture
def live(alice):
    """Eight players, round 1 published: four tables."""
    event, regs = make_event(alice, players=8)
    rnd = publish_round(alice, pair_next_round(alice, event))
    return event, regs, rnd


# ---------------------------------------------------------------- the documents


def test_slips_one_page_per_table_with_both_names_and_a_box_per_game(client, alice, live, captured):
    event, _regs, rnd = live
    client.force_login(alice)
    response = get_pdf(client, event, "slips")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "inline" in response["Content-Disposition"]
    pdf = response.content
    assert pdf.startswith(b"%PDF")
    assert page_count(pdf) == 4
    html, made = captured[-1]
    assert made == pdf
    texts = page_texts(html)
    assert len(texts) == 4
    for text, match in zip(texts, rnd.matches.order_by("table"), strict=True):
        assert f"Table {match.table}" in text
        for seat in match.seats.all():
            assert seat.registration.display_name in text
            assert f"Signature of {seat.registration.display_name}" in text
        assert "Game 1" in text and "Game 3" in text and "Game 4" not in text  # best of 3
        assert "Drawn games" in text
        assert event.name in text and "Round 1" in text


def test_no_slip_for_a_bye(client, alice):
    event, _regs = make_event(alice, players=5, best_of=1)
    publish_round(alice, pair_next_round(alice, event))
    client.force_login(alice)
    pdf = get_pdf(client, event, "slips").content
    assert page_count(pdf) == 2
    html = client.get(f"/events/{event.slug}/print/slips/").content.decode()
    assert html.count('class="sheet slip"') == 2
    assert "Game 2" not in html  # best of 1: one box


def test_pairings_by_table_and_by_name_show_every_player_with_the_table(
    client, alice, live, captured
):
    event, regs, rnd = live
    pdf = get_pdf(client, event, "pairings").content  # public, as the page is
    assert pdf.startswith(b"%PDF") and page_count(pdf) == 1
    (text,) = page_texts(captured[-1][0])
    for reg in regs:
        assert reg.display_name in text
    pdf = get_pdf(client, event, "pairings-by-name").content
    assert page_count(pdf) == 1
    html = captured[-1][0]
    names = re.findall(r'<td class="name">([^<]+)</td><td class="num table-no">(\d+)</td>', html)
    assert [n for n, _t in names] == sorted(r.display_name for r in regs)
    tables = {
        s.registration.display_name: s.match.table for m in rnd.matches.all() for s in m.seats.all()
    }
    assert {n: int(t) for n, t in names} == tables


def test_standings_print_after_a_round(client, alice, captured):
    event, regs = make_event(alice, players=4)
    play_round(alice, event)
    pdf = get_pdf(client, event, "standings").content
    assert pdf.startswith(b"%PDF") and page_count(pdf) == 1
    (text,) = page_texts(captured[-1][0])
    assert "After 1 round" in text
    for reg in regs:
        assert reg.display_name in text


def test_standings_print_names_the_round_in_progress_whose_results_they_count(
    client, alice, captured
):
    """One result of round 2 entered: the table counts it (as the page's does), so the
    heading says round 2's results so far are counted, on the page and on paper."""
    from tournaments.services.results import enter_result

    event, _regs = make_event(alice, players=4)
    play_round(alice, event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    enter_result(alice, rnd.matches.order_by("table").first(), [0, 0])
    get_pdf(client, event, "standings")
    (text,) = page_texts(captured[-1][0])
    assert "1-1-0" in text or "2-0-0" in text  # round 2's result is in the table
    assert "After 1 round · round 2 in progress: its results entered so far are counted" in text
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert "After 1 completed round · round 2 in progress" in page
    for match in rnd.matches.filter(status="pending"):
        enter_result(alice, match, [0, 0])
    html = client.get(f"/events/{event.slug}/print/standings/").content.decode()
    assert "After 2 rounds" in html and "in progress" not in html


@pytest.mark.parametrize(("tiebreaks", "oow"), [("pokemon", True), ("mtr", False)])
def test_standings_print_has_the_columns_of_the_events_ruleset(client, alice, tiebreaks, oow):
    """The Play! Pokémon ruleset breaks ties by OOW%: its page and its printout show it."""
    event, _regs = make_event(alice, players=4, tiebreaks=tiebreaks)
    play_round(alice, event)
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    html = client.get(f"/events/{event.slug}/print/standings/").content.decode()
    assert ("OOW%" in page) is oow
    assert ('<th class="num">OOW%</th>' in html) is oow
    for column in ("OMW%", "GW%", "OGW%", "MW%"):  # the page's columns, MW% included
        assert column in page and f'<th class="num">{column}</th>' in html, column
    row = re.search(r"<tr><td class=\"num\">1</td>.*?</tr>", html).group(0)
    assert row.count('<td class="num">') == (8 if oow else 7)


def test_a_bracket_events_standings_print_by_finish_as_its_page(client, alice, captured):
    from tests.tournaments.test_public_pages import finish

    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    finish(alice, event)
    assert get_pdf(client, event, "standings").status_code == 200
    (text,) = page_texts(captured[-1][0])
    assert "Place" in text and "OMW%" not in text and "Points" not in text
    assert text.count("3–4") == 2 and text.count("5–8") == 4
    assert "3-0-0" in text  # the champion's record in the bracket


def test_decklist_sheets_one_per_player_with_the_games_own_sections(client, alice, captured):
    event, regs = make_event(alice, players=3, start=False)
    kit = registry.get(event.game_system)
    client.force_login(alice)
    response = get_pdf(client, event, "decklists")
    if not kit.needs_decklists:
        assert response.status_code == 404
        return
    pdf = response.content
    assert page_count(pdf) == 3
    texts = page_texts(captured[-1][0])
    expected = [s["name"] for s in service.deck_sections(event)]
    assert expected
    if kit.limited:  # the names the game's kit gives its sections
        assert expected == [s.label("en") for s in kit.load("limited").sections]
    for text, reg in zip(texts, sorted(regs, key=lambda r: r.display_name), strict=True):
        assert reg.display_name in text
        assert "Deck name" in text
        for name in expected:
            assert name in text


def test_section_lines_follow_the_target():
    assert service.section_lines("2") == 2
    assert service.section_lines("≤5") == 5
    assert service.section_lines("20+") == 20
    assert service.section_lines("20–50") == service.LINES_MOST
    assert service.section_lines("") == service.LINES_DEFAULT


def test_a4_and_letter_differ_and_the_default_follows_the_browser_languages(client, live):
    event, _regs, _rnd = live
    a4 = get_pdf(client, event, "pairings", paper="a4").content
    letter = get_pdf(client, event, "pairings", paper="LETTER").content
    assert media_boxes(a4) == {A4_BOX}
    assert media_boxes(letter) == {LETTER_BOX}
    plain = client.get(f"/events/{event.slug}/print/pairings.pdf").content
    assert media_boxes(plain) == {A4_BOX}
    us = client.get(
        f"/events/{event.slug}/print/pairings.pdf", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9"
    )
    assert media_boxes(us.content) == {LETTER_BOX}
    assert "letter" in us["Content-Disposition"]
    bad = client.get(f"/events/{event.slug}/print/pairings.pdf", {"paper": "a3"})
    assert bad.status_code == 400


def test_paper_from_languages():
    assert service.paper_for_languages("") == "a4"
    assert service.paper_for_languages("en") == "a4"
    assert service.paper_for_languages("en-US,en;q=0.9") == "letter"
    assert service.paper_for_languages("ru-RU,ru;q=0.9,en-US;q=0.8") == "a4"
    assert service.paper_for_languages("en;q=0.5,fr-CA") == "letter"  # the preferred first
    assert service.paper_for_languages("es-419,es-MX;q=0.8") == "letter"
    assert service.paper_for_languages("en-GB, en-US;q=0") == "a4"
    assert service.paper_for_languages("zh-Hant-TW") == "a4"
    assert service.paper_for_languages(";;;q=abc,\x00") == "a4"


def test_cyrillic_names_are_laid_out_in_a_font_that_has_them(client, alice, captured):
    event, _regs = make_event(alice, players=0, start=False)
    for name in ("Иван Петров", "Ёлка Щукина", "Zoë Smith", "Юрий Гагарин"):
        register(event, display_name=name, actor=alice)
    from tournaments.services.starting import start_event

    event = start_event(alice, event)
    publish_round(alice, pair_next_round(alice, event))
    client.force_login(alice)
    pdf = get_pdf(client, event, "slips").content
    assert page_count(pdf) == 2
    text = " ".join(page_texts(captured[-1][0]))
    for name in ("Иван Петров", "Ёлка Щукина", "Юрий Гагарин"):
        assert name in text
    assert fonts(pdf) and all(f.startswith("DejaVu") for f in fonts(pdf)), fonts(pdf)


def test_russian_pages_print_in_russian(client, live, captured):
    event, _regs, _rnd = live
    client.cookies["django_language"] = "ru"
    response = client.get(f"/events/{event.slug}/print/pairings/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert '<html lang="ru">' in response.content.decode()


# ---------------------------------------------------------------- the preview pages


def test_the_preview_links_the_stylesheet_and_the_pdfs(client, alice, live):
    event, regs, _rnd = live
    client.force_login(alice)
    html = client.get(f"/events/{event.slug}/print/slips/").content.decode()
    assert "/static/css/print.css" in html
    assert "<style" not in html and "style=" not in html  # the CSP allows neither
    assert f"/events/{event.slug}/print/slips.pdf?round=1&amp;paper=letter" in html
    assert regs[0].display_name in html
    console = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert 'id="print-pairings"' in console and 'id="print-slips"' in console


def test_site_pages_print_without_navigation():
    css = Path(service.stylesheet_path()).read_text(encoding="utf-8")
    block = css[css.index("@media print") :]
    assert ".topbar" in block and "nav" in block and "display: none" in block


# ---------------------------------------------------------------- who may print what


@pytest.fixture
def people(alice, charlie, live):
    """The organiser (alice), a judge (charlie), a player of the event and nobody."""
    event, regs, _rnd = live
    add_staff(alice, event, charlie, EventStaff.Role.JUDGE)
    return {"organiser": alice, "judge": charlie, "player": regs[0].user, "anonymous": None}


@pytest.mark.parametrize("kind", ["slips", "decklists"])
@pytest.mark.parametrize("ending", [".pdf", "/"])
def test_slips_and_decklist_sheets_are_the_officials(client, live, people, kind, ending):
    event = live[0]
    url = f"/events/{event.slug}/print/{kind}{ending}"
    statuses = {}
    for role, user in people.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(url)
        statuses[role] = response.status_code
        if role == "anonymous":
            assert response["Location"].startswith("/accounts/login/?next=")
    needs = registry.get(event.game_system).needs_decklists or kind == "slips"
    ok = 200 if needs else 404
    assert statuses == {"organiser": ok, "judge": ok, "player": 403, "anonymous": 302}


@pytest.mark.parametrize("kind", ["pairings", "pairings-by-name", "standings"])
def test_pairings_and_standings_are_as_public_as_their_pages(client, live, people, kind):
    event = live[0]
    for _role, user in people.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        assert get_pdf(client, event, kind).status_code == 200


def test_a_round_under_review_prints_for_officials_only(client, alice, people):
    event = Round.objects.filter(status=Round.Status.PUBLISHED).get().event
    for match in event.rounds.get().matches.filter(is_bye=False):
        from tournaments.services.results import enter_result

        enter_result(alice, match, [0, 0])
    draft = pair_next_round(alice, event)
    assert draft.status == Round.Status.DRAFT
    for role, user in people.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        status = get_pdf(client, event, "pairings", round=draft.number).status_code
        assert status == (200 if role in ("organiser", "judge") else 404), role
    client.force_login(alice)
    assert page_count(get_pdf(client, event, "slips", round=2).content) == 4


def test_bad_addresses_are_refused_cleanly(client, alice, live):
    event = live[0]
    client.force_login(alice)
    for url in (
        f"/events/{event.slug}/print/nothing.pdf",
        f"/events/{event.slug}/print/nothing/",
        f"/events/{event.slug}/print/slips.pdf?round=abc",
        f"/events/{event.slug}/print/slips.pdf?round=99999999999999999999",
        f"/events/{event.slug}/print/slips.pdf?round=7",
        "/events/no-such-event/print/slips.pdf",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/events/{event.slug}/print/slips.pdf").status_code == 405
    empty, _regs = make_event(alice, players=2, start=False, name="Later")
    assert get_pdf(client, empty, "pairings").status_code == 404
    assert get_pdf(client, empty, "standings").status_code == 200


# ---------------------------------------------------------------- API


def test_the_api_returns_pdfs_and_json_errors(live, people):
    event = live[0]
    url = f"/api/events/{event.slug}/printouts/slips/"
    api = APIClient()
    response = api.get(url)
    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/json")
    api.force_authenticate(people["player"])
    assert api.get(url).status_code == 403
    api.force_authenticate(people["judge"])
    response = api.get(url, {"paper": "letter"}, HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert page_count(response.content) == 4
    assert media_boxes(response.content) == {LETTER_BOX}
    bad = api.get(url, {"paper": "tabloid"}, HTTP_ACCEPT="application/pdf")
    assert bad.status_code == 400 and bad.json()["paper"]
    missing = api.get(f"/api/events/{event.slug}/printouts/nothing/")
    assert missing.status_code == 404 and missing.json()["detail"]
    api.force_authenticate(None)
    assert api.get(f"/api/events/{event.slug}/printouts/pairings/").status_code == 200


def test_the_schema_says_the_printouts_are_pdf(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    path = schema.json()["paths"]["/api/events/{event_slug}/printouts/{kind}/"]["get"]
    assert "application/pdf" in path["responses"]["200"]["content"]
    kind = next(p for p in path["parameters"] if p["name"] == "kind")
    assert set(kind["schema"]["enum"]) == set(service.KINDS)
    assert {p["name"] for p in path["parameters"]} >= {"round", "paper"}


def test_team_members_each_get_a_decklist_sheet(client, alice):
    team_formats = [
        (info.key, f.key)
        for info in registry.all_systems()
        for f in info.formats
        if f.is_team and info.needs_decklists
    ]
    if not team_formats:
        pytest.skip("no team format with decklists")
    game, fmt = team_formats[0]
    event, _regs = make_event(alice, players=0, start=False, game_system=game, format=fmt)
    from tournaments.services.teams import register_team

    users = [get_user_model().objects.create_user(f"m{n}") for n in range(2)]
    register_team(event, name="Команда", members=users, actor=alice)
    client.force_login(alice)
    html = client.get(f"/events/{event.slug}/print/decklists/").content.decode()
    assert html.count('class="sheet decklist-sheet"') == 2
    assert "m0" in html and "m1" in html and "Команда" in html


# ---------------------------------------------------------------- big printouts in the background


@pytest.fixture
def background(monkeypatch):
    """Printouts of more than two pages go through the task; the keys it was queued for."""
    from django.core.cache import cache

    from tournaments import tasks

    queued: list[str] = []
    monkeypatch.setattr(service, "BACKGROUND_PAGES", 2)
    monkeypatch.setattr(
        tasks.render_printout, "apply_async", lambda args, **kw: queued.append(args[0])
    )
    yield queued
    for key in queued:
        cache.delete_many([f"{key}:pdf", f"{key}:state", f"{key}:html"])


def test_small_printouts_are_still_made_in_the_request(client, alice, live, background):
    event = live[0]
    client.force_login(alice)
    response = get_pdf(client, event, "pairings")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert background == []


def test_a_big_printout_is_made_by_the_task_and_then_offered(client, alice, live, background):
    from tournaments import tasks

    event = live[0]
    client.force_login(alice)
    first = get_pdf(client, event, "slips", paper="a4")
    assert first.status_code == 202
    page = first.content.decode()
    assert "Preparing 4 pages" in page and 'hx-trigger="every 2s"' in page
    assert len(background) == 1
    key = background[0]
    assert key.startswith(f"printout:{event.pk}:slips:1:a4:")
    # The polls: no PDF yet, the same key, nothing queued again.
    poll = re.search(r'hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert "wait=" in poll
    waiting = client.get(poll)
    assert waiting.status_code == 200 and 'data-state="queued"' in waiting.content.decode()
    assert "printout-download" not in waiting.content.decode()
    assert get_pdf(client, event, "slips", paper="a4").status_code == 202
    assert background == [key]  # two clicks, one render

    assert tasks.render_printout(key) == service.READY
    ready = client.get(poll).content.decode()
    assert 'data-state="ready"' in ready and "hx-trigger" not in ready  # polling stops
    download = re.search(r'id="printout-download" href="([^"]+)"', ready.replace("&amp;", "&"))
    response = client.get(download.group(1))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert page_count(response.content) == 4
    assert media_boxes(response.content) == {A4_BOX}
    assert background == [key]


def test_the_task_is_harmless_twice_and_a_changed_round_renders_again(
    client, alice, live, background, monkeypatch
):
    from tournaments import tasks

    event, regs, _rnd = live
    client.force_login(alice)
    assert get_pdf(client, event, "slips").status_code == 202
    made = []
    real = service.render_pdf
    monkeypatch.setattr(service, "render_pdf", lambda html: made.append(html) or real(html))
    assert tasks.render_printout(background[0]) == service.READY
    assert tasks.render_printout(background[0]) == service.READY  # a redelivery
    assert len(made) == 1
    assert get_pdf(client, event, "slips").status_code == 200
    regs[0].display_name = "Renamed Player"
    regs[0].save(update_fields=["display_name"])
    assert get_pdf(client, event, "slips").status_code == 202  # another key
    assert len(background) == 2 and background[0] != background[1]
    tasks.render_printout(background[1])
    assert "Renamed Player" in made[-1]


def test_a_lost_html_fails_and_can_be_tried_again(client, alice, live, background):
    from django.core.cache import cache

    from tournaments import tasks

    event = live[0]
    client.force_login(alice)
    get_pdf(client, event, "slips")
    key = background[0]
    cache.delete(f"{key}:html")  # the task came too late
    assert tasks.render_printout(key) == service.FAILED
    page = get_pdf(client, event, "slips").content.decode()
    assert 'data-state="failed"' in page and "hx-trigger" not in page
    assert len(background) == 1  # a failure is not queued again by itself
    again = re.search(r'id="printout-again" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert client.get(again).status_code == 202
    assert background == [key, key]
    assert tasks.render_printout(key) == service.READY


def test_the_api_answers_202_with_a_location_then_the_pdf(live, people, background):
    from tournaments import tasks

    event = live[0]
    url = f"/api/events/{event.slug}/printouts/slips/"
    api = APIClient()
    api.force_authenticate(people["judge"])
    response = api.get(url, {"paper": "letter"}, HTTP_ACCEPT="application/pdf")
    assert response.status_code == 202
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["pages"] == 4 and response.json()["state"] == "queued"
    assert response["Location"] == f"{url}?paper=letter" and response["Retry-After"] == "2"
    assert api.get(response["Location"]).status_code == 202
    assert len(background) == 1
    tasks.render_printout(background[0])
    made = api.get(response["Location"], HTTP_ACCEPT="application/pdf")
    assert made.status_code == 200 and page_count(made.content) == 4
    assert media_boxes(made.content) == {LETTER_BOX}


# ---------------------------------------------------------------- slips two or four to a page

MM = 96 / 25.4  # CSS pixels (WeasyPrint's unit) in a millimetre
SHEETS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def slip_cells(html: str) -> list[tuple[tuple[float, float], list[dict]]]:
    """Each page's size (mm) and its slips' cells as WeasyPrint lays them out: the cell's
    box, its dashed edges, and how far down its content reaches (mm)."""
    document = HTML(string=html).render(stylesheets=[CSS(filename=service.stylesheet_path())])
    pages = []
    for page in document.pages:
        box = page._page_box
        cells = []
        for cell in box.descendants():
            classes = (cell.element.get("class") or "").split() if cell.element is not None else []
            if "slip-cell" not in classes or not isinstance(cell, boxes.BlockBox):
                continue
            inner = [d for d in cell.descendants() if d is not cell and hasattr(d, "margin_height")]
            style = cell.style
            cells.append(
                {
                    "table": cell.element.get("data-table"),
                    "x": cell.position_x / MM,
                    "y": cell.position_y / MM,
                    "width": cell.border_width() / MM,
                    "height": cell.border_height() / MM,
                    "reach": max(d.position_y + d.margin_height() for d in inner) / MM,
                    "dashed": {
                        side
                        for side in ("top", "right", "bottom", "left")
                        if style[f"border_{side}_style"] == "dashed"
                        and style[f"border_{side}_width"] > 0
                    },
                }
            )
        pages.append(((box.margin_width() / MM, box.margin_height() / MM), cells))
    return pages


@pytest.fixture
def sixteen(alice):
    """Sixteen players (long names, some Cyrillic), best of 5, round 1: eight tables."""
    event, regs = make_event(alice, players=16, best_of=5)
    for n, reg in enumerate(regs):
        name = "Александра Константинопольская" if n % 2 else f"Maximiliana Wolfeschlegel {n}"
        reg.display_name = name + f" {n}"
        reg.save(update_fields=["display_name"])
    rnd = publish_round(alice, pair_next_round(alice, event))
    return event, rnd


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", [2, 4])
def test_slips_two_or_four_to_a_page_are_cut_on_the_sheets_middle_lines(
    client, alice, sixteen, captured, paper, layout
):
    event, rnd = sixteen
    client.force_login(alice)
    response = get_pdf(client, event, "slips", paper=paper, layout=layout)
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith(f'-{paper}-{layout}up.pdf"')
    pdf = response.content
    assert page_count(pdf) == 8 // layout
    width, height = SHEETS[paper]
    if layout == 4:  # a landscape sheet cut in quarters
        width, height = height, width
    (points,) = media_boxes(pdf)
    assert (round(points[0] / 72 * 25.4), round(points[1] / 72 * 25.4)) == (
        round(width),
        round(height),
    )
    html, _pdf = captured[-1]
    pages = slip_cells(html)
    tables = [str(m.table) for m in rnd.matches.order_by("table")]
    assert [c["table"] for _size, cells in pages for c in cells] == tables  # in order
    for (size, cells), texts in zip(pages, page_texts(html), strict=True):
        assert size == pytest.approx((width, height), abs=0.1)
        assert len(cells) == layout
        for cell in cells:
            # Every slip is whole inside its piece of paper: nothing runs past the cut.
            assert cell["reach"] <= cell["y"] + cell["height"] + 0.01, cell
            assert f"Table {cell['table']}" in texts
        if layout == 2:
            top, bottom = cells
            assert top["y"] == 0 and top["height"] == pytest.approx(height / 2, abs=0.01)
            assert top["dashed"] == {"bottom"} and not bottom["dashed"]  # the cut across
            assert top["width"] == pytest.approx(width, abs=0.01)
        else:
            assert [c["dashed"] for c in cells] == [
                {"right", "bottom"},
                {"bottom"},
                {"right"},
                set(),
            ]
            assert cells[0]["width"] == pytest.approx(width / 2, abs=0.01)
            assert cells[0]["height"] == pytest.approx(height / 2, abs=0.01)
            assert (cells[1]["x"], cells[2]["y"]) == pytest.approx((width / 2, height / 2))
        for match in rnd.matches.filter(table__in=[int(c["table"]) for c in cells]):
            for seat in match.seats.all():
                assert f"Signature of {seat.registration.display_name}" in texts
        assert "Game 5" in texts and "Drawn games" in texts


def test_a_last_sheet_of_slips_may_hold_fewer(client, alice, captured):
    event, _regs = make_event(alice, players=6)
    publish_round(alice, pair_next_round(alice, event))
    client.force_login(alice)
    assert page_count(get_pdf(client, event, "slips", layout=4).content) == 1
    assert page_count(get_pdf(client, event, "slips", layout=2).content) == 2
    html, _pdf = captured[-1]
    assert [len(cells) for _size, cells in slip_cells(html)] == [2, 1]


def test_the_preview_offers_the_layouts_and_keeps_the_layout_in_its_pdf_links(client, alice, live):
    event = live[0]
    client.force_login(alice)
    html = client.get(f"/events/{event.slug}/print/slips/", {"layout": 4, "paper": "a4"})
    page = html.content.decode()
    assert 'class="printout paper-a4 kind-slips layout-4"' in page
    assert page.count('class="sheet slips-up up-4"') == 1 and page.count("slip-cell") == 4
    assert "paper=letter&amp;layout=4" in page  # the PDF links keep the layout
    assert 'data-layout="2"' in page and 'aria-current="page">4<' in page
    one = client.get(f"/events/{event.slug}/print/slips/").content.decode()
    assert 'data-layout="4"' in one and "slips-up" not in one
    pairings = client.get(f"/events/{event.slug}/print/pairings/").content.decode()
    assert "data-layout" not in pairings  # the layouts are the slips' alone


def test_the_console_print_menu_offers_slips_two_and_four_to_a_page(client, alice, live):
    event = live[0]
    client.force_login(alice)
    console = client.get(f"/events/{event.slug}/manage/").content.decode()
    for n in (2, 4):
        for paper in ("a4", "letter"):
            assert f'id="print-slips-{n}up-{paper}"' in console
            assert f"paper={paper}&amp;layout={n}" in console


@pytest.mark.parametrize("ending", [".pdf", "/"])
def test_slips_in_any_layout_are_the_officials(client, live, people, ending):
    event = live[0]
    url = f"/events/{event.slug}/print/slips{ending}?layout=4"
    statuses = {}
    for role, user in people.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        statuses[role] = client.get(url).status_code
    assert statuses == {"organiser": 200, "judge": 200, "player": 403, "anonymous": 302}
    # A bad layout is refused only to those who may print at all.
    client.logout()
    assert client.get(f"/events/{event.slug}/print/slips{ending}?layout=3").status_code == 302


def test_bad_layouts_are_refused_with_a_400(client, alice, live):
    event = live[0]
    client.force_login(alice)
    for kind, layout in (("slips", "3"), ("slips", "x"), ("slips", "44"), ("pairings", "2")):
        for ending in (".pdf", "/"):
            response = client.get(f"/events/{event.slug}/print/{kind}{ending}?layout={layout}")
            assert response.status_code == 400, (kind, layout, ending)
    assert get_pdf(client, event, "pairings", layout=1).status_code == 200


def test_the_api_takes_the_layout(live, people):
    event = live[0]
    url = f"/api/events/{event.slug}/printouts/slips/"
    api = APIClient()
    assert api.get(url, {"layout": 2}).status_code == 401
    api.force_authenticate(people["player"])
    assert api.get(url, {"layout": 2}).status_code == 403
    for role in ("judge", "organiser"):
        api.force_authenticate(people[role])
        response = api.get(url, {"layout": 2, "paper": "a4"}, HTTP_ACCEPT="application/pdf")
        assert response.status_code == 200 and page_count(response.content) == 2
        assert media_boxes(response.content) == {A4_BOX}
        four = api.get(url, {"layout": 4, "paper": "a4"}, HTTP_ACCEPT="application/pdf")
        assert page_count(four.content) == 1 and media_boxes(four.content) == {A4_BOX[::-1]}
    bad = api.get(url, {"layout": 3})
    assert bad.status_code == 400 and bad.json()["layout"]
    other = api.get(f"/api/events/{event.slug}/printouts/standings/", {"layout": 4})
    assert other.status_code == 400 and other.json()["layout"]


def test_the_schema_documents_the_layout(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    path = schema.json()["paths"]["/api/events/{event_slug}/printouts/{kind}/"]["get"]
    layout = next(p for p in path["parameters"] if p["name"] == "layout")
    assert layout["in"] == "query" and layout["schema"]["enum"] == [1, 2, 4]


def test_slips_go_to_the_background_by_their_number_whatever_the_sheets(alice, monkeypatch):
    event, _regs = make_event(alice, players=16)
    publish_round(alice, pair_next_round(alice, event))
    four = service.printout(alice, event, "slips", paper="a4", layout=4)
    one = service.printout(alice, event, "slips", paper="a4")
    assert (service.pages_of(one), service.pages_of(four)) == (8, 2)  # the pages told
    assert service.stored_key(one, "x") != service.stored_key(four, "x")
    # Four to a sheet cost what one to a page costs (the same boxes): eight slips, over 7.
    monkeypatch.setattr(service, "BACKGROUND_PAGES", 7)
    assert service.in_background(one) and service.in_background(four)
    monkeypatch.setattr(service, "BACKGROUND_PAGES", 8)
    assert not service.in_background(four)
