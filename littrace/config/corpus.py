"""Settings of PDF conversion and chunking (the corpus stage)."""

from __future__ import annotations

from pydantic import Field

from littrace.config.base import PositiveInt, Section


class ChunkSettings(Section):
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


class CorpusSettings(Section):
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
