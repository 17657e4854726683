"""Read vector bar and line charts from a paper's PDF, and answer "which is best" from them.

A figure's graphic is read back from the drawing commands and words PyMuPDF reports inside its
box, by geometry alone (values printed on the chart are not needed):

* the **y scale** from numeric tick labels right-aligned in a column left of the plot:
  ``value = a * y + b`` fitted through them (each label snapped to its tick mark when one is
  drawn), rejected unless every tick lies on the fitted line;
* **bars**: filled, non-white rectangles standing on a common baseline; a bar's value is its
  top edge through the scale; it is named by a legend entry of its fill colour (grouped bars,
  the group then named by the text under it) or else by the text centred under it;
* **lines**: chains of stroked segments of one colour; values at their vertices, each vertex
  named by the x tick label under it, the series by its legend entry (a short line or swatch
  of the same colour next to a text).

:func:`chart_answer` then answers a multiple-choice question that asks for an extreme from the
located figure's chart: the extreme bar or series when the options name them, else the x tick
of the extreme point of the series the question names (or the only series).

Charts that print their values need no scale: :func:`printed_values` pairs each number printed
at a bar's end (above it, or below a bar hanging from the axis) with the names the chart gives
that bar (the x label under it, upright or slanted; its colour's legend entry; the panel title
above it), and :func:`printed_reading` takes the value whose names the question says most of.

Example:
    >>> chart = read_chart("paper.pdf", 4, (186.0, 248.5, 426.0, 368.5))  # doctest: +SKIP
    >>> [(s.name, s.points[0].value) for s in chart.series]  # doctest: +SKIP
    [('IPO-S', 34.6), ('KTO-Lite', 34.4), ('ScaleRouter', 15.2), ('FlowMixer', 13.7)]
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any, Literal

import numpy as np
import pymupdf

from littrace.corpus.model import BBox, PaperObject
from littrace.numbers import parse_value, same_number
from littrace.read.extremes import MAX_WORDS, MIN_WORDS, lower_is_better
from littrace.read.model import Fact, PaperContext, SynthesisInput
from littrace.read.tables import subject_name
from littrace.read.text import contains_phrase, norm, terms
from littrace.read.units import marks_own, question_terms, refers_to_own
from littrace.schema import Question

Color = tuple[float, float, float]
Segment = tuple[tuple[float, float], tuple[float, float]]

# Points of margin around the figure box: tick labels and legends may overhang it a little.
_MARGIN = 4.0
# A legend row may sit just outside the figure's box (points above and below it).
_LEGEND_REACH = 24.0
# Farthest a printed value sits from its bar's end, in text heights.
_PRINTED_GAP = 1.0
# Farthest an x label's anchor sits from its bar's centre (points).
_LABEL_REACH = 25.0
# Largest distance (points) between a tick's fitted and drawn position, relative to the
# scale's span, before the scale is rejected.
_SCALE_TOLERANCE = 0.01
_FIGURE_ID = re.compile(r"\b(?:Figure|Fig\.?)\s*(\d+)", re.I)


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
class _Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


@dataclass(frozen=True)
class _Scale:
    """``value = a * y + b`` and the right edge of its tick label column."""

    a: float
    b: float
    column_x1: float

    def value(self, y: float) -> float:
        return self.a * y + self.b


def _color(raw: Sequence[float] | None) -> Color | None:
    if raw is None or len(raw) != 3:
        return None
    return (round(raw[0], 2), round(raw[1], 2), round(raw[2], 2))


def _is_ink(color: Color | None) -> bool:
    """A data colour: not absent, not white or near-white (backgrounds, panels)."""
    return color is not None and min(color) < 0.9


def _is_grey(color: Color) -> bool:
    """Black or grey: axes, ticks and grid lines rather than a series."""
    return max(color) - min(color) < 0.05


def _small(r: BBox) -> bool:
    """A marker or legend swatch rather than a bar: at most 6 points each way."""
    return r[2] - r[0] <= 6 and r[3] - r[1] <= 6


def _swatch(r: BBox) -> bool:
    """Small enough to be a legend swatch or a marker (at most 30 by 12 points)."""
    return r[2] - r[0] <= 30 and r[3] - r[1] <= 12


def _inside(x: float, y: float, box: BBox) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _words(page: Any, box: BBox) -> list[_Word]:
    found = [_Word(w[0], w[1], w[2], w[3], str(w[4])) for w in page.get_text("words")]
    return [w for w in found if _inside(w.cx, w.cy, box)]


def _phrases(words: Iterable[_Word], gap: float = 3.5, numbers_apart: bool = False) -> list[_Word]:
    """Words of one text row joined into phrases where they are at most ``gap`` apart; with
    ``numbers_apart``, two numbers side by side stay apart (x tick labels "2 3 4")."""
    phrases: list[_Word] = []
    for word in sorted(words, key=lambda w: w.x0):
        last = phrases[-1] if phrases else None
        apart = (
            numbers_apart
            and last is not None
            and (
                parse_value(word.text) is not None
                and parse_value(last.text.split()[-1]) is not None
            )
        )
        if (
            last is not None
            and not apart
            and word.x0 - last.x1 <= gap
            and abs(word.cy - last.cy) < 2
        ):
            phrases[-1] = _Word(
                last.x0,
                min(last.y0, word.y0),
                word.x1,
                max(last.y1, word.y1),
                f"{last.text} {word.text}",
            )
        else:
            phrases.append(word)
    return phrases


def _first_row(words: Iterable[_Word], below: float, right_of: float) -> list[_Word]:
    """The first text row whose words' centres lie under ``below`` and right of ``right_of``
    (the y tick column, whose lowest label sits on the x axis)."""
    under = sorted((w for w in words if w.cy > below and w.x0 > right_of), key=lambda w: w.y0)
    if not under:
        return []
    top = under[0].y0
    return [w for w in under if w.y0 - top < 2.0]


def _slanted(words: Iterable[_Word], height: float) -> list[_Word]:
    """Labels set on a slant under the bars: words taller than ``height`` allows, each joined
    by the next word rising to its right ("Privacy" then "Protection"); a label is given
    zero width at its upper end, where it meets its bar."""
    labels: list[list[_Word]] = []
    for word in sorted((w for w in words if w.y1 - w.y0 > 1.6 * height), key=lambda w: w.x0):
        last = next(
            (
                label
                for label in labels
                if -3 <= word.x0 - label[-1].x1 <= 4 and word.y0 < label[-1].y0 - 2
            ),
            None,
        )
        if last is None:
            labels.append([word])
        else:
            last.append(word)
    return [
        _Word(
            label[-1].x1, label[-1].y0, label[-1].x1, label[0].y1, " ".join(w.text for w in label)
        )
        for label in labels
    ]


def _segments(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, Segment]]:
    """Every stroked straight segment in ``box``: its colour and ends."""
    found: list[tuple[Color, Segment]] = []
    for path in drawings:
        color = _color(path.get("color"))
        if color is None or "s" not in str(path.get("type", "")):
            continue
        previous: Segment | None = None
        for item in path["items"]:
            if item[0] != "l":
                continue
            a, b = (item[1].x, item[1].y), (item[2].x, item[2].y)
            # A closed single line comes back as a -> b, b -> a: one segment.
            if previous == (b, a) or not (_inside(*a, box) and _inside(*b, box)):
                continue
            previous = (a, b)
            found.append((color, (a, b)))
    return found


def _rects(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, BBox]]:
    """Filled, coloured rectangles in ``box``."""
    found: list[tuple[Color, BBox]] = []
    for path in drawings:
        fill = _color(path.get("fill"))
        if not _is_ink(fill):
            continue
        assert fill is not None
        for item in path["items"]:
            if item[0] == "re":
                r = item[1]
                if _inside(r.x0, r.y0, box) and _inside(r.x1, r.y1, box):
                    found.append((fill, (r.x0, r.y0, r.x1, r.y1)))
    return found


def _scale(
    words: list[_Word], segments: list[tuple[Color, Segment]], data_x0: float
) -> _Scale | None:
    """The y scale from the largest consistent column of right-aligned numeric labels that
    ends left of ``data_x0`` (where the coloured graphics start)."""
    numeric = [
        (w, v) for w in words if w.x1 <= data_x0 + 1 and (v := parse_value(w.text)) is not None
    ]
    columns: dict[int, list[tuple[_Word, float]]] = defaultdict(list)
    for word, value in numeric:
        columns[round(word.x1)].append((word, value))
    # Neighbouring rounded edges belong to one column (1.4 rounds to 1, 1.6 to 2).
    merged: list[list[tuple[_Word, float]]] = []
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


def _tick_y(word: _Word, segments: list[tuple[Color, Segment]]) -> float:
    """The y of the tick mark or grid line drawn right of a tick label, else its centre."""
    for _, ((ax, ay), (bx, by)) in segments:
        horizontal = abs(ay - by) < 0.1
        starts_near = word.x1 - 1 <= min(ax, bx) <= word.x1 + 10
        if horizontal and starts_near and abs(ay - word.cy) <= (word.y1 - word.y0) / 2:
            return ay
    return word.cy


def _legend(words: list[_Word], swatches: Iterable[tuple[Color, BBox]]) -> dict[Color, str]:
    """Legend entries: the phrase right after a small swatch (or short line), by colour."""
    entries: dict[Color, str] = {}
    for color, (x0, y0, x1, y1) in swatches:
        cy = (y0 + y1) / 2
        after = [w for w in words if abs(w.cy - cy) <= 3 and 0 <= w.x0 - x1 <= 8 and w.x0 > x0]
        if not after:
            continue
        first = min(after, key=lambda w: w.x0)
        row = [w for w in words if abs(w.cy - first.cy) < 2 and w.x0 >= first.x0]
        entries.setdefault(color, _phrases(row)[0].text)
    return entries


def _bar_chart(
    words: list[_Word],
    rects: list[tuple[Color, BBox]],
    scale: _Scale,
    legend_lines: list[tuple[Color, BBox]],
    around: tuple[list[_Word], list[tuple[Color, BBox]]],
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
    legend = _legend(around[0], swatches)
    beneath = [w for w in words if w.cy > baseline and w.x1 > scale.column_x1]
    height = float(np.median([w.y1 - w.y0 for w in words])) if words else 0.0
    labels = _slanted(beneath, height) or _phrases(_first_row(words, baseline, scale.column_x1))
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
        if _is_grey(color):
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
    words: list[_Word],
    segments: list[tuple[Color, Segment]],
    rects: list[tuple[Color, BBox]],
    scale: _Scale,
) -> list[Series] | None:
    polylines: dict[Color, list[tuple[float, float]]] = {}
    short: list[tuple[Color, BBox]] = []
    for color, runs in _chains(segments).items():
        for run in runs:
            vertices = [run[0][0], *(segment[1] for segment in run)]
            if len(run) == 1 and abs(vertices[0][1] - vertices[1][1]) < 0.1:
                (ax, ay), (bx, _) = vertices
                short.append((color, (min(ax, bx), ay - 0.5, max(ax, bx), ay + 0.5)))
            elif len(vertices) >= 3 and all(b[0] >= a[0] for a, b in pairwise(vertices)):
                if color in polylines:
                    return None  # two data lines of one colour: which is which?
                polylines[color] = [v for v in vertices if v[0] > scale.column_x1]
    if not polylines or any(len(points) < 2 for points in polylines.values()):
        return None
    lowest = max(y for points in polylines.values() for _, y in points)
    xs = [x for points in polylines.values() for x, _ in points]
    # The x axis: a grey horizontal line under the data spanning most of it (not a legend frame).
    axis = [
        a[1]
        for color, (a, b) in segments
        if _is_grey(color)
        and abs(a[1] - b[1]) < 0.1
        and a[1] >= lowest - 0.1
        and abs(a[0] - b[0]) >= 0.5 * (max(xs) - min(xs))
    ]
    ticks = _phrases(_first_row(words, min(axis, default=lowest), scale.column_x1))
    vertices = [v for points in polylines.values() for v in points]
    markers = [
        (c, r)
        for c, r in rects
        if _swatch(r)
        and not any(_close(((r[0] + r[2]) / 2, (r[1] + r[3]) / 2), v) for v in vertices)
    ]
    legend = _legend(words, short + markers)
    if len(polylines) > 1 and not all(color in legend for color in polylines):
        return None
    series: list[Series] = []
    for color, vertices in polylines.items():
        points: list[Point] = []
        xs = sorted(x for x, _ in vertices)
        spacing = min((b - a for a, b in pairwise(xs)), default=20.0)
        for x, y in vertices:
            tick = min(ticks, key=lambda w: abs(w.cx - x), default=None)
            if tick is None or abs(tick.cx - x) > spacing / 2:
                return None
            points.append(Point(tick.text, scale.value(y)))
        series.append(Series(legend.get(color, ""), tuple(points)))
    return series


def _y_label(words: list[_Word], scale: _Scale) -> str:
    """Words left of the tick column (rotated axis titles read bottom to top)."""
    left = [w for w in words if w.x1 < scale.column_x1 - 8]
    return " ".join(w.text for w in sorted(left, key=lambda w: -w.cy))


@dataclass(frozen=True)
class _Figure:
    """What a figure's page draws around it: the figure's box with a margin, that box
    widened by where a legend may sit, the page's drawings, and the words of each box."""

    box: BBox
    wide: BBox
    drawings: list[dict[str, Any]]
    words: list[_Word]
    around: list[_Word]


