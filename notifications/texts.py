"""A notice's words, written in the active language from the notice's kind and data.

The data holds names and numbers only (an event's name, a round's number or title, a
table, the other players' names, a deadline), so the same notice reads in English on one
page and in Russian in the next e-mail: nothing is translated when it is stored.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import gettext, pgettext

from notifications.models import Notice


def round_name(data: dict) -> str:
    """The round as the tournament pages name it ("Round 3", or its title: "Final")."""
    title = data.get("round_title") or ""
    if title:
        return pgettext("round title", title)
    return gettext("Round %(n)d") % {"n": int(data.get("round") or 0)}


def _when(value: str | None) -> str:
    if not value:
        return ""
    moment = datetime.fromisoformat(value)
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def title(notice: Notice) -> str:
    data = notice.data
    if notice.kind == Notice.Kind.ROUND_PUBLISHED:
        return gettext("%(round)s of %(event)s is published") % {
            "round": round_name(data),
            "event": data.get("event", ""),
        }
    if notice.kind == Notice.Kind.RESULT_TO_CONFIRM:
        return gettext("%(player)s reported the result of your match") % {
            "player": data.get("reporter", "")
        }
    if notice.kind == Notice.Kind.DECKLIST_DUE:
        return gettext("Your decklist for %(event)s is due soon") % {"event": data.get("event", "")}
    return gettext("Notice")


def body(notice: Notice) -> str:
    data = notice.data
    if notice.kind == Notice.Kind.ROUND_PUBLISHED:
        if data.get("bye"):
            return gettext("You have a bye this round.")
        opponents = data.get("opponents") or []
        if len(opponents) == 1:
            return gettext("Table %(table)s, against %(opponent)s.") % {
                "table": data.get("table"),
                "opponent": opponents[0],
            }
        return gettext("Table %(table)s, with %(players)s.") % {
            "table": data.get("table"),
            "players": ", ".join(opponents),
        }
    if notice.kind == Notice.Kind.RESULT_TO_CONFIRM:
        return gettext(
            "%(round)s of %(event)s, table %(table)s: confirm the result if it is right, "
            "or report what happened."
        ) % {"round": round_name(data), "event": data.get("event", ""), "table": data.get("table")}
    if notice.kind == Notice.Kind.DECKLIST_DUE:
        return gettext("Submit it by %(when)s; after that it cannot be changed.") % {
            "when": _when(data.get("due"))
        }
    return ""


def kind_label(kind: str) -> str:
    return str(Notice.Kind(kind).label)
