"""Hybrid retrieval of one subquery over three indexes, with pseudo-relevance feedback.

Lit3R §2.1.2: chunk-level BM25, paper-level BM25 and a dense chunk index are searched; each
output becomes a paper ranking in which a paper is represented by its highest-ranked chunk;
the three paper rankings are fused by RRF (``retrieve.rrf_k``, ``retrieve.weights``). PRF then
appends the first ``retrieve.prf.chars`` characters of the top paper's title and abstract to
the subquery, searches the same three indexes again, and fuses the original and expanded
rankings with equal weights.

The reranker scores chunks, so the searcher also returns a fused *chunk* ranking. The seed says
only that chunks "of the fused ... ranking" are reranked, so the paper fusion decides which
chunks come first: candidates are the chunks hit by the chunk-level indexes (chunk BM25 and
dense; paper BM25 names no chunk), ordered by their paper's fused rank, then by the best rank
the chunk has in either chunk-level index, then by chunk id. So the reranker's window
(``rerank.max_chunks``) and the pinned block (``rerank.pin_top``) go to the papers the three
indexes agree on, each led by the chunk that retrieval matched best, which is what the paper
ranking itself credits the paper with. Papers found only by paper BM25 contribute no chunk. After PRF the original and expanded chunk rankings are fused like the
paper rankings.

Example:
    >>> searcher = HybridSearcher.from_dirs(chunk_dir, paper_dir, hnsw_dir, encoder,
    ...     settings)  # doctest: +SKIP
    >>> result = searcher.search_with_prf("sparse retrieval", paper_text)  # doctest: +SKIP
    >>> result.prf_query, result.papers[0]  # doctest: +SKIP
    ('sparse retrieval\\n[ACL 2025] SPLADE ...', ('acl2025_00005', 0.0325))
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from littrace.config import RetrieveSettings, Settings
from littrace.fusion import best_per_group, rrf
from littrace.index.bm25 import Bm25Searcher
from littrace.index.dense import DenseIndex, chunk_group
from littrace.index.encoders import Encoder

__all__ = [
    "INDEXES",
    "HybridResult",
    "HybridSearcher",
    "PrfResult",
    "fused_chunks",
    "spare_core",
]

INDEXES = ("chunk_bm25", "paper_bm25", "dense")
"""Index names, in the order their rankings are fused."""

PRF_SEPARATOR = "\n"
"""Put between the subquery and the appended opening (both are passed on unchanged)."""

Ranked = list[tuple[str, float]]


@dataclass(frozen=True)
class HybridResult:
    """One sweep over the three indexes for ``query``.

    ``hits``: per index, ``(doc_id, score)`` best first (chunk ids, or paper ids for
    ``paper_bm25``). ``paper_rankings``: per index, ``(paper_id, score of its best hit)``.
    ``papers``: the RRF fusion of the three. ``chunks``: chunk ids for reranking (module
    docstring).
    """

    query: str
    hits: dict[str, Ranked]
    paper_rankings: dict[str, Ranked]
    papers: Ranked
    chunks: list[str]


@dataclass(frozen=True)
class PrfResult:
    """A subquery searched with PRF: both sweeps and their fusion.

    ``expanded`` and ``prf_query`` are ``None`` when PRF is disabled or the original sweep
    found no paper; ``papers`` and ``chunks`` are then the original sweep's.
    """

    original: HybridResult
    expanded: HybridResult | None
    prf_query: str | None
    papers: Ranked
    chunks: list[str]


def fused_chunks(
    papers: Sequence[str],
    chunk_rankings: Sequence[Sequence[str]],
    paper_of: Callable[[str], str],
) -> list[str]:
    """Chunks of ``chunk_rankings`` ordered by their paper's rank in ``papers``, then by the
    best rank the chunk has in any of ``chunk_rankings``, then by chunk id.

    Chunks whose paper is not in ``papers`` are left out.
    """
    paper_rank = {paper: rank for rank, paper in enumerate(papers)}
    best: dict[str, tuple[int, int]] = {}  # chunk -> (its paper's rank, its best rank)
    for ranking in chunk_rankings:
        for rank, chunk_id in enumerate(ranking):
            held = best.get(chunk_id)
            if held is None:
                paper = paper_rank.get(paper_of(chunk_id))
                if paper is not None:
                    best[chunk_id] = (paper, rank)
            elif rank < held[1]:
                best[chunk_id] = (held[0], rank)
    return [chunk_id for _, _, chunk_id in sorted((*ranks, c) for c, ranks in best.items())]


def spare_core() -> bool:
    """Whether torch's intra-op threads leave a core of this machine unused (one thread per
    process on a Dask worker, or ``torch.set_num_threads(1)``)."""
    import torch

    return torch.get_num_threads() < (os.cpu_count() or 1)


class HybridSearcher:
    """Chunk BM25, paper BM25 and dense chunk search for one query, fused per Lit3R §2.1.2.

    ``paper_of`` maps a chunk id to its paper id (default: :func:`chunk_group`, the part
    before ``#``; a chunks-table mapping's ``__getitem__`` works too). ``retrieve.depth`` hits
    are taken from each index.
    """

    def __init__(
        self,
        chunk_bm25: Bm25Searcher,
        paper_bm25: Bm25Searcher,
        dense: DenseIndex,
        encoder: Encoder,
        settings: RetrieveSettings,
        paper_of: Callable[[str], str] = chunk_group,
    ) -> None:
        self.chunk_bm25 = chunk_bm25
        self.paper_bm25 = paper_bm25
        self.dense = dense
        self.encoder = encoder
        self.settings = settings
        self.paper_of = paper_of

    @classmethod
    def from_dirs(
        cls,
        chunk_bm25_dir: str | os.PathLike[str],
        paper_bm25_dir: str | os.PathLike[str],
        hnsw_dir: str | os.PathLike[str],
        encoder: Encoder,
        settings: Settings,
        paper_of: Callable[[str], str] = chunk_group,
    ) -> HybridSearcher:
        """Open the index directories with ``index.bm25`` and ``index.hnsw.ef_search``."""
        bm25 = settings.index.bm25
        return cls(
            Bm25Searcher(Path(chunk_bm25_dir), k1=bm25.k1, b=bm25.b),
            Bm25Searcher(Path(paper_bm25_dir), k1=bm25.k1, b=bm25.b),
            DenseIndex.load(hnsw_dir, ef_search=settings.index.hnsw.ef_search),
            encoder,
            settings.retrieve,
            paper_of,
        )

    def chunk_text(self, chunk_id: str) -> str:
        """A chunk's indexed text (``KeyError`` if the chunk index lacks it)."""
        return self.chunk_bm25.doc_text(chunk_id)

    def search(self, query: str) -> HybridResult:
        """One sweep: per-index hits and paper rankings, their RRF fusion, the chunk ranking."""
        return self.search_many([query])[0]

    def search_many(self, queries: Sequence[str]) -> list[HybridResult]:
        """:meth:`search` for each query, batched: one encoder call and one dense search for
        all of them; each BM25 index searches them in turn (each query over the index's
        segments on the searcher's JVM threads).

        When torch leaves a core to spare (:func:`spare_core`), the dense side runs on a thread
        of its own while BM25 searches: torch and the JVM both work outside the GIL, so a sweep
        costs about the slower of the two, not their sum. When torch already uses every core,
        the two would only contend for them, and run one after the other.
        """
        if not queries:
            return []
        depth = self.settings.depth

        def dense() -> list[Ranked]:
            return self.dense.search(self.encoder.encode_queries(list(queries)), k=depth)

        if not spare_core():
            dense_hits = dense()
            chunk_hits = self.chunk_bm25.batch_search(queries, k=depth)
            paper_hits = self.paper_bm25.batch_search(queries, k=depth)
        else:
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="dense") as pool:
                beside = pool.submit(dense)
                chunk_hits = self.chunk_bm25.batch_search(queries, k=depth)
                paper_hits = self.paper_bm25.batch_search(queries, k=depth)
                dense_hits = beside.result()
        return [
            self._fuse(
                query,
                {
                    "chunk_bm25": [(h.doc_id, h.score) for h in chunk_hits[position]],
                    "paper_bm25": [(h.doc_id, h.score) for h in paper_hits[position]],
                    "dense": dense_hits[position],
                },
            )
            for position, query in enumerate(queries)
        ]

    def _fuse(self, query: str, hits: dict[str, Ranked]) -> HybridResult:
        """Paper rankings of one sweep's hits, their RRF fusion and the chunk ranking."""
        groups: Mapping[str, Callable[[str], str]] = {
            "chunk_bm25": self.paper_of,
            "paper_bm25": str,  # already one hit per paper
            "dense": self.paper_of,
        }
        paper_rankings = {
            name: [(paper, score) for paper, score, _ in best_per_group(hits[name], groups[name])]
            for name in INDEXES
        }
        weights = self.settings.weights
        papers = rrf(
            [[paper for paper, _ in paper_rankings[name]] for name in INDEXES],
            k=self.settings.rrf_k,
            weights=[weights.chunk_bm25, weights.paper_bm25, weights.dense],
        )
        chunks = fused_chunks(
            [paper for paper, _ in papers],
            [[chunk for chunk, _ in hits[name]] for name in ("chunk_bm25", "dense")],
            self.paper_of,
        )
        return HybridResult(query, hits, paper_rankings, papers, chunks)

    def search_with_prf(self, query: str, paper_text: Callable[[str], str]) -> PrfResult:
        """Search, expand ``query`` with the top papers' openings, search again and fuse.

        ``paper_text(paper_id)`` gives a paper's title and abstract; its first ``prf.chars``
        characters are appended unchanged for each of the top ``prf.feedback_papers``.
        """
        return self.search_with_prf_many([query], paper_text)[0]

    def search_with_prf_many(
        self, queries: Sequence[str], paper_text: Callable[[str], str]
    ) -> list[PrfResult]:
        """:meth:`search_with_prf` for each query, each sweep batched (:meth:`search_many`):
        the original queries together, then their expansions together."""
        prf = self.settings.prf
        originals = self.search_many(queries)
        prf_queries = {
            position: PRF_SEPARATOR.join(
                [
                    query,
                    *(
                        paper_text(paper)[: prf.chars]
                        for paper, _ in original.papers[: prf.feedback_papers]
                    ),
                ]
            )
            for position, (query, original) in enumerate(zip(queries, originals, strict=True))
            if prf.enabled and original.papers
        }
        expanded = dict(zip(prf_queries, self.search_many(list(prf_queries.values())), strict=True))
        return [
            self._fuse_prf(original, expanded.get(position))
            for position, original in enumerate(originals)
        ]

    def _fuse_prf(self, original: HybridResult, expanded: HybridResult | None) -> PrfResult:
        """The original sweep fused with its PRF expansion (equal weights by default)."""
        if expanded is None:
            return PrfResult(original, None, None, original.papers, original.chunks)
        prf = self.settings.prf
        weights = [prf.original_weight, prf.expanded_weight]
        papers = rrf(
            [[paper for paper, _ in original.papers], [paper for paper, _ in expanded.papers]],
            k=self.settings.rrf_k,
            weights=weights,
        )
        chunks = [
            chunk
            for chunk, _ in rrf([original.chunks, expanded.chunks], self.settings.rrf_k, weights)
        ]
        return PrfResult(original, expanded, expanded.query, papers, chunks)