def _read_figure(pdf_path: str, page: int, bbox: BBox) -> _Figure | None:
    """The drawings and words around ``bbox`` of 1-based ``page``; None when the PDF or the
    page cannot be read."""
    try:
        doc: Any = pymupdf.open(pdf_path)  # type: ignore[no-untyped-call]
    except (RuntimeError, ValueError, FileNotFoundError):
        return None
    with doc:
        if not 1 <= page <= doc.page_count:
            return None
        pdf_page = doc[page - 1]
        box = (bbox[0] - _MARGIN, bbox[1] - _MARGIN, bbox[2] + _MARGIN, bbox[3] + _MARGIN)
        wide = (box[0], box[1] - _LEGEND_REACH, box[2], box[3] + _LEGEND_REACH)
        drawings = pdf_page.get_drawings()
        around = _words(pdf_page, wide)
    words = [w for w in around if _inside(w.cx, w.cy, box)]
    return _Figure(box, wide, drawings, words, around)


def read_chart(pdf_path: str, page: int, bbox: BBox) -> Chart | None:
    """The bar or line chart drawn in ``bbox`` (PDF points) of 1-based ``page``, or None when
    no consistent y scale or no series is found there (diagrams, raster images, panels
    without tick labels)."""
    figure = _read_figure(pdf_path, page, bbox)
    if figure is None:
        return None
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
    drawn = [r for _, r in rects if not _swatch(r)] or [r for _, r in rects]
    coloured = [r[0] for r in drawn] + [
        min(a[0], b[0]) for color, (a, b) in segments if not _is_grey(color)
    ]
    scale = _scale(words, segments, min(coloured, default=box[2]))
    if scale is None:
        return None
    y_label = _y_label(words, scale)
    lines = _line_chart(words, segments, rects, scale)
    if lines:
        return Chart("line", y_label, tuple(lines))
    legend_lines = [
        (color, (min(a[0], b[0]), a[1] - 0.5, max(a[0], b[0]), a[1] + 0.5))
        for color, (a, b) in segments
        if not _is_grey(color) and abs(a[1] - b[1]) < 0.1
    ]
    bars = _bar_chart(words, rects, scale, legend_lines, (around, _rects(drawings, wide)))
    return Chart("bar", y_label, tuple(bars)) if bars else None


