"""Splitting a converted paper into typed retrieval chunks (Lit3R §2.1.1).

Chunk types: one ``title_abstract`` chunk per paper that starts with a ``[VENUE YEAR]`` tag
(Lit3R §2.1.2), ``body`` chunks of consecutive paragraphs that never cross a page or a
heading and stop at ``max_chars``, and one chunk per ``table`` (caption + cells),
``figure`` (caption + the sentences that mention it on its page), ``equation_algorithm``
and ``citation_context`` (the citing sentence with the cited titles). A paragraph longer
than ``max_chars`` is split at sentence ends, a table at row ends.

Example:
    >>> from littrace.config import ChunkSettings
    >>> paper = PaperRecord("p1", "A Title", (), "An abstract.", "ACL", 2025, has_pdf=False)
    >>> [chunk.text for chunk in chunk_paper(paper, None, ChunkSettings())]
    ['[ACL 2025] A Title\\n\\nAn abstract.']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from littrace.config import ChunkSettings
from littrace.corpus.document import (
    BBox,
    Block,
    Chunk,
    ChunkType,
    Document,
    PaperObject,
    PaperRecord,
    union_bbox,
)
from littrace.corpus.sentences import sentences


def venue_year_tag(venue: str, year: int | None) -> str:
    """The ``[VENUE YEAR]`` tag that subqueries naming a venue and year start with."""
    parts = [part for part in (venue.strip(), str(year) if year else "") if part]
    return f"[{' '.join(parts)}]" if parts else ""


def _pieces(text: str, max_chars: int, separator: str) -> Iterator[str]:
    """Greedy packing of ``separator``-joined units of ``text`` into pieces of ``max_chars``."""
    units = sentences(text) if separator == " " else text.split(separator)
    current = ""
    for unit in units:
        while len(unit) > max_chars:  # a unit with no usable break: cut it hard
            if current:
                yield current
                current = ""
            yield unit[:max_chars]
            unit = unit[max_chars:]
        candidate = f"{current}{separator}{unit}" if current else unit
        if len(candidate) > max_chars:
            yield current
            current = unit
        else:
            current = candidate
    if current:
        yield current


@dataclass
class _ChunkBuilder:
    paper_id: str
    chunks: list[Chunk]

    def add(
        self,
        kind: ChunkType,
        page: int,
        text: str,
        *,
        section: str = "",
        object_id: str = "",
        bbox: BBox | None = None,
        span: tuple[int, int] = (0, 0),
    ) -> None:
        chunk_id = f"{self.paper_id}#{len(self.chunks):04d}"
        self.chunks.append(
            Chunk(chunk_id, self.paper_id, kind, page, text, section, object_id, bbox, *span)
        )


def _title_abstract(paper: PaperRecord, settings: ChunkSettings) -> str:
    tag = venue_year_tag(paper.venue, paper.year) if settings.venue_year_tag else ""
    head = f"{tag} {paper.title}".strip()
    return f"{head}\n\n{paper.abstract}".strip()


def _add_body(builder: _ChunkBuilder, document: Document, settings: ChunkSettings) -> None:
    """Pack consecutive paragraphs greedily; a page or heading change always starts a chunk."""
    page_texts = {page.page: page.text for page in document.layout.pages}
    pending: list[Block] = []

    def add(page: int, text: str, section: str, bbox: BBox, anchor: str, offset: int) -> int:
        start = page_texts.get(page, "").find(anchor, offset)
        span = (start, start + len(text)) if start >= 0 else (0, 0)
        builder.add("body", page, text, section=section, bbox=bbox, span=span)
        return max(offset, span[1])

    def flush() -> None:
        if pending:
            first = pending[0]
            text = "\n\n".join(block.text for block in pending)
            bbox = union_bbox(block.bbox for block in pending)
            add(first.page, text, first.section, bbox, first.text, 0)
            pending.clear()

    for block in document.layout.blocks:
        if block.role != "body":
            continue
        if pending and (
            block.page != pending[-1].page
            or block.section != pending[-1].section
            or sum(len(item.text) + 2 for item in pending) + len(block.text) > settings.max_chars
        ):
            flush()
        if len(block.text) <= settings.max_chars:
            pending.append(block)
            continue
        offset = 0
        for piece in _pieces(block.text, settings.max_chars, " "):
            offset = add(block.page, piece, block.section, block.bbox, piece, offset)
    flush()


def _mentions(document: Document, obj: PaperObject) -> str:
    """Sentences on the object's pages that mention its printed id (figure context)."""
    pattern = re.compile(rf"\b{re.escape(obj.object_id)}(?![0-9a-z])", re.IGNORECASE)
    pages = {obj.page, obj.caption_page}
    mentioning = [
        sentence
        for block in document.layout.blocks
        if block.page in pages and block.role == "body" and pattern.search(block.text)
        for sentence in sentences(block.text)
        if pattern.search(sentence)
    ]
    return " ".join(mentioning)


def _add_objects(builder: _ChunkBuilder, document: Document, settings: ChunkSettings) -> None:
    for obj in document.objects:
        if obj.kind == "table":
            kind: ChunkType = "table"
            body = obj.text
        elif obj.kind == "figure":
            kind = "figure"
            body = _mentions(document, obj)
        else:
            kind = "equation_algorithm"
            body = obj.text
        head = f"{obj.object_id}: {obj.caption}" if obj.caption else obj.object_id
        section = _section_at(document, obj.page, obj.bbox)
        room = settings.max_chars - len(head) - 1
        if room <= 0:
            builder.add(
                kind, obj.page, head[: settings.max_chars], object_id=obj.object_id, bbox=obj.bbox
            )
            continue
        separator = "\n" if kind == "table" else " "
        pieces = list(_pieces(body, room, separator)) if body.strip() else [""]
        for piece in pieces:
            text = f"{head}\n{piece}".strip()
            builder.add(
                kind, obj.page, text, section=section, object_id=obj.object_id, bbox=obj.bbox
            )


def _section_at(document: Document, page: int, bbox: BBox) -> str:
    """The section of the last block that starts above ``bbox`` on its page (or earlier)."""
    section = ""
    for block in document.layout.blocks:
        if (block.page, block.bbox[1]) > (page, bbox[1]):
            break
        section = block.section
    return section


def _add_citations(builder: _ChunkBuilder, document: Document, settings: ChunkSettings) -> None:
    for citation in document.citations:
        cited = "; ".join(title for title in citation.reference_titles if title)
        text = citation.sentence if not cited else f"{citation.sentence}\nCited: {cited}"
        builder.add(
            "citation_context",
            citation.page,
            text[: settings.max_chars],
            section=citation.section,
            object_id=",".join(citation.labels),
            bbox=citation.bbox,
        )


def chunk_paper(
    paper: PaperRecord, document: Document | None, settings: ChunkSettings
) -> list[Chunk]:
    """All chunks of one paper; a paper without a converted PDF gets its title-abstract chunk."""
    builder = _ChunkBuilder(paper.paper_id, [])
    if settings.title_abstract_chunk:
        text = _title_abstract(paper, settings)[: settings.max_chars]
        builder.add("title_abstract", 1, text)
    if document is not None:
        _add_body(builder, document, settings)
        if settings.object_chunks:
            _add_objects(builder, document, settings)
            _add_citations(builder, document, settings)
    return builder.chunks
