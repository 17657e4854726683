"""HTML pieces of the report: the page shell (inline CSS and JS), tables, badges, the recall
chart as inline SVG. Everything is escaped here, so callers pass plain text.

Example:
    >>> table(["k", "recall"], [["1", "0.50"]])
    '<table><thead><tr><th>k</th><th>recall</th></tr></thead><tbody><tr><td>1</td><td>0.50</td></tr></tbody></table>'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

__all__ = ["Html", "badge", "fmt", "page", "recall_chart", "table"]


class Html(str):
    """Markup that is already safe: :func:`table` and friends do not escape it again."""

    __slots__ = ()


def _cell(value: object) -> str:
    return value if isinstance(value, Html) else escape(str(value))


def fmt(value: float | int | None, digits: int = 3) -> str:
    """A number for a table: ``—`` for None, integers as they are, floats rounded."""
    if value is None:
        return "—"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{float(value):.{digits}f}"


def table(header: Sequence[str], rows: Sequence[Sequence[object]], *, css_class: str = "") -> Html:
    """An HTML table; cells are escaped unless they are :class:`Html`."""
    head = "".join(f"<th>{_cell(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in rows)
    attribute = f' class="{escape(css_class)}"' if css_class else ""
    return Html(f"<table{attribute}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def badge(text: str, kind: str = "") -> Html:
    """A small coloured label; ``kind`` is ``good``, ``bad``, ``warn`` or empty."""
    return Html(f'<span class="badge {escape(kind)}">{escape(text)}</span>')


def recall_chart(
    points: Mapping[int, float | None], *, width: int = 520, height: int = 260
) -> Html:
    """Recall@k as an inline SVG line chart, k on a log axis and recall from 0 to 1."""
    known = sorted((k, v) for k, v in points.items() if v is not None)
    left, right, top, bottom = 48, 16, 14, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    low = math.log(min((k for k, _ in known), default=1))
    high = math.log(max((k for k, _ in known), default=10))
    span = high - low or 1.0

    def x(k: int) -> float:
        return left + (math.log(k) - low) / span * plot_w

    def y(value: float) -> float:
        return top + (1.0 - value) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="recall-chart" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="candidate recall at k">'
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            'class="grid"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.2f}</text>'
        )
    for k, _ in known:
        parts.append(
            f'<text x="{x(k):.1f}" y="{height - bottom + 16}" text-anchor="middle">{k}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle">'
        "k (candidates kept)</text>"
    )
    if known:
        line = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in known)
        parts.append(f'<polyline points="{line}" class="curve"/>')
        for k, v in known:
            parts.append(
                f'<circle cx="{x(k):.1f}" cy="{y(v):.1f}" r="4" class="dot">'
                f"<title>recall@{k} = {v:.3f}</title></circle>"
            )
    parts.append("</svg>")
    return Html("".join(parts))


_CSS = """
:root { --fg: #1d232a; --muted: #5b6672; --line: #d7dde3; --good: #1d7a3a; --bad: #b3261e;
  --warn: #9a6700; --accent: #2457a6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  margin: 0; background: #f6f8fa; }
header, main > section { max-width: 1180px; margin: 0 auto; padding: 12px 24px; }
header { border-bottom: 1px solid var(--line); background: #fff; max-width: none; }
header h1 { margin: 4px 0; font-size: 22px; }
header p { margin: 2px 0; color: var(--muted); }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 0 0 6px; }
table { border-collapse: collapse; margin: 6px 0 12px; background: #fff; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef2f6; }
.score { font-size: 40px; font-weight: 700; color: var(--accent); }
.cards { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; background: #e6eaef;
  font-size: 12px; margin-right: 4px; }
.badge.good { background: #dcf3e2; color: var(--good); }
.badge.bad { background: #fbe3e1; color: var(--bad); }
.badge.warn { background: #fdf1d6; color: var(--warn); }
article.question { background: #fff; border: 1px solid var(--line); border-radius: 6px;
  padding: 12px 16px; margin: 14px 0; }
article.question.hidden { display: none; }
.q-text { font-size: 15px; margin: 4px 0 10px; }
.answers { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.answers pre, details pre { white-space: pre-wrap; word-break: break-word; background: #f3f5f8;
  padding: 6px 8px; margin: 0; max-height: 420px; overflow: auto; font-size: 12px; }
figure.evidence { margin: 8px 0; padding: 6px; border: 1px solid var(--line); border-radius: 4px; }
figure.evidence img { max-width: 100%; border: 1px solid var(--line); display: block; }
figure.evidence figcaption { font-size: 12px; color: var(--muted); margin-top: 4px; }
.muted { color: var(--muted); }
svg text { font-size: 11px; fill: var(--muted); }
svg .grid { stroke: var(--line); }
svg .curve { fill: none; stroke: var(--accent); stroke-width: 2; }
svg .dot { fill: var(--accent); }
#filters { position: sticky; top: 0; background: #f6f8fa; padding: 6px 0; z-index: 1; }
#filters input[type=search] { width: 320px; padding: 3px 6px; }
"""

_JS = """
(function () {
  var box = document.getElementById('filter');
  var only = document.getElementById('only-lost');
  var count = document.getElementById('shown');
  function apply() {
    var words = box.value.toLowerCase();
    var shown = 0;
    document.querySelectorAll('article.question').forEach(function (q) {
      var hit = q.textContent.toLowerCase().indexOf(words) >= 0;
      var lost = q.getAttribute('data-lost') !== '';
      var visible = hit && (!only.checked || lost);
      q.classList.toggle('hidden', !visible);
      if (visible) { shown += 1; }
    });
    count.textContent = shown;
  }
  box.addEventListener('input', apply);
  only.addEventListener('change', apply);
  apply();
})();
"""


def page(title: str, header: Html, sections: Sequence[Html], *, inputs: str) -> str:
    """The whole document: the hash of its inputs (``build.report_key``), inline CSS, the
    header, the sections and the filter script."""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="littrace-report-inputs" content="{escape(inputs)}">'
        f"<title>{escape(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_CSS}</style></head><body>"
        f"<header>{header}</header><main>{''.join(sections)}</main>"
        f"<script>{_JS}</script></body></html>\n"
    )
