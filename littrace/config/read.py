"""Settings of reading and answering: the local reader, selection, evidence, IntrAgent, tables."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from littrace.config.base import Section, StepBackend


class LocalReadSettings(Section):
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


class SelectSettings(Section):
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


class EvidenceSettings(Section):
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


class IntrAgentSettings(Section):
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


class TableSettings(Section):
    min_agreement: int = Field(
        default=2,
        ge=1,
        description="A repeated value proposal fills a cell only when this many agree; "
        "otherwise the baseline cell stays (TRACE §3.3).",
    )


class TableViewSettings(Section):
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


class ReadSettings(Section):
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
