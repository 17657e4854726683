"""Evidence items located on their PDF pages and rendered as highlighted crops.

An evidence item names a paper, a page and often an object (``"Table 4"``), a chunk or a
box. :class:`RegionFinder` turns it into a :class:`Region` (page + box) from what it carries
or from the corpus: the item's own ``bbox``; else its chunk's box; else the box of the table,
figure, equation or algorithm it names; else the sentence of a cited label; else the whole
page. :class:`PageRenderer` renders a region with PyMuPDF as a band of the page, full width
for context, with the box highlighted by a rectangle annotation that is removed again (the
PDF is never written). It opens the PDF the corpus recorded for the paper (or one given in
its place) only if it is the file the corpus was converted from: a PDF that is gone or whose
SHA-256 differs gives no crop, and :class:`CropUnavailable` says why.

Example:
    >>> finder = RegionFinder(corpus_artifact)  # doctest: +SKIP
    >>> region = finder.locate(EvidenceItem("p1", "table", page=4, object_id="Table 1"))  # doctest: +SKIP
    >>> with PageRenderer(*recorded_pdfs(corpus_artifact)) as renderer:  # doctest: +SKIP
    ...     png = renderer.render(region)  # PNG bytes; CropUnavailable without the right PDF
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pymupdf as _pymupdf

from littrace.artifacts import Artifact
from littrace.corpus.document import BBox
from littrace.digest import sha256_file
from littrace.evaluate.official import OBJECT_FIELDS

__all__ = [
    "CropUnavailable",
    "EvidenceItem",
    "PageRenderer",
    "Region",
    "RegionFinder",
    "object_key",
    "recorded_pdfs",
]

# PyMuPDF's functions are untyped; one Any here instead of an ignore on every call.
pymupdf: Any = _pymupdf

# A printed object id: optional word ("Table", "Tab.", "Eq."), then the number, maybe in ().
_OBJECT_ID = re.compile(r"(?:([a-z]+)\.?\s*)?\(?\s*(\d+[a-z]?)\s*\)?")
_KIND_BY_PREFIX = (("tab", "table"), ("fig", "figure"), ("eq", "equation"), ("alg", "algorithm"))
_KIND_OF_SOURCE = {"table": "table", "figure": "figure", "equation_algorithm": "equation"}
# Colours of the highlight: a red outline over a translucent yellow fill.
_STROKE = (0.85, 0.1, 0.1)
_FILL = (1.0, 0.85, 0.0)


@dataclass(frozen=True)
class EvidenceItem:
    """One evidence item, predicted or gold, in the shape the report shows."""

    paper_id: str
    source_type: str
    page: int | None = None
    object_id: str = ""
    section: str = ""
    chunk_id: str = ""
    bbox: BBox | None = None
    score: float | None = None
    text: str = ""

    @classmethod
    def from_locator(cls, item: Mapping[str, Any]) -> EvidenceItem:
        """From a submission or gold item: ``{paper_id, source_type, locator{...}}``."""
        locator = item.get("locator") if isinstance(item.get("locator"), dict) else {}
        assert isinstance(locator, dict)
        source_type = str(item.get("source_type") or "")
        names = OBJECT_FIELDS.get(source_type, ((),))[0]
        object_id = next((str(locator[n]) for n in names if locator.get(n)), "")
        page = locator.get("page")
        return cls(
            paper_id=str(item.get("paper_id") or ""),
            source_type=source_type,
            page=page if isinstance(page, int) and not isinstance(page, bool) else None,
            object_id=object_id,
            section=str(locator.get("section") or ""),
            text=str(item.get("evidence_text_or_value") or ""),
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> EvidenceItem:
        """From a row of an answers artifact's ``evidence`` table."""
        bbox = row.get("bbox")
        return cls(
            paper_id=str(row.get("paper_id") or ""),
            source_type=str(row.get("source_type") or ""),
            page=row.get("page"),
            object_id=str(row.get("object_id") or ""),
            section=str(row.get("section") or ""),
            chunk_id=str(row.get("chunk_id") or ""),
            bbox=_bbox(bbox),
            score=row.get("score"),
        )

    def locator(self) -> dict[str, Any]:
        """The submission locator of this item (what the official scorer keys on)."""
        locator: dict[str, Any] = {}
        if self.page:
            locator["page"] = self.page
        names = OBJECT_FIELDS.get(self.source_type)
        if names and self.object_id:
            field = names[0][-1] if self.object_id.lower().startswith("alg") else names[0][0]
            locator[field] = self.object_id
        if self.section:
            locator["section"] = self.section
        return locator


