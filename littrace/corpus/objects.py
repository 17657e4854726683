"""Tables, figures, numbered display equations and algorithms of a PDF, with printed ids.

:func:`find_objects` returns one :class:`~littrace.corpus.model.PaperObject` per printed id,
in page order; :func:`object_regions` gives the text-layout stage the boxes to keep out of
body paragraphs. The steps:

1. Each page's ``get_text("dict", flags=DICT_FLAGS)`` is read once (pass the dicts in if the
   layout stage has them). Only pages with a line that starts like a caption label or ends
   like an equation number are scanned into styled fragments
   (:mod:`littrace.corpus.pagescan`); running heads and page numbers are set aside.
2. Captions are lines that start with a label ("Table 3:", "Fig. 2.", "TABLE II",
   "Algorithm 1 Name") in the caption's own position and font (:mod:`littrace.corpus.captions`).
3. Each caption's body is found by walking away from it, up and down, inside its column (or
   the full text width for a full-width caption): fragments and graphics are taken while they
   follow each other closely, stopping at prose, a heading (one word after a section number
   is enough), another caption or an equation. A walk between booktabs rules or inside a
   large graphic does not stop at prose-like cell text; an algorithm box ends at the rule
   under its steps and a ruled table at its last rule, whatever follows them closely. The
   side is the one with content; where both have some, the side the paper uses for that
   kind of object elsewhere. A caption with nothing on its page looks at the top of the next
   page (a table whose caption ends a page) or the bottom of the previous one (a full-page
   figure whose caption opens the next page); there, a body across a two-column page must
   reach over the gutter. Without a body, the caption's box stands in. Images are read only
   for figure pages; vector paths come with the dict.
4. Table cells come from fragment positions, or from ``page.find_tables()`` geometry for a
   grid ruled in both directions (:mod:`littrace.corpus.tables`).
5. Numbered equations are found by :mod:`littrace.corpus.equations`, outside the bodies.

When the same id is captioned twice (a continued table, an appendix figure captioned like a
main-text one), the caption with the stronger label form wins ("Table 4:" over a paragraph
opening "Table 4. On average"), and among equals the first. Equations keep the first of a
repeated number.

Example:
    >>> import pymupdf
    >>> doc = pymupdf.open()
    >>> page = doc.new_page()
    >>> _ = page.insert_text((250, 200), "E = mc2", fontsize=10)
    >>> _ = page.insert_text((520, 200), "(1)", fontsize=10)
    >>> [(o.kind, o.object_id, o.page, o.text) for o in find_objects(doc, "p1")]
    [('equation', '(1)', 1, 'E = mc2')]
"""

from __future__ import annotations

import bisect
import logging
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from littrace.corpus.captions import Caption, find_captions
from littrace.corpus.equations import Equation, find_equations
from littrace.corpus.layout import SECTION_NAMES
from littrace.corpus.model import BBox, ObjectKind, PaperObject, union_bbox
from littrace.corpus.pagescan import (
    DocStyle,
    PageScan,
    ScanLine,
    doc_style,
    extract_dict,
    fragment_texts,
    has_candidates,
    row_text,
    scan_page,
    unrotated_size,
    word_count,
)
from littrace.corpus.tables import RULE, table_cells

__all__ = ["find_objects", "object_regions"]

logger = logging.getLogger(__name__)

# Walk gaps in body-font sizes: caption to its body, and between parts of the body.
_FIRST_GAP = 3.5
_NEXT_GAP = 2.0
# A graphic at least this big (points) makes a figure; smaller ones are rules and dots.
_MIN_GRAPHIC = 20.0
# Running headers and footers live in this share of the page height at the top and bottom.
_HEADER_ZONE = 0.12
_KIND_ORDER: dict[ObjectKind, int] = {"table": 0, "figure": 1, "algorithm": 2, "equation": 3}
# Where the body sits relative to its caption when the page itself does not say.
_DEFAULT_SIDE: dict[ObjectKind, str] = {"figure": "above", "table": "below", "algorithm": "below"}

_NUMBERED_HEADING = re.compile(r"^(?:[A-Z]|\d{1,2}(?:\.\d{1,2})*)\.?\s+[A-Z]")

