"""The per-page scan's text extraction: vector paths dropped on pages with too much drawing."""

from __future__ import annotations

import pymupdf
import pytest

from littrace.corpus import pagescan
from littrace.corpus.pagescan import extract as page_extract


def page_with_drawn_figure(lines: int) -> pymupdf.Page:
    """A page with a caption and a figure of ``lines`` rules, shown as a nested form XObject
    (``show_pdf_page`` wraps the source page's content in a form inside a form)."""
    figure = pymupdf.open()
    shape = figure.new_page().new_shape()
    for i in range(lines):
        shape.draw_line((10, 10 + 2 * i), (300, 10 + 2 * i))
    shape.finish(color=(0, 0, 0))
    shape.commit()
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Figure 1: many rules", fontsize=10)
    page.show_pdf_page(pymupdf.Rect(50, 100, 550, 700), figure, 0)
    return page


def vector_blocks(page_dict: dict[str, object]) -> int:
    blocks = page_dict["blocks"]
    assert isinstance(blocks, list)
    return sum(1 for block in blocks if block["type"] == 3)


def texts(page_dict: dict[str, object]) -> list[str]:
    blocks = page_dict["blocks"]
    assert isinstance(blocks, list)
    return [
        span["text"]
        for block in blocks
        if block["type"] == 0
        for line in block["lines"]
        for span in line["spans"]
    ]


def drawing_bytes(page: pymupdf.Page) -> tuple[int, int]:
    """Stored and decompressed bytes of the page's content and of every form it shows."""
    doc = page.parent
    xrefs = [*page.get_contents(), *(item[0] for item in page.get_xobjects())]
    stored = sum(len(doc.xref_stream_raw(xref)) for xref in xrefs)
    return stored, sum(len(doc.xref_stream(xref)) for xref in xrefs)


def test_drawing_in_nested_forms_counts_towards_the_vector_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = page_with_drawn_figure(150)
    assert vector_blocks(pagescan.extract_dict(page)) == 150
    stored, inflated = drawing_bytes(page)
    # The page's own content is a few short lines; the rules live in the innermost form,
    # compressed: only their decompressed size passes the limit.
    assert len(page.read_contents()) < 200 and stored < 1000 < inflated
    monkeypatch.setattr(page_extract, "MAX_VECTOR_CONTENT", 1000)
    without_vectors = pagescan.extract_dict(page)
    assert vector_blocks(without_vectors) == 0
    assert texts(without_vectors) == ["Figure 1: many rules"]


def test_a_page_under_the_limit_keeps_its_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    page = page_with_drawn_figure(5)
    monkeypatch.setattr(page_extract, "MAX_VECTOR_CONTENT", drawing_bytes(page)[1])
    assert vector_blocks(pagescan.extract_dict(page)) == 5
