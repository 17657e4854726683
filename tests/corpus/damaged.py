"""Damaged copies of real fixture PDFs that still convert: MuPDF repairs the first, and one
page of the second raises during text extraction."""

from __future__ import annotations

from pathlib import Path

import pymupdf

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "pdfs"
# 13 pages; its first third keeps text on 6 of them.
TRUNCATED_SOURCE = FIXTURES / "2020.acl-main.207.pdf"
# 8 pages, each with text.
NESTED_SOURCE = FIXTURES / "N18-3011.pdf"


def truncated_copy(target: Path, source: Path = TRUNCATED_SOURCE) -> Path:
    """The first third of ``source``'s bytes, as a download cut short would leave it."""
    data = source.read_bytes()
    target.write_bytes(data[: len(data) // 3])
    return target


def unreadable_page_copy(target: Path, page: int = 3, source: Path = NESTED_SOURCE) -> Path:
    """``source`` with page ``page`` (1-based) opening more graphics states than MuPDF
    allows, so extracting its text raises while every other page reads as before."""
    doc = pymupdf.open(source)
    contents = doc[page - 1].get_contents()[0]
    doc.update_stream(contents, b"q " * 100_000 + doc.xref_stream(contents))
    doc.save(target)
    doc.close()
    return target
