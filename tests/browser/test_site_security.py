"""The site's security layer in a real browser: the Content-Security-Policy watch of
tests/browser/conftest.py sees a violation, the API docs work under their policy, the
pages' former inline handlers (confirmations, a select that submits its form) work from
static/js/gauntlet.js, and a locked-out player is told why, in their language."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tournaments.services.events import create_event
from tournaments.services.players import register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAILURE_LIMIT = 5  # LOGIN_FAILURE_LIMIT's default, which the test server runs with
# Swagger UI and Redoc each fetch the whole schema (drf-spectacular makes it, about 290 kB,
# on every request) and then draw all of it in the page: on a busy machine that takes
# longer than expect's default 5 s (Redoc took 4.3 s after its page loaded at a load
# average of 7 on two cores), so what they draw is waited for this long.
DOCS_DRAWN_MS = 30_000


def try_log_in(page, username: str, password: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.locator("main").get_by_role("button", name="Log in").click()


def test_the_watch_sees_what_the_policy_refuses(new_page, csp_watch):
    page = new_page()
    page.goto("/accounts/login/")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    assert csp_watch.violations == []

    # An inline script and a style attribute, as an injection would write them.
    page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.injected = true;";
            document.body.append(script);
            document.querySelector("h1").setAttribute("style", "color: red");
        }"""
    )

    # The reports arrive from the browser's side, as events: wait until both refusals
    # and the console's message are in (a busy machine delays them), for 10 s at most.
    expected = ("script-src", "style-src", "Content Security Policy")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        seen = "\n".join(csp_watch.violations)
        if all(part in seen for part in expected):
            break
        page.wait_for_timeout(50)
    assert page.evaluate("window.injected") is None  # the script never ran
    seen = "\n".join(csp_watch.violations)
    assert "script-src" in seen and "style-src" in seen, seen
    assert "Content Security Policy" in seen, seen  # the console's message, not only the event
    csp_watch.violations.clear()  # provoked on purpose


def test_swagger_ui_and_redoc_work_under_their_policies(new_page):
    page = new_page()
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text(
        "Gauntlet API", timeout=DOCS_DRAWN_MS
    )
    expect(page.locator(".opblock-summary-path", has_text="/api/token/").first).to_be_visible()

    page.goto("/api/redoc/")
    expect(page.get_by_role("heading", name=re.compile("Gauntlet API"))).to_be_visible(
        timeout=DOCS_DRAWN_MS
    )
    expect(page.locator("redoc")).to_contain_text("/api/token/", timeout=DOCS_DRAWN_MS)


def test_a_confirmation_asked_by_the_pages_script(alice, bob, new_page, db_thread):
    from tournaments.models import Registration

    def registered() -> bool:
        return Registration.objects.filter(user=bob, status="registered").exists()

    def event_with_bob():
        event = create_event(alice, name="Confirm Cup", swiss_rounds=3)
        register(event, user=bob)
        return event.slug

    slug = db_thread(event_with_bob)
    page = new_page()
    page.goto("/accounts/login/")
    try_log_in(page, "bob", "pw-bob")
    page.goto(f"/events/{slug}/")
    asked = []

    def answer(accept: bool):
        def handle(dialog):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return handle

    page.once("dialog", answer(False))
    page.get_by_role("button", name="Unregister").click()
    expect(page.get_by_role("button", name="Unregister")).to_be_visible()
    assert asked == ["Drop from this event?"]
    assert db_thread(registered) is True

    page.once("dialog", answer(True))
    page.get_by_role("button", name="Unregister").click()
    expect(page.get_by_role("button", name="Unregister")).to_have_count(0)
    assert asked == ["Drop from this event?"] * 2
    assert db_thread(registered) is False


def test_a_locked_out_player_is_told_why_in_their_language(alice, new_page):
    page = new_page()
    page.goto("/accounts/login/")
    for _ in range(FAILURE_LIMIT - 1):
        try_log_in(page, "alice", "wrong")
        expect(page.locator(".errorlist")).to_be_visible()
    expect(page.locator("#lockout")).to_have_count(0)

    try_log_in(page, "alice", "wrong")
    expect(page.locator("#lockout")).to_contain_text(
        "Too many failed log-ins for this account from your address. Try again in 15 minutes."
    )
    try_log_in(page, "alice", "pw-alice")  # the right password does not help now
    expect(page.locator("#lockout")).to_be_visible()
    expect(page.get_by_role("button", name="Log out (alice)")).to_have_count(0)

    # The language switch submits itself (its handler lives in gauntlet.js now).
    page.get_by_label("Language").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.get_by_label("Имя пользователя").fill("alice")
    page.get_by_label("Пароль").fill("pw-alice")
    page.locator("main").get_by_role("button", name="Войти").click()
    expect(page.locator("#lockout")).to_contain_text("Попробуйте снова через 15 минут.")
