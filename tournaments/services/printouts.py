"""Printouts: what an event's paper documents show, who may print them, and the PDF.

Five documents (``KINDS``): the pairings by table and by name (for the wall), a result
slip per table (one, two or four to a sheet of paper: ``LAYOUTS``, with cut lines;
decision 0066), the standings, and decklist registration sheets. The pairings and the
standings are as public as their pages (a round under review is the officials' alone);
the slips and the decklist sheets are the officials'. The pages are rendered from
``templates/tournaments/print/`` and turned into PDF by WeasyPrint with
``static/css/print.css`` (decision 0058); the same HTML is the browser's print preview.

The helpers at the top are pure: the paper a request's languages suggest, and how many
lines a decklist section gets.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.contrib.staticfiles import finders
from django.core.cache import cache as store
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.core import registry
from tournaments.models import Event, Match, Registration, Round, StandingsSnapshot
from tournaments.services.errors import TournamentError
from tournaments.services.permissions import User, check_official, is_official
from tournaments.services.standings import PLACEMENT_RULESET, standings_rounds
from tournaments.standings import RULESETS

PAIRINGS = "pairings"
BY_NAME = "pairings-by-name"
SLIPS = "slips"
STANDINGS = "standings"
DECKLISTS = "decklists"
KINDS = (PAIRINGS, BY_NAME, SLIPS, STANDINGS, DECKLISTS)
OFFICIALS_ONLY = frozenset({SLIPS, DECKLISTS})
ROUND_KINDS = frozenset({PAIRINGS, BY_NAME, SLIPS})

A4, LETTER = "a4", "letter"
PAPERS = (A4, LETTER)
# Regions whose paper is US Letter; everyone else prints on A4.
LETTER_REGIONS = frozenset(
    {"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "CR", "PA", "DO", "PR", "SV", "NI", "BZ"}
)
# Result slips to a sheet of paper: one, two (the sheet cut across) or four (a landscape
# sheet cut in quarters); the other printouts are one to a page.
LAYOUTS = (1, 2, 4)
LINES_MOST = 30  # lines of one decklist section, at most (one page)
LINES_DEFAULT = 20

log = logging.getLogger(__name__)


class NothingToPrint(TournamentError):
    """No such document, or nothing in it yet (no round to print): a 404."""


class BadPaper(TournamentError):
    """A paper size other than ``PAPERS``: a 400."""


class BadLayout(TournamentError):
    """A layout other than ``LAYOUTS``, or one asked of a printout other than slips: a 400."""


# ---------------------------------------------------------------- pure helpers


def paper_for_languages(accept_language: str) -> str:
    """The paper a browser's languages suggest (the ``Accept-Language`` header): Letter
    when the first language that names a region names a Letter region, else A4."""
    tags = []
    for position, part in enumerate(accept_language.split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q=([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            tags.append((-quality, position, tag))
    for _q, _p, tag in sorted(tags):
        subtags = re.split(r"[-_]", tag)
        region = next((s for s in subtags[1:] if len(s) == 2 and s.isalpha()), None)
        if region is not None:
            return LETTER if region.upper() in LETTER_REGIONS else A4
    return A4


def paper_of(value: str | None, accept_language: str = "") -> str:
    """``?paper=``: ``a4`` or ``letter`` (any case); empty or missing: from the languages."""
    if not value:
        return paper_for_languages(accept_language)
    paper = value.strip().lower()
    if paper not in PAPERS:
        raise BadPaper(_("Paper is a4 or letter."))
    return paper


def layout_of(value: str | None, kind: str) -> int:
    """``?layout=``: how many result slips to a sheet, ``1``, ``2`` or ``4`` (empty or
    missing: 1); only slips come more than one to a sheet."""
    if value is None or not str(value).strip():
        return 1
    text = str(value).strip()
    layout = int(text) if text.isascii() and text.isdigit() and len(text) == 1 else 0
    if layout not in LAYOUTS:
        raise BadLayout(_("Layout is 1, 2 or 4 slips to a page."))
    if layout != 1 and kind != SLIPS:
        raise BadLayout(_("Only result slips come 2 or 4 to a page."))
    return layout


def in_sheets(items: Sequence[Any], per_sheet: int) -> list[list[Any]]:
    """``items`` in order, ``per_sheet`` to a sheet (the last one may have fewer)."""
    return [list(items[n : n + per_sheet]) for n in range(0, len(items), per_sheet)]


def section_lines(target: str) -> int:
    """Numbered lines for a deck section whose size the game gives as ``target`` ("2",
    "≤5", "20+", "20–50"): its largest number, at most ``LINES_MOST``; none given,
    ``LINES_DEFAULT``."""
    numbers = [int(n) for n in re.findall(r"\d+", target or "")]
    if not numbers:
        return LINES_DEFAULT
    return max(1, min(max(numbers), LINES_MOST))


def sheet_columns(sections: Sequence[tuple[str, str, int]]) -> tuple[list[dict], list[dict]]:
    """A decklist sheet's two columns: ``sections`` ((name, target, lines) in order) as
    rows, a heading then its numbered lines, cut in half. A heading never ends the left
    column; a section cut in two has its heading again at the top of the right one."""
    rows: list[dict] = []
    for name, target, lines in sections:
        rows.append({"head": name, "target": target})
        rows += [{"line": n} for n in range(1, lines + 1)]
    half = (len(rows) + 1) // 2
    if 0 < half < len(rows) and "head" in rows[half - 1]:
        half -= 1
    left, right = rows[:half], rows[half:]
    if left and right and "line" in right[0]:
        heading = next(row for row in reversed(left) if "head" in row)
        right.insert(0, {**heading, "continued": True})
    return left, right


def column_blocks(column: Sequence[dict]) -> list[dict]:
    """A column of ``sheet_columns`` as the template lays it out: each heading as it is,
    each run of numbered lines as one block (``first``, ``count`` and their numbers as
    ``text``, one a line), so a sheet is a few boxes rather than one per line."""
    blocks: list[dict] = []
    for row in column:
        if "line" not in row:
            blocks.append(row)
        elif blocks and "count" in blocks[-1]:
            blocks[-1]["count"] += 1
            blocks[-1]["numbers"].append(row["line"])
        else:
            blocks.append({"first": row["line"], "count": 1, "numbers": [row["line"]]})
    for block in blocks:
        if "numbers" in block:
            block["text"] = "\n".join(str(n) for n in block.pop("numbers"))
    return blocks


# ---------------------------------------------------------------- what a document shows


@dataclass
class Printout:
    kind: str
    event: Event
    paper: str
    round: Round | None = None
    title: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    layout: int = 1  # slips to a sheet of paper (``LAYOUTS``)

    @property
    def filename(self) -> str:
        part = f"-round-{self.round.number}" if self.round is not None else ""
        up = f"-{self.layout}up" if self.layout != 1 else ""
        return f"{self.event.slug}-{self.kind}{part}-{self.paper}{up}.pdf"

    @property
    def query(self) -> str:
        """The query string that asks for this document again (round, paper, layout)."""
        parts = [f"round={self.round.number}"] if self.round is not None else []
        parts.append(f"paper={self.paper}")
        if self.layout != 1:
            parts.append(f"layout={self.layout}")
        return "&".join(parts)


def check_may_print(user: User | None, event: Event, kind: str) -> None:
    """Unknown kinds are ``NothingToPrint``; the officials' kinds ``NotAllowed`` to others."""
    if kind not in KINDS:
        raise NothingToPrint(_("There is no such printout."))
    if kind in OFFICIALS_ONLY:
        check_official(user, event)


