from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def age(seconds) -> str:
    """Seconds as a short duration: 42 s, 3 min, 2 h 5 min, 3 d 4 h."""
    if seconds is None or seconds == "":
        return "—"
    s = max(0, int(float(seconds)))
    if s < 120:
        return _("%(n)d s") % {"n": s}
    m = s // 60
    if m < 120:
        return _("%(n)d min") % {"n": m}
    h, m = divmod(m, 60)
    if h < 48:
        return _("%(h)d h %(m)d min") % {"h": h, "m": m}
    d, h = divmod(h, 24)
    return _("%(d)d d %(h)d h") % {"d": d, "h": h}


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None
