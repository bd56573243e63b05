"""The lines of the audit logs (an event's, a series') in the reader's language.

An entry keeps its line as a message (the English text with ``%(name)s`` placeholders,
marked with ``gettext_noop`` where it is written, so the catalogue has it) and the
parameters to fill in; it is translated when shown, in the language of whoever reads
it. A round is kept by its number and title, not by its name in the language of the
official who made the change, and named again in the reader's. The English line is
kept too (``summary``): the API's, and the whole line of entries written before messages
were kept, which are shown as they were written (decision 0057).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, pgettext

ROUND = "@round"  # a parameter that is a round: {"@round": number, "title": title}
LINE = "@line"  # a parameter that is a line itself: {"@line": message, "params": {...}}
TERM = "@term"  # a parameter that is a term of the catalogue: {"@term": msgid}


class Term(str):
    """A text that is a msgid of the catalogue (give it as ``Term(gettext_noop("..."))``):
    a parameter named so is kept as ``{"@term": msgid}`` and translated when shown; it
    is a plain ``str`` everywhere else (stored, compared, sent)."""

    __slots__ = ()


@dataclass(frozen=True)
class AuditText:
    """One audit line: its message (the msgid) and the parameters it names."""

    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def english(self) -> str:
        with translation.override("en"):
            return render(self.message, self.params, "")

    def __str__(self) -> str:
        return self.english()


def said(message: str, **params: Any) -> AuditText:
    """The line ``message`` (give it as ``gettext_noop("...")``) with its parameters as
    plain data: a round by number and title, a line within the line (an ``AuditText``)
    by its message and parameters, a ``Term`` by its msgid, anything else as its text or
    number."""
    return AuditText(message, {name: _plain(value) for name, value in params.items()})


def _plain(value: Any) -> Any:
    from tournaments.models import Round

    if isinstance(value, Round):
        return {ROUND: value.number, "title": value.title}
    if isinstance(value, AuditText):
        return {LINE: value.message, "params": value.params}
    if isinstance(value, Term):
        return {TERM: str.__str__(value)}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _shown(value: Any) -> Any:
    if isinstance(value, dict) and ROUND in value:
        if value.get("title"):
            return pgettext("round title", value["title"])
        return gettext("Round %(n)d") % {"n": value[ROUND]}
    if isinstance(value, dict) and LINE in value:
        params = value.get("params") or {}
        return render(value[LINE], params, value[LINE])
    if isinstance(value, dict) and TERM in value:
        return gettext(value[TERM]) if value[TERM] else ""
    return value


def render(message: str, params: dict[str, Any], fallback: str) -> str:
    """The line in the active language; ``fallback`` (the stored English line) when there
    is no message, or the translation does not fit the parameters kept."""
    if not message:
        return fallback
    try:
        return gettext(message) % {name: _shown(value) for name, value in params.items()}
    except (KeyError, TypeError, ValueError):
        try:
            return message % {name: _shown(value) for name, value in params.items()}
        except (KeyError, TypeError, ValueError):
            return fallback
