"""The shared pool: max-merge across subqueries, Ranking A by best chunk, the verifier listing."""

from __future__ import annotations

import pytest

from littrace.retrieve.rerank import RerankedChunk
from littrace.retrieve.shared_pool import SharedPool

TEXTS = {
    "p1#0001": "alpha " * 10,
    "p1#0002": "beta " * 10,
    "p1#0003": "gamma " * 10,
    "p2#0001": "delta " * 10,
    "p3#0004": "epsilon " * 10,
}


def _chunk(chunk_id: str, score: float) -> RerankedChunk:
    return RerankedChunk(
        chunk_id, score, reranker_score=0.5, retrieval_rank=1, rerank_rank=1, pinned=True
    )


def test_a_chunk_keeps_its_highest_score_not_a_count() -> None:
    pool = SharedPool()
    # p1#0001 is returned by five subqueries, p2#0001 by one with a higher best score.
    for score in (0.010, 0.014, 0.012, 0.011, 0.013):
        pool.add([_chunk("p1#0001", score)], TEXTS.get)
    pool.add([_chunk("p2#0001", 0.015)], TEXTS.get)

    assert len(pool) == 2
    assert [(c.chunk_id, c.score) for c in pool.ranked_chunks()] == [
        ("p2#0001", 0.015),
        ("p1#0001", 0.014),
    ]


def test_a_lower_later_score_does_not_lower_a_chunk() -> None:
    pool = SharedPool()
    pool.add([_chunk("p1#0001", 0.02)], TEXTS.get)
    pool.add([_chunk("p1#0001", 0.01)], TEXTS.get)

    assert pool.paper_ranking() == [("p1", 0.02)]


def test_ranking_a_orders_papers_by_their_best_chunk() -> None:
    pool = SharedPool()
    # p1 has the most chunks and the highest sum, but p3's single chunk is the best one.
    pool.add(
        [_chunk("p1#0001", 0.013), _chunk("p1#0002", 0.012), _chunk("p1#0003", 0.011)], TEXTS.get
    )
    pool.add([_chunk("p3#0004", 0.016), _chunk("p2#0001", 0.0125)], TEXTS.get)

    assert pool.paper_ranking() == [("p3", 0.016), ("p1", 0.013), ("p2", 0.0125)]


def test_equal_scores_keep_the_order_chunks_entered() -> None:
    pool = SharedPool()
    pool.add([_chunk("p2#0001", 0.01), _chunk("p1#0001", 0.01)], TEXTS.get)

    assert [paper for paper, _ in pool.paper_ranking()] == ["p2", "p1"]


def test_top_papers_lists_best_chunks_cut_to_chars() -> None:
    pool = SharedPool()
    pool.add(
        [
            _chunk("p1#0001", 0.011),
            _chunk("p1#0002", 0.013),
            _chunk("p1#0003", 0.012),
            _chunk("p2#0001", 0.014),
            _chunk("p3#0004", 0.001),
        ],
        TEXTS.get,
    )

    top = pool.top_papers(2, chunks_per_paper=2, chars=8)

    assert top == [("p2", ["delta de"]), ("p1", ["beta bet", "gamma ga"])]


def test_pool_of_twenty_from_each_of_many_subqueries() -> None:
    # Three subqueries of 20 chunks over overlapping papers: 30 distinct chunks in the pool.
    pool = SharedPool()
    texts = {f"p{n}#0000": f"text {n}" for n in range(30)}
    for offset in (0, 5, 10):
        batch = [_chunk(f"p{offset + r}#0000", 1.0 / (60 + r + 1)) for r in range(20)]
        pool.add(batch, texts.get)

    ranking = pool.paper_ranking()
    assert len(pool) == 30 and len(ranking) == 30
    # Each top-ranked chunk of a subquery scored 1/61: the first one added leads the ties.
    assert ranking[0][0] == "p0" and ranking[0][1] == pytest.approx(1 / 61)
    assert [paper for paper, _ in ranking[:3]] == ["p0", "p5", "p10"]


def test_a_chunk_without_text_is_an_error() -> None:
    with pytest.raises(KeyError, match="p9#0001"):
        SharedPool().add([_chunk("p9#0001", 0.1)], TEXTS.get)
