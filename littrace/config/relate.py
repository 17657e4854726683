"""Settings of paper-to-paper expansion (Ranking B) and the A/B fusion."""

from __future__ import annotations

from pydantic import Field

from littrace.config.base import Section


class SignalSettings(Section):
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


class AbFusionSettings(Section):
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


class RelateSettings(Section):
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
