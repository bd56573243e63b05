"""Browser tests: a real daphne server on the test database, driven by Chromium.

The server runs in a subprocess (websockets need a real ASGI server) and uses
the database pytest-django created for this worker, so what the browser does is
committed there and visible to the test; tests using it are transactional, and
pytest-django empties the tables afterwards. With ``REDIS_URL`` set both
processes use the Redis channel layer, under a channel prefix of their own, so
a broadcast made in the test process reaches the pages the server holds open.

Playwright never downloads a browser here: it starts Debian's Chromium. If that
is missing the tests fail, they do not skip: CI installs it (``make system-deps``).

Every browser context a test opens is watched for Content-Security-Policy violations
(``CspWatch``): a test whose pages had any fails, so the browser tests check the policy
on every page they walk.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SERVER_START_TIMEOUT = 30.0
LOG_TAIL_CHARS = 20_000

# The running server's log, read by the report hook below when a test fails.
_server_log: Path | None = None
# The log of the test's embedded-mode server (``embedded_server``), likewise.
_embedded_log: Path | None = None


@dataclass(frozen=True)
class LiveServer:
    url: str
    channels_prefix: str
    log: Path


def _database_url(db: dict) -> str:
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or ""  # empty: the local socket, as for the test process
    if ":" in host:
        host = f"[{host}]"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    query = "&".join(
        f"{quote(str(k))}={quote(str(v))}" for k, v in (db.get("OPTIONS") or {}).items()
    )
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}" + (
        f"?{query}" if query else ""
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _port_answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _tail(path: Path) -> str:
    try:
        return path.read_text(errors="replace")[-LOG_TAIL_CHARS:]
    except OSError:
        return ""


def _daphne_command(port: int) -> list[str]:
    daphne = Path(sys.executable).with_name("daphne")
    base = [str(daphne)] if daphne.exists() else [sys.executable, "-m", "daphne"]
    return [*base, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]


def _stop(proc: subprocess.Popen, grace: float = 10) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def _start_daphne(env: dict[str, str], log: Path, what: str) -> tuple[subprocess.Popen, int]:
    """A daphne serving the project on a free port, its output appended to ``log``; the
    test run fails with that output if it does not start (three tries: another process
    may take the free port first)."""
    from django.conf import settings

    with log.open("ab") as out:
        for _attempt in range(3):
            port = _free_port()
            out.write(f"--- {' '.join(_daphne_command(port))}\n".encode())
            out.flush()
            proc = subprocess.Popen(
                _daphne_command(port),
                cwd=settings.BASE_DIR,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            deadline = time.monotonic() + SERVER_START_TIMEOUT
            while proc.poll() is None and time.monotonic() < deadline and not _port_answers(port):
                time.sleep(0.1)
            if proc.poll() is None and _port_answers(port):
                return proc, port
            _stop(proc)
    pytest.fail(f"{what} did not start; its output:\n{_tail(log)}", pytrace=False)


def _wait_for_disconnects(django_db_blocker, timeout: float = 10.0) -> None:
    """Wait until the server's connections to the test database are gone, so it can be dropped."""
    from django.db import connection

    deadline = time.monotonic() + timeout
    with django_db_blocker.unblock():
        while time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                if cursor.fetchone()[0] == 0:
                    return
            time.sleep(0.1)


@pytest.fixture(scope="session")
def daphne_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """A daphne process serving the app from this worker's test database."""
    global _server_log
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail(
            "Browser tests need a test database another process can open: run them with "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (as `make test` does), "
            f"not {db['ENGINE']}.",
            pytrace=False,
        )
    channels_config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"{channels_config.get('prefix', 'gauntlet')}-browser-{worker}-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(db),
        "DEBUG": "true",
        "FAST_PASSWORD_HASHER": "true",  # the test process hashes passwords with MD5
        "CHANNELS_PREFIX": prefix,
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    }
    log = tmp_path_factory.mktemp("daphne") / "daphne.log"
    proc, port = _start_daphne(env, log, "daphne")
    _server_log = log
    try:
        yield LiveServer(url=f"http://127.0.0.1:{port}", channels_prefix=prefix, log=log)
    finally:
        _stop(proc)
        _wait_for_disconnects(django_db_blocker)
        _server_log = None