def _figure(context: PaperContext, figure_id: str) -> PaperObject | None:
    return next(
        (o for o in context.objects if o.kind == "figure" and norm(o.scorer_id) == norm(figure_id)),
        None,
    )


def _located_figures(
    question: Question, data: SynthesisInput
) -> list[tuple[PaperContext, PaperObject]]:
    """Figure evidence first, then the selected papers' figure the question names."""
    found: list[tuple[PaperContext, PaperObject]] = []
    for item in data.evidence:
        context = data.contexts.get(item.paper_id)
        figure_id = item.locator.get("figure_id")
        if item.source_type == "figure" and context is not None and figure_id:
            obj = _figure(context, str(figure_id))
            if obj is not None:
                found.append((context, obj))
    named = _FIGURE_ID.search(question.question)
    if named:
        for paper_id in data.papers:
            context = data.contexts.get(paper_id)
            obj = _figure(context, f"Figure {named.group(1)}") if context else None
            if context is not None and obj is not None:
                found.append((context, obj))
                break
    unique: dict[tuple[str, str], tuple[PaperContext, PaperObject]] = {}
    for context, obj in found:
        unique.setdefault((context.paper_id, obj.object_id), (context, obj))
    return list(unique.values())


def _extreme_word(question: Question) -> str | None:
    """The word that asks for a maximum or a minimum ("best", "lowest"), None when the
    question asks for neither or for both."""
    wants_max = MAX_WORDS.search(question.question)
    wants_min = MIN_WORDS.search(question.question)
    if bool(wants_max) == bool(wants_min):
        return None
    found = wants_max or wants_min
    return found.group(0).lower() if found else None


