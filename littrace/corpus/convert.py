"""Converting one PDF into a :class:`~littrace.corpus.document.Document`.

Objects come first (table grids, figure graphics, equation lines, algorithm boxes), so the
layout stage can keep their text out of body paragraphs; then the reading-order layout,
the bibliography and the citing sentences. Unreadable input raises :class:`ConversionError`
with a short error type (``EmptyFile``, ``NotPDF``, ``Encrypted``, ``NoPages``, ...), which
the ingest stage records as a failure while the paper stays in the corpus as metadata only.
A file that converts only in part keeps what was read, and its document carries non-fatal
failure records (``Document.damage``): ``Repaired`` when MuPDF had to repair the file (a
truncated or corrupted one), with its warnings and how many pages have text, and
``UnreadablePages`` naming the pages whose text extraction raised.

Example:
    >>> document = convert_pdf(Path("paper.pdf"), "acl2025_00005")  # doctest: +SKIP
    >>> [obj.object_id for obj in document.objects][:3]  # doctest: +SKIP
    ['Table 1', 'Figure 1', '(1)']
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pymupdf

from littrace.corpus.document import (
    Block,
    Citation,
    Document,
    Failure,
    Layout,
    PageInfo,
    PaperObject,
    Reference,
    Section,
    record_from_row,
)
from littrace.corpus.layout import extract_layout
from littrace.corpus.objects import find_objects, object_regions
from littrace.corpus.pagescan import extract_dict
from littrace.corpus.references import find_citations, parse_references

PDF_MAGIC = b"%PDF"
# Error types of the non-fatal failures: the paper keeps the pages that were read.
REPAIRED = "Repaired"
UNREADABLE_PAGES = "UnreadablePages"
_MESSAGE_CHARS = 600  # enough to name the damage in the failures table without a page of text


class ConversionError(Exception):
    """A PDF that cannot be converted; ``error_type`` is a short, stable reason."""

    def __init__(self, error_type: str, message: str) -> None:
        super().__init__(message)
        self.error_type = error_type


def open_pdf(data: bytes) -> Any:
    """Open PDF bytes, turning every way a file can be unusable into a ConversionError."""
    if not data:
        raise ConversionError("EmptyFile", "the file is empty (0 bytes)")
    if PDF_MAGIC not in data[:1024]:
        raise ConversionError("NotPDF", "no %PDF header in the first 1 KiB")
    try:
        doc: Any = pymupdf.open(stream=data, filetype="pdf")  # type: ignore[no-untyped-call]
    except Exception as error:  # MuPDF raises its own FileDataError and plain RuntimeErrors
        raise ConversionError("Unreadable", f"{type(error).__name__}: {error}") from error
    if doc.needs_pass:
        doc.close()
        raise ConversionError("Encrypted", "the PDF needs a password")
    if doc.page_count == 0:
        doc.close()
        raise ConversionError("NoPages", "the PDF has no pages")
    return doc


def convert_pdf(
    path: Path, paper_id: str, *, citation_contexts: bool = True, pdf_sha256: str | None = None
) -> Document:
    """Convert one PDF; raises :class:`ConversionError` for a file that is not a usable PDF.

    ``pdf_sha256`` is the file's SHA-256 when the caller has hashed it already (the ingest
    plan does, to find its cache entry), so it is not hashed twice."""
    data = path.read_bytes()
    # Character boxes without MuPDF's ascender/descender corrections. The flag is process-wide
    # and `import pymupdf` flips it as a side effect of importing pymupdf4llm when that is
    # installed, so it is set here, for every file, whatever was imported before.
    pymupdf.TOOLS.unset_quad_corrections(True)  # type: ignore[no-untyped-call]
    pymupdf.TOOLS.reset_mupdf_warnings()  # type: ignore[no-untyped-call]
    doc = open_pdf(data)
    # MuPDF keeps one warning list per process: read at once, it holds what opening this
    # file gave (the repair of a broken cross-reference table among them).
    opening_warnings: str = pymupdf.TOOLS.mupdf_warnings()  # type: ignore[no-untyped-call]
    unreadable: list[str] = []
    try:
        with _gc_paused():
            # One load and one text extraction per page serve the object finder and the layout.
            pages = list(doc)
            page_dicts = [extract_dict(page, unreadable) for page in pages]
            objects = find_objects(doc, paper_id, page_dicts, pages)
            layout = extract_layout(
                doc, object_regions(objects), page_dicts=page_dicts, pdf_pages=pages
            )
            # Freed while the collector is still off: it would walk all of them once it is on.
            del page_dicts
            references = parse_references(layout, paper_id)
            citations = find_citations(layout, references, paper_id) if citation_contexts else []
        damage = _damage(paper_id, layout, doc.is_repaired, opening_warnings, unreadable)
    except ConversionError:
        raise
    except Exception as error:  # a parser crash on one odd file must not stop the run
        raise ConversionError(f"ParserCrash:{type(error).__name__}", str(error)) from error
    finally:
        doc.close()
    return Document(
        paper_id=paper_id,
        pdf_sha256=pdf_sha256 or hashlib.sha256(data).hexdigest(),
        layout=layout,
        objects=tuple(objects),
        references=tuple(references),
        citations=tuple(citations),
        damage=damage,
    )


def _damage(
    paper_id: str, layout: Layout, repaired: bool, warnings: str, unreadable: list[str]
) -> tuple[Failure, ...]:
    """The non-fatal failure records of a converted PDF (see the module docstring)."""
    total = len(layout.pages)
    records = []
    if repaired:
        with_text = sum(1 for page in layout.pages if page.text.strip())
        lines = dict.fromkeys(line.strip() for line in warnings.splitlines() if line.strip())
        message = (
            f"MuPDF repaired the file (truncated or corrupted): {with_text} of {total} pages "
            f"have text; MuPDF warnings: {'; '.join(lines) or 'none'}"
        )
        records.append(
            Failure(paper_id, "convert", REPAIRED, message[:_MESSAGE_CHARS], fatal=False)
        )
    if unreadable:
        message = (
            f"{len(unreadable)} of {total} pages raised during text extraction and are empty: "
            + "; ".join(unreadable)
        )
        records.append(
            Failure(paper_id, "convert", UNREADABLE_PAGES, message[:_MESSAGE_CHARS], fatal=False)
        )
    return tuple(records)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for one conversion, as it was after.

    The page dicts are hundreds of thousands of small acyclic containers; collections
    triggered while they are alive keep walking them (about a tenth of the conversion), and
    so does the first one after the collector is back on if they are still alive then.
    Reference counting still frees them, and any cycles wait for the next collection.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# --- a JSON form for the per-paper cache ----------------------------------------------------


def document_to_dict(document: Document) -> dict[str, Any]:
    """A JSON-able dict of the document; layout lines are dropped (blocks keep text and bbox)."""
    blocks = tuple(replace(block, lines=()) for block in document.layout.blocks)
    slim = replace(document, layout=replace(document.layout, blocks=blocks))
    return asdict(slim)


def document_from_dict(data: dict[str, Any]) -> Document:
    """The inverse of :func:`document_to_dict`."""
    layout = data["layout"]
    return Document(
        paper_id=data["paper_id"],
        pdf_sha256=data["pdf_sha256"],
        layout=Layout(
            pages=tuple(record_from_row(PageInfo, page) for page in layout["pages"]),
            blocks=tuple(record_from_row(Block, block) for block in layout["blocks"]),
            sections=tuple(record_from_row(Section, section) for section in layout["sections"]),
            title=layout["title"],
            authors=tuple(layout["authors"]),
            abstract=layout["abstract"],
        ),
        objects=tuple(record_from_row(PaperObject, obj) for obj in data["objects"]),
        references=tuple(record_from_row(Reference, ref) for ref in data["references"]),
        citations=tuple(record_from_row(Citation, cit) for cit in data["citations"]),
        damage=tuple(record_from_row(Failure, failure) for failure in data["damage"]),
    )
