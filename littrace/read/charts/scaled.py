"""Bar and line charts read back through their y scale, from vector graphics alone."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

import numpy as np

from littrace.corpus.document import BBox
from littrace.numbers import parse_value
from littrace.read.charts.page import (
    Color,
    Word,
    as_color,
    coloured,
    inside,
    joined_phrases,
    legend_entries,
    read_figure,
    slanted,
    swatch,
)

Segment = tuple[tuple[float, float], tuple[float, float]]

# Largest distance (points) between a tick's fitted and drawn position, relative to the
# scale's span, before the scale is rejected.
_SCALE_TOLERANCE = 0.01
# Widest flat line read as a legend swatch rather than a series (points).
_SWATCH_WIDTH = 30.0
# Fewest vertices of a continuous curve (a training curve, a sweep), not a line through
# a few categorical ticks.
_CURVE_VERTICES = 20


@dataclass(frozen=True)
class Point:
    """One read value: its x label (x tick or bar group; ``""`` for a lone bar) and value."""

    x: str
    value: float


@dataclass(frozen=True)
class Series:
    """A named series (legend entry, or a bar's own label) and its points left to right."""

    name: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Chart:
    """A chart read back from vector graphics: bars or lines, the y axis title and series."""

    kind: Literal["bar", "line"]
    y_label: str
    series: tuple[Series, ...]


@dataclass(frozen=True)
class _Scale:
    """``value = a * y + b`` and the right edge of its tick label column."""

    a: float
    b: float
    column_x1: float

    def value(self, y: float) -> float:
        return self.a * y + self.b


def _is_ink(color: Color | None) -> bool:
    """A data colour: not absent, not white or near-white (backgrounds, panels)."""
    return color is not None and min(color) < 0.9


def _small(r: BBox) -> bool:
    """A marker or legend swatch rather than a bar: at most 6 points each way."""
    return r[2] - r[0] <= 6 and r[3] - r[1] <= 6


def _first_row(words: Iterable[Word], below: float, right_of: float) -> list[Word]:
    """The first text row whose words' centres lie under ``below`` and right of ``right_of``
    (the y tick column, whose lowest label sits on the x axis)."""
    under = sorted((w for w in words if w.cy > below and w.x0 > right_of), key=lambda w: w.y0)
    if not under:
        return []
    top = under[0].y0
    return [w for w in under if w.y0 - top < 2.0]


def _segments(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, Segment]]:
    """Every stroked straight segment in ``box``: its colour and ends."""
    found: list[tuple[Color, Segment]] = []
    for path in drawings:
        color = as_color(path.get("color"))
        if color is None or "s" not in str(path.get("type", "")):
            continue
        previous: Segment | None = None
        for item in path["items"]:
            if item[0] != "l":
                continue
            a, b = (item[1].x, item[1].y), (item[2].x, item[2].y)
            # A closed single line comes back as a -> b, b -> a: one segment.
            if previous == (b, a) or not (inside(*a, box) and inside(*b, box)):
                continue
            previous = (a, b)
            found.append((color, (a, b)))
    return found


def _rects(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, BBox]]:
    """Filled, coloured rectangles in ``box``."""
    found: list[tuple[Color, BBox]] = []
    for path in drawings:
        fill = as_color(path.get("fill"))
        if not _is_ink(fill):
            continue
        assert fill is not None
        for item in path["items"]:
            if item[0] == "re":
                r = item[1]
                if inside(r.x0, r.y0, box) and inside(r.x1, r.y1, box):
                    found.append((fill, (r.x0, r.y0, r.x1, r.y1)))
    return found


def _scale(
    words: list[Word], segments: list[tuple[Color, Segment]], data_x0: float
) -> _Scale | None:
    """The y scale from the largest consistent column of right-aligned numeric labels that
    ends left of ``data_x0`` (where the coloured graphics start)."""
    numeric = [
        (w, v) for w in words if w.x1 <= data_x0 + 1 and (v := parse_value(w.text)) is not None
    ]
    columns: dict[int, list[tuple[Word, float]]] = defaultdict(list)
    for word, value in numeric:
        columns[round(word.x1)].append((word, value))
    # Neighbouring rounded edges belong to one column (1.4 rounds to 1, 1.6 to 2).
    merged: list[list[tuple[Word, float]]] = []
    for key in sorted(columns):
        if merged and abs(merged[-1][0][0].x1 - key) <= 1.5:
            merged[-1].extend(columns[key])
        else:
            merged.append(list(columns[key]))
    best: _Scale | None = None
    best_count = 0
    for column in merged:
        ticks = {round(word.cy, 1): (_tick_y(word, segments), value) for word, value in column}
        if len(ticks) < 2 or len({v for _, v in ticks.values()}) < len(ticks):
            continue
        ys = np.array([y for y, _ in ticks.values()])
        values = np.array([v for _, v in ticks.values()])
        a, b = np.polyfit(ys, values, 1)
        span = float(values.max() - values.min())
        if a >= 0 or span == 0:
            continue
        residual = float(np.abs(a * ys + b - values).max())
        if residual > _SCALE_TOLERANCE * span:
            continue
        x1 = max(word.x1 for word, _ in column)
        # More ticks win; among equals, the column nearer the plot (the rightmost).
        if len(ticks) > best_count or (
            len(ticks) == best_count and best is not None and x1 > best.column_x1
        ):
            best, best_count = _Scale(float(a), float(b), x1), len(ticks)
    return best


