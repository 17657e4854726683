"""Values a chart prints at its bars' ends, each with the names the chart gives its bar,
values it prints in the colour of a legend entry (a curve labelled with its fitted value),
values it prints inside its bars' segments or cells, and the one a question names."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np

from littrace.corpus.document import BBox
from littrace.littraceqa import Question
from littrace.numbers import parse_value, same_number
from littrace.read.charts.answer import located_figures
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
from littrace.read.records import Fact, SynthesisInput
from littrace.read.text import asking_sentence, terms
from littrace.read.units import question_terms

# Farthest a printed value sits from its bar's end, in text heights.
_PRINTED_GAP = 1.0
# Farthest an x label's anchor sits from its bar's centre (points).
_LABEL_REACH = 25.0
# Farthest a legend entry's text starts after its marker (points): a marker sits in the
# middle of its entry's line handle.
_MARKER_REACH = 16.0
# The most words a label printed with its value has (longer text is a sentence).
_LABEL_WORDS = 5
# Farthest a value sits under its label, in the label's text heights.
_UNDER_GAP = 0.6
# A word a legend shortens with a full stop: "trans." for "transverse".
_SHORTENED = re.compile(r"\b([^\W\d_]{3,})\.")


@dataclass(frozen=True)
class PrintedValue:
    """A number printed at a bar's end, as printed, and the names the chart gives the bar:
    its x label, its series (the legend entry of its colour) and the panel title over it."""

    text: str
    value: float
    names: tuple[str, ...]


def labelled_values(pdf_path: str, page: int, bbox: BBox) -> tuple[tuple[str, str], ...]:
    """The values a figure prints each with its own label, right under it or after it on
    its line ("Multitasking" over "160" around a ring chart; "Privacy Protection 111"), as
    (label, value) in reading order; none unless it prints at least three.

    A figure that prints its data this way holds a small table of label and value, read
    like any table's rows."""
    figure = read_figure(pdf_path, page, bbox)
    if figure is None:
        return ()
    phrases = _phrases(figure.words, numbers_apart=True)
    labels = [p for p in phrases if _has_letter(p.text) and len(p.text.split()) <= _LABEL_WORDS]
    pairs: list[tuple[Word, str, str]] = []
    taken: set[int] = set()
    for phrase in phrases:
        *words, last = phrase.text.split()
        if words and _has_letter(" ".join(words)) and parse_value(last) is not None:
            pairs.append((phrase, " ".join(words), last))
            continue
        if _has_letter(phrase.text) or parse_value(phrase.text) is None:
            continue
        # A value under its label: just below it and within its width.
        above = [
            (phrase.y0 - label.y1, n)
            for n, label in enumerate(labels)
            if n not in taken
            and -1.0 <= phrase.y0 - label.y1 <= _UNDER_GAP * (label.y1 - label.y0)
            and label.x0 - 1 <= phrase.x0
            and phrase.x1 <= label.x1 + 1
        ]
        if above:
            _, n = min(above)
            taken.add(n)
            pairs.append((labels[n], labels[n].text, phrase.text))
    pairs.sort(key=lambda pair: (pair[0].y0, pair[0].x0))
    return tuple((label, value) for _, label, value in pairs) if len(pairs) >= 3 else ()


