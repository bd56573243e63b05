"""The Russian site is complete: every catalogue entry translated, every page in Russian.

Two checks:

* the catalogue (``locale/ru/LC_MESSAGES/django.po``): no entry without a translation
  (obsolete ``#~`` entries aside), none marked fuzzy, and every plural entry with its
  three Russian forms;
* every page and fragment of the URL walk (``tests/test_url_walk.py``: its world and
  fillers), asked with Russian as the language (the language cookie, as the site's
  switcher sets it) by every role that may open it: the visible text (tags, scripts and
  styles stripped, and the user content of the world taken out: players', events' and
  pods' names and places, decklists as their players wrote them (the cards' English
  names), and what the site recorded in English as it happened: the audit log's and the
  error log's lines) holds no English UI text. A run of ASCII words that is a msgid of
  the catalogue fails, and so does any run of two or more ASCII words not in
  ``ALLOWED``.

Not checked: the API and its documentation, files (CSV, JSON, text logs), and the series
and players' profile pages (``UNFINISHED``).
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from drafting.models import Pod
from tests.test_url_walk import (  # noqa: F401  (the fixtures are used by name)
    CONVERTER,
    FILLERS,
    ROLES,
    Clients,
    Report,
    Target,
    World,
    all_routes,
    clients,
    is_api,
    may_open,
    quiet,
    send_many,
    unthrottled,
    world,
)
from tournaments.models import AuditEntry, Decklist, Event, Registration, Series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _back_to_the_default_language():
    """The locale middleware leaves the last request's language active in the thread: the
    tests after these ones run in the default language again."""
    yield
    translation.deactivate()


PO = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES" / "django.po"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}

# Routes that are not pages of the site's own UI: the API's documentation (a third-party
# viewer, about the API, in English), and files (CSV, JSON, plain-text logs).
NOT_PAGES = ("api/schema", "api/docs", "api/redoc")
FILES = (".csv", ".json", ".txt")
# Pages not checked yet: the series and the players' profiles are being written.
UNFINISHED = ("series/", "players/")

# Runs of English words that may stay on a Russian page: proper names and notation that
# are the same in both languages.
ALLOWED = {
    "Gauntlet",  # the site's name
    "Celery",  # the task queue's name (the staff dashboard)
    "OpenSkill",  # the rating model's name
    "CSV",
    "JSON",
    "API",
    "ID",
    "Elo",
    "OK",
    # the tiebreakers' abbreviations, the same on Russian pages (the standings' columns)
    *("MW", "OMW", "GW", "OGW", "OWP", "OOWP"),
}

# Names that hold a word that is also a msgid ("Play"): taken out whole.
BRANDS = {"Play! Pokémon", "melee.gg"}


# ---------------------------------------------------------------- the catalogue


def _unquote(lines: list[str]) -> str:
    text = "".join(line[line.index('"') + 1 : line.rindex('"')] for line in lines)
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


def catalogue() -> list[dict]:
    """The entries of the .po file (obsolete ones marked), each with its flags, msgid,
    msgid_plural and msgstr (or msgstr[n]) values."""
    entries: list[dict] = []
    entry: dict = {}
    key = None
    for raw in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            if entry.get("msgid") is not None:
                entries.append(entry)
            entry, key = {}, None
            continue
        obsolete = line.startswith("#~")
        if obsolete:
            entry["obsolete"] = True
            line = line[2:].strip()
        if line.startswith("#,"):
            entry["flags"] = {f.strip() for f in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            entry[key].append(line)
            continue
        key, _, rest = line.partition(" ")
        entry[key] = [rest]
    return [{k: (_unquote(v) if isinstance(v, list) else v) for k, v in e.items()} for e in entries]


def test_every_catalogue_entry_is_translated():
    entries = [e for e in catalogue() if e["msgid"] and not e.get("obsolete")]
    assert len(entries) > 500
    empty = [e["msgid"] for e in entries if "msgid_plural" not in e and not e.get("msgstr")]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e.get("flags", ())]
    plurals = [
        e["msgid"]
        for e in entries
        if "msgid_plural" in e and not all(e.get(f"msgstr[{n}]") for n in range(3))
    ]
    assert not empty, f"untranslated: {empty}"
    assert not fuzzy, f"fuzzy: {fuzzy}"
    assert not plurals, f"plural entries without three Russian forms: {plurals}"


def test_the_catalogue_declares_three_russian_plural_forms():
    (header,) = [e for e in catalogue() if e["msgid"] == ""]
    assert "nplurals=4" in header["msgstr"] or "nplurals=3" in header["msgstr"]


# ---------------------------------------------------------------- the pages


class _Text(HTMLParser):
    """The text a reader sees: text nodes outside scripts, styles and templates, and the
    ``title``, ``placeholder``, ``aria-label`` and ``alt`` attributes."""

    HIDDEN = {"script", "style", "template", "svg"}
    ATTRS = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        for name, value in attrs:
            if name in self.ATTRS and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.parts.append(data)


def visible_text(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [" ".join(p.split()) for p in parser.parts]


def user_content(w: World) -> list[str]:
    """What the world's users and its records put on the pages, longest first (so that a
    name holding another is taken out whole)."""
    names: set[str] = set()
    for user in get_user_model().objects.all():
        names |= {user.username, user.get_full_name()}
    names |= set(Registration.objects.values_list("display_name", flat=True))
    names |= set(Event.objects.values_list("name", flat=True))
    names |= set(Event.objects.values_list("location", flat=True))
    names |= set(Series.objects.values_list("name", flat=True))
    # What the site recorded in English as it happened (the audit log, the error log):
    # records, not UI text.
    names |= set(AuditEntry.objects.values_list("summary", flat=True))
    for record in type(w.error).objects.all():
        names |= {record.logger, record.message, record.exception}
        names |= set(record.traceback.splitlines())
    names |= BRANDS
    # Decklists as their players wrote them: each line, and each card name without its count.
    for text in Decklist.objects.values_list("text", flat=True):
        for line in text.splitlines():
            names |= {line.strip(), re.sub(r"^\s*\d+\s*x?\s+", "", line).strip()}
    names |= set(Pod.objects.values_list("name", flat=True))
    names.add("Slow play")  # the judge's note on the warning (tests/test_url_walk.py)
    return sorted((n for n in names if n and n.strip()), key=len, reverse=True)


WORDS = re.compile(r"[A-Za-z][A-Za-z'’]*(?:(?:[ -]|, )[A-Za-z][A-Za-z'’]*)*")


def english_runs(text: str, msgids: set[str]) -> list[str]:
    found = []
    for run in WORDS.findall(text):
        words = re.findall(r"[A-Za-z][A-Za-z'’]*", run)
        if run in ALLOWED or all(w in ALLOWED for w in words):
            continue
        if run in msgids or len(words) >= 2:
            found.append(run)
    return found


def ui_msgids() -> set[str]:
    return {
        e["msgid"]
        for e in catalogue()
        if e["msgid"]
        and not e.get("obsolete")
        and re.fullmatch(r"[A-Za-z][A-Za-z ’'-]*", e["msgid"])
    }


def targets(w: World) -> list[Target]:
    """The walk's addresses (a route it cannot fill yet is its own test's failure)."""
    out = []
    for route in all_routes():
        if not CONVERTER.search(route):
            out.append(Target(route, "/" + route, (), True))
            continue
        for kwargs, tags, real in FILLERS.get(route, lambda _w: [])(w):
            url = "/" + CONVERTER.sub(lambda m, kw=kwargs: str(kw[m.group(2)]), route)
            out.append(Target(route, url, tuple(sorted(tags.items())), real))
    return out


def pages(w: World) -> list[Target]:
    return [
        t
        for t in targets(w)
        if t.real
        and not is_api(t.route)
        and not t.route.startswith(NOT_PAGES)
        and not t.route.endswith(FILES)
        and t.tag("action") is None
        and not t.route.startswith(UNFINISHED)
    ]


def test_every_page_is_in_russian(world, clients: Clients, quiet):  # noqa: F811
    report = Report()
    names = user_content(world)
    msgids = ui_msgids()
    for client in clients.plain.values():
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    seen: dict[str, set[str]] = {}
    for target in pages(world):
        roles = [r for r in ROLES if may_open(world, target, r)]
        outcomes = send_many([(clients.plain[r], "get", target.url, RU) for r in roles])
        for role, outcome in zip(roles, outcomes, strict=True):
            report.requests += 1
            if not 200 <= outcome.status < 300 or not outcome.body:
                continue
            body = outcome.body.decode("utf-8", "replace")
            if not body.lstrip().startswith("<"):
                continue  # not HTML (a JSON answer of a page's route)
            for part in visible_text(body):
                for name in names:
                    if name in part:
                        part = part.replace(name, " ")
                for run in english_runs(part, msgids):
                    if run not in seen.setdefault(target.route, set()):
                        seen[target.route].add(run)
                        report.fail(role, "GET", target.url, f"{run!r} in {part[:90]!r}")
    if os.environ.get("TRANSLATIONS_REPORT"):
        Path(os.environ["TRANSLATIONS_REPORT"]).write_text("\n".join(report.failures))
    report.check()


# ---------------------------------------------------------------- names from elsewhere


def test_every_game_and_table_mode_has_a_russian_name():
    from engine.core import registry

    for info in registry.all_systems():
        assert info.name_ru and info.label("ru") == info.name_ru, info.key
        for mode in info.table_modes:
            assert mode.name_ru and mode.label("ru") != mode.name, (info.key, mode.key)
        for fmt in info.formats:
            assert fmt.name_ru, (info.key, fmt.key)


@pytest.mark.parametrize(
    ("title", "russian"),
    [
        ("Quarterfinal 2", "Четвертьфинал 2"),
        ("Winners semifinals", "Полуфиналы верхней сетки"),
        ("Losers round 2 match 1", "Нижняя сетка, раунд 2, матч 1"),
        ("Round 1", "Раунд 1"),
        ("Grand final", "Гранд-финал"),
    ],
)
def test_bracket_titles_are_in_russian(title, russian):
    from tournaments.views import _bracket_text

    with translation.override("ru"):
        assert _bracket_text(title) == russian
