"""Reading a page from PyMuPDF: its text dict (without vector paths when it draws too
much), its unrotated size, and the boxes of its images."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import pymupdf
from pymupdf import mupdf

from littrace.corpus.document import BBox

logger = logging.getLogger(__name__)

#: Flags for ``page.get_text("dict", flags=DICT_FLAGS)``: vector paths as blocks of type 3
#: (free), no image bytes (they make the call several times slower), ligatures expanded.
DICT_FLAGS: int = (
    pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES & ~pymupdf.TEXT_PRESERVE_LIGATURES
) | pymupdf.TEXT_COLLECT_VECTORS
#: Pages with more content than this (decompressed bytes) are read without vector paths.
MAX_VECTOR_CONTENT = 2_000_000

# Drawing-log entries that paint an image (an image mask is a stencil: a glyph, a rule, a logo).
_IMAGE_KINDS = ("fill-image", "fill-imgmask")


def extract_dict(page: pymupdf.Page, unreadable: list[str] | None = None) -> dict[str, Any]:
    """``page.get_text("dict", flags=DICT_FLAGS)``; a page that cannot be read is empty, and
    ``"page <n>: <error>"`` is added to ``unreadable`` when one is given.

    A page whose drawing instructions run past ``MAX_VECTOR_CONTENT`` bytes (a plot of a
    million points) is read without its vector paths: collecting them costs about half a
    kilobyte and several microseconds per path.
    """
    flags = DICT_FLAGS
    try:
        if _content_size(page) > MAX_VECTOR_CONTENT:
            logger.info("page %d: too many drawings, vector paths skipped", page.number + 1)
            flags &= ~pymupdf.TEXT_COLLECT_VECTORS
        return dict(page.get_text("dict", flags=flags))  # type: ignore[no-untyped-call]
    except Exception as error:  # a broken content stream costs only this page
        logger.warning("page %d: text extraction failed", page.number + 1, exc_info=True)
        if unreadable is not None:
            unreadable.append(f"page {page.number + 1}: {type(error).__name__}: {error}")
        return {"blocks": []}


def _content_size(page: pymupdf.Page) -> int:
    """Decompressed bytes of the page's content streams and of the form XObjects its
    resources name (nested ones too, each stream once), up to the limit.

    Stored sizes do not tell: a plot of identical path commands inflates a thousandfold.
    Walked with MuPDF's object calls (``page.get_xobjects()`` cost more than inflating the
    streams), and streams are measured without copying them out.
    """
    total = 0
    for stream in _content_streams(page):
        total += mupdf.pdf_load_stream(stream).m_internal.len
        if total > MAX_VECTOR_CONTENT:
            break
    return total


def _content_streams(page: pymupdf.Page) -> list[Any]:
    """The page's content streams and the form XObjects its resources name, nested ones
    too, each once (MuPDF objects)."""
    pdf_page = mupdf.pdf_page_from_fz_page(page.this)
    if not pdf_page.m_internal:
        return []
    page_obj = pdf_page.obj()
    contents = mupdf.pdf_dict_get(page_obj, mupdf.PDF_ENUM_NAME_Contents)
    streams = (
        [mupdf.pdf_array_get(contents, i) for i in range(mupdf.pdf_array_len(contents))]
        if mupdf.pdf_is_array(contents)
        else [contents]
    )
    resources = mupdf.pdf_dict_get_inheritable(page_obj, mupdf.PDF_ENUM_NAME_Resources)
    pending = [resources] if resources.m_internal else []
    seen: set[int] = set()
    while pending:
        xobjects = mupdf.pdf_dict_get(pending.pop(), mupdf.PDF_ENUM_NAME_XObject)
        for i in range(mupdf.pdf_dict_len(xobjects)):
            form = mupdf.pdf_dict_get_val(xobjects, i)
            xref = mupdf.pdf_to_num(form)
            subtype = mupdf.pdf_dict_get(form, mupdf.PDF_ENUM_NAME_Subtype)
            if xref in seen or not mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Form):
                continue
            seen.add(xref)
            streams.append(form)
            inner = mupdf.pdf_dict_get(form, mupdf.PDF_ENUM_NAME_Resources)
            if inner.m_internal:
                pending.append(inner)
    return [stream for stream in streams if mupdf.pdf_is_stream(stream)]


def unrotated_size(page: pymupdf.Page) -> tuple[float, float]:
    """Width and height in the coordinates text comes in: ``page.rect`` turned back."""
    width, height = float(page.rect.width), float(page.rect.height)
    return (height, width) if page.rotation % 180 else (width, height)


def read_images(page: pymupdf.Page) -> list[BBox]:
    try:
        if not page.get_images():  # type: ignore[no-untyped-call]  # inline images are not listed: dotted rules, glyphs
            return []
        # The drawing log, not get_image_info(): that builds a whole text page again.
        log = page.get_bboxlog()  # type: ignore[no-untyped-call]
    except Exception:  # a damaged image costs only this page's images
        logger.warning("page %d: reading images failed", page.number + 1, exc_info=True)
        return []
    width, height = unrotated_size(page)
    boxes = (clip(rect, width, height) for kind, rect in log if kind in _IMAGE_KINDS)
    return [box for box in boxes if box is not None]


def clip(rect: Sequence[float], width: float, height: float) -> BBox | None:
    """``rect`` cut to the page; ``None`` if nothing (or only a point) is left."""
    x0, y0 = max(float(rect[0]), 0.0), max(float(rect[1]), 0.0)
    x1, y1 = min(float(rect[2]), width), min(float(rect[3]), height)
    if x1 < x0 or y1 < y0 or (x1 - x0 < 0.1 and y1 - y0 < 0.1):
        return None
    return (x0, y0, x1, y1)


def area(box: BBox) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])
