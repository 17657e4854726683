"""Evidence verification at the end of each round (Lit3R §2.1.2).

The verifier sees the pool's top ``top_papers`` papers (Ranking A), each with its
``chunks_per_paper`` best chunks cut to ``chunk_chars`` characters, rendered by
:func:`render_listing` as Lit3R App. C describes ``{listing}``: the paper's identifier, title,
venue and year, then each chunk's type, page, section and object identifier and its text. It
reports which listed papers contain evidence, whether the evidence suffices and what is missing.

Backends:

- ``heuristic``: coverage checked item by item, on the listed papers' pool chunks and titles
  (names matched case- and hyphen-insensitively, as whole words):

  1. each planned answer target must be named by a listed paper; the papers naming one
     contain evidence (for a plan without answer targets, the papers whose best chunk scores
     within ``SCORE_MARGIN`` of the top paper's do). A "target" that is a venue of the
     corpus ("arXiv") describes a paper and is not sought;
  2. each paper the question describes by year, with or without a venue ("the ACL 2020
     paper that ...", read with :func:`littrace.read.select.paper_descriptions`), must be a
     listed paper whose record fits it; the best-ranked such paper contains evidence. A year
     with no words describing a paper around it (a citation, "Smith et al., 2022") is no item;
  3. each other entity, dataset or phrase the question names
     (:func:`littrace.read.heuristic.question_anchors`) must be named by an evidence paper;
  4. a multi-paper question needs as many evidence papers as the plan's desired count; a
     shortfall the missing targets and papers do not account for asks for more papers on
     the question's topic.

  The evidence suffices when nothing is missing. ``missing`` names each missing item as a
  search phrase (a target's name; the question's clause that describes a paper or names an
  entity), items joined by "; " (:func:`missing_text`, read back by :func:`missing_items`).
- ``llm``: the ``verify`` prompt; identifiers the model invents are dropped, and an invalid
  reply gives the heuristic verification with ``fallback_reason`` set.

Example:
    >>> from littrace.config import VerifySettings
    >>> from littrace.llm.replies import Plan, TargetGroup
    >>> from littrace.retrieve.shared_pool import SharedPool
    >>> from littrace.retrieve.rerank import RerankedChunk
    >>> from littrace.littraceqa import Question
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
    >>> missing_items("ICAE; more papers on GPU use")
    ['ICAE', 'more papers on GPU use']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from littrace.asks import answer_spec
from littrace.config import VerifySettings
from littrace.corpus.document import PaperRecord
from littrace.littraceqa import Question
from littrace.llm import CallRecord, LlmClient, render
from littrace.llm.replies import Plan, Verification
from littrace.read.heuristic import question_anchors
from littrace.read.select import Description, paper_descriptions
from littrace.read.text import sentences
from littrace.retrieve.plan import key_phrases, name_pattern
from littrace.retrieve.shared_pool import PoolChunk, SharedPool

__all__ = [
    "SCORE_MARGIN",
    "ChunkMeta",
    "ListedPaper",
    "Lookup",
    "VerifyOutcome",
    "heuristic_verification",
    "listed_papers",
    "missing_items",
    "missing_text",
    "render_listing",
    "verify",
]

# Without named targets, papers whose best chunk is within 10 % of the top paper's count as
# evidence: near-ties at the top are as likely to hold the answer as the first paper.
SCORE_MARGIN = 0.1
_MISSING_SEPARATOR = ";"


class ChunkMeta(Protocol):
    """What the listing shows of a chunk (``littrace.corpus.document.Chunk`` fits)."""

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
    """Paper and chunk metadata by identifier (unknown ones are listed without metadata), and
    the corpus's venue names, which tell a venue printed next to a year in the question."""

    paper: Callable[[str], PaperRecord | None] = field(default=_none)
    chunk: Callable[[str], ChunkMeta | None] = field(default=_none)
    venues: tuple[str, ...] = ()


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
    """The model-free verification of ``papers``, item by item (rules in the module docstring)."""
    texts = {paper.paper_id: _paper_texts(paper, lookup) for paper in papers}
    venues = {venue.lower() for venue in lookup.venues}
    targets = _answer_targets(plan, venues)
    if targets:
        evidence = {p for p in texts if any(_names_any(names, texts[p]) for names in targets)}
        missing = [
            names[0] for names in targets if not any(_names_any(names, t) for t in texts.values())
        ]
    else:
        top = papers[0].score if papers else 0.0
        evidence = {p.paper_id for p in papers if p.score >= top - SCORE_MARGIN * abs(top)}
        missing = []
    for description in paper_descriptions(question.question, list(lookup.venues)):
        clause = _describing_clause(question, description)
        if clause is None:
            continue  # a bare year ("Smith et al., 2022") gives nothing to search for
        fitting = next((p for p in texts if _fits(description, lookup.paper(p))), None)
        if fitting is None:
            missing.append(clause)
        else:
            evidence.add(fitting)
    missing_papers = len(missing)
    sought = venues | {name.lower() for names in targets for name in names}
    for entity in question_anchors(question, plan):
        if entity.lower() not in sought and not any(
            _names_any([entity], texts[p]) for p in evidence
        ):
            missing.append(_clause_naming(question, name_pattern(entity)) or entity)
    if len(evidence) + missing_papers < plan.desired_papers:
        topics = _phrases(question)[:2] or [question.question]
        missing += [f"more papers on {topic}" for topic in topics]
    ranked = [p for p in texts if p in evidence]  # the listing's order
    missing = list(dict.fromkeys(missing))
    return Verification(
        evidence_papers=ranked,
        sufficient=bool(ranked) and not missing,
        missing=missing_text(missing),
    )