# The size assumed for a page whose page object cannot be loaded.
_LETTER = (612.0, 792.0)

Key = tuple[str, int]  # ("l", fragment index) or ("g", graphic index) on one page


@dataclass(slots=True)
class _Page:
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


@dataclass(frozen=True, slots=True)
class _Region:
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
            big = [g for g in self.graphics if _is_big(g)]
            if big or (self.graphics and _area(union_bbox(self.graphics)) >= 400):
                return 2
            return 1 if len(self.lines) >= 3 else 0
        return 2 if len(self.lines) >= 2 else 0


class _Pages:
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
        self._pages: dict[int, _Page] = {}

    def __len__(self) -> int:
        return len(self.dicts)

    def __getitem__(self, index: int) -> _Page:
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

    def hot_pages(self) -> list[_Page]:
        return [self[number] for number in self.hot]


def find_objects(
    doc: pymupdf.Document,
    paper_id: str,
    page_dicts: Sequence[dict[str, Any]] | None = None,
    pdf_pages: Sequence[pymupdf.Page] | None = None,
) -> list[PaperObject]:
    """The tables, figures, numbered equations and algorithms of ``doc``, in page order.

    ``page_dicts`` are the pages' ``get_text("dict", flags=DICT_FLAGS)`` results, if the
    caller already has them (the flags matter: vector paths come with them); otherwise each
    page is extracted once here. ``pdf_pages`` are the loaded pages, if the caller has them.
    """
    pages = _Pages(doc, page_dicts, pdf_pages)
    captions = _best_captions(pages.captions.values())
    for page in pages.hot_pages():
        skip = page.caption_lines | page.furniture | page.headings | page.vertical
        page.equation_lines = {
            e.number_line.index for e in find_equations(page.scan, page.prose, skip)
        }
    bodies = _assign_bodies(pages, captions)
    objects = [_caption_object(pages, paper_id, c, bodies.get(id(c))) for c in captions]
    seen = {(o.kind, o.number) for o in objects}
    for page in pages.hot_pages():
        skip = page.caption_lines | page.furniture | page.headings | page.vertical
        skip |= {key[1] for key in page.claimed if key[0] == "l"}
        for equation in find_equations(page.scan, page.prose, skip):
            if ("equation", equation.number) not in seen:
                seen.add(("equation", equation.number))
                objects.append(_equation_object(paper_id, equation))
    return sorted(objects, key=lambda o: _reading_key(pages[o.page - 1], o))


def object_regions(objects: Sequence[PaperObject]) -> dict[int, list[BBox]]:
    """Per page, the object bodies the text-layout stage should keep out of paragraphs.

    An object whose body was not found has its caption's box here, which is caption text,
    not paragraph text, either way.

    Example:
        >>> obj = PaperObject("p", "table", "Table 1", "1", 2, 1, "Table 1: x", (1, 2, 3, 4))
        >>> object_regions([obj])
        {2: [(1, 2, 3, 4)]}
    """
    regions: dict[int, list[BBox]] = {}
    for obj in objects:
        regions.setdefault(obj.page, []).append(obj.bbox)
    return regions


# --- pages ------------------------------------------------------------------------------


def _load(doc: pymupdf.Document, number: int) -> pymupdf.Page | None:
    """Page ``number``, or ``None`` if its page object is broken (only that page is lost)."""
    try:
        return doc[number]
    except Exception:
        logger.warning("page %d: cannot be loaded", number + 1, exc_info=True)
        return None


def _prepare(
    scan: PageScan, style: DocStyle, furniture_keys: set[str], caption_lines: set[int]
) -> _Page:
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
    page = _Page(scan, style, text_x0, text_x1, two_column, furniture, caption_lines)
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


def _protected_lines(page: _Page) -> set[int]:
    scan = page.scan
    spans = page.spans()
    big = [g for g in page.graphics if _is_big(g)]
    protected: set[int] = set()
    for line in scan.lines:
        x, y = line.x_center, line.y_center
        if any(s[0] <= x <= s[2] and s[1] <= y <= s[3] for s in spans) or any(
            g[0] <= x <= g[2] and g[1] <= y <= g[3] for g in big
        ):
            protected.add(line.index)
    return protected