def _bbox(value: Any) -> BBox | None:
    if value is None or len(value) != 4:
        return None
    x0, y0, x1, y1 = (float(v) for v in value)
    return (x0, y0, x1, y1)


@dataclass(frozen=True)
class Region:
    """Where an evidence item is: a page, and a box on it if one is known; ``how`` says from what."""

    paper_id: str
    page: int
    bbox: BBox | None
    how: str


def object_key(text: str, default_kind: str) -> tuple[str, str] | None:
    """``(kind, number)`` of a printed object id, the kind from its word or ``default_kind``.

    Example:
        >>> object_key("Tab. 4", "figure"), object_key("(3)", "equation")
        (('table', '4'), ('equation', '3'))
    """
    match = _OBJECT_ID.fullmatch(text.strip().lower())
    if match is None:
        return None
    word, number = match.groups()
    if word is None:
        return (default_kind, number) if default_kind else None
    kind = next((kind for prefix, kind in _KIND_BY_PREFIX if word.startswith(prefix)), None)
    return None if kind is None else (kind, number)


class RegionFinder:
    """Locates evidence items with the corpus' objects, chunks and citations."""

    def __init__(self, corpus: Artifact) -> None:
        self._corpus = corpus
        self._objects: dict[tuple[str, str, str], tuple[int, BBox | None]] = {}
        for row in self._rows("objects", ["paper_id", "kind", "number", "page", "bbox"]):
            key = (row["paper_id"], row["kind"], row["number"])
            self._objects.setdefault(key, (int(row["page"]), _bbox(row["bbox"])))
        self._citations: dict[tuple[str, str], list[tuple[int, BBox | None]]] = {}
        for row in self._rows("citations", ["paper_id", "page", "labels", "bbox"]):
            for label in row["labels"] or ():
                place = (int(row["page"]), _bbox(row["bbox"]))
                self._citations.setdefault((row["paper_id"], label), []).append(place)
        self._chunks: dict[str, tuple[str, int, BBox | None]] = {}

    def _rows(self, table: str, columns: list[str]) -> list[dict[str, Any]]:
        if table not in self._corpus.tables:
            return []
        rows: list[dict[str, Any]] = self._corpus.table(table, columns=columns).to_pylist()
        return rows

    def load_chunks(self, chunk_ids: Iterable[str]) -> None:
        """Read the boxes of these chunks (only these: a real corpus has millions)."""
        wanted = sorted({c for c in chunk_ids if c and c not in self._chunks})
        if not wanted or "chunks" not in self._corpus.tables:
            return
        table = self._corpus.table("chunks", columns=["chunk_id", "paper_id", "page", "bbox"])
        table = table.filter(pc.is_in(table["chunk_id"], value_set=pc.cast(wanted, "string")))
        for row in table.to_pylist():
            self._chunks[row["chunk_id"]] = (row["paper_id"], int(row["page"]), _bbox(row["bbox"]))

    def locate(self, item: EvidenceItem) -> Region | None:
        """The item's region, or None when it names no page and nothing the corpus knows."""
        if item.bbox is not None and item.page:
            return Region(item.paper_id, item.page, item.bbox, "evidence box")
        if item.chunk_id:
            self.load_chunks([item.chunk_id])
            chunk = self._chunks.get(item.chunk_id)
            if chunk is not None and chunk[2] is not None:
                return Region(chunk[0], chunk[1], chunk[2], "chunk")
        if item.object_id and item.source_type == "citation_context":
            places = self._citations.get((item.paper_id, item.object_id.strip("[] ")), [])
            on_page = [p for p in places if item.page in (None, p[0])]
            if on_page:
                return Region(item.paper_id, on_page[0][0], on_page[0][1], "citing sentence")
        if item.object_id:
            key = object_key(item.object_id, _KIND_OF_SOURCE.get(item.source_type, ""))
            found = self._objects.get((item.paper_id, *key)) if key else None
            if found is not None:
                return Region(item.paper_id, found[0], found[1], "object")
        if item.page:
            return Region(item.paper_id, item.page, None, "page")
        return None