def _wants_lower(question: Question, word: str, obj: PaperObject, chart: Chart) -> bool:
    """Whether ``word`` asks for the minimum: "lowest", or "best" of an error-like metric
    (named by the question, the caption or the chart's y axis)."""
    lower = bool(MIN_WORDS.fullmatch(word))
    if word in ("best", "worst"):
        flip = lower_is_better(question.question, obj.caption, chart.y_label)
        lower = lower != flip
    return lower


def _extreme(
    candidates: list[tuple[str, Series, Point]], lower: bool
) -> tuple[str, Series, Point] | None:
    """The candidate with the extreme value; None on a tie (nothing to tell them apart)."""
    if len(candidates) < 2:
        return None
    ordered = sorted(candidates, key=lambda c: c[2].value, reverse=not lower)
    if abs(ordered[0][2].value - ordered[1][2].value) < 1e-9:
        return None
    return ordered[0]


def _option_of(text: str, options: dict[str, str]) -> str | None:
    return next((label for label, option in options.items() if norm(option) == norm(text)), None)


def _names_series(option: str, name: str, subject: str) -> bool:
    """Whether an option names a series: all of the series name's terms ("No router" in "the
    no-router variant"), or the paper's own method ("the full proposed method") for the
    series of the paper's subject or marked as its own."""
    if refers_to_own(option):
        return norm(name) == norm(subject) or marks_own(name)
    own = set(terms(name))
    return bool(own) and own <= question_terms(option)