def _ruled_spans(page: _Page) -> list[BBox]:
    """Boxes between horizontal rules of one width (booktabs tables, algorithm boxes).

    Rules are chained top to bottom unless a caption lies between two of them, which
    separates two floats in one column and an algorithm's caption from its steps.
    """
    rules = sorted((g for g in page.graphics if _is_rule(g)), key=lambda g: g[1])
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


# --- captions ---------------------------------------------------------------------------


def _best_captions(found: Iterable[list[Caption]]) -> list[Caption]:
    """One caption per (kind, number): the strongest, and the first among equals."""
    best: dict[tuple[str, str], Caption] = {}
    for captions in found:
        for caption in captions:
            key = (caption.label.kind, caption.label.number)
            if key not in best or caption.score > best[key].score:
                best[key] = caption
    return sorted(best.values(), key=lambda c: (c.page, c.lines[0].index))


# --- bodies -----------------------------------------------------------------------------


def _assign_bodies(pages: _Pages, captions: list[Caption]) -> dict[int, _Region]:
    """Each caption's body region, keyed by ``id(caption)``; captions without one are absent."""
    sides: dict[int, dict[str, _Region | None]] = {}
    votes: Counter[tuple[str, str]] = Counter()
    for caption in captions:
        if caption.label.kind == "figure":
            pages[caption.page - 1].want_images()
    for caption in captions:
        page = pages[caption.page - 1]
        found = {side: _walk_from(page, caption, side) for side in ("above", "below")}
        sides[id(caption)] = found
        levels = {side: _level(region, caption) for side, region in found.items()}
        if levels["above"] != levels["below"]:
            votes[(caption.label.kind, max(levels, key=lambda s: levels[s]))] += 1
    # Clear cases claim their bodies first, so an ambiguous caption cannot take them.
    order = sorted(
        captions,
        key=lambda c: _level(sides[id(c)]["above"], c) == _level(sides[id(c)]["below"], c),
    )
    bodies: dict[int, _Region] = {}
    for caption in order:
        page = pages[caption.page - 1]
        for side in _side_order(caption, sides[id(caption)], votes):
            # The first walks ran before any claim; on a page still without one they hold.
            region = _walk_from(page, caption, side) if page.claimed else sides[id(caption)][side]
            if region is not None and region.level(caption.label.kind) > 0:
                bodies[id(caption)] = region
                page.claimed |= region.keys
                break
    for caption in captions:
        if id(caption) not in bodies:
            region = _other_page_body(pages, caption)
            if region is not None:
                bodies[id(caption)] = region
                pages[region.page].claimed |= region.keys
    return bodies


def _level(region: _Region | None, caption: Caption) -> int:
    return 0 if region is None else region.level(caption.label.kind)


def _side_order(
    caption: Caption, found: dict[str, _Region | None], votes: Counter[tuple[str, str]]
) -> list[str]:
    kind = caption.label.kind
    above, below = _level(found["above"], caption), _level(found["below"], caption)
    if above != below:
        first = "above" if above > below else "below"
    elif votes[(kind, "above")] != votes[(kind, "below")]:
        first = "above" if votes[(kind, "above")] > votes[(kind, "below")] else "below"
    else:
        first = _DEFAULT_SIDE[kind]
    return [first, "below" if first == "above" else "above"]


def _band(page: _Page, box: BBox) -> tuple[float, float]:
    """The horizontal extent a caption's body may use: its column, or the text width.

    On a one-column page a caption wrapped inside one half is a float set beside another
    (a table next to a figure): its body keeps to that half.
    """
    x0, x1 = page.text_x0 - 5, page.text_x1 + 5
    mid = (page.text_x0 + page.text_x1) / 2
    halves = page.two_column or box[3] - box[1] >= 1.8 * page.style.size
    if halves and box[2] <= mid + 15:
        return x0, mid
    if halves and box[0] >= mid - 15:
        return mid, x1
    return x0, x1


def _walk_from(page: _Page, caption: Caption, side: str) -> _Region | None:
    box = caption.bbox
    start = box[1] if side == "above" else box[3]
    first_gap = _FIRST_GAP * page.style.size
    return _walk(page, _band(page, box), start, side == "below", first_gap, caption.label.kind)


