from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.core import registry

register = template.Library()


@register.filter
def pct(value) -> str:
    """0.6666667 → "66.67"; empty for a figure the ruleset does not use."""
    if value is None or value == "":
        return ""
    return f"{float(value) * 100:.2f}"


@register.filter
def label(value) -> str:
    """A registry entry's name in the page's language (a game, a format, a table mode);
    anything else as it is."""
    named = getattr(value, "label", None)
    if callable(named):
        return named(get_language() or "en")
    return "" if value is None else str(value)


@register.filter
def game_label(key: str) -> str:
    """A registered game's name in the page's language, by its key (the key of a game no
    longer registered)."""
    try:
        return registry.get(key).label(get_language() or "en")
    except registry.UnknownGameSystem:
        return key


@register.simple_tag
def playoff_label(finish: int) -> str:
    labels = {1: _("Champion"), 2: _("Finalist"), 3: _("Top 4"), 5: _("Top 8"), 9: _("Top 16")}
    return labels.get(finish, _("Top %(n)d") % {"n": finish})


@register.simple_tag
def member_links(members, accounts=None) -> str:
    """A team's members, each linked to their profile (``@username``) when their account
    has one (``accounts``: the usernames of active accounts; None: every member)."""
    if not members:
        return ""
    linked = set(members if accounts is None else accounts)
    title = _("Profile")
    return format_html_join(
        ", ",
        "{}",
        (
            (
                format_html(
                    '<a href="{}" class="profile-link member-link" title="{}">@{}</a>',
                    reverse("tournaments:profile", args=[name]),
                    title,
                    name,
                )
                if name in linked
                else name,
            )
            for name in members
        ),
    )
