"""The scan's records: :class:`ScanLine` fragments, :class:`PageScan` pages and the
document's :class:`DocStyle`, and fragments grouped into rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import pymupdf

from littrace.corpus.document import BBox
from littrace.corpus.pagescan.extract import area, read_images
from littrace.corpus.pagescan.text import NUMBER, NUMBER_START, split_numbers


# Not frozen, though never changed: a frozen dataclass sets each field through
# object.__setattr__, which made building the fragments a sixth of the scan. The hash is
# the frozen one (from the fields).
@dataclass(slots=True, unsafe_hash=True)
class ScanLine:
    """One text fragment: a PyMuPDF line, or the part of one between two wide gaps."""

    index: int
    block: int
    first_in_block: bool
    bbox: BBox
    text: str
    size: float
    font: str
    bold: bool
    label_bold: bool
    tail_font: str
    tail_bold: bool
    math: int
    style_break: bool
    """Whether the style differs from the previous fragment of the same block (always for the
    first): a caption label can start mid-block only where the style changes."""
    pieces: tuple[tuple[float, float, str], ...] = ()
    """``(x0, x1, text)`` of the runs of text between spaces, for splitting table cells that
    PyMuPDF put on one line."""
    vertical: bool = False
    """Set for text that does not run left to right (axis labels, margin stamps): it may be
    part of a figure, but it is never prose, a caption or an equation, and it does not
    widen the text area."""

    def split_cells(self, min_gap: float) -> list[ScanLine]:
        """This fragment cut where pieces ``min_gap`` points apart have a number on one side,
        and between two numbers that share a span ("36.9 80.0").

        Wide word spaces in a justified cell stay.
        """
        groups: list[list[tuple[float, float, str]]] = []
        for atom in (atom for piece in self.pieces for atom in split_numbers(piece)):
            last = groups[-1][-1] if groups else None
            if last is not None and (
                (
                    atom[0] - last[1] < min_gap
                    and not (NUMBER.fullmatch(atom[2]) and NUMBER.fullmatch(last[2]))
                )
                or not (NUMBER_START.match(atom[2]) or NUMBER_START.match(last[2]))
            ):
                groups[-1].append(atom)
            else:
                groups.append([atom])
        if len(groups) < 2:
            return [self]
        y0, y1 = self.bbox[1], self.bbox[3]
        return [
            replace(
                self,
                bbox=(group[0][0], y0, group[-1][1], y1),
                text=" ".join(piece[2] for piece in group),
                pieces=tuple(group),
            )
            for group in groups
        ]

    @property
    def x_center(self) -> float:
        return (self.bbox[0] + self.bbox[2]) / 2

    @property
    def y_center(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]


@dataclass(slots=True)
class PageScan:
    """A page's fragments in PyMuPDF order, its size, vector paths and (lazily) images."""

    number: int
    width: float
    height: float
    lines: list[ScanLine]
    vectors: list[BBox] = field(default_factory=list)
    page: pymupdf.Page | None = None
    _images: list[BBox] | None = field(default=None, repr=False)

    @property
    def images(self) -> list[BBox]:
        """Boxes of the images shown on the page, without page-sized ones (read once).

        Reading them can cost more than the page's text, so only figure pages ask.
        """
        if self._images is None:
            images = read_images(self.page) if self.page is not None else []
            limit = 0.5 * self.width * self.height
            self._images = [box for box in images if area(box) <= limit]
        return self._images

    def margins(self) -> tuple[float, float]:
        """Where the running header zone ends and the footer zone starts (y)."""
        return 0.06 * self.height, 0.93 * self.height

    def in_margin(self, box: BBox) -> bool:
        """Whether ``box`` lies in the running header or footer zone."""
        top, bottom = self.margins()
        return box[3] < top or box[1] > bottom


@dataclass(frozen=True, slots=True)
class DocStyle:
    """The document's body-text style: the size and font most characters are set in."""

    size: float
    font: str

    def is_body_size(self, size: float) -> bool:
        return abs(size - self.size) <= max(0.6, 0.06 * self.size)


def doc_style(scans: Iterable[PageScan]) -> DocStyle:
    """The most common (size, font) by character count; 10pt Times when there is no text."""
    sizes: Counter[float] = Counter()
    fonts: Counter[str] = Counter()
    for scan in scans:
        for line in scan.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
            fonts[line.font] += len(line.text)
    if not sizes:
        return DocStyle(10.0, "Times")
    return DocStyle(sizes.most_common(1)[0][0], fonts.most_common(1)[0][0])


def row_text(lines: list[ScanLine], separator: str) -> str:
    """Fragments as text rows (top to bottom, left to right), rows joined by ``separator``."""
    return separator.join(" ".join(line.text for line in row) for row in rows(lines))


def rows(lines: list[ScanLine]) -> list[list[ScanLine]]:
    """Fragments grouped into rows by their vertical centres, each row sorted left to right.

    Centres, not overlap: sub- and superscripts make boxes tall enough to touch the next row.
    """
    grouped: list[list[ScanLine]] = []
    centre = size = 0.0
    for line in sorted(lines, key=lambda item: item.y_center):
        if grouped and line.y_center - centre <= 0.45 * min(line.size, size):
            grouped[-1].append(line)
        else:
            grouped.append([line])
            centre, size = line.y_center, line.size
    return [sorted(row, key=lambda item: item.bbox[0]) for row in grouped]