def _other_page_body(pages: _Pages, caption: Caption) -> _Region | None:
    """A body on the next page's top (caption ends its page) or the previous page's bottom.

    Text flows from the bottom of the last column to the top of the next page's first, so
    each page is tried across its width first and then column by column in that order. On
    a two-column page, a body across the width must reach over the gutter: otherwise it is
    the top of both columns (a table and the references beside it), not one wide object.
    """
    index, kind = caption.page - 1, caption.label.kind
    lower_half = caption.bbox[1] > pages[index].scan.height / 2
    tries = [(index + 1, True), (index - 1, False)]
    for page_index, down in tries if lower_half else tries[::-1]:
        if not 0 <= page_index < len(pages):
            continue
        page = pages[page_index]
        if kind == "figure":
            page.want_images()
        x0, x1 = page.text_x0 - 5, page.text_x1 + 5
        mid = (page.text_x0 + page.text_x1) / 2
        bands = [(x0, x1)]
        if page.two_column:
            bands += [(x0, mid), (mid, x1)] if down else [(mid, x1), (x0, mid)]
        start = 0.0 if down else page.scan.height
        for band in bands:
            region = _walk(page, band, start, down, page.scan.height, kind)
            if region is None or region.level(kind) < 2:
                continue
            if band == (x0, x1) and page.two_column and not _spans_gutter(region, mid):
                continue
            return region
    return None


def _walk(
    page: _Page,
    band: tuple[float, float],
    start: float,
    down: bool,
    first_gap: float,
    kind: ObjectKind,
) -> _Region | None:
    """Items in ``band`` beyond ``start`` that follow each other closely, up to a stopper.

    A walk for a table or an algorithm also ends at the rule that closes it (see
    :func:`_closes`), whatever follows that rule closely.
    """
    scan = page.scan
    next_gap = _NEXT_GAP * page.style.size
    frontier = start
    taken: list[tuple[BBox, Key]] = []
    text = False  # whether a fragment was taken
    reach = (math.inf, -math.inf)  # the horizontal extent of what was taken
    band0, band1 = band
    # Most items lie outside the band: plain comparisons, not min()/max() calls, in here.
    for box, key in page.ahead(start, down):
        x0, x1 = box[0], box[2]
        inside = (x1 if x1 <= band1 else band1) - (x0 if x0 >= band0 else band0)
        width = x1 - x0 if x1 - x0 >= 0.1 else 0.1
        if inside >= 0.8 * width:
            crossing = False
        elif inside >= 0.2 * width and width > 30:
            crossing = True  # reaching well across the band's edge: a wall
        else:
            continue
        gap = box[1] - frontier if down else frontier - box[3]
        if gap > (next_gap if taken else first_gap):
            break
        if crossing or _stops(page, key):
            break
        taken.append((box, key))
        frontier = max(frontier, box[3]) if down else min(frontier, box[1])
        if text and key[0] == "g" and _closes(page, box, down, kind, reach):
            if kind == "table" and not down:
                taken += _header_over(page, box, reach)
            break
        text = text or key[0] == "l"
        reach = (min(reach[0], box[0]), max(reach[1], box[2]))
    if not taken:
        return None
    lines = tuple(scan.lines[key[1]] for _, key in taken if key[0] == "l")
    graphics = tuple(box for box, key in taken if key[0] == "g")
    return _Region(scan.number - 1, lines, graphics, frozenset(key for _, key in taken))


def _header_over(page: _Page, rule: BBox, reach: tuple[float, float]) -> list[tuple[BBox, Key]]:
    """The header rows of a table printed over its top rule's span without a rule of their
    own above them (a caption below, "method | #F | K400" over the first rule): the cell
    text within two rows above the rule, inside the table's width, up to prose or a rule
    across."""
    limit = rule[1] - 2.2 * page.style.size
    header: list[tuple[BBox, Key]] = []
    for box, key in page.ahead(rule[1], False):
        if box[3] < limit:
            break
        if box == rule or box[0] < reach[0] - 5 or box[2] > reach[1] + 5:
            continue
        if key[0] == "g":
            if box[2] - box[0] > 1.5:  # a column separator is no wall; a rule across is
                break
            header.append((box, key))
        elif _stops(page, key):
            break
        else:
            header.append((box, key))
    return header


