"""The chart geometry is pure: numbers in, coordinates out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dashboard import charts


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, 1),
        (1, 1),
        (1.5, 2),
        (2, 2),
        (3, 5),
        (7, 10),
        (10, 10),
        (11, 20),
        (49, 50),
        (51, 100),
        (999, 1000),
    ],
)
def test_nice_ceiling_rounds_up_to_1_2_5(value, expected):
    assert charts.nice_ceiling(value) == expected


def test_per_minute_fills_missing_minutes_with_zero_and_drops_old_ones():
    now = datetime(2026, 1, 1, 12, 30, 42, tzinfo=UTC)
    minute = now.replace(second=0)
    counts = {
        minute: 4,
        minute - timedelta(minutes=2): 7,
        minute - timedelta(minutes=10): 99,  # outside a 5-minute window
    }
    series = charts.per_minute(counts, now, 5)
    assert [m for m, _ in series] == [minute - timedelta(minutes=k) for k in (4, 3, 2, 1, 0)]
    assert [n for _, n in series] == [0, 0, 7, 0, 4]
    with pytest.raises(ValueError):
        charts.per_minute(counts, now, 0)


def test_bars_are_proportional_and_fit_the_plot():
    chart = charts.bar_chart(
        [0, 5, 10, 3], ["a", "b", "c", "d"], width=200, height=100, left=20, bottom=10, top=10
    )
    assert chart["scale_max"] == 10 and chart["peak"] == 10 and chart["total"] == 18
    bars = chart["bars"]
    assert [b["value"] for b in bars] == [0, 5, 10, 3]
    plot_h = 100 - 10 - 10
    assert bars[0]["h"] == 0
    assert bars[2]["h"] == plot_h and bars[2]["y"] == 10  # the tallest reaches the top
    assert bars[1]["h"] == pytest.approx(plot_h / 2)
    for b in bars:
        assert b["y"] + b["h"] == pytest.approx(chart["base"])
        assert b["x"] >= 20 and b["x"] + b["w"] <= 200
    xs = [b["x"] for b in bars]
    assert xs == sorted(xs)
    assert [g["text"] for g in chart["grid"]] == ["0", "5", "10"]


def test_an_empty_or_all_zero_chart_has_a_scale_of_one_and_no_height():
    chart = charts.bar_chart([0] * 60)
    assert chart["scale_max"] == 1 and all(b["h"] == 0 for b in chart["bars"])
    assert charts.bar_chart([])["bars"] == []


def test_tick_labels_every_nth_bar_and_the_last_without_crowding():
    labels = [str(i) for i in range(60)]
    chart = charts.bar_chart([1] * 60, labels, tick_every=15)
    assert [t["text"] for t in chart["ticks"]] == ["0", "15", "30", "45", "59"]
    chart = charts.bar_chart([1] * 47, labels[:47], tick_every=15)
    assert [t["text"] for t in chart["ticks"]] == ["0", "15", "30", "46"]  # 45 would touch 46


def test_labels_must_match_values_and_negative_values_count_as_zero():
    with pytest.raises(ValueError):
        charts.bar_chart([1, 2], ["only one"])
    assert charts.bar_chart([-3, 2])["bars"][0]["h"] == 0


def test_axis_numbers_are_short():
    assert charts.bar_chart([1500])["grid"][-1]["text"] == "2k"
    assert charts.bar_chart([3_000_000])["grid"][-1]["text"] == "5M"


def test_the_svg_escapes_every_text_and_draws_each_bar():
    chart = charts.bar_chart([1, 2], ["<b>", "a&b"], tick_every=1)
    markup = charts.svg(chart, 'Games in "<script>"')
    assert markup.startswith('<svg class="chart" viewBox="0 0 320 120" role="img"')
    assert "<script>" not in markup and "<b>" not in markup
    assert 'aria-label="Games in &quot;&lt;script&gt;&quot;"' in markup
    assert markup.count("<rect ") == 2 and "<title>a&amp;b: 2</title>" in markup
    assert markup.endswith("</svg>")
