"""One place that picks the reading and synthesis backends from ``read.reader``/``read.backend``.

The model-free backends are :class:`~littrace.read.heuristic.HeuristicReader` and
:func:`~littrace.read.synthesize.synthesize`; the LLM backends (Lit3R, IntrAgent) take them as
their recorded fallback.

Example:
    >>> from littrace.config import Settings
    >>> reader = paper_reader(Settings(), None)
    >>> type(reader).__name__
    'HeuristicReader'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from littrace.config import Settings
from littrace.evaluate.official import evidence_key
from littrace.littraceqa import Question
from littrace.llm.client import LlmClient
from littrace.llm.replies import Plan
from littrace.read.heuristic import HeuristicReader, covered_groups
from littrace.read.intragent import IntrAgentReader
from littrace.read.lit3r import Lit3rReader
from littrace.read.localize import localize, paper_candidates
from littrace.read.localize_llm import localize_llm
from littrace.read.records import (
    EvidenceItem,
    PaperContext,
    PaperReader,
    Synthesis,
    SynthesisInput,
    Synthesizer,
)
from littrace.read.synthesize import synthesize
from littrace.read.synthesize_llm import synthesize_llm

# (question, plan, selected papers, contexts) -> (evidence items, the localizer's steps)
Localizer = Callable[
    [Question, Plan, list[str], dict[str, PaperContext]],
    tuple[list[EvidenceItem], list[dict[str, Any]]],
]


def paper_reader(settings: Settings, client: LlmClient | None) -> PaperReader:
    """The paper-local reader for ``settings.read`` (model-free without a client)."""
    model_free = HeuristicReader(settings.read.local)
    if settings.read.backend != "llm" or client is None:
        return model_free
    reader = IntrAgentReader if settings.read.reader == "intragent" else Lit3rReader
    return reader(client, settings.read, model_free, covers=covered_groups)


def synthesizer(settings: Settings, client: LlmClient | None) -> Synthesizer:
    """The cross-paper synthesis step for ``settings.read`` (model-free without a client)."""
    if settings.read.backend != "llm" or client is None:
        return synthesize
    llm_client = client

    def synthesize_with_llm(data: SynthesisInput) -> Synthesis:
        readings = [data.readings[paper] for paper in data.papers if paper in data.readings]
        return synthesize_llm(
            data.question,
            data.plan,
            readings,
            data.contexts,
            llm_client,
            settings.read,
            lambda: synthesize(data),
        )

    return synthesize_with_llm


def evidence_localizer(settings: Settings, client: LlmClient | None) -> Localizer:
    """The evidence localizer for ``settings.read.evidence`` (model-free without a client)."""
    read = settings.read

    def model_free(
        question: Question, plan: Plan, papers: list[str], contexts: dict[str, PaperContext]
    ) -> tuple[list[EvidenceItem], list[dict[str, Any]]]:
        return localize(question, plan, papers, contexts, read), []

    if read.evidence.backend != "llm" or client is None:
        return model_free
    llm_client = client

    def with_llm(
        question: Question, plan: Plan, papers: list[str], contexts: dict[str, PaperContext]
    ) -> tuple[list[EvidenceItem], list[dict[str, Any]]]:
        def relevance(paper_id: str) -> dict[tuple[str, str, str, str], float]:
            candidates = paper_candidates(question, plan, contexts[paper_id])
            return {evidence_key(item.submission()): item.score for item in reversed(candidates)}

        localized = localize_llm(
            question,
            papers,
            contexts,
            read,
            llm_client,
            lambda ids: localize(question, plan, ids, contexts, read),
            relevance,
        )
        return localized.items, localized.steps

    return with_llm
