"""Pages prepared for the body walks: each scanned on first use, with its text extent and
columns, running heads and page numbers, prose, headings and ruled spans."""

from __future__ import annotations

import bisect
import logging
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from littrace.corpus.captions import find_captions
from littrace.corpus.document import BBox, union_bbox
from littrace.corpus.layout import SECTION_NAMES
from littrace.corpus.objects.regions import Key, is_big, is_rule
from littrace.corpus.pagescan import (
    DocStyle,
    PageScan,
    ScanLine,
    doc_style,
    extract_dict,
    fragment_texts,
    has_candidates,
    scan_page,
    unrotated_size,
    word_count,
)

logger = logging.getLogger(__name__)

# Running headers and footers live in this share of the page height at the top and bottom.
_HEADER_ZONE = 0.12

_NUMBERED_HEADING = re.compile(r"^(?:[A-Z]|\d{1,2}(?:\.\d{1,2})*)\.?\s+[A-Z]")

# The size assumed for a page whose page object cannot be loaded.
_LETTER = (612.0, 792.0)


@dataclass(slots=True)
class Page:
    """A page's scan with what the walks need: prose, stoppers and protected text."""

    scan: PageScan
    style: DocStyle
    text_x0: float
    text_x1: float
    two_column: bool
    furniture: set[int]
    caption_lines: set[int]
    prose: set[int] = field(default_factory=set)
    headings: set[int] = field(default_factory=set)
    vertical: set[int] = field(default_factory=set)
    equation_lines: set[int] = field(default_factory=set)
    claimed: set[Key] = field(default_factory=set)
    images: bool = False
    _graphics: list[BBox] | None = None
    _protected: set[int] | None = None
    _spans: list[BBox] | None = None
    _items: list[tuple[BBox, Key]] | None = None
    _ordered: dict[bool, tuple[list[float], list[tuple[BBox, Key]]]] = field(default_factory=dict)

    @property
    def graphics(self) -> list[BBox]:
        """Vector paths, and images where a figure may be (reading them can be slow)."""
        if self._graphics is None:
            self._graphics = self.scan.vectors + (self.scan.images if self.images else [])
        return self._graphics

    def want_images(self) -> None:
        """Add the page's images to its graphics (a figure caption is here or next door)."""
        if not self.images:
            self.images = True
            self._graphics = self._items = self._protected = self._spans = None
            self._ordered.clear()

    def items(self) -> list[tuple[BBox, Key]]:
        """What a walk can take: fragments and graphics outside headers and footers."""
        if self._items is None:
            scan = self.scan
            boxes = [(x.bbox, ("l", x.index)) for x in scan.lines if x.index not in self.furniture]
            boxes += [(graphic, ("g", n)) for n, graphic in enumerate(self.graphics)]
            top, bottom = scan.margins()  # scan.in_margin without a call per item
            self._items = [
                (box, key) for box, key in boxes if not (box[3] < top or box[1] > bottom)
            ]
        return self._items

    def ahead(self, start: float, down: bool) -> list[tuple[BBox, Key]]:
        """The items a walk from ``start`` meets, nearest first (ties in :meth:`items` order).

        Each page is walked many times, so both orders are sorted once (stably, which keeps
        any filtered walk in the order a sort of its own items would give).
        """
        ordered = self._ordered.get(down)
        if ordered is None:
            edge, sign = (1, 1.0) if down else (3, -1.0)
            items = sorted(self.items(), key=lambda item: sign * item[0][edge])
            ordered = self._ordered[down] = ([sign * box[edge] for box, _ in items], items)
        keys, items = ordered
        return items[bisect.bisect_left(keys, start - 2 if down else -(start + 2)) :]

    def protected(self) -> set[int]:
        """Fragments inside booktabs-ruled spans or large graphics: cell and figure text."""
        if self._protected is None:
            self._protected = _protected_lines(self)
        return self._protected

    def spans(self) -> list[BBox]:
        """Boxes between horizontal rules of one width (see :func:`_ruled_spans`)."""
        if self._spans is None:
            self._spans = _ruled_spans(self)
        return self._spans


