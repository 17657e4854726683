"""The whole retriever, model-free, on a synthetic corpus with real indexes."""

from __future__ import annotations

import json

import pytest

from littrace.config import Settings
from littrace.retrieve.retriever import RetrievalResources, RetrievalResult, retrieve
from littrace.schema import Question, read_jsonl
from tests.retrieve.conftest import Indexed


@pytest.fixture(scope="module")
def retrieved(
    indexed: Indexed,
) -> tuple[Settings, dict[str, dict[str, object]], list[RetrievalResult]]:
    settings = indexed.settings
    resources = RetrievalResources.open(indexed.indexes, indexed.artifact, settings)
    gold = {
        r["query_id"]: r
        for r in map(json.loads, indexed.corpus.gold.read_text(encoding="utf-8").splitlines())
    }
    questions = read_jsonl(indexed.corpus.questions, Question)[:6]
    results = [retrieve(q, resources, settings) for q in questions]
    return settings, gold, results


def recall(result: RetrievalResult, gold: dict[str, object], k: int) -> float:
    papers = {p["paper_id"] for p in gold["gold_papers"]}  # type: ignore[attr-defined]
    return len(papers & set(result.candidates[:k])) / len(papers)


def test_gold_papers_are_among_the_candidates(
    retrieved: tuple[Settings, dict[str, dict[str, object]], list[RetrievalResult]],
) -> None:
    _, gold, results = retrieved
    recalls = [recall(r, gold[r.query_id], 50) for r in results]
    assert sum(recalls) / len(recalls) >= 0.95
    single = [r for r in results if gold[r.query_id]["task_family"] == "hidden_source_single_paper"]
    assert single and all(recall(r, gold[r.query_id], 5) == 1.0 for r in single)


def test_the_trace_records_every_step(
    retrieved: tuple[Settings, dict[str, dict[str, object]], list[RetrievalResult]],
) -> None:
    settings, _, results = retrieved
    for result in results:
        trace = result.trace
        assert trace["plan"]["backend"] == "heuristic"
        rounds = trace["rounds"]
        assert 1 <= len(rounds) <= settings.retrieve.max_rounds
        first = rounds[0]
        assert len(first["subqueries"]) == settings.retrieve.decompose.first_round
        search = first["searches"][0]
        assert search["prf_query"].startswith(search["subquery"])
        assert set(search["index_papers"]) == {"chunk_bm25", "paper_bm25", "dense"}
        assert len(search["reranked"]) <= settings.retrieve.rerank.pool_top
        assert search["reranked"][0]["reranker_score"] is not None
        assert set(search["prf_index_papers"]) == set(search["index_papers"])
        assert first["pool_top"][0]["paper_id"] == result.ranking_a[0] or len(rounds) > 1
        assert trace["backends"]["rerank"] == "embedding"
        assert trace["fallbacks"] == []  # heuristic by configuration is no fallback
        assert {"seconds"} <= set(trace["plan"]) and "seconds" in trace["relate"]
        assert trace["stop_reason"] in {"sufficient", "no_new_subquery", "max_rounds"}
        assert trace["relate"]["seeds"][0] == result.ranking_a[0]
        assert result.candidates == trace["candidates"]
        assert len(result.candidates) <= settings.relate.fusion.top_n
        json.dumps(trace)  # the trace is plain JSON