def _tick_y(word: Word, segments: list[tuple[Color, Segment]]) -> float:
    """The y of the tick mark or grid line drawn right of a tick label, else its centre."""
    for _, ((ax, ay), (bx, by)) in segments:
        horizontal = abs(ay - by) < 0.1
        starts_near = word.x1 - 1 <= min(ax, bx) <= word.x1 + 10
        if horizontal and starts_near and abs(ay - word.cy) <= (word.y1 - word.y0) / 2:
            return ay
    return word.cy


def _bar_chart(
    words: list[Word],
    rects: list[tuple[Color, BBox]],
    scale: _Scale,
    legend_lines: list[tuple[Color, BBox]],
    around: tuple[list[Word], list[tuple[Color, BBox]]],
) -> list[Series] | None:
    """Bars on the commonest baseline; ``around`` holds the words and rectangles a little
    above and below the figure's box too, where its legend may sit."""
    bars_by_base: dict[int, list[tuple[Color, BBox]]] = defaultdict(list)
    for color, r in rects:
        if r[2] - r[0] >= 2 and not _small(r) and r[0] > scale.column_x1:
            bars_by_base[round(r[3])].append((color, r))
    base = max(bars_by_base, key=lambda k: len(bars_by_base[k]), default=None)
    if base is None or len(bars_by_base[base]) < 2:
        return None
    bars = sorted(bars_by_base[base], key=lambda bar: bar[1][0])
    baseline = max(r[3] for _, r in bars)
    swatches = [(c, r) for c, r in around[1] if (c, r) not in bars] + legend_lines
    legend = legend_entries(around[0], swatches)
    beneath = [w for w in words if w.cy > baseline and w.x1 > scale.column_x1]
    height = float(np.median([w.y1 - w.y0 for w in words])) if words else 0.0
    labels = slanted(beneath, height) or joined_phrases(
        _first_row(words, baseline, scale.column_x1)
    )
    grouped = all(color in legend for color, _ in bars) and len({c for c, _ in bars}) > 1

    def under(r: BBox) -> str | None:
        """The label nearest under the bar; a lone bar's must be centred under it."""
        centre = (r[0] + r[2]) / 2
        nearest = min(labels, key=lambda w: abs(w.cx - centre), default=None)
        if nearest is None or (not grouped and abs(nearest.cx - centre) > (r[2] - r[0]) / 2):
            return None
        return nearest.text

    series: dict[str, list[Point]] = defaultdict(list)
    for color, r in bars:
        value = scale.value(r[1])
        label = under(r)
        if grouped:
            series[legend[color]].append(Point(label or "", value))
        elif label is None or label in series:
            return None  # an unnamed bar, or two bars under one label: cannot tell them apart
        else:
            series[label].append(Point("", value))
    return [Series(name, tuple(points)) for name, points in series.items()]


def _chains(segments: list[tuple[Color, Segment]]) -> dict[Color, list[list[Segment]]]:
    """Coloured segments joined end to start into chains, per colour."""
    chains: dict[Color, list[list[Segment]]] = defaultdict(list)
    for color, segment in segments:
        if not coloured(color):
            continue
        runs = chains[color]
        if runs and _close(runs[-1][-1][1], segment[0]):
            runs[-1].append(segment)
        else:
            runs.append([segment])
    return chains


def _close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 0.5 and abs(a[1] - b[1]) < 0.5


