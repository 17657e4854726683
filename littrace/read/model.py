"""What the reader's steps pass to each other (Lit3R §2.2, IntrAgent, TRACE §3.2–3.4).

A question's candidates are read one paper at a time (:class:`PaperContext` in,
:class:`PaperReading` out, by any :class:`PaperReader` backend), then selected, localized and
synthesized across papers (:class:`Synthesis` out). Every step's backend, LLM calls and
fallbacks go into the ``steps`` lists, which the trace keeps verbatim.

Example:
    >>> reading = PaperReading(paper_id="p1", relevant=True, sufficient=True, score=0.8,
    ...                        chunk_ids=["p1:c3"], backend="heuristic")
    >>> reading.relevant, reading.chunk_ids
    (True, ['p1:c3'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from littrace.corpus.model import Chunk, PaperObject, PaperRecord
from littrace.llm.schemas import Plan
from littrace.schema import Question


@dataclass(frozen=True)
class PaperContext:
    """Everything a paper-local reader may look at for one candidate paper.

    ``chunks`` are all of the paper's chunks in document order; ``pool_scores`` maps the
    chunk ids the retriever put in the shared pool to their pool score (higher is better);
    ``rank`` is the paper's 1-based position in the final candidate list.
    """

    paper: PaperRecord
    chunks: tuple[Chunk, ...]
    objects: tuple[PaperObject, ...]
    pool_scores: dict[str, float]
    rank: int

    @property
    def paper_id(self) -> str:
        return self.paper.paper_id


@dataclass
class PaperReading:
    """One paper judged on its own: is it relevant, is its evidence sufficient, and where."""

    paper_id: str
    relevant: bool
    sufficient: bool
    score: float
    chunk_ids: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    backend: str = "heuristic"
    steps: list[dict[str, Any]] = field(default_factory=list)


class PaperReader(Protocol):
    """A paper-local reading backend (model-free, Lit3R's LLM judge, or IntrAgent's loop)."""

    def __call__(self, question: Question, plan: Plan, context: PaperContext) -> PaperReading: ...


@dataclass(frozen=True)
class Fact:
    """A value extracted from evidence, with where it came from."""

    paper_id: str
    chunk_id: str
    text: str
    value: float | None = None
    unit: str = ""
    entity: str = ""
    attribute: str = ""


@dataclass
class Synthesis:
    """The cross-paper answer: the submission ``answer`` object and what it rests on."""

    answer: dict[str, Any]
    papers: list[str]
    chunk_ids: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    backend: str = "heuristic"
    steps: list[dict[str, Any]] = field(default_factory=list)
