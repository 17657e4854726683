"""The resources a question is answered with: the open retrieval indexes plus every paper's
chunks, objects, references, citations, pages and body blocks, opened once per process."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from littrace.artifacts import Artifact
from littrace.config import Settings
from littrace.corpus.document import (
    Block,
    Chunk,
    Citation,
    PaperObject,
    Reference,
    record_from_row,
    table_to_records,
)
from littrace.index.stage import IndexArtifacts
from littrace.read.backends import Localizer, evidence_localizer, paper_reader, synthesizer
from littrace.read.records import PaperContext, PaperReader, Synthesizer
from littrace.retrieve.retriever import RetrievalResources


@dataclass
class AnswerResources:
    """Open retrieval resources plus every paper's chunks, objects, references and pages."""

    retrieval: RetrievalResources
    chunks: dict[str, tuple[Chunk, ...]]
    objects: dict[str, tuple[PaperObject, ...]]
    references: dict[str, tuple[Reference, ...]]
    citations: dict[str, tuple[Citation, ...]]
    pages: dict[str, dict[int, str]]
    blocks: dict[str, tuple[Block, ...]]
    reader: PaperReader
    synthesizer: Synthesizer
    localizer: Localizer

    @classmethod
    def open(cls, settings: Settings, corpus: Artifact, indexes: IndexArtifacts) -> AnswerResources:
        """Open the indexes of ``corpus`` and group its tables by paper."""
        retrieval = RetrievalResources.open(indexes, corpus, settings)
        chunks: dict[str, list[Chunk]] = {}
        for chunk in retrieval.chunks.values():
            chunks.setdefault(chunk.paper_id, []).append(chunk)
        pages: dict[str, dict[int, str]] = {}
        for row in corpus.table("pages", ["paper_id", "page", "text"]).to_pylist():
            pages.setdefault(row["paper_id"], {})[int(row["page"])] = row["text"]
        return cls(
            retrieval=retrieval,
            chunks={p: tuple(sorted(cs, key=lambda c: c.chunk_id)) for p, cs in chunks.items()},
            objects=_by_paper(table_to_records(corpus.table("objects"), PaperObject)),
            references=_by_paper(table_to_records(corpus.table("references"), Reference)),
            citations=_by_paper(table_to_records(corpus.table("citations"), Citation)),
            pages=pages,
            blocks=_body_blocks(corpus),
            reader=paper_reader(settings, retrieval.client),
            synthesizer=synthesizer(settings, retrieval.client),
            localizer=evidence_localizer(settings, retrieval.client),
        )

    def context(
        self, paper_id: str, pool_scores: dict[str, float], rank: int
    ) -> PaperContext | None:
        """What a reader may see of one candidate; None for a paper not in the corpus."""
        paper = self.retrieval.papers.get(paper_id)
        if paper is None:
            return None
        chunks = self.chunks.get(paper_id, ())
        return PaperContext(
            paper=paper,
            chunks=chunks,
            objects=self.objects.get(paper_id, ()),
            pool_scores={
                c.chunk_id: pool_scores[c.chunk_id] for c in chunks if c.chunk_id in pool_scores
            },
            rank=rank,
            references=self.references.get(paper_id, ()),
            citations=self.citations.get(paper_id, ()),
            pages=self.pages.get(paper_id, {}),
            blocks=self.blocks.get(paper_id, ()),
        )


_opened: dict[tuple[str, ...], AnswerResources] = {}
_opened_lock = threading.Lock()


def process_resources(
    settings: Settings, corpus: Artifact, indexes: IndexArtifacts
) -> AnswerResources:
    """This process's open resources for ``corpus`` and its ``indexes`` under ``settings``
    (opened on first use, then reused by every question the process answers).

    Opening starts the JVM, loads the encoder and reads the corpus tables: seconds that
    would otherwise be paid per question. Only the latest set is kept, so a long-lived worker
    that moves on to a new corpus frees the old one.
    """
    identity = (
        str(corpus.path),
        *sorted(str(artifact.path) for artifact in indexes.artifacts.values()),
        settings.digest(),
    )
    with _opened_lock:
        if identity not in _opened:
            _opened.clear()
            _opened[identity] = AnswerResources.open(settings, corpus, indexes)
        return _opened[identity]


def _body_blocks(corpus: Artifact) -> dict[str, tuple[Block, ...]]:
    """Body text blocks by paper (the table's paper_id column is not a Block field)."""
    grouped: dict[str, list[Block]] = {}
    for row in corpus.table("blocks").to_pylist():
        if row["role"] == "body":
            grouped.setdefault(row["paper_id"], []).append(record_from_row(Block, row))
    return {paper: tuple(blocks) for paper, blocks in grouped.items()}


def _by_paper(records: list[Any]) -> dict[str, tuple[Any, ...]]:
    grouped: dict[str, list[Any]] = {}
    for record in records:
        grouped.setdefault(record.paper_id, []).append(record)
    return {paper: tuple(items) for paper, items in grouped.items()}
