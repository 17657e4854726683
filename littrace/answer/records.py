"""What answering one question produces: :class:`AnswerRecord`, its submission line and its
:class:`Trace`. Typed from the pipeline to the answers artifact, where they are dumped to JSON
(``traces.jsonl``, the resume journal) and validated back.

The retrieval trace, the readings, the evidence rows, the localizer's steps and the synthesis
steps stay JSON objects: each is the dump of its own stage's record, and LLM call records sit
anywhere inside them (:mod:`littrace.answer.trace` walks them).

Example:
    >>> record = AnswerRecord.model_validate(
    ...     {"query_id": "q1", "submission": {"query_id": "q1"}, "trace": {
    ...         "query_id": "q1", "question": {}, "retrieval": {},
    ...         "selection": {"papers": [], "reasons": {}, "emitted": []},
    ...         "synthesis": {"answer": {}, "papers": [], "chunk_ids": [], "facts": [],
    ...                       "backend": "heuristic", "steps": []},
    ...         "timings": {"retrieve_s": 0.2, "read_s": 0.1, "total_s": 0.3},
    ...         "deadline": {"seconds": 600.0, "expired": False, "stage": None,
    ...                      "skipped_papers": 0, "llm_calls_cut": 0}}})
    >>> record.trace.timings.total_s, record.trace.fallbacks
    (0.3, [])
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

JsonObject = dict[str, Any]


class _Record(BaseModel):
    # Fields in the order the trace has always been written: the dump is the artifact.
    model_config = ConfigDict(extra="forbid")


class SelectionTrace(_Record):
    """The selected papers, why each was kept, and those the record emits (with evidence)."""

    papers: list[str]
    reasons: dict[str, str]
    emitted: list[str]


class SynthesisTrace(_Record):
    """The answer and how it was made: the papers and chunks it read, facts and steps."""

    answer: JsonObject
    papers: list[str]
    chunk_ids: list[str]
    facts: list[JsonObject]
    backend: str
    steps: list[JsonObject]


class Timings(_Record):
    """Seconds spent retrieving, reading (everything after retrieval) and in all."""

    retrieve_s: float
    read_s: float
    total_s: float


class DeadlineState(_Record):
    """The question's deadline: whether it passed, in which stage, and what it cut."""

    seconds: float
    expired: bool
    stage: str | None
    skipped_papers: int
    llm_calls_cut: int


class LlmUsage(_Record):
    """Provider requests, tokens and cost of the question's LLM steps, and how many fell
    back (:func:`littrace.answer.trace.llm_usage`)."""

    calls: int
    tokens: int
    cost: float
    fallbacks: int


class Trace(_Record):
    """Everything one question's answer came from, stage by stage."""

    query_id: str
    question: JsonObject
    retrieval: JsonObject
    readings: list[JsonObject] = Field(default_factory=list)
    selection: SelectionTrace
    evidence: list[JsonObject] = Field(default_factory=list)
    localizer: list[JsonObject] = Field(default_factory=list)
    synthesis: SynthesisTrace
    timings: Timings
    deadline: DeadlineState
    # The deadline when it changed the answer, the writer's repair, each step that fell back.
    fallbacks: list[str] = Field(default_factory=list)
    llm: LlmUsage = Field(default_factory=lambda: LlmUsage(calls=0, tokens=0, cost=0, fallbacks=0))


class AnswerRecord(_Record):
    """One answered question: its submission line (official schema) and its trace."""

    query_id: str
    submission: JsonObject
    trace: Trace

    def dump(self) -> JsonObject:
        """The record as JSON (the journal's line)."""
        return self.model_dump(mode="json")