class Pages:
    """The document's pages, each scanned and prepared on first use.

    Only pages with a caption label or an equation number are scanned up front; the body
    of a caption may still send a walk to a neighbouring page.
    """

    def __init__(
        self,
        doc: pymupdf.Document,
        page_dicts: Sequence[dict[str, Any]] | None,
        pdf_pages: Sequence[pymupdf.Page] | None,
    ) -> None:
        self.pdf_pages: list[pymupdf.Page | None] = (
            list(pdf_pages)
            if pdf_pages is not None
            else [_load(doc, number) for number in range(doc.page_count)]
        )
        self.dicts = [
            page_dicts[number]
            if page_dicts is not None
            else extract_dict(page)
            if page is not None
            else {"blocks": []}
            for number, page in enumerate(self.pdf_pages)
        ]
        self.sizes = [
            unrotated_size(page) if page is not None else _LETTER for page in self.pdf_pages
        ]
        self.furniture = _furniture_keys(self.dicts, self.sizes)
        self.hot = [number for number, d in enumerate(self.dicts) if has_candidates(d)]
        self._scans = {number: self._scan(number) for number in self.hot}
        self.style = doc_style(self._scans.values())
        # Every caption found, duplicates of a printed id too: all of them stop walks.
        self.captions = {n: find_captions(scan, self.style) for n, scan in self._scans.items()}
        self._pages: dict[int, Page] = {}

    def __len__(self) -> int:
        return len(self.dicts)

    def __getitem__(self, index: int) -> Page:
        page = self._pages.get(index)
        if page is None:
            scan = self._scans.pop(index, None) or self._scan(index)
            lines = {line.index for c in self.captions.get(index, ()) for line in c.lines}
            page = self._pages[index] = _prepare(scan, self.style, self.furniture, lines)
        return page

    def _scan(self, index: int) -> PageScan:
        page = self.pdf_pages[index]
        if page is None:
            return PageScan(index + 1, *self.sizes[index], [])
        return scan_page(page, self.dicts[index])

    def hot_pages(self) -> list[Page]:
        return [self[number] for number in self.hot]


def _load(doc: pymupdf.Document, number: int) -> pymupdf.Page | None:
    """Page ``number``, or ``None`` if its page object is broken (only that page is lost)."""
    try:
        return doc[number]
    except Exception:
        logger.warning("page %d: cannot be loaded", number + 1, exc_info=True)
        return None


def _prepare(
    scan: PageScan, style: DocStyle, furniture_keys: set[str], caption_lines: set[int]
) -> Page:
    """The page's text extent, column layout, running heads, prose and headings."""
    furniture = _furniture_lines(scan, furniture_keys)
    body = [
        line
        for line in scan.lines
        if line.index not in furniture
        and not line.vertical
        and not scan.in_margin(line.bbox)
        and len(line.text) >= 10
        and line.size >= 0.7 * style.size
    ]
    text_x0 = min((line.bbox[0] for line in body), default=0.1 * scan.width)
    text_x1 = max((line.bbox[2] for line in body), default=0.9 * scan.width)
    mid = (text_x0 + text_x1) / 2
    # Two columns when most longer lines keep to one half of the text area.
    wide = narrow_left = narrow_right = 0
    for line in body:
        if len(line.text) < 30:
            continue
        if line.bbox[2] < mid + 5:
            narrow_left += 1
        elif line.bbox[0] > mid - 5:
            narrow_right += 1
        else:
            wide += 1
    two_column = narrow_left >= 3 and narrow_right >= 3 and narrow_left + narrow_right > wide
    column = (text_x1 - text_x0) / (2 if two_column else 1)
    page = Page(scan, style, text_x0, text_x1, two_column, furniture, caption_lines)
    vertical = page.vertical = {line.index for line in scan.lines if line.vertical}
    page.prose = _prose(scan, style, column, furniture | caption_lines | vertical)
    page.headings = (
        {line.index for line in scan.lines if _is_heading(line, style)} - furniture - caption_lines
    )
    return page


def _furniture_keys(
    dicts: Sequence[dict[str, Any]], sizes: Sequence[tuple[float, float]]
) -> set[str]:
    """Running headers, footers and page numbers: top or bottom lines that recur.

    A line recurs if its text with digits blanked is in the same zone on 30% of the pages
    (two at least), or if it is a number that differs from the page number by the same
    offset on as many.
    """
    counts: Counter[str] = Counter()
    for number, (page_dict, (_, height)) in enumerate(zip(dicts, sizes, strict=True)):
        zone = fragment_texts(page_dict, _HEADER_ZONE * height, (1 - _HEADER_ZONE) * height)
        counts.update({_furniture_key(box, text, number + 1, height) for box, text in zone})
    # Running heads recur on most pages (or every other one); a table header that tops a
    # few pages in a row does not.
    need = max(2, math.ceil(0.3 * len(dicts)))
    return {key for key, count in counts.items() if key and count >= need}


def _furniture_lines(scan: PageScan, keys: set[str]) -> set[int]:
    """The page's recurring header and footer lines, taken from the page edges inwards.

    Only lines that no other text separates from the edge count, so a table header that
    tops several pages in a row is not mistaken for a running head.
    """
    found: set[int] = set()
    for from_top in (True, False):
        zone = [line for line in scan.lines if _furniture_key(line.bbox, line.text, 0, scan.height)]
        zone = [line for line in zone if (line.bbox[3] < scan.height / 2) == from_top]
        zone.sort(key=lambda line: line.bbox[1] if from_top else -line.bbox[3])
        rows: list[BBox] = []  # vertical extents of the rows taken so far
        for line in zone:
            if _furniture_key(line.bbox, line.text, scan.number, scan.height) in keys:
                found.add(line.index)
                rows.append(line.bbox)
            elif not any(line.bbox[1] < r[3] and r[1] < line.bbox[3] for r in rows):
                break  # text between the edge and anything further in
    return found


