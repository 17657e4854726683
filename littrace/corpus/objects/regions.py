"""Object body regions (:class:`Region`, keyed items) and the box geometry that judges
them: rules, big graphics, areas, a reach across the gutter."""

from __future__ import annotations

from dataclasses import dataclass

from littrace.corpus.document import BBox, ObjectKind, union_bbox
from littrace.corpus.pagescan import ScanLine
from littrace.corpus.tables import RULE

Key = tuple[str, int]  # ("l", fragment index) or ("g", graphic index) on one page

# A graphic at least this big (points) makes a figure; smaller ones are rules and dots.
_MIN_GRAPHIC = 20.0


@dataclass(frozen=True, slots=True)
class Region:
    page: int  # index into the page list
    lines: tuple[ScanLine, ...]
    graphics: tuple[BBox, ...]
    keys: frozenset[Key]

    @property
    def bbox(self) -> BBox:
        return union_bbox([*(line.bbox for line in self.lines), *self.graphics])

    def level(self, kind: ObjectKind) -> int:
        """How well this region fits the kind: 2 good, 1 weak, 0 not at all."""
        if kind == "figure":
            big = [g for g in self.graphics if is_big(g)]
            if big or (self.graphics and _area(union_bbox(self.graphics)) >= 400):
                return 2
            return 1 if len(self.lines) >= 3 else 0
        return 2 if len(self.lines) >= 2 else 0


def spans_gutter(region: Region, mid: float) -> bool:
    """Whether something in ``region`` reaches across the page middle ``mid``."""
    boxes = [*(line.bbox for line in region.lines), *region.graphics]
    return any(box[0] < mid - 15 and box[2] > mid + 15 for box in boxes)


def is_rule(box: BBox) -> bool:
    """A horizontal rule of a float: thin, and longer than a dash or an underline."""
    return box[3] - box[1] <= RULE and box[2] - box[0] >= 30


def is_big(box: BBox) -> bool:
    return box[2] - box[0] >= _MIN_GRAPHIC and box[3] - box[1] >= _MIN_GRAPHIC


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