def round_to_print(user: User | None, event: Event, number: str | None) -> Round:
    """``?round=``: a round the user may see (a round under review: officials only); none
    given, the last published round (for officials, the round under review if no round
    has been published)."""
    rounds = event.rounds.order_by("number")
    if not is_official(user, event):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    if number:
        if not (number.isascii() and number.isdigit()):
            raise NothingToPrint(_("No such round."))
        rnd = rounds.filter(number=int(number)).first() if len(number) <= 4 else None
        if rnd is None:
            raise NothingToPrint(_("No such round."))
        return rnd
    rnd = rounds.exclude(status=Round.Status.DRAFT).last() or rounds.last()
    if rnd is None:
        raise NothingToPrint(_("No round has been paired yet: there is nothing to print."))
    return rnd


def printout(
    user: User | None,
    event: Event,
    kind: str,
    *,
    paper: str,
    round_number: str | None = None,
    pairing_rows=None,
    layout: int = 1,
) -> Printout:
    """The document ``kind`` of ``event`` as plain data for its template. ``pairing_rows``
    gives the rows of a round's pairings page (the page's own helper, so both show the
    same records); ``layout``: result slips to a sheet (``layout_of``)."""
    check_may_print(user, event, kind)
    doc = Printout(kind=kind, event=event, paper=paper, layout=layout)
    if kind in ROUND_KINDS:
        doc.round = round_to_print(user, event, round_number)
        matches = list(doc.round.matches.prefetch_related("seats__registration").order_by("table"))
        if kind == PAIRINGS:
            doc.title = _("Pairings")
            doc.data["rows"] = pairing_rows(event, doc.round, matches) if pairing_rows else []
        elif kind == BY_NAME:
            doc.title = _("Pairings by name")
            doc.data["rows"] = _by_name(matches)
        else:
            doc.title = _("Result slips")
            doc.data["slips"] = _slips(matches)
            doc.data["sheets_of_slips"] = in_sheets(doc.data["slips"], layout)
    elif kind == STANDINGS:
        doc.title = _("Standings")
        snapshot = StandingsSnapshot.objects.filter(event=event).first()
        doc.data["rows"] = snapshot.rows if snapshot else []
        doc.data["after_round"] = snapshot.after_round if snapshot else 0
        doc.data["pods"] = bool(snapshot and snapshot.ruleset == PLACEMENT_RULESET)
        # As the page: the results of a round in progress count, and the heading says so;
        # the columns are the page's (OOW% with a ruleset that breaks ties by it).
        doc.data["in_progress"] = standings_rounds(event)[1] if snapshot else None
        ruleset = RULESETS.get(event.tiebreaks, RULESETS["mtr"])
        doc.data["oomw"] = "oomw" in ruleset.columns
        # A bracket-only event is ranked by its bracket finish, as its page shows it.
        doc.data["bracket"] = bool(
            event.is_elimination_only and doc.data["rows"] and "place" in doc.data["rows"][0]
        )
    else:
        doc.title = _("Decklist registration")
        if not event.game_info.needs_decklists:
            raise NothingToPrint(_("This game is played without decklists."))
        sections = deck_sections(event)
        doc.data["sections"] = sections
        columns = sheet_columns([(s["name"], s["target"], len(s["lines"])) for s in sections])
        doc.data["columns"] = [column_blocks(column) for column in columns]
        doc.data["sheets"] = _sheets(event)
    return doc


