"""The words and drawings around a figure on its PDF page: colours, phrases, slanted labels
and legend entries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pymupdf

from littrace.corpus.document import BBox
from littrace.numbers import parse_value

Color = tuple[float, float, float]

# Points of margin around the figure box: tick labels and legends may overhang it a little.
_MARGIN = 4.0
# A legend row may sit just outside the figure's box (points above and below it).
_LEGEND_REACH = 24.0
# Colours whose channels differ less than this are black or grey.
_GREY = 0.05
# Figures whose page reading is kept: those of the questions being answered.
_FIGURES_KEPT = 32


@dataclass(frozen=True)
class Word:
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


def as_color(raw: Sequence[float] | None) -> Color | None:
    if raw is None or len(raw) != 3:
        return None
    return (round(raw[0], 2), round(raw[1], 2), round(raw[2], 2))


def swatch(r: BBox) -> bool:
    """Small enough to be a legend swatch or a marker (at most 30 by 12 points)."""
    return r[2] - r[0] <= 30 and r[3] - r[1] <= 12


def inside(x: float, y: float, box: BBox) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _words(page: Any, box: BBox) -> list[Word]:
    found = [Word(w[0], w[1], w[2], w[3], str(w[4])) for w in page.get_text("words")]
    return [w for w in found if inside(w.cx, w.cy, box)]


def joined_phrases(
    words: Iterable[Word], gap: float = 3.5, numbers_apart: bool = False
) -> list[Word]:
    """Words of one text row joined into phrases where they are at most ``gap`` apart; with
    ``numbers_apart``, two numbers side by side stay apart (x tick labels "2 3 4")."""
    phrases: list[Word] = []
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
            phrases[-1] = Word(
                last.x0,
                min(last.y0, word.y0),
                word.x1,
                max(last.y1, word.y1),
                f"{last.text} {word.text}",
            )
        else:
            phrases.append(word)
    return phrases


def slanted(words: Iterable[Word], height: float) -> list[Word]:
    """Labels set on a slant under the bars: words taller than ``height`` allows, each joined
    by the next word rising to its right ("Privacy" then "Protection"); a label is given
    zero width at its upper end, where it meets its bar."""
    labels: list[list[Word]] = []
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
        Word(label[-1].x1, label[-1].y0, label[-1].x1, label[0].y1, " ".join(w.text for w in label))
        for label in labels
    ]


def legend_entries(
    words: list[Word], swatches: Iterable[tuple[Color, BBox]], reach: float = 8.0
) -> dict[Color, str]:
    """Legend entries: the phrase right after a small swatch (or short line), at most
    ``reach`` points after it, by colour."""
    entries: dict[Color, str] = {}
    for color, (x0, y0, x1, y1) in swatches:
        cy = (y0 + y1) / 2
        after = [w for w in words if abs(w.cy - cy) <= 3 and 0 <= w.x0 - x1 <= reach and w.x0 > x0]
        if not after:
            continue
        first = min(after, key=lambda w: w.x0)
        row = [w for w in words if abs(w.cy - first.cy) < 2 and w.x0 >= first.x0]
        entries.setdefault(color, joined_phrases(row)[0].text)
    return entries


@dataclass(frozen=True)
class Figure:
    """What a figure's page draws around it: the figure's box with a margin, that box
    widened by where a legend may sit, the page's drawings, the words of each box, and the
    text the figure prints in a colour (not black or grey), by span, with its colour."""

    box: BBox
    wide: BBox
    drawings: list[dict[str, Any]]
    words: list[Word]
    around: list[Word]
    inked: list[tuple[Word, Color]]


def coloured(color: Color) -> bool:
    """Neither black nor grey (nor white): a series' colour, not that of axes, ticks, grid
    lines or body text."""
    return max(color) - min(color) >= _GREY


def _inked(page: Any, box: BBox) -> list[tuple[Word, Color]]:
    found = []
    for block in page.get_text("dict", clip=box)["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                rgb = int(span["color"])
                color = as_color([((rgb >> shift) & 255) / 255 for shift in (16, 8, 0)])
                text = span["text"].strip()
                # A superscript is a unit's exponent ("TPa⁻¹"), not a value.
                if not text or color is None or not coloured(color) or span["flags"] & 1:
                    continue
                x0, y0, x1, y1 = span["bbox"]
                found.append((Word(x0, y0, x1, y1, text), color))
    return found


@lru_cache(maxsize=_FIGURES_KEPT)
def read_figure(pdf_path: str, page: int, bbox: BBox) -> Figure | None:
    """The drawings and words around ``bbox`` of 1-based ``page``; None when the PDF or the
    page cannot be read. Cached: the chart, the values printed at bars' ends and those
    printed in a legend's colours are all read off one figure, which callers only read."""
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
        inked = _inked(pdf_page, box)
    words = [w for w in around if inside(w.cx, w.cy, box)]
    return Figure(box, wide, drawings, words, around, inked)
