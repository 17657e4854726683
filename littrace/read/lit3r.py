"""Lit3R's paper-local judge (§2.2.1): one LLM call per candidate paper.

The model sees the paper's title, venue and year and its ``read.local.max_chunks`` best chunks
(:func:`littrace.read.passages.best_chunks`: pool chunks by pool score, then question overlap),
each cut to ``read.local.chunk_chars``, a table chunk as the table's cells with their row and
column header paths and the question's candidate cells (:class:`littrace.read.passages.PaperView`),
in the ``read_paper`` prompt, and answers with a
:class:`littrace.llm.replies.PaperJudgement`: relevant, sufficient, supporting chunks.

Only supporting chunk identifiers that were shown are kept. A reply the client cannot use
(invalid after its repair round, or a provider failure) and a hopeless one (relevant, but
citing no shown chunk) give the model-free reading instead, and the first ``steps`` entry says
so (backend, ``fallback_reason``, the call record).

A judged paper's ``score`` is 1.0 when relevant and sufficient, 0.5 when relevant only, else 0.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> from littrace.config import LlmSettings, ReadSettings
    >>> from littrace.corpus.document import Chunk, PaperRecord
    >>> paper = PaperRecord("p1", "Lanternfish", (), "", "ACL", 2023, True)
    >>> context = PaperContext(paper, (Chunk("p1#0001", "p1", "body", 1, "F1 91.4"),), (), {}, 1)
    >>> question = Question(query_id="q", benchmark="LitTraceQA", question="Lanternfish F1?",
    ...                     answer_types=["freeform"])
    >>> def model_free(question: Question, plan: Plan, context: PaperContext) -> PaperReading:
    ...     return PaperReading(context.paper_id, True, False, 0.3, ["p1#0001"])
    >>> client = LlmClient(LlmSettings(backend="none"), Path(tempfile.mkdtemp()))
    >>> reading = Lit3rReader(client, ReadSettings(), model_free)(question, Plan(), context)
    >>> reading.backend, reading.steps[0]["fallback_reason"]
    ('heuristic', 'backend none')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from littrace.config import ReadSettings
from littrace.corpus.document import Chunk
from littrace.littraceqa import Question
from littrace.llm import LlmClient, render
from littrace.llm.replies import PaperJudgement, Plan
from littrace.read.passages import PaperView, answer_text, best_chunks, llm_step
from littrace.read.records import PaperContext, PaperReader, PaperReading

__all__ = ["BACKEND", "Covers", "Lit3rReader", "LlmPaperReader", "judgement_score", "render_paper"]

BACKEND = "lit3r"
# The target groups a paper is the subject of, from the question, the plan and its title.
Covers = Callable[[Question, Plan, str], list[str]]


def judgement_score(relevant: bool, sufficient: bool) -> float:
    """An LLM reading's score: relevant and sufficient first, relevant only next."""
    if not relevant:
        return 0.0
    return 1.0 if sufficient else 0.5


def render_paper(view: PaperView, chunks: list[Chunk], chunk_chars: int) -> str:
    """The ``{paper}`` block of ``read_paper``: the paper's header and the shown chunks."""
    paper = view.context.paper
    lines = [f"[{paper.paper_id}] {paper.title}".rstrip()]
    lines.append(f"Venue: {paper.venue or 'unknown'} {paper.year or ''}".rstrip())
    lines += view.passages(chunks, chunk_chars)
    return "\n\n".join(lines)


class LlmPaperReader:
    """What the LLM paper readers (Lit3R's judge, IntrAgent's loop) are built from.

    ``fallback`` is the model-free reader, used when the model gives nothing usable;
    ``covers(question, plan, title)`` names the target groups a paper is the subject of.
    """

    def __init__(
        self,
        client: LlmClient,
        settings: ReadSettings,
        fallback: PaperReader,
        covers: Covers | None = None,
    ) -> None:
        self.client = client
        self.settings = settings
        self.fallback = fallback
        self.covers = covers

    def view(self, question: Question, context: PaperContext) -> PaperView:
        """How this reader's prompts show ``context`` (tables as cells) for ``question``."""
        return PaperView(question, context, self.settings.table_view)

    def _covers(self, question: Question, plan: Plan, context: PaperContext) -> list[str]:
        """The target groups the paper is the subject of (none without ``covers``)."""
        return self.covers(question, plan, context.paper.title) if self.covers else []


class Lit3rReader(LlmPaperReader):
    """A :class:`~littrace.read.records.PaperReader` asking the model to judge each paper,
    falling back to the model-free reader when the model's reply is unusable."""

    def __call__(self, question: Question, plan: Plan, context: PaperContext) -> PaperReading:
        local = self.settings.local
        chunks = best_chunks(question, context, local.max_chunks)
        if not chunks:
            return self._fall_back(question, plan, context, [], "the paper has no chunks")
        shown = {chunk.chunk_id for chunk in chunks}
        messages = render(
            "read_paper",
            question=question.question,
            answer_spec=answer_text(question),
            paper=render_paper(self.view(question, context), chunks, local.chunk_chars),
        )
        result = self.client.complete_json(
            "read_paper", messages, PaperJudgement, fallback=lambda: PaperJudgement(relevant=False)
        )
        if result.fallback:
            step = llm_step("read_paper", "heuristic", result.record, result.record.reason)
            return self._fall_back(question, plan, context, [step], result.record.reason)
        judgement = result.value
        # Identifiers the model invents (or mistypes) would point the evidence nowhere.
        chunk_ids = [c for c in dict.fromkeys(judgement.supporting_chunks) if c in shown]
        if judgement.relevant and not chunk_ids:
            reason = "relevant, but no shown chunk supports it"
            step = llm_step("read_paper", "heuristic", result.record, reason)
            return self._fall_back(question, plan, context, [step], reason)
        relevant = judgement.relevant
        sufficient = relevant and judgement.sufficient
        step = llm_step(
            "read_paper",
            BACKEND,
            result.record,
            None,
            dropped_chunks=[c for c in judgement.supporting_chunks if c not in shown],
            rationale=judgement.rationale,
        )
        return PaperReading(
            paper_id=context.paper_id,
            relevant=relevant,
            sufficient=sufficient,
            score=judgement_score(relevant, sufficient),
            chunk_ids=chunk_ids if relevant else [],
            backend=BACKEND,
            steps=[step],
            covers=self._covers(question, plan, context),
        )

    def _fall_back(
        self,
        question: Question,
        plan: Plan,
        context: PaperContext,
        steps: list[dict[str, Any]],
        reason: str | None,
    ) -> PaperReading:
        reading = self.fallback(question, plan, context)
        if not steps:
            steps = [llm_step("read_paper", reading.backend, None, reason)]
        reading.steps[:0] = steps
        return reading
