"""Evidence verification at the end of each round (Lit3R §2.1.2).

The verifier sees the pool's top ``top_papers`` papers (Ranking A), each with its
``chunks_per_paper`` best chunks cut to ``chunk_chars`` characters, rendered by
:func:`render_listing` as Lit3R App. C describes ``{listing}``: the paper's identifier, title,
venue and year, then each chunk's type, page, section and object identifier and its text. It
reports which listed papers contain evidence, whether the evidence suffices and what is missing.

Backends:

- ``heuristic``: a listed paper contains evidence when one of its pool chunks (or its title)
  names a planned answer target (case- and hyphen-insensitive, as a whole word) or, for a plan
  without answer targets, when its best chunk scores within ``SCORE_MARGIN`` of the top paper.
  The evidence suffices when every answer-target group is covered by an evidence paper and
  the plan's desired paper count is reached; ``missing`` names the uncovered targets.
- ``llm``: the ``verify`` prompt; identifiers the model invents are dropped, and an invalid
  reply gives the heuristic verification with ``fallback_reason`` set.

Example:
    >>> from littrace.config import VerifySettings
    >>> from littrace.llm.schemas import Plan, TargetGroup
    >>> from littrace.retrieve.pool import SharedPool
    >>> from littrace.retrieve.rerank import RerankedChunk
    >>> from littrace.schema import Question
    >>> pool = SharedPool()
    >>> pool.add([RerankedChunk("p1#0001", 0.02, 0.9, 1, 1, True)],
    ...          {"p1#0001": "S-RAG runs on one A100 GPU."}.get)
    >>> plan = Plan(target_groups=[
    ...     TargetGroup(name="S-RAG", role="answer_target", query="S-RAG", anchors=["S-RAG"]),
    ...     TargetGroup(name="ICAE", role="answer_target", query="ICAE", anchors=["ICAE"])])
    >>> question = Question(query_id="q", benchmark="LitTraceQA", answer_types=["freeform"],
    ...     question="Which GPU do S-RAG and ICAE use?")
    >>> outcome = verify(question, plan, pool, VerifySettings(), None)
    >>> outcome.verification
    Verification(evidence_papers=['p1'], sufficient=False, missing='ICAE')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from littrace.config import VerifySettings
from littrace.llm import CallRecord, LlmClient, render
from littrace.llm.schemas import Plan, Verification
from littrace.retrieve.plan import answer_spec, key_phrases, name_pattern
from littrace.retrieve.pool import PoolChunk, SharedPool
from littrace.schema import Question

__all__ = [
    "SCORE_MARGIN",
    "ChunkMeta",
    "ListedPaper",
    "Lookup",
    "PaperMeta",
    "VerifyOutcome",
    "heuristic_verification",
    "listed_papers",
    "render_listing",
    "verify",
]

# Without named targets, papers whose best chunk is within 10 % of the top paper's count as
# evidence: near-ties at the top are as likely to hold the answer as the first paper.
SCORE_MARGIN = 0.1


class PaperMeta(Protocol):
    """What the listing shows of a paper (``PaperRecord`` and ``PoolPaper`` both fit)."""

    @property
    def title(self) -> str: ...
    @property
    def venue(self) -> str: ...
    @property
    def year(self) -> int | None: ...


class ChunkMeta(Protocol):
    """What the listing shows of a chunk (``littrace.corpus.model.Chunk`` fits)."""

    @property
    def type(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def section(self) -> str: ...
    @property
    def object_id(self) -> str: ...


def _none(_: str) -> None:
    return None


@dataclass(frozen=True)
class Lookup:
    """Paper and chunk metadata by identifier; unknown ones are listed without metadata."""

    paper: Callable[[str], PaperMeta | None] = field(default=_none)
    chunk: Callable[[str], ChunkMeta | None] = field(default=_none)


@dataclass(frozen=True)
class ListedPaper:
    """A paper shown to the verifier: its best score, shown chunks and every pool chunk."""

    paper_id: str
    score: float
    shown: list[PoolChunk]
    chunks: list[PoolChunk]


@dataclass(frozen=True)
class VerifyOutcome:
    """The verification, the backend that made it, the LLM record and the fallback reason."""

    verification: Verification
    backend: str
    record: CallRecord | None
    fallback_reason: str | None


def verify(
    question: Question,
    plan: Plan,
    pool: SharedPool,
    settings: VerifySettings,
    client: LlmClient | None,
    lookup: Lookup | None = None,
) -> VerifyOutcome:
    """Verify the pool's top papers against ``question``; see the module docstring."""
    lookup = lookup or Lookup()
    papers = listed_papers(pool, settings)
    fallback = heuristic_verification(question, plan, papers, lookup)
    if settings.backend == "heuristic":
        return VerifyOutcome(fallback, "heuristic", None, None)
    if client is None:
        return VerifyOutcome(fallback, "heuristic", None, "no LLM client")
    if not papers:
        return VerifyOutcome(fallback, "heuristic", None, "empty pool")  # nothing to judge

    listing = render_listing(papers, lookup, settings.chunk_chars)
    messages = render(
        "verify", question=question.question, answer_spec=answer_spec(question), listing=listing
    )
    result = client.complete_json("verify", messages, Verification, fallback=lambda: fallback)
    if result.fallback:
        return VerifyOutcome(fallback, "heuristic", result.record, result.record.reason)
    shown = {paper.paper_id for paper in papers}
    value = result.value
    # Only listed identifiers may be carried forward as seed papers (Lit3R App. C).
    evidence = [paper for paper in dict.fromkeys(value.evidence_papers) if paper in shown]
    verification = Verification(
        evidence_papers=evidence,
        sufficient=value.sufficient,
        missing="" if value.sufficient else value.missing,
    )
    return VerifyOutcome(verification, "llm", result.record, None)


