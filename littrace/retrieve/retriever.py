"""The Lit3R retriever for one question: plan, up to three rounds of question-anchored
retrieval, Ranking A, paper-to-paper expansion (Ranking B), A/B fusion and TRACE's
target-aware selection, with everything recorded in a trace.

Per round (Lit3R §2.1.2): decompose → hybrid search with PRF (the round's subqueries in
one batch: :meth:`~littrace.retrieve.hybrid.HybridSearcher.search_with_prf_many`) → for every
subquery: chunk reranking → the shared pool; then evidence verification on the pool's top
papers. Retrieval stops when the evidence is sufficient, when decomposition returns no new
subquery, or after ``retrieve.max_rounds``. Ranking A is the pool's papers by their best
chunk; the seeds of Ranking B (§2.1.3) are Ranking A's top ``relate.seed_top_a`` papers and
the verified papers.

Example:
    >>> resources = RetrievalResources.open(indexes, corpus, settings)  # doctest: +SKIP
    >>> result = retrieve(question, resources, settings)  # doctest: +SKIP
    >>> result.candidates[:3], result.trace["rounds"][0]["subqueries"]  # doctest: +SKIP
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from littrace.artifacts import Artifact
from littrace.config import RelateSettings, Settings
from littrace.corpus.document import Chunk, PaperRecord, table_to_records
from littrace.fusion import round_robin
from littrace.index.bm25 import Bm25Searcher
from littrace.index.citations import CouplingGraph
from littrace.index.dense import load_vectors
from littrace.index.encoders import load_encoder
from littrace.index.papers import PaperVectors
from littrace.index.stage import BM25_DIR, HNSW_DIR, VECTORS_DIR, IndexArtifacts
from littrace.littraceqa import Question
from littrace.llm.client import CallRecord, LlmClient
from littrace.llm.replies import Plan
from littrace.relate.expand import AbPaper, Signal, ab_fusion, build_signals, expand
from littrace.retrieve.decompose import decompose, normalise
from littrace.retrieve.hybrid import HybridResult, HybridSearcher, PrfResult
from littrace.retrieve.plan import name_pattern, plan_question
from littrace.retrieve.queryvectors import CachedQueryEncoder
from littrace.retrieve.rerank import Reranker, load_reranker, rerank_chunks
from littrace.retrieve.shared_pool import SharedPool
from littrace.retrieve.verify import Lookup, verify

NEIGHBOUR_CACHE = 4096
"""Seeds whose neighbour lists each expansion signal keeps (200 ids each by default)."""


@dataclass
class RetrievalResources:
    """Everything one process needs to retrieve: open indexes, models and corpus metadata."""

    hybrid: HybridSearcher
    paper_vectors: PaperVectors
    coupling: CouplingGraph
    reranker: Reranker
    papers: dict[str, PaperRecord]
    chunks: dict[str, Chunk]
    client: LlmClient | None
    # Expansion signals per relate settings (as JSON), each remembering its seeds' neighbours.
    _signals: dict[str, dict[str, Signal]] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def open(
        cls, indexes: IndexArtifacts, corpus: Artifact, settings: Settings
    ) -> RetrievalResources:
        """Open the index artifacts built from ``corpus`` and load its paper and chunk tables."""
        # The reranker asks for the subquery vectors the dense search has just computed.
        encoder = CachedQueryEncoder(load_encoder(settings.index.encoder))
        chunks = {c.chunk_id: c for c in table_to_records(corpus.table("chunks"), Chunk)}
        # A bound dict lookup, not a lambda: fusion maps hundreds of thousands of hits a question.
        paper_of = {chunk_id: chunk.paper_id for chunk_id, chunk in chunks.items()}.__getitem__
        hybrid = HybridSearcher.from_dirs(
            indexes.path("bm25-chunks") / BM25_DIR,
            indexes.path("bm25-papers") / BM25_DIR,
            indexes.path("hnsw") / HNSW_DIR,
            encoder,
            settings,
            paper_of=paper_of,
        )
        resources = cls(
            hybrid=hybrid,
            paper_vectors=PaperVectors.load(indexes.path("paper-vectors") / VECTORS_DIR),
            coupling=CouplingGraph.from_table(
                indexes.artifacts["citation-graph"].table("coupling")
            ),
            reranker=load_reranker(
                settings.retrieve.rerank,
                encoder,
                load_vectors(indexes.path("vectors") / VECTORS_DIR),
            ),
            papers={p.paper_id: p for p in table_to_records(corpus.table("papers"), PaperRecord)},
            chunks=chunks,
            client=LlmClient.from_settings(settings) if settings.llm.backend != "none" else None,
        )
        # What is loaded now lives as long as the process: frozen, the collector stops walking
        # these hundreds of thousands of records on every full collection (a tenth of a second
        # per question at 100k chunks).
        gc.freeze()
        return resources

    @property
    def paper_bm25(self) -> Bm25Searcher:
        return self.hybrid.paper_bm25

    def paper_text(self, paper_id: str) -> str:
        """A paper's title and abstract: the text PRF appends (Lit3R §2.1.2)."""
        paper = self.papers.get(paper_id)
        return f"{paper.title}\n{paper.abstract}" if paper else ""

    def chunk_text(self, chunk_id: str) -> str | None:
        chunk = self.chunks.get(chunk_id)
        return chunk.text if chunk else None

    def signals(self, relate: RelateSettings) -> dict[str, Signal]:
        """The expansion signals ``relate`` enables over these indexes. A seed's neighbours
        depend only on the indexes and ``relate``, so each is computed once per process (up
        to ``NEIGHBOUR_CACHE`` seeds per signal)."""
        key = relate.model_dump_json()
        if key not in self._signals:
            built = build_signals(relate, self.paper_vectors, self.coupling, self.paper_bm25)
            self._signals[key] = {
                name: lru_cache(maxsize=NEIGHBOUR_CACHE)(signal) for name, signal in built.items()
            }
        return self._signals[key]

    def lookup(self) -> Lookup:
        venues = sorted({paper.venue for paper in self.papers.values() if paper.venue})
        return Lookup(paper=self.papers.get, chunk=self.chunks.get, venues=tuple(venues))


