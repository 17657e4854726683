"""Which candidate papers the answer rests on, and how many (TRACE §3.1, Lit3R §2.2).

Paper F1 is a third of the score, so the count matters as much as the choice:

1. With ``read.select.cover_groups_first``, every planned answer-target group gets its own
   paper: the best-scoring relevant reading that is the group's subject (``covers``).
2. Papers no group names (a question that leaves its sources unnamed) join only when their
   evidence is sufficient and their score is within ``score_gap`` of the best reading's, up to
   the plan's ``desired_papers`` once groups gave papers; a single-paper plan keeps one paper.
3. Nothing relevant: the top candidate, so every answer names a paper.

At most ``read.select.max_papers`` papers are returned, in candidate order.

Example:
    >>> from littrace.read.model import PaperReading
    >>> from littrace.llm.schemas import Plan
    >>> readings = [PaperReading("p1", True, True, 0.9), PaperReading("p2", True, True, 0.5)]
    >>> select_papers(Plan(desired_papers=1), readings, SelectSettings()).papers
    ['p1']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from littrace.config import SelectSettings
from littrace.llm.schemas import Plan
from littrace.read.model import PaperReading


@dataclass
class Selection:
    """The selected papers, best first, and why each was taken."""

    papers: list[str]
    reasons: dict[str, str] = field(default_factory=dict)


def select_papers(plan: Plan, readings: list[PaperReading], settings: SelectSettings) -> Selection:
    """Select the answer papers from ``readings`` (in candidate order); see the module doc."""
    order = {reading.paper_id: i for i, reading in enumerate(readings)}
    relevant = [r for r in readings if r.relevant]
    reasons: dict[str, str] = {}
    if settings.cover_groups_first:
        for group in plan.target_groups:
            owners = [r for r in relevant if group.name in r.covers]
            if owners:
                owner = max(owners, key=lambda r: (r.score, -order[r.paper_id]))
                reasons.setdefault(owner.paper_id, f"subject of target group {group.name!r}")
    best = max((r.score for r in relevant), default=0.0)
    if reasons:
        wanted = max(plan.desired_papers, len(reasons))
    else:
        wanted = 1 if plan.desired_papers == 1 else settings.max_papers
    for reading in sorted(relevant, key=lambda r: (-r.score, order[r.paper_id])):
        if len(reasons) >= wanted:
            break
        close = reading.score >= settings.score_gap * best
        if reading.paper_id not in reasons and reading.sufficient and close:
            reasons[reading.paper_id] = f"sufficient evidence, score {reading.score:.3f}"
        elif not reasons:
            reasons[reading.paper_id] = f"most relevant, score {reading.score:.3f}"
    if not reasons and readings:
        reasons[readings[0].paper_id] = "top candidate (no relevant reading)"
    papers = sorted(reasons, key=order.__getitem__)[: settings.max_papers]
    return Selection(papers, {paper: reasons[paper] for paper in papers})
