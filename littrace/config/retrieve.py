"""Settings of question-anchored retrieval (Ranking A): planner, decomposition, PRF, reranking, verification."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from littrace.config.base import Section, StepBackend


class IndexWeights(Section):
    chunk_bm25: float = Field(
        default=1.0,
        ge=0,
        description="RRF weight of chunk-level BM25 (equal weights, Lit3R §2.1.2).",
    )
    paper_bm25: float = Field(
        default=1.0,
        ge=0,
        description="RRF weight of paper-level BM25 (equal weights, Lit3R §2.1.2).",
    )
    dense: float = Field(
        default=1.0,
        ge=0,
        description="RRF weight of the dense chunk index (equal weights, Lit3R §2.1.2).",
    )


class PlannerSettings(Section):
    backend: StepBackend = Field(
        default="heuristic",
        description="Question planner (venue/year constraints, target groups with roles, "
        "desired paper count): 'llm' is TRACE §3.1's temperature-zero planner.",
    )
    apply_constraints: bool = Field(
        default=True,
        description="Filter candidates by answer-scoped venue/year constraints before covering "
        "target groups (TRACE §3.1, Stage 4).",
    )
    fallback_on_invalid: bool = Field(
        default=True,
        description="Invalid planner output gives a visible conservative plan instead of "
        "failing the record (TRACE §3.1).",
    )


class DecomposeSettings(Section):
    backend: StepBackend = Field(
        default="heuristic", description="Query decomposition (Lit3R §2.1.2)."
    )
    first_round: int = Field(default=4, ge=1, description="Subqueries in round 1 (Lit3R §2.1.2).")
    later_rounds_max: int = Field(
        default=4,
        ge=0,
        description="At most this many new subqueries per later round; none stops retrieval "
        "(Lit3R §2.1.2).",
    )
    venue_year_tag: bool = Field(
        default=True,
        description="Begin every subquery with '[VENUE YEAR]' when the question names both "
        "(Lit3R §2.1.2).",
    )


class PrfSettings(Section):
    enabled: bool = Field(
        default=True,
        description="Pseudo-relevance feedback once per subquery per round (Lit3R §2.1.2).",
    )
    chars: int = Field(
        default=512,
        ge=1,
        description="Characters of the top paper's title+abstract appended to the subquery "
        "(Lit3R §2.1.2).",
    )
    feedback_papers: int = Field(
        default=1, ge=1, description="Top papers whose opening is appended (Lit3R §2.1.2: one)."
    )
    original_weight: float = Field(
        default=1.0,
        ge=0,
        description="RRF weight of the original ranking against the expanded one (equal, "
        "Lit3R §2.1.2).",
    )
    expanded_weight: float = Field(
        default=1.0,
        ge=0,
        description="RRF weight of the PRF-expanded ranking (equal, Lit3R §2.1.2).",
    )


class RerankSettings(Section):
    backend: Literal["qwen3", "embedding", "none"] = Field(
        default="embedding",
        description="Chunk reranker: Qwen3-Reranker weights, cosine of the dense encoder, or "
        "none (retrieval order). Lit3R §2.1.2 used Qwen3-Reranker-8B.",
    )
    model: str | None = Field(
        default=None, description="Local Qwen3-Reranker directory; required by backend 'qwen3'."
    )
    instruction: str = Field(
        default="Given a question about scientific papers, judge whether the passage helps answer it",
        description="Task instruction in the Qwen3-Reranker prompt.",
    )
    max_chunks: int = Field(
        default=200,
        ge=1,
        description="Chunks of the fused, PRF-expanded ranking scored per subquery (Lit3R §2.1.2).",
    )
    retrieval_weight: float = Field(
        default=0.6,
        ge=0,
        description="Weight of the retrieval rank in s=0.6/(k+r_ret)+0.4/(k+r_rr) (Lit3R §2.1.2).",
    )
    reranker_weight: float = Field(
        default=0.4, ge=0, description="Weight of the reranker rank in the blend (Lit3R §2.1.2)."
    )
    k: int = Field(default=60, ge=0, description="k of the blended rank score (Lit3R §2.1.2).")
    pin_top: int = Field(
        default=20,
        ge=0,
        description="Top chunks of the retrieval ranking pinned above all others (Lit3R §2.1.2).",
    )
    pool_top: int = Field(
        default=20,
        ge=1,
        description="Highest-scoring chunks per subquery added to the shared pool (Lit3R §2.1.2).",
    )
    batch_size: int = Field(default=16, ge=1, description="Query-chunk pairs per forward pass.")
    max_length: int = Field(default=1024, ge=1, description="Token limit per query-chunk pair.")
    device: str = Field(default="cpu", description="torch device of the reranker.")
    dtype: Literal["float32", "float16", "bfloat16"] = Field(
        default="float32", description="Reranker weight dtype (Lit3R App. A ran fp16)."
    )


class VerifySettings(Section):
    backend: StepBackend = Field(
        default="heuristic", description="Evidence verification after each round (Lit3R §2.1.2)."
    )
    top_papers: int = Field(
        default=20,
        ge=1,
        description="Pool papers, ranked by their best chunk, shown to the verifier "
        "(Lit3R §2.1.2).",
    )
    chunks_per_paper: int = Field(
        default=2, ge=1, description="Best chunks shown per paper (Lit3R §2.1.2)."
    )
    chunk_chars: int = Field(
        default=1800,
        ge=1,
        description="Each shown chunk is cut to this many characters (Lit3R §2.1.2, App. C).",
    )


class RetrieveSettings(Section):
    max_rounds: int = Field(
        default=3, ge=1, description="Rounds of decompose → retrieve → verify (Lit3R §2.1.2)."
    )
    include_question: bool = Field(
        default=True,
        description="Retrieve with the question itself as well as its subqueries (Lit3R §2.1: "
        "Ranking A aggregates evidence for the question and its subqueries).",
    )
    depth: int = Field(
        default=1000,
        ge=1,
        description="Engineering: hits taken from each index per query before paper-level fusion.",
    )
    rrf_k: int = Field(
        default=60,
        ge=0,
        description="RRF k of the paper-level fusion of the three indexes and of PRF "
        "(Lit3R §2.1.2).",
    )
    weights: IndexWeights = Field(default_factory=IndexWeights, description="Index RRF weights.")
    planner: PlannerSettings = Field(default_factory=PlannerSettings, description="TRACE planner.")
    decompose: DecomposeSettings = Field(
        default_factory=DecomposeSettings, description="Subquery generation."
    )
    prf: PrfSettings = Field(default_factory=PrfSettings, description="Pseudo-relevance feedback.")
    rerank: RerankSettings = Field(default_factory=RerankSettings, description="Chunk reranking.")
    verify: VerifySettings = Field(
        default_factory=VerifySettings, description="Evidence verification."
    )
    target_aware: bool = Field(
        default=True,
        description="TRACE §3.1 selection: cover each answer-target group with its own best "
        "paper before filling by fused relevance; false gives plain A/B fusion order.",
    )
    trace_top: int = Field(
        default=20,
        ge=1,
        description="Engineering: papers of each index ranking and of each fused ranking kept "
        "in the retrieval trace.",
    )
