"""The shared evidence pool of one question (Lit3R §2.1.2) and Ranking A.

Reranked chunks of every subquery of every round go into one :class:`SharedPool`. A chunk
returned more than once keeps its highest score (max-merge): how many subqueries returned it
plays no part. Papers are ranked by their best chunk (Ranking A), and the verifier sees the top
papers, each with its best chunks cut to a fixed length.

Example:
    >>> from littrace.retrieve.rerank import RerankedChunk
    >>> pool = SharedPool()
    >>> pool.add([RerankedChunk("p1#0002", 0.016, 0.9, 1, 1, True)], {"p1#0002": "Text"}.get)
    >>> pool.add([RerankedChunk("p1#0002", 0.012, 0.4, 9, 9, True)], {"p1#0002": "Text"}.get)
    >>> pool.paper_ranking()
    [('p1', 0.016)]
    >>> pool.top_papers(1, chars=2)
    [('p1', ['Te'])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from littrace.fusion import best_per_group
from littrace.index.dense import chunk_group
from littrace.retrieve.rerank import RerankedChunk

__all__ = ["PoolChunk", "SharedPool"]


@dataclass(frozen=True, slots=True)
class PoolChunk:
    """A chunk in the pool with the highest score it received and its text."""

    chunk_id: str
    paper_id: str
    score: float
    text: str


class SharedPool:
    """Chunks from all subqueries and rounds, max-merged by ``RerankedChunk.score``.

    ``paper_of`` maps a chunk id to its paper (default: the id's part before ``#``). Equal
    scores keep the order in which chunks first entered the pool, so rankings are
    deterministic.
    """

    def __init__(self, paper_of: Callable[[str], str] = chunk_group) -> None:
        self._paper_of = paper_of
        self._chunks: dict[str, PoolChunk] = {}

    def __len__(self) -> int:
        return len(self._chunks)

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in self._chunks

    def add(self, chunks: Iterable[RerankedChunk], text_of: Callable[[str], str | None]) -> None:
        """Add one subquery's reranked chunks; ``text_of`` gives a chunk's text."""
        for chunk in chunks:
            held = self._chunks.get(chunk.chunk_id)
            if held is not None:
                if chunk.score > held.score:
                    # Replacing the value keeps the dict position: first entry order stays.
                    self._chunks[chunk.chunk_id] = PoolChunk(
                        held.chunk_id, held.paper_id, chunk.score, held.text
                    )
                continue
            text = text_of(chunk.chunk_id)
            if text is None:
                raise KeyError(f"no text for chunk {chunk.chunk_id!r}")
            self._chunks[chunk.chunk_id] = PoolChunk(
                chunk.chunk_id, self._paper_of(chunk.chunk_id), chunk.score, text
            )

    def ranked_chunks(self) -> list[PoolChunk]:
        """Every chunk, highest score first (ties: first added first)."""
        return sorted(self._chunks.values(), key=lambda chunk: -chunk.score)

    def paper_ranking(self) -> list[tuple[str, float]]:
        """Ranking A: papers by the highest score among their chunks, best first."""
        ranked = [(chunk.chunk_id, chunk.score) for chunk in self.ranked_chunks()]
        return [(paper, score) for paper, score, _ in best_per_group(ranked, self._paper_of)]

    def top_papers(
        self, n: int, chunks_per_paper: int = 2, chars: int = 1800
    ) -> list[tuple[str, list[str]]]:
        """The top ``n`` papers of Ranking A, each with its best chunks' texts cut to ``chars``."""
        texts: dict[str, list[str]] = {}
        for chunk in self.ranked_chunks():
            shown = texts.setdefault(chunk.paper_id, [])
            if len(shown) < chunks_per_paper:
                shown.append(chunk.text[:chars])
        return [(paper, texts[paper]) for paper, _ in self.paper_ranking()[:n]]
