"""The per-question pipeline: retrieve, read, select, localize, synthesize and check one
question within its deadline, into a record with the submission line and the full trace."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from littrace.answer.records import (
    AnswerRecord,
    DeadlineState,
    LlmUsage,
    SelectionTrace,
    SynthesisTrace,
    Timings,
    Trace,
)
from littrace.answer.resources import AnswerResources
from littrace.answer.trace import llm_usage, step_fallbacks
from littrace.config import Settings
from littrace.deadline import Deadline
from littrace.littraceqa import Question
from littrace.read.local import read_papers
from littrace.read.localize import ground_evidence
from littrace.read.records import (
    EvidenceItem,
    PaperContext,
    PaperReading,
    Synthesis,
    SynthesisInput,
)
from littrace.read.select import Selection, select_papers
from littrace.read.writer import checked_record, fallback_record
from littrace.retrieve.retriever import RetrievalResult, retrieve


def answer_question(
    question: Question, resources: AnswerResources, settings: Settings
) -> AnswerRecord:
    """Answer one question: its submission line and trace (:class:`AnswerRecord`), within
    ``runtime.record_timeout_s`` from the start of retrieval (see :func:`answer_retrieved`)."""
    started = time.perf_counter()
    deadline = Deadline(settings.runtime.record_timeout_s)
    with deadline.active():
        result = retrieve(question, resources.retrieval, settings)
    retrieve_s = time.perf_counter() - started
    return answer_retrieved(question, result, resources, settings, retrieve_s, deadline)


def answer_retrieved(
    question: Question,
    result: RetrievalResult,
    resources: AnswerResources,
    settings: Settings,
    retrieve_s: float = 0.0,
    deadline: Deadline | None = None,
) -> AnswerRecord:
    """The reading half of :func:`answer_question`, on a finished retrieval (``retrieve_s``
    seconds long): read, select, localize, synthesize, check.

    ``deadline`` is the question's (a fresh ``runtime.record_timeout_s`` one when None). It
    bounds every LLM call (:mod:`littrace.deadline`) and is checked after each stage: passed
    before reading, the record is the writer's conservative fallback; passed while reading,
    the papers not yet read are skipped and the question goes on with the readings it has.
    ``trace.deadline`` says whether it passed and in which stage; ``trace.fallbacks``
    names it when it changed the answer, then the writer's repair of the record if any, then
    every step that fell back (:func:`step_fallbacks`).
    """
    deadline = deadline or Deadline(settings.runtime.record_timeout_s)
    retrieved = time.perf_counter()
    pool_scores = {chunk.chunk_id: chunk.score for chunk in result.pool.ranked_chunks()}
    contexts = [
        context
        for rank, paper_id in enumerate(result.candidates[: settings.read.local.max_candidates], 1)
        if (context := resources.context(paper_id, pool_scores, rank)) is not None
    ]
    with deadline.active():
        if deadline.reached("retrieve"):
            stages = _unanswered(question)
        else:
            stages = _answer_stages(question, result, contexts, resources, settings, deadline)
    synthesis = stages.synthesis
    record = {
        "query_id": question.query_id,
        "gold_papers": [{"paper_id": paper} for paper in stages.papers],
        "evidence": [item.submission() for item in stages.evidence],
        "answer": synthesis.answer,
    }
    submission, fallback = checked_record(record, question)
    finished = time.perf_counter()
    skipped = len(contexts) - len(stages.readings)
    trace = Trace(
        query_id=question.query_id,
        question=question.model_dump(mode="json", exclude_none=True),
        retrieval=result.trace,
        readings=[asdict(reading) for reading in stages.readings],
        selection=SelectionTrace(
            papers=stages.selection.papers,
            reasons=stages.selection.reasons,
            emitted=stages.papers,
        ),
        evidence=[
            item.row(question.query_id) | {"reasons": item.reasons} for item in stages.evidence
        ],
        localizer=stages.localizer_steps,
        synthesis=SynthesisTrace(
            answer=synthesis.answer,
            papers=synthesis.papers,
            chunk_ids=synthesis.chunk_ids,
            facts=[asdict(fact) for fact in synthesis.facts],
            backend=synthesis.backend,
            steps=synthesis.steps,
        ),
        timings=Timings(
            retrieve_s=round(retrieve_s, 4),
            read_s=round(finished - retrieved, 4),
            total_s=round(retrieve_s + finished - retrieved, 4),
        ),
        deadline=DeadlineState(
            seconds=deadline.seconds,
            expired=deadline.stage is not None,
            stage=deadline.stage,
            skipped_papers=skipped,
            llm_calls_cut=deadline.llm_calls_cut,
        ),
        fallbacks=[
            reason
            for reason in (_deadline_fallback(deadline, skipped, len(contexts)), fallback)
            if reason
        ],
    )
    # The parts of the trace that hold steps, as JSON already: no second dump of the trace.
    stepped = {
        "retrieval": trace.retrieval,
        "readings": trace.readings,
        "evidence": trace.evidence,
        "localizer": trace.localizer,
        "synthesis": {"steps": trace.synthesis.steps},
    }
    trace.fallbacks += step_fallbacks(stepped)
    trace.llm = LlmUsage(**llm_usage(stepped))
    return AnswerRecord(query_id=question.query_id, submission=submission, trace=trace)


@dataclass
class _Stages:
    """What the stages after retrieval made of one question."""

    readings: list[PaperReading]
    selection: Selection
    evidence: list[EvidenceItem]
    localizer_steps: list[dict[str, Any]]
    papers: list[str]  # the papers the record emits
    synthesis: Synthesis


def _answer_stages(
    question: Question,
    result: RetrievalResult,
    contexts: list[PaperContext],
    resources: AnswerResources,
    settings: Settings,
    deadline: Deadline,
) -> _Stages:
    """Read, select, localize and synthesize, noting the stage in which ``deadline`` passes."""
    readings = read_papers(
        resources.reader,
        question,
        result.plan,
        contexts,
        settings.read.local.concurrency,
        deadline,
    )
    deadline.reached("read")
    by_id = {context.paper_id: context for context in contexts}
    selection = select_papers(result.plan, readings, settings.read.select, question, by_id)
    deadline.reached("select")
    evidence, localizer_steps = resources.localizer(question, result.plan, selection.papers, by_id)
    deadline.reached("localize")
    with_evidence = {item.paper_id for item in evidence}
    papers = [p for p in selection.papers if p in with_evidence] or selection.papers
    reading_of = {reading.paper_id: reading for reading in readings}
    synthesis = resources.synthesizer(
        SynthesisInput(
            question,
            result.plan,
            papers,
            by_id,
            reading_of,
            evidence,
            resources.retrieval.hybrid.encoder,
        )
    )
    deadline.reached("synthesize")
    evidence = ground_evidence(
        evidence, synthesis.grounds, by_id, synthesis.computed, synthesis.rows_read
    )
    return _Stages(readings, selection, evidence, localizer_steps, papers, synthesis)


def _unanswered(question: Question) -> _Stages:
    """No stage run (the deadline passed before reading): the writer's conservative record."""
    answer = fallback_record(question)["answer"]
    return _Stages([], Selection([]), [], [], [], Synthesis(answer, [], backend="deadline"))


def _deadline_fallback(deadline: Deadline, skipped: int, candidates: int) -> str | None:
    """The trace's fallback entry for the deadline, when passing it changed the answer."""
    if deadline.stage is None:
        return None
    if deadline.stage == "retrieve":
        changes = ["conservative record"]
    else:
        changes = [f"{skipped} of {candidates} papers not read"] if skipped else []
        if deadline.llm_calls_cut:
            changes.append(f"{deadline.llm_calls_cut} LLM calls cut")
    if not changes:
        return None
    return f"deadline: {deadline.seconds:g} s passed in {deadline.stage}: {', '.join(changes)}"
