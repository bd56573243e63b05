"""Printouts in a browser: the organiser clicks "Print pairings" in the console and gets
a PDF (Letter, as the browser's locale is en-US); the public pairings page printed by the
browser (print media) has no navigation; the print preview of the result slips looks
like paper on a laptop and a phone, in English and Russian, and never scrolls sideways.

With ``PRINTOUT_SCREENSHOTS=<dir>`` each page is saved there as a PNG, and the browser's
own PDF of the pairings page too.
"""

from __future__ import annotations

import contextlib
import os
import re
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
NAMES = ["Анна Ковалёва", "Борис Щукин", "Cleo Park", "Дмитрий Ёлкин", "Eve Stone", "Фёдор", "Gala", "Hugo"]  # fmt: skip


def folder() -> Path | None:
    where = os.environ.get("PRINTOUT_SCREENSHOTS")
    if not where:
        return None
    path = Path(where)
    path.mkdir(parents=True, exist_ok=True)
    return path


def shoot(page: Page, name: str) -> None:
    path = folder()
    if path is not None:
        page.screenshot(path=str(path / f"{name}.png"), full_page=True)


def _inflated(pdf: bytes) -> bytes:
    out = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        with contextlib.suppress(zlib.error):
            out.append(zlib.decompress(match.group(1)))
    return b"\n".join(out)


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.fixture
def print_event(alice, live_server_url):
    event = create_event(alice, name="Print Cup", swiss_rounds=3, best_of=3)
    for name in NAMES:
        register(event, display_name=name, actor=alice)
    event = start_event(alice, event)
    publish_round(alice, pair_next_round(alice, event))
    return event


def _pdf_from_click(page: Page, selector: str) -> tuple[bytes, str]:
    """Click a link to a PDF: the bytes and the file's name, whether Chromium downloads
    it or shows it in its viewer (then the bytes are asked again with the page's cookies:
    the viewer's page stands in for the response body)."""
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    with page.expect_response(lambda r: ".pdf" in r.url) as answer:
        page.click(selector)
    response = answer.value
    assert response.headers.get("content-type") == "application/pdf"
    if downloads:
        return Path(downloads[0].path()).read_bytes(), downloads[0].suggested_filename
    again = page.request.get(response.url, headers={"Accept-Language": "en-US,en"})
    return again.body(), response.headers.get("content-disposition", "")


def test_print_pairings_from_the_console_and_the_print_preview(
    print_event, new_page, live_server_url
):
    event = print_event
    page = new_page()
    log_in(page, "alice")
    page.set_viewport_size(LAPTOP)
    page.goto(f"/events/{event.slug}/manage/")
    printouts = page.locator("#printouts")
    expect(printouts.locator("#print-pairings")).to_have_text("Print pairings")
    expect(printouts.locator("#print-slips")).to_be_visible()
    path = folder()
    if path is not None:
        printouts.screenshot(path=str(path / "console-printouts-laptop.png"))
        page.locator("#players").screenshot(path=str(path / "console-players-laptop.png"))
    pdf, name = _pdf_from_click(page, "#print-pairings")
    assert name.endswith("-letter.pdf") or 'letter.pdf"' in name, name  # the locale is en-US
    assert pdf.startswith(b"%PDF")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert b"612 792" in pdf + _inflated(pdf)  # Letter's MediaBox

    # The public pairings page, printed by the browser: no navigation, black on white.
    page.goto(f"/events/{event.slug}/pairings/")
    page.emulate_media(media="print")
    for hidden in ("header.topbar", "footer.footer", "nav.tabs", "form"):
        expect(page.locator(hidden).first).to_be_hidden()
    expect(page.locator("table.pairings").first).to_be_visible()
    expect(page.locator("table.pairings").first).to_contain_text(NAMES[0])
    color = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert color in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), color
    printed = page.pdf(format="A4")
    assert printed.startswith(b"%PDF")
    shoot(page, "pairings-page-print-media")
    if path is not None:
        (path / "pairings-page-browser.pdf").write_bytes(printed)
    page.emulate_media(media="screen")
    expect(page.locator("header.topbar")).to_be_visible()

    # The print preview of the slips: a sheet per table, the PDF links, no sideways scroll.
    for language in ("en", "ru"):
        page.set_viewport_size(LAPTOP)
        page.goto(f"/events/{event.slug}/print/slips/")
        if language == "ru":
            page.context.add_cookies(
                [{"name": "django_language", "value": "ru", "url": live_server_url + "/"}]
            )
            page.reload()
            expect(page.locator("html")).to_have_attribute("lang", "ru")
            expect(page.locator(".slip").first).to_contain_text("Стол")
        expect(page.locator(".slip")).to_have_count(4)
        expect(page.locator(".print-toolbar a[data-paper=letter]")).to_have_attribute(
            "href", re.compile(r"slips\.pdf\?round=1&paper=letter$")
        )
        expect(page.locator(".slip").first.locator("td.box")).to_have_count(8)  # 2 × (3 + 1)
        shoot(page, f"slips-preview-{language}-laptop")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0, f"the preview is {overflow(page)}px wider than a phone"
        shoot(page, f"slips-preview-{language}-phone")
        page.set_viewport_size(LAPTOP)
        page.goto(f"/events/{event.slug}/print/decklists/")
        expect(page.locator(".decklist-sheet")).to_have_count(len(NAMES))
        if language == "ru":
            expect(page.locator("html")).to_have_attribute("lang", "ru")
        shoot(page, f"decklists-preview-{language}-laptop")
        page.emulate_media(media="print")
        expect(page.locator(".print-toolbar")).to_be_hidden()
        page.emulate_media(media="screen")


