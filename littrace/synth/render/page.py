"""Page geometry, colours and fonts, text measuring and line breaking, and the drawing
operations a page is made of."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pymupdf

BBox = tuple[float, float, float, float]
Color = tuple[float, float, float]

PAGE_WIDTH, PAGE_HEIGHT = 612.0, 792.0
TOP, BOTTOM = 62.0, 736.0
HEADER_BASELINE, FOOTER_BASELINE = 40.0, 764.0
BLACK: Color = (0.0, 0.0, 0.0)
GREY: Color = (0.35, 0.35, 0.35)
PALETTE: tuple[Color, ...] = (
    (0.27, 0.45, 0.71),
    (0.87, 0.52, 0.22),
    (0.36, 0.63, 0.36),
    (0.77, 0.31, 0.32),
    (0.55, 0.45, 0.70),
)
COLUMNS: dict[str, tuple[tuple[float, float], ...]] = {
    "one_column": ((72.0, 540.0),),
    "two_column": ((54.0, 297.0), (315.0, 558.0)),
}
BODY_SIZE, BODY_LEADING = 10.0, 12.0
SMALL_SIZE, SMALL_LEADING = 9.0, 10.5
FLOAT_GAP = 10.0
# Fixed metadata: PyMuPDF would otherwise stamp the current time into every file.
PDF_DATE = "D:20250101000000Z"


@cache
def text_width(text: str, font: str, size: float) -> float:
    return float(pymupdf.get_text_length(text, fontname=font, fontsize=size))


def wrap(text: str, width: float, font: str, size: float, indent: float = 0.0) -> list[str]:
    """Greedy line breaking of ``text`` into lines at most ``width`` wide (first one indented)."""
    space = text_width(" ", font, size)
    lines: list[str] = []
    current: list[str] = []
    used = indent
    for word in text.split():
        w = text_width(word, font, size)
        if current and used + space + w > width:
            lines.append(" ".join(current))
            current, used = [], 0.0
        used += (space if current else 0.0) + w
        current.append(word)
    if current:
        lines.append(" ".join(current))
    return lines


# --- drawing operations ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextOp:
    x: float
    baseline: float
    text: str
    font: str
    size: float
    color: Color = BLACK
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class LineOp:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float = 0.5
    color: Color = BLACK


@dataclass(frozen=True, slots=True)
class RectOp:
    bbox: BBox
    fill: Color | None
    stroke: Color | None = BLACK
    width: float = 0.4


@dataclass(frozen=True, slots=True)
class PolylineOp:
    points: tuple[tuple[float, float], ...]
    color: Color
    width: float = 1.0
    fill: Color | None = None


Op = TextOp | LineOp | RectOp | PolylineOp
