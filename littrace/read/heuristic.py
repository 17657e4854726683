"""The model-free paper-local reader (Lit3R §2.2.1 without a model).

Each candidate is judged on its own chunks: a chunk scores the weighted share of the
question's terms it contains, the terms of the planned anchors that the question names
weighing ``read.local.anchor_weight``. The paper is relevant when its best chunk reaches
``relevant_threshold`` or it is the subject of an answer-target group (the group's anchor is in
its title, as "the paper that introduces X" is titled "X: ..."), sufficient when its best
chunk reaches ``sufficient_threshold``; its supporting chunks are those within
``support_ratio`` of the best.

Example:
    >>> reader = HeuristicReader(settings.read.local)  # doctest: +SKIP
    >>> reading = reader(question, plan, context)  # doctest: +SKIP
    >>> reading.relevant, reading.covers, reading.chunk_ids[:2]  # doctest: +SKIP
    (True, ['SparseSieve'], ['p1#0026', 'p1#0014'])
"""

from __future__ import annotations

import re

from littrace.config import LocalReadSettings
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.records import PaperContext, PaperReading
from littrace.read.text import Query, contains_phrase, norm, terms

_QUOTED = re.compile(r"[\"“”]([^\"“”]{3,})[\"“”]")


def question_anchors(question: Question, plan: Plan) -> list[str]:
    """The plan's anchors and rows that the question itself names (not option texts), and
    any quoted phrase."""
    named = dict.fromkeys([*plan.named_anchors, *plan.rows, *_QUOTED.findall(question.question)])
    return [
        anchor for anchor in named if terms(anchor) and contains_phrase(question.question, anchor)
    ]


def question_query(question: Question, plan: Plan, anchor_weight: float) -> Query:
    """The question's terms (weight 1) and its anchors as whole phrases (``anchor_weight`` per
    term), for scoring passages."""
    words = dict.fromkeys(terms(question.question), 1.0)
    phrases: dict[str, float] = {}
    for anchor in question_anchors(question, plan):
        anchor_terms = terms(anchor)
        phrases[norm(anchor)] = anchor_weight * len(anchor_terms)
        for term in anchor_terms:
            words.pop(term, None)
    return Query(words, phrases)


def covered_groups(question: Question, plan: Plan, title: str) -> list[str]:
    """Answer-target groups whose question-named anchor is in ``title``."""
    named = question_anchors(question, plan)
    return [
        group.name
        for group in plan.target_groups
        if group.role == "answer_target"
        and any(anchor in named and contains_phrase(title, anchor) for anchor in group.anchors)
    ]


class HeuristicReader:
    """A :class:`~littrace.read.records.PaperReader` from term coverage (see the module doc)."""

    def __init__(self, settings: LocalReadSettings) -> None:
        self.settings = settings

    def __call__(self, question: Question, plan: Plan, context: PaperContext) -> PaperReading:
        config = self.settings
        query = question_query(question, plan, config.anchor_weight)
        scored = sorted(
            (
                (
                    query.score(chunk.text),
                    context.pool_scores.get(chunk.chunk_id, 0.0),
                    chunk.chunk_id,
                )
                for chunk in context.chunks
            ),
            key=lambda item: (-item[0], -item[1]),
        )
        best = scored[0][0] if scored else 0.0
        covers = covered_groups(question, plan, context.paper.title) if scored else []
        supporting = [
            (score, chunk_id)
            for score, _, chunk_id in scored[: config.max_chunks]
            if score > 0 and score >= config.support_ratio * best
        ]
        return PaperReading(
            paper_id=context.paper_id,
            relevant=bool(covers) or best >= config.relevant_threshold,
            sufficient=best >= config.sufficient_threshold,
            score=round(best, 6),
            chunk_ids=[chunk_id for _, chunk_id in supporting],
            details=[f"{chunk_id}: {score:.3f}" for score, chunk_id in supporting],
            backend="heuristic",
            covers=covers,
        )
