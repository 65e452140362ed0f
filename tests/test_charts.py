"""The running-total charts of both score sheets (referee/web/sheets.py)."""

from __future__ import annotations

from referee.web.sheets import running_chart

DIGIT, MINUS = 6.4, 8.4  # SVG units a digit and the minus sign take at the labels' 10-unit font (DejaVu Sans)


def test_a_three_digit_score_keeps_its_minus_sign_inside_the_chart():
    for top in (9, 99, 151, 240, 1043):
        chart = running_chart(["Ana", "Bao"], [(1, [top, -top])], 4, [top, -top], below_zero=True)
        assert chart is not None
        label = f"−{chart.top}"  # drawn ending at pad - 4
        assert chart.pad - 4 - MINUS - DIGIT * (len(label) - 1) >= 0, (top, chart.pad)  # issue 34: "−240" was cut


def test_the_lines_start_at_the_left_edge_of_the_plot():
    chart = running_chart(["Ana", "Bao"], [(1, [151, -151])], 2, [151, -151], below_zero=True)
    assert chart is not None
    assert all(line.points.startswith(f"{chart.pad},") for line in chart.lines)
