"""Chunking: types, the [VENUE YEAR] tag, size limit, page and heading boundaries, offsets."""

from __future__ import annotations

from littrace.config import ChunkSettings
from littrace.corpus.chunking import chunk_paper, venue_year_tag
from littrace.corpus.document import (
    Block,
    BlockRole,
    Citation,
    Document,
    Layout,
    PageInfo,
    PaperObject,
    PaperRecord,
)

PAPER = PaperRecord(
    "p1", "Sparse Mixers", ("A. Author",), "We study mixers.", "ACL", 2025, has_pdf=True
)


def block(page: int, text: str, section: str = "1 Introduction", role: BlockRole = "body") -> Block:
    return Block(page=page, bbox=(72.0, 100.0, 300.0, 200.0), text=text, role=role, section=section)


def document(
    blocks: list[Block], objects: tuple[PaperObject, ...] = (), citations: tuple[Citation, ...] = ()
) -> Document:
    pages = sorted({b.page for b in blocks})
    infos = tuple(
        PageInfo(page, 612.0, 792.0, "\n\n".join(b.text for b in blocks if b.page == page))
        for page in pages
    )
    return Document("p1", "sha", Layout(infos, tuple(blocks), ()), objects, (), citations)


def test_title_abstract_chunk_starts_with_venue_year_tag() -> None:
    chunks = chunk_paper(PAPER, None, ChunkSettings())
    assert [(c.type, c.text) for c in chunks] == [
        ("title_abstract", "[ACL 2025] Sparse Mixers\n\nWe study mixers.")
    ]
    untagged = chunk_paper(PAPER, None, ChunkSettings(venue_year_tag=False))
    assert untagged[0].text.startswith("Sparse Mixers")
    assert venue_year_tag("", None) == ""
    assert venue_year_tag("NeurIPS", 2024) == "[NeurIPS 2024]"


def test_body_chunks_respect_pages_headings_and_size() -> None:
    paragraph = "Mixers route tokens. " * 30  # 630 characters
    blocks = [
        block(1, paragraph.strip()),
        block(1, paragraph.strip()),
        block(1, paragraph.strip()),
        block(1, paragraph.strip()),  # fourth paragraph would pass 2,000 characters
        block(1, "A short one under a new heading.", section="2 Method"),
        block(2, "Next page, same heading.", section="2 Method"),
        block(2, "Caption text", role="caption", section="2 Method"),
    ]
    chunks = [c for c in chunk_paper(PAPER, document(blocks), ChunkSettings()) if c.type == "body"]
    assert [(c.page, c.section) for c in chunks] == [
        (1, "1 Introduction"),
        (1, "1 Introduction"),
        (1, "2 Method"),
        (2, "2 Method"),
    ]
    assert all(len(c.text) <= 2000 for c in chunks)
    assert chunks[0].text.count("\n\n") == 2  # three paragraphs packed, never split
    assert "Caption text" not in " ".join(c.text for c in chunks)
    assert len({c.chunk_id for c in chunks}) == len(chunks)


def test_long_paragraph_splits_at_sentence_ends_with_page_offsets() -> None:
    sentences = [f"Sentence number {i} reports a result of {i}.{i} points." for i in range(120)]
    long_block = block(3, " ".join(sentences))
    chunks = [
        c
        for c in chunk_paper(PAPER, document([long_block]), ChunkSettings(max_chars=500))
        if c.type == "body"
    ]
    assert len(chunks) > 5
    assert all(len(c.text) <= 500 for c in chunks)
    assert all(c.text.endswith("points.") for c in chunks)
    page_text = long_block.text
    for chunk in chunks:
        assert page_text[chunk.char_start : chunk.char_end] == chunk.text


def test_object_and_citation_chunks() -> None:
    table = PaperObject(
        "p1",
        "table",
        "Table 2",
        "2",
        4,
        4,
        "Accuracy on SynthQA.",
        (0.0, 0.0, 1.0, 1.0),
        "Method\tAcc\nMixer\t91.2",
    )
    figure = PaperObject(
        "p1", "figure", "Figure 1", "1", 4, 4, "Loss curves.", (0.0, 0.0, 1.0, 1.0)
    )
    equation = PaperObject(
        "p1", "equation", "(3)", "3", 5, 5, "", (0.0, 0.0, 1.0, 1.0), "L = -log p(y|x)"
    )
    citation = Citation(
        "p1", 4, "We follow prior work [7].", ("7",), ("Attention Is All You Need",), "2 Method"
    )
    blocks = [
        block(4, "As Figure 1 shows, the loss falls. Nothing else here.", section="4 Results")
    ]
    doc = document(blocks, (table, figure, equation), (citation,))
    chunks = {c.type: c for c in chunk_paper(PAPER, doc, ChunkSettings())}
    assert chunks["table"].text == "Table 2: Accuracy on SynthQA.\nMethod\tAcc\nMixer\t91.2"
    assert (chunks["table"].page, chunks["table"].object_id) == (4, "Table 2")
    assert chunks["figure"].text == "Figure 1: Loss curves.\nAs Figure 1 shows, the loss falls."
    assert chunks["equation_algorithm"].text == "(3)\nL = -log p(y|x)"
    assert (
        chunks["citation_context"].text
        == "We follow prior work [7].\nCited: Attention Is All You Need"
    )
    assert chunks["citation_context"].object_id == "7"
    no_objects = chunk_paper(PAPER, doc, ChunkSettings(object_chunks=False))
    assert {c.type for c in no_objects} == {"title_abstract", "body"}


def test_large_table_splits_at_row_ends_and_repeats_the_caption() -> None:
    rows = "\n".join(f"Method{i}\t{i}.5\t{i}.7" for i in range(200))
    table = PaperObject(
        "p1", "table", "Table 9", "9", 2, 2, "Big results.", (0.0, 0.0, 1.0, 1.0), rows
    )
    chunks = [
        c
        for c in chunk_paper(
            PAPER, document([block(2, "x")], (table,)), ChunkSettings(max_chars=400)
        )
        if c.type == "table"
    ]
    assert len(chunks) > 1
    assert all(c.text.startswith("Table 9: Big results.\n") and len(c.text) <= 400 for c in chunks)
    recovered = [line for c in chunks for line in c.text.split("\n")[1:]]
    assert recovered == rows.split("\n")