def _series_option(name: str, options: dict[str, str], subject: str) -> str | None:
    exact = _option_of(name, options)
    if exact is not None:
        return exact
    named = [label for label, text in options.items() if _names_series(text, name, subject)]
    return named[0] if len(named) == 1 else None


def extreme_option(
    question: Question, chart: Chart, lower: bool, subject: str = ""
) -> tuple[str, Series, Point] | None:
    """The option of the extreme series (at the x label the question names, if it names one:
    "the tallest bar on FiNER"; else each series' extreme point), when the options name the
    series and that series is one of them; else the option of the extreme x tick of the
    series the question names (or the only one)."""
    options = {o.label: o.text for o in question.multiple_choice_options or []}
    pick = min if lower else max
    asked = {
        p.x
        for s in chart.series
        for p in s.points
        if p.x and contains_phrase(question.question, p.x)
    }
    compared: list[tuple[str, Series, Point]] = []
    for s in chart.series:
        points = [p for p in s.points if p.x in asked] if len(asked) == 1 else list(s.points)
        if s.name and points:
            option = _series_option(s.name, options, subject) or ""
            compared.append((option, s, pick(points, key=lambda p: p.value)))
    if sum(bool(option) for option, _, _ in compared) >= 2:
        best = _extreme(compared, lower)
        return best if best is not None and best[0] else None
    named = [s for s in chart.series if s.name and contains_phrase(question.question, s.name)]
    series = chart.series[0] if len(chart.series) == 1 else (named[0] if len(named) == 1 else None)
    if series is None:
        return None
    by_x: list[tuple[str, Series, Point]] = []
    for point in series.points:
        value = parse_value(point.x)
        label = _option_of(point.x, options) or next(
            (
                lab
                for lab, text in options.items()
                if value is not None and same_number(value, text)
            ),
            None,
        )
        if label is not None:
            by_x.append((label, series, point))
    return _extreme(by_x, lower)