def _by_name(matches: Sequence[Match]) -> list[dict]:
    rows = []
    for match in matches:
        seats = list(match.seats.all())
        for seat in seats:
            others = [s.registration.display_name for s in seats if s.pk != seat.pk]
            rows.append(
                {
                    "name": seat.registration.display_name,
                    "table": match.table,
                    "bye": match.is_bye,
                    "opponents": ", ".join(others),
                }
            )
    rows.sort(key=lambda row: (row["name"].casefold(), row["table"]))
    return rows


def _slips(matches: Sequence[Match]) -> list[dict]:
    """One slip per table that is played (a bye needs none)."""
    return [
        {
            "table": match.table,
            "names": [s.registration.display_name for s in match.seats.all()],
            "games": range(1, match.best_of + 1),
            "pod": len(match.seats.all()) > 2,
        }
        for match in matches
        if not match.is_bye
    ]


def deck_sections(event: Event) -> list[dict]:
    """The parts of a decklist as the game's kit names them (``DeckSection``), each with
    its numbered lines; a game without a kit gets a main deck and a sideboard."""
    language = get_language() or "en"
    sections = _kit_sections(event.game_system)
    if not sections:
        return [
            {"name": _("Main deck"), "target": "", "lines": range(1, LINES_MOST + 1)},
            {"name": _("Sideboard"), "target": "", "lines": range(1, 16)},
        ]
    return [
        {
            "name": section.label(language),
            "target": section.target,
            "lines": range(1, section_lines(section.target) + 1),
        }
        for section in sections
    ]