def missing_text(items: list[str]) -> str:
    """The verifier's ``missing``: the missing items, each a search phrase, joined by "; "."""
    return f"{_MISSING_SEPARATOR} ".join(items)


def missing_items(missing: str) -> list[str]:
    """The items of a verifier's ``missing`` (an LLM's too: one item per ";" or line)."""
    pieces = re.split(rf"[{_MISSING_SEPARATOR}\n]", missing)
    return [piece.strip() for piece in pieces if piece.strip()]


def _paper_texts(paper: ListedPaper, lookup: Lookup) -> list[str]:
    """What coverage is checked on: the paper's pool chunks and its title."""
    meta = lookup.paper(paper.paper_id)
    return [chunk.text for chunk in paper.chunks] + ([meta.title] if meta is not None else [])


def _fits(description: Description, paper: PaperRecord | None) -> bool:
    return paper is not None and description.fits(paper)


def _answer_targets(plan: Plan, venues: set[str]) -> list[list[str]]:
    """Each answer-target group's names, less groups that are a venue of the corpus: a venue
    the planner took for a name ("arXiv") describes the paper, it is not a target."""
    groups = [g.anchors or [g.name] for g in plan.target_groups if g.role == "answer_target"]
    return [names for names in groups if not all(name.lower() in venues for name in names)]


def _describing_clause(question: Question, description: Description) -> str | None:
    """The question's clause that describes the paper: it holds the year and the venue."""
    year = re.compile(rf"(?<![\w.]){description.year}(?![\w.])")
    if description.venue is None:
        return _clause_naming(question, year)
    return _clause_naming(question, year, name_pattern(description.venue))


def _clause_naming(question: Question, *patterns: re.Pattern[str]) -> str | None:
    """The first of the question's key phrases that every pattern finds: an item's search."""
    return next((p for p in _phrases(question) if all(x.search(p) for x in patterns)), None)


def _phrases(question: Question) -> list[str]:
    """The key phrases of each of the question's sentences, in order."""
    return [phrase for sentence in sentences(question.question) for phrase in key_phrases(sentence)]


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