def listed_papers(pool: SharedPool, settings: VerifySettings) -> list[ListedPaper]:
    """The top ``top_papers`` papers of Ranking A with their ``chunks_per_paper`` best chunks."""
    chunks: dict[str, list[PoolChunk]] = {}
    for chunk in pool.ranked_chunks():
        chunks.setdefault(chunk.paper_id, []).append(chunk)
    return [
        ListedPaper(paper, score, chunks[paper][: settings.chunks_per_paper], chunks[paper])
        for paper, score in pool.paper_ranking()[: settings.top_papers]
    ]


def render_listing(papers: list[ListedPaper], lookup: Lookup, chunk_chars: int) -> str:
    """The verifier's ``{listing}``: one block per paper, chunks cut to ``chunk_chars``."""
    blocks = []
    for paper in papers:
        meta = lookup.paper(paper.paper_id)
        lines = [f"[{paper.paper_id}]"]
        if meta is not None:
            lines.append(f"Title: {meta.title}")
            lines.append(f"Venue: {meta.venue or 'unknown'} {meta.year or ''}".rstrip())
        for number, chunk in enumerate(paper.shown, start=1):
            lines.append(f"Chunk {number} ({_chunk_header(chunk.chunk_id, lookup)}):")
            lines.append(chunk.text[:chunk_chars])
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def heuristic_verification(
    question: Question, plan: Plan, papers: list[ListedPaper], lookup: Lookup
) -> Verification:
    """The model-free verification of ``papers`` (rules in the module docstring)."""
    targets = [
        group.anchors or [group.name]
        for group in plan.target_groups
        if group.role == "answer_target"
    ]
    if targets:
        covered: set[int] = set()
        evidence = []
        for paper in papers:
            texts = [chunk.text for chunk in paper.chunks]
            meta = lookup.paper(paper.paper_id)
            texts += [meta.title] if meta is not None else []
            hits = {index for index, names in enumerate(targets) if _names_any(names, texts)}
            if hits:
                evidence.append(paper.paper_id)
                covered |= hits
        uncovered = [targets[index][0] for index in range(len(targets)) if index not in covered]
    else:
        top = papers[0].score if papers else 0.0
        evidence = [
            paper.paper_id for paper in papers if paper.score >= top - SCORE_MARGIN * abs(top)
        ]
        uncovered = []
    enough = len(evidence) >= plan.desired_papers
    sufficient = bool(evidence) and not uncovered and enough
    missing = "; ".join(uncovered)
    if not sufficient and not missing:
        # Every target is covered but papers are too few: search the question's topic again.
        topic = "; ".join(key_phrases(question.question)[:2]) or question.question
        missing = f"more papers on {topic}"
    return Verification(evidence_papers=evidence, sufficient=sufficient, missing=missing)


def _names_any(names: list[str], texts: list[str]) -> bool:
    patterns = [name_pattern(name) for name in names]
    return any(pattern.search(text) for pattern in patterns for text in texts)


def _chunk_header(chunk_id: str, lookup: Lookup) -> str:
    meta = lookup.chunk(chunk_id)
    parts = [f"id: {chunk_id}"]
    if meta is not None:
        parts += [f"type: {meta.type}", f"page: {meta.page}"]
        parts += [f"section: {meta.section}"] if meta.section else []
        parts += [f"object: {meta.object_id}"] if meta.object_id else []
    return ", ".join(parts)
