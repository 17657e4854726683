"""What the LLM readers show of a paper: tables as cells with header paths and candidates."""

from __future__ import annotations

from dataclasses import replace

from littrace.config import TableViewSettings
from littrace.corpus.document import Chunk
from littrace.read.passages import PaperView, passage
from tests.read.helpers import context
from tests.read.llm_script import question, scibert

CHEMPROT = question("What does BERT-Base obtain on ChemProt when frozen?")
# The real Table 1 cell the question names: its row labels and both header levels.
FROZEN = "REL / ChemProt (Kringelum et al., 2016) | BERT-Base / Frozen | 68.21"


def table_chunk() -> Chunk:
    return next(c for c in scibert().chunks if c.object_id == "Table 1")


def shown(settings: TableViewSettings, chunks: list[Chunk] | None = None) -> list[str]:
    return PaperView(CHEMPROT, scibert(), settings).passages(chunks or [table_chunk()], 1800)


def cell_lines(text: str, heading: str) -> list[str]:
    """The lines under ``heading`` up to the next heading (a line ending in a colon)."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(heading)) + 1
    block = []
    for line in lines[start:]:
        if line.endswith(":"):
            break
        block.append(line)
    return block


def test_a_real_table_is_shown_as_cells_with_header_paths_and_candidates() -> None:
    chunk = table_chunk()
    [text] = shown(TableViewSettings())
    assert text.startswith(
        f"[{chunk.chunk_id}] (table, page 1, Table 1)\nTable 1: Test performances"
    )
    assert "BERT-Base\t\tSCIBERT" not in text  # not the flattened grid
    candidates = cell_lines(text, "Candidate cells")
    # The cell whose row and every header level the question names comes first.
    assert candidates[0].endswith(FROZEN)
    assert all("ChemProt" in line for line in candidates)
    cells = cell_lines(text, "Cells (row path | column path | value), 40 of 64")
    assert len(cells) == 40
    assert any(
        line.endswith("JNLPBA (Collier and Kim, 2004) | SCIBERT / Finetune | 77.28")
        for line in cells
    )
    assert any(line.endswith(FROZEN) for line in cells)


def test_a_large_table_keeps_the_best_aligned_cells_in_table_order() -> None:
    [text] = shown(TableViewSettings(max_cells=3, candidates=1))
    assert cell_lines(text, "Candidate cells") == [cell_lines(text, "Cells")[0]]
    cells = cell_lines(text, "Cells (row path | column path | value), 3 of 64")
    assert [line.split(" | ", 1)[1] for line in cells] == [
        "BERT-Base / Frozen | 68.21",
        "BERT-Base / Finetune | 79.14",
        "SCIBERT / Frozen | 75.03",
    ]


def test_a_table_split_over_chunks_lists_its_cells_once() -> None:
    paper = context()
    first = next(c for c in paper.chunks if c.object_id == "Table 1")
    second = replace(first, chunk_id="p1#0005", text="Table 1: nDCG@10 results.\nrest")
    view = PaperView(question("SparseSieve on TREC-X"), paper, TableViewSettings())
    head, tail = view.passages([first, second], 1800)
    assert "SparseSieve | TREC-X | 47.3" in head
    assert (
        tail
        == "[p1#0005] (table, page 4, section 4.2 Results, Table 1)\n(part of Table 1: cells under [p1#0004])"
    )


def test_text_and_tables_without_a_grid_are_shown_as_text() -> None:
    paper = context()
    bare = replace(paper, objects=tuple(replace(o, cells=()) for o in paper.objects))
    view = PaperView(question("SparseSieve on TREC-X"), bare, TableViewSettings())
    chunks = [paper.chunks[1], paper.chunks[4]]
    assert view.passages(chunks, 30) == [passage(chunk, 30) for chunk in chunks]