@pytest.fixture
def live_server_url(daphne_server, transactional_db, settings):
    """The server's address, for a transactional test sharing its channel layer."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    if "prefix" in layers["default"].get("CONFIG", {}):
        layers["default"]["CONFIG"]["prefix"] = daphne_server.channels_prefix
        settings.CHANNEL_LAYERS = layers  # channels drops its cached layer on setting_changed
    return daphne_server.url


@pytest.fixture
def embedded_server(live_server_url, tmp_path):
    """A second daphne, in embedded mode (no ``REDIS_URL``), on the test database: one
    process whose in-memory broker feeds its own Celery worker threads (``config.embedded``),
    the default way to run the site. For tests whose clicked moves a worker must apply:
    the session's daphne has no worker in Redis mode, and a worker process on the Redis
    queue would share it with every other test process on that Redis database. Its output
    is kept in ``embedded.log`` in the test's temporary directory (and shown with a failed
    test's report); the address is returned.
    """
    global _embedded_log
    from django.db import connection

    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "CHANNEL_LAYER", "CHANNELS_PREFIX")
    }
    env.update(
        DATABASE_URL=_database_url(connection.settings_dict),
        DEBUG="true",
        FAST_PASSWORD_HASHER="true",  # the test process hashes passwords with MD5
        EMBEDDED_WORKER_THREADS="2",
        DATABASE_POOL_MAX="4",
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    log = tmp_path / "embedded.log"
    proc, port = _start_daphne(env, log, "the embedded daphne")
    _embedded_log = log
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        _embedded_log = None
        # The worker's threads keep the process alive after SIGTERM: a short grace, then
        # kill (the database notices the closed connections at once).
        _stop(proc, grace=2)


@pytest.fixture
def db_thread():
    """One thread for the test's ORM calls while Playwright runs (Django refuses them in
    the thread of Playwright's event loop)."""
    from django.db import connection

    pool = ThreadPoolExecutor(max_workers=1)

    def run(fn, *args):
        return pool.submit(fn, *args).result(timeout=60)

    yield run
    pool.submit(lambda: connection.close()).result(timeout=60)  # the helper thread's connection
    pool.shutdown()


def log_in(page, username: str) -> None:
    """Log in through the login page (test users' passwords are ``pw-<name>``)."""
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"pw-{username}")
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out ({username})")).to_be_visible()


# The sizes the table tests look at: a desktop and a phone.
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# The Tactics table's stylesheet (it comes with each redraw) applies: the board is drawn
# (selector, CSS property, value: ``screenshot``'s ``ready``).
TACTICS_BOARD_DRAWN = (".tx-board", "display", "block")


def compact(action) -> str:
    """An action as the table's forms post it."""
    return json.dumps(action, separators=(",", ":"))


def posted_actions(page, scope: str) -> list[str]:
    """What the action forms under ``scope`` post, each field's value, in the page's order."""
    return page.eval_on_selector_all(
        f"{scope} form.act input[name=action]", "els => els.map(e => e.value)"
    )


def overflow(page) -> int:
    """How many pixels the page is wider than the window (0 or less: it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def screenshot(
    page,
    name: str,
    ready: tuple[str, str, str] | None = None,
    full_page: bool = True,
    pointer_away: bool = False,
) -> None:
    """With ``PLAY_SCREENSHOTS=<dir>``: the page saved there as ``<name>.png``, once
    ``ready`` holds, ``(selector, CSS property, value)``: the first element of the
    selector has that computed value (its stylesheet applied); ``pointer_away``: the
    mouse moved off the page first (no card text left open under it). Without it,
    nothing happens.

    Not ``page.wait_for_function``: past its first check it evaluates its expression as
    a string in the page, which the site's policy (no 'unsafe-eval') refuses, so it fails
    whenever the page is not ready at once; ``expect`` waits without that.
    """
    from playwright.sync_api import expect

    folder = os.environ.get("PLAY_SCREENSHOTS")
    if not folder:
        return
    if ready:
        selector, prop, value = ready
        expect(page.locator(selector).first).to_have_css(prop, value)
    Path(folder).mkdir(parents=True, exist_ok=True)
    if pointer_away:
        page.mouse.move(0, 0)
    page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def shoot_shared_table(page, name: str) -> None:
    """With ``PLAY_SCREENSHOTS=<dir>``: a table of the shared components
    (``templates/play/components/``) as it is seen, from its top: a desktop's window (the
    bar at its bottom), a phone's whole page."""
    from playwright.sync_api import expect

    if os.environ.get("PLAY_SCREENSHOTS"):
        # The table's stylesheet comes with each redraw: wait until it applies.
        expect(page.locator(".tb-head")).to_have_css("display", "flex")
        page.evaluate("window.scrollTo(0, 0)")
        full = (page.viewport_size or {}).get("width", 0) < 600
        screenshot(page, name, full_page=full)