def _phrases(words: Iterable[Word], numbers_apart: bool = False) -> list[Word]:
    """The phrases of ``words`` (see :func:`joined_phrases`), line by line."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.cy, w.x0)):
        if lines and abs(lines[-1][-1].cy - word.cy) < 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [p for line in lines for p in joined_phrases(line, numbers_apart=numbers_apart)]


def _key(word: Word) -> tuple[int, int, str]:
    return round(word.x0), round(word.y0), word.text


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _shapes(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, BBox]]:
    """Filled rectangles in ``box``, drawn as rectangles or as closed axis-aligned outlines,
    in any colour but white (a light grey bar beside a coloured one is a series), and
    narrower than a quarter of the box (wider ones are panels and backgrounds); also the
    outlines of hatched or hollow bars, which have an edge and no fill, in their edge's
    colour; not the tiles a hatch pattern is painted with."""
    found: list[tuple[Color, BBox]] = []
    for path in drawings:
        fill = as_color(path.get("fill"))
        items = path["items"]
        if fill is None and len(items) == 1 and items[0][0] == "re":
            fill = as_color(path.get("color"))
            if fill is None or items[0][1].height < 1:
                continue
        elif fill is None or min(fill) >= 0.99:
            continue
        boxes = [(i[1].x0, i[1].y0, i[1].x1, i[1].y1) for i in items if i[0] == "re"]
        if not boxes and 3 <= len(items) <= 5 and all(i[0] == "l" for i in items):
            points = [(i[1].x, i[1].y) for i in items] + [(items[-1][2].x, items[-1][2].y)]
            if all(abs(a[0] - b[0]) < 0.1 or abs(a[1] - b[1]) < 0.1 for a, b in pairwise(points)):
                xs, ys = [x for x, _ in points], [y for _, y in points]
                boxes = [(min(xs), min(ys), max(xs), max(ys))]
        for r in boxes:
            narrow = r[2] - r[0] <= 0.25 * (box[2] - box[0])
            if narrow and inside(r[0], r[1], box) and inside(r[2], r[3], box):
                found.append((fill, r))
    return [shape for shape in found if not _tile(shape[1], found)]


def _tile(r: BBox, shapes: list[tuple[Color, BBox]]) -> bool:
    """Whether ``r`` is a square of a hatch pattern: it and two more squares of its size
    touch or overlap (a pattern paints one tile per colour or per step of its grid)."""
    size = round(r[2] - r[0], 1)
    if size != round(r[3] - r[1], 1):
        return False
    touching = [
        o
        for _, o in shapes
        if round(o[2] - o[0], 1) == size
        and round(o[3] - o[1], 1) == size
        and abs(o[0] - r[0]) <= size + 0.5
        and abs(o[1] - r[1]) <= size + 0.5
    ]
    return len(touching) >= 3


def _tick_labels(words: list[Word], bars: Sequence[BBox]) -> set[tuple[int, int, str]]:
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
    figure = read_figure(pdf_path, page, bbox)
    if figure is None:
        return ()
    around = figure.around
    shapes = _shapes(figure.drawings, figure.wide)

    def labelled(r: BBox) -> bool:
        cy = (r[1] + r[3]) / 2
        return swatch(r) and any(
            abs(w.cy - cy) <= 3 and 0 <= w.x0 - r[2] <= 8 and _has_letter(w.text) for w in around
        )

    swatches = [(c, r) for c, r in shapes if labelled(r)]
    named = [w for w in around if _has_letter(w.text)]
    legend = legend_entries(named, swatches)
    # The entries' words, not the numbers printed over bars that reach the legend's row.
    legend_words = {
        _key(w)
        for w in named
        for _, r in swatches
        if abs(w.cy - (r[1] + r[3]) / 2) <= 3 and w.x0 >= r[2]
    }
    bars = [(c, r) for c, r in shapes if (c, r) not in swatches and inside(r[0], r[1], figure.box)]
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
        return sum(1 for top, bottom in spans if abs(top - y) <= 0.5 or abs(bottom - y) <= 0.5)

    height = float(np.median([w.y1 - w.y0 for w in words]))
    claims: list[tuple[float, Word, float, Color, BBox]] = []
    for members in stacks.values():
        top, bottom = min(r[1] for _, r in members), max(r[3] for _, r in members)
        column = (min(r[0] for _, r in members), top, max(r[2] for _, r in members), bottom)
        centre = (column[0] + column[2]) / 2
        # A value sits at a free end: the top of a bar standing on the axis, the bottom of
        # one hanging from it, either end of one that crosses it (stacked signed parts).
        ends = [
            (top, min(members, key=lambda m: m[1][1])[0], False),
            (bottom, max(members, key=lambda m: m[1][3])[0], True),
        ]
        # An end three columns share is the axis (two may share one by chance).
        free = [end for end in ends if shared(end[0]) < 3] or [
            min(ends, key=lambda end: shared(end[0]))
        ]
        for word in words:
            value = parse_value(word.text)
            reach = max(column[2] - column[0], word.x1 - word.x0) / 2 + 1
            if value is None or abs(word.cx - centre) > reach:
                continue
            for y, color, below in free:
                gap = word.y0 - y if below else y - word.y1
                if -0.5 * height <= gap <= _PRINTED_GAP * height:
                    claims.append((abs(gap) + abs(word.cx - centre), word, value, color, column))
    taken_words: set[tuple[int, int, str]] = set()
    taken_columns: set[BBox] = set()
    found: list[tuple[Word, float, Color, BBox]] = []
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
    upright = joined_phrases((w for w in under if w.y1 - w.y0 <= 1.6 * height), numbers_apart=True)
    first_row = min((w.y0 for w in upright), default=0.0)
    # A slanted label ends at its bar; an upright one is centred under it.
    anchors = [(w.x1, w.text) for w in slanted(under, height)] + [
        (w.cx, w.text) for w in upright if w.y0 - first_row < 3
    ]
    titles = [
        t for t in joined_phrases(w for w in words if w.y1 <= highest + 1) if _has_letter(t.text)
    ]
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


@cache
def coloured_values(pdf_path: str, page: int, bbox: BBox) -> tuple[PrintedValue, ...]:
    """The numbers printed in ``bbox`` of 1-based ``page`` in the colour of a legend entry,
    each named by that entry: the value a curve is labelled with ("-437.96 TPa" in the green
    of "PMOS (trans.)"), wherever it sits. A legend entry is the phrase after a small marker
    of that colour; data markers have no words of their own after them."""
    figure = read_figure(pdf_path, page, bbox)
    if figure is None or not figure.inked:
        return ()
    markers = []
    for path in figure.drawings:
        fill, r = as_color(path.get("fill")), path["rect"]
        box = (r.x0, r.y0, r.x1, r.y1)
        if (
            fill is not None
            and coloured(fill)
            and swatch(box)
            and inside(r.x0, r.y0, figure.wide)
            and inside(r.x1, r.y1, figure.wide)
        ):
            markers.append((fill, box))
    named = [w for w in figure.around if _has_letter(w.text) and parse_value(w.text) is None]
    legend = legend_entries(named, markers, _MARKER_REACH)
    return tuple(
        PrintedValue(word.text, value, (legend[color],))
        for word, color in figure.inked
        if color in legend and (value := parse_value(word.text)) is not None
    )


def _filled_boxes(drawings: list[dict[str, Any]], box: BBox) -> list[tuple[Color, BBox]]:
    """Every filled rectangle drawn in ``box`` but white ones and backgrounds (a quarter of
    the box's area or more), by fill colour."""
    area = (box[2] - box[0]) * (box[3] - box[1])
    found: list[tuple[Color, BBox]] = []
    for path in drawings:
        fill = as_color(path.get("fill"))
        if fill is None or min(fill) >= 0.99:
            continue
        for item in path["items"]:
            if item[0] != "re":
                continue
            r = (item[1].x0, item[1].y0, item[1].x1, item[1].y1)
            if (
                (r[2] - r[0]) * (r[3] - r[1]) < 0.25 * area
                and inside(r[0], r[1], box)
                and inside(r[2], r[3], box)
            ):
                found.append((fill, r))
    return found


def _rotated(word: Word) -> bool:
    """Set on end: a word of two or more characters twice as tall as it is wide."""
    return len(word.text) > 1 and word.y1 - word.y0 > 2 * (word.x1 - word.x0)


@cache
def inside_values(pdf_path: str, page: int, bbox: BBox) -> tuple[PrintedValue, ...]:
    """The numbers printed inside the filled shapes drawn in ``bbox`` of 1-based ``page``
    (the segments of a stacked bar, a heatmap's cells), each named by the legend entry of
    its shape's colour, the label printed on its row left of the shapes ("Time (s)"), the
    label under its column right below them, and a label set on end beside its row (the
    group "Classification" of rows "Time (s)" and "Money ($)"); empty when it prints none.

    A number belongs to the smallest shape holding all of it."""
    figure = read_figure(pdf_path, page, bbox)
    if figure is None:
        return ()
    shapes = _filled_boxes(figure.drawings, figure.wide)
    named = [w for w in figure.around if _has_letter(w.text)]
    legend = legend_entries(named, [(c, r) for c, r in shapes if swatch(r)])
    holding: dict[tuple[Color, BBox], list[Word]] = defaultdict(list)
    for word in figure.words:
        holders = [
            (c, r)
            for c, r in shapes
            if r[0] - 0.5 <= word.x0
            and word.x1 <= r[2] + 0.5
            and r[1] - 0.5 <= word.y0
            and word.y1 <= r[3] + 0.5
        ]
        if holders:
            holding[min(holders, key=lambda h: (h[1][2] - h[1][0]) * (h[1][3] - h[1][1]))].append(
                word
            )
    # A shape holding one number, centred, and nothing else: a box of a diagram holds
    # text, a plot's background its ticks, and a value printed at a bar's end over the
    # next bar's piece sits off that piece's centre.
    held = [
        (word, value, color, r)
        for (color, r), (word, *others) in holding.items()
        if not others
        and (value := parse_value(word.text)) is not None
        and abs(word.cx - (r[0] + r[2]) / 2) <= (word.x1 - word.x0) / 2
        and abs(word.cy - (r[1] + r[3]) / 2) <= (word.y1 - word.y0) / 2
    ]
    if len(held) < 3:
        return ()
    left = min(r[0] for _, _, _, r in held)
    spans = Counter((round(r[1]), round(r[3])) for _, _, _, r in held)
    columns = Counter((round(r[0]), round(r[2])) for _, _, _, r in held)
    # Shapes side by side in rows (bars lying down, a heatmap's cells) are named at their
    # row's left; shapes stacked in columns (bars standing) under their column.
    in_rows = sum(spans[(round(r[1]), round(r[3]))] > 1 for _, _, _, r in held) >= len(held) / 2
    in_columns = (
        sum(columns[(round(r[0]), round(r[2]))] > 1 for _, _, _, r in held) >= len(held) / 2
    )
    held_words = {_key(word) for word, _, _, _ in held}
    free = [w for w in figure.words if _key(w) not in held_words and not _rotated(w)]
    # A row's label is a name; what stands under a column may be its number ("3").
    labels = [
        p
        for p in _phrases(w for w in free if parse_value(w.text) is None)
        if _has_letter(p.text) and len(p.text.split()) <= _LABEL_WORDS and p.x1 <= left + 1
    ]
    under = [p for p in _phrases(free, numbers_apart=True) if len(p.text.split()) <= _LABEL_WORDS]
    on_end = [w for w in figure.words if _rotated(w) and _has_letter(w.text) and w.x1 <= left + 1]
    readings: list[PrintedValue] = []
    for word, value, color, r in held:
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        names: list[str] = []
        if color in legend:
            names.append(legend[color])
        if in_rows:
            row = [p for p in labels if r[1] <= p.cy <= r[3]]
            if row:
                names.append(max(row, key=lambda p: p.x1).text)
            # A label set on end beside rows names their group: the nearest one.
            if on_end:
                group = min(on_end, key=lambda w: max(w.y0 - cy, cy - w.y1, 0.0))
                names.append(group.text)
        if in_columns:
            bottom = max(o[3] for _, _, _, o in held if o[0] <= cx <= o[2])
            height = word.y1 - word.y0
            below = [
                p
                for p in under
                if p.x0 <= cx <= p.x1 and -height / 2 <= p.y0 - bottom <= 2 * height
            ]
            if below:
                names.append(min(below, key=lambda p: p.y0).text)
        readings.append(PrintedValue(word.text, value, tuple(names)))
    return tuple(readings)


def _name_support(names: Sequence[str], asked: frozenset[str] | set[str]) -> float:
    """How much of a bar's names the question says: per name, the share of its terms, a
    word shortened with a full stop ("trans.") said by a question word it begins."""
    support = 0.0
    for name in names:
        own = terms(
            _SHORTENED.sub(
                lambda m: next(
                    (a for a in sorted(asked) if a.isalpha() and a.startswith(m[1].lower())),
                    m[0],
                ),
                name,
            )
        )
        if own:
            support += sum(term in asked for term in own) / len(own)
    return support


def printed_reading(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> tuple[PrintedValue, Fact, str] | None:
    """The value printed on the located figure's chart whose bar the question names best
    (only values equal to one of ``among``, when given), with it as a fact and how it was
    read; None when no printed value is named, or two are named as well. The sentence that
    asks names it again: "for NMOS and PMOS transistors ... next to the PMOS transverse
    curve" names "PMOS (trans.)" over "NMOS (trans.)"."""
    asked = question_terms(question.question)
    asking = question_terms(asking_sentence(question.question))
    for context, obj in located_figures(question, data):
        pdf_path = context.paper.pdf_path
        readings = (
            printed_values(pdf_path, obj.page, obj.bbox)
            + coloured_values(pdf_path, obj.page, obj.bbox)
            + inside_values(pdf_path, obj.page, obj.bbox)
            if pdf_path
            else ()
        )
        if among is not None:
            readings = tuple(
                r for r in readings if any(same_number(r.value, text) for text in among)
            )
        scored = sorted(
            ((_name_support(r.names, asked) + _name_support(r.names, asking), r) for r in readings),
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
