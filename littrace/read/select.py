"""Which candidate papers the answer rests on, and how many (TRACE §3.1, Lit3R §2.2).

Paper F1 is a third of the score, so the count matters as much as the choice:

1. With ``read.select.cover_groups_first``, every planned answer-target group gets its own
   paper: the best-scoring relevant reading that is the group's subject (``covers``).
2. A question about the papers that cite a named one ("the papers that cite X") adds every
   candidate whose bibliography lists the subject paper's title.
3. Without any subject paper (a question that leaves its sources unnamed), papers join when
   their evidence is sufficient and their score is within ``score_gap`` of the best
   reading's; a single-paper plan keeps one paper.
4. Nothing relevant: the top candidate, so every answer names a paper.

At most ``read.select.max_papers`` papers are returned, in candidate order.

Example:
    >>> from littrace.read.model import PaperContext, PaperReading
from littrace.read.text import norm
from littrace.schema import Question

# The question asks for the papers that cite a named one (not for what a paper cites).
_CITING = re.compile(
    r"\bpapers?\\s+(?:that|which)\\s+cite\b|\bciting\\s+papers?\b|\bpapers?\\s+citing\b"
    r"|\bcited\\s+by\b",
    re.I,
)
    >>> from littrace.llm.schemas import Plan
    >>> readings = [PaperReading("p1", True, True, 0.9), PaperReading("p2", True, True, 0.5)]
    >>> select_papers(Plan(desired_papers=1), readings, SelectSettings()).papers
    ['p1']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from littrace.config import SelectSettings
from littrace.llm.schemas import Plan
from littrace.read.model import PaperContext, PaperReading
from littrace.read.text import norm
from littrace.schema import Question

# The question asks for the papers that cite a named one (not for what a paper cites).
_CITING = re.compile(
    r"\bpapers?\s+(?:that|which)\s+cite\b|\bciting\s+papers?\b|\bpapers?\s+citing\b"
    r"|\bcited\s+by\b",
    re.I,
)


@dataclass
class Selection:
    """The selected papers, best first, and why each was taken."""

    papers: list[str]
    reasons: dict[str, str] = field(default_factory=dict)


def cites(context: PaperContext, title: str) -> bool:
    """Whether ``context``'s bibliography lists a work titled ``title`` (or its main part)."""
    wanted = {norm(title), norm(title.split(":")[0])} - {""}
    return any(norm(ref.title) in wanted for ref in context.references if ref.title)


def select_papers(
    plan: Plan,
    readings: list[PaperReading],
    settings: SelectSettings,
    question: Question | None = None,
    contexts: dict[str, PaperContext] | None = None,
) -> Selection:
    """Select the answer papers from ``readings`` (in candidate order); see the module doc.

    ``question`` and ``contexts`` (paper id -> context) enable the citing-papers rule.
    """
    order = {reading.paper_id: i for i, reading in enumerate(readings)}
    relevant = [r for r in readings if r.relevant]
    reasons: dict[str, str] = {}
    if settings.cover_groups_first:
        for group in plan.target_groups:
            owners = [r for r in relevant if group.name in r.covers]
            if owners:
                owner = max(owners, key=lambda r: (r.score, -order[r.paper_id]))
                reasons.setdefault(owner.paper_id, f"subject of target group {group.name!r}")
    if reasons and question is not None and contexts and _CITING.search(question.question):
        subjects = [contexts[p].paper.title for p in list(reasons) if p in contexts]
        for reading in readings:
            context = contexts.get(reading.paper_id)
            if context is None or reading.paper_id in reasons:
                continue
            cited = next((t for t in subjects if cites(context, t)), None)
            if cited is not None:
                reasons[reading.paper_id] = f"cites {cited!r}"
    if not reasons:
        best = max((r.score for r in relevant), default=0.0)
        wanted = 1 if plan.desired_papers == 1 else settings.max_papers
        for reading in sorted(relevant, key=lambda r: (-r.score, order[r.paper_id])):
            if len(reasons) >= wanted:
                break
            if reading.sufficient and reading.score >= settings.score_gap * best:
                reasons[reading.paper_id] = f"sufficient evidence, score {reading.score:.3f}"
            elif not reasons:
                reasons[reading.paper_id] = f"most relevant, score {reading.score:.3f}"
    if not reasons and readings:
        reasons[readings[0].paper_id] = "top candidate (no relevant reading)"
    papers = sorted(reasons, key=order.__getitem__)[: settings.max_papers]
    return Selection(papers, {paper: reasons[paper] for paper in papers})