def test_a_big_printout_is_prepared_then_offered(alice, embedded_server, browser, db_thread):
    """Over ``BACKGROUND_PAGES`` pages (61 decklist sheets), the PDF link answers
    "Preparing 61 pages…", which polls until the embedded server's Celery worker has made
    the PDF, then offers it; in Russian too (another language, another PDF)."""
    from tournaments.services import printouts as service

    pages = service.BACKGROUND_PAGES + 1

    def make():
        event = create_event(alice, name="Big Print Cup", swiss_rounds=3, best_of=3)
        for n in range(pages):
            name = f"Игрок {n:03d}" if n % 2 else f"Player {n:03d}"
            register(event, display_name=name, actor=alice)
        return event, event.game_info.needs_decklists

    event, decklists = db_thread(make)
    if not decklists:
        pytest.skip("the default game has no decklists")
    context = browser.new_context(base_url=embedded_server, locale="en-US")
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        log_in(page, "alice")
        url = f"/events/{event.slug}/print/decklists.pdf?paper=a4"
        for language in ("en", "ru"):
            if language == "ru":
                context.add_cookies(
                    [{"name": "django_language", "value": "ru", "url": embedded_server + "/"}]
                )
            page.set_viewport_size(LAPTOP)
            page.goto(url)
            progress = page.locator("#printout-progress")
            expect(progress).to_have_attribute("data-state", re.compile("queued|rendering"))
            if language == "en":
                expect(progress).to_contain_text(f"Preparing {pages} pages")
            shoot(page, f"decklists-preparing-{language}-laptop")
            page.set_viewport_size(PHONE)
            assert overflow(page) <= 0
            shoot(page, f"decklists-preparing-{language}-phone")
            expect(page.locator("#printout-download")).to_be_visible(timeout=90_000)
            expect(progress).to_have_attribute("data-state", "ready")
            shoot(page, f"decklists-prepared-{language}-phone")
            page.set_viewport_size(LAPTOP)
            shoot(page, f"decklists-prepared-{language}-laptop")
            pdf, _name = _pdf_from_click(page, "#printout-download")
            assert pdf.startswith(b"%PDF")
            assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", _inflated(pdf) + pdf)) == pages
    finally:
        context.close()


