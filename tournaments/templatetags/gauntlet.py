from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def pct(value) -> str:
    """0.6666667 → "66.67"; empty for a figure the ruleset does not use."""
    if value is None or value == "":
        return ""
    return f"{float(value) * 100:.2f}"


@register.simple_tag
def playoff_label(finish: int) -> str:
    labels = {1: _("Champion"), 2: _("Finalist"), 3: _("Top 4"), 5: _("Top 8"), 9: _("Top 16")}
    return labels.get(finish, _("Top %(n)d") % {"n": finish})
