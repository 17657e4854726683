"""The report's markup: Jinja2 templates (``littrace/report/templates``, autoescaped) and the
plain values they show. Callers build :class:`Table`, :class:`Badge` and :class:`RecallChart`
values and never write markup, so everything a run recorded reaches the page escaped.

Example:
    >>> render("components.html.j2", "table", Table(["k", "recall"], [["1", "0.50"]]))
    '<table><thead><tr><th>k</th><th>recall</th></tr></thead><tbody><tr><td>1</td><td>0.50</td></tr></tbody></table>'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jinja2

__all__ = ["Badge", "RecallChart", "Table", "fmt", "recall_chart", "render", "render_page"]


@dataclass(frozen=True)
class Badge:
    """A small coloured label; ``kind`` is ``good``, ``bad``, ``warn`` or empty."""

    text: str
    kind: str = ""


@dataclass(frozen=True)
class Table:
    """A table: a header and rows whose cells are text, numbers or :class:`Badge`."""

    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    css_class: str = ""


@dataclass(frozen=True)
class _Tick:
    y: str
    label_y: str
    label: str


@dataclass(frozen=True)
class _XLabel:
    x: str
    k: int


@dataclass(frozen=True)
class _Point:
    x: str
    y: str
    k: int
    value: str


@dataclass(frozen=True)
class RecallChart:
    """Recall@k as an SVG line chart's geometry, k on a log axis and recall from 0 to 1."""

    width: int
    height: int
    left: int
    right: int
    x_label_y: int
    title_x: str
    ticks: list[_Tick] = field(default_factory=list)
    x_labels: list[_XLabel] = field(default_factory=list)
    points: list[_Point] = field(default_factory=list)

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


def fmt(value: float | int | None, digits: int = 3) -> str:
    """A number for a table: ``—`` for None, integers as they are, floats rounded.

    Example:
        >>> fmt(None), fmt(3), fmt(0.12345), fmt(2.5, 1)
        ('—', '3', '0.123', '2.5')
    """
    if value is None:
        return "—"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{float(value):.{digits}f}"


def recall_chart(
    points: Mapping[int, float | None], *, width: int = 520, height: int = 260
) -> RecallChart:
    """The chart of recall at each cut-off k (unknown values are left out)."""
    known = sorted((k, v) for k, v in points.items() if v is not None)
    left, right, top, bottom = 48, 16, 14, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    low = math.log(min((k for k, _ in known), default=1))
    high = math.log(max((k for k, _ in known), default=10))
    span = high - low or 1.0

    def x(k: int) -> str:
        return f"{left + (math.log(k) - low) / span * plot_w:.1f}"

    def y(value: float) -> float:
        return top + (1.0 - value) * plot_h

    return RecallChart(
        width=width,
        height=height,
        left=left,
        right=width - right,
        x_label_y=height - bottom + 16,
        title_x=f"{left + plot_w / 2:.1f}",
        ticks=[
            _Tick(f"{y(tick):.1f}", f"{y(tick) + 4:.1f}", f"{tick:.2f}")
            for tick in (0.0, 0.25, 0.5, 0.75, 1.0)
        ],
        x_labels=[_XLabel(x(k), k) for k, _ in known],
        points=[_Point(x(k), f"{y(v):.1f}", k, f"{v:.3f}") for k, v in known],
    )


@cache
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("littrace.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.tests["badge"] = lambda value: isinstance(value, Badge)
    return environment


def render(template: str, macro: str, *args: Any) -> str:
    """One macro of a template, called with ``args`` (what the tests and doctests use).

    Example:
        >>> render("components.html.j2", "badge", Badge("<b>", "bad"))
        '<span class="badge bad">&lt;b&gt;</span>'
    """
    module = _environment().get_template(template).module
    return str(getattr(module, macro)(*args))


def render_page(**context: Any) -> str:
    """The whole report (``report.html.j2``) from its header, sections and questions."""
    return _environment().get_template("report.html.j2").render(**context)