def test_slips_two_and_four_to_a_page_from_the_console_and_in_the_preview(
    print_event, new_page, live_server_url
):
    """The console's print menu offers the slips 2 and 4 to a page; the 4-up link gives a
    landscape PDF of one sheet; the previews show the sheets with their dashed cut lines,
    on a laptop and a phone, in English and Russian."""
    event = print_event
    page = new_page()
    log_in(page, "alice")
    page.set_viewport_size(LAPTOP)
    page.goto(f"/events/{event.slug}/manage/")
    menu = page.locator("#printouts .slip-layouts")
    expect(menu).to_contain_text("2 to a page")
    expect(menu).to_contain_text("4 to a page")
    path = folder()
    if path is not None:
        page.locator("#printouts").screenshot(
            path=str(path / "console-printouts-layouts-laptop.png")
        )
    pdf, name = _pdf_from_click(page, "#print-slips-4up-a4")
    assert "a4-4up.pdf" in name, name
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", _inflated(pdf) + pdf)) == 1
    assert re.search(
        rb"/MediaBox\s*\[\s*0 0 841\.\d* 595\.\d*", pdf + _inflated(pdf)
    )  # A4 landscape

    for language in ("en", "ru"):
        if language == "ru":
            page.context.add_cookies(
                [{"name": "django_language", "value": "ru", "url": live_server_url + "/"}]
            )
        for layout, sheets in ((2, 2), (4, 1)):
            page.set_viewport_size(LAPTOP)
            page.goto(f"/events/{event.slug}/print/slips/?paper=a4&layout={layout}")
            expect(page.locator(f"section.sheet.up-{layout}")).to_have_count(sheets)
            expect(page.locator(".slip-cell")).to_have_count(4)
            if language == "ru":
                expect(page.locator(".slip-cell").first).to_contain_text("Стол")
            expect(page.locator(".print-toolbar a[data-paper=letter]")).to_have_attribute(
                "href", re.compile(rf"paper=letter&layout={layout}$")
            )
            cut = page.locator(".slip-cell.cell-1").first
            assert cut.evaluate("e => getComputedStyle(e).borderBottomStyle") == "dashed"
            # The cells tile the sheet: the first ends on its middle line.
            sheet_box = page.locator("section.sheet").first.bounding_box()
            cell_box = cut.bounding_box()
            assert abs(cell_box["height"] - sheet_box["height"] / 2) < 2, (cell_box, sheet_box)
            shoot(page, f"slips-{layout}up-{language}-laptop")
            page.set_viewport_size(PHONE)
            assert overflow(page) <= 0, f"the preview is {overflow(page)}px wider than a phone"
            shoot(page, f"slips-{layout}up-{language}-phone")
            page.emulate_media(media="print")
            expect(page.locator(".print-toolbar")).to_be_hidden()
            page.emulate_media(media="screen")


@pytest.fixture
def played_event(alice, live_server_url):
    """Eight players, round 1 played: standings with every column."""
    from tests.tournaments.factories import make_event, play_round

    event, _regs = make_event(alice, players=8, name="Print Open")
    play_round(alice, event)
    return event


def test_a_wide_sheet_on_a_phone_says_it_scrolls_and_the_hint_never_prints(
    played_event, new_page, live_server_url
):
    """The standings sheet is wider than a phone: it scrolls inside itself, and a line
    above the sheets says so; on a laptop, and on paper, there is no such line."""
    page = new_page()
    log_in(page, "alice")
    for language in ("en", "ru"):
        if language == "ru":
            page.context.add_cookies(
                [{"name": "django_language", "value": "ru", "url": live_server_url + "/"}]
            )
        page.set_viewport_size(LAPTOP)
        page.goto(f"/events/{played_event.slug}/print/standings/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        hint = page.locator(".preview-hint")
        expect(hint).to_be_hidden()
        shoot(page, f"standings-preview-{language}-laptop")
        page.set_viewport_size(PHONE)
        expect(hint).to_be_visible()
        expect(hint).to_contain_text("→")
        sheet = page.locator(".sheet").first
        assert sheet.evaluate("(el) => el.scrollWidth > el.clientWidth")
        assert hint.bounding_box()["y"] < sheet.bounding_box()["y"]
        assert overflow(page) <= 0, f"the preview is {overflow(page)}px wider than a phone"
        shoot(page, f"standings-preview-{language}-phone")
        page.emulate_media(media="print")
        expect(hint).to_be_hidden()
        page.emulate_media(media="screen")