def _closes(
    page: _Page, box: BBox, down: bool, kind: ObjectKind, reach: tuple[float, float]
) -> bool:
    """Whether the graphic ``box``, met after text, closes a ``kind`` body walked this way.

    Only a rule as wide as what was taken (``reach``) closes: not a rule under a group of
    columns. Such a rule after an algorithm's steps closes its box; a table closes at the
    far rule of its ruled span (the bottom rule below a caption above it), not at a rule
    between rows.
    """
    if kind not in ("algorithm", "table") or not _is_rule(box):
        return False
    if box[0] > reach[0] + 5 or box[2] < reach[1] - 5:
        return False
    if kind == "algorithm":
        return True
    edge = 3 if down else 1
    return any(
        abs(box[edge] - span[edge]) <= 0.5
        and abs(box[0] - span[0]) <= 5
        and abs(box[2] - span[2]) <= 5
        for span in page.spans()
    )


def _stops(page: _Page, key: Key) -> bool:
    if key in page.claimed:
        return True
    kind, index = key
    if kind != "l":
        return False
    if index in page.caption_lines or index in page.equation_lines:
        return True
    return (index in page.prose or index in page.headings) and index not in page.protected()


# --- objects ----------------------------------------------------------------------------


def _caption_object(
    pages: _Pages, paper_id: str, caption: Caption, region: _Region | None
) -> PaperObject:
    label = caption.label
    cells: tuple[tuple[str, ...], ...] = ()
    if region is None:
        page, bbox, text = caption.page, caption.bbox, ""
    else:
        page, bbox = region.page + 1, region.bbox
        lines = _lines_in(pages[region.page], bbox, region)
        if label.kind == "table":
            pdf_page = pages.pdf_pages[region.page]
            if pdf_page is not None:
                cells = table_cells(pdf_page, pages[region.page].graphics, bbox, lines)
            text = "\n".join("\t".join(row) for row in cells)
        else:
            text = row_text(lines, "\n")
    return PaperObject(
        paper_id=paper_id,
        kind=label.kind,
        object_id=label.printed_id,
        number=label.number,
        page=page,
        caption_page=caption.page,
        caption=caption.text,
        bbox=bbox,
        text=text,
        cells=cells,
    )


def _lines_in(page: _Page, bbox: BBox, region: _Region) -> list[ScanLine]:
    """The region's fragments plus any others inside its box (not captions or prose)."""
    keys = region.keys
    return [
        line
        for line in page.scan.lines
        if ("l", line.index) in keys
        or (
            bbox[0] <= line.x_center <= bbox[2]
            and bbox[1] <= line.y_center <= bbox[3]
            and line.index not in page.caption_lines
            and ("l", line.index) not in page.claimed
        )
    ]


def _equation_object(paper_id: str, equation: Equation) -> PaperObject:
    return PaperObject(
        paper_id=paper_id,
        kind="equation",
        object_id=equation.printed_id,
        number=equation.number,
        page=equation.page,
        caption_page=equation.page,
        caption="",
        bbox=equation.bbox,
        text=equation.text,
    )


def _reading_key(page: _Page, obj: PaperObject) -> tuple[int, int, float, int]:
    column = 1 if page.two_column and obj.bbox[0] >= (page.text_x0 + page.text_x1) / 2 - 15 else 0
    return (obj.page, column, obj.bbox[1], _KIND_ORDER[obj.kind])


# --- geometry ---------------------------------------------------------------------------


def _spans_gutter(region: _Region, mid: float) -> bool:
    """Whether something in ``region`` reaches across the page middle ``mid``."""
    boxes = [*(line.bbox for line in region.lines), *region.graphics]
    return any(box[0] < mid - 15 and box[2] > mid + 15 for box in boxes)


def _is_rule(box: BBox) -> bool:
    """A horizontal rule of a float: thin, and longer than a dash or an underline."""
    return box[3] - box[1] <= RULE and box[2] - box[0] >= 30


def _is_big(box: BBox) -> bool:
    return box[2] - box[0] >= _MIN_GRAPHIC and box[3] - box[1] >= _MIN_GRAPHIC


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