@cache
def _kit_sections(game_system: str) -> tuple:
    try:
        info = registry.get(game_system)
        if not info.limited:
            return ()
        return tuple(info.load("limited").sections)
    except (registry.UnknownGameSystem, ImportError, AttributeError):
        return ()


def _sheets(event: Event) -> list[dict]:
    """A sheet for every player still in (each member of a team), by name; one blank
    sheet when nobody is."""
    regs = (
        event.registrations.exclude(status=Registration.Status.DROPPED)
        .prefetch_related("members__user")
        .order_by("display_name", "pk")
    )
    sheets = []
    for reg in regs:
        members = list(reg.members.all())
        if members:
            sheets += [{"name": m.user.get_username(), "team": reg.display_name} for m in members]
        else:
            sheets.append({"name": reg.display_name, "team": ""})
    return sheets or [{"name": "", "team": ""}]


# ---------------------------------------------------------------- PDF


def stylesheet_path() -> str:
    path = finders.find("css/print.css")
    if path is None:  # pragma: no cover - the file ships with the app
        raise FileNotFoundError("static/css/print.css")
    return str(path)


@cache
def _stylesheet():
    """``print.css`` parsed once per process, with its font configuration (fontconfig's
    lookups are cached in it): parsing the sheet and finding the fonts again for every
    PDF cost more than a small printout's layout."""
    from weasyprint import CSS  # a heavy import, only where a PDF is made
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return CSS(filename=stylesheet_path(), font_config=fonts), fonts


def render_pdf(html: str) -> bytes:
    """The PDF of a printout's HTML (WeasyPrint, with ``print.css``), laid out once as a
    whole document. The fonts come from the system (fontconfig): DejaVu Sans, which has
    Cyrillic, and no other family to look up."""
    from weasyprint import HTML

    css, fonts = _stylesheet()
    return HTML(string=html).write_pdf(stylesheets=[css], font_config=fonts)


# ---------------------------------------------------------------- big printouts in the background

# A printout of more pages than this is made by a Celery task (``tasks.render_printout``)
# and kept for a while in the cache; smaller ones are made in the request (decision 0058).
BACKGROUND_PAGES = 60
ROWS_PER_PAGE = 40  # about, for the tables (pairings, standings)
HTML_SECONDS = 15 * 60  # the HTML waits this long for its task
STATE_SECONDS = 15 * 60  # a task lost this long is queued again by the next click
PDF_SECONDS = 60 * 60  # a made PDF is served this long

QUEUED, RENDERING, READY, FAILED = "queued", "rendering", "ready", "failed"


