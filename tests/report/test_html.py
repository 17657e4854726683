"""Tests for littrace.report.html: the templates escape what a run recorded, render badges
inside tables, and draw recall at the known cut-offs only."""

from __future__ import annotations

import re

from littrace.report.html import Badge, Table, fmt, recall_chart, render


def test_text_from_a_run_is_escaped_and_badges_are_markup() -> None:
    html = render(
        "components.html.j2",
        "table",
        Table(["<th>", "gold"], [["<script>alert(1)</script>", Badge("gold & kept", "good")]]),
    )
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<th>&lt;th&gt;</th>" in html
    assert '<td><span class="badge good">gold &amp; kept</span></td>' in html


def test_an_evidence_crop_or_the_reason_there_is_none() -> None:
    class Item:
        image = None
        note = "PDF <gone>"
        verdict = Badge("missed", "bad")
        where = "p1 · table · p. 3"
        text = 'the "best" row'
        how = "region from the object"
        score = ""

    html = render("components.html.j2", "evidence", Item())
    assert html.startswith(
        '<figure class="evidence"><p class="muted">no page image: PDF &lt;gone&gt;'
    )
    assert (
        '<span class="badge bad">missed</span> p1 · table · p. 3 — “the &#34;best&#34; row”' in html
    )


def test_the_recall_chart_draws_the_known_cut_offs_on_a_log_axis() -> None:
    chart = recall_chart({1: 0.5, 10: 1.0, 100: None})
    assert [p.k for p in chart.points] == [1, 10]
    assert [p.value for p in chart.points] == ["0.500", "1.000"]
    # k=1 at the left edge of the plot, k=10 at its right edge; recall 1.0 at its top.
    assert chart.points[0].x == f"{chart.left:.1f}" and float(chart.points[1].x) == chart.right
    assert float(chart.points[1].y) < float(chart.points[0].y)
    svg = render("components.html.j2", "recall_chart", chart)
    assert len(re.findall(r"<circle ", svg)) == 2 and 'id="recall-chart"' in svg
    assert fmt(None) == "—" and fmt(7) == "7" and fmt(0.12345) == "0.123"