def chart_answer(question: Question, data: SynthesisInput) -> tuple[str, list[Fact], str] | None:
    """Option label of the extreme bar, series or x tick of the located figure's chart, the
    read value as a fact, and how; None when no chart is readable or the options do not map
    onto it unambiguously."""
    word = _extreme_word(question)
    if not question.multiple_choice_options or word is None:
        return None
    for context, obj in _located_figures(question, data):
        pdf_path = context.paper.pdf_path
        chart = read_chart(pdf_path, obj.page, obj.bbox) if pdf_path else None
        if chart is None:
            continue
        lower = _wants_lower(question, word, obj, chart)
        chosen = extreme_option(question, chart, lower, subject_name(context))
        if chosen is None:
            continue
        label, series, point = chosen
        chunk_id = next((c.chunk_id for c in context.chunks if c.object_id == obj.object_id), "")
        where = f"{series.name} at {point.x}" if point.x else series.name
        fact = Fact(
            context.paper_id,
            chunk_id,
            f"{obj.scorer_id}: {where} = {point.value:.4g}",
            round(point.value, 6),
            entity=series.name,
            attribute=point.x,
        )
        how = f"{'min' if lower else 'max'} of {chart.kind} chart {obj.scorer_id} ({where})"
        return label, [fact], how
    return None


@dataclass(frozen=True)
class PrintedValue:
    """A number printed at a bar's end, as printed, and the names the chart gives the bar:
    its x label, its series (the legend entry of its colour) and the panel title over it."""

    text: str
    value: float
    names: tuple[str, ...]


def _key(word: _Word) -> tuple[int, int, str]:
    return round(word.x0), round(word.y0), word.text


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _shapes(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, BBox]]:
    """Filled rectangles in ``box``, drawn as rectangles or as closed axis-aligned outlines,
    in any colour but white (a light grey bar beside a coloured one is a series), and
    narrower than a quarter of the box (wider ones are panels and backgrounds)."""
    found: list[tuple[Color, BBox]] = []
    for path in drawings:
        fill = _color(path.get("fill"))
        if fill is None or min(fill) >= 0.99:
            continue
        items = path["items"]
        boxes = [(i[1].x0, i[1].y0, i[1].x1, i[1].y1) for i in items if i[0] == "re"]
        if not boxes and 3 <= len(items) <= 5 and all(i[0] == "l" for i in items):
            points = [(i[1].x, i[1].y) for i in items] + [(items[-1][2].x, items[-1][2].y)]
            if all(abs(a[0] - b[0]) < 0.1 or abs(a[1] - b[1]) < 0.1 for a, b in pairwise(points)):
                xs, ys = [x for x, _ in points], [y for _, y in points]
                boxes = [(min(xs), min(ys), max(xs), max(ys))]
        for r in boxes:
            narrow = r[2] - r[0] <= 0.25 * (box[2] - box[0])
            if narrow and _inside(r[0], r[1], box) and _inside(r[2], r[3], box):
                found.append((fill, r))
    return found


