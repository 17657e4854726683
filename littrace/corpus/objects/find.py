"""The objects of a document: captions matched to their bodies, numbered equations, and
the :class:`~littrace.corpus.document.PaperObject` records and regions made of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pymupdf

from littrace.corpus.captions import Caption
from littrace.corpus.document import BBox, ObjectKind, PaperObject
from littrace.corpus.equations import Equation, find_equations
from littrace.corpus.objects.bodies import assign_bodies
from littrace.corpus.objects.pages import Page, Pages
from littrace.corpus.objects.regions import Region
from littrace.corpus.pagescan import NUMBER_START, ScanLine, row_text
from littrace.corpus.tables import table_cells

_KIND_ORDER: dict[ObjectKind, int] = {"table": 0, "figure": 1, "algorithm": 2, "equation": 3}


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
    pages = Pages(doc, page_dicts, pdf_pages)
    captions = _best_captions(pages.captions.values())
    for page in pages.hot_pages():
        skip = page.caption_lines | page.furniture | page.headings | page.vertical
        page.equation_lines = {
            e.number_line.index for e in find_equations(page.scan, page.prose, skip)
        }
    bodies = assign_bodies(pages, captions)
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


def _best_captions(found: Iterable[list[Caption]]) -> list[Caption]:
    """One caption per (kind, number): the strongest, and the first among equals."""
    best: dict[tuple[str, str], Caption] = {}
    for captions in found:
        for caption in captions:
            key = (caption.label.kind, caption.label.number)
            if key not in best or caption.score > best[key].score:
                best[key] = caption
    return sorted(best.values(), key=lambda c: (c.page, c.lines[0].index))


def _caption_object(
    pages: Pages, paper_id: str, caption: Caption, region: Region | None
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
            text = "\n".join("\t".join(_printed_once(row)) for row in cells)
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


def _printed_once(row: Sequence[str]) -> list[str]:
    """A table row as printed: a header written into each column it spans appears once (a
    run of equal cells of words; equal numbers side by side are each printed)."""
    return [
        "" if j and cell == row[j - 1] and not NUMBER_START.match(cell) else cell
        for j, cell in enumerate(row)
    ]


def _lines_in(page: Page, bbox: BBox, region: Region) -> list[ScanLine]:
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


def _reading_key(page: Page, obj: PaperObject) -> tuple[int, int, float, int]:
    column = 1 if page.two_column and obj.bbox[0] >= (page.text_x0 + page.text_x1) / 2 - 15 else 0
    return (obj.page, column, obj.bbox[1], _KIND_ORDER[obj.kind])