def _furniture_key(box: BBox, text: str, page_number: int, height: float) -> str:
    """What identifies a header or footer line across pages; ``""`` outside those zones."""
    top = box[3] < _HEADER_ZONE * height
    if not top and box[1] <= (1 - _HEADER_ZONE) * height:
        return ""
    if text.isdecimal():
        return f"page {int(text) - page_number}"
    return ("top " if top else "bottom ") + re.sub(r"\d+", "#", text.lower())


def _prose(scan: PageScan, style: DocStyle, column: float, other: set[int]) -> set[int]:
    """Fragments of body paragraphs: body-size lines of words that fill most of a column.

    ``other`` lines (captions, running heads) are not prose and do not make lines near them
    prose.
    """

    def wordy(line: ScanLine) -> bool:
        return (
            style.is_body_size(line.size)
            and "=" not in line.text
            and line.math <= 0.25 * len(line.text)
            and word_count(line.text) >= 1
        )

    full = {
        line.index
        for line in scan.lines
        if wordy(line)
        and word_count(line.text) >= 4
        and line.width >= 0.55 * column
        and line.index not in other
    }
    # A paragraph's short last line and its lines with inline math are prose too: they
    # share a block with full lines.
    per_block: Counter[int] = Counter(line.block for line in scan.lines)
    full_per_block: Counter[int] = Counter(scan.lines[i].block for i in full)
    prose_blocks = {b for b, n in full_per_block.items() if n >= 0.4 * per_block[b]}
    prose = full | {
        line.index
        for line in scan.lines
        if line.block in prose_blocks
        and line.index not in other
        and style.is_body_size(line.size)
        and "=" not in line.text
        and word_count(line.text) >= 1
    }
    # Some PDFs put every line in a block of its own: a short wordy line right under a
    # prose line, starting where it starts, ends that paragraph.
    bottoms = {(round(scan.lines[i].bbox[0]), round(scan.lines[i].bbox[3])) for i in prose}
    for line in scan.lines:
        if line.index not in prose and line.index not in other and wordy(line):
            x0, y0 = round(line.bbox[0]), line.bbox[1]
            if any(abs(x0 - x) <= 2 and y0 - line.size <= y <= y0 + 1 for x, y in bottoms):
                prose.add(line.index)
    return prose


def _is_heading(line: ScanLine, style: DocStyle) -> bool:
    """Titles and section headings: bold or larger than body text, and numbered ("4 Results")
    or a usual section name ("References"); a larger line of two words or more (a title).

    One word is enough with a number or a name: a float set right above "4 Experiments" must
    not take it into its body.
    """
    larger = line.size >= style.size + 0.9
    if not (larger or line.bold):
        return False
    if _NUMBERED_HEADING.match(line.text):
        return word_count(line.text) >= 1
    if line.text.rstrip(":.").strip().lower() in SECTION_NAMES:
        return True
    return larger and word_count(line.text) >= 2


def _protected_lines(page: Page) -> set[int]:
    scan = page.scan
    spans = page.spans()
    big = [g for g in page.graphics if is_big(g)]
    protected: set[int] = set()
    for line in scan.lines:
        x, y = line.x_center, line.y_center
        if any(s[0] <= x <= s[2] and s[1] <= y <= s[3] for s in spans) or any(
            g[0] <= x <= g[2] and g[1] <= y <= g[3] for g in big
        ):
            protected.add(line.index)
    return protected


def _ruled_spans(page: Page) -> list[BBox]:
    """Boxes between horizontal rules of one width (booktabs tables, algorithm boxes).

    Rules are chained top to bottom unless a caption lies between two of them, which
    separates two floats in one column and an algorithm's caption from its steps.
    """
    rules = sorted((g for g in page.graphics if is_rule(g)), key=lambda g: g[1])
    captions = [page.scan.lines[i].bbox for i in page.caption_lines]  # boxes that split a chain
    groups: list[list[BBox]] = []
    for rule in rules:
        for group in groups:
            last = group[-1]
            if abs(last[0] - rule[0]) <= 5 and abs(last[2] - rule[2]) <= 5:
                between = any(
                    c[1] >= last[3] - 1
                    and c[3] <= rule[1] + 1
                    and c[0] < rule[2]
                    and c[2] > rule[0]
                    for c in captions
                )
                if not between:
                    group.append(rule)
                    break
        else:
            groups.append([rule])
    return [union_bbox(group) for group in groups if len(group) >= 2]