def _tick_labels(words: list[_Word], bars: Sequence[BBox]) -> set[tuple[int, int, str]]:
    """An axis's tick labels: numbers right-aligned one above another, three or more, beside
    the bars rather than under or over one (a histogram's x labels and the values printed
    over its bars may line up too)."""
    numeric = [
        w
        for w in words
        if parse_value(w.text) is not None and not any(b[0] < w.x1 and w.x0 < b[2] for b in bars)
    ]
    return {
        _key(w)
        for w in numeric
        if len({round(o.cy) for o in numeric if abs(o.x1 - w.x1) <= 1.5}) >= 3
    }


@cache
def printed_values(pdf_path: str, page: int, bbox: BBox) -> tuple[PrintedValue, ...]:
    """The values printed at the ends of the bars drawn in ``bbox`` of 1-based ``page``, each
    with the names the chart gives its bar; empty when the figure prints none. Cached: a
    question's value and its options are both read off the same figure.

    A bar is a column of filled rectangles (stacked pieces share it); it hangs from the axis
    when its top edge is the one other bars share. Its value is the nearest number at its far
    end, centred on it; each number names one bar.
    """
    figure = _read_figure(pdf_path, page, bbox)
    if figure is None:
        return ()
    around = figure.around
    shapes = _shapes(figure.drawings, figure.wide)

    def labelled(r: BBox) -> bool:
        cy = (r[1] + r[3]) / 2
        return _swatch(r) and any(
            abs(w.cy - cy) <= 3 and 0 <= w.x0 - r[2] <= 8 and _has_letter(w.text) for w in around
        )

    swatches = [(c, r) for c, r in shapes if labelled(r)]
    named = [w for w in around if _has_letter(w.text)]
    legend = _legend(named, swatches)
    # The entries' words, not the numbers printed over bars that reach the legend's row.
    legend_words = {
        _key(w)
        for w in named
        for _, r in swatches
        if abs(w.cy - (r[1] + r[3]) / 2) <= 3 and w.x0 >= r[2]
    }
    bars = [(c, r) for c, r in shapes if (c, r) not in swatches and _inside(r[0], r[1], figure.box)]
    skip = legend_words | _tick_labels(around, [r for _, r in bars])
    words = [w for w in figure.words if _key(w) not in skip]
    stacks: dict[tuple[int, int], list[tuple[Color, BBox]]] = defaultdict(list)
    for color, r in bars:
        if r[2] - r[0] >= 1.5:
            stacks[(round(r[0]), round(r[2]))].append((color, r))
    spans = [(min(r[1] for _, r in m), max(r[3] for _, r in m)) for m in stacks.values()]
    if len(spans) < 2 or not words:
        return ()

    def shared(y: float) -> int:
        return sum(1 for top, bottom in spans if abs(top - y) <= 1 or abs(bottom - y) <= 1)

    height = float(np.median([w.y1 - w.y0 for w in words]))
    claims: list[tuple[float, _Word, float, Color, BBox]] = []
    for members in stacks.values():
        top, bottom = min(r[1] for _, r in members), max(r[3] for _, r in members)
        hangs = shared(top) > shared(bottom)
        end = max(members, key=lambda m: m[1][3]) if hangs else min(members, key=lambda m: m[1][1])
        column = (min(r[0] for _, r in members), top, max(r[2] for _, r in members), bottom)
        centre = (column[0] + column[2]) / 2
        for word in words:
            value = parse_value(word.text)
            reach = max(column[2] - column[0], word.x1 - word.x0) / 2 + 1
            if value is None or abs(word.cx - centre) > reach:
                continue
            gap = word.y0 - bottom if hangs else top - word.y1
            if -0.5 * height <= gap <= _PRINTED_GAP * height:
                claims.append((abs(gap) + abs(word.cx - centre), word, value, end[0], column))
    taken_words: set[tuple[int, int, str]] = set()
    taken_columns: set[BBox] = set()
    found: list[tuple[_Word, float, Color, BBox]] = []
    for _, word, value, color, column in sorted(claims, key=lambda c: c[0]):
        if _key(word) in taken_words or column in taken_columns:
            continue
        taken_words.add(_key(word))
        taken_columns.add(column)
        found.append((word, value, color, column))
    if not found:
        return ()
    lowest = max(max(column[3], word.y1) for word, _, _, column in found)
    highest = min(min(column[1], word.y0) for word, _, _, column in found)
    under = [w for w in words if w.y0 >= lowest - 1]
    upright = _phrases((w for w in under if w.y1 - w.y0 <= 1.6 * height), numbers_apart=True)
    first_row = min((w.y0 for w in upright), default=0.0)
    # A slanted label ends at its bar; an upright one is centred under it.
    anchors = [(w.x1, w.text) for w in _slanted(under, height)] + [
        (w.cx, w.text) for w in upright if w.y0 - first_row < 3
    ]
    titles = [t for t in _phrases(w for w in words if w.y1 <= highest + 1) if _has_letter(t.text)]
    readings: list[PrintedValue] = []
    for word, value, color, column in found:
        centre = (column[0] + column[2]) / 2
        names: list[str] = []
        nearest = min(anchors, key=lambda a: abs(a[0] - centre), default=None)
        if nearest is not None and abs(nearest[0] - centre) <= _LABEL_REACH:
            names.append(nearest[1])
        if color in legend:
            names.append(legend[color])
        over = [t for t in titles if t.y1 <= column[1]]
        if over:
            names.append(min(over, key=lambda t: abs(t.cx - centre)).text)
        readings.append(PrintedValue(word.text, value, tuple(names)))
    return tuple(readings)


