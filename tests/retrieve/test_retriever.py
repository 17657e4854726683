"""The whole retriever on a synthetic corpus with real indexes: model-free, and its rounds
with the model-free and the (scripted) LLM backends."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from littrace.config import Settings
from littrace.littraceqa import Question, read_jsonl
from littrace.llm.client import LlmClient
from littrace.llm.replies import Plan, TargetGroup
from littrace.relate.expand import build_signals
from littrace.retrieve.hybrid import HybridSearcher
from littrace.retrieve.plan import name_pattern
from littrace.retrieve.queryvectors import CachedQueryEncoder
from littrace.retrieve.rerank import EmbeddingReranker
from littrace.retrieve.retriever import (
    RetrievalResources,
    RetrievalResult,
    retrieve,
    select_candidates,
)
from littrace.retrieve.run import apply_overrides
from tests.retrieve.conftest import CountingEncoder, Indexed
from tests.scripted_llm import ScriptedLlm


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


# --------------------------------------------------------------------------- rounds


@pytest.fixture(scope="module")
def resources(indexed: Indexed) -> RetrievalResources:
    return RetrievalResources.open(indexed.indexes, indexed.artifact, indexed.settings)


def ask(text: str) -> Question:
    return Question(query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"])


# LexiTune is in the corpus; NovaNet and ZephyrMix are not, so the verifier reports them
# missing after every round.
ABSENT = ask(
    "What pass@1 on RepoBench-L do LexiTune, NovaNet and ZephyrMix reach in the papers that "
    "introduce them?"
)


def searched(round_trace: dict[str, Any]) -> list[str]:
    return [search["subquery"] for search in round_trace["searches"]]


def test_later_rounds_search_what_the_verifier_named_missing_one_round_at_a_time(
    indexed: Indexed, resources: RetrievalResources
) -> None:
    settings = apply_overrides(indexed.settings, {"retrieve.decompose.later_rounds_max": 1})
    trace = retrieve(ABSENT, resources, settings).trace
    rounds = trace["rounds"]

    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert trace["stop_reason"] == "max_rounds"
    first, second, third = rounds
    assert first["verify"]["value"]["missing"] == "NovaNet; ZephyrMix"
    assert "synth2024_00014" in first["verify"]["value"]["evidence_papers"]  # LexiTune's
    # Round 2 turns the first missing item into one new subquery (the target with the anchor
    # was searched in round 1), round 3 the second; neither searches the question again.
    assert first["subqueries"][1:] == [
        "LexiTune RepoBench-L",
        "NovaNet RepoBench-L",
        "ZephyrMix RepoBench-L",
    ]
    assert second["subqueries"] == searched(second) == ["NovaNet"]
    assert second["verify"]["value"]["missing"] == "NovaNet; ZephyrMix"
    assert third["subqueries"] == searched(third) == ["ZephyrMix"]
    # The pool is kept across rounds: later searches add to it, never replace it.
    assert first["pool_chunks"] <= second["pool_chunks"] <= third["pool_chunks"]


def test_retrieval_stops_when_the_missing_items_give_nothing_new(
    indexed: Indexed, resources: RetrievalResources
) -> None:
    trace = retrieve(ABSENT, resources, indexed.settings).trace
    rounds = trace["rounds"]

    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert searched(rounds[1]) == ["NovaNet", "ZephyrMix"]
    assert rounds[2]["subqueries"] == [] and rounds[2]["searches"] == []
    assert "verify" not in rounds[2]
    assert trace["stop_reason"] == "no_new_subquery"


def test_a_question_without_targets_takes_another_round_only_for_a_missing_dataset(
    indexed: Indexed, resources: RetrievalResources
) -> None:
    # No answer target: the dataset each question names is the item the verifier checks.
    found = ask("What pass@1 on RepoBench-L does the code generation paper report?")
    trace = retrieve(found, resources, indexed.settings).trace
    assert len(trace["rounds"]) == 1 and trace["stop_reason"] == "sufficient"

    absent = ask("What pass@1 on QuuxBench-9 does the code generation paper report?")
    trace = retrieve(absent, resources, indexed.settings).trace
    first = trace["rounds"][0]
    assert not first["verify"]["value"]["sufficient"]
    assert first["verify"]["value"]["missing"] == "pass@1 QuuxBench-9 code generation paper"
    # Round 1 searched that clause already: nothing new to search, so retrieval stops.
    assert first["subqueries"][1] == "pass@1 QuuxBench-9 code generation paper"
    assert trace["stop_reason"] == "no_new_subquery" and len(trace["rounds"]) == 2


def scripted_llm(
    indexed: Indexed, resources: RetrievalResources, tmp_path: Path
) -> tuple[Settings, RetrievalResources]:
    """Settings and resources whose decomposer and verifier are the scripted provider, one
    reply per call in order (no cache: a repeated prompt takes the next reply too)."""
    settings = apply_overrides(
        indexed.settings,
        {
            "runtime.artifact_root": tmp_path,
            "llm.backend": "litellm",
            "llm.model": "scripted/test",
            "llm.max_retries": 0,
            "llm.cache": False,
            "retrieve.decompose.backend": "llm",
            "retrieve.verify.backend": "llm",
        },
    )
    return settings, replace(resources, client=LlmClient.from_settings(settings))


ROUND_ONE = ["LexiTune pass@1", "LexiTune RepoBench-L", "code generation results", "LexiTune"]
ROUND_ONE_REPLIES = [  # the decomposer's, then the verifier's
    json.dumps({"subqueries": ROUND_ONE}),
    json.dumps({"evidence_papers": [], "sufficient": False, "missing": "PolyCoder-S"}),
]


def test_three_llm_rounds_decompose_what_the_llm_verifier_reports_missing(
    indexed: Indexed, resources: RetrievalResources, scripted: ScriptedLlm, tmp_path: Path
) -> None:
    scripted.script = [
        *ROUND_ONE_REPLIES,
        # A repeat of round 1 (reordered) is dropped; nothing pads a later round.
        json.dumps({"subqueries": ["PolyCoder-S pass@1", "RepoBench-L LexiTune"]}),
        json.dumps({"evidence_papers": [], "sufficient": False, "missing": ""}),
        json.dumps({"subqueries": ["PolyCoder-S baseline table"]}),
        json.dumps({"evidence_papers": [], "sufficient": False, "missing": "everything"}),
    ]
    settings, llm = scripted_llm(indexed, resources, tmp_path)
    question = ask("In the LexiTune paper, what pass@1 does the PolyCoder-S baseline reach?")
    trace = retrieve(question, llm, settings).trace
    rounds = trace["rounds"]

    assert [r["round"] for r in rounds] == [1, 2, 3] and trace["stop_reason"] == "max_rounds"
    assert all(r["decompose"]["backend"] == "llm" for r in rounds)
    assert searched(rounds[0]) == [question.question, *ROUND_ONE]
    assert rounds[1]["subqueries"] == searched(rounds[1]) == ["PolyCoder-S pass@1"]
    assert rounds[2]["subqueries"] == searched(rounds[2]) == ["PolyCoder-S baseline table"]
    # Rounds 2 and 3 send the later-round prompt: what was issued and what is missing.
    decompose_prompts = scripted.prompts[0::2]
    assert "Subqueries already issued" not in decompose_prompts[0]
    assert "- LexiTune pass@1" in decompose_prompts[1] and "PolyCoder-S" in decompose_prompts[1]
    assert "- PolyCoder-S pass@1" in decompose_prompts[2]
    assert "Search from a different angle" in decompose_prompts[2]  # nothing named missing


def test_an_llm_round_that_proposes_nothing_new_ends_retrieval(
    indexed: Indexed, resources: RetrievalResources, scripted: ScriptedLlm, tmp_path: Path
) -> None:
    scripted.script = [*ROUND_ONE_REPLIES, json.dumps({"subqueries": ["lexitune PASS@1"]})]
    settings, llm = scripted_llm(indexed, resources, tmp_path)
    trace = retrieve(ask("What pass@1 does LexiTune reach?"), llm, settings).trace

    assert [r["round"] for r in trace["rounds"]] == [1, 2]
    assert trace["rounds"][1]["subqueries"] == [] and trace["stop_reason"] == "no_new_subquery"


# --------------------------------------------------------------------------- selection


def test_target_aware_selection_takes_no_more_group_papers_than_the_plan_wants(
    indexed: Indexed, resources: RetrievalResources
) -> None:
    # Three answer targets, each the method of one paper, but the plan wants two papers: the
    # groups' best papers fill two places and relevance order takes over from the third.
    method = {paper: record.title.split(":")[0] for paper, record in resources.papers.items()}

    def names_of(paper: str) -> set[str]:
        text = resources.paper_text(paper)
        return {name for name in method.values() if name_pattern(name).search(text)}

    # Papers that name no other paper's method, so each group's best paper is its own.
    targets = [paper for paper in sorted(method) if names_of(paper) == {method[paper]}][:3]
    names = [method[paper] for paper in targets]
    assert len(targets) == 3
    plan = Plan(
        desired_papers=2,
        target_groups=[
            TargetGroup(name=name, role="answer_target", query=name, anchors=[name])
            for name in names
        ],
    )
    others = [paper for paper in sorted(resources.papers) if not names_of(paper) & set(names)]
    fused = others + targets
    candidates = select_candidates(fused, plan, resources, indexed.settings)

    assert candidates[:2] == targets[:2]
    assert candidates[2:] == others + targets[2:]


# --------------------------------------------------------------------------- batching


def test_each_round_encodes_each_new_subquery_once_alone_and_reranks_without_encoding(
    indexed: Indexed, resources: RetrievalResources
) -> None:
    real = resources.hybrid.encoder
    counting = CountingEncoder(real)
    encoder = CachedQueryEncoder(counting)
    hybrid = resources.hybrid
    counted = replace(
        resources,
        hybrid=HybridSearcher(
            hybrid.chunk_bm25, hybrid.paper_bm25, hybrid.dense, encoder, hybrid.settings,
            hybrid.paper_of,
        ),
        reranker=EmbeddingReranker(encoder, cast(EmbeddingReranker, resources.reranker).stored),
    )  # fmt: skip
    trace = retrieve(ABSENT, counted, indexed.settings).trace
    rounds = [r for r in trace["rounds"] if r["searches"]]

    # Per round: each subquery not encoded before, alone (a vector must not depend on its
    # batch mates), then each new PRF expansion; the reranker takes the subqueries' vectors
    # from the first.
    expected: list[list[str]] = []
    for round_trace in rounds:
        for text in [
            *searched(round_trace),
            *(search["prf_query"] for search in round_trace["searches"]),
        ]:
            if [text] not in expected:
                expected.append([text])
    assert counting.calls == expected


def test_expansion_neighbours_are_remembered_per_seed_and_equal_fresh_ones(
    indexed: Indexed, resources: RetrievalResources
) -> None:
    relate = apply_overrides(indexed.settings, {"relate.neighbors_per_seed": 7}).relate
    signals = resources.signals(relate)
    fresh = build_signals(relate, resources.paper_vectors, resources.coupling, resources.paper_bm25)

    assert resources.signals(relate) is signals
    assert set(signals) == set(fresh) == {"embedding", "coupling", "bm25"}
    for name, signal in signals.items():
        for seed in sorted(resources.papers):
            assert signal(seed) == fresh[name](seed)
            assert signal(seed) is signal(seed)  # the list computed the first time
    # Other settings give other neighbours: they are not served from this cache.
    assert len(resources.signals(indexed.settings.relate)["embedding"](seed)) > 7
