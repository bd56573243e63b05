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


@dataclass(frozen=True)
class AuditText:
    """One audit line: its message (the msgid) and the parameters it names."""

    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def english(self) -> str:
        with translation.override("en"):
            return render(self.message, self.params, "")


def said(message: str, **params: Any) -> AuditText:
    """The line ``message`` (give it as ``gettext_noop("...")``) with its parameters as
    plain data: a round by number and title, anything else as its text or number."""
    return AuditText(message, {name: _plain(value) for name, value in params.items()})


def _plain(value: Any) -> Any:
    from tournaments.models import Round

    if isinstance(value, Round):
        return {ROUND: value.number, "title": value.title}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _shown(value: Any) -> Any:
    if isinstance(value, dict) and ROUND in value:
        if value.get("title"):
            return pgettext("round title", value["title"])
        return gettext("Round %(n)d") % {"n": value[ROUND]}
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