def _name_support(names: Sequence[str], asked: frozenset[str] | set[str]) -> float:
    """How much of a bar's names the question says: per name, the share of its terms."""
    support = 0.0
    for name in names:
        own = terms(name)
        if own:
            support += sum(term in asked for term in own) / len(own)
    return support


def printed_reading(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> tuple[PrintedValue, Fact, str] | None:
    """The value printed on the located figure's chart whose bar the question names best
    (only values equal to one of ``among``, when given), with it as a fact and how it was
    read; None when no printed value is named, or two are named as well."""
    asked = question_terms(question.question)
    for context, obj in _located_figures(question, data):
        pdf_path = context.paper.pdf_path
        readings = printed_values(pdf_path, obj.page, obj.bbox) if pdf_path else []
        if among is not None:
            readings = [r for r in readings if any(same_number(r.value, text) for text in among)]
        scored = sorted(
            ((_name_support(r.names, asked), r) for r in readings),
            key=lambda pair: pair[0],
            reverse=True,
        )
        if not scored or scored[0][0] <= 0:
            continue
        tied = len(scored) > 1 and scored[1][0] >= scored[0][0] - 1e-9
        if tied and scored[1][1].value != scored[0][1].value:
            continue
        reading = scored[0][1]
        chunk_id = next((c.chunk_id for c in context.chunks if c.object_id == obj.object_id), "")
        where = ", ".join(reading.names)
        fact = Fact(
            context.paper_id,
            chunk_id,
            f"{obj.scorer_id}: {where} = {reading.text}",
            reading.value,
            entity=reading.names[0] if reading.names else "",
        )
        return reading, fact, f"value printed on {obj.scorer_id} at {where}"
    return None