def recorded_pdfs(corpus: Artifact) -> tuple[dict[str, Path], dict[str, str]]:
    """``paper_id → PDF`` as ingest recorded them, and ``paper_id → SHA-256`` of each PDF the
    corpus was converted from (both empty for a corpus older than the ``pdf_path`` column).

    Example:
        >>> pdfs, sha256 = recorded_pdfs(corpus_artifact)  # doctest: +SKIP
        >>> pdfs["p1"], sha256["p1"][:8]  # doctest: +SKIP
        (PosixPath('/data/pdfs/p1.pdf'), '3fe91ed6')
    """
    if "papers" not in corpus.tables:
        return {}, {}
    names = pq.read_schema(corpus.table_path("papers")).names
    columns = [c for c in ("paper_id", "pdf_path", "pdf_sha256") if c in names]
    rows = corpus.table("papers", columns=columns).to_pylist()
    pdfs = {str(r["paper_id"]): Path(r["pdf_path"]) for r in rows if r.get("pdf_path")}
    sha256 = {str(r["paper_id"]): str(r["pdf_sha256"]) for r in rows if r.get("pdf_sha256")}
    return pdfs, sha256


class CropUnavailable(LookupError):
    """A region cannot be rendered; the message is the note the report shows instead."""


class PageRenderer:
    """Renders regions of the papers' PDFs as PNG bytes; a context manager that closes them.

    ``sha256`` holds what each paper's PDF must hash to (the corpus' ``pdf_sha256``): the
    boxes come from converting that file, so another file's pages would be cropped wrongly.
    Papers missing from it are rendered unchecked.
    """

    def __init__(
        self,
        pdfs: Mapping[str, Path],
        sha256: Mapping[str, str] | None = None,
        *,
        zoom: float = 1.5,
        margin_pt: float = 36.0,
        max_band_pt: float = 360.0,
    ) -> None:
        self._pdfs = dict(pdfs)
        self._sha256 = dict(sha256 or {})
        self._zoom = zoom
        self._margin = margin_pt
        self._max_band = max_band_pt
        self._open: dict[str, Any] = {}
        self._unusable: dict[str, str] = {}

    @property
    def unusable(self) -> dict[str, str]:
        """``paper_id → why`` for each paper whose PDF was asked for and could not be used."""
        return dict(self._unusable)

    def __enter__(self) -> PageRenderer:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        for document in self._open.values():
            document.close()
        self._open.clear()

    def _problem(self, paper_id: str) -> str | None:
        """Why the paper's PDF cannot be used, or None when it can."""
        path = self._pdfs.get(paper_id)
        if path is None:
            return "no PDF is known for this paper (none recorded at ingest, none given by --pdfs)"
        if not path.is_file():
            return f"the PDF is no longer at {path} (moved? give its folder with --pdfs)"
        expected = self._sha256.get(paper_id)
        if expected and sha256_file(path) != expected:
            return f"{path} is not the PDF the corpus was made from (its SHA-256 differs)"
        return None

    def _document(self, paper_id: str) -> Any:
        if paper_id not in self._open:
            problem = self._unusable.get(paper_id) or self._problem(paper_id)
            if problem is not None:
                self._unusable[paper_id] = problem
                raise CropUnavailable(problem)
            self._open[paper_id] = pymupdf.open(self._pdfs[paper_id])
        return self._open[paper_id]

    def render(self, region: Region) -> bytes:
        """A PNG of the region.

        Raises:
            CropUnavailable: the paper's PDF is unknown, gone or changed, or lacks the page.
        """
        document = self._document(region.paper_id)
        if not 1 <= region.page <= document.page_count:
            raise CropUnavailable(f"the PDF has no page {region.page}")
        page = document[region.page - 1]
        if region.bbox is None:
            # No box: the whole page, smaller.
            return bytes(page.get_pixmap(matrix=pymupdf.Matrix(0.6, 0.6)).tobytes("png"))
        box = pymupdf.Rect(region.bbox) & page.rect
        top = max(page.rect.y0, box.y0 - self._margin)
        bottom = min(page.rect.y1, box.y1 + self._margin, top + self._max_band)
        clip = pymupdf.Rect(page.rect.x0, top, page.rect.x1, max(bottom, top + 1))
        annot = page.add_rect_annot(box)
        annot.set_colors(stroke=_STROKE, fill=_FILL)
        annot.set_border(width=1.5)
        annot.set_opacity(0.35)
        annot.update()
        try:
            pixmap = page.get_pixmap(matrix=pymupdf.Matrix(self._zoom, self._zoom), clip=clip)
        finally:
            page.delete_annot(annot)
        return bytes(pixmap.tobytes("png"))