def start_table(system: str, creator, seats, seed: int, **fields):
    """A game of ``system`` created by ``creator`` and started (``play.services.starting``),
    in one transaction; ``seats`` in seat order, each a user or the name of a bot."""
    from django.db import transaction

    from play.models import GameSession, SessionSeat
    from play.services.starting import _start

    with transaction.atomic():
        session = GameSession.objects.create(system=system, created_by=creator, seed=seed, **fields)
        for number, who in enumerate(seats):
            if isinstance(who, str):
                SessionSeat.objects.create(
                    session=session, number=number, is_bot=True, bot_name=who
                )
            else:
                SessionSeat.objects.create(session=session, number=number, user=who)
        _start(session)
    return session


@pytest.fixture
def open_page(new_page):
    """``open_page(path, user="", viewport=DESKTOP)``: a page in a fresh context, at
    ``viewport``, logged in as ``user`` if named, opened at ``path``; returned with the
    list its uncaught script errors are gathered in."""

    def make(path: str, user: str = "", viewport: dict = DESKTOP):
        page = new_page()
        page.set_viewport_size(viewport)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        if user:
            log_in(page, user)
        page.goto(path)
        return page, errors

    return make


@pytest.fixture(scope="session", autouse=True)
def _require_chromium():
    """Fail (not skip) every browser test at once when Chromium is not installed."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: install Debian's chromium package "
            "(`make system-deps`). Playwright must not download a browser of its own.",
            pytrace=False,
        )


# What Chromium says when the Content-Security-Policy refuses something.
CSP_CONSOLE_MARKERS = ("Content Security Policy", "Refused to")
# Run in every page before its own scripts: the violations the page itself sees.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__gauntletCspViolation([
    e.effectiveDirective || e.violatedDirective, "refused", e.blockedURI || "(inline)",
    "on", e.documentURI, "at", (e.sourceFile || "?") + ":" + e.lineNumber
  ].join(" "));
}, true);
"""


class CspWatch:
    """Every Content-Security-Policy violation in a browser context of the test: what
    Chromium logs to the console and what the pages' ``securitypolicyviolation`` events
    report. The ``browser`` fixture watches every context it opens, and the test fails
    if any was seen (``csp_watch`` below), so each browser test checks the policy on the
    pages it walks."""

    def __init__(self) -> None:
        self.violations: list[str] = []

    def watch(self, context) -> None:
        context.on("console", self._console)
        context.expose_binding("__gauntletCspViolation", self._reported)
        context.add_init_script(CSP_LISTENER)

    def _console(self, message) -> None:
        if any(marker in message.text for marker in CSP_CONSOLE_MARKERS):
            where = message.location or {}
            self.violations.append(f"console {message.type}: {message.text} ({where.get('url')})")

    def _reported(self, _source, text: str) -> None:
        self.violations.append(f"page event: {text}")


@pytest.fixture
def csp_watch():
    """The test's CSP violations; it fails when there are any left at its end (a test
    that provokes one on purpose clears them)."""
    watch = CspWatch()
    yield watch
    if watch.violations:
        pytest.fail(
            "The Content-Security-Policy refused something on the pages of this test:\n"
            + "\n".join(f"  {v}" for v in dict.fromkeys(watch.violations)),
            pytrace=False,
        )


@pytest.fixture
def browser(live_server_url, csp_watch):
    """Chromium for one test; each context it opens is watched for CSP violations.

    Playwright's sync API keeps an event loop running in this thread while it is
    started, and Django refuses ORM calls then, so it is started per test, after
    the database is ready, and stopped before pytest-django empties the tables.
    """
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions do (10 s): on a loaded 2-core machine a page
    # that draws a large table can take longer than Playwright's default 5 s.
    expect.set_options(timeout=10_000)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        open_context = chromium.new_context

        def new_context(*args, **kwargs):
            context = open_context(*args, **kwargs)
            csp_watch.watch(context)
            return context

        chromium.new_context = new_context
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser, live_server_url):
    """Open a page in a fresh browser context (its own cookies): ``new_page()``."""
    contexts = []

    def make():
        context = browser.new_context(base_url=live_server_url, locale="en-US")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if (
        report.failed
        and _server_log is not None
        and "daphne_server" in getattr(item, "fixturenames", ())
    ):
        report.sections.append(("daphne server log", _tail(_server_log)))
    if report.failed and _embedded_log is not None:
        report.sections.append(("embedded server log", _tail(_embedded_log)))
    return report
