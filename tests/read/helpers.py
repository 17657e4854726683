"""Hand-made papers for the reader tests: one results table, an equation, citations."""

from __future__ import annotations

from dataclasses import replace

from littrace.corpus.document import Block, Chunk, Citation, PaperObject, PaperRecord, Reference
from littrace.read.records import PaperContext

TABLE_CELLS = (
    ("Method", "SciDocs-S", "TREC-X"),
    ("BM25", "31.2", "40.0"),
    ("DenseX", "38.5", "44.1"),
    ("SparseSieve", "41.2", "47.3"),
)


def context(
    paper_id: str = "p1", method: str = "SparseSieve", rank: int = 1, cells: tuple = TABLE_CELLS
) -> PaperContext:
    """A paper titled after ``method`` with a results table, an objective and references."""
    table_text = "\n".join("\t".join(row) for row in cells)
    chunks = (
        Chunk(f"{paper_id}#0000", paper_id, "title_abstract", 1, f"{method}: Sparse Retrieval"),
        Chunk(
            f"{paper_id}#0001",
            paper_id,
            "body",
            2,
            "We train with AdamW. The batch size is 256. Training runs for 20 epochs.",
            section="4.1 Setup",
        ),
        Chunk(
            f"{paper_id}#0002",
            paper_id,
            "body",
            3,
            "The overall training objective combines the task loss with the alignment loss:",
            section="3.3 Objective",
        ),
        Chunk(
            f"{paper_id}#0003",
            paper_id,
            "equation_algorithm",
            3,
            "(2)\nL = L_task + 0.5 L_align",
            section="3.3 Objective",
            object_id="(2)",
        ),
        Chunk(
            f"{paper_id}#0004",
            paper_id,
            "table",
            4,
            f"Table 1: nDCG@10 results.\n{table_text}",
            section="4.2 Results",
            object_id="Table 1",
        ),
    )
    objects = (
        PaperObject(
            paper_id,
            "equation",
            "(2)",
            "2",
            3,
            3,
            "",
            (300.0, 200.0, 500.0, 215.0),
            "L = L_task + 0.5 L_align",
        ),
        PaperObject(
            paper_id,
            "table",
            "Table 1",
            "1",
            4,
            4,
            "Table 1: nDCG@10 on two benchmarks.",
            (0.0, 0.0, 1.0, 1.0),
            table_text,
            cells,
        ),
    )
    references = (
        Reference(
            paper_id,
            "7",
            "[7] A. Turing. Negative Sampling Revisited. 2020.",
            6,
            "Turing",
            "Negative Sampling Revisited",
            2020,
        ),
    )
    citations = (
        Citation(
            paper_id,
            2,
            "We follow negative sampling [7].",
            ("7",),
            ("Negative Sampling Revisited",),
            "2 Related Work",
        ),
    )
    pages = {
        2: "We train with AdamW. The batch size is 256. Training runs for 20 epochs.",
        3: "The overall training objective combines the task loss with the alignment loss:",
        4: "Table 1: nDCG@10 results.",
    }
    # The sentence that introduces the objective sits right above the display in its column.
    blocks = (
        Block(
            3,
            (300.0, 150.0, 500.0, 198.0),
            "The overall training objective combines the task loss with the alignment loss:",
            "body",
            "3.3 Objective",
        ),
    )
    paper = PaperRecord(
        paper_id, f"{method}: Sparse Retrieval", ("A. Author",), "", "Venue", 2024, True
    )
    return PaperContext(paper, chunks, objects, {}, rank, references, citations, pages, blocks)


def with_hopper() -> PaperContext:
    """:func:`context` with a second entry, [9] by Hopper, cited beside negative sampling."""
    paper = context()
    hopper = Reference("p1", "9", "[9] Grace Hopper. Compilers for samplers. 2019.", 6)
    citing = Citation("p1", 2, "Samplers are compiled as in [9].", ("9",), (), "2 Related Work")
    return replace(
        paper,
        references=(*paper.references, hopper),
        citations=(*paper.citations, citing),
    )


# InternVL's Table 5: sub-table (a) over sub-table (b), each titled under it; (b) prints
# the corner label "method" again over headers of its own.
TITLED_BELOW = (
    ("method", "#param", "1/16", "1/8", "1"),
    ("ViT-22B [37]", "21.7B", "44.7", "47.2", "54.9"),
    ("InternViT-6B (ours)", "5.9B", "46.5", "50.0", "57.2"),
    ("(a) Few-shot semantic segmentation with limited training data.", "", "", "", ""),
    ("method", "decoder", "#param (train/total)", "crop size", "mIoU"),
    ("ViT-22B frozen [37]", "Linear", "0.9M / 21.7B", "504", "34.6"),
    ("InternViT-6B frozen (ours)", "Linear", "0.5M / 5.9B", "504", "47.2"),
    ("(b) Semantic segmentation performance in three different settings.", "", "", "", ""),
)
