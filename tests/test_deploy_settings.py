"""HTTPS settings: secure by default with DEBUG off, development values with DEBUG on.

``manage.py check --deploy`` runs in a subprocess as production would start (DEBUG off,
a real SECRET_KEY, none of the HTTPS variables set) and must find nothing to warn about;
the settings each variable controls are read back from a fresh process; and the
middleware does with them what they promise (redirect, HSTS, secure cookies).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client, override_settings

HTTPS_VARIABLES = (
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
)
READ_BACK = (
    "import json, django\n"
    "django.setup()\n"
    "from django.conf import settings as s\n"
    f"print(json.dumps({{name: getattr(s, name) for name in {HTTPS_VARIABLES!r}}}))\n"
)


def run(args: list[str], debug: bool, **extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in HTTPS_VARIABLES}
    env.update(
        DEBUG="true" if debug else "false",
        SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SETTINGS_MODULE="config.settings",
        **extra,
    )
    return subprocess.run(
        [sys.executable, *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def read_back(debug: bool, **extra: str) -> dict:
    done = run(["-c", READ_BACK], debug, **extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_check_deploy_finds_nothing_to_warn_about_with_debug_off():
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], debug=False)

    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output.upper(), output


def test_check_deploy_does_see_an_insecure_setting():
    """The check above means something: turn one default off and it warns."""
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        debug=False,
        SECURE_SSL_REDIRECT="false",
    )

    assert done.returncode != 0
    assert "security.W008" in done.stdout + done.stderr


def test_the_site_starts_with_debug_on_and_off():
    for debug in (True, False):
        done = run(["manage.py", "check"], debug=debug)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "System check identified no issues" in done.stdout


def test_debug_off_defaults_to_the_secure_values():
    assert read_back(debug=False) == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
    }


def test_debug_on_defaults_to_plain_http_for_the_embedded_demo():
    assert read_back(debug=True) == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


def test_every_https_setting_is_read_from_the_environment():
    assert read_back(
        debug=False,
        SECURE_SSL_REDIRECT="false",
        SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="no",
        SECURE_HSTS_PRELOAD="off",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="false",
    ) == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_HSTS_SECONDS": 3600,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


def test_a_bad_value_stops_the_process_naming_the_variable():
    done = run(["manage.py", "check"], debug=False, SECURE_PROXY_SSL_HEADER="https")

    assert done.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER='https'" in done.stderr


SECURE = {
    "SECURE_SSL_REDIRECT": True,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "SECURE_HSTS_SECONDS": 31_536_000,
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
    "SECURE_HSTS_PRELOAD": True,
    "SESSION_COOKIE_SECURE": True,
    "CSRF_COOKIE_SECURE": True,
}


@pytest.mark.django_db
@override_settings(**SECURE)
def test_with_the_secure_values_http_is_redirected_and_https_is_pinned():
    client = Client()

    plain = client.get("/accounts/login/")
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/accounts/login/"

    # Behind the proxy that ended TLS, as its header says.
    page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert page.status_code == 200
    assert page["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert page.cookies["csrftoken"]["secure"] is True


@pytest.mark.django_db
@override_settings(**SECURE)
def test_with_the_secure_values_the_session_cookie_is_secure(make_user):
    make_user("alice")
    client = Client()
    page = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    client.cookies["csrftoken"] = page.cookies["csrftoken"].value

    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "pw-alice"},
        HTTP_X_FORWARDED_PROTO="https",
    )

    assert response.status_code == 302
    assert response.cookies["sessionid"]["secure"] is True


@pytest.mark.django_db
def test_with_debug_on_plain_http_is_served():
    page = Client().get("/accounts/login/")

    assert page.status_code == 200
    assert "Strict-Transport-Security" not in page
    assert not page.cookies["csrftoken"]["secure"]
