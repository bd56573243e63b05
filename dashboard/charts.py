"""Charts as plain geometry: pure functions, no Django, no I/O.

The dashboard draws its charts as inline SVG on the server, so they need no
JavaScript, no charting library and no network, and they read on a phone. These
functions turn numbers into the coordinates a template writes out; they are
tested alone (``tests/dashboard/test_charts.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from html import escape
from typing import Any

__all__ = ["bar_chart", "nice_ceiling", "per_minute", "svg"]


def nice_ceiling(value: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … that is at least ``value`` (1 for 0)."""
    if value <= 1:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if step * power >= value:
            return int(step * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def per_minute(
    counts: Mapping[datetime, int], now: datetime, minutes: int
) -> list[tuple[datetime, int]]:
    """The last ``minutes`` whole minutes up to and including ``now``'s, oldest first.

    ``counts`` maps the start of a minute to a count; minutes missing from it count 0
    and minutes outside the window are left out.
    """
    if minutes < 1:
        raise ValueError("minutes must be at least 1")
    last = now.replace(second=0, microsecond=0)
    starts = [last - timedelta(minutes=minutes - 1 - i) for i in range(minutes)]
    return [(start, int(counts.get(start, 0))) for start in starts]


def bar_chart(
    values: Sequence[int],
    labels: Sequence[str] | None = None,
    *,
    width: int = 320,
    height: int = 120,
    left: int = 26,
    bottom: int = 16,
    top: int = 6,
    gap: float = 1.0,
    tick_every: int = 0,
) -> dict[str, Any]:
    """The geometry of a bar chart: one bar per value, a y axis from 0 to a round maximum.

    ``labels`` names each bar (used in the bar's tooltip); every ``tick_every``-th bar
    (and the last) gets its label under the axis (0: none). Coordinates are in the
    SVG's own units: the template scales the drawing to the width it is given.
    """
    values = [max(0, int(v)) for v in values]
    if labels is not None and len(labels) != len(values):
        raise ValueError("one label per value")
    labels = list(labels) if labels is not None else [str(i + 1) for i in range(len(values))]
    peak = max(values, default=0)
    scale_max = nice_ceiling(peak)
    plot_w = width - left
    plot_h = height - top - bottom
    base = top + plot_h
    n = len(values)
    slot = plot_w / n if n else plot_w
    bar_w = max(slot - gap, 0.5)
    bars = []
    for i, (value, label) in enumerate(zip(values, labels, strict=True)):
        h = plot_h * value / scale_max
        bars.append(
            {
                "x": round(left + i * slot + gap / 2, 2),
                "y": round(base - h, 2),
                "w": round(bar_w, 2),
                "h": round(h, 2),
                "value": value,
                "label": label,
            }
        )
    grid = [
        {"y": round(base - plot_h * frac, 2), "text": _short(scale_max * frac)}
        for frac in (0, 0.5, 1)
    ]
    ticks = []
    if tick_every and n:
        for i in range(n):
            if i % tick_every == 0 or i == n - 1:
                ticks.append({"x": round(left + i * slot + slot / 2, 2), "text": labels[i]})
        # Two labels too close together would overlap: keep the last, drop the one before.
        if len(ticks) >= 2 and ticks[-1]["x"] - ticks[-2]["x"] < slot * tick_every / 2:
            del ticks[-2]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width,
        "base": round(base, 2),
        "label_y": height - 3,
        "bars": bars,
        "grid": grid,
        "ticks": ticks,
        "peak": peak,
        "total": sum(values),
        "scale_max": scale_max,
    }


def svg(chart: dict[str, Any], label: str, css_class: str = "chart") -> str:
    """The chart as an inline SVG element; ``label`` is its text for screen readers.

    Every text written is escaped; the markup is built here rather than in a template
    because a template loop over dozens of bars per chart costs more than the rest of
    a panel.
    """
    c = chart
    parts = [
        f'<svg class="{escape(css_class)}" viewBox="0 0 {c["width"]} {c["height"]}" role="img" '
        f'aria-label="{escape(label)}" preserveAspectRatio="xMinYMin meet">',
        f"<title>{escape(label)}</title>",
    ]
    for g in c["grid"]:
        parts.append(
            f'<line class="grid" x1="{c["left"]}" x2="{c["right"]}" y1="{g["y"]}" y2="{g["y"]}"/>'
            f'<text class="axis" x="{c["left"] - 3}" y="{g["y"]}" text-anchor="end" '
            f'dominant-baseline="middle">{escape(g["text"])}</text>'
        )
    for b in c["bars"]:
        parts.append(
            f'<rect class="bar" x="{b["x"]}" y="{b["y"]}" width="{b["w"]}" height="{b["h"]}">'
            f"<title>{escape(str(b['label']))}: {b['value']}</title></rect>"
        )
    for t in c["ticks"]:
        parts.append(
            f'<text class="axis" x="{t["x"]}" y="{c["label_y"]}" text-anchor="middle">'
            f"{escape(str(t['text']))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _short(value: float) -> str:
    """Axis numbers: 1500 → 1.5k, 2000000 → 2M, 2.5 → 2.5, 3.0 → 3."""
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{value / 1000:g}k"
    return f"{value:g}"