@dataclass
class RetrievalResult:
    """The final candidate papers, best first, and the full trace of how they were found."""

    query_id: str
    plan: Plan
    candidates: list[str]
    ranking_a: list[str]
    ranking_b: list[str]
    verified: list[str]
    pool: SharedPool
    trace: dict[str, Any]


def _record(record: CallRecord | None) -> dict[str, Any] | None:
    return record.model_dump() if record is not None else None


def _step(backend: str, record: CallRecord | None, fallback_reason: str | None) -> dict[str, Any]:
    return {"backend": backend, "fallback_reason": fallback_reason, "llm": _record(record)}


def _fallbacks(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step that fell back to its model-free backend, with the reason (one list)."""
    steps: list[tuple[str, int | None, dict[str, Any]]] = [("plan", None, trace["plan"])]
    for round_trace in trace["rounds"]:
        number = round_trace["round"]
        steps.append(("decompose", number, round_trace["decompose"]))
        if "verify" in round_trace:
            steps.append(("verify", number, round_trace["verify"]))
    return [
        {"step": step, "round": number, "reason": entry["fallback_reason"]}
        for step, number, entry in steps
        if entry["fallback_reason"] is not None
    ]


def retrieve(
    question: Question, resources: RetrievalResources, settings: Settings
) -> RetrievalResult:
    """Run the whole retriever for one question (see the module docstring for the steps)."""
    started = time.perf_counter()
    config = settings.retrieve
    planned = plan_question(question, config.planner, resources.client)
    plan = planned.plan
    trace: dict[str, Any] = {
        "query_id": question.query_id,
        "backends": {
            "planner": config.planner.backend,
            "decompose": config.decompose.backend,
            "verify": config.verify.backend,
            "rerank": config.rerank.backend,
            "encoder": settings.index.encoder.model,
            "llm": settings.llm.model if resources.client is not None else None,
        },
        "plan": {
            "value": plan.model_dump(),
            **_step(planned.backend, planned.record, planned.fallback_reason),
            "seconds": round(time.perf_counter() - started, 3),
        },
        "rounds": [],
    }
    pool = SharedPool(paper_of=resources.hybrid.paper_of)
    lookup = resources.lookup()
    issued: list[str] = []
    verified: list[str] = []
    missing = ""
    stop_reason = "max_rounds"
    for round_number in range(1, config.max_rounds + 1):
        round_started = time.perf_counter()
        decomposed = decompose(
            question, plan, round_number, issued, missing, config.decompose, resources.client
        )
        round_trace: dict[str, Any] = {
            "round": round_number,
            "subqueries": decomposed.subqueries,
            "decompose": _step(decomposed.backend, decomposed.record, decomposed.fallback_reason),
            "searches": [],
        }
        trace["rounds"].append(round_trace)
        if not decomposed.subqueries:
            stop_reason = "no_new_subquery"
            break
        queries = list(decomposed.subqueries)
        # Ranking A gathers evidence for the question itself too (Lit3R §2.1); the model-free
        # decomposer already starts with it, an LLM's subqueries may not.
        asked = normalise(question.question) in {normalise(q) for q in queries}
        if round_number == 1 and config.include_question and not asked:
            queries.insert(0, question.question)
        issued.extend(queries)
        searched = time.perf_counter()
        found = resources.hybrid.search_with_prf_many(queries, resources.paper_text)
        round_trace["search_seconds"] = round(time.perf_counter() - searched, 3)
        for subquery, result in zip(queries, found, strict=True):
            round_trace["searches"].append(_rerank(subquery, result, resources, settings, pool))
        verdict = verify(question, plan, pool, config.verify, resources.client, lookup)
        verification = verdict.verification
        verified.extend(p for p in verification.evidence_papers if p not in verified)
        round_trace["verify"] = {
            "value": verification.model_dump(),
            **_step(verdict.backend, verdict.record, verdict.fallback_reason),
        }
        round_trace["pool_chunks"] = len(pool)
        round_trace["pool_top"] = [
            {"paper_id": paper, "score": score}
            for paper, score in pool.paper_ranking()[: config.verify.top_papers]
        ]
        round_trace["seconds"] = round(time.perf_counter() - round_started, 3)
        if verification.sufficient:
            stop_reason = "sufficient"
            break
        missing = verification.missing

    ranking_a = [paper for paper, _ in pool.paper_ranking()]
    related = relate_and_select(plan, ranking_a, verified, resources, settings)
    if related.relate_trace is not None:
        trace["relate"] = related.relate_trace
    ranking_b, fused, candidates = related.ranking_b, related.fused, related.candidates
    trace.update(
        stop_reason=stop_reason,
        verified=verified,
        ranking_a=ranking_a,
        fused=[
            {"paper_id": p.paper_id, "score": p.score, "rank_a": p.rank_a, "rank_b": p.rank_b}
            for p in fused
        ],
        candidates=candidates,
        fallbacks=_fallbacks(trace),
        seconds=round(time.perf_counter() - started, 3),
    )
    return RetrievalResult(
        question.query_id, plan, candidates, ranking_a, ranking_b, verified, pool, trace
    )


@dataclass
class Related:
    """What Relate and the selection make of Ranking A: Ranking B (with its trace, None when
    Relate is off), the A/B fusion and the final candidates."""

    ranking_b: list[str]
    relate_trace: dict[str, Any] | None
    fused: list[AbPaper]
    candidates: list[str]


def relate_and_select(
    plan: Plan,
    ranking_a: list[str],
    verified: list[str],
    resources: RetrievalResources,
    settings: Settings,
) -> Related:
    """Ranking B from Ranking A's top papers and the verified ones, fused with A, then the
    candidates selected (Lit3R §2.1.3, TRACE §3.1). It reads no ``retrieve`` round state,
    so a retrieval trace's ``ranking_a``, ``verified`` and plan replay it exactly."""
    relate = settings.relate
    started = time.perf_counter()
    ranking_b: list[str] = []
    relate_trace = None
    if relate.enabled and ranking_a:
        seeds = ranking_a[: relate.seed_top_a]
        if relate.seed_verified:
            seeds += [paper for paper in verified if paper not in seeds]
        expanded = expand(seeds, resources.signals(relate), relate)
        ranking_b = expanded.papers
        relate_trace = {
            "seeds": seeds,
            "merged": expanded.merged,
            "ranking_b": ranking_b,
            "seconds": round(time.perf_counter() - started, 3),
        }
    fused = ab_fusion(ranking_a, ranking_b, relate.fusion)
    candidates = select_candidates([paper.paper_id for paper in fused], plan, resources, settings)
    return Related(ranking_b, relate_trace, fused, candidates)


def _rerank(
    subquery: str,
    found: PrfResult,
    resources: RetrievalResources,
    settings: Settings,
    pool: SharedPool,
) -> dict[str, Any]:
    """One subquery's search result: its fused chunks reranked, into the pool."""
    started = time.perf_counter()
    # Only the reranker's window needs the chunks' texts.
    window = found.chunks[: settings.retrieve.rerank.max_chunks]
    ranked = [(chunk_id, resources.chunk_text(chunk_id) or "") for chunk_id in window]
    reranked = rerank_chunks(subquery, ranked, resources.reranker, settings.retrieve.rerank)
    pool.add(reranked, resources.chunk_text)
    top = settings.retrieve.trace_top
    return {
        "subquery": subquery,
        "prf_query": found.prf_query,
        "index_papers": _index_papers(found.original, top),
        "prf_index_papers": _index_papers(found.expanded, top) if found.expanded else None,
        "fused_papers": [paper for paper, _ in found.papers[:top]],
        "reranked": [
            {
                "chunk_id": c.chunk_id,
                "score": c.score,
                "reranker_score": c.reranker_score,
                "retrieval_rank": c.retrieval_rank,
                "rerank_rank": c.rerank_rank,
                "pinned": c.pinned,
            }
            for c in reranked
        ],
        "seconds": round(time.perf_counter() - started, 3),
    }


def _index_papers(result: HybridResult, top: int) -> dict[str, list[str]]:
    """Each index's best ``top`` papers for one sweep (hits per index, as paper rankings)."""
    return {
        name: [paper for paper, _ in ranking[:top]]
        for name, ranking in result.paper_rankings.items()
    }


def select_candidates(
    fused: list[str], plan: Plan, resources: RetrievalResources, settings: Settings
) -> list[str]:
    """TRACE §3.1 selection: venue/year constraints first, then cover every answer-target
    group with its own best paper (group-local rank 1, 2, ...) before filling by relevance."""
    ranked = fused
    venue, year = plan.venue, plan.year
    if settings.retrieve.planner.apply_constraints and venue and year:

        def matches(paper_id: str) -> bool:
            paper = resources.papers.get(paper_id)
            return bool(paper and paper.year == year and venue.lower() in paper.venue.lower())

        # Papers meeting the constraints come first; the rest stay, in order, as a fallback
        # for metadata that spells the venue differently.
        ranked = [p for p in fused if matches(p)] + [p for p in fused if not matches(p)]
    top_n = settings.relate.fusion.top_n
    if not settings.retrieve.target_aware:
        return ranked[:top_n]
    groups = [g for g in plan.target_groups if g.role == "answer_target"]
    if len(groups) < 2:
        return ranked[:top_n]
    group_rankings = [
        [paper for paper in ranked if _mentions(paper, [group.name, *group.anchors], resources)]
        for group in groups
    ]
    selected = round_robin(group_rankings, limit=plan.desired_papers)
    return (selected + [paper for paper in ranked if paper not in selected])[:top_n]


def _mentions(paper_id: str, names: list[str], resources: RetrievalResources) -> bool:
    """Whether a paper's title or abstract names any of ``names`` (a group's own ranking)."""
    text = resources.paper_text(paper_id)
    return any(name and name_pattern(name).search(text) for name in names)