def pages_of(doc: Printout) -> int:
    """The pages a document will about have: a page per slip or sheet, the tables
    ``ROWS_PER_PAGE`` rows a page."""
    if doc.kind == SLIPS:
        return max(1, -(-len(doc.data["slips"]) // doc.layout))
    if doc.kind == DECKLISTS:
        return len(doc.data["sheets"])
    return 1 + len(doc.data.get("rows", ())) // ROWS_PER_PAGE


def in_background(doc: Printout) -> bool:
    """Whether the PDF is made by the task. Slips two or four to a sheet cost as many
    boxes and lines as one to a page (``bench/printouts.py``): it is the slips that
    count, not the sheets (decision 0066)."""
    work = len(doc.data["slips"]) if doc.kind == SLIPS else pages_of(doc)
    return work > BACKGROUND_PAGES


def stored_key(doc: Printout, html: str, *, digest: str = "") -> str:
    """The cache key of a printout's PDF: the event, the kind, the round and the paper,
    and a digest of the HTML (or the ``digest`` given), so any change of what it shows (a
    result, a name, the language) makes another key and another PDF."""
    digest = digest or hashlib.sha256(html.encode()).hexdigest()[:24]
    rnd = doc.round.number if doc.round is not None else 0
    return f"printout:{doc.event.pk}:{doc.kind}:{rnd}:{doc.paper}:{doc.layout}:{digest}"


def stored_pdf(key: str) -> bytes | None:
    return store.get(f"{key}:pdf")


def state_of(key: str) -> dict | None:
    """``{"state", "pages", "queued_at", "started_at"}`` of a background printout, or None
    when none is under way (or it was lost)."""
    return store.get(f"{key}:state")


def request_background(key: str, html: str, pages: int, queue) -> tuple[bool, dict]:
    """Ask for the PDF of ``html`` to be made in the background: store the HTML for the
    task and queue it (``queue(key)``) unless a task for the same key is already under way
    — two clicks make one PDF (the state is claimed with the cache's atomic ``add``).
    Returns whether this call queued it, and the state."""
    state = {"state": QUEUED, "pages": pages, "queued_at": time.time(), "started_at": None}
    if not store.add(f"{key}:state", state, timeout=STATE_SECONDS):
        return False, state_of(key) or state
    store.set(f"{key}:html", zlib.compress(html.encode(), 6), timeout=HTML_SECONDS)
    queue(key)
    return True, state


def render_stored(key: str) -> str:
    """The task's work: make the PDF of the HTML stored under ``key`` and keep it.
    Harmless if run twice (a PDF already made is left as it is); HTML no longer there
    (the task came too late) or a failed layout mark the state ``failed``."""
    if store.get(f"{key}:pdf") is not None:
        return READY
    state = state_of(key) or {"pages": 0, "queued_at": time.time()}
    packed = store.get(f"{key}:html")
    if packed is None:
        store.set(f"{key}:state", {**state, "state": FAILED}, timeout=STATE_SECONDS)
        return FAILED
    running = {**state, "state": RENDERING, "started_at": time.time(), "done": 0}
    store.set(f"{key}:state", running, timeout=STATE_SECONDS)
    watch = _PagesLaidOut(key, running)
    progress = logging.getLogger("weasyprint.progress")
    if progress.isEnabledFor(logging.INFO):  # else: the stage and the time only
        progress.addHandler(watch)
    try:
        pdf = render_pdf(zlib.decompress(packed).decode())
    except Exception:
        log.exception("printout %s could not be made", key)
        store.set(f"{key}:state", {**state, "state": FAILED}, timeout=STATE_SECONDS)
        return FAILED
    finally:
        progress.removeHandler(watch)
    store.set(f"{key}:pdf", pdf, timeout=PDF_SECONDS)
    store.set(f"{key}:state", {**state, "state": READY}, timeout=PDF_SECONDS)
    store.delete(f"{key}:html")
    return READY


class _PagesLaidOut(logging.Handler):
    """Counts the pages WeasyPrint reports laying out (its ``weasyprint.progress`` log,
    this thread's only) into the state, every ``EVERY`` pages: the preparing page's bar."""

    EVERY = 8

    def __init__(self, key: str, state: dict) -> None:
        super().__init__(logging.INFO)
        self.key, self.state, self.thread = key, state, threading.get_ident()

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread or not record.args:
            return
        page = record.args[0] if isinstance(record.args, tuple) else None
        if isinstance(page, int) and page % self.EVERY == 0 and "layout" in str(record.msg):
            self.state["done"] = page
            store.set(f"{self.key}:state", self.state, timeout=STATE_SECONDS)


def forget_failed(key: str) -> None:
    """Let the next request queue a failed printout again."""
    store.delete(f"{key}:state")