def _line_chart(
    words: list[Word],
    segments: list[tuple[Color, Segment]],
    rects: list[tuple[Color, BBox]],
    scale: _Scale,
) -> list[Series] | None:
    polylines: dict[Color, list[tuple[float, float]]] = {}
    short: list[tuple[Color, BBox]] = []
    for color, runs in _chains(segments).items():
        for run in runs:
            vertices = [run[0][0], *(segment[1] for segment in run)]
            left, right = min(x for x, _ in vertices), max(x for x, _ in vertices)
            flat = all(abs(y - vertices[0][1]) < 0.1 for _, y in vertices)
            if flat and (len(run) == 1 or right - left <= _SWATCH_WIDTH):
                y = vertices[0][1]
                short.append((color, (left, y - 0.5, right, y + 0.5)))
            elif len(vertices) >= 3 and all(b[0] >= a[0] for a, b in pairwise(vertices)):
                line = [v for v in vertices if v[0] > scale.column_x1]
                held = polylines.get(color)
                if held is None:
                    polylines[color] = line
                elif min(len(line), len(held)) >= _CURVE_VERTICES and (
                    left > held[-1][0] or right < held[0][0]
                ):
                    # Side-by-side panels repeat each curve: the panel the y scale is
                    # printed beside is read.
                    polylines[color] = min(held, line, key=lambda points: points[0][0])
                else:
                    return None  # two data lines of one colour: which is which?
    if not polylines or any(len(points) < 2 for points in polylines.values()):
        return None
    lowest = max(y for points in polylines.values() for _, y in points)
    xs = [x for points in polylines.values() for x, _ in points]
    # The x axis: a grey horizontal line under the data spanning most of it (not a legend frame).
    axis = [
        a[1]
        for color, (a, b) in segments
        if not coloured(color)
        and abs(a[1] - b[1]) < 0.1
        and a[1] >= lowest - 0.1
        and abs(a[0] - b[0]) >= 0.5 * (max(xs) - min(xs))
    ]
    ticks = joined_phrases(_first_row(words, min(axis, default=lowest), scale.column_x1))
    vertices = [v for points in polylines.values() for v in points]
    markers = [
        (c, r)
        for c, r in rects
        if swatch(r)
        and not any(_close(((r[0] + r[2]) / 2, (r[1] + r[3]) / 2), v) for v in vertices)
    ]
    legend = legend_entries(words, short + markers)
    if len(polylines) > 1 and not all(color in legend for color in polylines):
        return None
    # A curve with more vertices than the x axis has ticks is continuous: its points are
    # read without x labels.
    continuous = any(
        len(vertices) >= max(_CURVE_VERTICES, 2 * len(ticks)) for vertices in polylines.values()
    )
    series: list[Series] = []
    for color, vertices in polylines.items():
        points: list[Point] = []
        xs = sorted(x for x, _ in vertices)
        spacing = min((b - a for a, b in pairwise(xs)), default=20.0)
        for x, y in vertices:
            if continuous:
                points.append(Point("", scale.value(y)))
                continue
            tick = min(ticks, key=lambda w: abs(w.cx - x), default=None)
            if tick is None or abs(tick.cx - x) > spacing / 2:
                return None
            points.append(Point(tick.text, scale.value(y)))
        series.append(Series(legend.get(color, ""), tuple(points)))
    return series


def _y_label(words: list[Word], scale: _Scale) -> str:
    """Words left of the tick column (rotated axis titles read bottom to top)."""
    left = [w for w in words if w.x1 < scale.column_x1 - 8]
    return " ".join(w.text for w in sorted(left, key=lambda w: -w.cy))


def read_charts(pdf_path: str, page: int, bbox: BBox) -> tuple[Chart, ...]:
    """The line and the bar chart drawn in ``bbox`` (PDF points) of 1-based ``page``, those
    found (one panel may plot lines and another bars); empty when no consistent y scale or
    no series is found there (diagrams, raster images, panels without tick labels)."""
    figure = read_figure(pdf_path, page, bbox)
    if figure is None:
        return ()
    box, wide, drawings, words, around = (
        figure.box,
        figure.wide,
        figure.drawings,
        figure.words,
        figure.around,
    )
    segments = _segments(drawings, box)
    rects = _rects(drawings, box)
    # Where the data start: legend swatches may sit further left than the y tick labels.
    drawn = [r for _, r in rects if not swatch(r)] or [r for _, r in rects]
    starts = [r[0] for r in drawn] + [
        min(a[0], b[0]) for color, (a, b) in segments if coloured(color)
    ]
    scale = _scale(words, segments, min(starts, default=box[2]))
    if scale is None:
        return ()
    y_label = _y_label(words, scale)
    charts: list[Chart] = []
    lines = _line_chart(words, segments, rects, scale)
    if lines:
        charts.append(Chart("line", y_label, tuple(lines)))
    legend_lines = [
        (color, (min(a[0], b[0]), a[1] - 0.5, max(a[0], b[0]), a[1] + 0.5))
        for color, (a, b) in segments
        if coloured(color) and abs(a[1] - b[1]) < 0.1
    ]
    bars = _bar_chart(words, rects, scale, legend_lines, (around, _rects(drawings, wide)))
    if bars:
        charts.append(Chart("bar", y_label, tuple(bars)))
    return tuple(charts)


def read_chart(pdf_path: str, page: int, bbox: BBox) -> Chart | None:
    """The chart drawn in ``bbox`` of 1-based ``page`` (:func:`read_charts`; its lines
    before its bars), or None."""
    return next(iter(read_charts(pdf_path, page, bbox)), None)
