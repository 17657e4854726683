"""Floats (tables, figures, the algorithm) waiting for a place, and the room they need."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from littrace.synth.plan import AlgorithmSpec, FigureSpec, TableSpec
from littrace.synth.prose import FloatSpec
from littrace.synth.render.page import SMALL_LEADING, SMALL_SIZE, text_width, wrap


class Float:
    """A float waiting for a place, and the room it needs in a column of a given width.

    The algorithm's caption is its title line inside the box, so it has no caption below.
    """

    def __init__(self, spec: FloatSpec) -> None:
        self.spec = spec

    def caption_lines(self, width: float) -> list[str]:
        caption = self.spec.caption if not isinstance(self.spec, AlgorithmSpec) else ""
        return wrap(caption, width, "tiro", SMALL_SIZE)

    def caption_height(self, width: float) -> float:
        return len(self.caption_lines(width)) * SMALL_LEADING

    def body_height(self, width: float) -> float:
        spec = self.spec
        if isinstance(spec, TableSpec):
            return table_layout(spec, width).height
        if isinstance(spec, FigureSpec):
            return figure_height(spec)
        return 4.0 + 15.0 + 2.0 + len(spec.steps) * SMALL_LEADING + 4.0  # as _draw_algorithm

    def height(self, width: float) -> float:
        return self.body_height(width) + 4.0 + self.caption_height(width)


@dataclass(frozen=True, slots=True)
class TableLayout:
    widths: tuple[float, ...]
    font_size: float
    row_height: float
    rows: int

    @property
    def total_width(self) -> float:
        return sum(self.widths)

    @property
    def height(self) -> float:
        return self.rows * self.row_height


@cache
def table_layout(spec: TableSpec, width: float) -> TableLayout:
    rows = (spec.header, *spec.rows)
    size = 8.0
    while True:
        widths = tuple(
            max(text_width(row[c], "hebo", size) for row in rows) + (10 if c == 0 else 12)
            for c in range(len(spec.header))
        )
        if sum(widths) <= width or size <= 6.0:
            return TableLayout(widths, size, size + 4.0, len(rows))
        size -= 0.5


def figure_height(spec: FigureSpec) -> float:
    return {"diagram": 4 + len(spec.modules) * 26.0, "bar": 120.0, "line": 130.0, "panels": 112.0}[
        spec.role
    ]
