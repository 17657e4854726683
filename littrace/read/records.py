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
from typing import TYPE_CHECKING, Any, Protocol

from littrace.corpus.document import Block, Chunk, Citation, PaperObject, PaperRecord, Reference
from littrace.littraceqa import Question, SourceType
from littrace.llm.replies import Plan

if TYPE_CHECKING:
    from littrace.index.encoders import Encoder


@dataclass(frozen=True)
class PaperContext:
    """Everything a paper-local reader may look at for one candidate paper.

    ``chunks`` are all of the paper's chunks in document order; ``pool_scores`` maps the
    chunk ids the retriever put in the shared pool to their pool score (higher is better);
    ``rank`` is the paper's 1-based position in the final candidate list. ``references``
    (the bibliography), ``citations`` (citing sentences) and ``pages`` (page number -> page
    text) let the localizer point at a reference entry or the page a sentence is printed on;
    ``blocks`` (text blocks with boxes) give the sentence that introduces a display.
    """

    paper: PaperRecord
    chunks: tuple[Chunk, ...]
    objects: tuple[PaperObject, ...]
    pool_scores: dict[str, float]
    rank: int
    references: tuple[Reference, ...] = ()
    citations: tuple[Citation, ...] = ()
    pages: dict[int, str] = field(default_factory=dict)
    blocks: tuple[Block, ...] = ()

    @property
    def paper_id(self) -> str:
        return self.paper.paper_id


@dataclass
class PaperReading:
    """One paper judged on its own: is it relevant, is its evidence sufficient, and where.

    ``covers`` names the plan's target groups this paper is the subject of (the group's anchor
    is in its title: the paper that introduces the named method), which selection uses to give
    each group its own paper.
    """

    paper_id: str
    relevant: bool
    sufficient: bool
    score: float
    chunk_ids: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    backend: str = "heuristic"
    steps: list[dict[str, Any]] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)


class PaperReader(Protocol):
    """A paper-local reading backend (model-free, Lit3R's LLM judge, or IntrAgent's loop)."""

    def __call__(self, question: Question, plan: Plan, context: PaperContext) -> PaperReading: ...


@dataclass
class EvidenceItem:
    """One typed, located evidence candidate and what it was scored on."""

    paper_id: str
    source_type: SourceType
    locator: dict[str, Any]
    score: float
    chunk_id: str = ""
    bbox: list[float] | None = None
    text: str = ""
    reasons: list[str] = field(default_factory=list)
    # What is cited is evidenced together with where it is cited: the citing sentence.
    companion: EvidenceItem | None = None

    def submission(self) -> dict[str, Any]:
        """The item as a submission ``evidence`` entry."""
        return {
            "paper_id": self.paper_id,
            "source_type": self.source_type,
            "locator": dict(self.locator),
        }

    def row(self, query_id: str) -> dict[str, Any]:
        """The item as a row of the ``evidence`` table."""
        locator = self.locator
        object_id = next(
            (
                str(locator[name])
                for name in ("table_id", "figure_id", "equation_id", "algorithm_id", "citation_id")
                if name in locator
            ),
            None,
        )
        return {
            "query_id": query_id,
            "paper_id": self.paper_id,
            "source_type": self.source_type,
            "page": locator.get("page"),
            "object_id": object_id,
            "section": locator.get("section"),
            "chunk_id": self.chunk_id or None,
            "bbox": self.bbox,
            "score": round(self.score, 6),
        }


@dataclass(frozen=True)
class SynthesisInput:
    """What cross-paper synthesis sees: the selected papers, their readings and evidence.

    ``encoder`` (the retriever's dense encoder, when one is open) lets the model-free backend
    match options that the evidence paraphrases rather than prints.
    """

    question: Question
    plan: Plan
    papers: list[str]
    contexts: dict[str, PaperContext]
    readings: dict[str, PaperReading]
    evidence: list[EvidenceItem]
    encoder: Encoder | None = None


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
    # Where the answer was read (the table cells of a choice by alignment), or the numbers
    # it was ``computed`` from, which the evidence then points at
    # (littrace.read.localize.ground_evidence).
    grounds: list[Fact] = field(default_factory=list)
    computed: bool = False
    # The grounds are the cells a table answer's rows were read off: each table is evidence.
    rows_read: bool = False


class Synthesizer(Protocol):
    """A cross-paper synthesis backend (model-free or Lit3R §2.2.2's LLM step)."""

    def __call__(self, data: SynthesisInput) -> Synthesis: ...
