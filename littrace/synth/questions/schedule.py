"""The mix of question kinds, and :func:`build_questions`, which follows it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from littrace.synth.questions.builder import Builder
from littrace.synth.questions.question import Record
from littrace.synth.render import RenderedPaper

# The mix for 30 questions (18 single-paper, 12 multi-paper), interleaved. Two multi-paper
# questions (multi_followup) name one paper and leave the papers that cite it unnamed.
SCHEDULE: tuple[str, ...] = (
    "table_value",
    "multi_table",
    "text_fact",
    "figure",
    "multi_table_mc",
    "equation",
    "cite_for",
    "table_value",
    "multi_equation",
    "figure",
    "text_fact",
    "multi_table",
    "table_gain",
    "algorithm",
    "multi_text_mc",
    "figure",
    "ref_author",
    "multi_table_mc",
    "table_value",
    "text_fact",
    "multi_citation",
    "cite_for",
    "table_answer",
    "multi_followup",
    "equation",
    "multi_equation",
    "table_ablation",
    "multi_text_mc",
    "multi_followup",
    "multi_table",
)


@dataclass(frozen=True, slots=True)
class SynthQuestion:
    """A generated question: its kind (a :data:`SCHEDULE` entry), input and gold records."""

    kind: str
    question: Record
    gold: Record


def build_questions(
    rng: random.Random, papers: list[RenderedPaper], n_questions: int
) -> list[SynthQuestion]:
    """``n_questions`` questions following :data:`SCHEDULE`.

    A kind the corpus cannot support (no line of three papers, say) is replaced by the
    next kind of the schedule that it can.
    """
    builder = Builder(rng, papers)
    out: list[SynthQuestion] = []
    width = max(3, len(str(n_questions)))
    for i in range(n_questions):
        start = i % len(SCHEDULE)
        for offset in range(len(SCHEDULE)):
            kind = SCHEDULE[(start + offset) % len(SCHEDULE)]
            question = builder.build(kind)
            if question:
                break
        else:
            raise ValueError(f"the corpus cannot support question {i + 1}; generate more papers")
        record, gold = question.records(f"synth_q_{i + 1:0{width}d}")
        out.append(SynthQuestion(kind, record, gold))
    return out
